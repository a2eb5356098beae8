//! Any game's board as a grid of points, for the GUI commands: what each point holds, and
//! which point a move puts its stone on.
//!
//! Points are `(x, y)`: `x` the column from 0 at the left, `y` the row from 0 at the top (the
//! order of the game's own drawings). Connect-X moves name a column; their point is the lowest
//! empty cell of that column. Swaps and resignations have no point.

use serde_json::Value;
use zerosum_core::notation::{letters, parse_letters, split_letters_number};
use zerosum_core::{DynGame, GameSpec};

/// What a point of the board holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    Empty,
    /// A black stone (the first player's colour, unless a swap exchanged them).
    Black,
    /// A white stone.
    White,
    /// No cell there (the water around an Atoll board).
    Off,
}

/// The board of a position as points, row by row from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub width: usize,
    pub height: usize,
    /// Cells are hexagons (Hex, Atoll: each row shifted half a cell right of the one above).
    pub hexagonal: bool,
    points: Vec<Point>,
}

impl Grid {
    /// The board of `game`.
    pub fn of(game: &dyn DynGame) -> Grid {
        let spec = game.spec();
        let json = game.to_json();
        let board = &json["board"];
        let height = board["rows"].as_u64().unwrap_or(0) as usize;
        let width = board["cols"].as_u64().unwrap_or(0) as usize;
        let mut points = Vec::with_capacity(width * height);
        for row in board["cells"].as_array().into_iter().flatten() {
            for cell in row.as_array().into_iter().flatten() {
                points.push(point_of(&spec, cell));
            }
        }
        points.resize(width * height, Point::Off);
        Grid {
            width,
            height,
            hexagonal: matches!(spec, GameSpec::Hex { .. } | GameSpec::Atoll { .. }),
            points,
        }
    }

    /// The point at column `x`, row `y` from the top.
    pub fn point(&self, x: usize, y: usize) -> Point {
        self.points[y * self.width + x]
    }
}

/// A cell of the JSON board: `X`/`O` (m,n,k, Connect-X), `B`/`W` in either case (Hex, Atoll
/// islands in lower case), a blank (no cell), or a signed atom count (Unstable: positive for
/// the first player, who has Black).
fn point_of(spec: &GameSpec, cell: &Value) -> Point {
    if let Some(count) = cell.as_i64() {
        return match count.signum() {
            1 => Point::Black,
            -1 => Point::White,
            _ => Point::Empty,
        };
    }
    match (spec, cell.as_str().unwrap_or(" ")) {
        (_, " ") => Point::Off,
        (GameSpec::Mnk { .. } | GameSpec::ConnectX { .. }, "X") => Point::Black,
        (GameSpec::Mnk { .. } | GameSpec::ConnectX { .. }, "O") => Point::White,
        (_, "B" | "b") => Point::Black,
        (_, "W" | "w") => Point::White,
        _ => Point::Empty,
    }
}

/// The point `mv` (a move of the side to move in `game`, in the game's notation) puts its
/// stone on; `None` for a swap, a resignation or a move that names no cell of the board.
pub fn point_of_move(game: &dyn DynGame, mv: &str) -> Option<(usize, usize)> {
    let grid_size = board_size(game);
    let point = match game.spec() {
        GameSpec::ConnectX { rows, .. } => {
            let column = mv.parse::<usize>().ok()?.checked_sub(1)?;
            let height = game.to_json()["board"]["heights"][column].as_u64()? as usize;
            (column, rows.checked_sub(height + 1)?)
        }
        GameSpec::Unstable { .. } => {
            let (alpha, number) = split_letters_number(mv)?;
            (number.checked_sub(1)?, parse_letters(alpha)?)
        }
        _ => {
            let (alpha, number) = split_letters_number(mv)?;
            (parse_letters(alpha)?, number.checked_sub(1)?)
        }
    };
    (point.0 < grid_size.0 && point.1 < grid_size.1).then_some(point)
}

/// The move (in the game's notation) that puts a stone on `(x, y)`, whether or not it is
/// legal now; `None` off the board, and on Connect-X for any point but the lowest empty cell
/// of its column.
pub fn move_at(game: &dyn DynGame, x: usize, y: usize) -> Option<String> {
    let (width, height) = board_size(game);
    if x >= width || y >= height {
        return None;
    }
    match game.spec() {
        GameSpec::ConnectX { .. } => {
            let column = (x + 1).to_string();
            (point_of_move(game, &column) == Some((x, y))).then_some(column)
        }
        GameSpec::Unstable { .. } => Some(format!("{}{}", letters(y, true), x + 1)),
        _ => Some(format!("{}{}", letters(x, false), y + 1)),
    }
}

/// `(columns, rows)` of the board.
fn board_size(game: &dyn DynGame) -> (usize, usize) {
    match game.spec() {
        GameSpec::Mnk { rows, cols, .. }
        | GameSpec::ConnectX { rows, cols, .. }
        | GameSpec::Unstable { rows, cols, .. } => (cols, rows),
        GameSpec::Hex { width, height, .. } => (width, height),
        GameSpec::Atoll { .. } => {
            let json = game.to_json();
            let board = &json["board"];
            (
                board["cols"].as_u64().unwrap_or(0) as usize,
                board["rows"].as_u64().unwrap_or(0) as usize,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_games::new_game;

    fn game(spec: &str, moves: &str) -> Box<dyn DynGame> {
        let mut game = new_game(&spec.parse().unwrap()).unwrap();
        game.play_list(moves).unwrap();
        game
    }

    #[test]
    fn every_legal_move_has_a_point_that_names_it_back() {
        for (spec, moves) in [
            ("mnk:3x4x3", "b2"),
            ("connectx:5x6x4", "3,3,4"),
            ("hex:4x3", "b2"),
            ("atoll:rhombus4", ""),
            ("unstable:3x4", "B2"),
        ] {
            let game = game(spec, moves);
            for mv in game.legal_moves() {
                let (x, y) = point_of_move(game.as_ref(), &mv).expect(&mv);
                assert_eq!(
                    move_at(game.as_ref(), x, y),
                    Some(mv.clone()),
                    "{spec} {mv}"
                );
            }
        }
    }

    #[test]
    fn points_hold_the_stones() {
        let connect = game("connect4", "4,4");
        let grid = Grid::of(connect.as_ref());
        assert_eq!((grid.width, grid.height, grid.hexagonal), (7, 6, false));
        assert_eq!(grid.point(3, 5), Point::Black);
        assert_eq!(grid.point(3, 4), Point::White);
        assert_eq!(grid.point(3, 3), Point::Empty);
        assert_eq!(point_of_move(connect.as_ref(), "4"), Some((3, 3)));
        assert_eq!(move_at(connect.as_ref(), 3, 5), None);
        let atoll = Grid::of(game("atoll:rhombus4", "").as_ref());
        assert!(atoll.hexagonal);
        assert_eq!(atoll.point(0, 0), Point::Off);
        assert_ne!(atoll.point(1, 0), Point::Empty);
        let unstable = Grid::of(game("unstable:3x4", "B2").as_ref());
        assert_eq!(unstable.point(1, 1), Point::Black);
    }
}
