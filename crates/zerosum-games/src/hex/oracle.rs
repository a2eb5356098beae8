//! The proof-number solver ([`super::dfpn`]) as the engine's exact oracle on Hex: a position
//! it proves won is answered at once with its winning move; one it proves lost has every move
//! lost (the search then picks the most stubborn).
//!
//! Its budget is a share of the engine's: a [`TIME_SHARE`] of the time the engine gives its
//! oracle, and of a node budget a [`NODE_SHARE`]th (each of its nodes builds both sides'
//! virtual connections, a thousand times a playout's work). Its table is kept from move to
//! move through the game.

use std::time::Instant;

use zerosum_core::Game;

use super::dfpn::{DfpnLimits, DfpnOptions, HexSolver};
use super::{Hex, HexMove};
use crate::exact::{ExactLimits, ExactOracle, Proven};

/// The share of the oracle's time (from now to its deadline) the solver takes.
pub const TIME_SHARE: f64 = 0.2;

/// The solver's nodes are the oracle's node budget divided by this.
pub const NODE_SHARE: u64 = 2_000;

/// The proof-number solver as an oracle for one board size.
pub struct HexOracle {
    solver: HexSolver,
}

impl HexOracle {
    /// An oracle for `game`'s board with a table of `table_mb` MB; `None` for a board too big
    /// for the solver.
    pub fn new(game: &Hex, table_mb: usize) -> Option<HexOracle> {
        let options = DfpnOptions::with_table_mb(table_mb);
        let solver = HexSolver::new(game.width(), game.height(), options).ok()?;
        Some(HexOracle { solver })
    }
}

impl ExactOracle<Hex> for HexOracle {
    fn prove(&mut self, game: &Hex, limits: &ExactLimits) -> Vec<(HexMove, Proven)> {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut proven: Vec<(HexMove, Proven)> =
            moves.iter().map(|&mv| (mv, Proven::Unknown)).collect();
        let now = Instant::now();
        let dfpn_limits = DfpnLimits {
            nodes: limits.nodes.map(|nodes| (nodes / NODE_SHARE).max(1)),
            deadline: limits
                .deadline
                .map(|deadline| now + deadline.saturating_duration_since(now).mul_f64(TIME_SHARE)),
            stop: limits.stop.clone(),
        };
        // Refused under a swap rule before the swap: nothing proven.
        let Ok(result) = self.solver.solve(game, &dfpn_limits) else {
            return proven;
        };
        match (result.wins, result.best) {
            (Some(true), Some(best)) => {
                for (mv, value) in proven.iter_mut() {
                    if *mv == best {
                        *value = Proven::Win { plies: None };
                    }
                }
                // The winning move first: the likeliest best.
                proven.sort_by_key(|(mv, _)| *mv != best);
            }
            (Some(false), _) => {
                for (_, value) in proven.iter_mut() {
                    *value = Proven::Loss { plies: None };
                }
            }
            _ => {}
        }
        proven
    }
}
