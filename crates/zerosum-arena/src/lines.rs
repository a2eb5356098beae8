//! Lines from a pipe or a socket, read on a thread of their own so that every wait for one has
//! a deadline and can be cut short by a stop flag.

use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Longest line accepted; a longer one is cut there (and is garbage anyway).
const MAX_LINE: usize = 1 << 20;
/// How often a wait looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(5);

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoLine {
    /// The deadline passed, or the stop flag was raised.
    Late,
    /// The other end closed (a process died, a client disconnected).
    Gone,
}

/// The lines of a byte stream.
pub(crate) struct Lines {
    receiver: Receiver<String>,
}

impl Lines {
    /// Starts a thread (named `name`) reading `input` line by line. Lines may end with CR LF,
    /// LF or CR; bytes that are not UTF-8 are replaced; an empty line arrives as `""`.
    pub(crate) fn spawn(name: String, input: impl Read + Send + 'static) -> std::io::Result<Lines> {
        let (sender, receiver) = channel();
        thread::Builder::new().name(name).spawn(move || {
            let mut reader = BufReader::new(input);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match Read::by_ref(&mut reader)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut bytes)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&bytes);
                        let text = text.strip_suffix('\n').unwrap_or(&text);
                        let text = text.strip_suffix('\r').unwrap_or(text);
                        for line in text.split('\r') {
                            if sender.send(line.to_string()).is_err() {
                                return;
                            }
                        }
                    }
                }
            }
        })?;
        Ok(Lines { receiver })
    }

    /// The next line, waiting until `deadline` (forever with `None`) unless `stop` is raised.
    pub(crate) fn next(
        &self,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> Result<String, NoLine> {
        loop {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(NoLine::Late);
            }
            let wait = match deadline {
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(NoLine::Late);
                    }
                    left.min(STOP_POLL)
                }
                None => STOP_POLL,
            };
            match self.receiver.recv_timeout(wait) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Err(NoLine::Gone),
            }
        }
    }
}
