//! Window counting and threat cells, once per board representation.
//!
//! A *window* is a line of `k` cells (horizontal, vertical or diagonal). A window holding discs
//! of one side only is still open for that side and is worth `window_value[n]` for its `n`
//! discs; a window holding both colours is dead. An open window with `k - 1` discs has one
//! empty cell left: a threat (see [`super::threats`]).
//!
//! - [`Packed`] boards count precomputed window masks with popcounts, and find threat cells
//!   with shifts of whole bit boards.
//! - [`Wide`] boards scan only the lines holding discs, each line gathered into a `u128`
//!   (lines are at most 100 cells), and within a line only the windows that overlap its discs:
//!   windows without a disc are worth nothing, so the result is the same as a full scan.

use zerosum_core::Side;

use super::packed::{run_of, Bits, Packed};
use super::threats::{self, ImmediateColumns, Verdict};
use super::weights::BoardTables;
use super::wide::Wide;
use super::ConnectBoard;

/// The static terms of a position, all from the first player's point of view except the
/// verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Terms {
    /// Open windows of the first player minus those of the second, in `window_value` units.
    pub windows: i64,
    /// Discs weighted by column (centre first), first player minus second.
    pub centre: i32,
    /// The threat analysis, from the side to move.
    pub verdict: Verdict,
}

/// What the evaluator reads from a board representation.
pub(super) trait Scan: ConnectBoard {
    /// The static terms of an ongoing position with `to_move` to play.
    fn terms(&self, eval: &BoardTables, to_move: Side) -> Terms;

    /// Columns where the side to move wins at once, must block, or would hand the opponent a
    /// win on the cell above.
    fn immediate(&self, eval: &BoardTables, to_move: Side) -> ImmediateColumns;
}

/// `bits << shift`, zero when the shift passes the word.
#[inline]
fn shift_up<B: Bits>(bits: B, shift: u32) -> B {
    if shift >= B::BITS {
        B::ZERO
    } else {
        bits << shift
    }
}

/// `bits >> shift`, zero when the shift passes the word.
#[inline]
fn shift_down<B: Bits>(bits: B, shift: u32) -> B {
    if shift >= B::BITS {
        B::ZERO
    } else {
        bits >> shift
    }
}

/// The empty cells of `empty` where a disc completes a run of `k` of `own`, on a packed board
/// with `rows` rows. For each direction and each place `j` of the gap in the window: `j` own
/// discs end just below the cell (a run starting `j` steps back) and `k - 1 - j` start just
/// above it. Sentinels stop runs at the board's edges, as in [`Packed`].
pub(super) fn threat_cells<B: Bits>(own: B, empty: B, rows: u32, k: u32) -> B {
    let mut cells = B::ZERO;
    for step in [1, rows, rows + 1, rows + 2] {
        for before in 0..k {
            let after = k - 1 - before;
            let below = if before == 0 {
                !B::ZERO
            } else {
                shift_up(run_of(own, step, before), before * step)
            };
            let above = if after == 0 {
                !B::ZERO
            } else {
                shift_down(run_of(own, step, after), step)
            };
            cells |= below & above;
        }
    }
    cells & empty
}

impl<B: Bits> Packed<B> {
    /// The first player's and the second player's discs.
    #[inline]
    fn discs(&self, to_move: Side) -> [B; 2] {
        let (current, mask) = self.bits();
        match to_move {
            Side::First => [current, current ^ mask],
            Side::Second => [current ^ mask, current],
        }
    }

    /// Threat cells of both sides (index 0: first player).
    #[inline]
    fn threats(&self, eval: &BoardTables, discs: [B; 2]) -> [B; 2] {
        let tables = &eval.packed;
        let empty = B::truncate(tables.cells) & !(discs[0] | discs[1]);
        let (rows, k) = (eval.rows as u32, eval.k as u32);
        [
            threat_cells(discs[0], empty, rows, k),
            threat_cells(discs[1], empty, rows, k),
        ]
    }
}

impl<B: Bits> Scan for Packed<B> {
    fn terms(&self, eval: &BoardTables, to_move: Side) -> Terms {
        let tables = &eval.packed;
        let value = &eval.window_value;
        let discs = self.discs(to_move);
        let mut windows = 0;
        for &window in &tables.windows {
            let window = B::truncate(window);
            let first = (discs[0] & window).count_ones();
            let second = (discs[1] & window).count_ones();
            if second == 0 {
                windows += value[first as usize] as i64;
            } else if first == 0 {
                windows -= value[second as usize] as i64;
            }
        }
        let mut centre = 0;
        for (col, &weight) in eval.centre.iter().enumerate() {
            let column = B::truncate(tables.columns[col]);
            let balance =
                (discs[0] & column).count_ones() as i32 - (discs[1] & column).count_ones() as i32;
            centre += weight * balance;
        }
        let threat_sets = self.threats(eval, discs);
        let stride = eval.rows as u32 + 1;
        let column = B::truncate(tables.columns[0]);
        let verdict = threats::assess(
            &eval.weights,
            eval.rows,
            eval.cols,
            to_move,
            |col| self.height(col),
            |side, col| {
                (shift_down(threat_sets[side.index()], col as u32 * stride) & column).widen()
            },
        );
        Terms {
            windows,
            centre,
            verdict,
        }
    }

    fn immediate(&self, eval: &BoardTables, to_move: Side) -> ImmediateColumns {
        let tables = &eval.packed;
        let discs = self.discs(to_move);
        let threat_sets = self.threats(eval, discs);
        let (_, mask) = self.bits();
        let playable = (mask + B::truncate(tables.bottom)) & B::truncate(tables.cells);
        let mine = threat_sets[to_move.index()];
        let theirs = threat_sets[to_move.opponent().index()];
        let stride = eval.rows as u32 + 1;
        let columns_of = |cells: B| {
            let mut columns = 0u128;
            let mut rest = cells;
            while rest != B::ZERO {
                let bit = rest.trailing_zeros();
                columns |= 1 << (bit / stride);
                rest ^= B::ONE << bit;
            }
            columns
        };
        ImmediateColumns {
            wins: columns_of(mine & playable),
            blocks: columns_of(theirs & playable),
            poisoned: columns_of(theirs & (playable << 1)),
        }
    }
}

/// Window totals and threat cells gathered line by line on a [`Wide`] board.
struct LineScan<'a> {
    value: &'a [i32],
    k: usize,
    /// Bits `0..k`.
    window: u128,
    /// First player minus second, in `window_value` units.
    windows: i64,
    /// Threat heights per side (index 0: first player) and column.
    threats: [[u128; zerosum_core::MAX_SIDE]; 2],
}

impl LineScan<'_> {
    /// Counts the windows of a line of `len` cells holding `discs` (bit `i` for the `i`-th cell
    /// of the line, per side) that overlap a disc, and records threat cells; `cell(i)` is the
    /// (column, height) of the line's `i`-th cell.
    #[inline]
    fn line(&mut self, discs: [u128; 2], len: usize, cell: impl Fn(usize) -> (usize, usize)) {
        let occupied = discs[0] | discs[1];
        if occupied == 0 || len < self.k {
            return;
        }
        let first_disc = occupied.trailing_zeros() as usize;
        let last_disc = 127 - occupied.leading_zeros() as usize;
        let mut threat_bits = [0u128; 2];
        for start in first_disc.saturating_sub(self.k - 1)..=last_disc.min(len - self.k) {
            let window = self.window << start;
            let first = (discs[0] & window).count_ones() as usize;
            let second = (discs[1] & window).count_ones() as usize;
            if second == 0 {
                self.windows += self.value[first] as i64;
                if first == self.k - 1 {
                    threat_bits[0] |= window & !occupied;
                }
            } else if first == 0 {
                self.windows -= self.value[second] as i64;
                if second == self.k - 1 {
                    threat_bits[1] |= window & !occupied;
                }
            }
        }
        for (side, mut bits) in threat_bits.into_iter().enumerate() {
            while bits != 0 {
                let (col, height) = cell(bits.trailing_zeros() as usize);
                self.threats[side][col] |= 1 << height;
                bits &= bits - 1;
            }
        }
    }
}

/// Sets bits `from..=to` of a small bit set.
#[inline]
fn mark(set: &mut [u64], from: usize, to: usize) {
    for bit in from..=to {
        set[bit / 64] |= 1 << (bit % 64);
    }
}

/// Calls `visit` on every set bit of a small bit set, in increasing order.
#[inline]
fn for_each_bit(set: &[u64], mut visit: impl FnMut(usize)) {
    for (word_index, &word) in set.iter().enumerate() {
        let mut rest = word;
        while rest != 0 {
            visit(word_index * 64 + rest.trailing_zeros() as usize);
            rest &= rest - 1;
        }
    }
}

/// Words of a bit set over the diagonals of a board (at most `2 * MAX_SIDE - 1`).
const DIAGONAL_WORDS: usize = (2 * zerosum_core::MAX_SIDE).div_ceil(64);

impl Wide {
    /// Both sides' discs on a line of cells, bit `i` for the `i`-th (column, height).
    #[inline]
    fn gather(&self, cells: impl Iterator<Item = (usize, usize)>) -> [u128; 2] {
        let mut discs = [0u128; 2];
        for (i, (col, height)) in cells.enumerate() {
            if self.has_disc(Side::First, col, height) {
                discs[0] |= 1 << i;
            } else if self.has_disc(Side::Second, col, height) {
                discs[1] |= 1 << i;
            }
        }
        discs
    }
}

impl Scan for Wide {
    fn terms(&self, eval: &BoardTables, to_move: Side) -> Terms {
        let (rows, cols, k) = (eval.rows, eval.cols, eval.k);
        let mut scan = LineScan {
            value: &eval.window_value,
            k,
            window: (1u128 << k) - 1,
            windows: 0,
            threats: [[0; zerosum_core::MAX_SIDE]; 2],
        };
        let mut centre = 0;
        let mut max_height = 0;
        // Diagonals holding a disc: rising ones by `col - height + rows - 1`, falling ones by
        // `col + height`.
        let mut rising = [0u64; DIAGONAL_WORDS];
        let mut falling = [0u64; DIAGONAL_WORDS];
        for col in 0..cols {
            let height = self.height(col);
            if height == 0 {
                continue;
            }
            max_height = max_height.max(height);
            let discs = [
                self.column_discs(Side::First, col),
                self.column_discs(Side::Second, col),
            ];
            centre +=
                eval.centre[col] * (discs[0].count_ones() as i32 - discs[1].count_ones() as i32);
            scan.line(discs, rows, |i| (col, i));
            mark(&mut rising, col + rows - height, col + rows - 1);
            mark(&mut falling, col, col + height - 1);
        }
        for height in 0..max_height {
            let discs = self.gather((0..cols).map(|col| (col, height)));
            scan.line(discs, cols, |i| (i, height));
        }
        for_each_bit(&rising, |index| {
            // Bottom cell of the diagonal, then up and to the right.
            let (col0, height0) = match (index + 1).checked_sub(rows) {
                Some(col) => (col, 0),
                None => (0, rows - 1 - index),
            };
            let len = (cols - col0).min(rows - height0);
            let filled = len.min(max_height.saturating_sub(height0));
            let discs = self.gather((0..filled).map(|i| (col0 + i, height0 + i)));
            scan.line(discs, len, |i| (col0 + i, height0 + i));
        });
        for_each_bit(&falling, |index| {
            // Bottom cell of the diagonal, then up and to the left.
            let (col0, height0) = if index < cols {
                (index, 0)
            } else {
                (cols - 1, index + 1 - cols)
            };
            let len = (col0 + 1).min(rows - height0);
            let filled = len.min(max_height.saturating_sub(height0));
            let discs = self.gather((0..filled).map(|i| (col0 - i, height0 + i)));
            scan.line(discs, len, |i| (col0 - i, height0 + i));
        });
        let verdict = threats::assess(
            &eval.weights,
            rows,
            cols,
            to_move,
            |col| self.height(col),
            |side, col| scan.threats[side.index()][col],
        );
        Terms {
            windows: scan.windows,
            centre,
            verdict,
        }
    }

    fn immediate(&self, eval: &BoardTables, to_move: Side) -> ImmediateColumns {
        let opponent = to_move.opponent();
        let mut columns = ImmediateColumns::default();
        for col in 0..eval.cols {
            let height = self.height(col);
            if height >= eval.rows {
                continue;
            }
            if self.completes_run(to_move, col, height) {
                columns.wins |= 1 << col;
            }
            if self.completes_run(opponent, col, height) {
                columns.blocks |= 1 << col;
            }
            if height + 1 < eval.rows && self.completes_run(opponent, col, height + 1) {
                columns.poisoned |= 1 << col;
            }
        }
        columns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threat_cells_find_every_gap() {
        // Connect Four layout (7 bits per column): first player on the bottom row in columns
        // 0, 1 and 3, so column 2's bottom cell completes four.
        let rows = 6u32;
        let bit = |col: u32, height: u32| 1u64 << (col * (rows + 1) + height);
        let own = bit(0, 0) | bit(1, 0) | bit(3, 0);
        let mut empty = 0u64;
        for col in 0..7 {
            for height in 0..rows {
                empty |= bit(col, height);
            }
        }
        empty &= !own;
        assert_eq!(threat_cells(own, empty, rows, 4), bit(2, 0));
        // Three in a column: the cell above.
        let own = bit(5, 0) | bit(5, 1) | bit(5, 2);
        assert_eq!(threat_cells(own, empty & !own, rows, 4), bit(5, 3));
        // A run of k - 1 = 1 makes every neighbour a threat for k = 2.
        let own = bit(3, 0);
        let cells = threat_cells(own, empty & !own, rows, 2);
        assert_eq!(
            cells,
            bit(2, 0) | bit(4, 0) | bit(3, 1) | bit(2, 1) | bit(4, 1)
        );
    }
}
