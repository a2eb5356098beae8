//! The vocabulary of zerosum: sides, outcomes, the generic [`Game`] trait (the fast face used by
//! search), the [`Evaluator`] trait, scores, Zobrist keys, cell notation, perft, and the time
//! budget of a move ([`TimeBudget`]).
//!
//! This crate knows no concrete game and no algorithm. Game specifications, the registry of
//! families and the object-safe face used at the edges live in `zerosum-games`, where the
//! families are.
//!
//! Modules, each importing only modules listed below it (in brackets):
//!
//! ```text
//! engine_line  an engine's comment on its move, read and told in words  [score]
//! conformance  random-playout checks that every game's tests run   [game, side, zobrist]
//! perft        counting positions by depth                          [game]
//! evaluator    the Evaluator trait                                  [game]
//! game         the Game trait: the fast face                        [side, error]
//! error        MoveError, SpecError
//! side         Side, Outcome, Status
//! score        Score, with distance to a win or loss
//! notation     cell names (column letters, row numbers)
//! board_text   text board lines with the winning cells framed
//! zobrist      Zobrist keys
//! time_budget  TimeBudget: the time of a move at each layer, every reserve and why
//! capped_read  reading files and streams with a cap on their size and line length
//! ```

mod board_text;
pub mod capped_read;
pub mod conformance;
mod engine_line;
mod error;
mod evaluator;
mod game;
pub mod notation;
mod perft;
mod score;
mod side;
mod time_budget;
mod zobrist;

pub use board_text::MarkedLine;
pub use engine_line::EngineLine;
pub use error::{MoveError, SpecError};
pub use evaluator::{Evaluator, MoveVerdict};
pub use game::{Game, LegalMovesChange};
pub use perft::{count_distinct_positions, perft};
pub use score::Score;
pub use side::{Outcome, Side, Status};
pub use time_budget::TimeBudget;
pub use zobrist::zobrist_key;

/// Largest number of rows or columns of any board.
pub const MAX_SIDE: usize = 100;
