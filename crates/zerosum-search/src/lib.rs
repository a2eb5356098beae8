//! Game-tree search for zerosum, generic over [`zerosum_core::Game`] and
//! [`zerosum_core::Evaluator`]: negamax alpha-beta with principal variation search and
//! aspiration windows, MTD(f), plain minimax as the reference, iterative deepening under a
//! clock, a shared transposition table, and move ordering by table move, killers, history and
//! the evaluator's hint; and Monte Carlo tree search with a solver. Wins and losses carry their
//! distance ([`zerosum_core::Score`]).
//!
//! Search never names a concrete game.
//!
//! Modules: `search` (iterative deepening, the alpha-beta family and minimax) and `solver` (the
//! exact solver) both use `table` (the transposition table); `mcts` (Monte Carlo tree search
//! with a solver) is the searcher's driver for [`Algorithm::Mcts`]; `limits` (what a search may spend
//! and which algorithm) imports nothing; `proof` keeps a search's proven win or loss from
//! move to move.

mod limits;
mod mcts;
pub mod memory;
mod pace;
mod proof;
mod search;
mod solver;
pub mod table;

pub use limits::{Algorithm, SearchLimits, Threads, ThreadsError};
pub use memory::{check_table_mb, tables_share_mb, PhysicalMemory, TableSizeError, MAX_TABLE_MB};
pub use pace::StopLatency;
pub use proof::{proven_win, ProvenLine, ProvenMove};
pub use search::{SearchInfo, SearchResult, Searcher, TreeStats};
pub use solver::{Proof, ProofMeter, ProvenBounds, Solution, SolveError, Solver, WeakValue};
pub use table::{TableTooBig, TranspositionTable};
