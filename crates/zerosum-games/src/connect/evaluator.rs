//! The Connect-X evaluator for the generic search: [`ConnectEvaluator`].

use zerosum_core::{Evaluator, Game, Side};

use super::oracle::ConnectOracle;
use super::packed::{Bits, Packed};
use super::threats::ImmediateColumns;
use super::weights::{BoardTables, ConnectWeights, WINDOW_SCALE};
use super::wide::Wide;
use super::windows::Scan;
use super::{Column, ConnectBoard, ConnectX};
use crate::{exact::ExactOracle, EvaluatedGame, GameSpec};

/// Move hint of a column that wins at once, and of one that blocks an immediate win.
const HINT_WIN: i32 = 1 << 24;
const HINT_BLOCK: i32 = 1 << 22;

/// The Connect-X evaluator for one board size (rows, columns, run length), built once per game
/// (cheap to clone).
///
/// The evaluation, from the side to move, sums:
///
/// 1. **windows**: every line of `k` cells holding discs of one side only is worth
///    `window * (n / (k - 1))^2 * 4 / k` for its `n` discs (superlinear in `n`; scaled by `4 / k`
///    because a cell lies in `4k` windows), first player minus second;
/// 2. **centre**: each disc is worth `centre` in the centre column, falling linearly to 0 on
///    the edge columns;
/// 3. **threats** (empty cells completing a run): the lowest threat of a side in a column, if
///    not above the opponent's lowest there, is worth `good_threat` on a row of its parity
///    (zugzwang theory: odd rows for the first player, even rows for the second, on Connect
///    Four) and `bad_threat` otherwise; other threats `minor_threat`; two threats of a side
///    directly above each other `stacked_threat`; a side alone with good threats `zugzwang`.
///    A position decided within two plies (a playable threat of the side to move, two of the
///    opponent, or one of the opponent with another right above it) is worth `±decided` and
///    nothing else;
/// 4. **tempo** for the side to move.
///
/// [`Packed`] boards read windows from precomputed masks and find threats with bit-board
/// shifts; [`Wide`] boards (up to 100x100) scan only the lines holding discs, and only the
/// windows of those lines that hold a disc.
///
/// Candidate moves: the winning columns if there are any; else the blocking columns if the
/// opponent threatens to win; else every legal column except those whose cell above the landing
/// cell is an opponent's threat (unless no other column is left). The move hint orders a win,
/// then a block, then the change in the window balance, new threats and the centre. The
/// playout move (Monte Carlo search) is a winning column, else a blocking one, else none.
#[derive(Clone, Debug)]
pub struct ConnectEvaluator {
    tables: BoardTables,
}

impl ConnectEvaluator {
    /// The evaluator for a `rows` x `cols` board where `k` in a row wins, with the default
    /// weights.
    pub fn new(rows: usize, cols: usize, k: usize) -> Self {
        Self::with_weights(rows, cols, k, ConnectWeights::default())
    }

    /// The evaluator with chosen weights.
    pub fn with_weights(rows: usize, cols: usize, k: usize, weights: ConnectWeights) -> Self {
        ConnectEvaluator {
            tables: BoardTables::new(rows, cols, k, weights),
        }
    }

    pub fn rows(&self) -> usize {
        self.tables.rows
    }

    pub fn cols(&self) -> usize {
        self.tables.cols
    }

    /// The run length that wins.
    pub fn k(&self) -> usize {
        self.tables.k
    }

    pub fn weights(&self) -> &ConnectWeights {
        &self.tables.weights
    }

    /// True if `game` is played on the board this evaluator was built for.
    fn fits<B: ConnectBoard>(&self, game: &ConnectX<B>) -> bool {
        (game.rows(), game.cols(), game.k()) == (self.tables.rows, self.tables.cols, self.tables.k)
    }

    /// The evaluation of an ongoing position, from the side to move.
    fn value<B: Scan>(&self, game: &ConnectX<B>) -> i32 {
        debug_assert!(self.fits(game), "an evaluator built for another board");
        let to_move = game.to_move();
        let terms = game.board().terms(&self.tables, to_move);
        if terms.verdict.decided != 0 && self.tables.weights.decided != 0 {
            return terms.verdict.decided * self.tables.weights.decided;
        }
        let first_view = (terms.windows / WINDOW_SCALE as i64) as i32 + terms.centre;
        let sign = match to_move {
            Side::First => 1,
            Side::Second => -1,
        };
        sign * first_view + terms.verdict.balance + self.tables.weights.tempo
    }

    /// The moves worth searching (see [`ConnectEvaluator`]).
    fn candidates<B: Scan>(&self, game: &ConnectX<B>, moves: &mut Vec<Column>) {
        debug_assert!(self.fits(game), "an evaluator built for another board");
        game.legal_moves(moves);
        if moves.is_empty() {
            return;
        }
        let ImmediateColumns {
            wins,
            blocks,
            poisoned,
        } = game.board().immediate(&self.tables, game.to_move());
        let keep = if wins != 0 {
            wins
        } else if blocks != 0 {
            blocks
        } else if moves.iter().any(|&col| poisoned >> col & 1 == 0) {
            !poisoned
        } else {
            return;
        };
        moves.retain(|&col| keep >> col & 1 == 1);
    }

    /// The playout move: the first column that wins at once, else the first that blocks the
    /// opponent's immediate win, else none (a random one).
    fn playout<B: Scan>(&self, game: &ConnectX<B>) -> Option<Column> {
        debug_assert!(self.fits(game), "an evaluator built for another board");
        let ImmediateColumns { wins, blocks, .. } =
            game.board().immediate(&self.tables, game.to_move());
        [wins, blocks]
            .into_iter()
            .find(|&columns| columns != 0)
            .map(|columns| columns.trailing_zeros() as Column)
    }

    /// The ordering hint of dropping a disc in `col`: a win first, then a block, then the
    /// change in the window balance (the windows through the landing cell that the disc extends
    /// or kills), a bonus per new threat, and the centre.
    fn hint<B: ConnectBoard>(&self, game: &ConnectX<B>, col: Column) -> i32 {
        let board = game.board();
        let to_move = game.to_move();
        let col = col as usize;
        let height = board.height(col);
        let (rows, cols, k) = (
            self.tables.rows as isize,
            self.tables.cols as isize,
            self.tables.k as isize,
        );
        let on_board = |c: isize, h: isize| (0..cols).contains(&c) && (0..rows).contains(&h);
        // 1 for a disc of the side to move, 2 for the opponent's, 0 for an empty cell.
        let kind = |c: isize, h: isize| match board.owner(c as usize, h as usize, to_move) {
            None => 0,
            Some(side) if side == to_move => 1,
            Some(_) => 2,
        };
        let value = &self.tables.window_value;
        let mut gain = 0i64;
        let mut new_threats = 0;
        let (mut wins, mut blocks) = (false, false);
        for (dc, dh) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
            let (c0, h0) = (col as isize, height as isize);
            let at = |t: isize| (c0 + t * dc, h0 + t * dh);
            let mut low = 0;
            while low > 1 - k && on_board(at(low - 1).0, at(low - 1).1) {
                low -= 1;
            }
            let mut high = 0;
            while high < k - 1 && on_board(at(high + 1).0, at(high + 1).1) {
                high += 1;
            }
            if high - low + 1 < k {
                continue;
            }
            // Counts of the window [start, start + k), slid from `low` while it holds offset 0.
            let mut counts = [0usize; 3];
            for t in low..low + k {
                let (c, h) = at(t);
                counts[kind(c, h)] += 1;
            }
            let mut start = low;
            loop {
                let (own, theirs) = (counts[1], counts[2]);
                if theirs == 0 {
                    gain += (value[own + 1] - value[own]) as i64;
                    wins |= own + 1 == self.tables.k;
                    new_threats += (own + 2 == self.tables.k) as i32;
                } else if own == 0 {
                    gain += value[theirs] as i64;
                    blocks |= theirs + 1 == self.tables.k;
                }
                if start + k > high {
                    break;
                }
                let (c, h) = at(start);
                counts[kind(c, h)] -= 1;
                let (c, h) = at(start + k);
                counts[kind(c, h)] += 1;
                start += 1;
            }
        }
        if wins {
            HINT_WIN
        } else if blocks {
            HINT_BLOCK
        } else {
            (gain / WINDOW_SCALE as i64) as i32
                + new_threats * self.tables.weights.good_threat / 2
                + self.tables.centre[col]
        }
    }
}

impl<B: Bits> Evaluator<ConnectX<Packed<B>>> for ConnectEvaluator {
    fn evaluate(&self, game: &ConnectX<Packed<B>>) -> i32 {
        self.value(game)
    }

    fn candidate_moves(&self, game: &ConnectX<Packed<B>>, moves: &mut Vec<Column>) {
        self.candidates(game, moves);
    }

    fn move_hint(&self, game: &ConnectX<Packed<B>>, mv: Column) -> i32 {
        self.hint(game, mv)
    }

    fn playout_move(&self, game: &ConnectX<Packed<B>>) -> Option<Column> {
        self.playout(game)
    }
}

impl Evaluator<ConnectX<Wide>> for ConnectEvaluator {
    fn evaluate(&self, game: &ConnectX<Wide>) -> i32 {
        self.value(game)
    }

    fn candidate_moves(&self, game: &ConnectX<Wide>, moves: &mut Vec<Column>) {
        self.candidates(game, moves);
    }

    fn move_hint(&self, game: &ConnectX<Wide>, mv: Column) -> i32 {
        self.hint(game, mv)
    }

    fn playout_move(&self, game: &ConnectX<Wide>) -> Option<Column> {
        self.playout(game)
    }
}

impl<B: Bits> EvaluatedGame for ConnectX<Packed<B>> {
    type Evaluator = ConnectEvaluator;

    fn spec(&self) -> GameSpec {
        super::spec(self.rows, self.cols, self.k).expect("ConnectX::new checked the sizes")
    }

    fn evaluator(&self) -> ConnectEvaluator {
        ConnectEvaluator::new(self.rows(), self.cols(), self.k())
    }

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
            |row, col| self.owner(row, col),
            out,
        );
    }

    /// The book and the exact solver of this board.
    fn oracle(&self, table_mb: usize) -> Option<Box<dyn ExactOracle<Self>>> {
        Some(Box::new(ConnectOracle::new(
            self.rows(),
            self.cols(),
            self.k(),
            table_mb,
        )))
    }
}

impl EvaluatedGame for ConnectX<Wide> {
    type Evaluator = ConnectEvaluator;

    fn spec(&self) -> GameSpec {
        super::spec(self.rows, self.cols, self.k).expect("ConnectX::new checked the sizes")
    }

    fn evaluator(&self) -> ConnectEvaluator {
        ConnectEvaluator::new(self.rows(), self.cols(), self.k())
    }

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
            |row, col| self.owner(row, col),
            out,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connect::ConnectX64;

    #[test]
    fn the_first_disc_goes_to_the_centre() {
        let game = ConnectX64::new(6, 7, 4);
        let eval = game.evaluator();
        let hints: Vec<i32> = (0..7).map(|col| eval.move_hint(&game, col)).collect();
        let best = (0..7).max_by_key(|&col| hints[col]).unwrap();
        assert_eq!(best, 3, "{hints:?}");
    }
}
