//! The m,n,k evaluator: threat-aware window counting, immediate win and forced-block move
//! filtering, candidate cells near the stones on large boards, and a bounded search for
//! victory by continuous fours at the leaves.
//!
//! # Evaluation, from the side to move ("me")
//!
//! 1. I have a winning cell: [`WIN_NEXT`].
//! 2. The opponent has two or more winning cells: I can block only one, [`-LOSS_NEXT`].
//! 3. I win by continuous fours ([`super::vcf`]) within the budget: [`VCF_WIN`] less the
//!    length of the line (when the opponent has one winning cell, my first four must block
//!    it). Making an open four or two fours at once is the one-move case.
//! 4. The opponent has one winning cell: my move is forced; the evaluation is that of the
//!    position after my block, seen from the opponent (up to a few such blocks in a row).
//! 5. Otherwise the static value: the weighted count of each side's open windows (windows of
//!    K cells holding stones of one side only, weighted by how many stones they lack; mine
//!    count a little more, as I move first), less a term for the opponent's open threes
//!    (cells where it would make an open four or two fours), and under `windows-ovcf` less a
//!    term when the opponent would win by continuous fours if it were to move.
//!
//! Values 1 to 3 are "near-win" evaluations: far above any static value but below
//! `Score::MAX_EVAL`, never decisive scores; the search proves them.
//!
//! # Moves
//!
//! [`Evaluator::candidate_moves`], in order of precedence:
//!
//! 1. my winning cells, if I have any;
//! 2. else the cells blocking the opponent's winning cells (all of them, even when two
//!    threats mean the game is lost);
//! 3. else, if the opponent has an open three (a cell making two winning cells at once):
//!    the moves that answer it, and only those, sorted by hint: a cell on every such threat
//!    (the threat cell itself or a free cell of a three through it) or a cell making a four
//!    of mine. Every other move loses (the opponent makes two winning cells, I block one), so
//!    this pruning is exact; it is skipped if the scan's list of threes overflowed;
//! 4. else every empty cell on boards of at most [`SMALL_BOARD_CELLS`] cells, so that search
//!    stays exact on tic-tac-toe and the like;
//! 5. else the empty cells within Chebyshev distance 2 of a stone (the centre on an empty
//!    board), sorted by hint, keeping the 12 best and those tied with the 12th; with pattern
//!    candidates ([`MnkEvaluator::with_pattern_candidates`], the freestyle default on K = 5
//!    boards), the `n` best by hint instead (and ties), followed by those of the `n` best by
//!    the pattern score (`pattern_eval`) that are not among them.
//!
//! [`Evaluator::move_hint`] rates a cell by the windows of K cells through it: for each that
//! holds none of the opponent's stones, the weight it would have with my stone (attack); for
//! each holding only the opponent's stones, its weight (defence, counted 7/8); winning cells
//! and blocks first; ties towards the centre.

use std::sync::Arc;

use zerosum_core::{Evaluator, Game};

use super::lines::{low_bits, LineBoard};
use super::pattern_eval::{self, PatternTuning};
use super::pattern_follower;
use super::pattern_weights::PatternWeights;
use super::ranking;
use super::threats::{bit_cells, ThreatScan};
use super::values::{LOSS_NEXT, STATIC_LIMIT, VCF_WIN, WIN_NEXT};
use super::vcf::VcfSearch;
use super::vct::VctSearch;
use super::window_board::WindowBoard;
use super::{has, Mnk, Rule};
use crate::{EvaluatedGame, GameSpec};

/// Boards of at most this many cells search every empty cell.
pub const SMALL_BOARD_CELLS: usize = 64;
/// Longest candidate list sorted by hint.
const SORT_CAPACITY: usize = 2048;

/// Window weights are summed in units of 1/`WEIGHT_SCALE` of an evaluation unit.
const WEIGHT_SCALE: i64 = 16;
/// Weight of a window lacking 1, 2, 3, ... stones (index 0 unused), in 1/16 units; a window
/// lacking more stones than listed weighs 1.
const WEIGHT_BY_MISSING: [i32; 8] = [0, 1280, 800, 160, 32, 12, 4, 2];
/// The side to move's windows count `TEMPO_NUMERATOR / TEMPO_DENOMINATOR` times.
const TEMPO_NUMERATOR: i64 = 9;
const TEMPO_DENOMINATOR: i64 = 8;
/// Penalty per opponent cell that makes an open four or two fours (at most
/// [`MAX_COUNTED_DOUBLES`] counted).
const OPPONENT_DOUBLE_PENALTY: i32 = 90;
/// Penalty for an opponent that wins by continuous fours if it moves
/// ([`MnkEvaluator::with_opponent_vcf`]).
const OPPONENT_VCF_PENALTY: i32 = 150;
const MAX_COUNTED_DOUBLES: u32 = 4;
/// Late move reductions: the candidates searched to full depth first, the fewest candidates
/// of a node that reduces, and the hint from which a move is not quiet (about two windows it
/// makes or stops lacking two stones: a three or a four).
const FULL_DEPTH_MOVES: usize = 3;
/// With the two orders' candidates ([`MnkEvaluator::with_pattern_candidates`]), the
/// candidates searched to full depth first, in the search's order (the table's move and the
/// killers, then the candidates); the quiet ones after them are reduced.
const UNION_FULL_DEPTH_MOVES: usize = 6;
const REDUCED_NODE_MOVES: usize = 6;
const QUIET_HINT: i32 = 1600;
/// The selective search ([`MnkEvaluator::with_selective_search`]): quiet moves are reduced
/// from this depth above the horizon (two plies), and by four plies from
/// [`DEEP_REDUCTION_DEPTH`] on for the candidates from rank [`DEEP_REDUCTION_RANK`] on.
const SELECTIVE_REDUCTION_DEPTH: usize = 3;
const DEEP_REDUCTION_DEPTH: usize = 8;
const DEEP_REDUCTION_RANK: usize = 6;
/// The selective search's late move pruning: at a node `d` plies above the horizon (`d` 1 or
/// 2), the quiet candidates from rank `PRUNED_FROM_RANK[d]` on are not searched.
const PRUNED_FROM_RANK: [usize; 3] = [usize::MAX, 5, 8];
/// The selective search's share of the aimed time after which no iteration starts.
const SELECTIVE_DEEPENING_SHARE: f64 = 0.6;
/// With the two orders' candidates, iterations start until the aimed time itself: the last
/// best move is searched first and a partial iteration's answer counts, while the time a
/// move leaves unspent under a per-move limit is lost (and a clock's share is the move's).
const UNION_DEEPENING_SHARE: f64 = 1.0;
/// The selective search's quiet moves are hinted below this (three quarters of
/// [`QUIET_HINT`]; a window the move makes lack two stones hints 800, one of the opponent's
/// lacking two that it stops 700, one it makes lack three 160): a quiet move makes or stops
/// at most one window lacking two stones, with little else (the moves that build two twos at
/// once, the seeds of double threes, are not quiet).
const SELECTIVE_QUIET_HINT: i32 = 1200;
/// Root threat analysis ([`Evaluator::root_move_loses`]): positions scanned by the opponent's
/// VCT search after a root move (about 1.3 microseconds each on the shared machine), and the
/// most threat moves of one line.
const ROOT_DEFENCE_SCANS: u32 = 20_000;
const ROOT_MAX_THREATS: usize = 10;
/// Move hints: a winning cell, a block of the opponent's winning cell.
const HINT_WIN: i32 = 1 << 24;
const HINT_BLOCK: i32 = 1 << 23;

thread_local! {
    /// The pattern order of [`MnkEvaluator::with_pattern_candidates`], a buffer per thread so
    /// that choosing candidates allocates nothing once warm.
    static PATTERN_ORDER: std::cell::RefCell<Vec<u16>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The m,n,k evaluator (see the module documentation). Holds only tuning parameters: one
/// evaluator serves every board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MnkEvaluator {
    /// Window weight by missing stones (index 1..=99), in 1/16 units.
    weight_by_missing: [i32; 100],
    /// Most fours tried by one VCF search (0 disables it).
    vcf_budget: u32,
    /// Most fours in one VCF line.
    vcf_max_fours: usize,
    /// Most forced blocks followed in a row before the static value.
    forced_blocks: usize,
    /// Candidate cells on large boards lie within this Chebyshev distance of a stone.
    near_distance: usize,
    /// Whether candidates on large boards come sorted by hint.
    order_candidates: bool,
    /// When sorted, the best this many quiet candidates are kept, with those tied with the
    /// last (0: all).
    max_candidates: usize,
    /// The weights of the pattern evaluation on K = 5 boards, when it is chosen (`None`: the
    /// window evaluation).
    patterns: Option<Arc<PatternWeights>>,
    /// Whether quiet nodes of large boards search their late candidates shallower first
    /// ([`Evaluator::late_move_reduction`]).
    reductions: bool,
    /// Whether root moves on a large board are checked by a threat-space search
    /// ([`Evaluator::root_move_loses`]).
    root_threats: bool,
    /// Whether the static value of a large board looks for the opponent's victory by
    /// continuous fours too ([`OPPONENT_VCF_PENALTY`]).
    opponent_vcf: bool,
    /// Whether the search of a large board is selective
    /// ([`MnkEvaluator::with_selective_search`]).
    selective: bool,
    /// The quiet candidates of a large K = 5 board taken from each of the two orders, by hint
    /// and by the pattern score of these weights ([`MnkEvaluator::with_pattern_candidates`]).
    pattern_candidates: Option<(usize, Arc<PatternWeights>)>,
}

impl Default for MnkEvaluator {
    fn default() -> Self {
        Self::new()
    }
}

impl MnkEvaluator {
    /// The evaluator with its default tuning: VCF searches of up to 64 tried fours and 12
    /// fours per line, up to 2 forced blocks followed, on large boards the 12 best-hinted
    /// candidates (and ties) within distance 2 of a stone.
    pub fn new() -> Self {
        let mut weight_by_missing = [1; 100];
        weight_by_missing[..WEIGHT_BY_MISSING.len()].copy_from_slice(&WEIGHT_BY_MISSING);
        MnkEvaluator {
            weight_by_missing,
            vcf_budget: 64,
            vcf_max_fours: 12,
            forced_blocks: 2,
            near_distance: 2,
            order_candidates: true,
            max_candidates: 12,
            patterns: None,
            reductions: false,
            root_threats: false,
            opponent_vcf: false,
            selective: false,
            pattern_candidates: None,
        }
    }

    /// The same evaluator choosing the quiet candidates of large K = 5 boards from two orders
    /// (`Some((n, weights))`) or from the window hint alone (`None`, the default of
    /// [`MnkEvaluator::new`]): the `n` best by [`Evaluator::move_hint`] (and those tied with
    /// the last), in that order, then those of the `n` best by the pattern score of `weights`
    /// (`pattern_eval`: a cell's weight for the side to move plus 7/8 of its weight for the
    /// opponent) not among them, in that order. The two orders disagree often enough that
    /// their union holds a strong player's move more often than the window order's longer head
    /// (docs/strength.md). For the window evaluation only (the pattern evaluation orders by
    /// its own weights); `n` must be at least 1. With them, a quiet node of a large board
    /// (more than [`REDUCED_NODE_MOVES`] candidates) searches its quiet candidates (hinted
    /// below [`QUIET_HINT`]) from the [`UNION_FULL_DEPTH_MOVES`]th on two plies less first
    /// when it is at least 4 plies above the horizon, as [`MnkEvaluator::with_late_move_reductions`]
    /// does from the [`FULL_DEPTH_MOVES`]th.
    pub fn with_pattern_candidates(mut self, choice: Option<(usize, PatternWeights)>) -> Self {
        self.pattern_candidates = choice.map(|(count, weights)| {
            assert!(count > 0, "pattern candidates need a count of at least 1");
            (count, Arc::new(weights))
        });
        self
    }

    /// The same evaluator with a selective search of large boards (`true`) or not (the
    /// default), for the window evaluation: at a quiet node (more than
    /// [`REDUCED_NODE_MOVES`] candidates), from the [`FULL_DEPTH_MOVES`]th candidate on, a
    /// quiet move (hinted below [`SELECTIVE_QUIET_HINT`]) is searched two plies less first from
    /// [`SELECTIVE_REDUCTION_DEPTH`] plies above the horizon on, four from
    /// [`DEEP_REDUCTION_DEPTH`] on when it ranks [`DEEP_REDUCTION_RANK`]th or later (even
    /// reductions keep the horizon on the same side's move); one or two plies above the
    /// horizon the quiet moves from rank [`PRUNED_FROM_RANK`] on are not searched at all; and
    /// a timed search starts iterations until [`SELECTIVE_DEEPENING_SHARE`] of its time, not
    /// half.
    pub fn with_selective_search(mut self, on: bool) -> Self {
        self.selective = on;
        self
    }

    /// Whether the search's late move hooks apply to `game`: the window evaluation of a
    /// large board, at a node of more than [`REDUCED_NODE_MOVES`] candidates (a quiet node:
    /// answers to threats are fewer).
    fn selects_late_moves<const W: usize>(&self, game: &Mnk<W>, count: usize) -> bool {
        self.is_large_window_board(game) && count > REDUCED_NODE_MOVES
    }

    /// Whether `game` is a large board (more than [`SMALL_BOARD_CELLS`] cells) under the
    /// window evaluation (not the pattern evaluation).
    fn is_large_window_board<const W: usize>(&self, game: &Mnk<W>) -> bool {
        self.pattern_setup(game).is_none() && game.cells > SMALL_BOARD_CELLS
    }

    /// Whether `game` takes its candidates from the two orders
    /// ([`MnkEvaluator::with_pattern_candidates`]; K = 5, a large board, ordered candidates).
    fn orders_two_ways<const W: usize>(&self, game: &Mnk<W>) -> bool {
        self.pattern_candidates.is_some()
            && self.order_candidates
            && game.k() == 5
            && self.is_large_window_board(game)
    }

    /// The same evaluator with the root moves of a search on a large board checked by a
    /// threat-space search (`true`) or not (the default): a root move after which the opponent
    /// wins by continuous threats (fours and open threes), found within
    /// [`ROOT_DEFENCE_SCANS`] scanned positions, is lost ([`Evaluator::root_move_loses`]).
    pub fn with_root_threats(mut self, on: bool) -> Self {
        self.root_threats = on;
        self
    }

    /// The same evaluator with the opponent's victory by continuous fours looked for at the
    /// leaves of large boards (`true`) or not (the default): where the side to move has no
    /// threat of its own to play and the opponent no winning cell, an opponent that would win
    /// by fours if it moved costs the static value [`OPPONENT_VCF_PENALTY`] (a threat the side
    /// to move must answer, not a loss: it moves first).
    pub fn with_opponent_vcf(mut self, on: bool) -> Self {
        self.opponent_vcf = on;
        self
    }

    /// The same evaluator with late move reductions (`true`) or without (the default), for
    /// the window evaluation: at a node of a large board with more than
    /// [`REDUCED_NODE_MOVES`] candidates (a quiet node: answers to threats are fewer), from the
    /// [`FULL_DEPTH_MOVES`]th candidate on, a quiet move (hinted below [`QUIET_HINT`]: it
    /// neither makes nor stops a three or a four) is searched two plies less first when the
    /// node is at least 4 plies above the horizon.
    pub fn with_late_move_reductions(mut self, on: bool) -> Self {
        self.reductions = on;
        self
    }

    /// The same evaluator evaluating K = 5 boards by pattern codes with `weights` (see
    /// `pattern_eval`), or by windows (`None`, the default under freestyle). Other K are
    /// always evaluated by windows.
    pub fn with_patterns(mut self, weights: Option<PatternWeights>) -> Self {
        self.patterns = weights.map(Arc::new);
        self
    }

    /// The pattern weights and tuning, if this evaluator evaluates `game` by patterns.
    fn pattern_setup<const W: usize>(
        &self,
        game: &Mnk<W>,
    ) -> Option<(&PatternWeights, PatternTuning)> {
        let weights = self.patterns.as_deref()?;
        (game.k() == 5).then_some((
            weights,
            PatternTuning {
                vcf_budget: self.vcf_budget,
                vcf_max_fours: self.vcf_max_fours,
                near_distance: self.near_distance,
                max_candidates: if self.order_candidates {
                    self.max_candidates
                } else {
                    0
                },
                all_cells: game.cells <= SMALL_BOARD_CELLS,
            },
        ))
    }

    /// The same evaluator with a VCF search of at most `budget` tried fours per evaluation
    /// (0 turns it off).
    pub fn with_vcf_budget(mut self, budget: u32) -> Self {
        self.vcf_budget = budget;
        self
    }

    /// The same evaluator with candidates within Chebyshev distance `distance` (at least 1)
    /// of a stone on large boards.
    pub fn with_near_distance(mut self, distance: usize) -> Self {
        self.near_distance = distance.max(1);
        self
    }

    /// The same evaluator with candidates on large boards sorted by hint (`true`, the
    /// default) or in cell order.
    pub fn with_candidate_ordering(mut self, ordered: bool) -> Self {
        self.order_candidates = ordered;
        self
    }

    /// The same evaluator keeping the `count` best-hinted quiet candidates on large boards,
    /// and those tied with the last of them (0 keeps them all).
    pub fn with_max_candidates(mut self, count: usize) -> Self {
        self.max_candidates = count;
        self
    }

    /// The static part of the evaluation from `side`'s point of view as if `side` were not to
    /// move: the window balance and threat terms without the tempo factor. It is exactly
    /// antisymmetric: `balance(game, s) == -balance(game, !s)`.
    pub fn balance<const W: usize>(&self, game: &Mnk<W>, side: zerosum_core::Side) -> i32 {
        let board = LineBoard::new(game);
        let scan = ThreatScan::<W>::run(&board, &self.weight_by_missing);
        let (me, opp) = (side.index(), 1 - side.index());
        let windows = (scan.window_sum[me] - scan.window_sum[opp]) / WEIGHT_SCALE;
        let threats = OPPONENT_DOUBLE_PENALTY
            * (scan.double_count[me].min(MAX_COUNTED_DOUBLES) as i32
                - scan.double_count[opp].min(MAX_COUNTED_DOUBLES) as i32);
        (windows as i32 + threats).clamp(-STATIC_LIMIT, STATIC_LIMIT)
    }

    /// The evaluation of `board` for `me` to move (steps 1 to 5 of the module documentation),
    /// following at most `forced_left` forced blocks; `scan` is the board's threat scan if
    /// known. The board is left as it was.
    fn evaluate_lines<const W: usize>(
        &self,
        board: &mut LineBoard,
        scan: Option<ThreatScan<W>>,
        me: usize,
        forced_left: usize,
    ) -> i32 {
        let opp = 1 - me;
        let scan = scan.unwrap_or_else(|| ThreatScan::<W>::run(board, &self.weight_by_missing));
        if scan.win_count[me] > 0 {
            return WIN_NEXT;
        }
        if scan.win_count[opp] >= 2 {
            return -LOSS_NEXT;
        }
        if scan.win_count[opp] == 0 && scan.double_count[me] > 0 {
            // An open four or two fours now: the opponent blocks one, I complete the other.
            return VCF_WIN - 30;
        }
        if self.vcf_budget > 0 {
            let mut search = VcfSearch::new(
                board,
                me,
                &scan.threes[me][..scan.three_count[me]],
                bit_cells(&scan.wins[opp]),
                self.vcf_budget,
                self.vcf_max_fours,
            );
            if let Some(plies) = search.run() {
                return VCF_WIN - 10 * plies as i32;
            }
        }
        if scan.win_count[opp] == 1 && forced_left > 0 {
            let block = bit_cells(&scan.wins[opp]).next().expect("one winning cell");
            board.place(block, me);
            let value = -self.evaluate_lines::<W>(board, None, opp, forced_left - 1);
            board.remove(block, me);
            return value;
        }
        let windows = (scan.window_sum[me] * TEMPO_NUMERATOR / TEMPO_DENOMINATOR
            - scan.window_sum[opp])
            / WEIGHT_SCALE;
        let mut threats =
            -OPPONENT_DOUBLE_PENALTY * scan.double_count[opp].min(MAX_COUNTED_DOUBLES) as i32;
        let large = board.rows * board.cols > SMALL_BOARD_CELLS;
        if self.opponent_vcf && large && self.vcf_budget > 0 && scan.win_count[opp] == 0 {
            let mut search = VcfSearch::new(
                board,
                opp,
                &scan.threes[opp][..scan.three_count[opp]],
                bit_cells(&scan.wins[me]),
                self.vcf_budget,
                self.vcf_max_fours,
            );
            if search.run().is_some() {
                threats -= OPPONENT_VCF_PENALTY;
            }
        }
        (windows as i32 + threats).clamp(-STATIC_LIMIT, STATIC_LIMIT)
    }

    /// Puts the moves of `moves` with the best [`Evaluator::move_hint`] at its front, in
    /// decreasing order of hint (ties in cell order), so that search tries the best first
    /// even where it asks no hint (nodes of depth 1), and returns how many to keep: the best
    /// `keep` and every move hinted as high as the last of them (so that the kept set does
    /// not depend on the board's orientation), or all (`keep` 0, then all are sorted). The
    /// moves after those kept are left in no order. Lists longer than [`SORT_CAPACITY`] keep
    /// their order and length. The hints come from `windows` when the position keeps its
    /// window counts.
    fn sort_by_hint(
        &self,
        board: &LineBoard,
        windows: Option<&WindowBoard>,
        me: usize,
        moves: &mut [u16],
        keep: usize,
    ) -> usize {
        if moves.len() > SORT_CAPACITY {
            return moves.len();
        }
        ranking::with_keyed(|keyed| {
            keyed.extend(moves.iter().map(|&mv| {
                let hint = match windows {
                    Some(windows) => self.hint_from_windows(windows, mv as usize, me, board.cols),
                    None => self.hint_on_lines(board, mv as usize, me),
                };
                (-hint, mv)
            }));
            let kept = ranking::keep_best(keyed, keep);
            for (mv, &(_, best)) in moves.iter_mut().zip(&keyed[..kept]) {
                *mv = best;
            }
            kept
        })
    }

    /// Adds to `hint` the window of K cells whose stones are `own` (mine) and `other`.
    #[inline]
    fn add_window_hint(&self, hint: &mut Hint, own: u128, other: u128, k: usize) {
        let (own_count, other_count) = (own.count_ones() as usize, other.count_ones() as usize);
        if other_count == 0 {
            hint.attack += if own_count + 1 == k {
                HINT_WIN
            } else {
                self.weight_by_missing[k - own_count - 1]
            } as i64;
        } else if own_count == 0 {
            hint.defence += if other_count + 1 == k {
                HINT_BLOCK
            } else {
                self.weight_by_missing[k - other_count]
            } as i64;
        }
    }

    /// [`Evaluator::move_hint`] of the empty `cell` for `me`, computed on the lines of
    /// `board` (the same value, faster when many cells are rated).
    fn hint_on_lines(&self, board: &LineBoard, cell: usize, me: usize) -> i32 {
        let window = low_bits(board.k);
        let mut hint = Hint::default();
        for (line, pos) in board.lines_of_cell(cell) {
            let stones = board.line(line);
            for start in board.windows_through(pos, board.line_len(line)) {
                let mask = window << start;
                self.add_window_hint(&mut hint, stones[me] & mask, stones[1 - me] & mask, board.k);
            }
        }
        let (row, col) = (cell / board.cols, cell % board.cols);
        hint.value(row, col, board.rows, board.cols)
    }

    /// [`Evaluator::move_hint`] of the empty `cell` for `me`, from the window counts of the
    /// position (`cols` columns): the same sums, by stone count instead of window by window.
    fn hint_from_windows(&self, windows: &WindowBoard, cell: usize, me: usize, cols: usize) -> i32 {
        let k = windows.k();
        let mut hint = Hint::default();
        for n in 0..k {
            let attack = if n + 1 == k {
                HINT_WIN
            } else {
                self.weight_by_missing[k - n - 1]
            };
            hint.attack += windows.windows_at(cell, me, n) as i64 * attack as i64;
        }
        for n in 1..k {
            let defence = if n + 1 == k {
                HINT_BLOCK
            } else {
                self.weight_by_missing[k - n]
            };
            hint.defence += windows.windows_at(cell, 1 - me, n) as i64 * defence as i64;
        }
        let rows = windows.rows();
        hint.value(cell / cols, cell % cols, rows, cols)
    }
}

impl<const W: usize> Evaluator<Mnk<W>> for MnkEvaluator {
    fn evaluate(&self, game: &Mnk<W>) -> i32 {
        if let Some((weights, tuning)) = self.pattern_setup(game) {
            let board = game.patterns().expect("K = 5");
            return pattern_eval::evaluate(board, game.to_move().index(), weights, &tuning);
        }
        let me = game.to_move().index();
        match game.window_board() {
            Some(windows) => {
                let scan = windows.scan(&self.weight_by_missing);
                let mut board = windows.lines().clone();
                self.evaluate_lines::<W>(&mut board, Some(scan), me, self.forced_blocks)
            }
            None => {
                let mut board = LineBoard::new(game);
                self.evaluate_lines::<W>(&mut board, None, me, self.forced_blocks)
            }
        }
    }

    /// The moves of the module documentation's list, never empty while the game goes on.
    fn candidate_moves(&self, game: &Mnk<W>, moves: &mut Vec<u16>) {
        moves.clear();
        if game.status().is_over() {
            return;
        }
        if let Some((weights, tuning)) = self.pattern_setup(game) {
            let board = game.patterns().expect("K = 5");
            pattern_eval::candidate_moves(board, game.to_move().index(), weights, &tuning, moves);
            return;
        }
        let (me, opp) = (game.to_move().index(), 1 - game.to_move().index());
        let windows = game.window_board();
        let built;
        let (board, scan) = match windows {
            Some(windows) => (windows.lines(), windows.scan(&self.weight_by_missing)),
            None => {
                built = LineBoard::new(game);
                (
                    &built,
                    ThreatScan::<W>::run(&built, &self.weight_by_missing),
                )
            }
        };
        for side in [me, opp] {
            moves.extend(bit_cells(&scan.wins[side]).map(|cell| cell as u16));
            if !moves.is_empty() {
                return;
            }
        }
        if let Some(mut answers) = (scan.double_count[opp] > 0)
            .then(|| scan.double_answers(board, opp))
            .flatten()
        {
            // Every other move loses: the opponent makes two winning cells, I block one.
            for (answer, four) in answers.iter_mut().zip(scan.fours[me]) {
                *answer |= four;
            }
            moves.extend(bit_cells(&answers).map(|cell| cell as u16));
            if !moves.is_empty() {
                if self.order_candidates {
                    // Sorted, never cut: every answer is kept.
                    self.sort_by_hint(board, windows, me, moves, 0);
                }
                return;
            }
        }
        if game.cells <= SMALL_BOARD_CELLS {
            game.legal_moves(moves);
            return;
        }
        near_cells(board, self.near_distance, moves);
        if moves.is_empty() {
            moves.push(game.cell(game.rows() / 2, game.cols() / 2));
        }
        if !self.order_candidates {
            return;
        }
        match self.pattern_candidates.as_ref().filter(|_| game.k() == 5) {
            None => {
                let kept = self.sort_by_hint(board, windows, me, moves, self.max_candidates);
                moves.truncate(kept);
            }
            Some((count, weights)) => PATTERN_ORDER.with(|order| {
                let mut order = order.borrow_mut();
                order.clear();
                pattern_follower::with_patterns(game, |patterns| {
                    if !pattern_eval::forcing_moves(patterns, me, weights, &mut order) {
                        // The same near cells, ranked by pattern score.
                        order.extend_from_slice(moves);
                        pattern_eval::keep_best_by_score(patterns, me, weights, &mut order, *count);
                    }
                });
                let by_hint = self.sort_by_hint(board, windows, me, moves, *count);
                moves.truncate(by_hint);
                for &mv in order.iter() {
                    if !moves[..by_hint].contains(&mv) {
                        moves.push(mv);
                    }
                }
            }),
        }
    }

    /// With root threats on (window evaluation, large boards): whether the opponent wins by
    /// continuous threats after `mv`, found within [`ROOT_DEFENCE_SCANS`] scanned positions.
    fn root_move_loses(&self, game: &Mnk<W>, mv: u16) -> bool {
        if !self.root_threats
            || self.pattern_setup(game).is_some()
            || game.cells <= SMALL_BOARD_CELLS
            || game.status().is_over()
        {
            return false;
        }
        let me = game.to_move().index();
        let mut board = LineBoard::new(game);
        board.place(mv as usize, me);
        let mut defence = VctSearch::<W>::new(
            &mut board,
            1 - me,
            &self.weight_by_missing,
            ROOT_DEFENCE_SCANS,
        );
        defence.run(ROOT_MAX_THREATS)
    }

    fn late_move_reduction(
        &self,
        game: &Mnk<W>,
        mv: u16,
        depth: usize,
        rank: usize,
        count: usize,
    ) -> usize {
        let (from_rank, from_depth, quiet_hint) = if self.selective {
            (
                FULL_DEPTH_MOVES,
                SELECTIVE_REDUCTION_DEPTH,
                SELECTIVE_QUIET_HINT,
            )
        } else if self.reductions {
            (FULL_DEPTH_MOVES, 4, QUIET_HINT)
        } else if self.pattern_candidates.is_some() && game.k() == 5 {
            (UNION_FULL_DEPTH_MOVES, 4, QUIET_HINT)
        } else {
            return 0;
        };
        let reduces = self.selects_late_moves(game, count)
            && rank >= from_rank
            && depth >= from_depth
            && self.move_hint(game, mv) < quiet_hint;
        // Two plies, not one: the horizon stays on the same side's move (the evaluation
        // favours the side to move, and reductions by one ply fail high again and again).
        if !reduces {
            0
        } else if self.selective && depth >= DEEP_REDUCTION_DEPTH && rank >= DEEP_REDUCTION_RANK {
            4
        } else {
            2
        }
    }

    /// Under the selective search: the quiet late candidates one or two plies above the
    /// horizon ([`PRUNED_FROM_RANK`]).
    fn late_move_pruned(
        &self,
        game: &Mnk<W>,
        mv: u16,
        depth: usize,
        rank: usize,
        count: usize,
    ) -> bool {
        self.selective
            && depth < PRUNED_FROM_RANK.len()
            && rank >= PRUNED_FROM_RANK[depth]
            && self.selects_late_moves(game, count)
            && self.move_hint(game, mv) < SELECTIVE_QUIET_HINT
    }

    /// [`SELECTIVE_DEEPENING_SHARE`] under the selective search of a large board,
    /// [`UNION_DEEPENING_SHARE`] with the two orders' candidates there, else half.
    fn deepening_share(&self, game: &Mnk<W>) -> f64 {
        if self.selective && self.is_large_window_board(game) {
            SELECTIVE_DEEPENING_SHARE
        } else if self.orders_two_ways(game) {
            UNION_DEEPENING_SHARE
        } else {
            0.5
        }
    }

    /// Not with the two orders' candidates: the lists come sorted by the window hint (where
    /// the search asks for no hint, one ply above the horizon, too) and the history of
    /// cutoffs per cell, added to it, orders them worse (more nodes to the same depth).
    fn orders_by_history(&self, game: &Mnk<W>) -> bool {
        !self.orders_two_ways(game)
    }

    /// For every window of K cells through `mv` on the four lines: if it holds none of the
    /// opponent's stones, the weight it would have with my stone (attack); if it holds none
    /// of mine, the weight of the opponent's stones there (defence, a little less). Winning
    /// cells and blocks of the opponent's winning cells come first; ties go to the centre.
    fn move_hint(&self, game: &Mnk<W>, mv: u16) -> i32 {
        if let Some((weights, _)) = self.pattern_setup(game) {
            let board = game.patterns().expect("K = 5");
            return pattern_eval::score(board, mv as usize, game.to_move().index(), weights);
        }
        let me = game.to_move().index();
        if let Some(windows) = game.window_board() {
            return self.hint_from_windows(windows, mv as usize, me, game.cols());
        }
        let k = game.k();
        let (rows, cols) = (game.rows() as isize, game.cols() as isize);
        let (row, col) = game.row_col(mv);
        let (mine, theirs) = (&game.stones[me], &game.stones[1 - me]);
        let mut hint = Hint::default();
        for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
            // Bit i of these masks is the cell (i - (k - 1)) steps from mv along the line.
            let (mut own, mut other, mut on_board) = (0u128, 0u128, 0u128);
            for i in 0..2 * k - 1 {
                let step = i as isize - (k as isize - 1);
                let (r, c) = (row as isize + dr * step, col as isize + dc * step);
                if r < 0 || r >= rows || c < 0 || c >= cols {
                    continue;
                }
                on_board |= 1 << i;
                let cell = (r * cols + c) as usize;
                if has(mine, cell) {
                    own |= 1 << i;
                } else if has(theirs, cell) {
                    other |= 1 << i;
                }
            }
            for start in 0..k {
                let mask = low_bits(k) << start;
                if on_board & mask == mask {
                    self.add_window_hint(&mut hint, own & mask, other & mask, k);
                }
            }
        }
        hint.value(row, col, game.rows(), game.cols())
    }
}

/// The two sums of a move hint.
#[derive(Default)]
struct Hint {
    attack: i64,
    defence: i64,
}

impl Hint {
    /// Attack plus 7/8 of defence, less the cell's distance from the centre (in half cells).
    fn value(&self, row: usize, col: usize, rows: usize, cols: usize) -> i32 {
        let centre_distance = (2 * row as i64 - (rows as i64 - 1))
            .abs()
            .max((2 * col as i64 - (cols as i64 - 1)).abs());
        (self.attack + self.defence * 7 / 8 - centre_distance)
            .clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }
}

/// Appends the empty cells within Chebyshev distance `distance` of a stone, in cell order.
fn near_cells(board: &LineBoard, distance: usize, moves: &mut Vec<u16>) {
    let (rows, cols) = (board.rows, board.cols);
    let row_mask = low_bits(cols);
    // Per row: the cells within `distance` of a stone on the same row.
    let mut widened = [0u128; 100];
    for (row, wide) in widened.iter_mut().enumerate().take(rows) {
        let [a, b] = board.line(row);
        let occupied = a | b;
        let mut spread = occupied;
        for shift in 1..=distance {
            spread |= occupied << shift | occupied >> shift;
        }
        *wide = spread & row_mask;
    }
    for row in 0..rows {
        let [a, b] = board.line(row);
        let nearby_rows = row.saturating_sub(distance)..(row + distance + 1).min(rows);
        let mut near = widened[nearby_rows].iter().fold(0, |acc, wide| acc | wide);
        near &= !(a | b);
        while near != 0 {
            let col = near.trailing_zeros() as usize;
            near &= near - 1;
            moves.push((row * cols + col) as u16);
        }
    }
}

/// Quiet candidates the window evaluation of freestyle K = 5 boards takes from each of its two
/// orders ([`MnkEvaluator::with_pattern_candidates`]).
pub const PATTERN_CANDIDATES: usize = 8;

impl<const W: usize> Mnk<W> {
    /// The window evaluation as `eval=windows` plays this game: under freestyle with K = 5 with
    /// pattern candidates ([`PATTERN_CANDIDATES`] from each order, the hand-set pattern
    /// weights), elsewhere with candidates by its hint alone (the pattern candidates were
    /// measured under freestyle only).
    pub fn windows_evaluator(&self) -> MnkEvaluator {
        let patterns = (self.k == 5 && self.rule == Rule::Freestyle).then(|| {
            (
                PATTERN_CANDIDATES,
                PatternWeights::hand_set(Rule::Freestyle),
            )
        });
        MnkEvaluator::new().with_pattern_candidates(patterns)
    }
}

impl<const W: usize> EvaluatedGame for Mnk<W> {
    type Evaluator = MnkEvaluator;

    fn observation_grid(&self) -> (usize, usize) {
        (self.rows(), self.cols())
    }

    fn max_plies(&self) -> Option<usize> {
        Some(self.rows() * self.cols())
    }

    fn write_observation(&self, out: &mut [f32]) {
        crate::observation::from_owners(
            (self.rows(), self.cols()),
            self.to_move(),
            |row, col| self.cell_owner(row, col),
            out,
        );
    }

    fn spec(&self) -> GameSpec {
        super::spec_with_rule(self.rows, self.cols, self.k, self.rule)
            .expect("Mnk::with_rule checked the sizes and rule")
    }

    /// The window evaluation under the freestyle and standard rules (and for K other than 5),
    /// with pattern candidates under freestyle with K = 5 ([`Mnk::windows_evaluator`]): under
    /// the standard rule it beat the pattern evaluation, though it does not know that an
    /// overline does not win (docs/strength.md); the pattern evaluation with the hand-set
    /// weights under renju, whose forbidden moves the windows do not know.
    fn evaluator(&self) -> MnkEvaluator {
        match self.rule {
            Rule::Renju => {
                MnkEvaluator::new().with_patterns(Some(PatternWeights::hand_set(self.rule)))
            }
            Rule::Freestyle | Rule::Standard => self.windows_evaluator(),
        }
    }

    /// `windows` (the window evaluation, the freestyle default: [`Mnk::windows_evaluator`]),
    /// `windows-plain` (the window evaluation with candidates by its hint alone), `windows-lmr`
    /// (the plain window evaluation with late move reductions), `windows-vct` (the same with threat-space searches at the root),
    /// `windows-ovcf` (the same with the opponent's victories by fours at the leaves),
    /// `windows-deep` (the same with the selective search) or, on K = 5 boards, `patterns` (the pattern evaluation with the
    /// hand-set weights).
    fn evaluator_named(&self, name: &str) -> Result<MnkEvaluator, String> {
        match name {
            "windows" => Ok(self.windows_evaluator()),
            "windows-plain" => Ok(MnkEvaluator::new()),
            "windows-lmr" => Ok(MnkEvaluator::new().with_late_move_reductions(true)),
            "windows-vct" => Ok(MnkEvaluator::new().with_root_threats(true)),
            "windows-ovcf" => Ok(MnkEvaluator::new().with_opponent_vcf(true)),
            "windows-deep" => Ok(MnkEvaluator::new().with_selective_search(true)),
            "patterns" if self.k == 5 => {
                Ok(MnkEvaluator::new().with_patterns(Some(PatternWeights::hand_set(self.rule))))
            }
            "patterns" => Err(format!(
                "the pattern evaluation needs five in a row, not K = {}",
                self.k
            )),
            _ => Err(format!(
                "unknown m,n,k evaluation `{name}` (expected windows, windows-plain, windows-lmr, windows-vct, windows-ovcf, windows-deep or patterns)"
            )),
        }
    }

    /// The pattern evaluation (`patterns`, or `None`) of a K = 5 board with the weights of a
    /// weights file (see `pattern_weights`) for the game's rule.
    fn evaluator_weighted(&self, name: Option<&str>, text: &str) -> Result<MnkEvaluator, String> {
        match name {
            None | Some("patterns") => {}
            Some("windows") | Some("windows-plain") => {
                return Err(
                    "the window evaluation takes no weights (weights are for eval=patterns)".into(),
                )
            }
            Some(other) => {
                return Err(format!(
                    "unknown m,n,k evaluation `{other}` (expected windows, windows-plain, windows-lmr, windows-vct, windows-ovcf, windows-deep or patterns)"
                ))
            }
        }
        // Checks K first.
        self.evaluator_named("patterns")?;
        let weights = PatternWeights::parse(text).map_err(|e| e.to_string())?;
        if weights.rule != self.rule {
            return Err(format!(
                "the weights are for the {} rule, the game is played under {}",
                weights.rule.name(),
                self.rule.name()
            ));
        }
        Ok(MnkEvaluator::new().with_patterns(Some(weights)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_core::conformance::SplitMix;

    /// The hint computed on the lines (used to sort candidates) is the search's hint.
    #[test]
    fn line_hints_equal_move_hints() {
        let evaluator = MnkEvaluator::new();
        let mut rng = SplitMix::new(0x41);
        let mut moves = Vec::new();
        for (rows, cols, k) in [(3, 3, 3), (15, 15, 5), (9, 13, 4), (30, 20, 10), (1, 12, 3)] {
            for _ in 0..10 {
                let mut game = Mnk::<16>::new(rows, cols, k);
                let plies = rng.below(rows * cols / 2 + 1);
                while game.ply() < plies && game.status() == zerosum_core::Status::Ongoing {
                    game.legal_moves(&mut moves);
                    game.play(moves[rng.below(moves.len())]);
                }
                let board = LineBoard::new(&game);
                let me = game.to_move().index();
                game.legal_moves(&mut moves);
                for &mv in &moves {
                    assert_eq!(
                        evaluator.hint_on_lines(&board, mv as usize, me),
                        evaluator.move_hint(&game, mv)
                    );
                }
            }
        }
    }
}
