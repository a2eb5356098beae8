//! What a finished game leaves behind: who played, the moves, the result and why, the time
//! each move took. One [`GameRecord`] is one line of a tournament's JSON-lines record file.

use serde::{Deserialize, Serialize};
use zerosum_core::{Outcome, Side, Status};
use zerosum_games::{new_game, GameSpec};

/// How a game ended. Everything but [`Termination::Normal`], [`Termination::Adjudication`]
/// and [`Termination::Resignation`] is a forfeit of the player who was to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// The rules ended the game (a win or a full board).
    Normal,
    /// The referee ended it: the move limit was reached, or the solver proved the result.
    Adjudication,
    /// The player to move gave the game up (a human typing `resign`).
    Resignation,
    /// The mover answered after its time ran out.
    Timeout,
    /// The mover answered a move that is not legal (or not a move at all).
    IllegalMove,
    /// The mover failed: it panicked, its process died, or it gave up.
    Crash,
    /// The mover did not answer at all, even well past its time (the watchdog gave up on it).
    Stalled,
}

impl Termination {
    /// Every termination, in the order standings print forfeit causes.
    pub const ALL: [Termination; 7] = [
        Termination::Normal,
        Termination::Adjudication,
        Termination::Resignation,
        Termination::Timeout,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Stalled,
    ];

    /// True when the game was lost by a fault of the mover rather than on the board.
    pub const fn is_forfeit(self) -> bool {
        !matches!(
            self,
            Termination::Normal | Termination::Adjudication | Termination::Resignation
        )
    }

    /// The word records and tables use: `normal`, `adjudication`, `resignation`, `timeout`,
    /// `illegal_move`, `crash`, `stalled`.
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::Resignation => "resignation",
            Termination::Timeout => "timeout",
            Termination::IllegalMove => "illegal_move",
            Termination::Crash => "crash",
            Termination::Stalled => "stalled",
        }
    }
}

/// A result in the `1-0`, `0-1`, `1/2-1/2` form of chess tools (first player first).
pub fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Side::First) => "1-0",
        Outcome::Win(Side::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// One finished game, as written to the record file (one JSON object per line).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Position in the tournament's schedule, from 0 (printed from 1).
    pub game: usize,
    /// Round, from 0. A round plays every configuration for every pair in both colours.
    pub round: usize,
    /// The colour-swapped pair this game belongs to: the two games of a pair have the same
    /// configuration, round and players with colours exchanged, and share this number.
    pub pair: usize,
    /// The game spec, canonical (`connectx:6x7x4`).
    pub spec: String,
    /// Index of the first player in the tournament's list of players.
    pub first: usize,
    /// Index of the second player.
    pub second: usize,
    /// Name of the first player.
    pub first_name: String,
    /// Name of the second player.
    pub second_name: String,
    /// The moves played from the start, in the game's notation: the opening's first, when the
    /// game started from one.
    pub moves: Vec<String>,
    /// Milliseconds each turn took, as the referee measured it (a course player: as its
    /// adapter measured the call): one per move, and one more for the turn that lost the game
    /// by a forfeit (late, illegal, failing) or a resignation; 0 for each move of the opening.
    pub move_ms: Vec<u64>,
    /// The result: `"first"`, `"second"` (the winner) or `"draw"` in the file.
    #[serde(with = "outcome_word")]
    pub outcome: Outcome,
    /// How the game ended.
    pub termination: Termination,
    /// The reason in words, e.g. `first player completes a line` or
    /// `second player timed out: answered after 1.31 s, limit 1.00 s`.
    pub reason: String,
    /// The seed the game's players were built with.
    pub seed: u64,
    /// The opening the game started from: its index among the openings of the suite (from 0,
    /// in file order); absent without a suite. Both games of a pair have the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<usize>,
}

impl GameRecord {
    /// Checks that the moves replay on `spec` from its start, beginning with `opening` (in any
    /// notation the game reads), each written as the game writes it; that a game ended by the
    /// rules ends in the recorded result and any other (forfeit, resignation, adjudication)
    /// in a position still open, a game lost on a move (late, illegal, resigned) lost by the
    /// player to move; and that there is a time for each move (and one more for a turn that
    /// lost). Says what does not fit.
    pub fn check_moves(&self, spec: &GameSpec, opening: &[String]) -> Result<(), String> {
        let mut game = new_game(spec).map_err(|error| error.to_string())?;
        let mut opening_moves = Vec::with_capacity(opening.len());
        for text in opening {
            opening_moves.push(
                game.play(text)
                    .map_err(|error| format!("its opening cannot be played: {error}"))?,
            );
        }
        if !self.moves.starts_with(&opening_moves) {
            return Err("its moves do not start with its opening".into());
        }
        for (ply, text) in self.moves.iter().enumerate().skip(opening.len()) {
            let number = ply + 1;
            let canonical = game
                .play(text)
                .map_err(|error| format!("move {number}: {error}"))?;
            if canonical != *text {
                return Err(format!(
                    "move {number} is written `{text}`, not as the game writes it (`{canonical}`)"
                ));
            }
        }
        match (self.termination, game.status()) {
            (Termination::Normal, Status::Over(outcome)) if outcome == self.outcome => {}
            (Termination::Normal, status) => {
                return Err(format!(
                    "the record says {} by the rules, but its moves lead to: {status}",
                    result_text(self.outcome)
                ))
            }
            (
                Termination::Timeout | Termination::IllegalMove | Termination::Resignation,
                Status::Ongoing,
            ) if self.outcome != Outcome::Win(!game.to_move()) => {
                return Err(format!(
                    "it was lost by the {} player, who was to move ({}), but its result is {}",
                    game.to_move(),
                    self.termination.name(),
                    result_text(self.outcome)
                ))
            }
            (_, Status::Ongoing) => {}
            (termination, status) => {
                return Err(format!(
                    "the record says it ended by {}, but its moves end the game ({status})",
                    termination.name()
                ))
            }
        }
        let moves = self.moves.len();
        if !(moves..=moves + 1).contains(&self.move_ms.len()) {
            return Err(format!(
                "{} move times for {moves} moves",
                self.move_ms.len()
            ));
        }
        Ok(())
    }

    /// The result in the `1-0`, `0-1`, `1/2-1/2` form of chess tools (first player first).
    pub fn result_text(&self) -> &'static str {
        result_text(self.outcome)
    }

    /// The index of the winning player, if any.
    pub fn winner(&self) -> Option<usize> {
        self.outcome.winner().map(|side| self.player(side))
    }

    /// The index of the player who had `side`.
    pub fn player(&self, side: Side) -> usize {
        match side {
            Side::First => self.first,
            Side::Second => self.second,
        }
    }

    /// The side `player` had in this game, if they played in it.
    pub fn side_of(&self, player: usize) -> Option<Side> {
        if player == self.first {
            Some(Side::First)
        } else if player == self.second {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// The `Finished game N (A vs B) on SPEC: 1-0 {reason}` line of cutechess-style tools.
    pub fn finished_line(&self) -> String {
        format!(
            "Finished game {} ({} vs {}) on {}: {} {{{}}}",
            self.game as u128 + 1,
            self.first_name,
            self.second_name,
            self.spec,
            self.result_text(),
            self.reason
        )
    }
}

/// Writes an [`Outcome`] as one word: the winner's side (`first`, `second`) or `draw`.
mod outcome_word {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};
    use zerosum_core::{Outcome, Side};

    pub fn serialize<S: Serializer>(outcome: &Outcome, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(match outcome {
            Outcome::Win(side) => side.name(),
            Outcome::Draw => "draw",
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Outcome, D::Error> {
        match String::deserialize(deserializer)?.as_str() {
            "first" => Ok(Outcome::Win(Side::First)),
            "second" => Ok(Outcome::Win(Side::Second)),
            "draw" => Ok(Outcome::Draw),
            other => Err(D::Error::custom(format!(
                "unknown outcome `{other}` (expected first, second or draw)"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_game_index_prints_from_one() {
        // Found by fuzzing: the last index of a record read from a file overflowed `+ 1`.
        let line = r#"{"game":18446744073709551615,"round":0,"pair":0,"spec":"mnk:3x3x3",
            "first":0,"second":1,"first_name":"a","second_name":"b","moves":[],"move_ms":[],
            "outcome":"draw","termination":"normal","reason":"r","seed":1}"#;
        let record: GameRecord = serde_json::from_str(line).unwrap();
        assert!(record
            .finished_line()
            .starts_with("Finished game 18446744073709551616 (a vs b) on mnk:3x3x3: 1/2-1/2"));
    }
}
