//! The window counts of an m,n,k position, kept incrementally by `play` and `undo`: what the
//! window evaluation ([`super::MnkEvaluator`]) would otherwise recount over the whole board at
//! every node of a search.
//!
//! A window is K consecutive cells of a row, column, diagonal or anti-diagonal (the windows of
//! [`super::threats`]); windows are numbered line by line in the order of [`LineBoard`]'s
//! lines, and by first cell within a line, so that a scan in window order meets the windows in
//! the order of the full scan ([`ThreatScan::run`]).
//!
//! Kept per window: its stones of each side. Kept per cell and side, for `n` in `0..K`: how
//! many windows through the cell hold `n` stones of that side and none of the other
//! (`histogram`). From these alone:
//!
//! - a cell's move hint (the attack and defence sums of [`super::MnkEvaluator`]'s hint) is a
//!   sum of K terms per side, not a walk over up to 4K windows;
//! - the fours and threes of a side (windows of K-1 and K-2 of its stones and none of the
//!   other) are bit sets over windows: the winning cells are the free cells of the fours, the
//!   four-making cells ("makers") those of the threes;
//! - the sum of window weights is a dot product of per-side totals by stone count.
//!
//! So [`WindowBoard::scan`] yields the [`ThreatScan`] of the position (equal to the full scan,
//! tested) by looking only at the fours, threes and maker cells, and a stone costs at most 4K
//! windows times K cells of counter updates (one add per cell: the counts of a cell and side
//! are the bytes of one word). Kept for 3 <= K <= [`MAX_K`] on boards of at most
//! [`MAX_CELLS`] cells ([`WindowBoard::supports`]); other boards are scanned in full.

use super::lines::LineBoard;
use super::threats::{bit_cells, set_bit, wins_made_on_line, ThreatScan, Window, THREE_CAPACITY};

/// Longest run kept incrementally (a cell lies in at most 4K windows: the counts fit a byte).
pub(crate) const MAX_K: usize = 8;
/// Largest board kept incrementally (the board is cloned with the position).
pub(crate) const MAX_CELLS: usize = 1024;

/// Window counts kept incrementally (see the module documentation).
#[derive(Clone, Debug)]
pub struct WindowBoard {
    k: usize,
    rows: usize,
    /// The position's line-major copy, kept up to date with the counts.
    lines: LineBoard,
    /// Per window: its line and the position of its first cell there (the full scan's names).
    names: Vec<Window>,
    /// Per window: its first cell and the step between its cells.
    first_cell: Vec<u16>,
    step: Vec<u16>,
    /// Per window: its stones of the first and of the second player.
    counts: Vec<[u8; 2]>,
    /// Per cell and direction: the windows through the cell on that line, `first..first + n`.
    through: Vec<[(u32, u8); 4]>,
    /// Per cell and side, at `cell * 2 + side`: for each stone count `n < K`, in byte `n`, the
    /// windows through the cell holding `n` stones of the side and none of the other.
    histogram: Vec<u64>,
    /// Per side and stone count `n <= K`: windows holding `n` stones of the side and no other.
    totals: [[u32; MAX_K + 1]; 2],
    /// Per side, by window: the windows of K-1 stones of the side and no other (fours).
    fours: [Vec<u64>; 2],
    /// Per side, by window: the windows of K-2 stones of the side and no other (threes).
    threes: [Vec<u64>; 2],
}

impl WindowBoard {
    /// Whether positions of `cells` cells with run length `k` are kept incrementally.
    pub fn supports(cells: usize, k: usize) -> bool {
        (3..=MAX_K).contains(&k) && cells <= MAX_CELLS
    }

    /// The counts of the position on `lines` (a line-major copy of it), which must be
    /// [`WindowBoard::supports`]ed.
    pub(crate) fn new(lines: LineBoard) -> Self {
        let (rows, cols, k) = (lines.rows, lines.cols, lines.k);
        let cells = rows * cols;
        debug_assert!(Self::supports(cells, k));
        let mut board = WindowBoard {
            k,
            rows,
            lines: LineBoard::empty_like(&lines),
            names: Vec::new(),
            first_cell: Vec::new(),
            step: Vec::new(),
            counts: Vec::new(),
            through: vec![[(0, 0); 4]; cells],
            histogram: vec![0; cells * 2],
            totals: [[0; MAX_K + 1]; 2],
            fours: [Vec::new(), Vec::new()],
            threes: [Vec::new(), Vec::new()],
        };
        let mut line_first = Vec::with_capacity(lines.line_count());
        for line in 0..lines.line_count() {
            line_first.push(board.names.len() as u32);
            let len = lines.line_len(line);
            if len < k {
                continue;
            }
            let step = lines.cell_at(line, 1) - lines.cell_at(line, 0);
            for start in 0..=len - k {
                board.names.push(Window {
                    line: line as u16,
                    start: start as u8,
                });
                board.first_cell.push(lines.cell_at(line, start) as u16);
                board.step.push(step as u16);
            }
        }
        let windows = board.names.len();
        board.counts = vec![[0; 2]; windows];
        board.fours = [vec![0; windows.div_ceil(64)], vec![0; windows.div_ceil(64)]];
        board.threes = board.fours.clone();
        for cell in 0..cells {
            for (direction, (line, pos)) in lines.lines_of_cell(cell).into_iter().enumerate() {
                let starts = lines.windows_through(pos, lines.line_len(line));
                board.through[cell][direction] =
                    (line_first[line] + starts.start as u32, starts.len() as u8);
            }
        }
        // Every window starts empty: it counts for both sides with no stone.
        for window in 0..windows {
            for side in 0..2 {
                board.recount(window, side, None, Some(0));
            }
        }
        for cell in 0..cells {
            if !lines.is_empty(cell) {
                let (row, col) = (cell / cols, cell % cols);
                let side = usize::from(lines.line(row)[0] >> col & 1 == 0);
                board.place(cell, side);
            }
        }
        debug_assert!((0..lines.line_count()).all(|l| board.lines.line(l) == lines.line(l)));
        board
    }

    /// Moves `window`'s count for `side` from bucket `old` to bucket `new` (`None`: not
    /// counted, the window holding stones of the other side), in the totals, the fours and
    /// threes, and the histogram of each of its cells.
    #[inline]
    fn recount(&mut self, window: usize, side: usize, old: Option<usize>, new: Option<usize>) {
        let k = self.k;
        let mut delta = 0u64;
        if let Some(n) = old {
            self.totals[side][n] -= 1;
            if n + 1 == k {
                clear_bit(&mut self.fours[side], window);
            } else if n + 2 == k {
                clear_bit(&mut self.threes[side], window);
            }
            if n < k {
                delta = delta.wrapping_sub(1 << (8 * n));
            }
        }
        if let Some(n) = new {
            self.totals[side][n] += 1;
            if n + 1 == k {
                set_bit(&mut self.fours[side], window);
            } else if n + 2 == k {
                set_bit(&mut self.threes[side], window);
            }
            if n < k {
                delta = delta.wrapping_add(1 << (8 * n));
            }
        }
        let (first, step) = (self.first_cell[window] as usize, self.step[window] as usize);
        for i in 0..k {
            let lanes = &mut self.histogram[(first + i * step) * 2 + side];
            *lanes = lanes.wrapping_add(delta);
        }
    }

    /// Puts a stone of `side` (0 first player, 1 second) on the empty `cell`.
    pub fn place(&mut self, cell: usize, side: usize) {
        self.lines.place(cell, side);
        let other = 1 - side;
        for (first, n) in self.through[cell] {
            for window in first as usize..first as usize + n as usize {
                let [mine, theirs] = self.stone_counts(window, side);
                self.counts[window][side] += 1;
                if theirs == 0 {
                    self.recount(window, side, Some(mine), Some(mine + 1));
                }
                if mine == 0 {
                    // The other side's window now holds a stone of this side.
                    self.recount(window, other, Some(theirs), None);
                }
            }
        }
    }

    /// Takes the stone of `side` off `cell`.
    pub fn remove(&mut self, cell: usize, side: usize) {
        self.lines.remove(cell, side);
        let other = 1 - side;
        for (first, n) in self.through[cell] {
            for window in first as usize..first as usize + n as usize {
                self.counts[window][side] -= 1;
                let [mine, theirs] = self.stone_counts(window, side);
                if theirs == 0 {
                    self.recount(window, side, Some(mine + 1), Some(mine));
                }
                if mine == 0 {
                    self.recount(window, other, None, Some(theirs));
                }
            }
        }
    }

    /// The stones of `side` and of the other side in `window`.
    #[inline]
    fn stone_counts(&self, window: usize, side: usize) -> [usize; 2] {
        let counts = self.counts[window];
        [counts[side] as usize, counts[1 - side] as usize]
    }

    /// Windows through the cell `cell` with `n < K` stones of `side` and none of the other.
    #[inline]
    pub fn windows_at(&self, cell: usize, side: usize, n: usize) -> u32 {
        (self.histogram[cell * 2 + side] >> (8 * n) & 0xff) as u32
    }

    /// The position's line-major copy.
    #[inline]
    pub(crate) fn lines(&self) -> &LineBoard {
        &self.lines
    }

    /// Number of rows.
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The run length K.
    #[inline]
    pub fn k(&self) -> usize {
        self.k
    }

    /// The [`ThreatScan`] of the position (equal to [`ThreatScan::run`] on its line-major
    /// copy), with `weight_by_missing` as there.
    pub(crate) fn scan<const W: usize>(&self, weight_by_missing: &[i32]) -> ThreatScan<W> {
        let (k, lines) = (self.k, &self.lines);
        let mut scan = ThreatScan::<W>::empty();
        for side in 0..2 {
            scan.window_sum[side] = (1..=k)
                .map(|n| self.totals[side][n] as i64 * weight_by_missing[k - n] as i64)
                .sum();
            // The free cell of each four wins; the free cells of each three make fours.
            for window in bit_cells(&self.fours[side]) {
                for cell in self.free_cells(lines, window, side) {
                    set_bit(&mut scan.wins[side], cell);
                }
            }
            for window in bit_cells(&self.threes[side]) {
                for cell in self.free_cells(lines, window, side) {
                    set_bit(&mut scan.fours[side], cell);
                }
            }
            scan.win_count[side] = scan.wins[side].iter().map(|w| w.count_ones()).sum();
            let makers = scan.fours[side];
            for cell in bit_cells(&makers) {
                if self.makes_double(lines, cell, side) {
                    set_bit(&mut scan.doubles[side], cell);
                    scan.double_count[side] += 1;
                }
            }
            let mut count = 0;
            for window in bit_cells(&self.threes[side]) {
                if count < THREE_CAPACITY {
                    scan.threes[side][count] = self.names[window];
                    count += 1;
                } else {
                    scan.threes_complete[side] = false;
                }
            }
            scan.three_count[side] = count;
        }
        scan
    }

    /// The empty cells of `window`, which holds stones of `side` only (on `lines`).
    fn free_cells<'a>(
        &'a self,
        lines: &LineBoard,
        window: usize,
        side: usize,
    ) -> impl Iterator<Item = usize> + 'a {
        let Window { line, start } = self.names[window];
        let own = lines.line(line as usize)[side] >> start;
        let (first, step) = (self.first_cell[window] as usize, self.step[window] as usize);
        (0..self.k)
            .filter(move |&i| own >> i & 1 == 0)
            .map(move |i| first + i * step)
    }

    /// Whether a stone of `side` on the empty maker cell `cell` makes two or more winning
    /// cells: fours on two lines, or two winning cells on one (the full scan's doubles).
    fn makes_double(&self, lines: &LineBoard, cell: usize, side: usize) -> bool {
        let k = self.k;
        let mut maker_line = None;
        for (direction, &(first, n)) in self.through[cell].iter().enumerate() {
            let makes = (first as usize..first as usize + n as usize)
                .any(|window| self.stone_counts(window, side) == [k - 2, 0]);
            if makes {
                if maker_line.is_some() {
                    return true;
                }
                maker_line = Some(direction);
            }
        }
        let Some(direction) = maker_line else {
            return false;
        };
        let (line, pos) = lines.lines_of_cell(cell)[direction];
        wins_made_on_line(lines, lines.line(line), side, pos, lines.line_len(line)).count_ones()
            >= 2
    }
}

#[inline]
fn clear_bit(bits: &mut [u64], index: usize) {
    bits[index >> 6] &= !(1 << (index & 63));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mnk::Mnk;
    use zerosum_core::conformance::SplitMix;
    use zerosum_core::{Game, Status};

    /// Weights as the evaluator's, distinct per stone count so that a miscount shows.
    const WEIGHTS: [i32; 10] = [0, 1280, 800, 160, 32, 12, 4, 2, 1, 1];

    /// The incremental scan equals the full scan of the same position.
    fn assert_scans_equal<const W: usize>(game: &Mnk<W>, what: &str) {
        let lines = LineBoard::new(game);
        let kept = game.window_board().expect("supported").scan::<W>(&WEIGHTS);
        let full = ThreatScan::<W>::run(&lines, &WEIGHTS);
        assert_eq!(kept.window_sum, full.window_sum, "{what}: window sums");
        assert_eq!(kept.wins, full.wins, "{what}: winning cells");
        assert_eq!(kept.win_count, full.win_count, "{what}");
        assert_eq!(kept.fours, full.fours, "{what}: makers");
        assert_eq!(kept.doubles, full.doubles, "{what}: doubles");
        assert_eq!(kept.double_count, full.double_count, "{what}");
        assert_eq!(kept.three_count, full.three_count, "{what}: threes");
        assert_eq!(kept.threes_complete, full.threes_complete, "{what}");
        for side in 0..2 {
            let count = full.three_count[side];
            assert_eq!(
                kept.threes[side][..count],
                full.threes[side][..count],
                "{what}: threes in scan order"
            );
        }
    }

    /// The counts kept through play and undo equal those built from the stones.
    fn assert_counts_equal<const W: usize>(game: &Mnk<W>, what: &str) {
        let kept = game.window_board().expect("supported");
        let built = WindowBoard::new(LineBoard::new(game));
        for line in 0..lines_count(game) {
            assert_eq!(
                kept.lines.line(line),
                built.lines.line(line),
                "{what}: line {line}"
            );
        }
        assert_eq!(kept.counts, built.counts, "{what}: window stones");
        assert_eq!(kept.histogram, built.histogram, "{what}: histogram");
        assert_eq!(kept.totals, built.totals, "{what}: totals");
        assert_eq!(kept.fours, built.fours, "{what}: fours");
        assert_eq!(kept.threes, built.threes, "{what}: threes");
    }

    fn lines_count<const W: usize>(game: &Mnk<W>) -> usize {
        LineBoard::new(game).line_count()
    }

    /// Random games (biased towards the stones already played, so that threats form) on
    /// boards of several sizes and K, played forward and taken back: after every move and
    /// every undo the kept counts equal recomputed ones and the scan the full scan.
    fn random_games<const W: usize>(rows: usize, cols: usize, k: usize, seed: u64) {
        let mut rng = SplitMix::new(seed);
        let mut moves = Vec::new();
        for game_index in 0..12 {
            let mut game = Mnk::<W>::new(rows, cols, k);
            game.window_board();
            let plies = rng.below(rows * cols * 3 / 4 + 1);
            while game.ply() < plies && game.status() == Status::Ongoing {
                game.legal_moves(&mut moves);
                let near: Vec<u16> = moves
                    .iter()
                    .copied()
                    .filter(|&mv| {
                        let (row, col) = game.row_col(mv);
                        game.history().iter().any(|&played| {
                            let (r, c) = game.row_col(played);
                            r.abs_diff(row) <= 1 && c.abs_diff(col) <= 1
                        })
                    })
                    .collect();
                let pool = if near.is_empty() || rng.below(5) == 0 {
                    &moves
                } else {
                    &near
                };
                game.play(pool[rng.below(pool.len())]);
                let what = format!("{rows}x{cols}x{k} game {game_index} ply {}", game.ply());
                assert_counts_equal(&game, &what);
                assert_scans_equal(&game, &what);
            }
            while game.ply() > 0 {
                game.undo();
                let what = format!(
                    "{rows}x{cols}x{k} game {game_index} undone to {}",
                    game.ply()
                );
                assert_counts_equal(&game, &what);
                assert_scans_equal(&game, &what);
            }
        }
    }

    #[test]
    fn incremental_counts_and_scans_equal_recomputed_ones_over_random_games() {
        random_games::<4>(15, 15, 5, 0x51);
        random_games::<1>(3, 3, 3, 0x52);
        random_games::<2>(9, 13, 4, 0x53);
        random_games::<1>(7, 5, 6, 0x54);
        random_games::<16>(20, 30, 8, 0x55);
    }

    #[test]
    fn only_small_k_on_boards_up_to_the_limit_are_kept() {
        assert!(WindowBoard::supports(225, 5));
        assert!(!WindowBoard::supports(225, 2));
        assert!(!WindowBoard::supports(225, MAX_K + 1));
        assert!(!WindowBoard::supports(MAX_CELLS + 1, 5));
        assert!(Mnk::<40>::new(50, 50, 5).window_board().is_none());
        assert!(Mnk::<1>::new(4, 4, 2).window_board().is_none());
    }
}
