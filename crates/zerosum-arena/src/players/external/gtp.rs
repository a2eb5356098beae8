//! Driving an engine that speaks GTP v2: the game is chosen with the private `zerosum-game`
//! command (or `boardsize` for Hex engines that do not know it), the opponent's moves are
//! sent with `play`, ours come from `genmove`. When the referee's time is over, the driver
//! sends `# interrupt` (HexGui's way to stop a search).

use std::time::{Duration, Instant};

use zerosum_core::{GameSpec, Side, SwapRule};

use super::process::EngineProcess;
use crate::lines::NoLine;
use crate::player::{GameSetup, MoveAnswer, MoveRequest, PlayerError};

/// A GTP engine during one game.
pub(crate) struct GtpDriver {
    process: EngineProcess,
    swap_name: &'static str,
    /// Moves of the game the engine knows.
    known: usize,
    setup_wait: Duration,
    watchdog: Duration,
}

/// A GTP reply: success with its text, or failure with its message.
pub(crate) type Reply = Result<String, String>;

/// GTP's colour of the player who makes move number `ply` (from 0): the first player is black.
fn colour(ply: usize) -> &'static str {
    match Side::at_ply(ply) {
        Side::First => "b",
        Side::Second => "w",
    }
}

impl GtpDriver {
    /// Starts the engine and sets it up for `setup`'s game.
    pub(crate) fn start(command: &[String], setup: &GameSetup) -> Result<Self, PlayerError> {
        let mut driver = GtpDriver {
            process: EngineProcess::start(command)?,
            swap_name: match &setup.spec {
                GameSpec::Hex {
                    swap: Some(SwapRule::Pieces),
                    ..
                } => "swap-pieces",
                _ => "swap-sides",
            },
            known: 0,
            setup_wait: setup.time.watchdog + setup.time.first_move_grace,
            watchdog: setup.time.watchdog,
        };
        let spec = setup.spec.to_string();
        if let Err(refusal) = driver.command(&format!("zerosum-game {spec}"))? {
            // Hex engines that only know GTP's own commands take the board size.
            let GameSpec::Hex { width, height, .. } = setup.spec else {
                return Err(PlayerError::Unsupported {
                    spec,
                    reason: format!("the engine refuses `zerosum-game`: {refusal}"),
                });
            };
            driver.expect(&format!("boardsize {width} {height}"))?;
        }
        driver.expect("clear_board")?;
        let time = &setup.time;
        let settings = match (time.per_move, time.base) {
            (Some(per_move), _) => Some(format!(
                "time_settings 0 {} 1",
                per_move.as_secs_f64().ceil() as u64
            )),
            (None, Some(base)) => Some(format!("time_settings {} 0 0", base.as_secs())),
            (None, None) => None,
        };
        if let Some(settings) = settings {
            // Optional in GTP: an engine that does not know it plays on all the same.
            driver.command(&settings)?.ok();
        }
        Ok(driver)
    }

    /// Sends a command and reads its reply within the setup time.
    fn command(&mut self, text: &str) -> Result<Reply, PlayerError> {
        self.process.send(text)?;
        let deadline = Instant::now() + self.setup_wait;
        self.reply(text, deadline, None)
    }

    /// Sends a command that must succeed.
    pub(crate) fn expect(&mut self, text: &str) -> Result<String, PlayerError> {
        self.command(text)?
            .map_err(|refusal| PlayerError::Failed(format!("refused `{text}`: {refusal}")))
    }

    /// Reads the reply to `command`: `=[id] text` or `?[id] message`, then lines up to an
    /// empty one. With `stop`, sends `# interrupt` once it is raised and keeps waiting.
    fn reply(
        &mut self,
        command: &str,
        deadline: Instant,
        mut stop: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<Reply, PlayerError> {
        let first = loop {
            match self.process.line(Some(deadline), stop) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => break line,
                Err(NoLine::Late) if stop.is_some() && Instant::now() < deadline => {
                    self.process.send("# interrupt")?;
                    stop = None;
                }
                Err(NoLine::Late) => {
                    return Err(PlayerError::Failed(format!("no answer to `{command}`")))
                }
                Err(NoLine::Gone) => return Err(self.gone(command)),
            }
        };
        let (success, rest) = match first.chars().next() {
            Some('=') => (true, &first[1..]),
            Some('?') => (false, &first[1..]),
            _ => {
                return Err(PlayerError::Garbage(format!(
                    "answered `{}` to `{command}`",
                    shorten(&first)
                )))
            }
        };
        let mut text = rest
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
            .to_string();
        loop {
            match self.process.line(Some(deadline), None) {
                Ok(line) if line.trim().is_empty() => break,
                Ok(line) => {
                    text.push('\n');
                    text.push_str(&line);
                }
                // A reply cut short still counts for what it says.
                Err(_) => break,
            }
        }
        Ok(if success { Ok(text) } else { Err(text) })
    }

    fn gone(&mut self, doing: &str) -> PlayerError {
        let status = self
            .process
            .exit_status()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        PlayerError::Failed(format!(
            "`{}` exited{status} while answering `{doing}`",
            self.process.program()
        ))
    }

    /// Our notation of a move to GTP's: the swap gets the convention's name.
    fn to_gtp<'a>(&self, text: &'a str) -> &'a str {
        if text == "swap" {
            self.swap_name
        } else {
            text
        }
    }

    /// Tells the engine the moves it has not seen, then asks for its move: the engine's reply
    /// to `genmove`, as it stands (a refusal is left to the caller to judge).
    pub(crate) fn ask_move(&mut self, request: &MoveRequest) -> Result<Reply, PlayerError> {
        let moves = &request.moves;
        if self.known > moves.len() {
            return Err(PlayerError::Failed("the game went backwards".into()));
        }
        for ply in self.known..moves.len() {
            let text = format!("play {} {}", colour(ply), self.to_gtp(&moves[ply]));
            self.expect(&text)?;
            self.known += 1;
        }
        if let Some(clock) = request.clock {
            let text = format!("time_left {} {} 0", colour(moves.len()), clock.as_secs());
            self.command(&text)?.ok();
        }
        let command = format!("genmove {}", colour(moves.len()));
        self.process.send(&command)?;
        // The referee judges lateness; this only bounds how long the driver waits at all.
        let patience = request.limit.map_or(self.watchdog, |limit| {
            limit + limit.max(Duration::from_secs(2))
        });
        let reply = self.reply(&command, Instant::now() + patience, Some(&request.stop))?;
        if reply.is_ok() {
            self.known += 1;
        }
        Ok(reply)
    }

    /// Tells the engine the moves it has not seen, then asks for its move: a refusal fails the
    /// engine, `resign` resigns, a swap gets our notation.
    pub(crate) fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        let answer = self
            .ask_move(request)?
            .map_err(|refusal| PlayerError::Failed(format!("refused `genmove`: {refusal}")))?;
        let answer = answer.trim();
        match answer.to_ascii_lowercase().as_str() {
            "resign" => Err(PlayerError::Resigned),
            "swap-pieces" | "swap-sides" => Ok(MoveAnswer::new("swap")),
            _ => Ok(MoveAnswer::new(answer)),
        }
    }
}

impl Drop for GtpDriver {
    fn drop(&mut self) {
        let _ = self.process.send("quit");
    }
}

/// A line cut to a readable length for messages.
pub(crate) fn shorten(line: &str) -> String {
    const MAX: usize = 60;
    if line.chars().count() <= MAX {
        line.to_string()
    } else {
        let cut: String = line.chars().take(MAX).collect();
        format!("{cut}...")
    }
}
