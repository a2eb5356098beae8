//! The game-theoretic value of a node of the Monte Carlo tree, as MCTS-Solver proves it
//! ([`super::backup`]): unknown, or a win, a loss or a draw with the plies to the end, so
//! that a won position plays the fastest win and a lost one the slowest loss.

use zerosum_core::{Outcome, Score, Side};

/// A proven value, from the point of view of one side (a node's
/// [`Node::side`](super::tree::Node::side)), with the plies from the node's position to the
/// end of the game under best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TreeProof {
    Unknown,
    Win(u16),
    Loss(u16),
    Draw,
}

impl TreeProof {
    /// The same value from the other side's point of view.
    #[inline]
    pub fn flipped(self) -> TreeProof {
        match self {
            TreeProof::Win(d) => TreeProof::Loss(d),
            TreeProof::Loss(d) => TreeProof::Win(d),
            other => other,
        }
    }

    /// The value of a finished game for `side`.
    pub fn of_outcome(outcome: Outcome, side: Side) -> TreeProof {
        match outcome {
            Outcome::Draw => TreeProof::Draw,
            Outcome::Win(winner) if winner == side => TreeProof::Win(0),
            Outcome::Win(_) => TreeProof::Loss(0),
        }
    }

    /// The value for `side` of a position that `winner` has won, `plies` from the end.
    pub fn of_winner(winner: Side, side: Side, plies: usize) -> TreeProof {
        let plies = u16::try_from(plies).unwrap_or(u16::MAX);
        if winner == side {
            TreeProof::Win(plies)
        } else {
            TreeProof::Loss(plies)
        }
    }

    /// The value one ply further from the end.
    #[inline]
    pub fn one_ply_earlier(self) -> TreeProof {
        match self {
            TreeProof::Win(d) => TreeProof::Win(d.saturating_add(1)),
            TreeProof::Loss(d) => TreeProof::Loss(d.saturating_add(1)),
            other => other,
        }
    }

    /// True for a proven value.
    #[inline]
    pub fn is_known(self) -> bool {
        self != TreeProof::Unknown
    }

    /// The reward a playout through a node of this value gets, for the node's side.
    pub fn reward(self) -> Option<f64> {
        match self {
            TreeProof::Unknown => None,
            TreeProof::Win(_) => Some(1.0),
            TreeProof::Loss(_) => Some(0.0),
            TreeProof::Draw => Some(0.5),
        }
    }

    /// How good this value is for its side: wins above draws above losses, a faster win and a
    /// slower loss better; `None` for an unknown value.
    pub fn rank(self) -> Option<i32> {
        match self {
            TreeProof::Unknown => None,
            TreeProof::Win(d) => Some(Score::WIN - i32::from(d)),
            TreeProof::Loss(d) => Some(-(Score::WIN - i32::from(d))),
            TreeProof::Draw => Some(0),
        }
    }

    /// This value of a child, for the side that chose it, as the [`Score`] of the parent's
    /// position (one ply further from the end).
    pub fn score_one_ply_up(self) -> Option<Score> {
        match self {
            TreeProof::Unknown => None,
            TreeProof::Win(d) => Some(Score::win_in(usize::from(d) + 1)),
            TreeProof::Loss(d) => Some(Score::loss_in(usize::from(d) + 1)),
            TreeProof::Draw => Some(Score::DRAW),
        }
    }
}
