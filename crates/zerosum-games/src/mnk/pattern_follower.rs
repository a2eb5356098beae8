//! A pattern board per thread that follows the games it is asked about lazily: brought up to
//! date from the game's move list only when read, by taking back the moves it has beyond
//! their common start and playing the game's others.
//!
//! The window evaluation reads patterns only where it orders quiet candidates
//! ([`super::MnkEvaluator::with_pattern_candidates`]), not at the leaves, where most moves of a
//! search are played: a pattern board kept by every `play` and `undo` would be updated there
//! for nothing. Along a depth-first search consecutive reads differ by a few moves at the
//! end of the move list.

use std::cell::RefCell;

use zerosum_core::Game;

use super::patterns::PatternBoard;
use super::Mnk;

/// The followed board and the moves it holds, in order (the first player's at even indices).
struct Follower {
    board: PatternBoard,
    moves: Vec<u16>,
}

thread_local! {
    static FOLLOWER: RefCell<Option<Follower>> = const { RefCell::new(None) };
}

/// Runs `work` on the pattern board of `game` (K = 5): the game's own if it keeps one, else
/// this thread's follower brought up to date. Not reentrant: `work` must not call it again.
pub(super) fn with_patterns<const W: usize, R>(
    game: &Mnk<W>,
    work: impl FnOnce(&PatternBoard) -> R,
) -> R {
    debug_assert_eq!(game.k(), 5);
    if let Some(board) = game.patterns.get() {
        return work(board);
    }
    FOLLOWER.with(|follower| {
        let mut follower = follower.borrow_mut();
        let fits = follower.as_ref().is_some_and(|follower| {
            follower.board.rows() == game.rows()
                && follower.board.cols() == game.cols()
                && follower.board.rule() == game.rule()
        });
        if !fits {
            *follower = Some(Follower {
                board: PatternBoard::new(game.rows(), game.cols(), game.rule()),
                moves: Vec::with_capacity(game.cells),
            });
        }
        let follower = follower.as_mut().expect("just filled");
        let history = game.history();
        let common = follower
            .moves
            .iter()
            .zip(history)
            .take_while(|(held, played)| held == played)
            .count();
        while follower.moves.len() > common {
            let cell = follower.moves.pop().expect("longer than the common start");
            follower.board.remove(cell as usize);
        }
        for (ply, &cell) in history.iter().enumerate().skip(common) {
            follower.board.place(cell as usize, ply % 2);
            follower.moves.push(cell);
        }
        work(&follower.board)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mnk::patterns::CellThreat;
    use crate::mnk::Rule;
    use zerosum_core::conformance::SplitMix;

    /// What the pattern evaluation reads: marks and keys of every cell, codes of the empty
    /// ones, the counts.
    fn assert_same(board: &PatternBoard, built: &PatternBoard) {
        assert_eq!(board.stone_count(), built.stone_count());
        for cell in 0..built.rows() * built.cols() {
            assert_eq!(board.mark(cell), built.mark(cell));
            for direction in 0..4 {
                assert_eq!(board.key(cell, direction), built.key(cell, direction));
            }
            if built.is_empty(cell) {
                for side in 0..2 {
                    assert_eq!(board.code(cell, side), built.code(cell, side));
                }
            }
        }
        for side in 0..2 {
            assert_eq!(board.code_counts(side), built.code_counts(side));
            for threat in CellThreat::ALL {
                assert_eq!(
                    board.threat_count(side, threat),
                    built.threat_count(side, threat)
                );
            }
        }
    }

    /// Random games on two boards, read in turns through one thread's follower: the board it
    /// gives is the one built from the stones.
    #[test]
    fn follows_games_as_built_from_their_stones() {
        let mut rng = SplitMix::new(0x5a);
        let mut games = [
            Mnk::<4>::with_rule(15, 15, 5, Rule::Freestyle),
            Mnk::<4>::with_rule(15, 15, 5, Rule::Freestyle),
            Mnk::<4>::with_rule(13, 13, 5, Rule::Standard),
        ];
        let mut moves = Vec::new();
        for step in 0..3000 {
            let game = &mut games[rng.below(3)];
            if game.status().is_over() || (game.ply() > 0 && rng.below(3) == 0) {
                game.undo();
            } else {
                game.legal_moves(&mut moves);
                game.play(moves[rng.below(moves.len())]);
            }
            if step % 2 == 0 {
                continue;
            }
            let stones = |side: usize| -> Vec<usize> {
                (0..game.cells)
                    .filter(|&cell| super::super::has(&game.stones[side], cell))
                    .collect()
            };
            let built = PatternBoard::with_stones(
                game.rows(),
                game.cols(),
                game.rule(),
                stones(0),
                stones(1),
            );
            with_patterns(game, |board| assert_same(board, &built));
        }
    }
}
