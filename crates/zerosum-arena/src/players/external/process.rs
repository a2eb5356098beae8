//! An engine program on pipes: lines out to its standard input, lines back from its standard
//! output through a reader thread, so that every wait has a deadline and a stop flag. The
//! process is killed when this is dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::player::PlayerError;

/// Longest line read from an engine; a longer one is cut there (and is garbage anyway).
const MAX_LINE: usize = 1 << 20;
/// How often a wait looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(5);

/// A running engine program.
pub(crate) struct EngineProcess {
    program: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// Why no line came.
pub(crate) enum NoLine {
    /// The deadline passed, or the stop flag was raised.
    Late,
    /// The program closed its output (it died or quit).
    Gone,
}

impl EngineProcess {
    /// Starts `command` (a program and its arguments, split at white space) with piped
    /// standard input and output; its standard error is discarded.
    pub(crate) fn start(command: &[String]) -> Result<EngineProcess, PlayerError> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| PlayerError::Failed("no command to start".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| PlayerError::Failed(format!("cannot start `{program}`: {error}")))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = channel();
        thread::Builder::new()
            .name(format!("output of {program}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut bytes = Vec::new();
                loop {
                    bytes.clear();
                    match Read::by_ref(&mut reader)
                        .take(MAX_LINE as u64)
                        .read_until(b'\n', &mut bytes)
                    {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            // Lines may end with CR LF, LF or CR; an empty line (which ends a
                            // GTP reply) is passed on as an empty string.
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
            })
            .map_err(|error| {
                PlayerError::Failed(format!("cannot start a reader thread: {error}"))
            })?;
        Ok(EngineProcess {
            program: program.clone(),
            child,
            stdin,
            lines,
        })
    }

    /// Sends one line (a newline is added).
    pub(crate) fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| {
                PlayerError::Failed(format!("`{}` is gone (its input is closed)", self.program))
            })
    }

    /// The next line, waiting until `deadline` (forever with `None`) unless `stop` is raised.
    pub(crate) fn line(
        &mut self,
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
            match self.lines.recv_timeout(wait) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Err(NoLine::Gone),
            }
        }
    }

    /// The program's name, for messages.
    pub(crate) fn program(&self) -> &str {
        &self.program
    }

    /// A description of how the program ended, if it has.
    pub(crate) fn exit_status(&mut self) -> Option<String> {
        self.child
            .try_wait()
            .ok()
            .flatten()
            .map(|status| status.to_string())
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
