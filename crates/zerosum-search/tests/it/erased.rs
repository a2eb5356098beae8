//! A game behind `ErasedGame` (how generic code sees a family registered at run time) is
//! searched as the game itself: every algorithm, with the family's own evaluator, visits the
//! same nodes and answers the same move and score.

use zerosum_core::Game;
use zerosum_games::{visit_game, ErasedGame, EvaluatedGame, GameVisitor};
use zerosum_search::{Algorithm, SearchLimits, Searcher};

/// The move (as text), score and nodes of a search by each algorithm.
fn searches<G: EvaluatedGame>(game: &G, limits: &SearchLimits) -> Vec<(String, String, u64)> {
    Algorithm::ALL
        .into_iter()
        .map(|algorithm| {
            let mut searcher = Searcher::new(game.evaluator(), algorithm, 4);
            let result = searcher.search(game, limits, |_| {});
            let text = result.best_move.map(|mv| game.format_move(mv));
            (
                format!("{algorithm} {}", text.unwrap_or_default()),
                format!("{:?}", result.score),
                result.nodes,
            )
        })
        .collect()
}

struct Agree {
    moves: &'static str,
    limits: SearchLimits,
}

impl GameVisitor for Agree {
    type Output = ();

    fn visit<G: EvaluatedGame>(self, mut game: G) {
        game.play_list(self.moves).unwrap();
        let erased = ErasedGame::new(game.clone());
        assert_eq!(erased.history().len(), game.history().len());
        assert_eq!(
            searches(&game, &self.limits),
            searches(&erased, &self.limits),
            "{} after {}",
            game.spec(),
            self.moves
        );
    }
}

#[test]
fn an_erased_game_is_searched_as_the_game_itself() {
    for (spec, moves, limits) in [
        ("tictactoe", "b2", SearchLimits::depth(8)),
        ("gomoku", "h8,h9,i8", SearchLimits::depth(2)),
        ("connectx:5x6x4", "3,4", SearchLimits::depth(6)),
        ("hex:5", "c3", SearchLimits::nodes(3_000)),
        ("atoll:standard", "", SearchLimits::nodes(2_000)),
        ("unstable:4x4", "B2", SearchLimits::depth(3)),
    ] {
        visit_game(&spec.parse().unwrap(), Agree { moves, limits }).unwrap();
    }
}
