//! `zerosum.Game`: one position of any game, over the library's object-safe face
//! ([`DynGame`]): moves as text and as action ids, play and undo (checked), the status,
//! winner and returns, the board as text and JSON, the observation planes and the legal-action
//! mask as numpy arrays; and `perft` and the list of games.

use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use zerosum_core::{perft as count_perft, Side, Status};
use zerosum_games::observation::PLANES;
use zerosum_games::{
    families, new_game, visit_game, DynGame, EvaluatedGame, GameSpec, GameVisitor,
};

use crate::errors::{guarded, move_error, spec_error, value_error};

/// Parses a spec, as `GameSpecError` when it names no game.
pub fn parse_spec(spec: &str) -> PyResult<GameSpec> {
    spec.parse::<GameSpec>().map_err(spec_error)
}

/// The index of a side in Python: 0 for the first player, 1 for the second.
pub fn side_index(side: Side) -> usize {
    side.index()
}

/// Each side's return (+1 win, -1 loss, 0 draw or ongoing) for `status`, first player first.
pub fn returns_of(status: Status) -> [f64; 2] {
    match status.winner() {
        Some(Side::First) => [1.0, -1.0],
        Some(Side::Second) => [-1.0, 1.0],
        None => [0.0, 0.0],
    }
}

/// A position of a game, in the game's own representation (checked moves only).
///
/// `Game(spec, moves="")` starts the game `spec` names (`"connect4"`, `"hex:11"`,
/// `"mnk:15x15x5"`...) and plays `moves` (text, commas or spaces between moves).
#[pyclass(name = "Game", module = "zerosum")]
pub struct PyGame {
    pub game: Box<dyn DynGame>,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (spec, moves = ""))]
    fn new(spec: &str, moves: &str) -> PyResult<Self> {
        let spec = parse_spec(spec)?;
        let mut game = new_game(&spec).map_err(spec_error)?;
        game.play_list(moves).map_err(move_error)?;
        Ok(PyGame { game })
    }

    /// The canonical spec (`connectx:6x7x4`).
    #[getter]
    fn spec(&self) -> String {
        self.game.spec().to_string()
    }

    /// The side to move: 0 (first player) or 1 (second).
    #[getter]
    fn to_move(&self) -> usize {
        side_index(self.game.to_move())
    }

    /// The number of moves played.
    #[getter]
    fn ply(&self) -> usize {
        self.game.ply()
    }

    /// `"ongoing"`, `"draw"`, `"first"` or `"second"` (the winner).
    #[getter]
    fn status(&self) -> &'static str {
        self.game.status().name()
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.game.status().is_over()
    }

    /// The winner, 0 or 1; `None` while the game goes on or after a draw.
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.game.status().winner().map(side_index)
    }

    /// Each player's return, first player first: `(1.0, -1.0)`, `(-1.0, 1.0)` or `(0.0, 0.0)`
    /// (a draw or a game still going on).
    fn returns(&self) -> (f64, f64) {
        let [first, second] = returns_of(self.game.status());
        (first, second)
    }

    /// The legal moves as text, in the game's notation.
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves()
    }

    /// The legal moves as action ids (below `action_count`), in the order of `legal_moves`.
    fn legal_actions(&self) -> Vec<usize> {
        self.game.legal_actions()
    }

    /// The number of action ids: the length of `legal_mask()`.
    #[getter]
    fn action_count(&self) -> usize {
        self.game.action_count()
    }

    /// The most plies a game on this board can last (every cell filled, the swap played;
    /// Unstable's bound), or `None` where the family does not say.
    #[getter]
    fn max_plies(&self) -> Option<usize> {
        self.game.max_plies()
    }

    /// The action id of a move given as text.
    fn action_of(&self, text: &str) -> PyResult<usize> {
        self.game.action_of(text).map_err(move_error)
    }

    /// The text of the move an action id names (`IllegalMoveError` if it names none).
    fn action_text(&self, action: i64) -> PyResult<String> {
        let action = self.action_index(action)?;
        self.game.action_text(action).ok_or_else(|| {
            move_error(zerosum_core::MoveError::OffBoard {
                text: format!("action {action}"),
                board: "no move has this id".to_string(),
            })
        })
    }

    /// Plays a move, given as text or as an action id; returns its text. An illegal move
    /// raises `IllegalMoveError` and leaves the position as it was.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<String> {
        if let Ok(action) = mv.extract::<i64>() {
            let action = self.action_index(action)?;
            return self.game.play_action(action).map_err(move_error);
        }
        let text: String = mv
            .extract()
            .map_err(|_| value_error("a move is a string or an action id (int)"))?;
        self.game.play(&text).map_err(move_error)
    }

    /// Plays a list of moves (text, commas or spaces between them), all or nothing.
    fn play_list(&mut self, moves: &str) -> PyResult<()> {
        self.game.play_list(moves).map_err(move_error)
    }

    /// Takes back the last move; `False` if there is none.
    fn undo(&mut self) -> bool {
        self.game.undo()
    }

    /// The moves played, as text.
    #[getter]
    fn history(&self) -> Vec<String> {
        self.game.history()
    }

    /// The Zobrist hash of the position.
    #[getter]
    fn hash(&self) -> u64 {
        self.game.hash()
    }

    /// An independent copy.
    fn clone(&self) -> PyGame {
        PyGame {
            game: self.game.clone_box(),
        }
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    /// The board drawn as text.
    fn render(&self) -> String {
        self.game.render()
    }

    fn __str__(&self) -> String {
        self.game.render()
    }

    fn __repr__(&self) -> String {
        let moves = self.game.history().join(" ");
        format!("Game({:?}, {:?})", self.spec(), moves)
    }

    /// The whole position as JSON text (the web page's and `zerosum rules`' form).
    fn to_json(&self) -> String {
        self.game.to_json().to_string()
    }

    /// The shape of `observation()`: `(3, rows, cols)`.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let (rows, cols) = self.game.observation_grid();
        (PLANES, rows, cols)
    }

    /// The position as a float32 array of shape `(3, rows, cols)`: the first player's
    /// stones, the second player's (Unstable: atom counts), and a plane of 1 when the first
    /// player is to move (0 otherwise).
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let (rows, cols) = self.game.observation_grid();
        let mut values = vec![0.0f32; PLANES * rows * cols];
        self.game.write_observation(&mut values);
        numpy::PyArray1::from_vec(py, values).reshape([PLANES, rows, cols])
    }

    /// A boolean array of length `action_count`, true at the legal actions.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; self.game.action_count()];
        for action in self.game.legal_actions() {
            mask[action] = true;
        }
        PyArray1::from_vec(py, mask)
    }

    /// The number of move sequences of `depth` plies from this position (perft).
    fn perft(&self, py: Python<'_>, depth: usize) -> PyResult<u64> {
        perft_of(py, &self.game.spec(), &self.game.history().join(" "), depth)
    }
}

impl PyGame {
    /// An action id from Python, checked against the board's range.
    fn action_index(&self, action: i64) -> PyResult<usize> {
        let count = self.game.action_count();
        usize::try_from(action)
            .ok()
            .filter(|&a| a < count)
            .ok_or_else(|| {
                value_error(format!(
                    "action {action} is out of range: actions run from 0 to {}",
                    count - 1
                ))
            })
    }
}

/// Counts perft on the concrete game, the GIL released.
fn perft_of(py: Python<'_>, spec: &GameSpec, moves: &str, depth: usize) -> PyResult<u64> {
    struct Perft<'a> {
        moves: &'a str,
        depth: usize,
    }
    impl GameVisitor for Perft<'_> {
        type Output = Result<u64, zerosum_core::MoveError>;
        fn visit<G: EvaluatedGame>(self, mut game: G) -> Self::Output {
            game.play_list(self.moves)?;
            Ok(count_perft(&mut game, self.depth))
        }
    }
    if depth > 64 {
        return Err(value_error(format!("perft depth {depth}: at most 64")));
    }
    let counted = py.detach(|| guarded(|| Ok(visit_game(spec, Perft { moves, depth }))))?;
    counted.map_err(spec_error)?.map_err(move_error)
}

/// `perft(spec, depth, moves="")`: the number of move sequences of `depth` plies from the
/// position after `moves` (the command line's `zerosum perft`).
#[pyfunction]
#[pyo3(signature = (spec, depth, moves = ""))]
pub fn perft(py: Python<'_>, spec: &str, depth: usize, moves: &str) -> PyResult<u64> {
    perft_of(py, &parse_spec(spec)?, moves, depth)
}

/// The game families: a list of dicts with `name`, `title`, `forms`, `aliases` (pairs of
/// alias and spec) and `examples` (specs).
#[pyfunction]
pub fn games(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    families()
        .iter()
        .map(|family| {
            let dict = PyDict::new(py);
            dict.set_item("name", family.name())?;
            dict.set_item("title", family.title())?;
            dict.set_item("forms", family.forms())?;
            dict.set_item("aliases", family.aliases().to_vec())?;
            dict.set_item("examples", family.examples().to_vec())?;
            Ok(dict)
        })
        .collect()
}
