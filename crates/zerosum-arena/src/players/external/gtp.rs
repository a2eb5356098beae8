//! Driving an engine that speaks GTP v2: the game is chosen with the private `zerosum-game`
//! command (or `boardsize` for Hex engines that do not know it), the opponent's moves are
//! sent with `play`, ours come from `genmove`. After `time_settings` (a refusal is a warning:
//! such an engine does not know the time) come the engine's own `init` commands, each of which
//! must succeed. When the referee's time is over, the driver sends `# interrupt` (HexGui's way
//! to stop a search). Refusals (`? ...`) are kept as remarks for the reason of a forfeit.

use std::time::{Duration, Instant};

use zerosum_core::Side;
use zerosum_games::hex::HexSpec;

use super::process::{EngineProcess, PACE};
use super::warnings::warn_once;
use super::Peer;
use crate::peers::lines::NoLine;
use crate::peers::text::{is_plain, quote};
use crate::player::{GameSetup, MoveAnswer, MoveRequest, PlayerError, Remarks};

/// A GTP engine during one game.
pub(crate) struct GtpDriver {
    process: EngineProcess,
    remarks: Remarks,
    /// Moves of the game the engine knows.
    known: usize,
    setup_wait: Duration,
    watchdog: Duration,
    /// The lateness the referee forgives this engine (its own margin, else the control's).
    margin: Duration,
}

/// A GTP reply: success with its text, or failure with its message.
pub(crate) type Reply = Result<String, String>;

/// GTP's colour of move number `ply` (from 0) of the game `moves`: the first player is black;
/// after a swap of sides (Hex `swap-sides`, Atoll's `swap`) the players exchange colours, so
/// from move 2 on each plays the other colour (white moves twice in a row). Our move names
/// are those of the Hex tools, so moves pass through unchanged.
fn colour(moves: &[String], ply: usize) -> &'static str {
    let swapped = ply >= 2
        && moves
            .get(1)
            .is_some_and(|m| m == "swap" || m == "swap-sides");
    match (Side::at_ply(ply), swapped) {
        (Side::First, false) | (Side::Second, true) => "b",
        (Side::Second, false) | (Side::First, true) => "w",
    }
}

impl GtpDriver {
    /// Starts the engine and sets it up for `setup`'s game, its own `init` commands last.
    pub(crate) fn start(peer: Peer<'_>, setup: &GameSetup) -> Result<Self, PlayerError> {
        let mut driver = GtpDriver {
            process: EngineProcess::start(&peer.engine.command, PACE)?,
            remarks: peer.remarks.clone(),
            known: 0,
            setup_wait: setup.time.watchdog + setup.time.first_move_grace,
            watchdog: setup.time.watchdog,
            margin: peer.engine.margin.unwrap_or(setup.time.margin),
        };
        let spec = setup.spec.to_string();
        if let Err(refusal) = driver.command(&format!("zerosum-game {spec}"))? {
            // Hex engines that only know GTP's own commands take the board size.
            let Some(&HexSpec { width, height, .. }) = setup.spec.params() else {
                return Err(PlayerError::Unsupported {
                    spec,
                    reason: format!("the engine refuses `zerosum-game`: {}", quote(&refusal)),
                });
            };
            driver.expect(&format!("boardsize {width} {height}"))?;
        }
        driver.expect("clear_board")?;
        // GTP counts whole seconds; engines that take fractions (ours do) get the exact
        // time, the others the whole seconds rounded up.
        let time = &setup.time;
        let settings = match (time.per_move, time.base) {
            (Some(per_move), _) => Some((0.0, per_move.as_secs_f64(), 1)),
            // A period of moves (`40/60`) is GTP's Canadian overtime from the start.
            (None, Some(base)) => match time.moves_per_period {
                Some(moves) => Some((0.0, base.as_secs_f64(), moves)),
                None => Some((base.as_secs_f64(), 0.0, 0)),
            },
            (None, None) => None,
        };
        if let Some((main, byo_yomi, stones)) = settings {
            let exact = format!("time_settings {main} {byo_yomi} {stones}");
            if driver.command(&exact)?.is_err() {
                let whole = format!(
                    "time_settings {} {} {stones}",
                    main.ceil() as u64,
                    byo_yomi.ceil() as u64
                );
                // Optional in GTP: an engine that does not know it plays on all the same, but
                // thinks as long as it likes unless an init command tells it the time.
                if let Err(refusal) = driver.command(&whole)? {
                    warn_once(
                        peer.name,
                        &format!(
                            "refuses `time_settings` ({}): it does not know the time limit \
                             (tell it with init=)",
                            quote(refusal.trim())
                        ),
                    );
                }
            }
        }
        for command in &peer.engine.init {
            driver.command(command)?.map_err(|refusal| {
                PlayerError::Failed(format!(
                    "refused the init command `{}`: {}",
                    quote(command),
                    quote(refusal.trim())
                ))
            })?;
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
        self.command(text)?.map_err(|refusal| {
            PlayerError::Failed(format!("refused `{text}`: {}", quote(&refusal)))
        })
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
                    return Err(self.remarks.no_answer(command));
                }
                Err(NoLine::Gone) => return Err(self.gone(command)),
                Err(NoLine::Flood(flood)) => {
                    return Err(PlayerError::Failed(format!(
                        "{flood} without an answer to `{command}`"
                    )))
                }
            }
        };
        let (success, rest) = match first.chars().next() {
            Some('=') => (true, &first[1..]),
            Some('?') => (false, &first[1..]),
            _ => {
                return Err(PlayerError::Garbage(format!(
                    "answered `{}` to `{command}`",
                    quote(&first)
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
                Err(NoLine::Flood(flood)) => {
                    return Err(PlayerError::Failed(format!(
                        "{flood} in its answer to `{command}`"
                    )))
                }
                // A reply cut short still counts for what it says.
                Err(NoLine::Late | NoLine::Gone) => break,
            }
        }
        self.process.answered();
        if !success {
            self.remarks
                .note(&format!("? {} (to `{command}`)", text.trim()));
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

    /// Tells the engine the moves it has not seen, then asks for its move: the engine's reply
    /// to `genmove`, as it stands (a refusal is left to the caller to judge).
    pub(crate) fn ask_move(&mut self, request: &MoveRequest) -> Result<Reply, PlayerError> {
        self.remarks.clear();
        let moves = &request.moves;
        // A take-back (a person's `undo`): the engine takes back what the game lost.
        while self.known > moves.len() {
            self.expect("undo")?;
            self.known -= 1;
        }
        for ply in self.known..moves.len() {
            let who = colour(moves, ply);
            let text = format!("play {who} {}", moves[ply]);
            self.expect(&text)?;
            self.known += 1;
        }
        if let Some(clock) = request.clock {
            let who = colour(moves, moves.len());
            let exact = format!("time_left {who} {:.3} 0", clock.as_secs_f64());
            if self.command(&exact)?.is_err() {
                self.command(&format!("time_left {who} {} 0", clock.as_secs()))?
                    .ok();
            }
        }
        let who = colour(moves, moves.len());
        let command = format!("genmove {who}");
        self.process.send(&command)?;
        // The referee judges lateness; this only bounds how long the driver waits at all.
        // Longer than the referee waits (the limit, the margin, then a grace).
        let patience = request.limit.map_or(self.watchdog, |limit| {
            limit + self.margin + limit.max(Duration::from_secs(2))
        });
        let reply = self.reply(&command, Instant::now() + patience, Some(&request.stop))?;
        if reply.is_ok() {
            self.known += 1;
        }
        Ok(reply)
    }

    /// Tells the engine the moves it has not seen, then asks for its move: a refusal fails the
    /// engine, `resign` resigns.
    pub(crate) fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        let answer = self.ask_move(request)?.map_err(|refusal| {
            PlayerError::Failed(format!("refused `genmove`: {}", quote(&refusal)))
        })?;
        let answer = answer.trim();
        if !is_plain(answer) {
            // Several lines, control bytes or a screenful: no move of any game.
            return Err(PlayerError::Garbage(format!(
                "answered `{}` to `genmove`",
                quote(answer)
            )));
        }
        match answer.to_ascii_lowercase().as_str() {
            "resign" => Err(PlayerError::Resigned),
            _ => Ok(MoveAnswer::new(answer)),
        }
    }
}

impl Drop for GtpDriver {
    fn drop(&mut self) {
        let _ = self.process.send("quit");
    }
}
