//! Text protocols that let other programs use zerosum's engine, as codecs and state machines
//! over any byte stream:
//!
//! - [`gtp`]: the Go Text Protocol v2, our universal engine protocol (Hex tools speak it), for
//!   every game, with a private `zerosum-game SPEC` command and `# interrupt` support;
//! - [`gomocup`]: the Gomocup ("pbrain") protocol of gomoku managers, for m,n,k games.
//!
//! A server drives any [`MoveEngine`]; the command line adapts the arena's engine player to it.
//! Input is read as bytes ([`LineReader`]): lines end with LF, CR or CR LF, are capped at
//! [`MAX_LINE_BYTES`] and decoded lossily, and a server reads only a few lines ahead of the
//! command it answers, so no input makes a server panic, hang or grow.
//!
//! Modules: `gtp` (`session` -> `command`, `clock`, `rules`, `analyze` -> `vertex` -> `grid`,
//! `colour`) and `gomocup` (`session` -> `timing`) drive an `engine` ([`MoveEngine`]) and read
//! their input through `input`. Both clocks keep back the protocol's overhead of
//! [`zerosum_core::TimeBudget`]. No protocol imports the other.

mod engine;
pub mod gomocup;
pub mod gtp;
mod input;

pub use engine::{
    EngineAnalysis, EngineError, EngineMove, EngineRequest, EngineSolution, MoveEngine, Verdict,
};
pub use input::{InputLine, LineReader, MAX_LINE_BYTES};

/// The name servers give for the engine.
pub const ENGINE_NAME: &str = "zerosum";

/// The version servers give for the engine.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
