//! The progress of a long solve on standard error: on a terminal a live line (the horizon being
//! searched, nodes, elapsed time); otherwise, as the arena does, a plain line per finished
//! horizon, at most one a second, so that quick solves print nothing.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use zerosum_search::ProofMeter;

/// How often the live line is rewritten, and the least time between two plain lines.
const TICK: Duration = Duration::from_millis(200);
const PLAIN_EVERY: Duration = Duration::from_secs(1);

/// A solve's progress display; dropping it clears the live line.
pub struct Progress {
    /// The live line, cleared when dropped.
    _live: Option<Live>,
    /// When the last plain line was printed (or the solve started); `None` on a terminal.
    plain: Option<Mutex<Instant>>,
}

/// The live line and the thread that refreshes it.
struct Live {
    bar: ProgressBar,
    done: Arc<AtomicBool>,
    ticker: Option<JoinHandle<()>>,
}

impl Progress {
    /// The progress of a solve that started at `start` and updates `meter`; `deepening` when
    /// it searches horizon by horizon (else it searches to the end at once).
    pub fn start(meter: Arc<ProofMeter>, start: Instant, deepening: bool) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress {
                _live: None,
                plain: Some(Mutex::new(start)),
            };
        }
        let message = move || {
            let nodes = count(meter.nodes());
            if deepening {
                format!("depth {}, {nodes} nodes", meter.depth())
            } else {
                format!("to the end (--time or --nodes stop it with a bound), {nodes} nodes")
            }
        };
        Progress {
            _live: Some(Live::new(message)),
            plain: None,
        }
    }

    /// The progress of a solve to the end that counts its nodes in `nodes`.
    pub fn counting(nodes: Arc<AtomicU64>) -> Progress {
        Progress {
            _live: std::io::stderr().is_terminal().then(|| {
                Live::new(move || {
                    format!(
                        "to the end (--time or --nodes stop it), {} nodes",
                        count(nodes.load(Ordering::Relaxed))
                    )
                })
            }),
            plain: None,
        }
    }

    /// The progress of a solve whose nodes are not known while it runs: elapsed time only.
    pub fn elapsed_only() -> Progress {
        Progress {
            _live: std::io::stderr()
                .is_terminal()
                .then(|| Live::new(|| "to the end (--time or --nodes stop it)".to_string())),
            plain: None,
        }
    }

    /// A horizon is complete: `proven` says what is proven, after `nodes` and `elapsed`.
    pub fn depth_done(&self, proven: &str, nodes: u64, elapsed: Duration) {
        let Some(plain) = &self.plain else {
            return;
        };
        let mut last = plain.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() >= PLAIN_EVERY {
            *last = Instant::now();
            errln!(
                "[{proven}; {} nodes, {:.1} s elapsed]",
                count(nodes),
                elapsed.as_secs_f64()
            );
        }
    }
}

impl Live {
    fn new(message: impl Fn() -> String + Send + 'static) -> Live {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} solving: {msg}, {elapsed} elapsed")
                .expect("a valid template"),
        );
        bar.set_message(message());
        let done = Arc::new(AtomicBool::new(false));
        let ticker = {
            let (bar, done) = (bar.clone(), Arc::clone(&done));
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    bar.set_message(message());
                    bar.tick();
                    std::thread::park_timeout(TICK);
                }
            })
        };
        Live {
            bar,
            done,
            ticker: Some(ticker),
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(ticker) = self.ticker.take() {
            ticker.thread().unpark();
            let _ = ticker.join();
        }
        self.bar.finish_and_clear();
    }
}

/// A count in a few characters: `950`, `12.3k`, `4.5M`, `1.2G`.
pub fn count(n: u64) -> String {
    let n = n as f64;
    if n < 1e3 {
        format!("{n}")
    } else if n < 1e6 {
        format!("{:.1}k", n / 1e3)
    } else if n < 1e9 {
        format!("{:.1}M", n / 1e6)
    } else {
        format!("{:.1}G", n / 1e9)
    }
}
