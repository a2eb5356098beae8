//! Driving an engine that speaks the Gomocup (pbrain) protocol, for m,n,k games: `START` or
//! `RECTSTART`, `INFO` for the time (and the private `INFO zerosum_k` when K is not 5), the
//! engine's own `init` lines, then `BEGIN`, `TURN X,Y`, or `BOARD` after anything unusual.
//! Coordinates are 0-based `X,Y`, X the column; our cells are column letters and a row from 1.
//! The engine's `ERROR`, `UNKNOWN` and `MESSAGE` lines are kept as remarks for the reason of a
//! forfeit; an `ERROR` or `UNKNOWN` is also a warning (it is how an engine refuses a command,
//! an init line included: Gomocup commands other than moves have no answer).
//!
//! A move request the engine shows it lost is sent again: when, instead of a move, it reports
//! the request's last word (the `X,Y` of `TURN X,Y`, the `DONE` of a `BOARD`) as an unknown
//! command, it has read that word as a command of its own, so the command before it never
//! reached it as one and the board it knows is unchanged. Rapfi does this when a `TURN`
//! arrives as it answers its previous move (see [`GOMOCUP_PACE`]). A request is never sent
//! again without that sign (a silent engine may be thinking on it).

use std::time::{Duration, Instant};

use zerosum_core::notation::{letters, parse_column_row};
use zerosum_core::Side;
use zerosum_games::mnk::MnkSpec;

use super::process::{EngineProcess, GOMOCUP_PACE};
use super::warnings::warn_once;
use super::Peer;
use crate::peers::lines::NoLine;
use crate::peers::text::quote;
use crate::player::{GameSetup, MoveAnswer, MoveRequest, PlayerError, Remarks};

/// A Gomocup engine during one game.
pub(crate) struct GomocupDriver {
    process: EngineProcess,
    /// The name the engine plays under, for warnings.
    name: String,
    remarks: Remarks,
    side: Side,
    /// Moves of the game the engine knows.
    known: usize,
    setup_wait: Duration,
    watchdog: Duration,
    /// The lateness the referee forgives this engine (its own margin, else the control's).
    margin: Duration,
}

/// How many times one move request is sent again after the engine showed it lost it.
const MAX_RESENDS: usize = 3;

/// What the engine said to a request.
enum Reply {
    /// Its answer (not a message).
    Answer(String),
    /// The request's last word reported as an unknown command: the request was lost.
    Lost,
}

/// Whether `line` (an `UNKNOWN` line, or an `ERROR` about an unknown command) reports the
/// last word of `request` as the command the engine did not understand.
fn reports_lost(line: &str, request: &str) -> bool {
    let Some(last) = request.split_whitespace().last() else {
        return false;
    };
    let word = line.split_whitespace().next().unwrap_or("");
    let unknown = word == "UNKNOWN"
        || (word == "ERROR" && line.to_ascii_lowercase().contains("unknown command"));
    unknown
        && line
            .split_whitespace()
            .last()
            .is_some_and(|said| said.eq_ignore_ascii_case(last))
}

/// Our cell name to Gomocup's `X,Y`.
fn to_xy(cell: &str) -> Result<String, PlayerError> {
    let (column, row) = parse_column_row(cell)
        .ok_or_else(|| PlayerError::Failed(format!("`{cell}` is not a cell of this game")))?;
    Ok(format!("{column},{row}"))
}

/// Gomocup's `X,Y` to our cell name; `None` if it is not two numbers.
fn from_xy(text: &str) -> Option<String> {
    let (x, y) = text.trim().split_once(',')?;
    let (x, y): (usize, usize) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    Some(format!("{}{}", letters(x, false), y.checked_add(1)?))
}

impl GomocupDriver {
    /// Starts the engine and sets it up for `setup`'s game, which must be an m,n,k game.
    pub(crate) fn start(peer: Peer<'_>, setup: &GameSetup) -> Result<Self, PlayerError> {
        let Some(&MnkSpec {
            rows,
            cols,
            k,
            rule,
            ..
        }) = setup.spec.params()
        else {
            return Err(PlayerError::Unsupported {
                spec: setup.spec.to_string(),
                reason: "the Gomocup protocol only plays m,n,k games".into(),
            });
        };
        let mut driver = GomocupDriver {
            process: EngineProcess::start(&peer.engine.command, GOMOCUP_PACE)?,
            name: peer.name.to_string(),
            remarks: peer.remarks.clone(),
            side: setup.side,
            known: 0,
            setup_wait: setup.time.watchdog + setup.time.first_move_grace,
            watchdog: setup.time.watchdog,
            margin: peer.engine.margin.unwrap_or(setup.time.margin),
        };
        let start = if rows == cols {
            format!("START {rows}")
        } else {
            format!("RECTSTART {cols},{rows}")
        };
        driver.process.send(&start)?;
        let deadline = Instant::now() + driver.setup_wait;
        let refusal = match driver.answer(&start, deadline, None)? {
            Reply::Answer(answer) if answer.eq_ignore_ascii_case("OK") => None,
            Reply::Answer(answer) => Some(format!("`{}`", quote(&answer))),
            Reply::Lost => Some("that it is an unknown command".to_string()),
        };
        if let Some(refusal) = refusal {
            return Err(PlayerError::Unsupported {
                spec: setup.spec.to_string(),
                reason: format!("the engine answers {refusal} to `{start}`"),
            });
        }
        let time = &setup.time;
        let per_move = time.per_move.map_or(0, |t| t.as_millis().max(1));
        driver
            .process
            .send(&format!("INFO timeout_turn {per_move}"))?;
        let per_game = time.base.map_or(0, |t| t.as_millis());
        driver
            .process
            .send(&format!("INFO timeout_match {per_game}"))?;
        // 0 freestyle (K or more wins), 1 exactly five, 4 renju.
        driver
            .process
            .send(&format!("INFO rule {}", rule.gomocup_number()))?;
        if k != 5 {
            driver.process.send(&format!("INFO zerosum_k {k}"))?;
        }
        for line in &peer.engine.init {
            driver.process.send(line)?;
        }
        Ok(driver)
    }

    /// The next line that is not a message (`MESSAGE`, `DEBUG`, `ERROR`, `UNKNOWN` text lines
    /// and empty lines are skipped; all but `DEBUG` are kept as remarks), or [`Reply::Lost`]
    /// when one of them reports the last word of `command` as an unknown command. The answer
    /// complete, the next command waits for the pace.
    fn answer(
        &mut self,
        command: &str,
        deadline: Instant,
        stop: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<Reply, PlayerError> {
        loop {
            match self.process.line(Some(deadline), stop) {
                Ok(line) => {
                    let line = line.trim();
                    let word = line.split_whitespace().next().unwrap_or("");
                    if ["ERROR", "UNKNOWN"].contains(&word) {
                        warn_once(&self.name, &format!("said `{}`", quote(line)));
                    }
                    if ["MESSAGE", "ERROR", "UNKNOWN"].contains(&word) {
                        self.remarks.note(line);
                    }
                    if reports_lost(line, command) {
                        return Ok(Reply::Lost);
                    }
                    if line.is_empty() || ["MESSAGE", "DEBUG", "ERROR", "UNKNOWN"].contains(&word) {
                        continue;
                    }
                    self.process.answered();
                    return Ok(Reply::Answer(line.to_string()));
                }
                Err(NoLine::Late) if stop.is_some() && Instant::now() < deadline => {
                    // The referee has called time; keep listening for a late answer.
                    return self.answer(command, deadline, None);
                }
                Err(NoLine::Late) => {
                    return Err(self.remarks.no_answer(command));
                }
                Err(NoLine::Flood(flood)) => {
                    return Err(PlayerError::Failed(format!(
                        "{flood} without an answer to `{command}`"
                    )))
                }
                Err(NoLine::Gone) => {
                    let status = self
                        .process
                        .exit_status()
                        .map(|s| format!(" ({s})"))
                        .unwrap_or_default();
                    return Err(PlayerError::Failed(format!(
                        "`{}` exited{status} while answering `{command}`",
                        self.process.program()
                    )));
                }
            }
        }
    }

    /// Tells the engine what it has not seen and reads its move.
    pub(crate) fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        self.remarks.clear();
        let moves = &request.moves;
        if let Some(clock) = request.clock {
            self.process
                .send(&format!("INFO time_left {}", clock.as_millis()))?;
        }
        // The request's lines, the last one the command the move answers.
        let outgoing = if moves.is_empty() {
            vec!["BEGIN".to_string()]
        } else if moves.len() == self.known + 1 {
            vec![format!("TURN {}", to_xy(&moves[moves.len() - 1])?)]
        } else {
            // Anything else (a game that does not start empty, a resync): the whole board.
            let mut lines = vec!["BOARD".to_string()];
            for (ply, cell) in moves.iter().enumerate() {
                let owner = if Side::at_ply(ply) == self.side { 1 } else { 2 };
                lines.push(format!("{},{owner}", to_xy(cell)?));
            }
            lines.push("DONE".to_string());
            lines
        };
        let command = outgoing.last().expect("a request has lines").clone();
        // Longer than the referee waits (the limit, the margin, then a grace).
        let patience = request.limit.map_or(self.watchdog, |limit| {
            limit + self.margin + limit.max(Duration::from_secs(2))
        });
        let deadline = Instant::now() + patience;
        let mut resends = 0;
        let answer = loop {
            for line in &outgoing {
                self.process.send(line)?;
            }
            match self.answer(&command, deadline, Some(&request.stop))? {
                Reply::Answer(answer) => break answer,
                Reply::Lost if resends < MAX_RESENDS => {
                    resends += 1;
                    warn_once(
                        &self.name,
                        "lost a move request (it took the last word for a command); sent again",
                    );
                }
                // Still lost: the engine waits for a move it will not get.
                Reply::Lost => return Err(self.remarks.no_answer(&command)),
            }
        };
        let cell = from_xy(&answer).ok_or_else(|| {
            PlayerError::Garbage(format!("answered `{}` to `{command}`", quote(&answer)))
        })?;
        self.known = moves.len() + 1;
        Ok(MoveAnswer::new(cell))
    }
}

impl Drop for GomocupDriver {
    fn drop(&mut self) {
        let _ = self.process.send("END");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_coordinates_convert_both_ways() {
        assert_eq!(to_xy("a1").unwrap(), "0,0");
        assert_eq!(to_xy("h8").unwrap(), "7,7");
        assert_eq!(to_xy("aa3").unwrap(), "26,2");
        assert_eq!(from_xy("7,7").as_deref(), Some("h8"));
        assert_eq!(from_xy(" 26 , 2 ").as_deref(), Some("aa3"));
        assert_eq!(from_xy("7"), None);
        assert_eq!(from_xy("x,y"), None);
        assert_eq!(from_xy("-1,3"), None);
    }
}
