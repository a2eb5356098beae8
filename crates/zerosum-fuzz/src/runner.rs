//! Running a target's inputs: each under `catch_unwind` on a worker thread, watched for hangs,
//! with every failure printed and saved.

use std::any::Any;
use std::cell::RefCell;
use std::fs;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Mutex, Once, PoisonError};
use std::thread;
use std::time::Duration;

use crate::mutate::Mutator;
use crate::targets::{Target, Verdict};

/// Where failing inputs are saved, one file per failure.
pub const FAILURE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/fuzz-failures");

/// Hangs after which a target's run stops (each leaves a thread spinning).
const MAX_HANGS: u64 = 3;

/// How to run a target.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Number of inputs.
    pub inputs: u64,
    /// The run's seed; each target mixes in its name, so one target's inputs do not depend on
    /// which other targets run.
    pub seed: u64,
    /// An input running longer than this is a hang.
    pub hang_limit: Duration,
}

/// What a run of one target found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub target: &'static str,
    /// Inputs run to the end (panicking ones included, hanging ones not).
    pub inputs: u64,
    /// Inputs the parser accepted.
    pub accepted: u64,
    /// Inputs the parser refused with an error.
    pub rejected: u64,
    pub panics: u64,
    pub hangs: u64,
}

/// Panics seen while fuzzing on threads the targets started (not on a worker thread, where
/// `catch_unwind` sees them).
static STRAY_PANICS: AtomicU64 = AtomicU64::new(0);
/// The message and place of the last such panic.
static LAST_STRAY_PANIC: Mutex<String> = Mutex::new(String::new());
/// Runs of [`run_target`] under way: while there are any, the panic hook records panics
/// instead of printing them.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// The message and place of the last panic on this thread.
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The prefix of worker threads' names.
const WORKER_PREFIX: &str = "fuzz-";

/// Installs (once) a panic hook that records panics while fuzzing and leaves every other
/// panic to the default hook.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if RUNNING.load(Ordering::SeqCst) == 0 {
                return default(info);
            }
            let place = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let thread = thread::current().name().unwrap_or("unnamed").to_string();
            let message = format!("{}{place} (thread {thread})", payload_text(info.payload()));
            if thread.starts_with(WORKER_PREFIX) {
                LAST_PANIC.with(|last| *last.borrow_mut() = message);
            } else {
                *LAST_STRAY_PANIC
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner) = message;
                STRAY_PANICS.fetch_add(1, Ordering::SeqCst);
            }
        }));
    });
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text.to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(a panic without a message)".into()
    }
}

/// The target's result for one input: its verdict, or the panic it raised.
type Outcome = Result<Verdict, String>;

/// A thread that runs one target's inputs, one at a time.
struct Worker {
    inputs: Sender<Vec<u8>>,
    outcomes: Receiver<Outcome>,
}

impl Worker {
    fn spawn(target: &'static Target) -> Worker {
        let (inputs, input_receiver) = mpsc::channel::<Vec<u8>>();
        let (outcome_sender, outcomes) = mpsc::channel();
        thread::Builder::new()
            .name(format!("{WORKER_PREFIX}{}", target.name))
            .spawn(move || {
                for input in input_receiver {
                    let strays = STRAY_PANICS.load(Ordering::SeqCst);
                    let result = panic::catch_unwind(AssertUnwindSafe(|| (target.run)(&input)));
                    let outcome = match result {
                        Err(_) => Err(LAST_PANIC.with(|last| last.borrow().clone())),
                        Ok(_) if STRAY_PANICS.load(Ordering::SeqCst) != strays => {
                            Err(LAST_STRAY_PANIC
                                .lock()
                                .unwrap_or_else(PoisonError::into_inner)
                                .clone())
                        }
                        Ok(verdict) => Ok(verdict),
                    };
                    if outcome_sender.send(outcome).is_err() {
                        return;
                    }
                }
            })
            .expect("a worker thread starts");
        Worker { inputs, outcomes }
    }
}

/// Runs `options.inputs` inputs of `target`, printing each panic and hang with its input and
/// saving the input under [`FAILURE_DIR`]. Stops early after a few hangs.
pub fn run_target(target: &'static Target, options: &RunOptions) -> Report {
    install_panic_hook();
    RUNNING.fetch_add(1, Ordering::SeqCst);
    let mut hasher = DefaultHasher::new();
    target.name.hash(&mut hasher);
    let seed = options.seed ^ hasher.finish();
    let mut mutator = Mutator::new(seed, (target.corpus)(), target.tokens);
    let mut report = Report {
        target: target.name,
        ..Report::default()
    };
    let mut worker = Worker::spawn(target);
    for _ in 0..options.inputs {
        let input = mutator.next_input();
        if worker.inputs.send(input.clone()).is_err() {
            // The worker died outside catch_unwind: count it as a panic and start another.
            report.panics += 1;
            fail(target, "panic", "the worker thread died", &input);
            worker = Worker::spawn(target);
            continue;
        }
        match worker.outcomes.recv_timeout(options.hang_limit) {
            Ok(Ok(Verdict::Accepted)) => report.accepted += 1,
            Ok(Ok(Verdict::Rejected)) => report.rejected += 1,
            Ok(Err(message)) => {
                report.panics += 1;
                fail(target, "panic", &message, &input);
            }
            Err(RecvTimeoutError::Timeout) => {
                report.hangs += 1;
                let message = format!("still running after {:?}", options.hang_limit);
                fail(target, "hang", &message, &input);
                if report.hangs >= MAX_HANGS {
                    println!("{}: stopped after {MAX_HANGS} hangs", target.name);
                    break;
                }
                // The hung thread is left behind; a fresh one takes over.
                worker = Worker::spawn(target);
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => {
                report.panics += 1;
                fail(target, "panic", "the worker thread died", &input);
                worker = Worker::spawn(target);
            }
        }
        report.inputs += 1;
    }
    RUNNING.fetch_sub(1, Ordering::SeqCst);
    report
}

/// Prints a failure with its input, escaped, and saves the input.
fn fail(target: &Target, kind: &str, message: &str, input: &[u8]) {
    const SHOWN: usize = 400;
    let shown = &input[..input.len().min(SHOWN)];
    let more = if input.len() > SHOWN { "..." } else { "" };
    let saved = save(target.name, kind, input)
        .map_or_else(|e| format!("not saved: {e}"), |p| p.display().to_string());
    println!(
        "{kind} in target {}: {message}\n  input ({} bytes): \"{}\"{more}\n  saved: {saved}",
        target.name,
        input.len(),
        shown.escape_ascii()
    );
}

fn save(target: &str, kind: &str, input: &[u8]) -> std::io::Result<PathBuf> {
    let dir = Path::new(FAILURE_DIR);
    fs::create_dir_all(dir)?;
    let mut hasher = DefaultHasher::new();
    input.hash(&mut hasher);
    let path = dir.join(format!("{target}-{kind}-{:016x}.bin", hasher.finish()));
    fs::write(&path, input)?;
    Ok(path)
}

/// Runs one input of `target` on this thread, without catching anything (to reproduce a
/// saved failure under a debugger or with a backtrace).
pub fn replay(target: &Target, input: &[u8]) -> Verdict {
    (target.run)(input)
}
