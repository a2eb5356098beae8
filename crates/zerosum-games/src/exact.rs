//! Exact knowledge a game family may offer beyond search: an [`ExactOracle`] proves the value
//! of moves (from an opening book, an exact solver) within limits, so that an engine playing
//! the game never gives away a won or drawn position it could have proven.
//!
//! An oracle is optional: [`EvaluatedGame::oracle`](crate::EvaluatedGame::oracle) gives one
//! where the family has it (Connect-X boards that fit the packed solver), `None` elsewhere.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use zerosum_core::Game;

/// What an oracle may spend on one question. The default has no limit.
#[derive(Clone, Debug, Default)]
pub struct ExactLimits {
    /// Stop after about this many positions (the solver's nodes), all proofs of the question
    /// together.
    pub nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Raised by another thread to stop at once.
    pub stop: Option<Arc<AtomicBool>>,
    /// Threads the oracle may search with (0 counts as 1; with more than one, the node limit
    /// counts the first thread's nodes).
    pub threads: usize,
}

impl ExactLimits {
    /// True once the deadline has passed or the stop flag is raised (the node limit is the
    /// solver's to count).
    pub fn expired(&self) -> bool {
        self.deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
            || self
                .stop
                .as_ref()
                .is_some_and(|stop| stop.load(Ordering::Relaxed))
    }
}

/// What is proven about one move, for the side that plays it. `plies` counts the moves from
/// the position the move is played in to the end of the game, this move included (a move that
/// wins at once wins in 1); `None` when only the result is proven, not its distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    /// Nothing was proven in the limits.
    Unknown,
    /// The mover wins against any defence.
    Win { plies: Option<usize> },
    /// Both sides can hold the draw.
    Draw,
    /// The mover loses against best play.
    Loss { plies: Option<usize> },
}

impl Proven {
    /// Orders proven values from the mover's point of view: any win above a draw above any
    /// loss; among wins the faster, among losses the slower first; a result without its
    /// distance ranks below the same result with one (a win of unknown distance may be the
    /// slowest, a loss of unknown distance the fastest). `None` for [`Proven::Unknown`].
    pub fn rank(self) -> Option<i64> {
        // Distances are below 2^20 (a 100x100 board has 10^4 cells).
        const SPAN: i64 = 1 << 21;
        match self {
            Proven::Unknown => None,
            Proven::Win { plies } => Some(2 * SPAN - plies.map_or(SPAN - 1, |p| p as i64)),
            Proven::Draw => Some(0),
            Proven::Loss { plies } => Some(-2 * SPAN + plies.map_or(1, |p| p as i64 + 1)),
        }
    }

    /// -1, 0 or 1: the result without its distance; `None` for [`Proven::Unknown`].
    pub fn sign(self) -> Option<i32> {
        match self {
            Proven::Unknown => None,
            Proven::Win { .. } => Some(1),
            Proven::Draw => Some(0),
            Proven::Loss { .. } => Some(-1),
        }
    }

    /// A short word for engine lines: `win-in-7`, `win`, `draw`, `loss-in-4`, `loss`, `?`.
    pub fn compact(self) -> String {
        match self {
            Proven::Unknown => "?".into(),
            Proven::Win { plies: Some(p) } => format!("win-in-{p}"),
            Proven::Win { plies: None } => "win".into(),
            Proven::Draw => "draw".into(),
            Proven::Loss { plies: Some(p) } => format!("loss-in-{p}"),
            Proven::Loss { plies: None } => "loss".into(),
        }
    }
}

/// An exact oracle for the positions of one board: it owns whatever it needs (a solver's
/// table, a book) and learns across the questions of a game.
pub trait ExactOracle<G: Game>: Send {
    /// The legal moves of `game` (ongoing) with what could be proven of each within `limits`.
    /// Every move's result is sought first (cheaply), then the distances of the moves that keep
    /// the best result. A move that wins at once ends the search: the other moves may then stay
    /// [`Proven::Unknown`].
    fn prove(&mut self, game: &G, limits: &ExactLimits) -> Vec<(G::Move, Proven)>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_values_rank_from_the_movers_point_of_view() {
        let order = [
            Proven::Win { plies: Some(1) },
            Proven::Win { plies: Some(9) },
            Proven::Win { plies: None },
            Proven::Draw,
            Proven::Loss { plies: None },
            Proven::Loss { plies: Some(2) },
        ];
        // Best first, except the loss of unknown distance, which ranks as the fastest loss.
        let ranks: Vec<i64> = order.iter().map(|p| p.rank().unwrap()).collect();
        assert!(ranks[0] > ranks[1] && ranks[1] > ranks[2] && ranks[2] > ranks[3]);
        assert!(ranks[3] > ranks[5] && ranks[5] > ranks[4]);
        assert_eq!(Proven::Unknown.rank(), None);
    }
}
