//! Any game's board as a grid of points, for the GUI commands: what each point holds, and
//! which point a move puts its stone on.
//!
//! Points are `(x, y)`: `x` the column from 0 at the left, `y` the row from 0 at the top (the
//! order of the game's own drawings). What a point holds and how it is named follow the
//! family's [`Layout`]: moves that fall (Connect-X) name a column, their point being the
//! lowest empty cell of that column. Swaps and resignations have no point.

use serde_json::Value;
use zerosum_core::notation::{letters, parse_letters, split_letters_number};
use zerosum_games::{DynGame, Layout};

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
    layout: Layout,
    /// Discs in each column (where moves fall: Connect-X).
    heights: Vec<usize>,
}

impl Grid {
    /// The board of `game`.
    pub fn of(game: &dyn DynGame) -> Grid {
        let layout = game.spec().family().layout();
        let json = game.to_json();
        let board = &json["board"];
        let height = board["rows"].as_u64().unwrap_or(0) as usize;
        let width = board["cols"].as_u64().unwrap_or(0) as usize;
        let mut points = Vec::with_capacity(width * height);
        for row in board["cells"].as_array().into_iter().flatten() {
            for cell in row.as_array().into_iter().flatten() {
                points.push(point_of(cell));
            }
        }
        points.resize(width * height, Point::Off);
        let heights = board["heights"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|height| height.as_u64().unwrap_or(0) as usize)
            .collect();
        Grid {
            width,
            height,
            hexagonal: layout.hexagonal(),
            points,
            layout,
            heights,
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
fn point_of(cell: &Value) -> Point {
    if let Some(count) = cell.as_i64() {
        return match count.signum() {
            1 => Point::Black,
            -1 => Point::White,
            _ => Point::Empty,
        };
    }
    match cell.as_str().unwrap_or(" ") {
        " " => Point::Off,
        "X" | "B" | "b" => Point::Black,
        "O" | "W" | "w" => Point::White,
        _ => Point::Empty,
    }
}

impl Grid {
    /// The point `mv` (a move of the side to move, in the game's notation) puts its stone on;
    /// `None` for a swap, a resignation or a move that names no cell of the board.
    pub fn point_of_move(&self, mv: &str) -> Option<(usize, usize)> {
        if self.layout.gravity() {
            let column = mv.parse::<usize>().ok()?.checked_sub(1)?;
            let height = *self.heights.get(column)?;
            let point = (column, self.height.checked_sub(height + 1)?);
            return (point.0 < self.width && point.1 < self.height).then_some(point);
        }
        self.point_of_cell(mv)
    }

    /// The point a cell name of the game's drawings names (`c3`: column letters, then the
    /// row from 1 at the top; Unstable's `B4`: the row letter, then the column), whatever the
    /// game's moves are.
    pub fn point_of_cell(&self, name: &str) -> Option<(usize, usize)> {
        let (alpha, number) = split_letters_number(name)?;
        let point = match self.layout.row_letters() {
            true => (number.checked_sub(1)?, parse_letters(alpha)?),
            false => (parse_letters(alpha)?, number.checked_sub(1)?),
        };
        (point.0 < self.width && point.1 < self.height).then_some(point)
    }

    /// The cell name of `(x, y)` in the game's drawings (see [`Grid::point_of_cell`]).
    pub fn cell_name(&self, x: usize, y: usize) -> String {
        match self.layout.row_letters() {
            true => format!("{}{}", letters(y, true), x + 1),
            false => format!("{}{}", letters(x, false), y + 1),
        }
    }

    /// The move (in the game's notation) that puts a stone on `(x, y)`, whether or not it
    /// is legal now; `None` off the board, and on Connect-X for any point but the lowest
    /// empty cell of its column.
    pub fn move_at(&self, x: usize, y: usize) -> Option<String> {
        if x >= self.width || y >= self.height {
            return None;
        }
        if self.layout.gravity() {
            let column = (x + 1).to_string();
            return (self.point_of_move(&column) == Some((x, y))).then_some(column);
        }
        Some(self.cell_name(x, y))
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
            let grid = Grid::of(game.as_ref());
            for mv in game.legal_moves() {
                let (x, y) = grid.point_of_move(&mv).expect(&mv);
                assert_eq!(grid.move_at(x, y), Some(mv.clone()), "{spec} {mv}");
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
        assert_eq!(grid.point_of_move("4"), Some((3, 3)));
        assert_eq!(grid.move_at(3, 5), None);
        let atoll = Grid::of(game("atoll:rhombus4", "").as_ref());
        assert!(atoll.hexagonal);
        assert_eq!(atoll.point(0, 0), Point::Off);
        assert_ne!(atoll.point(1, 0), Point::Empty);
        let unstable = Grid::of(game("unstable:3x4", "B2").as_ref());
        assert_eq!(unstable.point(1, 1), Point::Black);
    }
}
