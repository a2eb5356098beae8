//! An engine program on pipes: lines out to its standard input, lines back from its standard
//! output (see [`Lines`], which also bounds what the engine can make us hold). On Unix the
//! program starts in a process group of its own, and the whole group ends with it when this
//! is dropped (at the end of the game, a forfeit included), what left the group too on Linux:
//! see [`crate::peers::engine_groups`].

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::peers::lines::{Lines, NoLine};
use crate::player::PlayerError;

/// The pause between a GTP engine's complete answer and the next line sent to it, for engines
/// that read their next command before they are ready for it. The pause, when there is one,
/// counts in the engine's own time for the move.
pub(crate) const PACE: Duration = Duration::from_millis(5);

/// The pause after a Gomocup engine's move. Rapfi prints its move before it stops counting
/// itself as thinking, and drops a command it reads in between (it reads the command's word,
/// ignores it, and takes the rest of the line for the next command); an opponent answering a
/// forced move in no time sends the next `TURN` just then, and on a loaded machine the gap
/// lasts longer than [`PACE`] (5 of 10 games lost so at a load of 8). The Gomocup driver
/// also sends a command again when the engine shows that it lost it
/// (`super::gomocup`); this pause makes a loss it cannot see (the whole line read in the gap)
/// unlikely.
pub(crate) const GOMOCUP_PACE: Duration = Duration::from_millis(30);

/// A running engine program.
pub(crate) struct EngineProcess {
    program: String,
    /// Dropped before the pipes below: the program ends before they close.
    #[cfg(unix)]
    started: crate::peers::engine_groups::Started,
    #[cfg(not(unix))]
    child: Child,
    stdin: ChildStdin,
    lines: Lines,
    /// When the engine's last complete answer came, for `pace`.
    answered: Option<Instant>,
    /// The pause after an answer before the next line goes out.
    pace: Duration,
}

impl EngineProcess {
    /// Starts `command` (a program and its arguments) with piped standard input and output,
    /// in a new process group; its standard error is discarded. After each of its answers the
    /// next line waits `pace`.
    pub(crate) fn start(command: &[String], pace: Duration) -> Result<EngineProcess, PlayerError> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| PlayerError::Failed("no command to start".into()))?;
        let mut start = Command::new(program);
        start
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let failed = |error| PlayerError::Failed(format!("cannot start `{program}`: {error}"));
        #[cfg(unix)]
        let mut started = crate::peers::engine_groups::start(&mut start).map_err(failed)?;
        #[cfg(unix)]
        let child = &mut started.child;
        #[cfg(not(unix))]
        let mut child = start.spawn().map_err(failed)?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let lines = Lines::spawn(format!("output of {program}"), stdout).map_err(|error| {
            PlayerError::Failed(format!("cannot start a reader thread: {error}"))
        })?;
        Ok(EngineProcess {
            program: program.clone(),
            #[cfg(unix)]
            started,
            #[cfg(not(unix))]
            child,
            stdin,
            lines,
            answered: None,
            pace,
        })
    }

    /// Notes that the engine's answer is complete: the next line goes out the pace later.
    pub(crate) fn answered(&mut self) {
        self.answered = Some(Instant::now());
    }

    /// Sends one line (a newline is added), waiting first until the pace has passed since the
    /// engine's last answer: a request, so the engine's budget of bytes and lines starts again.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        if let Some(answered) = self.answered.take() {
            std::thread::sleep((answered + self.pace).saturating_duration_since(Instant::now()));
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
        self.child()
            .try_wait()
            .ok()
            .flatten()
            .map(|status| status.to_string())
    }

    fn child(&mut self) -> &mut Child {
        #[cfg(unix)]
        return &mut self.started.child;
        #[cfg(not(unix))]
        return &mut self.child;
    }
}

/// On Unix, the program ends with its [`crate::peers::engine_groups::Started`].
#[cfg(not(unix))]
impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
