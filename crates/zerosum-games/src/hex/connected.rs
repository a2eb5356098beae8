//! A sound test that a colour has won before the board says so: its two edges joined by a
//! chain of stones, bridges and edge templates whose carriers are pairwise disjoint (a
//! virtual connection in Anshelevich's sense, the simplest kind H-search builds). Every
//! intrusion into a carrier is answered in the other carrier cell of the same link, so the
//! chain survives whoever is to move, and in Hex only one colour can connect.
//!
//! Links, for Black (top to bottom; White's are the same on the board mirrored across its
//! long diagonal, which swaps columns and rows and maps the grid onto itself):
//!
//! ```text
//!   neighbours: free            bridge: two stones with both common neighbours empty
//!   edge: a stone on row 1      edge template: a stone on row 2 with both cells
//!         touches the top edge                 above it empty (carrier)
//! ```
//!
//! The search is a depth-first walk over the stones that visits each stone once, keeping the
//! carriers of the links on its current path: what it finds is a proof, though it may miss a
//! chain that another order of the walk would find (a sound, incomplete test).

use super::Hex;
use crate::connection::Stone;

/// A `(column, row)` offset.
type Offset = (isize, isize);

/// Bridge partners' offsets, each with its two carrier cells' offsets.
const BRIDGES: [(Offset, [Offset; 2]); 6] = [
    ((-1, -1), [(-1, 0), (0, -1)]),
    ((1, -2), [(0, -1), (1, -1)]),
    ((2, -1), [(1, -1), (1, 0)]),
    ((1, 1), [(1, 0), (0, 1)]),
    ((-1, 2), [(0, 1), (-1, 1)]),
    ((-2, 1), [(-1, 1), (-1, 0)]),
];

/// The six neighbours' offsets.
const NEIGHBOURS: [Offset; 6] = [(-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1)];

/// The board seen by one colour: Black's as it is, White's mirrored so that it also joins
/// the first row to the last.
struct View<'a> {
    game: &'a Hex,
    colour: Stone,
    /// Columns and rows of the view.
    columns: isize,
    rows: isize,
}

impl View<'_> {
    /// The board cell at view `(column, row)`, if on the board.
    fn cell(&self, column: isize, row: isize) -> Option<usize> {
        if column < 0 || row < 0 || column >= self.columns || row >= self.rows {
            return None;
        }
        let (c, r) = match self.colour {
            Stone::White => (row as usize, column as usize),
            _ => (column as usize, row as usize),
        };
        Some(self.game.cell(c, r))
    }

    fn stone(&self, column: isize, row: isize) -> Option<Stone> {
        self.cell(column, row).map(|cell| self.game.stone(cell))
    }

    /// The carrier of the edge template from `(column, row)` to the first row (`up`) or the
    /// last: the two cells between the stone and the edge, when the stone is on the second
    /// (or second last) row and both are empty.
    fn template(&self, column: isize, row: isize, up: bool) -> Option<[usize; 2]> {
        let (edge_row, offsets) = if up {
            (1, [(0, -1), (1, -1)])
        } else {
            (self.rows - 2, [(0, 1), (-1, 1)])
        };
        if row != edge_row {
            return None;
        }
        self.carrier(column, row, offsets)
    }

    /// The two cells at `offsets` from `(column, row)`, when both are on the board and empty.
    fn carrier(
        &self,
        column: isize,
        row: isize,
        offsets: [(isize, isize); 2],
    ) -> Option<[usize; 2]> {
        let [(c1, r1), (c2, r2)] = offsets;
        let a = self.cell(column + c1, row + r1)?;
        let b = self.cell(column + c2, row + r2)?;
        let empty = |cell| self.game.stone(cell) == Stone::Empty;
        (empty(a) && empty(b)).then_some([a, b])
    }
}

/// Whether `colour` (Black or White) has joined its edges in `game` by stones, bridges and
/// edge templates with disjoint carriers (see the module documentation). True also once the
/// colour has won on the board.
pub fn virtually_connected(game: &Hex, colour: Stone) -> bool {
    let (columns, rows) = match colour {
        Stone::White => (game.height() as isize, game.width() as isize),
        _ => (game.width() as isize, game.height() as isize),
    };
    let view = View {
        game,
        colour,
        columns,
        rows,
    };
    let mut walk = Walk {
        view: &view,
        seen: Cells::default(),
        used: Cells::default(),
    };
    for column in 0..columns {
        for row in 0..rows.min(2) {
            if view.stone(column, row) != Some(colour) {
                continue;
            }
            let start = match row {
                0 => Some(None),
                _ => view.template(column, row, true).map(Some),
            };
            let Some(carrier) = start else { continue };
            let cell = view.cell(column, row).expect("on the board");
            if walk.seen.has(cell) {
                continue;
            }
            if walk.from(column, row, carrier) {
                return true;
            }
        }
    }
    false
}

/// A set of cells of a board of up to `MAX_SIDE * MAX_SIDE` cells, on the stack.
struct Cells([u64; WORDS]);

const WORDS: usize = (super::MAX_SIDE * super::MAX_SIDE).div_ceil(64);

impl Default for Cells {
    fn default() -> Self {
        Cells([0; WORDS])
    }
}

impl Cells {
    fn has(&self, cell: usize) -> bool {
        self.0[cell / 64] >> (cell % 64) & 1 == 1
    }

    fn set(&mut self, cell: usize, value: bool) {
        let bit = 1 << (cell % 64);
        if value {
            self.0[cell / 64] |= bit;
        } else {
            self.0[cell / 64] &= !bit;
        }
    }
}

/// The state of the depth-first walk.
struct Walk<'a, 'b> {
    view: &'a View<'b>,
    /// Stones visited.
    seen: Cells,
    /// Carrier cells of the links on the current path.
    used: Cells,
}

impl Walk<'_, '_> {
    /// Walks on from the stone at `(column, row)`, reached through a link with `carrier`
    /// (none for a free link); true once the last row is reached. Leaves `used` as it found it.
    fn from(&mut self, column: isize, row: isize, carrier: Option<[usize; 2]>) -> bool {
        let view = self.view;
        let cell = view.cell(column, row).expect("on the board");
        if carrier.is_some_and(|[a, b]| self.used.has(a) || self.used.has(b)) {
            return false;
        }
        self.seen.set(cell, true);
        let mark = |used: &mut Cells, value: bool| {
            if let Some([a, b]) = carrier {
                used.set(a, value);
                used.set(b, value);
            }
        };
        mark(&mut self.used, true);
        let done = self.onwards(column, row);
        mark(&mut self.used, false);
        done
    }

    fn onwards(&mut self, column: isize, row: isize) -> bool {
        let view = self.view;
        if row == view.rows - 1 {
            return true;
        }
        if let Some([a, b]) = view.template(column, row, false) {
            if !self.used.has(a) && !self.used.has(b) {
                return true;
            }
        }
        for (dc, dr) in NEIGHBOURS {
            let (c, r) = (column + dc, row + dr);
            if self.unseen_own(c, r) && self.from(c, r, None) {
                return true;
            }
        }
        for ((dc, dr), offsets) in BRIDGES {
            let (c, r) = (column + dc, row + dr);
            if !self.unseen_own(c, r) {
                continue;
            }
            if let Some(carrier) = view.carrier(column, row, offsets) {
                if self.from(c, r, Some(carrier)) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `(column, row)` holds a stone of the colour not visited yet.
    fn unseen_own(&self, column: isize, row: isize) -> bool {
        self.view.cell(column, row).is_some_and(|cell| {
            !self.seen.has(cell) && self.view.game.stone(cell) == self.view.colour
        })
    }
}
