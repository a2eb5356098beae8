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
//!
//! On bit sets ([`super::cells`]), for the proof-number solver, three more rules built on the
//! same local test, each keeping the value of the position:
//!
//! - **captured** pairs ([`captured_pairs`]): two adjacent empty cells, each dead once a
//!   colour has the other: that colour answers an intrusion into one on the other, so both
//!   can be filled with its stones;
//! - **fill-in** ([`fill_in`]): dead cells and captured pairs filled, again until none is
//!   left;
//! - **dominated** moves ([`dominated_moves`]): a cell that the mover's stone on its one empty
//!   neighbour would kill is worth less than that neighbour (a vulnerable cell).

use super::cells::{CellSet, Geometry, Position};
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

/// What lies at `(column, row)` of a `width x height` board, which may be off the board (an
/// edge or the outer corner); `stone_at` gives the stone on a cell.
fn content(
    (width, height): (isize, isize),
    column: isize,
    row: isize,
    stone_at: &impl Fn(usize) -> Stone,
) -> Side {
    let off_columns = column < 0 || column >= width;
    let off_rows = row < 0 || row >= height;
    match (off_columns, off_rows) {
        (false, false) => match stone_at((row * width + column) as usize) {
            Stone::Empty => Side::Empty,
            stone => Side::Colour(stone),
        },
        // Left and right edges are White's, top and bottom Black's.
        (true, false) => Side::Colour(Stone::White),
        (false, true) => Side::Colour(Stone::Black),
        (true, true) => Side::Corner,
    }
}

/// Whether the cell at `(column, row)` of a `width x height` board whose stones `stone_at`
/// gives has a stone or an edge on every side, each colour in one arc (the dead-cell test of
/// the module documentation; the cell's own content is not looked at).
fn surrounded_in_arcs(
    size: (usize, usize),
    (column, row): (usize, usize),
    stone_at: impl Fn(usize) -> Stone,
) -> bool {
    let size = (size.0 as isize, size.1 as isize);
    let (column, row) = (column as isize, row as isize);
    let mut around = [Side::Empty; 6];
    for (slot, &(dc, dr)) in around.iter_mut().zip(&AROUND) {
        *slot = content(size, column + dc, row + dr, &stone_at);
        if !matches!(slot, Side::Colour(_)) {
            return false;
        }
    }
    // Each colour in one arc: the colour changes at most twice going once around.
    let changes = (0..6).filter(|&i| around[i] != around[(i + 1) % 6]).count();
    changes <= 2
}

/// Whether the empty `cell` of `game` is dead (see the module documentation). False for an
/// occupied cell.
pub fn is_dead(game: &Hex, cell: usize) -> bool {
    game.stone(cell) == Stone::Empty
        && surrounded_in_arcs(
            (game.width(), game.height()),
            game.coordinates(cell),
            |next| game.stone(next),
        )
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

/// Whether the empty `cell` is dead in `position` (the test of [`is_dead`] on sets).
pub fn is_dead_in<const W: usize>(
    geometry: &Geometry<W>,
    position: &Position<W>,
    cell: usize,
) -> bool {
    let (width, height) = (geometry.width(), geometry.height());
    position.stone(cell) == Stone::Empty
        && surrounded_in_arcs((width, height), (cell % width, cell / width), |next| {
            position.stone(next)
        })
}

/// The dead empty cells of `position`.
pub fn dead_cells<const W: usize>(geometry: &Geometry<W>, position: &Position<W>) -> CellSet<W> {
    let mut dead = CellSet::EMPTY;
    for cell in position.empty(geometry).iter() {
        if is_dead_in(geometry, position, cell) {
            dead.insert(cell);
        }
    }
    dead
}

/// The pairs of adjacent empty cells `colour` captures: each becomes dead once `colour` has
/// a stone on the other, so whichever of the two the opponent takes, `colour` answers on the
/// other and the opponent's stone is dead. Filling such a pair with `colour` keeps the value
/// of the position for either side to move (a second-player strategy that leaves the
/// region `colour`'s or dead: Henderson and Hayward's captured cells).
pub fn captured_pairs<const W: usize>(
    geometry: &Geometry<W>,
    position: &Position<W>,
    colour: Stone,
) -> CellSet<W> {
    let empty = position.empty(geometry);
    let mut captured = CellSet::EMPTY;
    for a in empty.iter() {
        let free = geometry.neighbours(a).intersection(&empty);
        // The local test needs every other side of `a` covered: one empty neighbour only.
        if free.len() != 1 {
            continue;
        }
        let b = free.first().expect("one neighbour");
        if b < a && captured.contains(b) {
            continue;
        }
        let dies_after = |played: usize, victim: usize| {
            let mut after = *position;
            after.add(colour, played);
            is_dead_in(geometry, &after, victim)
        };
        if dies_after(b, a) && dies_after(a, b) {
            captured.insert(a);
            captured.insert(b);
        }
    }
    captured
}

/// The fill-in of a position: cells whose stones can be put on the board without changing
/// its value for either side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FillIn<const W: usize> {
    /// Dead cells (filled with Black: their colour does not matter).
    pub dead: CellSet<W>,
    /// Cells captured by Black, then by White.
    pub captured: [CellSet<W>; 2],
}

impl<const W: usize> FillIn<W> {
    /// Every cell filled.
    pub fn cells(&self) -> CellSet<W> {
        self.dead.union(&self.captured[0]).union(&self.captured[1])
    }
}

/// Fills `position` with its dead and captured cells, again until none is left, and says
/// which cells it filled. The filled position has the value of the original for either side
/// to move, and so has each position after a move on a cell left empty.
pub fn fill_in<const W: usize>(geometry: &Geometry<W>, position: &mut Position<W>) -> FillIn<W> {
    let mut filled = FillIn::default();
    loop {
        let dead = dead_cells(geometry, position);
        if !dead.is_empty() {
            position.fill(Stone::Black, &dead);
            filled.dead = filled.dead.union(&dead);
            continue;
        }
        let mut changed = false;
        for (slot, colour) in [Stone::Black, Stone::White].into_iter().enumerate() {
            let captured = captured_pairs(geometry, position, colour);
            if !captured.is_empty() {
                position.fill(colour, &captured);
                filled.captured[slot] = filled.captured[slot].union(&captured);
                changed = true;
            }
        }
        if !changed {
            return filled;
        }
    }
}

/// The moves among `candidates` that `colour` (to move) need not try, each dominated by a
/// move it keeps or by a losing move outside `candidates`: an empty cell `x` whose one empty
/// neighbour `y` would, with `colour`'s stone on it, make `x` dead (`x` is vulnerable to
/// `y`). A stone on `y` then is worth a stone on both, at least as good as one on `x`. `y`
/// outside the candidates loses when the candidates are the mustplay, so `x` loses too.
/// Dominance cycles keep one move of each cycle: a cell is dropped only while its dominator
/// is still kept or out of the candidates.
pub fn dominated_moves<const W: usize>(
    geometry: &Geometry<W>,
    position: &Position<W>,
    colour: Stone,
    candidates: &CellSet<W>,
) -> CellSet<W> {
    let empty = position.empty(geometry);
    let mut dropped = CellSet::EMPTY;
    for x in candidates.iter() {
        let free = geometry.neighbours(x).intersection(&empty);
        if free.len() != 1 {
            continue;
        }
        let y = free.first().expect("one neighbour");
        if dropped.contains(y) {
            continue;
        }
        let mut after = *position;
        after.add(colour, y);
        if is_dead_in(geometry, &after, x) {
            dropped.insert(x);
        }
    }
    dropped
}
