//! The exact oracle of the Connect-X boards that fit the packed solver: the opening book
//! where it has the position, else the [`ConnectSolver`], within the engine's limits.
//!
//! Moves are proven one by one (each child position on its own), so that a proof cut short by
//! the limits still tells which moves it settled. First the position's result (a weak solve,
//! cheap), then the moves' results until a winning one (in a won position) or all of them (in
//! a drawn one: the engine may choose among the draws), then the exact score (a strong solve)
//! and a move that keeps it, so that the engine wins fastest and loses slowest.

use zerosum_core::{Game, Outcome, Status};

use super::book::Book;
use super::{Bits, Column, ConnectSolver, ConnectX, Packed, SolveError, SolveLimits};
use crate::exact::{ExactLimits, ExactOracle, Proven};

/// The book and the solver of one board size.
pub struct ConnectOracle<B: Bits> {
    solver: ConnectSolver<B>,
    book: Option<&'static Book>,
    /// Positions searched so far for the current question (for its node limit).
    spent: u64,
}

impl<B: Bits> ConnectOracle<B> {
    /// The oracle of `rows` x `cols` boards with runs of `k`, its solver's table of about
    /// `table_mb` MB. Precondition: the board fits `Packed<B>`.
    pub fn new(rows: usize, cols: usize, k: usize, table_mb: usize) -> Self {
        ConnectOracle {
            solver: ConnectSolver::new(rows, cols, k, table_mb),
            book: Book::for_board(rows, cols, k),
            spent: 0,
        }
    }

    /// The exact score of `position` (ongoing) for its side to move, Pons' scale (only its
    /// sign if `weak`): the book's, else the solver's within `limits` and at most `cap` nodes
    /// for this one solve (within the question's own limit); `None` when the limits ran out
    /// first.
    fn score(
        &mut self,
        position: &ConnectX<Packed<B>>,
        weak: bool,
        limits: &ExactLimits,
        cap: Option<u64>,
    ) -> Option<i32> {
        if let Some(score) = self.book.and_then(|book| book.value(position)) {
            return Some(if weak { score.signum() } else { score });
        }
        self.solve(position, weak, limits, cap)
    }

    /// The solver's score of `position` (ongoing) as [`ConnectOracle::score`] gives it, without
    /// looking at the book.
    fn solve(
        &mut self,
        position: &ConnectX<Packed<B>>,
        weak: bool,
        limits: &ExactLimits,
        cap: Option<u64>,
    ) -> Option<i32> {
        let left = limits.nodes.map(|nodes| nodes.saturating_sub(self.spent));
        let solve_limits = SolveLimits {
            nodes: match (left, cap) {
                (Some(left), Some(cap)) => Some(left.min(cap)),
                (left, cap) => left.or(cap),
            },
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

    /// What is proven of the move `col` of `game` (ongoing, not ending the game) for its
    /// mover, within `cap` nodes of its own.
    fn move_value(
        &mut self,
        game: &ConnectX<Packed<B>>,
        col: Column,
        weak: bool,
        limits: &ExactLimits,
        cap: Option<u64>,
    ) -> Option<Proven> {
        let mut child = game.clone();
        child.play(col);
        let cells = child.rows() * child.cols();
        let score = self.score(&child, weak, limits, cap)?;
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
        // The position's result: the best of its moves when they settle it (a winning move,
        // or every move, as the book may give them), else the solver's proof, even where the
        // book has the position: that proof leaves in the solver's table what proving the
        // moves needs (just past the book, a narrow win's moves cost several times the
        // position's own proof when searched cold).
        let best_known = proven.iter().filter_map(|(_, value)| value.sign()).max();
        let settled =
            best_known == Some(1) || proven.iter().all(|(_, value)| value.sign().is_some());
        let result = match best_known {
            Some(best) if settled => best,
            _ => self.solve(game, true, limits, None)?.signum(),
        };
        if result < 0 {
            for (_, value) in proven.iter_mut() {
                if *value == Proven::Unknown {
                    *value = Proven::Loss { plies: None };
                }
            }
        } else {
            // A won position needs one winning move; a drawn one every move's result, so that
            // the search may choose among the draws.
            self.prove_results(game, proven, result > 0, limits)?;
        }
        if result == 0 {
            return Some(());
        }
        // The distance: the exact score, then a move that keeps it (the fastest win, the
        // slowest loss).
        let exact = self.score(game, false, limits, None)?;
        let cells = game.rows() * game.cols();
        let wanted = mover_value(cells, game.ply() + 1, -exact, false);
        if proven.iter().any(|(_, value)| *value == wanted) {
            return Some(());
        }
        for (col, value) in proven.iter_mut() {
            let may_keep = value.sign().is_none_or(|sign| sign == result);
            if may_keep && *value != wanted {
                *value = self.move_value(game, *col, false, limits, None)?;
                if *value == wanted {
                    break;
                }
            }
        }
        Some(())
    }

    /// Proves the results (win, draw or loss) of the unproven moves of `proven`, until one wins
    /// if `won`, else of all of them, easiest first: in rounds, each unproven move gets a node
    /// budget that grows fourfold from round to round, so that a move proven in a few thousand
    /// nodes is found before a hard one takes the whole time. `None` once `limits` ran out.
    fn prove_results(
        &mut self,
        game: &ConnectX<Packed<B>>,
        proven: &mut [(Column, Proven)],
        won: bool,
        limits: &ExactLimits,
    ) -> Option<()> {
        let mut cap = FIRST_ROUND_NODES;
        loop {
            if won && proven.iter().any(|(_, value)| value.sign() == Some(1)) {
                return Some(());
            }
            let mut open = false;
            for (col, value) in proven.iter_mut() {
                if *value != Proven::Unknown {
                    continue;
                }
                match self.move_value(game, *col, true, limits, Some(cap)) {
                    Some(result) => *value = result,
                    None if self.out_of(limits) => return None,
                    None => open = true,
                }
                if won && value.sign() == Some(1) {
                    return Some(());
                }
            }
            if !open {
                return Some(());
            }
            cap = cap.saturating_mul(4);
        }
    }

    /// True once the question's own limits ran out (not just a round's node budget).
    fn out_of(&self, limits: &ExactLimits) -> bool {
        limits.expired() || limits.nodes.is_some_and(|nodes| self.spent >= nodes)
    }
}

/// The node budget of each unproven move in the first round of
/// [`ConnectOracle::prove_results`].
const FIRST_ROUND_NODES: u64 = 4_096;

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
        // The book's values cost nothing: every move it holds is settled before the solver
        // spends time on any (a position just past the book may have its winning move there).
        if let Some(book) = self.book {
            let cells = game.rows() * game.cols();
            for (col, value) in proven.iter_mut() {
                if *value == Proven::Unknown {
                    child.play(*col);
                    if let Some(score) = book.value(&child) {
                        *value = mover_value(cells, child.ply(), score, false);
                    }
                    child.undo();
                }
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
        let mut exact = ConnectSolver::<u64>::new(4, 4, 3, 1);
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

    #[test]
    fn an_easy_winning_move_is_found_before_hard_ones_take_the_budget() {
        // Connect Four after 44444432, first player to move: a narrow win (its last stone)
        // that the book holds but not its moves, met in self-play at 0.1 s a move. Only
        // column 6 wins. Searched cold, centre first, columns 3, 5 and 2 take 0.4, 1.5 and 4
        // million nodes before column 6 (0.1 million); the position's own proof (0.3 million)
        // and then the moves in rounds of growing budgets fit in the half million nodes the
        // oracle has in about 50 ms, and neither alone does.
        let mut oracle = ConnectOracle::<u64>::new(6, 7, 4, 16);
        let mut game = ConnectX64::new(6, 7, 4);
        for col in [3, 3, 3, 3, 3, 3, 2, 1] {
            game.play(col);
        }
        let limits = ExactLimits {
            nodes: Some(500_000),
            ..ExactLimits::default()
        };
        let proven = oracle.prove(&game, &limits);
        let winning: Vec<Column> = proven
            .iter()
            .filter(|(_, value)| value.sign() == Some(1))
            .map(|&(col, _)| col)
            .collect();
        assert!(!winning.is_empty(), "{proven:?}");
        let mut exact = ConnectSolver::<u64>::new(6, 7, 4, 16);
        for col in winning {
            game.play(col);
            assert!(exact.solve(&game, true).unwrap() < 0, "column {}", col + 1);
            game.undo();
        }
    }

    #[test]
    fn the_book_answers_the_empty_board_without_the_solver() {
        // Every move of the empty Connect Four board is in the book: the centre wins (with the
        // first player's 21st stone), the others do not, and no node is searched.
        let mut oracle = ConnectOracle::<u64>::new(6, 7, 4, 1);
        let game = ConnectX64::new(6, 7, 4);
        let limits = ExactLimits {
            nodes: Some(1),
            ..ExactLimits::default()
        };
        let proven = oracle.prove(&game, &limits);
        assert_eq!(oracle.spent, 0);
        for (col, value) in proven {
            match col {
                3 => assert_eq!(value, Proven::Win { plies: Some(41) }),
                _ => assert!(
                    matches!(value, Proven::Draw | Proven::Loss { .. }),
                    "{value:?}"
                ),
            }
        }
    }
}
