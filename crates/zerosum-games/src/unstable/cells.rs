//! Sets of cells as bit sets, with the neighbour step of the grid done by shifts, for the
//! evaluator.
//!
//! Cell `row * cols + col` is bit `cell % 64` of word `cell / 64`. Shifting the set by one bit
//! moves every cell one column east (towards higher columns) and by `cols` bits one row south;
//! masks drop what falls off the board:
//!
//! ```text
//!   3x4 board, cells:      east(S) = (S << 1) & not_west_edge
//!    0  1  2  3            west(S) = (S >> 1) & not_east_edge
//!    4  5  6  7            south(S) = (S << cols) & board
//!    8  9 10 11            north(S) = S >> cols
//! ```

/// Words of a set over the largest board.
pub(super) const MAX_WORDS: usize = (zerosum_core::MAX_SIDE * zerosum_core::MAX_SIDE).div_ceil(64);

/// A set of cells in `W` words (enough for the board at hand), so that small boards use one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CellSet<const W: usize> {
    pub words: [u64; W],
}

impl<const W: usize> CellSet<W> {
    pub const EMPTY: Self = CellSet { words: [0; W] };

    /// The set of the first `W` words of `words` (a mask of [`Grid`], padded to
    /// [`MAX_WORDS`] words).
    #[inline]
    pub fn from_words(words: &[u64]) -> Self {
        let mut set = Self::EMPTY;
        set.words.copy_from_slice(&words[..W]);
        set
    }

    #[inline]
    pub fn insert(&mut self, cell: usize) {
        self.words[cell / 64] |= 1 << (cell % 64);
    }

    #[inline]
    pub fn contains(&self, cell: usize) -> bool {
        self.words[cell / 64] >> (cell % 64) & 1 == 1
    }

    #[inline]
    pub fn len(&self) -> i32 {
        self.words.iter().map(|w| w.count_ones() as i32).sum()
    }

    #[inline]
    fn zip(&self, other: &Self, op: impl Fn(u64, u64) -> u64) -> Self {
        let mut words = self.words;
        for (word, &more) in words.iter_mut().zip(&other.words) {
            *word = op(*word, more);
        }
        CellSet { words }
    }

    #[inline]
    pub fn union(&self, other: &Self) -> Self {
        self.zip(other, |a, b| a | b)
    }

    #[inline]
    pub fn intersection(&self, other: &Self) -> Self {
        self.zip(other, |a, b| a & b)
    }

    #[inline]
    pub fn difference(&self, other: &Self) -> Self {
        self.zip(other, |a, b| a & !b)
    }

    /// Every cell moved `shift` cells up the numbering (bits past the last word are lost).
    #[inline]
    fn shifted_up(&self, shift: usize) -> Self {
        let (skip, bits) = (shift / 64, shift % 64);
        let mut words = [0; W];
        for (i, word) in words.iter_mut().enumerate().skip(skip) {
            let low = self.words[i - skip] << bits;
            let carry = if bits > 0 && i > skip {
                self.words[i - skip - 1] >> (64 - bits)
            } else {
                0
            };
            *word = low | carry;
        }
        CellSet { words }
    }

    /// Every cell moved `shift` cells down the numbering (cells below 0 are lost).
    #[inline]
    fn shifted_down(&self, shift: usize) -> Self {
        let (skip, bits) = (shift / 64, shift % 64);
        let mut words = [0; W];
        for (i, word) in words.iter_mut().enumerate().take(W.saturating_sub(skip)) {
            let high = self.words[i + skip] >> bits;
            let carry = if bits > 0 && i + skip + 1 < W {
                self.words[i + skip + 1] << (64 - bits)
            } else {
                0
            };
            *word = high | carry;
        }
        CellSet { words }
    }

    /// The cells, in increasing order.
    #[inline]
    pub fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(index, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    index * 64 + bit
                })
            })
        })
    }
}

/// The masks of one board size, each padded with empty words to [`MAX_WORDS`] words so that a
/// set of any size can be read from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Grid {
    pub rows: usize,
    pub cols: usize,
    /// Number of words a set over this board needs.
    pub words: usize,
    /// Every cell of the board.
    pub board: Vec<u64>,
    /// Every cell but those of the first (west) column.
    pub not_west_edge: Vec<u64>,
    /// Every cell but those of the last (east) column.
    pub not_east_edge: Vec<u64>,
    /// The corner cells (critical mass 2).
    pub corners: Vec<u64>,
    /// The edge cells that are not corners (critical mass 3).
    pub edges: Vec<u64>,
}

impl Grid {
    pub fn new(rows: usize, cols: usize) -> Grid {
        let mask = |keep: &dyn Fn(usize, usize) -> bool| {
            let mut set = vec![0u64; MAX_WORDS];
            for row in 0..rows {
                for col in 0..cols {
                    if keep(row, col) {
                        let cell = row * cols + col;
                        set[cell / 64] |= 1 << (cell % 64);
                    }
                }
            }
            set
        };
        let sides = |row: usize, col: usize| {
            usize::from(row == 0 || row + 1 == rows) + usize::from(col == 0 || col + 1 == cols)
        };
        Grid {
            rows,
            cols,
            words: (rows * cols).div_ceil(64),
            board: mask(&|_, _| true),
            not_west_edge: mask(&|_, col| col > 0),
            not_east_edge: mask(&|_, col| col + 1 < cols),
            corners: mask(&|row, col| sides(row, col) == 2),
            edges: mask(&|row, col| sides(row, col) == 1),
        }
    }

    /// The cells next to a cell of `set` (orthogonally), in `set` or not.
    #[inline]
    pub fn neighbours<const W: usize>(&self, set: &CellSet<W>) -> CellSet<W> {
        let east = set
            .shifted_up(1)
            .intersection(&CellSet::from_words(&self.not_west_edge));
        let west = set
            .shifted_down(1)
            .intersection(&CellSet::from_words(&self.not_east_edge));
        let south = set
            .shifted_up(self.cols)
            .intersection(&CellSet::from_words(&self.board));
        let north = set.shifted_down(self.cols);
        east.union(&west).union(&south).union(&north)
    }

    /// Number of (cell, neighbour) pairs with both in `set`: each adjacent pair counts twice.
    #[inline]
    pub fn links<const W: usize>(&self, set: &CellSet<W>) -> i32 {
        let east = set
            .shifted_up(1)
            .intersection(&CellSet::from_words(&self.not_west_edge));
        let south = set.shifted_up(self.cols);
        2 * (set.intersection(&east).len() + set.intersection(&south).len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The neighbours of one cell on a board, by shifts, against the row/column arithmetic.
    fn check_board<const W: usize>(rows: usize, cols: usize) {
        let grid = Grid::new(rows, cols);
        for cell in 0..rows * cols {
            let mut set = CellSet::<W>::EMPTY;
            set.insert(cell);
            let found: Vec<usize> = grid.neighbours(&set).cells().collect();
            let (row, col) = (cell / cols, cell % cols);
            let mut expected = Vec::new();
            if row > 0 {
                expected.push(cell - cols);
            }
            if col > 0 {
                expected.push(cell - 1);
            }
            if col + 1 < cols {
                expected.push(cell + 1);
            }
            if row + 1 < rows {
                expected.push(cell + cols);
            }
            assert_eq!(found, expected, "{rows}x{cols} cell {cell}");
        }
    }

    #[test]
    fn neighbours_by_shifts_match_the_grid() {
        check_board::<1>(10, 6);
        check_board::<1>(3, 3);
        check_board::<4>(13, 17);
        check_board::<16>(30, 33);
        check_board::<MAX_WORDS>(100, 100);
        check_board::<MAX_WORDS>(2, 100);
    }

    #[test]
    fn links_count_each_adjacent_pair_twice() {
        let grid = Grid::new(4, 4);
        let mut set = CellSet::<1>::EMPTY;
        // An L of three cells: 0-1 and 0-4 adjacent; 3 alone (not adjacent to 4 across the
        // edge).
        for cell in [0, 1, 4, 3] {
            set.insert(cell);
        }
        assert_eq!(grid.links(&set), 4);
        assert_eq!(
            CellSet::<1>::from_words(&grid.corners)
                .cells()
                .collect::<Vec<_>>(),
            vec![0, 3, 12, 15]
        );
    }
}
