//! The engine behind a protocol server.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use zerosum_games::GameSpec;

/// A request for a move.
#[derive(Clone, Copy, Debug)]
pub struct EngineRequest<'a> {
    /// Every move played so far, from the start position, in the game's canonical notation.
    /// The position is an ongoing game; the side to move is the one the engine plays now.
    pub moves: &'a [String],
    /// The time the engine may think, the protocol's overhead already deducted
    /// ([`zerosum_core::TimeBudget::served`]); `None` when the
    /// protocol sets no limit (the engine then uses its own settings).
    pub budget: Option<Duration>,
    /// When the command that asks for the move was taken up: the budget counts from here
    /// (setting up the engine for a new game included).
    pub issued: Instant,
    /// Raised when the engine must answer at once (an interrupt): it then answers its best
    /// move so far.
    pub stop: &'a Arc<AtomicBool>,
}

/// An engine's answer: a move and, optionally, one line about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineMove {
    /// The move in the game's notation (the server checks it).
    pub text: String,
    /// One line of search information, e.g. `depth 9 score +34 nodes 120345 pv d4 e5`.
    pub info: Option<String>,
}

/// Why an engine gives no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The engine resigns the game.
    Resigned,
    /// The engine cannot play (this game, or at all), with the reason.
    Failed(String),
}

/// What a protocol server needs from an engine. The server calls [`MoveEngine::new_game`]
/// before the first move of each game, then [`MoveEngine::choose`] for any position of that
/// game, for either side (GTP lets the controller ask for both colours, and take moves back).
pub trait MoveEngine {
    /// Prepares for a new game of `spec`, forgetting the last one; an error names what this
    /// engine cannot play.
    fn new_game(&mut self, spec: &GameSpec) -> Result<(), String>;

    /// A move for the side to move after `request.moves`, within `request.budget`.
    fn choose(&mut self, request: &EngineRequest) -> Result<EngineMove, EngineError>;

    /// The engine's score and principal variation for the side to move after
    /// `request.moves` (an ongoing game), within `request.budget` (`None`: its own settings).
    /// GUI analysis commands ask for it; by default an engine gives none.
    fn analyse(&mut self, request: &EngineRequest) -> Result<EngineAnalysis, String> {
        let _ = request;
        Err("this engine gives no analysis".into())
    }

    /// The exact value of the position after `request.moves` (an ongoing game), within
    /// `request.budget`; an error when the limit or `request.stop` ends the solve first. GUI
    /// analysis commands ask for it; by default an engine has no solver.
    fn solve(&mut self, request: &EngineRequest) -> Result<EngineSolution, String> {
        let _ = request;
        Err("this engine has no solver".into())
    }
}

/// What an engine thinks of a position, from the side to move (GUI analysis commands).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineAnalysis {
    /// The score in the engine's words: `+34` (an evaluation), `win-in-5`, `loss-in-4`,
    /// `draw` (proven).
    pub score: String,
    /// The depth of the search's last iteration (partial or not) that gave the score.
    pub depth: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation from the position, in the game's notation.
    pub pv: Vec<String>,
}

/// The exact value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
}

/// A position solved exactly (GUI analysis commands).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSolution {
    /// The value for the side to move.
    pub verdict: Verdict,
    /// The value in the engine's words, e.g. `win-in-7`, `draw`, `loss-in-4`.
    pub text: String,
    /// The moves that keep the value, in the game's notation.
    pub best_moves: Vec<String>,
}
