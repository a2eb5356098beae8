//! An engine program on pipes: lines out to its standard input, lines back from its standard
//! output (see [`Lines`]). The process is killed when this is dropped.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::lines::{Lines, NoLine};
use crate::player::PlayerError;

/// A running engine program.
pub(crate) struct EngineProcess {
    program: String,
    child: Child,
    stdin: ChildStdin,
    lines: Lines,
}

impl EngineProcess {
    /// Starts `command` (a program and its arguments) with piped standard input and output;
    /// its standard error is discarded.
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
        let lines = Lines::spawn(format!("output of {program}"), stdout).map_err(|error| {
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
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
