//! The solver's view of a position: the two bit boards of [`Packed`](crate::connect::Packed)
//! (`current`, `mask`) plus their mirror images, and the board geometry that gives them
//! meaning (column masks, threat cells, scores).
//!
//! Layout (as in `packed.rs`): column `c` takes bits `c * (H + 1) .. c * (H + 1) + H`, bottom
//! cell first, and bit `c * (H + 1) + H` is an always-empty sentinel. On 7x6:
//!
//! ```text
//!   .  .  .  .  .  .  .     <- sentinels (bits 6, 13, ..., 48)
//!   5 12 19 26 33 40 47     <- top row
//!   4 11 18 25 32 39 46
//!   3 10 17 24 31 38 45
//!   2  9 16 23 30 37 44
//!   1  8 15 22 29 36 43
//!   0  7 14 21 28 35 42     <- bottom row (`bottom` holds these bits)
//! ```
//!
//! One step along a line is a shift by 1 (up a column), `H + 1` (along a row), `H` (down-right
//! diagonal) or `H + 2` (up-right diagonal). A line that leaves the board lands on a sentinel
//! or outside the board's bits, neither of which ever holds a stone, so runs need no bounds
//! checks.
//!
//! The mirror boards hold the same stones with column `c` moved to column `W - 1 - c`. When a
//! solve can meet mirror images at all (see [`Position::clashes_with_mirror`]) they are kept in
//! step with every move, so that a position and its mirror image share one transposition-table
//! entry; otherwise they are left as they were and never read.

use crate::connect::Bits;

/// Most columns a packed board can have (a `u128` of one row: 64 columns of 2 bits).
pub(super) const MAX_COLS: usize = 64;

/// `x << n`, or nothing when the shift leaves the word.
#[inline]
fn shl<B: Bits>(x: B, n: u32) -> B {
    if n >= B::BITS {
        B::ZERO
    } else {
        x << n
    }
}

/// `x >> n`, or nothing when the shift leaves the word.
#[inline]
fn shr<B: Bits>(x: B, n: u32) -> B {
    if n >= B::BITS {
        B::ZERO
    } else {
        x >> n
    }
}

/// Lowest cells `b` of runs `b, b + step, ..., b + (len - 1) * step` of stones (`len >= 1`),
/// grown by doubling.
#[inline]
fn run_starts<B: Bits>(stones: B, step: u32, len: u32) -> B {
    let mut runs = stones;
    let mut have = 1;
    while have < len && runs != B::ZERO {
        let grow = have.min(len - have);
        runs &= shr(runs, step.saturating_mul(grow));
        have += grow;
    }
    runs
}

/// Cells `x` with stones on `x + step, ..., x + len * step` (every cell when `len == 0`).
#[inline]
fn stones_after<B: Bits>(stones: B, step: u32, len: u32) -> B {
    if len == 0 {
        !B::ZERO
    } else {
        shr(run_starts(stones, step, len), step)
    }
}

/// Cells `x` with stones on `x - step, ..., x - len * step` (every cell when `len == 0`).
#[inline]
fn stones_before<B: Bits>(stones: B, step: u32, len: u32) -> B {
    if len == 0 {
        !B::ZERO
    } else {
        shl(run_starts(stones, step, len), step.saturating_mul(len))
    }
}

/// Sizes, masks and score bounds of one board size.
#[derive(Clone, Debug)]
pub(super) struct Geometry<B: Bits> {
    /// Cells per column (`H`).
    pub rows: u32,
    /// Columns (`W`).
    pub cols: u32,
    /// Run length that wins.
    pub k: u32,
    /// `W * H`.
    pub cells: u32,
    /// The bottom cell of every column.
    pub bottom: B,
    /// Every cell of the board (no sentinel).
    pub board: B,
    /// The cells of each column.
    columns: Box<[B]>,
    /// Columns with their cells, centre first, then alternately left and right of it moving
    /// outwards.
    pub order: Box<[(usize, B)]>,
    /// `k == 4` and every shift of the unrolled four-in-a-row code stays inside the word.
    four: bool,
    /// The cells whose row has the parity of `H` (row 0 at the bottom): when every column has
    /// an even number of empty cells, the free cell of each column is one of these.
    mover_rows: B,
}

impl<B: Bits> Geometry<B> {
    /// The geometry of a `rows` x `cols` board with runs of `k`. Precondition:
    /// `1 <= rows`, `1 <= cols`, `cols * (rows + 1) <= B::BITS`, `k >= 1`.
    pub fn new(rows: usize, cols: usize, k: usize) -> Self {
        assert!(
            rows >= 1 && cols >= 1 && k >= 1 && cols * (rows + 1) <= B::BITS as usize,
            "a {rows}x{cols} board does not fit in {} bits",
            B::BITS
        );
        let (rows, cols) = (rows as u32, cols as u32);
        let column = |c: u32| (!(!B::ZERO << rows)) << (c * (rows + 1));
        let columns: Box<[B]> = (0..cols).map(column).collect();
        let bottom = (0..cols).fold(B::ZERO, |acc, c| acc | B::ONE << (c * (rows + 1)));
        let board = columns.iter().fold(B::ZERO, |acc, &c| acc | c);
        // Centre first; for an even width the left one of the two centre columns first.
        let mut order: Vec<u8> = (0..cols as u8).collect();
        order.sort_by_key(|&c| ((2 * c as i32 + 1 - cols as i32).abs(), c));
        let order = order
            .iter()
            .map(|&c| (c as usize, columns[c as usize]))
            .collect();
        let mover_rows = (0..rows)
            .filter(|r| r % 2 == rows % 2)
            .fold(B::ZERO, |acc, r| acc | bottom << r);
        Geometry {
            rows,
            cols,
            k: k.min(u32::MAX as usize) as u32,
            cells: rows * cols,
            bottom,
            board,
            columns,
            order,
            four: k == 4 && 3 * (rows + 2) < B::BITS,
            mover_rows,
        }
    }

    /// True if `vertical` holds a run of `k` up a column, or `lines` one along a row or a
    /// diagonal.
    #[inline]
    fn has_run(&self, vertical: B, lines: B) -> bool {
        let (h, k) = (self.rows, self.k);
        if self.four {
            // Unrolled: pairs, then pairs of pairs; every shift stays inside the word.
            let four = |x: B, step: u32| {
                let pairs = x & (x >> step);
                pairs & (pairs >> (2 * step))
            };
            return (four(vertical, 1) | four(lines, h + 1) | four(lines, h) | four(lines, h + 2))
                != B::ZERO;
        }
        run_starts(vertical, 1, k) != B::ZERO
            || [h + 1, h, h + 2]
                .into_iter()
                .any(|step| run_starts(lines, step, k) != B::ZERO)
    }

    /// Allis' claimeven, from the side to move's view, when the number of empty cells is even
    /// (`None` otherwise, or when the rule says nothing).
    ///
    /// The opponent answers every stone with one on top of it, except a stone that starts a
    /// column with an odd number of empty cells: that one it answers by starting another such
    /// column (there always is one: the number of empty cells being even, so is the number of
    /// odd columns), after which both columns are even. Either way each column gives the side
    /// to move exactly its empty cells of [`Geometry::mover_rows`], plus, in the odd columns,
    /// maybe the free cell; the opponent gets the other cells. The side to move cannot win
    /// without a run in what it may get (then the value is at most 0), and it loses if, on top
    /// of that, the opponent has a run in what it surely gets (at most -1).
    ///
    /// Precondition: `k >= 2`.
    #[inline]
    pub fn claimeven_bound(&self, current: B, mask: B, playable: B, moves: u32) -> Option<i32> {
        if !(self.cells - moves).is_multiple_of(2) {
            return None;
        }
        let empty = self.board & !mask;
        // The free cells of the odd columns.
        let odd = playable & !self.mover_rows;
        let claimed = current | (empty & self.mover_rows) | odd;
        if self.has_run(claimed, claimed) {
            return None;
        }
        let opponent = (current ^ mask) | (empty & !self.mover_rows & !odd);
        Some(if self.has_run(opponent, opponent) {
            -1
        } else {
            0
        })
    }

    /// The cells of column `col`.
    #[inline]
    pub fn column(&self, col: usize) -> B {
        self.columns[col]
    }

    /// True if a run of `k` fits on the board in some direction.
    pub fn runs_possible(&self) -> bool {
        let k = self.k;
        k <= self.rows || k <= self.cols
    }

    /// The score of a win whose winning stone is the `ply`-th stone on the board:
    /// `1 + (W*H - ply) / 2`, one more than half the cells still empty, rounded down (Pons'
    /// `(W*H + 1 - moves) / 2` with `moves = ply - 1`). 0 if `ply > W*H`: a win that late
    /// cannot happen, which makes 0 the right bound.
    #[inline]
    pub fn win_score(&self, ply: u32) -> i32 {
        if ply > self.cells {
            0
        } else {
            ((self.cells - ply) / 2 + 1) as i32
        }
    }

    /// Empty cells where `stones` would complete a run of `k`, whether playable now or not.
    #[inline(always)]
    pub fn winning_cells(&self, stones: B, mask: B) -> B {
        let runs = if self.four {
            self.winning_cells_four(stones)
        } else {
            self.winning_cells_any(stones)
        };
        runs & self.board & !mask
    }

    /// Four in a row, unrolled: along each line, with `l1`..`l3` the cells one to three steps
    /// back and `r1`..`r3` forward, a cell completes a run with stones on `l1 l2 l3`,
    /// `l1 l2 r1`, `l1 r1 r2` or `r1 r2 r3` (after Pons).
    #[inline(always)]
    fn winning_cells_four(&self, s: B) -> B {
        let h = self.rows;
        // Vertical: only stones below can complete a run, the cells above being empty.
        let mut r = (s << 1) & (s << 2) & (s << 3);
        for step in [h + 1, h, h + 2] {
            let (l1, l2, l3) = (s << step, s << (2 * step), s << (3 * step));
            let (r1, r2, r3) = (s >> step, s >> (2 * step), s >> (3 * step));
            r |= (l1 & l2 & (l3 | r1)) | (r1 & r2 & (l1 | r3));
        }
        r
    }

    /// Any `k`: a cell completes a run when `a` stones follow it and `k - 1 - a` precede it
    /// along a line, for some `a`.
    fn winning_cells_any(&self, s: B) -> B {
        let (h, k) = (self.rows, self.k);
        let mut r = stones_before(s, 1, k - 1);
        for step in [h + 1, h, h + 2] {
            for after in 0..k {
                r |= stones_after(s, step, after) & stones_before(s, step, k - 1 - after);
            }
        }
        r
    }
}

/// A position of the search: both bit boards, their mirror images, and the number of stones.
#[derive(Clone, Copy, Debug)]
pub(super) struct Position<B: Bits> {
    /// Stones of the side to move.
    pub current: B,
    /// Every stone.
    pub mask: B,
    /// `current` with the columns mirrored.
    pub mirror_current: B,
    /// `mask` with the columns mirrored.
    pub mirror_mask: B,
    /// Stones on the board.
    pub moves: u32,
}

impl<B: Bits> Position<B> {
    /// The position of `current` and `mask` (layout of the module documentation) after
    /// `moves` stones.
    pub fn new(geometry: &Geometry<B>, current: B, mask: B, moves: u32) -> Self {
        let stride = geometry.rows + 1;
        let mirror = |bits: B| {
            (0..geometry.cols).fold(B::ZERO, |acc, c| {
                let column = (bits & geometry.column(c as usize)) >> (c * stride);
                acc | column << ((geometry.cols - 1 - c) * stride)
            })
        };
        Position {
            current,
            mask,
            mirror_current: mirror(current),
            mirror_mask: mirror(mask),
            moves,
        }
    }

    /// Stones of the side that just moved.
    #[inline]
    pub fn opponent(&self) -> B {
        self.current ^ self.mask
    }

    /// The cell where a stone lands in each column that is not full.
    #[inline]
    pub fn playable(&self, geometry: &Geometry<B>) -> B {
        (self.mask + geometry.bottom) & geometry.board
    }

    /// The key of the position, unique for its board size: `current + mask` (Pons).
    #[inline]
    pub fn key(&self) -> B {
        self.current + self.mask
    }

    /// The key of the mirror image.
    #[inline]
    pub fn mirror_key(&self) -> B {
        self.mirror_current + self.mirror_mask
    }

    /// The key of the table entry of the position: with `MIRROR`, the smaller of
    /// [`Position::key`] and [`Position::mirror_key`], which a position and its mirror image
    /// share; else the key itself.
    #[inline]
    pub fn table_key<const MIRROR: bool>(&self) -> B {
        let key = self.key();
        if MIRROR {
            let mirror_key = self.mirror_key();
            if mirror_key.widen() < key.widen() {
                return mirror_key;
            }
        }
        key
    }

    /// True if some cell holds a stone of one side and its mirror cell a stone of the other.
    /// Every position below such a position has the same clash, so no position below it can
    /// also reach a mirror image of another.
    #[inline]
    pub fn clashes_with_mirror(&self) -> bool {
        self.current & (self.mirror_current ^ self.mirror_mask) != B::ZERO
    }

    /// The position after the side to move drops a stone on `cell`, the free cell of column
    /// `col`. The mirror boards are kept up to date only with `MIRROR`, and must not be used
    /// below a position played without it.
    #[inline]
    pub fn with_stone<const MIRROR: bool>(&self, g: &Geometry<B>, col: usize, cell: B) -> Self {
        let (mirror_current, mirror_mask) = if MIRROR {
            let stride = g.rows + 1;
            let mirror_cell =
                (cell >> (col as u32 * stride)) << ((g.cols - 1 - col as u32) * stride);
            (
                self.mirror_current ^ self.mirror_mask,
                self.mirror_mask | mirror_cell,
            )
        } else {
            (self.mirror_current, self.mirror_mask)
        };
        Position {
            current: self.current ^ self.mask,
            mask: self.mask | cell,
            mirror_current,
            mirror_mask,
            moves: self.moves + 1,
        }
    }

    /// The position after the side to move drops a stone in `col`, which is not full, mirror
    /// boards included.
    pub fn played(&self, g: &Geometry<B>, col: usize) -> Self {
        let cell = self.playable(g) & g.column(col);
        self.with_stone::<true>(g, col, cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unrolled_and_general_threats_agree() {
        let geometry = Geometry::<u64>::new(6, 7, 4);
        assert!(geometry.four);
        let general = Geometry {
            four: false,
            ..geometry.clone()
        };
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let stones = state & geometry.board;
            let mask = stones | (state.rotate_left(19) & geometry.board);
            assert_eq!(
                geometry.winning_cells(stones, mask),
                general.winning_cells(stones, mask)
            );
        }
    }

    /// The sign of the game value for the side to move, by plain minimax with a memo.
    fn value_sign(
        g: &Geometry<u64>,
        current: u64,
        mask: u64,
        memo: &mut std::collections::HashMap<(u64, u64), i32>,
    ) -> i32 {
        if let Some(&value) = memo.get(&(current, mask)) {
            return value;
        }
        let playable = (mask + g.bottom) & g.board;
        let value = if playable == 0 {
            0
        } else if g.winning_cells(current, mask) & playable != 0 {
            1
        } else {
            let mut best = -1;
            let mut moves = playable;
            while moves != 0 && best < 1 {
                let cell = moves & moves.wrapping_neg();
                moves ^= cell;
                let child = -value_sign(g, current ^ mask, mask | cell, memo);
                best = best.max(child);
            }
            best
        };
        memo.insert((current, mask), value);
        value
    }

    #[test]
    fn claimeven_bounds_hold_against_minimax() {
        // Boards small enough for plain minimax, of both parities of the number of cells.
        let mut fired = Vec::new();
        for (rows, cols, k) in [
            (4, 4, 3),
            (4, 5, 4),
            (5, 4, 4),
            (4, 4, 4),
            (3, 5, 3),
            (3, 7, 4),
            (5, 3, 3),
        ] {
            let g = Geometry::<u64>::new(rows, cols, k);
            let mut memo = std::collections::HashMap::new();
            let mut state = 0x2545_F491_4F6C_DD1Du64 ^ (rows * 31 + cols) as u64;
            let mut count = 0;
            for _ in 0..400 {
                let (mut current, mut mask) = (0u64, 0u64);
                loop {
                    let playable = (mask + g.bottom) & g.board;
                    if playable == 0 || g.winning_cells(current, mask) & playable != 0 {
                        break;
                    }
                    if let Some(bound) =
                        g.claimeven_bound(current, mask, playable, mask.count_ones())
                    {
                        count += 1;
                        let value = value_sign(&g, current, mask, &mut memo);
                        assert!(
                            value <= bound,
                            "{rows}x{cols}x{k}: claimeven bound {bound}, value {value}, \
                             current {current:#x}, mask {mask:#x}"
                        );
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let cells: Vec<u64> = (0..64)
                        .map(|b| 1u64 << b)
                        .filter(|b| playable & b != 0)
                        .collect();
                    let cell = cells[(state % cells.len() as u64) as usize];
                    current ^= mask;
                    mask |= cell;
                }
            }
            fired.push(count);
        }
        eprintln!("claimeven fired {fired:?} times");
        assert!(fired.iter().sum::<usize>() > 200, "fired {fired:?}");
    }
}
