//! A line-major copy of an m,n,k position for the evaluator: every row, column, diagonal and
//! anti-diagonal as one `u128` bit mask per side, so that a window of K cells along any line
//! is a shifted mask and its stones are counted with two popcounts.
//!
//! ```text
//!   lines, by direction (4x3 board: rows = 4, cols = 3)
//!
//!   direction 0, rows:        line r,                 bit = column
//!   direction 1, columns:     line rows + c,          bit = row
//!   direction 2, diagonals    line rows + cols        bit = min(row, col)
//!     (down-right, c - r        + (c - r + rows - 1),
//!      constant):
//!   direction 3, anti-        line rows + cols        bit = min(row, cols - 1 - col)
//!     diagonals (down-left,     + (rows + cols - 1)
//!      r + c constant):         + (r + c),
//!
//!   bit p of a line is the p-th cell from the line's first cell: its leftmost cell for a
//!   row, its top cell for the other three directions.
//! ```
//!
//! Lines are at most 100 cells long (the largest board side), so one `u128` holds a line.
//! The copy (one pair of masks per line of the board) is built in a few microseconds and mutated in place by the threat
//! searches ([`LineBoard::place`], [`LineBoard::remove`]).

use super::Mnk;

/// Cell steps (row, column) of the four directions, in direction order.
const DIRECTION_STEPS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// A line-major copy of an m,n,k position (layout in the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct LineBoard {
    pub rows: usize,
    pub cols: usize,
    pub k: usize,
    /// First line of each direction, then the number of lines.
    offsets: [usize; 5],
    /// Per line, the stones of the first and of the second player.
    bits: Vec<[u128; 2]>,
}

/// Bits `start..start + len` of a multi-word bit set, as the low `len` bits of a `u128`
/// (`len <= 100`, and the range lies inside `words`).
#[inline]
fn extract_bits(words: &[u64], start: usize, len: usize) -> u128 {
    let word = start / 64;
    let shift = start % 64;
    let mut value = (words[word] >> shift) as u128;
    let mut have = 64 - shift;
    let mut next = word + 1;
    while have < len && next < words.len() {
        value |= (words[next] as u128) << have;
        have += 64;
        next += 1;
    }
    value & low_bits(len)
}

/// The mask of the `n` lowest bits (`n <= 127`).
#[inline]
pub(crate) fn low_bits(n: usize) -> u128 {
    (1u128 << n) - 1
}

impl LineBoard {
    /// The lines of `game`'s position.
    pub fn new<const W: usize>(game: &Mnk<W>) -> Self {
        let (rows, cols) = (game.rows(), game.cols());
        let diagonals = rows + cols - 1;
        let mut board = LineBoard {
            rows,
            cols,
            k: game.k(),
            offsets: [
                0,
                rows,
                rows + cols,
                rows + cols + diagonals,
                rows + cols + 2 * diagonals,
            ],
            bits: vec![[0; 2]; rows + cols + 2 * diagonals],
        };
        for side in 0..2 {
            let stones = &game.stones[side];
            for row in 0..rows {
                let mut row_bits = extract_bits(stones, row * cols, cols);
                board.bits[row][side] = row_bits;
                while row_bits != 0 {
                    let col = row_bits.trailing_zeros() as usize;
                    row_bits &= row_bits - 1;
                    board.set_cross_lines(row, col, side);
                }
            }
        }
        board
    }

    /// The empty board of the same size as `board`.
    pub fn empty_like(board: &LineBoard) -> Self {
        LineBoard {
            bits: vec![[0; 2]; board.bits.len()],
            ..*board
        }
    }

    /// Sets (row, col) in the column, diagonal and anti-diagonal masks of `side`.
    #[inline]
    fn set_cross_lines(&mut self, row: usize, col: usize, side: usize) {
        let [_, column, diagonal, anti] = self.lines_of(row, col);
        for (line, pos) in [column, diagonal, anti] {
            self.bits[line][side] |= 1 << pos;
        }
    }

    /// Number of lines.
    #[inline]
    pub fn line_count(&self) -> usize {
        self.offsets[4]
    }

    /// The stones of both players on `line`, first player's first.
    #[inline]
    pub fn line(&self, line: usize) -> [u128; 2] {
        self.bits[line]
    }

    /// The direction (0..4, see the module documentation) of `line`.
    #[inline]
    fn direction(&self, line: usize) -> usize {
        if line < self.offsets[1] {
            0
        } else if line < self.offsets[2] {
            1
        } else if line < self.offsets[3] {
            2
        } else {
            3
        }
    }

    /// The first cell (row, col) of `line` and its length.
    #[inline]
    fn line_start(&self, line: usize) -> (usize, usize, usize) {
        let (rows, cols) = (self.rows, self.cols);
        let index = line - self.offsets[self.direction(line)];
        match self.direction(line) {
            0 => (index, 0, cols),
            1 => (0, index, rows),
            2 => {
                // index = c - r + rows - 1.
                if index + 1 >= rows {
                    let col = index + 1 - rows;
                    (0, col, rows.min(cols - col))
                } else {
                    let row = rows - 1 - index;
                    (row, 0, (rows - row).min(cols))
                }
            }
            _ => {
                // index = r + c.
                let row = index.saturating_sub(cols - 1);
                let col = index - row;
                (row, col, (rows - row).min(col + 1))
            }
        }
    }

    /// Number of cells on `line`.
    #[inline]
    pub fn line_len(&self, line: usize) -> usize {
        self.line_start(line).2
    }

    /// The cell index of position `pos` on `line`.
    #[inline]
    pub fn cell_at(&self, line: usize, pos: usize) -> usize {
        let (row, col, _) = self.line_start(line);
        let (dr, dc) = DIRECTION_STEPS[self.direction(line)];
        let r = row as isize + dr * pos as isize;
        let c = col as isize + dc * pos as isize;
        r as usize * self.cols + c as usize
    }

    /// The four lines through (row, col) with the cell's position on each, in direction order.
    #[inline]
    pub fn lines_of(&self, row: usize, col: usize) -> [(usize, usize); 4] {
        let (rows, cols) = (self.rows, self.cols);
        [
            (row, col),
            (self.offsets[1] + col, row),
            (self.offsets[2] + col + rows - 1 - row, row.min(col)),
            (self.offsets[3] + row + col, row.min(cols - 1 - col)),
        ]
    }

    /// The four lines through `cell` with its position on each.
    #[inline]
    pub fn lines_of_cell(&self, cell: usize) -> [(usize, usize); 4] {
        self.lines_of(cell / self.cols, cell % self.cols)
    }

    /// Puts a stone of `side` (0 first player, 1 second) on the empty `cell`.
    #[inline]
    pub fn place(&mut self, cell: usize, side: usize) {
        for (line, pos) in self.lines_of_cell(cell) {
            self.bits[line][side] |= 1 << pos;
        }
    }

    /// Takes the stone of `side` off `cell`.
    #[inline]
    pub fn remove(&mut self, cell: usize, side: usize) {
        for (line, pos) in self.lines_of_cell(cell) {
            self.bits[line][side] &= !(1 << pos);
        }
    }

    /// Whether `cell` holds no stone.
    #[inline]
    pub fn is_empty(&self, cell: usize) -> bool {
        let (row, col) = (cell / self.cols, cell % self.cols);
        let [a, b] = self.bits[row];
        (a | b) >> col & 1 == 0
    }

    /// The window starts on a line of `len` cells whose windows of K cells contain position
    /// `pos` (empty if the line is shorter than K).
    #[inline]
    pub fn windows_through(&self, pos: usize, len: usize) -> std::ops::Range<usize> {
        if len < self.k {
            return 0..0;
        }
        (pos + 1).saturating_sub(self.k)..pos.min(len - self.k) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_core::Game;

    /// Every cell appears at its position on each of its four lines, and on no other.
    #[test]
    fn lines_map_cells_both_ways() {
        for (rows, cols) in [(3, 3), (4, 7), (7, 4), (1, 5), (5, 1), (15, 15), (100, 100)] {
            let game = Mnk::<157>::new(rows, cols, 1);
            let board = LineBoard::new(&game);
            let mut seen = vec![0usize; rows * cols];
            for line in 0..board.line_count() {
                for pos in 0..board.line_len(line) {
                    let cell = board.cell_at(line, pos);
                    seen[cell] += 1;
                    assert!(board.lines_of_cell(cell).contains(&(line, pos)));
                }
            }
            assert!(seen.iter().all(|&n| n == 4), "{rows}x{cols}");
        }
    }

    #[test]
    fn built_lines_hold_the_stones() {
        let mut game = Mnk::<2>::new(9, 11, 4);
        for name in ["a1", "k9", "e5", "k1", "a9", "f4"] {
            let cell = game.parse_move(name).unwrap();
            game.play(cell);
        }
        let board = LineBoard::new(&game);
        let mut placed = LineBoard::new(&Mnk::<2>::new(9, 11, 4));
        for (ply, &cell) in game.history().iter().enumerate() {
            placed.place(cell as usize, ply % 2);
        }
        for line in 0..board.line_count() {
            assert_eq!(board.line(line), placed.line(line), "line {line}");
        }
        assert!(!board.is_empty(game.parse_move("k9").unwrap() as usize));
        assert!(board.is_empty(game.parse_move("b2").unwrap() as usize));
    }
}
