//! An engine program on pipes: lines out to its standard input, lines back from its standard
//! output (see [`Lines`], which also bounds what the engine can make us hold). On Unix the
//! program starts in a process group of its own, and the whole group ends with it: when this
//! is dropped (at the end of the game, a forfeit included), the group gets SIGTERM, then
//! SIGKILL after [`TERM_GRACE`], so no child the engine started outlives its game. A group
//! still running when zerosum exits (an engine late in the last game, whose player thread
//! still waits for it) gets SIGKILL from an exit handler.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
#[cfg(unix)]
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use crate::lines::{Lines, NoLine};
use crate::player::PlayerError;

/// How long an engine's process group has to end after SIGTERM before it gets SIGKILL.
pub(crate) const TERM_GRACE: Duration = Duration::from_millis(500);

/// The pause between an engine's complete answer and the next line sent to it. Some engines
/// lose a command that arrives a millisecond or two after their own answer (Rapfi reads its
/// next `TURN` as `ERROR Unknown command: 4,8` and waits forever), and an opponent answering
/// a forced move in no time would send it just then. The pause, when there is one, counts in the
/// engine's own time for the move.
pub(crate) const PACE: Duration = Duration::from_millis(5);

/// The process groups of the engines running now.
#[cfg(unix)]
static RUNNING: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

/// Ends every engine process group still running: the exit handler.
#[cfg(unix)]
extern "C" fn end_running_groups() {
    // Never wait at exit: a thread holding the list is about to end its group anyway.
    if let Ok(groups) = RUNNING.try_lock() {
        for &group in groups.iter() {
            // SAFETY: a plain system call on a group started for an engine.
            unsafe { libc::killpg(group, libc::SIGKILL) };
        }
    }
}

/// Notes a running group, installing the exit handler the first time.
#[cfg(unix)]
fn note_running(group: libc::pid_t, running: bool) {
    static AT_EXIT: Once = Once::new();
    AT_EXIT.call_once(|| {
        // SAFETY: registers a handler that only makes system calls.
        unsafe { libc::atexit(end_running_groups) };
    });
    let mut groups = RUNNING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if running {
        groups.push(group);
    } else {
        groups.retain(|&g| g != group);
    }
}

/// A running engine program.
pub(crate) struct EngineProcess {
    program: String,
    child: Child,
    stdin: ChildStdin,
    lines: Lines,
    /// When the engine's last complete answer came, for [`PACE`].
    answered: Option<Instant>,
}

impl EngineProcess {
    /// Starts `command` (a program and its arguments) with piped standard input and output,
    /// in a new process group; its standard error is discarded.
    pub(crate) fn start(command: &[String]) -> Result<EngineProcess, PlayerError> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| PlayerError::Failed("no command to start".into()))?;
        let mut start = Command::new(program);
        start
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut start, 0);
        let mut child = start
            .spawn()
            .map_err(|error| PlayerError::Failed(format!("cannot start `{program}`: {error}")))?;
        #[cfg(unix)]
        if let Ok(group) = libc::pid_t::try_from(child.id()) {
            note_running(group, true);
        }
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let lines = Lines::spawn(format!("output of {program}"), stdout).map_err(|error| {
            PlayerError::Failed(format!("cannot start a reader thread: {error}"))
        })?;
        Ok(EngineProcess {
            program: program.clone(),
            child,
            stdin,
            lines,
            answered: None,
        })
    }

    /// Notes that the engine's answer is complete: the next line goes out [`PACE`] later.
    pub(crate) fn answered(&mut self) {
        self.answered = Some(Instant::now());
    }

    /// Sends one line (a newline is added), waiting first until [`PACE`] has passed since the
    /// engine's last answer: a request, so the engine's budget of bytes and lines starts again.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        if let Some(answered) = self.answered.take() {
            std::thread::sleep((answered + PACE).saturating_duration_since(Instant::now()));
        }
        self.lines.asked();
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
        self.lines.next(deadline, stop)
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

    /// Ends the program and everything it started: SIGTERM to its process group, SIGKILL to
    /// what is left of it after [`TERM_GRACE`].
    #[cfg(unix)]
    fn end(&mut self) {
        let Ok(group) = libc::pid_t::try_from(self.child.id()) else {
            let _ = self.child.kill();
            return;
        };
        // SAFETY: plain system calls on the group this process created for the engine.
        let signal = |signal| unsafe { libc::killpg(group, signal) };
        if signal(libc::SIGTERM) == 0 {
            let give_up = Instant::now() + TERM_GRACE;
            loop {
                // Reap the leader, so that only live members keep the group alive.
                let _ = self.child.try_wait();
                if signal(0) != 0 || Instant::now() >= give_up {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            signal(libc::SIGKILL);
        }
        note_running(group, false);
        let _ = self.child.kill();
    }

    #[cfg(not(unix))]
    fn end(&mut self) {
        let _ = self.child.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.end();
        let _ = self.child.wait();
    }
}
