//! Inferior cells of Hex (Hayward's group's inferior-cell analysis, its simplest local part):
//! the empty cells that search need not try.
//!
//! An empty cell is **dead** when its colour can never change who wins: whatever stone is
//! put there joins nothing that is not joined already. Checked locally: every neighbour is a
//! stone or an edge (an edge counts as a stone of the colour that must reach it), and the
//! neighbours of each colour form one unbroken arc around the cell, so they already touch one
//! another. The six neighbours in order around the cell:
//!
//! ```text
//!        up  up-right
//!    left  (c)  right
//!   down-left  down
//! ```
//!
//! A dead cell is never the only good move: playing it is a pass, and in Hex a stone of one's
//! own never hurts, so any other empty cell is at least as good (the first player's strategy
//! stealing argument). Removing dead cells from the moves searched keeps search exact.
//! The corner cells' neighbour beyond both edges (the acute corners' outer cell) belongs to no
//! colour: a cell next to it is never called dead.

use super::Hex;
use crate::connection::Stone;

/// Offsets `(column, row)` of the six neighbours in order around a cell (each is a
/// neighbour of the next).
const AROUND: [(isize, isize); 6] = [(-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1)];

/// What touches a cell on one side: a stone or an edge of a colour, an empty cell, or the
/// outer corner (no colour).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Colour(Stone),
    Empty,
    Corner,
}

/// What lies at `(column, row)`, which may be off the board (an edge or the outer corner).
fn content(game: &Hex, column: isize, row: isize) -> Side {
    let (w, h) = (game.width() as isize, game.height() as isize);
    let off_columns = column < 0 || column >= w;
    let off_rows = row < 0 || row >= h;
    match (off_columns, off_rows) {
        (false, false) => match game.stone(game.cell(column as usize, row as usize)) {
            Stone::Empty => Side::Empty,
            stone => Side::Colour(stone),
        },
        // Left and right edges are White's, top and bottom Black's.
        (true, false) => Side::Colour(Stone::White),
        (false, true) => Side::Colour(Stone::Black),
        (true, true) => Side::Corner,
    }
}

/// Whether the empty `cell` of `game` is dead (see the module documentation). False for an
/// occupied cell.
pub fn is_dead(game: &Hex, cell: usize) -> bool {
    if game.stone(cell) != Stone::Empty {
        return false;
    }
    let (column, row) = game.coordinates(cell);
    let (column, row) = (column as isize, row as isize);
    let mut around = [Side::Empty; 6];
    for (slot, &(dc, dr)) in around.iter_mut().zip(&AROUND) {
        *slot = content(game, column + dc, row + dr);
        if !matches!(slot, Side::Colour(_)) {
            return false;
        }
    }
    // Each colour in one arc: the colour changes at most twice going once around.
    let changes = (0..6).filter(|&i| around[i] != around[(i + 1) % 6]).count();
    changes <= 2
}

/// Removes the dead cells' moves from `moves` (placements on `game`), unless that would leave
/// none.
pub fn drop_dead_cells(game: &Hex, moves: &mut Vec<super::HexMove>) {
    use crate::connection::StoneMove;
    let live = |mv: &StoneMove| match *mv {
        StoneMove::Place(cell) => !is_dead(game, cell as usize),
        StoneMove::Swap => true,
    };
    if moves.iter().any(live) {
        moves.retain(live);
    }
}
