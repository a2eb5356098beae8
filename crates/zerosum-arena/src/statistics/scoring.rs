//! Scoring schemes: how many points each player of a finished game gets.
//!
//! Two schemes come from the course tournaments (`docs/reference/rules.md`):
//!
//! | game result                    | [`Scoring::Cx`] | [`Scoring::Mnk`] |
//! |--------------------------------|-----------------|------------------|
//! | win as first player            | 3               | 2                |
//! | win as second player           | 3               | 3                |
//! | win by the opponent's forfeit  | 3               | 2 (either colour)|
//! | draw                           | 1               | 1                |
//! | loss (forfeits included)       | 0               | 0                |
//!
//! A forfeit is any [`Termination::is_forfeit`] (timeout, illegal move, crash, stalled); the
//! forfeiting player is the loser of the record's outcome. Adjudicated games count like games
//! ended by the rules.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use thiserror::Error;
use zerosum_core::{Outcome, Side};

use crate::records::record::{GameRecord, Termination};

/// A scoring scheme of a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// Course Connect-X (CXGame): win 3, draw 1, loss 0, a forfeit is a win of 3 for the
    /// opponent.
    Cx,
    /// Course m,n,k (MNKGame): win as first player 2, as second player 3, by the opponent's
    /// forfeit 2 whatever the colour, draw 1, loss 0.
    Mnk,
}

/// A scoring scheme name that is not one of [`Scoring::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown scoring scheme `{0}` (expected cx or mnk)")]
pub struct UnknownScoring(pub String);

impl Scoring {
    /// Every scheme, in the order help texts list them.
    pub const ALL: [Scoring; 2] = [Scoring::Cx, Scoring::Mnk];

    /// The name on the command line and in tables: `cx` or `mnk`.
    pub const fn name(self) -> &'static str {
        match self {
            Scoring::Cx => "cx",
            Scoring::Mnk => "mnk",
        }
    }

    /// The points of the first and of the second player of a game with this result, indexed
    /// by [`Side::index`]. A forfeit `termination` is the loser's fault; with a drawn
    /// `outcome` there is no loser, so both get the draw points whatever the termination.
    pub const fn points_for(self, outcome: Outcome, termination: Termination) -> [u32; 2] {
        let winner = match outcome {
            Outcome::Draw => return [1, 1],
            Outcome::Win(side) => side,
        };
        let winner_points = match self {
            Scoring::Cx => 3,
            Scoring::Mnk if termination.is_forfeit() => 2,
            Scoring::Mnk => match winner {
                Side::First => 2,
                Side::Second => 3,
            },
        };
        match winner {
            Side::First => [winner_points, 0],
            Side::Second => [0, winner_points],
        }
    }

    /// The points of the record's first and second player, indexed by [`Side::index`]
    /// (`points[Side::First.index()]` went to player `record.first`).
    pub const fn points(self, record: &GameRecord) -> [u32; 2] {
        self.points_for(record.outcome, record.termination)
    }

    /// The most points a player can get from one game played as `side`: what a win on the
    /// board gives (a win by forfeit never gives more).
    pub const fn max_points(self, side: Side) -> u32 {
        match (self, side) {
            (Scoring::Cx, _) => 3,
            (Scoring::Mnk, Side::First) => 2,
            (Scoring::Mnk, Side::Second) => 3,
        }
    }
}

impl FromStr for Scoring {
    type Err = UnknownScoring;

    /// Reads `cx` or `mnk` (ASCII case ignored).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Scoring::ALL
            .into_iter()
            .find(|scoring| scoring.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownScoring(text.to_string()))
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Records for the tests of this crate's statistics modules.
#[cfg(test)]
pub(crate) mod test_records {
    use zerosum_core::{Outcome, Side};

    use crate::records::record::{GameRecord, Termination};

    /// A game between players `first` and `second` (named `P<index>`) with the given result;
    /// `game` numbers it and `pair` is its colour-swapped pair.
    pub(crate) fn game(
        game: usize,
        pair: usize,
        first: usize,
        second: usize,
        outcome: Outcome,
        termination: Termination,
    ) -> GameRecord {
        GameRecord {
            game,
            round: 0,
            pair,
            spec: "connectx:4x4x4".to_string(),
            first,
            second,
            first_name: format!("P{first}"),
            second_name: format!("P{second}"),
            moves: Vec::new(),
            move_ms: Vec::new(),
            outcome,
            termination,
            reason: String::new(),
            seed: 0,
            opening: None,
        }
    }

    /// A game ended by the rules: `winner` is `Some(side)` or `None` for a draw.
    pub(crate) fn normal(
        game: usize,
        pair: usize,
        first: usize,
        second: usize,
        winner: Option<Side>,
    ) -> GameRecord {
        let outcome = winner.map_or(Outcome::Draw, Outcome::Win);
        self::game(game, pair, first, second, outcome, Termination::Normal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST_WINS: Outcome = Outcome::Win(Side::First);
    const SECOND_WINS: Outcome = Outcome::Win(Side::Second);

    #[test]
    fn cx_gives_three_for_any_win_and_one_for_a_draw() {
        for termination in Termination::ALL {
            assert_eq!(Scoring::Cx.points_for(FIRST_WINS, termination), [3, 0]);
            assert_eq!(Scoring::Cx.points_for(SECOND_WINS, termination), [0, 3]);
        }
        assert_eq!(
            Scoring::Cx.points_for(Outcome::Draw, Termination::Normal),
            [1, 1]
        );
        assert_eq!(
            Scoring::Cx.points_for(Outcome::Draw, Termination::Adjudication),
            [1, 1]
        );
    }

    #[test]
    fn mnk_pays_the_second_player_more_except_for_a_forfeit() {
        for termination in [Termination::Normal, Termination::Adjudication] {
            assert_eq!(Scoring::Mnk.points_for(FIRST_WINS, termination), [2, 0]);
            assert_eq!(Scoring::Mnk.points_for(SECOND_WINS, termination), [0, 3]);
            assert_eq!(Scoring::Mnk.points_for(Outcome::Draw, termination), [1, 1]);
        }
        for forfeit in [
            Termination::Timeout,
            Termination::IllegalMove,
            Termination::Crash,
            Termination::Stalled,
        ] {
            // The second player forfeited: the first gets the forfeit win of 2.
            assert_eq!(Scoring::Mnk.points_for(FIRST_WINS, forfeit), [2, 0]);
            // The first player forfeited: the second gets 2, not the 3 of a win on the board.
            assert_eq!(Scoring::Mnk.points_for(SECOND_WINS, forfeit), [0, 2]);
        }
    }

    #[test]
    fn points_of_a_record_follow_its_outcome_and_termination() {
        let timeout = test_records::game(0, 0, 4, 7, SECOND_WINS, Termination::Timeout);
        assert_eq!(Scoring::Cx.points(&timeout), [0, 3]);
        assert_eq!(Scoring::Mnk.points(&timeout), [0, 2]);
        let won_as_second = test_records::normal(1, 0, 7, 4, Some(Side::Second));
        assert_eq!(Scoring::Mnk.points(&won_as_second), [0, 3]);
    }

    #[test]
    fn max_points_per_side() {
        assert_eq!(Scoring::Cx.max_points(Side::First), 3);
        assert_eq!(Scoring::Cx.max_points(Side::Second), 3);
        assert_eq!(Scoring::Mnk.max_points(Side::First), 2);
        assert_eq!(Scoring::Mnk.max_points(Side::Second), 3);
    }

    #[test]
    fn parses_and_prints_scheme_names() {
        assert_eq!("cx".parse(), Ok(Scoring::Cx));
        assert_eq!("MNK".parse(), Ok(Scoring::Mnk));
        for scoring in Scoring::ALL {
            assert_eq!(scoring.to_string().parse(), Ok(scoring));
        }
        let error = "fide".parse::<Scoring>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown scoring scheme `fide` (expected cx or mnk)"
        );
    }
}
