//! The vocabulary of zerosum: sides, outcomes, the generic [`Game`] trait (the fast face used by
//! search), the object-safe [`DynGame`] face used at the edges (arena, protocols, web, command
//! line), game specifications, Zobrist keys, cell notation and perft.
//!
//! This crate knows no concrete game and no algorithm.

pub mod conformance;
mod dyn_game;
mod error;
mod evaluator;
mod game;
pub mod notation;
mod perft;
mod score;
mod side;
mod spec;
mod zobrist;

pub use dyn_game::{DynAdapter, DynGame};
pub use error::{MoveError, SpecError};
pub use evaluator::Evaluator;
pub use game::Game;
pub use perft::{count_distinct_positions, perft};
pub use score::Score;
pub use side::{Outcome, Side, Status};
pub use spec::{GameSpec, SwapRule, ALIASES, MAX_MNK_RUN, MAX_SIDE, MIN_UNSTABLE_SIDE};
pub use zobrist::zobrist_key;
