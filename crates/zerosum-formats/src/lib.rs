//! Game files in the formats other tools read, written from a finished game and read back
//! into a position:
//!
//! - [`sgf`]: SGF FF\[4\] for Hex (`GM[11]`, HexGui's cells and swap moves) and Atoll (the same
//!   `GM[11]` grid, no community format exists for it; the board in a private `ZS` property);
//! - [`psq`]: Piskvork's PSQ for m,n,k games (gomoku);
//! - [`pgn`]: a PGN-style text for every game (spec, players, result, reason, move times):
//!   Connect-X, Unstable and the rest have no community format of their own.
//!
//! A file is a [`GameFile`]; readers check every move by replaying it
//! ([`GameFile::position`]) and report the first problem with its line ([`FormatError`]).
//! This crate sits beside the arena and the protocols (it needs only the games), so that the
//! command line can export the arena's records and the GTP server can `loadsgf`.

pub mod pgn;
pub mod psq;
pub mod sgf;
mod text;

use std::fmt;

use zerosum_core::{Outcome, Side, Status};
use zerosum_games::mnk::MnkSpec;
use zerosum_games::{new_game, DynGame, GameSpec};

/// A file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Sgf,
    Psq,
    Pgn,
}

impl Format {
    /// Every format, for error messages.
    pub const ALL: [Format; 3] = [Format::Sgf, Format::Psq, Format::Pgn];

    /// `sgf`, `psq` or `pgn`: the name and the file extension.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Sgf => "sgf",
            Format::Psq => "psq",
            Format::Pgn => "pgn",
        }
    }

    /// The format of a name or extension (`sgf`, `psq`, `pgn`, any case).
    pub fn parse(text: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|format| format.name().eq_ignore_ascii_case(text))
    }

    /// Whether this format holds games of `spec` (SGF: Hex and Atoll; PSQ: m,n,k; PGN-style
    /// text: every game): [`Format::write`] fails exactly on the others.
    pub fn holds(self, spec: &GameSpec) -> bool {
        match self {
            Format::Sgf => sgf::holds(spec),
            Format::Psq => spec.params::<MnkSpec>().is_some(),
            Format::Pgn => true,
        }
    }

    /// Writes `game` in this format; an error when the format cannot hold its game.
    pub fn write(self, game: &GameFile) -> Result<String, String> {
        match self {
            Format::Sgf => sgf::write(game),
            Format::Psq => psq::write(game),
            Format::Pgn => Ok(pgn::write(game)),
        }
    }

    /// Reads a file of this format. `spec`, when given, is the game (it must agree with the
    /// file); otherwise the file must name it.
    pub fn read(self, text: &str, spec: Option<&GameSpec>) -> Result<GameFile, FormatError> {
        match self {
            Format::Sgf => sgf::read(text, spec),
            Format::Psq => psq::read(text, spec),
            Format::Pgn => pgn::read(text, spec),
        }
    }
}

/// One game: what a file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFile {
    pub spec: GameSpec,
    /// The first player's name.
    pub first_name: Option<String>,
    /// The second player's name.
    pub second_name: Option<String>,
    /// The moves, in the game's notation.
    pub moves: Vec<String>,
    /// Milliseconds each turn took (as the arena's records keep them: one per move, and one
    /// more for a turn lost by a forfeit); empty when unknown.
    pub move_ms: Vec<u64>,
    /// The result, when the file says it (a forfeit or an adjudication is not on the board).
    pub outcome: Option<Outcome>,
    /// How the game ended, in the arena's words (`normal`, `timeout`, ...).
    pub termination: Option<String>,
    /// Why, in words.
    pub reason: Option<String>,
    /// The line of each move in the file read (empty for a game not read from a file).
    pub move_lines: Vec<usize>,
}

impl GameFile {
    /// A game of `spec` with these moves and nothing else known.
    pub fn new(spec: GameSpec, moves: Vec<String>) -> GameFile {
        GameFile {
            spec,
            first_name: None,
            second_name: None,
            moves,
            move_ms: Vec::new(),
            outcome: None,
            termination: None,
            reason: None,
            move_lines: Vec::new(),
        }
    }

    /// The position after every move, each checked; the first illegal move is an error at
    /// its line.
    pub fn position(&self) -> Result<Box<dyn DynGame>, FormatError> {
        let mut game = new_game(&self.spec).map_err(|error| FormatError::new(1, error))?;
        for (index, mv) in self.moves.iter().enumerate() {
            let line = self.move_lines.get(index).copied().unwrap_or(1);
            game.play(mv).map_err(|error| {
                FormatError::new(line, format!("move {} ({mv}): {error}", index + 1))
            })?;
        }
        Ok(game)
    }

    /// The result: the file's, else the final position's (when the game is over).
    pub fn result(&self) -> Result<Option<Outcome>, FormatError> {
        if self.outcome.is_some() {
            return Ok(self.outcome);
        }
        Ok(match self.position()?.status() {
            Status::Over(outcome) => Some(outcome),
            Status::Ongoing => None,
        })
    }
}

/// A problem in a file: its line (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub line: usize,
    pub message: String,
}

impl FormatError {
    pub fn new(line: usize, message: impl fmt::Display) -> FormatError {
        FormatError {
            line,
            message: message.to_string(),
        }
    }
}

impl fmt::Display for FormatError {
    /// `line 3: unknown property`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for FormatError {}

/// `1-0`, `0-1` or `1/2-1/2` (first player first).
pub fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Side::First) => "1-0",
        Outcome::Win(Side::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}
