//! Engines nobody here wrote: a program started for each game and driven through the protocol
//! it speaks (`cmd=PATH ARGS,proto=gtp|gomocup`), with its own setup commands (`init=`) and
//! time margin (`margin=`). The referee keeps the clocks; the driver bounds every wait, paces
//! what it sends ([`process::PACE`]), keeps what the engine says on the side for the reason
//! of a forfeit, and the process is killed when the game is over or abandoned.

mod gomocup;
mod gtp;
mod process;
mod warnings;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::player::{GameSetup, MoveAnswer, MoveRequest, Player, PlayerError, Remarks};
use gomocup::GomocupDriver;
pub(crate) use gtp::GtpDriver;

/// The protocols an external engine may speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// GTP v2, with the private `zerosum-game SPEC` command for games other than Hex.
    Gtp,
    /// Gomocup's pbrain protocol (m,n,k games).
    Gomocup,
}

impl FromStr for Protocol {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "gtp" => Ok(Protocol::Gtp),
            "gomocup" | "pbrain" => Ok(Protocol::Gomocup),
            _ => Err(format!(
                "unknown protocol `{text}` (expected gtp or gomocup)"
            )),
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Gtp => "gtp",
            Protocol::Gomocup => "gomocup",
        })
    }
}

/// How to start an external engine and talk to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalEngine {
    /// The program and its arguments.
    pub command: Vec<String>,
    pub protocol: Protocol,
    /// Commands sent after the game's setup and before the first move, one a line (GTP
    /// commands, which must succeed; Gomocup lines such as `INFO max_memory 0`, which have no
    /// answer: an `ERROR` or `UNKNOWN` the engine prints is a warning).
    pub init: Vec<String>,
    /// The lateness forgiven on every move, if not the time control's margin.
    pub margin: Option<Duration>,
}

impl ExternalEngine {
    /// Checks, without starting it, that the program can be started: a path names an
    /// executable file, a bare name one on `PATH`. The error is in plain words:
    /// `cannot start ./mybot: No such file or directory`.
    pub fn check_program(&self) -> Result<(), String> {
        let Some(program) = self.command.first() else {
            return Err("no program to start".into());
        };
        let cannot = |why: &str| Err(format!("cannot start {program}: {why}"));
        let candidates: Vec<std::path::PathBuf> = if program.contains('/') {
            vec![program.into()]
        } else {
            std::env::var_os("PATH")
                .map(|path| {
                    std::env::split_paths(&path)
                        .map(|d| d.join(program))
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut found = None;
        for candidate in &candidates {
            if let Ok(metadata) = std::fs::metadata(candidate) {
                found = Some(metadata);
                if found.as_ref().is_some_and(is_executable_file) {
                    return Ok(());
                }
            }
        }
        match found {
            None if program.contains('/') => cannot("No such file or directory"),
            None => cannot("not found on PATH"),
            Some(metadata) if metadata.is_dir() => cannot("it is a directory"),
            Some(_) => cannot("Permission denied (not executable)"),
        }
    }
}

/// True for a file this user may execute (any file, where there are no permission bits).
fn is_executable_file(metadata: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.is_file() && metadata.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        metadata.is_file()
    }
}

/// What a driver starts from: the engine, the name it plays under (for warnings) and where
/// it notes what the engine says on the side.
#[derive(Clone, Copy)]
pub(crate) struct Peer<'a> {
    pub name: &'a str,
    pub engine: &'a ExternalEngine,
    pub remarks: &'a Remarks,
}

/// The driver of the running program.
enum Driver {
    Gtp(GtpDriver),
    Gomocup(GomocupDriver),
}

/// An external engine as a player: a fresh process for each game.
pub(crate) struct ExternalPlayer {
    name: String,
    engine: ExternalEngine,
    driver: Option<Driver>,
    remarks: Remarks,
}

impl ExternalPlayer {
    pub(crate) fn new(name: String, engine: ExternalEngine) -> Self {
        ExternalPlayer {
            name,
            engine,
            driver: None,
            remarks: Remarks::default(),
        }
    }
}

impl Player for ExternalPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        // The last game's process ends here.
        self.driver = None;
        self.remarks.clear();
        let peer = Peer {
            name: &self.name,
            engine: &self.engine,
            remarks: &self.remarks,
        };
        self.driver = Some(match self.engine.protocol {
            Protocol::Gtp => Driver::Gtp(GtpDriver::start(peer, setup)?),
            Protocol::Gomocup => Driver::Gomocup(GomocupDriver::start(peer, setup)?),
        });
        Ok(())
    }

    fn remarks(&self) -> Option<Remarks> {
        Some(self.remarks.clone())
    }

    fn margin(&self) -> Option<Duration> {
        self.engine.margin
    }

    fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        match &mut self.driver {
            Some(Driver::Gtp(driver)) => driver.choose(request),
            Some(Driver::Gomocup(driver)) => driver.choose(request),
            None => Err(PlayerError::Failed(
                "asked for a move before the game".into(),
            )),
        }
    }
}
