use thiserror::Error;

/// Why a move given as text or as a value could not be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    #[error("cannot read move `{text}`: {expected}")]
    Syntax { text: String, expected: String },
    /// The text names a cell or column outside the board.
    #[error("move `{text}` is off the board ({board})")]
    OffBoard { text: String, board: String },
    /// A well-formed move that the rules forbid in this position.
    #[error("illegal move `{mv}`: {reason}")]
    Illegal { mv: String, reason: &'static str },
    /// No move can be played: the game has ended.
    #[error("move `{mv}` comes after the end of the game ({status})")]
    GameOver { mv: String, status: String },
    /// An error in a list of moves, with the 1-based position of the bad move.
    #[error("move {index} of the list: {error}")]
    InList { index: usize, error: Box<MoveError> },
}

/// Why a game specification could not be understood or built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    #[error("unknown game `{0}` (`zerosum games` lists the games and aliases)")]
    UnknownGame(String),
    #[error("bad game spec `{spec}`: {reason}")]
    Invalid { spec: String, reason: String },
}
