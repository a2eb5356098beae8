//! Game-tree search for zerosum, generic over [`zerosum_core::Game`] and
//! [`zerosum_core::Evaluator`]: negamax alpha-beta with principal variation search and
//! aspiration windows, MTD(f), plain minimax as the reference, iterative deepening under a
//! clock, a shared transposition table, and move ordering by table move, killers, history and
//! the evaluator's hint; Monte Carlo tree search with a solver; and an exact solver. Wins and
//! losses carry their distance ([`zerosum_core::Score`]).
//!
//! Search never names a concrete game.
//!
//! Modules, each importing only modules listed below it (in brackets):
//!
//! ```text
//! searcher     Searcher: the front door, hands a search to alphabeta or mcts
//!                                                     [alphabeta, mcts, limits, result, table]
//! alphabeta    iterative deepening: PVS, MTD(f), alpha-beta, minimax; Lazy SMP
//!                                                     [limits, pace, result, table]
//! mcts         Monte Carlo tree search with MCTS-Solver (its TreeProof), root parallelism
//!                                                     [limits, pace, result]
//! solver       AlphaBetaSolver: exact values of any game; SolverProof of a depth-limited
//!              prove                                  [limits, table]
//! proven_line  ProvenLine: a search's proof kept from move to move      [result, table]
//! result       SearchInfo, SearchResult, TreeStats: what either search reports
//! limits       SearchLimits, Algorithm, Threads
//! pace         StopLatency: how long searches lately lost the processor
//! table        the transposition table
//! memory       table sizes against physical memory
//! ```
//!
//! The time of a timed search is [`zerosum_core::TimeBudget`]'s: both searches aim to stop at
//! its `search_aim`, with the stall `pace` measures.

mod alphabeta;
mod limits;
mod mcts;
pub mod memory;
mod pace;
mod proven_line;
mod result;
mod searcher;
mod solver;
pub mod table;

pub use limits::{Algorithm, SearchLimits, Threads, ThreadsError};
pub use memory::{check_table_mb, tables_share_mb, PhysicalMemory, TableSizeError, MAX_TABLE_MB};
pub use pace::StopLatency;
pub use proven_line::{proven_win, ProvenLine, ProvenMove};
pub use result::{score_word, SearchInfo, SearchResult, TreeStats};
pub use searcher::Searcher;
pub use solver::{
    AlphaBetaSolver, ProofMeter, ProvenBounds, Solution, SolveError, SolverProof, WeakValue,
};
pub use table::{TableTooBig, TranspositionTable};
