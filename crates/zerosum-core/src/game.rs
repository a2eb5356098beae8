use std::fmt::Debug;
use std::hash::Hash;

use crate::{MoveError, Side, Status};

/// How the legal moves changed with the last move played ([`Game::legal_moves_change`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegalMovesChange {
    /// They are those of the position before.
    Unchanged,
    /// They are those of the position before, less the move played.
    PlayedRemoved,
    /// The game does not say: any move may have come or gone.
    Unknown,
}

/// The fast face of a game, used by search, solver and perft. Implementations keep their own
/// compact representation and a move stack, so that `play`/`undo` allocate nothing.
///
/// Two ways to play a move, after shakmaty:
/// - [`Game::play`] is unchecked: the caller guarantees the move is legal (it came from
///   [`Game::legal_moves`] of this very position). An illegal move leaves the position in an
///   unspecified, but memory-safe, state.
/// - [`Game::try_play`] checks first and returns a [`MoveError`] naming the problem.
///
/// Text goes through [`Game::parse_move`] (syntax and board bounds only) and
/// [`Game::format_move`]; every game parses what it prints.
pub trait Game: Clone + PartialEq + Debug + Send + Sync + 'static {
    /// A move, small and `Copy` (a cell or column index, or a special move such as a swap).
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// The side whose turn it is. Defined also when the game is over (the side that would move).
    fn to_move(&self) -> Side;

    /// Number of moves played since the start.
    fn ply(&self) -> usize;

    /// Whether the game goes on, and if not, who won.
    fn status(&self) -> Status;

    /// Clears `moves` and writes every legal move into it, each once. The buffer is reused
    /// across calls, so this allocates only while it grows. Empty if and only if the game is over.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// How the legal moves changed with `played`, the last move played: for callers that keep
    /// them (as a list or a mask) from move to move. [`LegalMovesChange::Unchanged`] only if
    /// [`Game::legal_moves`] now writes the same moves as before `played`,
    /// [`LegalMovesChange::PlayedRemoved`] only if those less `played`; by default
    /// [`LegalMovesChange::Unknown`] (the caller writes them again).
    #[inline]
    fn legal_moves_change(&self, played: Self::Move) -> LegalMovesChange {
        let _ = played;
        LegalMovesChange::Unknown
    }

    /// Every move that names a place on this board (every cell or column, and special moves
    /// such as a swap), legal here or not. Used by tests and user interfaces, not by search.
    fn all_moves(&self, moves: &mut Vec<Self::Move>);

    /// `None` if `mv` is legal in this position, else a short reason (`"occupied"`,
    /// `"column full"`, ...). The game being over is reported by [`Game::try_play`], not here.
    fn illegal_reason(&self, mv: Self::Move) -> Option<&'static str>;

    /// True if `mv` is legal in this position and the game is not over.
    #[inline]
    fn is_legal(&self, mv: Self::Move) -> bool {
        !self.status().is_over() && self.illegal_reason(mv).is_none()
    }

    /// A dense number for `mv`, below [`Game::move_id_bound`], distinct for distinct moves
    /// (a cell or column index; special moves after the cells). Search keys its tables by it.
    fn move_id(&self, mv: Self::Move) -> usize;

    /// One more than the largest [`Game::move_id`] on this board.
    fn move_id_bound(&self) -> usize;

    /// Plays a legal move, unchecked (see the trait documentation).
    fn play(&mut self, mv: Self::Move);

    /// Takes back the last move played. Precondition: `ply() > 0`. Restores the position
    /// exactly, hash and status included.
    fn undo(&mut self);

    /// The moves played so far, in order.
    fn history(&self) -> &[Self::Move];

    /// The Zobrist hash of the position, maintained incrementally by `play` and `undo`.
    fn hash(&self) -> u64;

    /// The Zobrist hash computed from scratch; always equal to [`Game::hash`].
    fn recompute_hash(&self) -> u64;

    /// Reads one move in this game's notation. Checks syntax and board bounds, not legality.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Writes a move in this game's notation; [`Game::parse_move`] reads it back.
    fn format_move(&self, mv: Self::Move) -> String;

    /// A readable text drawing of the board, several lines, ending with a newline.
    fn render(&self) -> String;

    /// The board as JSON, for user interfaces: at least `rows` and `cols` and the cell contents.
    fn board_json(&self) -> serde_json::Value;

    /// Splits a list of moves into single moves: by default on commas and white space.
    fn split_move_list<'a>(&self, text: &'a str) -> Vec<&'a str> {
        text.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// Plays `mv` if the game goes on and the move is legal; otherwise changes nothing and
    /// says why.
    fn try_play(&mut self, mv: Self::Move) -> Result<(), MoveError> {
        let status = self.status();
        if status.is_over() {
            return Err(MoveError::GameOver {
                mv: self.format_move(mv),
                status: status.to_string(),
            });
        }
        if let Some(reason) = self.illegal_reason(mv) {
            return Err(MoveError::Illegal {
                mv: self.format_move(mv),
                reason,
            });
        }
        self.play(mv);
        Ok(())
    }

    /// Parses and plays one move given as text; returns the move.
    fn play_text(&mut self, text: &str) -> Result<Self::Move, MoveError> {
        let mv = self.parse_move(text.trim())?;
        self.try_play(mv)?;
        Ok(mv)
    }

    /// Plays a list of moves given as text (see [`Game::split_move_list`]). On error the
    /// position is left as before the list and the error gives the 1-based index of the bad move.
    fn play_list(&mut self, text: &str) -> Result<(), MoveError> {
        let start = self.ply();
        let items: Vec<String> = self
            .split_move_list(text)
            .into_iter()
            .map(str::to_string)
            .collect();
        for (i, item) in items.iter().enumerate() {
            if let Err(err) = self.play_text(item) {
                while self.ply() > start {
                    self.undo();
                }
                return Err(MoveError::InList {
                    index: i + 1,
                    error: Box::new(err),
                });
            }
        }
        Ok(())
    }
}
