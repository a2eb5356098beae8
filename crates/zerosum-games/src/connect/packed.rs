//! The packed Connect-X board of Pascal Pons' solver, in one `u64` or `u128`.
//!
//! Each column takes `H + 1` bits, bottom cell first, the extra top bit being an always-empty
//! sentinel. For the 7x6 Connect Four board (`H = 6`, bit numbers):
//!
//! ```text
//!   .  .  .  .  .  .  .     <- sentinel row, always 0
//!   5 12 19 26 33 40 47     <- top row
//!   4 11 18 25 32 39 46
//!   3 10 17 24 31 38 45
//!   2  9 16 23 30 37 44
//!   1  8 15 22 29 36 43
//!   0  7 14 21 28 35 42     <- bottom row
//! ```
//!
//! `mask` holds every stone and `current` the stones of the side to move, so the opponent's
//! stones are `current ^ mask`. Shifting by 1, `H`, `H + 1` and `H + 2` steps along a column,
//! a diagonal, a row and the other diagonal; the sentinel bits (and the zero bits above the
//! last column) stop every run at the board's edge, so alignments need no bounds checks.

use std::ops::{
    Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr,
};

use super::{ConnectBoard, Placement};
use zerosum_core::Side;

/// The unsigned integers a packed board fits in (`u64`, `u128`).
pub trait Bits:
    Copy
    + Eq
    + std::fmt::Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + BitXorAssign
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    const BITS: u32;
    fn widen(self) -> u128;
    fn trailing_zeros(self) -> u32;
    fn count_ones(self) -> u32;
}

impl Bits for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const BITS: u32 = 64;
    #[inline]
    fn widen(self) -> u128 {
        self as u128
    }
    #[inline]
    fn trailing_zeros(self) -> u32 {
        u64::trailing_zeros(self)
    }
    #[inline]
    fn count_ones(self) -> u32 {
        u64::count_ones(self)
    }
}

impl Bits for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const BITS: u32 = 128;
    #[inline]
    fn widen(self) -> u128 {
        self
    }
    #[inline]
    fn trailing_zeros(self) -> u32 {
        u128::trailing_zeros(self)
    }
    #[inline]
    fn count_ones(self) -> u32 {
        u128::count_ones(self)
    }
}

/// A board of `cols * (rows + 1) <= B::BITS` bits; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed<B: Bits> {
    rows: u32,
    cols: u32,
    k: u32,
    /// Stones of the side to move.
    current: B,
    /// Every stone.
    mask: B,
    /// One bit at the bottom of each column.
    bottom: B,
    /// Every playable cell (all but the sentinels).
    full: B,
}

impl<B: Bits> Packed<B> {
    /// True if a board of this size fits in `B`.
    pub fn fits(rows: usize, cols: usize) -> bool {
        cols * (rows + 1) <= B::BITS as usize
    }

    #[inline]
    fn bottom_of(&self, col: usize) -> B {
        B::ONE << (col as u32 * (self.rows + 1))
    }

    #[inline]
    fn column_mask(&self, col: usize) -> B {
        !(!B::ZERO << self.rows) << (col as u32 * (self.rows + 1))
    }

    #[inline]
    fn top_of(&self, col: usize) -> B {
        B::ONE << (self.rows - 1 + col as u32 * (self.rows + 1))
    }

    /// True if `stones` hold `k` or more in a row in any direction.
    #[inline]
    fn has_run(&self, stones: B) -> bool {
        let h = self.rows;
        [1, h, h + 1, h + 2]
            .into_iter()
            .any(|step| run_of(stones, step, self.k) != B::ZERO)
    }

    /// The exact key of the position: `current + mask` (Pons), unique for a given board size.
    #[inline]
    pub fn key(&self) -> u128 {
        (self.current + self.mask).widen()
    }

    /// Stones of the side to move and every stone, in the layout of the module documentation.
    #[inline]
    pub fn bits(&self) -> (B, B) {
        (self.current, self.mask)
    }
}

/// Bits where a run of `k` stones starts, stepping by `step` bits, computed by doubling:
/// `r` holds the starts of runs of `len` stones, and `r & r >> (step * m)` those of `len + m`
/// stones for any `m <= len`. A shift past the word leaves no run.
#[inline]
fn run_of<B: Bits>(stones: B, step: u32, k: u32) -> B {
    let mut runs = stones;
    let mut len = 1;
    while len < k {
        let grow = len.min(k - len);
        let shift = step * grow;
        if shift >= B::BITS {
            return B::ZERO;
        }
        runs &= runs >> shift;
        len += grow;
    }
    runs
}

impl<B: Bits> ConnectBoard for Packed<B> {
    fn new(rows: usize, cols: usize, k: usize) -> Self {
        assert!(Self::fits(rows, cols), "board too big for a packed board");
        let mut board = Packed {
            rows: rows as u32,
            cols: cols as u32,
            k: k as u32,
            current: B::ZERO,
            mask: B::ZERO,
            bottom: B::ZERO,
            full: B::ZERO,
        };
        for col in 0..cols {
            board.bottom |= board.bottom_of(col);
            board.full |= board.column_mask(col);
        }
        board
    }

    #[inline]
    fn can_play(&self, col: usize) -> bool {
        self.mask & self.top_of(col) == B::ZERO
    }

    #[inline]
    fn height(&self, col: usize) -> usize {
        // The first free cell of the column, or its sentinel when full.
        let free =
            (self.mask + self.bottom_of(col)) & (self.column_mask(col) | self.top_of(col) << 1);
        (free.trailing_zeros() - col as u32 * (self.rows + 1)) as usize
    }

    #[inline]
    fn place(&mut self, col: usize, _mover: Side) -> Placement {
        let cell = (self.mask + self.bottom_of(col)) & self.column_mask(col);
        self.current ^= self.mask;
        self.mask |= cell;
        let mover_stones = self.current ^ self.mask;
        Placement {
            height: (cell.trailing_zeros() - col as u32 * (self.rows + 1)) as usize,
            wins: self.has_run(mover_stones),
            fills_board: self.mask == self.full,
        }
    }

    #[inline]
    fn remove(&mut self, col: usize) -> usize {
        let free = (self.mask + self.bottom_of(col)) & self.column_mask(col);
        // The top stone sits just below the first free cell, or is the column's top cell.
        let top = if free == B::ZERO {
            self.top_of(col)
        } else {
            free >> 1
        };
        self.mask ^= top;
        self.current ^= self.mask;
        (top.trailing_zeros() - col as u32 * (self.rows + 1)) as usize
    }

    fn owner(&self, col: usize, height: usize, to_move: Side) -> Option<Side> {
        let bit = B::ONE << (col as u32 * (self.rows + 1) + height as u32);
        if self.mask & bit == B::ZERO {
            None
        } else if self.current & bit != B::ZERO {
            Some(to_move)
        } else {
            Some(to_move.opponent())
        }
    }

    fn is_full(&self) -> bool {
        self.mask == self.full
    }

    fn exact_key(&self) -> Option<u128> {
        Some(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_found_by_doubling() {
        // 1110111 along step 1: runs of 3 start at bits 0 and 4; none of 4.
        let stones: u64 = 0b111_0111;
        assert_eq!(run_of(stones, 1, 3), 0b001_0001);
        assert_eq!(run_of(stones, 1, 4), 0);
        assert_eq!(run_of(stones, 1, 1), stones);
        assert_eq!(run_of(0b1111_1111u64, 1, 5), 0b1111);
    }
}
