//! Local patterns of Hex (issue 32 item 4): what lies within two cells of a cell, as MoHex's
//! radius-2 hexagonal patterns, seen from one colour, as one number, for the move priors
//! learned from games ([`super::gammas`], trained by `zerosum train hex`).
//!
//! The 18 cells at hex distance 1 or 2, in the order of [`RADIUS_2`], each take one of four
//! states ([`EMPTY`], [`OWN`], [`THEIRS`], [`WALL`]): a cell beyond an edge counts as a stone of
//! that edge's colour (beyond the top or bottom row Black, beyond the left or right column
//! White), one beyond two edges at once is a wall. The code is `sum(state_i * 4^i)`.
//!
//! Both colours see the board as Black does: White's view reads the board mirrored in its
//! long diagonal (offset `(column, row)` read at `(row, column)`), which maps the hexagonal
//! neighbourhood onto itself and White's edges onto Black's, so a shape has one code for
//! either colour and the two colours' games train the same patterns.
//! A 180° turn of the board maps each colour's edges onto themselves, so a pattern and its
//! turn are the same pattern: [`canonical`] picks one code for both.

use super::Hex;
use crate::connection::Stone;

/// The cells within hex distance 2 of a cell, as `(column, row)` offsets, each ring in turn
/// around the cell: the six neighbours, each three places before its opposite, then the twelve
/// at distance 2, each six places before its opposite (see [`turned`]).
pub const RADIUS_2: [(isize, isize); 18] = [
    // Distance 1, each followed three places later by its opposite.
    (-1, 0),
    (0, -1),
    (1, -1),
    (1, 0),
    (0, 1),
    (-1, 1),
    // Distance 2, each followed six places later by its opposite.
    (-2, 0),
    (-1, -1),
    (0, -2),
    (1, -2),
    (2, -2),
    (2, -1),
    (2, 0),
    (1, 1),
    (0, 2),
    (-1, 2),
    (-2, 2),
    (-2, 1),
];

/// An empty cell.
pub const EMPTY: u64 = 0;
/// A stone or an edge of the colour the pattern is seen from.
pub const OWN: u64 = 1;
/// A stone or an edge of the other colour.
pub const THEIRS: u64 = 2;
/// Beyond two edges at once (the board's corners).
pub const WALL: u64 = 3;

/// The radius-2 pattern of `cell` on `game`'s board, seen from `colour` (Black or White,
/// White's view mirrored): see the module documentation. The cell itself is not part of it.
pub fn pattern_code(game: &Hex, cell: usize, colour: Stone) -> u64 {
    let (width, height) = (game.width() as isize, game.height() as isize);
    let (column, row) = game.coordinates(cell);
    let (column, row) = (column as isize, row as isize);
    let stones = game.stones();
    let mirrored = colour == Stone::White;
    RADIUS_2
        .iter()
        .enumerate()
        .map(|(i, &(dc, dr))| {
            let (dc, dr) = if mirrored { (dr, dc) } else { (dc, dr) };
            let (c, r) = (column + dc, row + dr);
            let inside_columns = (0..width).contains(&c);
            let inside_rows = (0..height).contains(&r);
            let stone = match (inside_columns, inside_rows) {
                (true, true) => stones[(r * width + c) as usize],
                (true, false) => Stone::Black,
                (false, true) => Stone::White,
                (false, false) => return WALL << (2 * i),
            };
            let state = match stone {
                Stone::Empty => EMPTY,
                stone if stone == colour => OWN,
                _ => THEIRS,
            };
            state << (2 * i)
        })
        .sum()
}

/// The board of a position framed by two rings of edge cells, for the radius-2 pattern codes
/// of many cells of the same position at the cost of 18 reads each (the same codes as
/// [`pattern_code`]).
#[derive(Clone, Debug)]
pub struct PatternFrame {
    /// Cell states as Black sees them (`OWN` Black, `THEIRS` White), row by row, with two
    /// rings of edges and corners around the board.
    states: Vec<u8>,
    /// The board's width.
    width: usize,
    /// The offsets of [`RADIUS_2`] in `states`, as Black reads them and as White does.
    offsets: [[isize; 18]; 2],
}

impl PatternFrame {
    /// The frame of `game`'s position.
    pub fn new(game: &Hex) -> PatternFrame {
        let (width, height) = (game.width(), game.height());
        let stride = width + 4;
        let stones = game.stones();
        let mut states = Vec::with_capacity(stride * (height + 4));
        for r in -2..height as isize + 2 {
            for c in -2..width as isize + 2 {
                let inside_columns = (0..width as isize).contains(&c);
                let inside_rows = (0..height as isize).contains(&r);
                let state = match (inside_columns, inside_rows) {
                    (true, true) => match stones[r as usize * width + c as usize] {
                        Stone::Empty => EMPTY,
                        Stone::Black => OWN,
                        Stone::White => THEIRS,
                    },
                    (true, false) => OWN,
                    (false, true) => THEIRS,
                    (false, false) => WALL,
                };
                states.push(state as u8);
            }
        }
        let offset = |dc: isize, dr: isize| dr * stride as isize + dc;
        PatternFrame {
            states,
            width,
            offsets: [
                RADIUS_2.map(|(dc, dr)| offset(dc, dr)),
                RADIUS_2.map(|(dc, dr)| offset(dr, dc)),
            ],
        }
    }

    /// [`pattern_code`] of `cell` seen from `colour` (Black or White).
    pub fn code(&self, cell: usize, colour: Stone) -> u64 {
        let (row, column) = (cell / self.width, cell % self.width);
        let at = ((row + 2) * (self.width + 4) + column + 2) as isize;
        let white = colour == Stone::White;
        // White's view swaps the colours: own and theirs trade places, walls stay.
        const SWAPPED: [u64; 4] = [EMPTY, THEIRS, OWN, WALL];
        let offsets = &self.offsets[usize::from(white)];
        let mut code = 0;
        for (i, &offset) in offsets.iter().enumerate() {
            let state = u64::from(self.states[(at + offset) as usize]);
            let state = if white {
                SWAPPED[state as usize]
            } else {
                state
            };
            code |= state << (2 * i);
        }
        code
    }
}

/// The code of `code`'s pattern turned by 180°.
pub fn turned(code: u64) -> u64 {
    let state = |i: usize| (code >> (2 * i)) & 3;
    let opposite = |i: usize| {
        if i < 6 {
            (i + 3) % 6
        } else {
            6 + (i - 6 + 6) % 12
        }
    };
    (0..18).map(|i| state(opposite(i)) << (2 * i)).sum()
}

/// One code for a pattern and its turn by 180°: the smaller.
pub fn canonical(code: u64) -> u64 {
    code.min(turned(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offsets_are_the_cells_within_two_and_pair_with_their_opposites() {
        let distance = |(c, r): (isize, isize)| c.abs().max(r.abs()).max((c + r).abs());
        for (i, &offset) in RADIUS_2.iter().enumerate() {
            assert_eq!(distance(offset), if i < 6 { 1 } else { 2 }, "{offset:?}");
            let opposite = if i < 6 {
                (i + 3) % 6
            } else {
                6 + (i - 6 + 6) % 12
            };
            assert_eq!(RADIUS_2[opposite], (-offset.0, -offset.1));
        }
        let mut sorted = RADIUS_2.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 18);
    }
}
