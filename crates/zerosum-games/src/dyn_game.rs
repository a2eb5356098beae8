use serde_json::json;

use zerosum_core::{MoveError, Side, Status};

use crate::family::GameSpec;
use crate::stones::Stones;
use crate::EvaluatedGame;

/// The object-safe face of a game, for code that picks games at run time (arena, protocols,
/// web page, command line). Moves are text in the game's notation.
pub trait DynGame: Send + Sync {
    /// The canonical specification.
    fn spec(&self) -> GameSpec;
    /// The side whose turn it is.
    fn to_move(&self) -> Side;
    /// Number of moves played.
    fn ply(&self) -> usize;
    /// Whether the game goes on.
    fn status(&self) -> Status;
    /// The legal moves, as text.
    fn legal_moves(&self) -> Vec<String>;
    /// The moves played so far, as text.
    fn history(&self) -> Vec<String>;
    /// Plays one move given as text, checked; returns its canonical spelling.
    fn play(&mut self, text: &str) -> Result<String, MoveError>;
    /// Plays a list of moves (commas or white space between them), checked; all or nothing.
    fn play_list(&mut self, text: &str) -> Result<(), MoveError>;
    /// Takes back the last move; false if there is none.
    fn undo(&mut self) -> bool;
    /// The Zobrist hash of the position.
    fn hash(&self) -> u64;
    /// A readable text drawing of the board.
    fn render(&self) -> String;
    /// The whole position as one JSON object: `spec`, `family`, `name` and `board_words`
    /// (the game as people name it and its board in words, see [`crate::Family::game_name`]),
    /// `layout` (see
    /// [`crate::Layout`]), `sides` (what the page calls each side's stones, by `first` and
    /// `second`), `to_move`, `status`, `ply`, `moves`, `legal_moves`, `hash` and `board`.
    fn to_json(&self) -> serde_json::Value;
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// The number of action ids: one more than the largest [`zerosum_core::Game::move_id`] (a
    /// cell or column index; the swap after the cells). Some ids may name no move (Atoll's
    /// island cells).
    fn action_count(&self) -> usize;
    /// The legal moves as action ids, in the order of [`DynGame::legal_moves`].
    fn legal_actions(&self) -> Vec<usize>;
    /// The action id of a move given as text (legal here or not).
    fn action_of(&self, text: &str) -> Result<usize, MoveError>;
    /// The move an action id names, as text; `None` if it names none.
    fn action_text(&self, action: usize) -> Option<String>;
    /// Plays the move whose action id is `action`, checked; returns its text.
    fn play_action(&mut self, action: usize) -> Result<String, MoveError>;
    /// The most plies a game on this board can last ([`EvaluatedGame::max_plies`]).
    fn max_plies(&self) -> Option<usize>;
    /// The grid of the observation, `(rows, cols)` ([`crate::observation`]).
    fn observation_grid(&self) -> (usize, usize);
    /// Writes the observation ([`crate::observation`]) into `out`, at least
    /// `PLANES * rows * cols` values.
    fn write_observation(&self, out: &mut [f32]);
}

/// The stones `side` plays with in `game` now (in Hex and Atoll they follow an exchange of
/// colours by the swap move): its family's [`crate::Family::stones`].
pub fn stones(game: &dyn DynGame, side: Side) -> Stones {
    game.spec().family().stones(&game.to_json()["board"], side)
}

/// Wraps a game of a family ([`EvaluatedGame`]) into a [`DynGame`].
#[derive(Clone, Debug)]
pub struct DynAdapter<G>(pub G);

impl<G: EvaluatedGame> DynGame for DynAdapter<G> {
    fn spec(&self) -> GameSpec {
        self.0.spec()
    }

    fn to_move(&self) -> Side {
        self.0.to_move()
    }

    fn ply(&self) -> usize {
        self.0.ply()
    }

    fn status(&self) -> Status {
        self.0.status()
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.0.legal_moves(&mut moves);
        moves.into_iter().map(|m| self.0.format_move(m)).collect()
    }

    fn history(&self) -> Vec<String> {
        self.0
            .history()
            .iter()
            .map(|&m| self.0.format_move(m))
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        let mv = self.0.play_text(text)?;
        Ok(self.0.format_move(mv))
    }

    fn play_list(&mut self, text: &str) -> Result<(), MoveError> {
        self.0.play_list(text)
    }

    fn undo(&mut self) -> bool {
        if self.0.ply() == 0 {
            return false;
        }
        self.0.undo();
        true
    }

    fn hash(&self) -> u64 {
        self.0.hash()
    }

    fn render(&self) -> String {
        self.0.render()
    }

    fn to_json(&self) -> serde_json::Value {
        let spec = self.0.spec();
        let family = spec.family();
        let board = self.0.board_json();
        let side_name = |side| family.side_name(&board, side);
        json!({
            "spec": spec.to_string(),
            "family": family.name(),
            "name": family.game_name(&spec),
            "board_words": family.board_words(&spec),
            "layout": family.layout().name(),
            "sides": {"first": side_name(Side::First), "second": side_name(Side::Second)},
            "to_move": self.0.to_move().name(),
            "status": self.0.status().name(),
            "ply": self.0.ply(),
            "moves": DynGame::history(self),
            "legal_moves": DynGame::legal_moves(self),
            "hash": format!("{:016x}", self.0.hash()),
            "board": board,
        })
    }

    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn action_count(&self) -> usize {
        self.0.move_id_bound()
    }

    fn legal_actions(&self) -> Vec<usize> {
        let mut moves = Vec::new();
        self.0.legal_moves(&mut moves);
        moves.into_iter().map(|m| self.0.move_id(m)).collect()
    }

    fn action_of(&self, text: &str) -> Result<usize, MoveError> {
        let mv = self.0.parse_move(text.trim())?;
        Ok(self.0.move_id(mv))
    }

    fn action_text(&self, action: usize) -> Option<String> {
        move_of_action(&self.0, action).map(|mv| self.0.format_move(mv))
    }

    fn play_action(&mut self, action: usize) -> Result<String, MoveError> {
        let mv = move_of_action(&self.0, action).ok_or_else(|| MoveError::OffBoard {
            text: format!("action {action}"),
            board: format!(
                "no move has this id; ids run from 0 to {}",
                self.0.move_id_bound() - 1
            ),
        })?;
        self.0.try_play(mv)?;
        Ok(self.0.format_move(mv))
    }

    fn max_plies(&self) -> Option<usize> {
        self.0.max_plies()
    }

    fn observation_grid(&self) -> (usize, usize) {
        self.0.observation_grid()
    }

    fn write_observation(&self, out: &mut [f32]) {
        self.0.write_observation(out);
    }
}

/// The move of `game` whose [`zerosum_core::Game::move_id`] is `action`, among all the moves
/// of its board, if any.
fn move_of_action<G: EvaluatedGame>(game: &G, action: usize) -> Option<G::Move> {
    let mut all = Vec::new();
    game.all_moves(&mut all);
    all.into_iter().find(|&mv| game.move_id(mv) == action)
}

impl Clone for Box<dyn DynGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
