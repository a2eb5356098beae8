//! Answers about one position, the same wherever they are asked (the command line's `solve`,
//! `search` and `analyze`, the Python package): the exact value and best moves from the solver
//! a game calls for ([`solve`]), the engine's move with its oracle's proof ([`search`]), and
//! the value of every legal move ([`analyze`]). Each returns what it found as data; showing
//! progress is its caller's, through [`SolveWatch`] and the search's info callback.
//!
//! ```text
//! solve     ExactEngine: the Connect-X solver and book, Hex's proof numbers, the generic solver
//! search    the engine's move: oracle, then iterative deepening; analyze: every move's value
//! ```

pub mod search;
pub mod solve;

use thiserror::Error;
use zerosum_core::{MoveError, SpecError, Status};

pub use search::{
    analyze, search, EngineSettings, Iteration, MoveValue, SearchAnswer, SearchEvent,
};
pub use solve::{
    ExactEngine, Quiet, SolveAnswer, SolveLimits, SolveMeter, SolveSettings, SolveWatch, Solved,
};

/// Why a position could not be answered.
#[derive(Debug, Error)]
pub enum AnswerError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The position is over: nothing to solve or search (the verb says which).
    #[error("the game is over ({status}): there is nothing to {verb}")]
    Over { status: Status, verb: &'static str },
    /// A solver or engine refused its settings or failed (a table too big, an unknown
    /// evaluation name).
    #[error("{0}")]
    Engine(String),
}

/// A count in a few characters: `950`, `12.3k`, `4.5M`, `1.2G`.
pub fn count(n: u64) -> String {
    let n = n as f64;
    if n < 1e3 {
        format!("{n}")
    } else if n < 1e6 {
        format!("{:.1}k", n / 1e3)
    } else if n < 1e9 {
        format!("{:.1}M", n / 1e6)
    } else {
        format!("{:.1}G", n / 1e9)
    }
}
