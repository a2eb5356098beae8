//! The window scan behind the m,n,k evaluator: every window of K consecutive cells on a row,
//! column or diagonal that holds stones of one side only, classified by its stone count.
//!
//! For K = 5 (gomoku) the vocabulary is the usual one, generalised to any K:
//!
//! ```text
//!   window   stones   what it is                  for the side to move   for the other side
//!   X X X X .  K-1    a four: one winning cell      wins at once          must be blocked
//!   X X X . .  K-2    a three: a cell that          makes a four          -
//!                     makes a four ("maker")
//!   . . X X X . .     an open three: a maker        wins (open four)      must be answered
//!                     that makes two winning
//!                     cells ("double")
//! ```
//!
//! Open and closed runs fall out of the counts: an open run of K-1 (`. X X X X .`) lies in two
//! windows of K-1 with different free cells, so it has two winning cells; a closed one
//! (`O X X X X .`) in one. An open three has a maker whose fours free two cells, a closed one
//! only makers with one. Cells are counted once however many lines they serve.

use super::lines::{low_bits, LineBoard};

/// A window of K cells: its line and the position of its first cell on that line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    pub line: u16,
    pub start: u8,
}

/// Most threes [`ThreatScan::run`] keeps for the threat-space search; a scan that finds more
/// keeps the first ones in line order.
pub(crate) const THREE_CAPACITY: usize = 256;

/// Whether `cell` is in the bit set.
#[inline]
pub(crate) fn test_bit(bits: &[u64], cell: usize) -> bool {
    bits[cell >> 6] >> (cell & 63) & 1 != 0
}

#[inline]
pub(crate) fn set_bit(bits: &mut [u64], cell: usize) {
    bits[cell >> 6] |= 1 << (cell & 63);
}

/// The cells of a bit set, in increasing order.
pub(crate) fn bit_cells(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(word, &value)| {
        let mut rest = value;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                word * 64 + bit
            })
        })
    })
}

/// Number of cells in a bit set.
#[inline]
fn count_bits(bits: &[u64]) -> u32 {
    bits.iter().map(|w| w.count_ones()).sum()
}

/// The windows of K cells on `line` that can hold a stone, as a range of start positions:
/// those between the first and the last stone of either side (empty if none, or if the line
/// is shorter than K).
#[inline]
pub(crate) fn windows_touching_stones(
    board: &LineBoard,
    occupied: u128,
    len: usize,
) -> std::ops::Range<usize> {
    let k = board.k;
    if occupied == 0 || len < k {
        return 0..0;
    }
    let first_stone = occupied.trailing_zeros() as usize;
    let last_stone = 127 - occupied.leading_zeros() as usize;
    (first_stone + 1).saturating_sub(k)..last_stone.min(len - k) + 1
}

/// What a full window scan found, per side (index 0 first player, 1 second).
pub(crate) struct ThreatScan<const W: usize> {
    /// Sum of the window weights over the windows holding only this side's stones.
    pub window_sum: [i64; 2],
    /// Winning cells: empty cells where a stone of this side makes K in a row (a window
    /// with K-1 of its stones and no other).
    pub wins: [[u64; W]; 2],
    pub win_count: [u32; 2],
    /// Cells where a stone makes a four (one new winning cell or more).
    pub fours: [[u64; W]; 2],
    /// Cells where a stone makes two or more new winning cells: an open four from an open
    /// three, or fours on two lines at once.
    pub doubles: [[u64; W]; 2],
    pub double_count: [u32; 2],
    /// The threes (windows with K-2 stones and no other), at most [`THREE_CAPACITY`].
    pub threes: [[Window; THREE_CAPACITY]; 2],
    pub three_count: [usize; 2],
    /// Whether `threes` lists all of them.
    pub threes_complete: [bool; 2],
}

impl<const W: usize> ThreatScan<W> {
    /// The scan of a board without threats: nothing found, the (empty) list of threes complete.
    pub fn empty() -> Self {
        ThreatScan {
            window_sum: [0; 2],
            wins: [[0; W]; 2],
            win_count: [0; 2],
            fours: [[0; W]; 2],
            doubles: [[0; W]; 2],
            double_count: [0; 2],
            threes: [[Window { line: 0, start: 0 }; THREE_CAPACITY]; 2],
            three_count: [0; 2],
            threes_complete: [true; 2],
        }
    }

    /// Scans every window of `board` that holds a stone. `weight_by_missing[m]` is the weight
    /// of a window of one side's stones that lacks `m` stones of K (1 <= m < K).
    pub fn run(board: &LineBoard, weight_by_missing: &[i32]) -> Self {
        let mut scan = Self::empty();
        let k = board.k;
        let window = low_bits(k);
        for line in 0..board.line_count() {
            let stones = board.line(line);
            if stones[0] | stones[1] == 0 {
                continue;
            }
            let len = board.line_len(line);
            let mut line_wins = [0u128; 2];
            let mut line_makers = [0u128; 2];
            for start in windows_touching_stones(board, stones[0] | stones[1], len) {
                let mask = window << start;
                // The one side with stones in the window, if only one has.
                let side = match (stones[0] & mask != 0, stones[1] & mask != 0) {
                    (true, false) => 0,
                    (false, true) => 1,
                    _ => continue,
                };
                let own = (stones[side] & mask).count_ones() as usize;
                scan.window_sum[side] += weight_by_missing[k - own] as i64;
                if own + 1 == k {
                    line_wins[side] |= mask & !stones[side];
                } else if own + 2 == k {
                    line_makers[side] |= mask & !stones[side];
                    let count = scan.three_count[side];
                    if count < THREE_CAPACITY {
                        scan.threes[side][count] = Window {
                            line: line as u16,
                            start: start as u8,
                        };
                        scan.three_count[side] += 1;
                    } else {
                        scan.threes_complete[side] = false;
                    }
                }
            }
            for side in 0..2 {
                let mut rest = line_wins[side];
                while rest != 0 {
                    let pos = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    set_bit(&mut scan.wins[side], board.cell_at(line, pos));
                }
                let mut rest = line_makers[side];
                while rest != 0 {
                    let pos = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let cell = board.cell_at(line, pos);
                    // A four on a second line, or two new winning cells on this one.
                    if test_bit(&scan.fours[side], cell)
                        || wins_made_on_line(board, stones, side, pos, len).count_ones() >= 2
                    {
                        set_bit(&mut scan.doubles[side], cell);
                    }
                    set_bit(&mut scan.fours[side], cell);
                }
            }
        }
        for side in 0..2 {
            scan.win_count[side] = count_bits(&scan.wins[side]);
            scan.double_count[side] = count_bits(&scan.doubles[side]);
        }
        scan
    }

    /// The cells where the other side spoils every double of `side` (the double itself, or a
    /// free cell of a three of `side` through it): with its fours, the only answers to an open
    /// three that do not lose to an open four. `None` if the list of threes overflowed (the
    /// answers are not known); empty if no cell spoils them all.
    pub fn double_answers(&self, board: &LineBoard, side: usize) -> Option<[u64; W]> {
        if !self.threes_complete[side] {
            return None;
        }
        let mut answers = [!0u64; W];
        for double in bit_cells(&self.doubles[side]) {
            let mut spoils = [0u64; W];
            set_bit(&mut spoils, double);
            for free in self.three_cells(board, side) {
                if free.contains(&double) {
                    free.iter().for_each(|&cell| set_bit(&mut spoils, cell));
                }
            }
            for (answer, spoil) in answers.iter_mut().zip(spoils) {
                *answer &= spoil;
            }
        }
        Some(answers)
    }

    /// The two free cells of each of `side`'s listed threes.
    pub fn three_cells<'a>(
        &'a self,
        board: &'a LineBoard,
        side: usize,
    ) -> impl Iterator<Item = [usize; 2]> + 'a {
        let window = low_bits(board.k);
        self.threes[side][..self.three_count[side]]
            .iter()
            .map(move |three| {
                let line = three.line as usize;
                let mut free = (window << three.start) & !board.line(line)[side];
                let first = free.trailing_zeros() as usize;
                free &= free - 1;
                let second = free.trailing_zeros() as usize;
                [board.cell_at(line, first), board.cell_at(line, second)]
            })
    }
}

/// The winning cells (as line positions) that a stone of `side` at the empty position `pos`
/// of `line` would make on that line. `stones` is the line's content, `len` its length.
#[inline]
pub(crate) fn wins_made_on_line(
    board: &LineBoard,
    stones: [u128; 2],
    side: usize,
    pos: usize,
    len: usize,
) -> u128 {
    let k = board.k;
    let window = low_bits(k);
    let own = stones[side] | 1 << pos;
    let mut made = 0;
    for start in board.windows_through(pos, len) {
        let mask = window << start;
        if stones[1 - side] & mask == 0 && (own & mask).count_ones() as usize + 1 == k {
            made |= mask & !own;
        }
    }
    made
}
