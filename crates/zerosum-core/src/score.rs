use std::fmt;

/// A search value from the point of view of the side to move, with wins and losses carrying
/// their distance: a win in `n` plies is `WIN - n`, a loss in `n` plies is `-(WIN - n)`, so that
/// the engine prefers the fastest win and the slowest loss. Heuristic values stay within
/// `±MAX_EVAL`, well inside the decisive range.
///
/// Scores fit in an `i16`, so the transposition table can store them in 16 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    /// The value of a win on the spot (0 plies away).
    pub const WIN: i32 = 32_000;
    /// Longest distance a decisive score can carry: the longest game on a 100x100 board.
    pub const MAX_DISTANCE: i32 = 10_240;
    /// Heuristic evaluations are clamped to `-MAX_EVAL..=MAX_EVAL`.
    pub const MAX_EVAL: i32 = Self::WIN - Self::MAX_DISTANCE - 1;
    /// Larger than any score: the bound of a full window.
    pub const INFINITE: Score = Score(Self::WIN + 1);
    pub const DRAW: Score = Score(0);

    /// A win `plies` plies from here.
    #[inline]
    pub const fn win_in(plies: usize) -> Score {
        Score(Self::WIN - plies as i32)
    }

    /// A loss `plies` plies from here.
    #[inline]
    pub const fn loss_in(plies: usize) -> Score {
        Score(-(Self::WIN - plies as i32))
    }

    /// A heuristic value, clamped into the non-decisive range.
    #[inline]
    pub fn eval(value: i32) -> Score {
        Score(value.clamp(-Self::MAX_EVAL, Self::MAX_EVAL))
    }

    /// True for a proven win or loss.
    #[inline]
    pub const fn is_decisive(self) -> bool {
        self.0.abs() > Self::MAX_EVAL
    }

    /// Plies to the end for a decisive score, `None` otherwise.
    pub const fn distance(self) -> Option<usize> {
        if self.is_decisive() {
            Some((Self::WIN - self.0.abs()) as usize)
        } else {
            None
        }
    }

    /// Converts a score seen from the root into one seen from a node `ply` plies below the
    /// root (for storing in the transposition table), and back with [`Score::from_node`].
    #[inline]
    pub const fn to_node(self, ply: usize) -> Score {
        if self.0 > Self::MAX_EVAL {
            Score(self.0 + ply as i32)
        } else if self.0 < -Self::MAX_EVAL {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// Inverse of [`Score::to_node`].
    #[inline]
    pub const fn from_node(self, ply: usize) -> Score {
        if self.0 > Self::MAX_EVAL {
            Score(self.0 - ply as i32)
        } else if self.0 < -Self::MAX_EVAL {
            Score(self.0 + ply as i32)
        } else {
            self
        }
    }
}

impl Score {
    /// The score in one word, for lines of `key value` pairs: `+34`, `win-in-5`, `loss-in-4`.
    pub fn compact(self) -> String {
        match self.distance() {
            Some(n) if self.0 > 0 => format!("win-in-{n}"),
            Some(n) => format!("loss-in-{n}"),
            None => format!("{:+}", self.0),
        }
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    /// `win in N`, `loss in N`, or the evaluation as a signed number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.distance() {
            Some(n) if self.0 > 0 => write!(f, "win in {n}"),
            Some(n) => write!(f, "loss in {n}"),
            None => write!(f, "{:+}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisive_scores_carry_distance() {
        assert!(Score::win_in(3) > Score::win_in(5));
        assert!(Score::loss_in(5) > Score::loss_in(3));
        assert!(Score::win_in(Score::MAX_DISTANCE as usize).is_decisive());
        assert!(!Score::eval(i32::MAX).is_decisive());
        assert_eq!(Score::win_in(7).distance(), Some(7));
        assert_eq!(Score::win_in(7).to_string(), "win in 7");
        assert_eq!(Score::loss_in(2).to_string(), "loss in 2");
        assert_eq!(Score(-35).to_string(), "-35");
        assert_eq!(Score::win_in(5).compact(), "win-in-5");
        assert_eq!(Score::loss_in(4).compact(), "loss-in-4");
        assert_eq!(Score(34).compact(), "+34");
        assert_eq!(-Score::win_in(4), Score::loss_in(4));
        assert!(Score::INFINITE.0 <= i16::MAX as i32);
    }

    #[test]
    fn node_relative_scores_round_trip() {
        for s in [Score::win_in(9), Score::loss_in(12), Score(17), Score::DRAW] {
            assert_eq!(s.to_node(5).from_node(5), s);
        }
        // A win in 9 from the root is a win in 4 from a node 5 plies down.
        assert_eq!(Score::win_in(9).to_node(5), Score::win_in(4));
    }
}
