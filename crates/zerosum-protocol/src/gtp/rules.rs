//! GoGui's "rules" commands: what GoGui asks a program that referees a game other than Go
//! (`gogui-rules_game_id`, `_board_size`, `_board`, `_legal_moves`, `_side_to_move`,
//! `_final_result`), answered for every game in the spellings GoGui parses.

use zerosum_core::Status;
use zerosum_games::{DynGame, Layout};

use super::colour::Colour;
use super::grid::{Grid, Point};
use super::vertex::Vertices;

/// `gogui-rules_game_id`: the family, a capital then lower case letters as GoGui asks
/// (`Mnk`, `Connectx`, `Hex`, `Atoll`, `Unstable`).
pub fn game_id(game: &dyn DynGame) -> String {
    let family = game.spec().family().name();
    let mut id = family[..1].to_ascii_uppercase();
    id.push_str(&family[1..]);
    id
}

/// `gogui-rules_board_size`: `WIDTH HEIGHT`, then `hex` for the hexagonal boards (Hex and
/// Atoll: GoGui draws them as the same rhombus).
pub fn board_size(game: &dyn DynGame) -> String {
    let grid = Grid::of(game);
    let geometry = if grid.hexagonal { " hex" } else { "" };
    format!("{} {}{geometry}", grid.width, grid.height)
}

/// `gogui-rules_board`: the rows from the top, `X` a black stone, `O` a white one, `.` an
/// empty cell and `?` no cell (the water around an Atoll board), separated by spaces. The
/// reply starts on a line of its own, so that every row lines up.
pub fn board(game: &dyn DynGame) -> String {
    let grid = Grid::of(game);
    let mut text = String::new();
    for y in 0..grid.height {
        text.push('\n');
        let row: Vec<&str> = (0..grid.width)
            .map(|x| match grid.point(x, y) {
                Point::Empty => ".",
                Point::Black => "X",
                Point::White => "O",
                Point::Off => "?",
            })
            .collect();
        text.push_str(&row.join(" "));
    }
    text
}

/// `gogui-rules_board_gfx`: what the stones alone do not show, as GoGui's `gfx` lines:
/// atom counts (Unstable's [`zerosum_games::Layout::Atoms`]) as labels (`LABEL A1 2 C3 1`)
/// and the winning line or chain of a finished game marked (`MARK A1 B2 C3`). Empty when
/// there is nothing to add.
pub fn board_gfx(game: &dyn DynGame, vertices: Vertices) -> String {
    let grid = Grid::of(game);
    let json = game.to_json();
    let board = &json["board"];
    let mut lines = Vec::new();
    if game.spec().family().layout() == Layout::Atoms {
        let mut labels = Vec::new();
        for (y, row) in board["cells"].as_array().into_iter().flatten().enumerate() {
            for (x, count) in row.as_array().into_iter().flatten().enumerate() {
                let count = count.as_i64().unwrap_or(0);
                if count != 0 {
                    labels.push(format!(
                        "{} {}",
                        vertices.point_name(&grid, x, y),
                        count.abs()
                    ));
                }
            }
        }
        if !labels.is_empty() {
            lines.push(format!("LABEL {}", labels.join(" ")));
        }
    }
    let marked: Vec<String> = board["winning_cells"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|cell| grid.point_of_cell(cell.as_str()?))
        .map(|(x, y)| vertices.point_name(&grid, x, y))
        .collect();
    if !marked.is_empty() {
        lines.push(format!("MARK {}", marked.join(" ")));
    }
    lines.join("\n")
}

/// `gogui-rules_legal_moves`: the legal moves in the controller's notation, empty once the
/// game is over (GoGui then asks for the result).
pub fn legal_moves(game: &dyn DynGame, vertices: Vertices) -> String {
    vertices.legal_moves(game).join(" ")
}

/// `gogui-rules_side_to_move`: `black` or `white`.
pub fn side_to_move(game: &dyn DynGame) -> String {
    Colour::to_move(game).to_string()
}

/// `gogui-rules_final_result`: the result in words (`Black wins.`, `Draw.`), shown by GoGui
/// in a dialog; an error while the game goes on.
pub fn final_result(game: &dyn DynGame) -> Result<String, String> {
    match game.status() {
        Status::Ongoing => Err("the game is not over".into()),
        Status::Over(outcome) => Ok(match outcome.winner() {
            Some(side) => {
                let colour = Colour::of(game, side).to_string();
                let mut words = colour[..1].to_ascii_uppercase();
                words.push_str(&colour[1..]);
                format!("{words} wins.")
            }
            None => "Draw.".into(),
        }),
    }
}
