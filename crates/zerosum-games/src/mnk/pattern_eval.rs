//! The pattern evaluation of K = 5 boards: the position's value as a dot product of the
//! pattern board's code counts ([`super::patterns`]) with a weight table, the initiative of
//! the side to move, VCF at the leaves ([`super::pattern_vcf`]), and move choice from the
//! cells' threats with pruning to the defending moves.
//!
//! # Evaluation, from the side to move ("me")
//!
//! 1. I have a cell that makes five: [`WIN_NEXT`].
//! 2. The opponent has two such cells: [`-LOSS_NEXT`].
//! 3. The opponent has none and I have a cell making an open four (or two fours):
//!    `VCF_WIN - 30`.
//! 4. I win by continuous fours within the budget: `VCF_WIN` less 10 per ply.
//! 5. Otherwise the static value: over the empty cells, the weight of each cell's code for me
//!    less its weight for the opponent ([`PatternWeights::cell`]), plus the initiative term
//!    indexed by the best threat each side can make next ([`PatternWeights::initiative`]).
//!
//! # Moves
//!
//! 1. my cells that make five; else
//! 2. the opponent's cells that make five (blocks); else
//! 3. my cells that make an open four or two fours (they win); else
//! 4. if the opponent can make an open four next (it has an open three): the cells after
//!    which it no longer can (checked by playing them on a scratch board) and my fours, every
//!    other move losing; else
//! 5. the empty cells within the near distance of a stone (every empty cell on small boards),
//!    by score, the best `max_candidates` kept with those tied with the last.
//!
//! A cell's score is its weight for me plus 7/8 of its weight for the opponent (attack and
//! defence), less its distance from the centre.

use std::cell::RefCell;

use super::pattern_vcf::PatternVcf;
use super::pattern_weights::PatternWeights;
use super::patterns::{CellThreat, LineThreat, PatternBoard, CELL_CODES, CELL_THREATS};
use super::ranking;
use super::values::{LOSS_NEXT, STATIC_LIMIT, VCF_WIN, WIN_NEXT};

/// Cell weights are in 1/`WEIGHT_SCALE` of an evaluation unit.
const WEIGHT_SCALE: i64 = 16;

/// The tuning of the pattern evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PatternTuning {
    pub vcf_budget: u32,
    pub vcf_max_fours: usize,
    pub near_distance: usize,
    pub max_candidates: usize,
    pub all_cells: bool,
}

thread_local! {
    /// A scratch pattern board per thread, copied from the position when a search needs to
    /// play on it, so that evaluating allocates nothing once warm.
    static SCRATCH: RefCell<Option<PatternBoard>> = const { RefCell::new(None) };
}

/// Runs `work` on a scratch copy of `board`.
fn with_scratch<R>(board: &PatternBoard, work: impl FnOnce(&mut PatternBoard) -> R) -> R {
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        match scratch.as_mut() {
            Some(copy) => copy.copy_from(board),
            None => *scratch = Some(board.clone()),
        }
        work(scratch.as_mut().expect("just filled"))
    })
}

/// The best threat `side` can make next.
fn best_threat(board: &PatternBoard, side: usize) -> CellThreat {
    CellThreat::ALL
        .into_iter()
        .rev()
        .find(|&threat| threat != CellThreat::Forbidden && board.threat_count(side, threat) > 0)
        .unwrap_or(CellThreat::None)
}

/// Whether `side` has a cell making a four or better (a five, an open four, a four).
fn has_fours(board: &PatternBoard, side: usize) -> bool {
    [
        CellThreat::Four,
        CellThreat::FourPlus,
        CellThreat::FourThree,
        CellThreat::OpenFour,
    ]
    .iter()
    .any(|&threat| board.threat_count(side, threat) > 0)
}

/// The evaluation of `board` for `me` to move (steps 1 to 5 of the module documentation).
pub(crate) fn evaluate(
    board: &PatternBoard,
    me: usize,
    weights: &PatternWeights,
    tuning: &PatternTuning,
) -> i32 {
    let opp = 1 - me;
    if board.threat_count(me, CellThreat::Five) > 0 {
        return WIN_NEXT;
    }
    let opp_fives = board.threat_count(opp, CellThreat::Five);
    if opp_fives >= 2 {
        return -LOSS_NEXT;
    }
    if opp_fives == 0 && board.threat_count(me, CellThreat::OpenFour) > 0 {
        return VCF_WIN - 30;
    }
    if tuning.vcf_budget > 0 && has_fours(board, me) {
        let found = with_scratch(board, |scratch| {
            PatternVcf::new(scratch, me, tuning.vcf_budget, tuning.vcf_max_fours).run()
        });
        if let Some((_, plies)) = found {
            return VCF_WIN - 10 * plies as i32;
        }
    }
    static_value(board, me, weights)
}

/// Step 5: the weighted code counts and the initiative, clamped to `±STATIC_LIMIT`.
pub(crate) fn static_value(board: &PatternBoard, me: usize, weights: &PatternWeights) -> i32 {
    let opp = 1 - me;
    let dot = |side: usize| -> i64 {
        board
            .code_counts(side)
            .iter()
            .zip(&weights.cell[side])
            .map(|(&count, &weight)| count as i64 * weight as i64)
            .sum()
    };
    let cells = (dot(me) - dot(opp)) / WEIGHT_SCALE;
    let initiative = weights.initiative
        [best_threat(board, me) as usize * CELL_THREATS + best_threat(board, opp) as usize];
    (cells + initiative as i64).clamp(-STATIC_LIMIT as i64, STATIC_LIMIT as i64) as i32
}

/// The terms of [`static_value`] before its rounding and clamp, as `(parameter, coefficient)`
/// pairs over [`PatternWeights::to_parameters`]: the value is the sum of each coefficient
/// times its parameter, over 16 (a cell code's coefficient is its count of empty cells, of
/// the side to move positive, of the opponent negative; the initiative entry's is 16). Into
/// `terms` (cleared first): one pair per cell code present and the initiative entry, what a
/// trainer fits.
pub fn static_terms(board: &PatternBoard, me: usize, terms: &mut Vec<(u16, i16)>) {
    terms.clear();
    let opp = 1 - me;
    for (side, sign) in [(me, 1), (opp, -1)] {
        let offset = side * CELL_CODES;
        for (code, &count) in board.code_counts(side).iter().enumerate() {
            if count > 0 {
                terms.push(((offset + code) as u16, sign * count as i16));
            }
        }
    }
    let initiative =
        best_threat(board, me) as usize * CELL_THREATS + best_threat(board, opp) as usize;
    terms.push(((2 * CELL_CODES + initiative) as u16, WEIGHT_SCALE as i16));
}

/// The move-ordering score of the empty `cell` for `me`: attack plus 7/8 of defence, less the
/// distance from the centre (in half cells).
pub(crate) fn score(board: &PatternBoard, cell: usize, me: usize, weights: &PatternWeights) -> i32 {
    let opp = 1 - me;
    let attack = weights.cell[me][board.code(cell, me) as usize] as i64;
    let defence = weights.cell[opp][board.code(cell, opp) as usize] as i64;
    let (rows, cols) = (board.rows() as i64, board.cols() as i64);
    let (row, col) = ((cell / board.cols()) as i64, (cell % board.cols()) as i64);
    let centre = (2 * row - (rows - 1))
        .abs()
        .max((2 * col - (cols - 1)).abs());
    (attack + defence * 7 / 8 - centre).clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// The candidate moves of the module documentation, never empty on a board with an empty
/// cell.
pub(crate) fn candidate_moves(
    board: &PatternBoard,
    me: usize,
    weights: &PatternWeights,
    tuning: &PatternTuning,
    moves: &mut Vec<u16>,
) {
    if forcing_moves(board, me, weights, moves) {
        return;
    }
    if tuning.all_cells {
        moves.extend(
            (0..board.rows() * board.cols())
                .filter(|&cell| board.is_empty(cell))
                .map(|cell| cell as u16),
        );
        keep_best_by_score(board, me, weights, moves, 0);
    } else if board.stone_count() == 0 {
        moves.push(((board.rows() / 2) * board.cols() + board.cols() / 2) as u16);
    } else {
        near_cells(board, tuning.near_distance, moves);
        keep_best_by_score(board, me, weights, moves, tuning.max_candidates);
    }
}

/// Steps 1 to 4 of the module documentation's moves: fills the empty `moves` and returns
/// `true` if one of them applies (the answers to an open three sorted by score), else leaves
/// `moves` empty and returns `false`.
pub(crate) fn forcing_moves(
    board: &PatternBoard,
    me: usize,
    weights: &PatternWeights,
    moves: &mut Vec<u16>,
) -> bool {
    debug_assert!(moves.is_empty());
    let opp = 1 - me;
    for (side, threat) in [
        (me, CellThreat::Five),
        (opp, CellThreat::Five),
        (me, CellThreat::OpenFour),
    ] {
        moves.extend(board.cells_with(side, threat).map(|cell| cell as u16));
        if !moves.is_empty() {
            return true;
        }
    }
    if board.threat_count(opp, CellThreat::OpenFour) > 0 {
        defences(board, me, moves);
        if !moves.is_empty() {
            keep_best_by_score(board, me, weights, moves, 0);
            return true;
        }
    }
    false
}

/// Orders `moves` by decreasing [`score`] (ties in cell order) and keeps the best `keep` with
/// those scored as the last of them (all with `keep` 0).
pub(crate) fn keep_best_by_score(
    board: &PatternBoard,
    me: usize,
    weights: &PatternWeights,
    moves: &mut Vec<u16>,
    keep: usize,
) {
    ranking::with_keyed(|keyed| {
        // `!score` reverses the order of scores without overflow.
        keyed.extend(
            moves
                .iter()
                .map(|&mv| (!score(board, mv as usize, me, weights), mv)),
        );
        let kept = ranking::keep_best(keyed, keep);
        moves.clear();
        moves.extend(keyed[..kept].iter().map(|&(_, mv)| mv));
    });
}

/// The answers to the opponent's threat of an open four: every empty cell on a threatening
/// line near a threat cell after which the opponent can no longer make an open four, and my
/// fours. Empty if nothing answers (then every move loses to fours, or the threat is out of
/// reach of these lines).
fn defences(board: &PatternBoard, me: usize, moves: &mut Vec<u16>) {
    let opp = 1 - me;
    let cells = board.rows() * board.cols();
    let mut seen = vec![false; cells];
    let mut tried = Vec::new();
    for threat in board.cells_with(opp, CellThreat::OpenFour) {
        for direction in 0..4 {
            if board.line_threat(threat, direction, opp) < LineThreat::Four {
                continue;
            }
            for offset in -5..=5isize {
                if let Some(cell) = board.step(threat, direction, offset) {
                    if board.is_empty(cell) && !seen[cell] {
                        seen[cell] = true;
                        tried.push(cell);
                    }
                }
            }
        }
    }
    with_scratch(board, |scratch| {
        for &cell in &tried {
            scratch.place(cell, me);
            let answers = scratch.threat_count(opp, CellThreat::OpenFour) == 0
                && scratch.threat_count(opp, CellThreat::Five) == 0;
            scratch.remove(cell);
            if answers {
                moves.push(cell as u16);
            }
        }
    });
    for threat in [
        CellThreat::Four,
        CellThreat::FourPlus,
        CellThreat::FourThree,
    ] {
        for cell in board.cells_with(me, threat) {
            if !moves.contains(&(cell as u16)) {
                moves.push(cell as u16);
            }
        }
    }
}

/// Appends the empty cells within Chebyshev distance `distance` of a stone, in cell order.
fn near_cells(board: &PatternBoard, distance: usize, moves: &mut Vec<u16>) {
    let (rows, cols) = (board.rows(), board.cols());
    for cell in 0..rows * cols {
        if !board.is_empty(cell) {
            continue;
        }
        let (row, col) = (cell / cols, cell % cols);
        let near = (row.saturating_sub(distance)..(row + distance + 1).min(rows)).any(|r| {
            (col.saturating_sub(distance)..(col + distance + 1).min(cols))
                .any(|c| !board.is_empty(r * cols + c))
        });
        if near {
            moves.push(cell as u16);
        }
    }
}
