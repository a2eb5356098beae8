//! The clock is a hard stop: on the largest board of every family, in the middle of a game, a
//! search given 2 ms returns a legal move at once (within a generous watchdog), so no step of
//! any evaluator (Hex and Atoll potentials, m,n,k threats and VCF, Unstable chains) runs long
//! between two looks at the clock.

use std::time::{Duration, Instant};

use zerosum_core::GameSpec;
use zerosum_games::{visit_game, EvaluatedGame, GameVisitor};
use zerosum_search::{Algorithm, SearchLimits, Searcher};

use crate::common::{legal, middle_game};

/// Far more than any step between two polls of the clock may take, even on a loaded machine.
const WATCHDOG: Duration = Duration::from_millis(500);

struct QuickSearch;

impl GameVisitor for QuickSearch {
    /// The time the search took, after some opening moves, and whether its move is legal.
    type Output = (Duration, bool);

    fn visit<G: EvaluatedGame>(self, mut game: G) -> (Duration, bool) {
        middle_game(&mut game);
        let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 1);
        let started = Instant::now();
        let result = searcher.search(&game, &SearchLimits::time(Duration::from_millis(2)), |_| {});
        let took = started.elapsed();
        (
            took,
            result.best_move.is_some_and(|m| legal(&game).contains(&m)),
        )
    }
}

#[test]
fn a_search_of_2_ms_answers_at_once_on_every_family() {
    for text in [
        "gomoku",
        "mnk:70x70x10",
        "connect4",
        "connectx:100x100x30",
        "hex:11",
        "hex:19",
        "atoll:standard",
        "unstable:10x6",
        "unstable:30x30",
    ] {
        let spec: GameSpec = text.parse().unwrap();
        let (took, legal) = visit_game(&spec, QuickSearch).unwrap();
        assert!(legal, "{text}: no legal move");
        assert!(took < WATCHDOG, "{text}: a 2 ms search took {took:?}");
    }
}
