//! The exact oracle of the Connect-X boards that fit the packed solver: the opening book
//! where it has the position, else the [`Solver`], within the engine's limits.
//!
//! Moves are proven one by one (each child position on its own), so that a proof cut short by
//! the limits still tells which moves it settled. First the position's result (a weak solve,
//! cheap), then the moves' results until a winning one (in a won position) or all of them (in
//! a drawn one: the engine may choose among the draws), then the exact score (a strong solve)
//! and a move that keeps it, so that the engine wins fastest and loses slowest.

use zerosum_core::{Game, Outcome, Status};

use super::book::Book;
use super::{Bits, Column, ConnectX, Packed, SolveError, SolveLimits, Solver};
use crate::exact::{ExactLimits, ExactOracle, Proven};

/// The book and the solver of one board size.
pub struct ConnectOracle<B: Bits> {
    solver: Solver<B>,
    book: Option<&'static Book>,
    /// Positions searched so far for the current question (for its node limit).
    spent: u64,
}

impl<B: Bits> ConnectOracle<B> {
    /// The oracle of `rows` x `cols` boards with runs of `k`, its solver's table of about
    /// `table_mb` MB. Precondition: the board fits `Packed<B>`.
    pub fn new(rows: usize, cols: usize, k: usize, table_mb: usize) -> Self {
        ConnectOracle {
            solver: Solver::new(rows, cols, k, table_mb),
            book: Book::for_board(rows, cols, k),
            spent: 0,
        }
    }

    /// The exact score of `position` (ongoing) for its side to move, Pons' scale (only its
    /// sign if `weak`): the book's, else the solver's within `limits`; `None` when the limits
    /// ran out first.
    fn score(
        &mut self,
        position: &ConnectX<Packed<B>>,
        weak: bool,
        limits: &ExactLimits,
    ) -> Option<i32> {
        if let Some(score) = self.book.and_then(|book| book.value(position)) {
            return Some(if weak { score.signum() } else { score });
        }
        let solve_limits = SolveLimits {
            nodes: limits.nodes.map(|nodes| nodes.saturating_sub(self.spent)),
            deadline: limits.deadline,
            stop: limits.stop.clone(),
        };
        self.solver.set_threads(limits.threads);
        let answer = self.solver.solve_within(position, weak, &solve_limits);
        self.spent += self.solver.nodes();
        match answer {
            Ok(score) => Some(score),
            Err(SolveError::Interrupted) => None,
            Err(error) => unreachable!("the oracle asks only of ongoing positions: {error}"),
        }
    }

    /// What is proven of the move `col` of `game` (ongoing, not ending the game) for its mover.
    fn move_value(
        &mut self,
        game: &ConnectX<Packed<B>>,
        col: Column,
        weak: bool,
        limits: &ExactLimits,
    ) -> Option<Proven> {
        let mut child = game.clone();
        child.play(col);
        let cells = child.rows() * child.cols();
        let score = self.score(&child, weak, limits)?;
        Some(mover_value(cells, child.ply(), score, weak))
    }

    /// Proves the moves of `proven` (those of `game`, centre first, the moves that end the
    /// game already settled) as far as `limits` allow.
    fn prove_moves(
        &mut self,
        game: &ConnectX<Packed<B>>,
        proven: &mut [(Column, Proven)],
        limits: &ExactLimits,
    ) -> Option<()> {
        // The position's result first: with the table it leaves, the moves that keep it are
        // found fast.
        let result = self.score(game, true, limits)?.signum();
        if result < 0 {
            for (_, value) in proven.iter_mut() {
                *value = Proven::Loss { plies: None };
            }
        } else {
            // A won position needs one winning move; a drawn one every move's result, so that
            // the search may choose among the draws.
            for (col, value) in proven.iter_mut() {
                if *value == Proven::Unknown {
                    *value = self.move_value(game, *col, true, limits)?;
                }
                if result > 0 && value.sign() == Some(1) {
                    break;
                }
            }
        }
        if result == 0 {
            return Some(());
        }
        // The distance: the exact score, then a move that keeps it (the fastest win, the
        // slowest loss).
        let exact = self.score(game, false, limits)?;
        let cells = game.rows() * game.cols();
        let wanted = mover_value(cells, game.ply() + 1, -exact, false);
        for (col, value) in proven.iter_mut() {
            let may_keep = value.sign().is_none_or(|sign| sign == result);
            if may_keep && *value != wanted {
                *value = self.move_value(game, *col, false, limits)?;
                if *value == wanted {
                    break;
                }
            }
        }
        Some(())
    }
}

impl<B: Bits> ExactOracle<ConnectX<Packed<B>>> for ConnectOracle<B> {
    fn prove(&mut self, game: &ConnectX<Packed<B>>, limits: &ExactLimits) -> Vec<(Column, Proven)> {
        self.spent = 0;
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        // Centre first: the likely best moves are proven first when time is short.
        let centre = game.cols() as i32 - 1;
        moves.sort_by_key(|&col| (2 * col as i32 - centre).abs());
        let mut proven: Vec<(Column, Proven)> =
            moves.iter().map(|&col| (col, Proven::Unknown)).collect();
        // Moves that end the game need no proof; a win at once is the best there is.
        let mut child = game.clone();
        for (col, value) in proven.iter_mut() {
            child.play(*col);
            *value = match child.status() {
                Status::Over(Outcome::Win(_)) => Proven::Win { plies: Some(1) },
                Status::Over(Outcome::Draw) => Proven::Draw,
                Status::Ongoing => Proven::Unknown,
            };
            child.undo();
            if value.sign() == Some(1) {
                return proven;
            }
        }
        // Interrupted or not, what was proven stands.
        let _ = self.prove_moves(game, &mut proven, limits);
        proven
    }
}

/// What the solver's `score` of a position at `ply` (for its side to move, Pons' scale; only
/// its sign if `weak`) proves for the side that moved into it, on a board of `cells` cells.
fn mover_value(cells: usize, ply: usize, score: i32, weak: bool) -> Proven {
    if score == 0 {
        return Proven::Draw;
    }
    // Plies from the move into this position to the end: this position's plies plus one.
    let plies = (!weak).then(|| plies_to_end(cells, ply, score) + 1);
    if score > 0 {
        Proven::Loss { plies }
    } else {
        Proven::Win { plies }
    }
}

/// Plies from a position at `ply` whose exact score (for the side to move, not 0) is `score`
/// to the end of the game, the winning stone included. A win scores `(cells - m + 1) / 2`
/// (rounded down) for a winning stone played after `m` stones, and the winner's stones are
/// those played after a number of stones of one parity, which settles `m`.
fn plies_to_end(cells: usize, ply: usize, score: i32) -> usize {
    let magnitude = score.unsigned_abs() as usize;
    // The two candidates for `m`, `cells + 1 - 2s` and `cells - 2s`, differ in parity.
    let winner_parity = if score > 0 { ply % 2 } else { (ply + 1) % 2 };
    let high = cells + 1 - 2 * magnitude;
    let stones_before = if high % 2 == winner_parity {
        high
    } else {
        high - 1
    };
    stones_before + 1 - ply
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connect::ConnectX64;

    #[test]
    fn scores_convert_to_plies_both_ways() {
        // 7x6, 42 cells. The side to move at ply 40 wins with its next stone: score
        // (42 - 40 + 1) / 2 = 1, one ply.
        assert_eq!(plies_to_end(42, 40, 1), 1);
        // At ply 0, a win with the 4th stone of the first player (after 6 stones): 18.
        assert_eq!(plies_to_end(42, 0, 18), 7);
        // At ply 1 the second player to move, the first player wins after 6 stones: -18.
        assert_eq!(plies_to_end(42, 1, -18), 6);
        // 4x4, 16 cells, ply 3: the side to move wins with the stone after 5 others, 3 plies
        // away: (16 - 5 + 1) / 2 = 6.
        assert_eq!(plies_to_end(16, 3, 6), 3);
    }

    #[test]
    fn what_the_oracle_proves_is_what_the_solver_says() {
        // 4x4x3 (rows x cols x k), won by the first player; the solver settles it at once.
        let mut oracle = ConnectOracle::<u64>::new(4, 4, 3, 1);
        let mut exact = Solver::<u64>::new(4, 4, 3, 1);
        let mut game = ConnectX64::new(4, 4, 3);
        // Along a line of play, every value the oracle proves is the solver's, and it proves
        // a move that keeps the position's exact value.
        for col in [1, 2, 1, 0] {
            let values = exact.analyze(&game, false).unwrap();
            let best = values.iter().flatten().max().copied().unwrap();
            let proven = oracle.prove(&game, &ExactLimits::default());
            let ply = game.ply();
            let expected =
                |col: Column| mover_value(16, ply + 1, -values[col as usize].unwrap(), false);
            for &(col, value) in &proven {
                // A value proven without its distance has the solver's result.
                let plain = match expected(col) {
                    Proven::Win { .. } => Proven::Win { plies: None },
                    Proven::Loss { .. } => Proven::Loss { plies: None },
                    other => other,
                };
                assert!(
                    [Proven::Unknown, plain, expected(col)].contains(&value),
                    "ply {ply}, column {}: {value:?}, not {:?}",
                    col + 1,
                    expected(col)
                );
            }
            let kept = mover_value(16, ply + 1, -best, false);
            assert!(
                proven.iter().any(|&(_, value)| value == kept),
                "ply {ply}: {proven:?}"
            );
            game.play(col);
        }
    }
}
