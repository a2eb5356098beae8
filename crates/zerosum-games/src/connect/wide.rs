//! The Connect-X board for sizes that do not fit a packed `u128`: one bit set per side over
//! `[u64]` words and a height per column. A cell is `col * rows + height`, bottom cell first.
//! Wins are found by walking the four lines through the last stone, `k - 1` steps each way at
//! most.

use super::{ConnectBoard, Placement};
use zerosum_core::Side;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wide {
    rows: usize,
    cols: usize,
    k: usize,
    /// Stones of the first and of the second player.
    stones: [Vec<u64>; 2],
    /// Number of stones in each column.
    heights: Vec<u8>,
    /// Number of stones on the board.
    count: usize,
}

impl Wide {
    #[inline]
    fn has(&self, side: usize, col: usize, height: usize) -> bool {
        let cell = col * self.rows + height;
        self.stones[side][cell / 64] >> (cell % 64) & 1 == 1
    }

    /// True if `side` has a disc at (`col`, `height`), both in range.
    #[inline]
    pub(super) fn has_disc(&self, side: Side, col: usize, height: usize) -> bool {
        self.has(side.index(), col, height)
    }

    /// The discs of `side` in column `col` (in range): bit `h` is set for a disc at height `h`.
    pub(super) fn column_discs(&self, side: Side, col: usize) -> u128 {
        let words = &self.stones[side.index()];
        let start = col * self.rows;
        let mut discs = 0u128;
        let mut done = 0;
        while done < self.rows {
            let cell = start + done;
            let offset = cell % 64;
            let take = (64 - offset).min(self.rows - done);
            let chunk = (words[cell / 64] >> offset) & (u64::MAX >> (64 - take));
            discs |= (chunk as u128) << done;
            done += take;
        }
        discs
    }

    /// True if a disc of `side` on (`col`, `height`) gives `side` a run of `k` or more; the cell
    /// itself is not read, so it may be empty (a threat test) or hold the disc just placed.
    pub(super) fn completes_run(&self, side: Side, col: usize, height: usize) -> bool {
        [(0, 1), (1, 0), (1, 1), (1, -1)]
            .into_iter()
            .any(|(dc, dh)| self.run_through(side.index(), col, height, dc, dh) >= self.k)
    }

    /// Length of the run of `side`'s stones through (col, height) along (dc, dh), capped at k.
    fn run_through(&self, side: usize, col: usize, height: usize, dc: isize, dh: isize) -> usize {
        let mut len = 1;
        for sign in [1, -1] {
            let (mut c, mut h) = (col as isize, height as isize);
            while len < self.k {
                c += sign * dc;
                h += sign * dh;
                if c < 0 || h < 0 || c >= self.cols as isize || h >= self.rows as isize {
                    break;
                }
                if !self.has(side, c as usize, h as usize) {
                    break;
                }
                len += 1;
            }
        }
        len
    }
}

impl ConnectBoard for Wide {
    fn new(rows: usize, cols: usize, k: usize) -> Self {
        let words = (rows * cols).div_ceil(64);
        Wide {
            rows,
            cols,
            k,
            stones: [vec![0; words], vec![0; words]],
            heights: vec![0; cols],
            count: 0,
        }
    }

    #[inline]
    fn can_play(&self, col: usize) -> bool {
        (self.heights[col] as usize) < self.rows
    }

    #[inline]
    fn height(&self, col: usize) -> usize {
        self.heights[col] as usize
    }

    fn place(&mut self, col: usize, mover: Side) -> Placement {
        let height = self.heights[col] as usize;
        let cell = col * self.rows + height;
        let side = mover.index();
        self.stones[side][cell / 64] |= 1 << (cell % 64);
        self.heights[col] += 1;
        self.count += 1;
        Placement {
            height,
            wins: self.completes_run(mover, col, height),
            fills_board: self.count == self.rows * self.cols,
        }
    }

    fn remove(&mut self, col: usize) -> usize {
        self.heights[col] -= 1;
        self.count -= 1;
        let height = self.heights[col] as usize;
        let cell = col * self.rows + height;
        for side in &mut self.stones {
            side[cell / 64] &= !(1 << (cell % 64));
        }
        height
    }

    fn owner(&self, col: usize, height: usize, _to_move: Side) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|side| self.has(side.index(), col, height))
    }

    fn is_full(&self) -> bool {
        self.count == self.rows * self.cols
    }

    /// None: boards this big are never enumerated exhaustively; the Zobrist hash serves.
    fn exact_key(&self) -> Option<u128> {
        None
    }
}
