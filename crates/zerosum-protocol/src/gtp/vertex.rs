//! The move notation a controller speaks: the game's own (HexGui and every other tool), or
//! GoGui's vertices.
//!
//! GoGui names a point as Go does: a column letter that skips `I` (`A`..`H`, `J`..`Z`, then two
//! letters `AA`, `AB`, ...) and a row number from 1 at the **bottom**; `pass` is its only
//! move that is not a point. Under [`Vertices::GoGui`] every move the session reads or writes
//! is such a vertex: Connect-X moves are the cell the disc lands on, and `pass` is the swap
//! (Hex `swap-sides`/`swap-pieces`, Atoll `swap`) where the rules allow one.

use zerosum_games::DynGame;

use super::grid::Grid;

/// Letters of GoGui's columns: no `I`.
const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The notation of moves between the session and its controller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Vertices {
    /// The game's own notation (`a1` top-left, Connect-X columns, `swap-pieces`, ...).
    #[default]
    Native,
    /// GoGui's Go vertices (`A1` bottom-left, no `I`), `pass` for the swap.
    GoGui,
}

impl Vertices {
    /// `move_text` (the game's notation, a move of the side to move on `grid`, the board of
    /// the game now) as the controller writes it; a move with no vertex (a resignation) keeps
    /// its name.
    pub fn write(self, grid: &Grid, move_text: &str) -> String {
        if self == Vertices::Native {
            return move_text.to_string();
        }
        if move_text.starts_with("swap") {
            return "pass".into();
        }
        match grid.point_of_move(move_text) {
            Some((x, y)) => gogui_vertex(x, y, grid.height),
            None => move_text.to_string(),
        }
    }

    /// A line of moves from the position of `game` (each played in turn), as the controller
    /// writes them; stops at the first move that is not legal.
    pub fn write_line(self, game: &dyn DynGame, line: &[String]) -> Vec<String> {
        let mut game = game.clone_box();
        let mut written = Vec::with_capacity(line.len());
        for mv in line {
            let text = self.write(&Grid::of(game.as_ref()), mv);
            if game.play(mv).is_err() {
                break;
            }
            written.push(text);
        }
        written
    }

    /// The controller's name of the point `(x, y)` of `grid`: a GoGui vertex, or the cell's
    /// name in the game's drawings.
    pub fn point_name(self, grid: &Grid, x: usize, y: usize) -> String {
        match self {
            Vertices::Native => grid.cell_name(x, y),
            Vertices::GoGui => gogui_vertex(x, y, grid.height),
        }
    }

    /// The move the controller wrote, in the game's notation (still to be checked by the
    /// game). A GoGui vertex off the board, or one that is no move, is an error.
    pub fn read(self, game: &dyn DynGame, text: &str) -> Result<String, String> {
        if self == Vertices::Native {
            return Ok(text.to_string());
        }
        if text.eq_ignore_ascii_case("pass") {
            return game
                .legal_moves()
                .into_iter()
                .find(|mv| mv.starts_with("swap"))
                .ok_or_else(|| "no swap is allowed now (pass plays the swap)".to_string());
        }
        let grid = Grid::of(game);
        let (x, y) = parse_gogui_vertex(text)
            .filter(|&(_, row)| row < grid.height)
            .map(|(x, row)| (x, grid.height - 1 - row))
            .ok_or_else(|| format!("`{text}` is not a point of the board"))?;
        grid.move_at(x, y)
            .ok_or_else(|| format!("`{text}` is not a point you can play"))
    }

    /// Every legal move as the controller writes them (GoGui: with `pass` last where a swap
    /// is legal); empty when the game is over.
    pub fn legal_moves(self, game: &dyn DynGame) -> Vec<String> {
        if game.status().is_over() {
            return Vec::new();
        }
        let legal = game.legal_moves();
        if self == Vertices::Native {
            return legal;
        }
        let grid = Grid::of(game);
        let mut moves: Vec<String> = legal.iter().map(|mv| self.write(&grid, mv)).collect();
        // The swap is written `pass`, and GoGui looks for it at the end.
        moves.sort_by_key(|mv| mv == "pass");
        moves
    }
}

/// GoGui's name of column `x`, row `y` from the top of a board of `height` rows.
pub fn gogui_vertex(x: usize, y: usize, height: usize) -> String {
    let mut name = String::new();
    if x >= COLUMN_LETTERS.len() {
        name.push(COLUMN_LETTERS[(x / COLUMN_LETTERS.len() - 1) % COLUMN_LETTERS.len()] as char);
    }
    name.push(COLUMN_LETTERS[x % COLUMN_LETTERS.len()] as char);
    name.push_str(&(height - y).to_string());
    name
}

/// A GoGui vertex as `(x, row from the bottom)`, both from 0; any case. `None` unless it is
/// one or two column letters (no `I`) and a row number from 1.
pub fn parse_gogui_vertex(text: &str) -> Option<(usize, usize)> {
    let upper = text.to_ascii_uppercase();
    let split = upper.find(|c: char| c.is_ascii_digit())?;
    let (alpha, digits) = upper.split_at(split);
    if digits.len() > 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row = digits.parse::<usize>().ok()?.checked_sub(1)?;
    let index = |b: u8| COLUMN_LETTERS.iter().position(|&l| l == b);
    let x = match alpha.as_bytes() {
        [one] => index(*one)?,
        [first, second] => (index(*first)? + 1) * COLUMN_LETTERS.len() + index(*second)?,
        _ => return None,
    };
    Some((x, row))
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_games::new_game;

    #[test]
    fn gogui_vertices_skip_i_and_count_rows_from_the_bottom() {
        assert_eq!(gogui_vertex(0, 14, 15), "A1");
        assert_eq!(gogui_vertex(8, 0, 15), "J15");
        assert_eq!(gogui_vertex(25, 0, 30), "AA30");
        for x in 0..60 {
            for y in [0, 9] {
                let name = gogui_vertex(x, y, 10);
                assert_eq!(parse_gogui_vertex(&name), Some((x, 9 - y)), "{name}");
            }
        }
        for bad in ["", "I5", "A0", "5", "A", "ABC1", "A1B", "a-1", "é1"] {
            assert_eq!(parse_gogui_vertex(bad), None, "{bad}");
        }
        assert_eq!(parse_gogui_vertex("j10"), Some((8, 9)));
    }

    #[test]
    fn gogui_moves_read_back_as_the_game_notation() {
        let mut hex = new_game(&"hex:5:swap-pieces".parse().unwrap()).unwrap();
        assert_eq!(Vertices::GoGui.read(hex.as_ref(), "A5").unwrap(), "a1");
        assert_eq!(Vertices::GoGui.write(&Grid::of(hex.as_ref()), "c2"), "C4");
        hex.play("a1").unwrap();
        assert_eq!(
            Vertices::GoGui.read(hex.as_ref(), "pass").unwrap(),
            "swap-pieces"
        );
        assert_eq!(
            Vertices::GoGui.legal_moves(hex.as_ref()).last().unwrap(),
            "pass"
        );
        let connect = new_game(&"connect4".parse().unwrap()).unwrap();
        assert_eq!(Vertices::GoGui.read(connect.as_ref(), "D1").unwrap(), "4");
        assert!(Vertices::GoGui.read(connect.as_ref(), "D2").is_err());
        assert!(Vertices::GoGui.read(connect.as_ref(), "pass").is_err());
        assert_eq!(
            Vertices::GoGui.write_line(connect.as_ref(), &["4".into(), "4".into()]),
            ["D1", "D2"]
        );
    }
}
