//! The position as numbers, for learning programs (the Python package's observation tensor):
//! [`PLANES`] planes over the board's grid of `rows x cols` cells (rows from the top, as the
//! text board and the JSON board lay them out), row-major, plane after plane:
//!
//! ```text
//! plane 0   the first player's stones: 1 per stone (Unstable: the cell's atom count)
//! plane 1   the second player's stones, the same way
//! plane 2   the side to move: every value 1 when the first player moves, 0 otherwise
//! ```
//!
//! Empty cells and cells off the board (Atoll's water) are 0 in both stone planes. Hex and
//! Atoll count stones by side, not by colour: after the swap the first player's stones are the
//! white ones. A family gives its own fast [`crate::EvaluatedGame::write_observation`]; a family
//! registered at run time gets [`from_board_json`], read from its JSON board.

use serde_json::Value;
use zerosum_core::Side;

use crate::Family;

/// The planes of an observation: the first player's, the second player's, the side to move.
pub const PLANES: usize = 3;

/// The grid of `board` (a JSON board, see [`crate::Layout`]): its `rows` and `cols`.
pub fn grid_of(board: &Value) -> (usize, usize) {
    let read = |key: &str| board[key].as_u64().unwrap_or(0) as usize;
    (read("rows"), read("cols"))
}

/// Writes the observation of the position whose JSON board is `board` (`family`'s, `to_move`
/// to play) into `out` (at least `PLANES * rows * cols` values; see the module
/// documentation). A cell holds a side's stone when its text starts with that side's glyph
/// ([`Family::stones`], either case: Atoll's island stones are lower case), or a count (positive for the
/// first player, negative for the second).
pub fn from_board_json(family: &dyn Family, board: &Value, to_move: Side, out: &mut [f32]) {
    let (rows, cols) = grid_of(board);
    let area = rows * cols;
    let glyphs = [Side::First, Side::Second].map(|side| family.stones(board, side).glyph);
    out[..PLANES * area].fill(0.0);
    for row in 0..rows {
        for col in 0..cols {
            let cell = &board["cells"][row][col];
            let at = row * cols + col;
            if let Some(count) = cell.as_f64() {
                if count > 0.0 {
                    out[at] = count as f32;
                } else if count < 0.0 {
                    out[area + at] = -count as f32;
                }
            } else if let Some(first) = cell.as_str().and_then(|text| text.chars().next()) {
                let first = first.to_ascii_uppercase();
                if first == glyphs[0] {
                    out[at] = 1.0;
                } else if first == glyphs[1] {
                    out[area + at] = 1.0;
                }
            }
        }
    }
    fill_to_move(to_move, area, &mut out[2 * area..]);
}

/// Fills the side-to-move plane of an observation over `area` cells (the `area` values of
/// `plane`): 1 when the first player is to move, else 0.
pub fn fill_to_move(to_move: Side, area: usize, plane: &mut [f32]) {
    let value = if to_move == Side::First { 1.0 } else { 0.0 };
    plane[..area].fill(value);
}

/// Writes the stone planes of a grid of `rows x cols` cells from `owner` (the side whose stone
/// is on the cell at a row and a column, if any) and the side-to-move plane.
#[inline]
pub fn from_owners(
    (rows, cols): (usize, usize),
    to_move: Side,
    owner: impl Fn(usize, usize) -> Option<Side>,
    out: &mut [f32],
) {
    let area = rows * cols;
    let (stones, rest) = out.split_at_mut(2 * area);
    let (first, second) = stones.split_at_mut(area);
    for row in 0..rows {
        let at = row * cols;
        let (first, second) = (&mut first[at..at + cols], &mut second[at..at + cols]);
        for col in 0..cols {
            let side = owner(row, col);
            first[col] = f32::from(u8::from(side == Some(Side::First)));
            second[col] = f32::from(u8::from(side == Some(Side::Second)));
        }
    }
    fill_to_move(to_move, area, rest);
}
