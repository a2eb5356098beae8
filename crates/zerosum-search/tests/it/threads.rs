//! Threads in the search (Lazy SMP): one thread is deterministic and unchanged (the figures of
//! `zerosum bench`), several threads give legal moves on every family with every algorithm,
//! prove the same values as one thread, keep to the clock and count their nodes together.

use std::time::Duration;

use zerosum_core::conformance::SplitMix;
use zerosum_games::{visit_game, EvaluatedGame, GameSpec, GameVisitor};
use zerosum_search::{Algorithm, SearchLimits, Searcher, Threads};

use crate::common::{legal, quick_searches_answer_at_once};

fn limits(threads: usize, base: SearchLimits) -> SearchLimits {
    SearchLimits {
        threads: Threads::new(threads).unwrap(),
        ..base
    }
}

/// What a search answered: the move (as text), score, depth, nodes and whether it is proven;
/// `legal` says whether the move was a legal one.
#[derive(Debug, PartialEq)]
struct Answer {
    best: String,
    score: i32,
    depth: usize,
    nodes: u64,
    solved: bool,
    legal: bool,
}

/// Searches a position (`moves` played from the start) on a fresh table.
struct Search {
    moves: String,
    limits: SearchLimits,
    algorithm: Algorithm,
}

impl GameVisitor for Search {
    type Output = Answer;

    fn visit<G: EvaluatedGame>(self, mut game: G) -> Answer {
        game.play_list(&self.moves).unwrap();
        let mut searcher = Searcher::new(game.evaluator(), self.algorithm, 4);
        let result = searcher.search(&game, &self.limits, |_| {});
        let best = result.best_move.unwrap();
        Answer {
            best: game.format_move(best),
            score: result.score.0,
            depth: result.depth,
            nodes: result.nodes,
            solved: result.solved,
            legal: legal(&game).contains(&best),
        }
    }
}

fn search(spec: &str, moves: &str, limits: SearchLimits, algorithm: Algorithm) -> Answer {
    let spec: GameSpec = spec.parse().unwrap();
    visit_game(
        &spec,
        Search {
            moves: moves.to_string(),
            limits,
            algorithm,
        },
    )
    .unwrap()
}

#[test]
fn one_thread_is_deterministic_and_unchanged() {
    // Positions, depths, nodes and moves of `zerosum bench` (16 MB there, 4 MB here: these
    // searches do not fill either). A change that alters the search changes them with the
    // bench signature, and says so.
    for (spec, moves, depth, nodes, best) in [
        ("tictactoe", "", 9, 1921, "a1"),
        ("gomoku", "h8,h9,i8", 5, 1182, "g8"),
        ("connect4", "", 11, 136_857, "4"),
        ("connect4", "4453", 11, 81_675, "3"),
        ("unstable", "", 5, 129_911, "A1"),
    ] {
        let first = search(
            spec,
            moves,
            limits(1, SearchLimits::depth(depth)),
            Algorithm::Pvs,
        );
        let second = search(
            spec,
            moves,
            limits(1, SearchLimits::depth(depth)),
            Algorithm::Pvs,
        );
        assert_eq!(first, second, "{spec} {moves}: two runs differ");
        assert_eq!(
            (first.nodes, first.best.as_str()),
            (nodes, best),
            "{spec} {moves}: not the bench's figures"
        );
    }
}

#[test]
fn two_threads_give_legal_moves_on_every_family_with_every_table_algorithm() {
    for (spec, moves, depth) in [
        ("tictactoe", "a1", 8),
        ("gomoku", "h8,h9,i8", 4),
        ("connect4", "4453", 10),
        ("hex:7", "d4", 3),
        ("atoll:standard", "", 2),
        ("unstable:6x6", "", 4),
    ] {
        // Minimax has no table to share: it searches alone.
        for algorithm in [Algorithm::Pvs, Algorithm::Mtdf, Algorithm::AlphaBeta] {
            let answer = search(
                spec,
                moves,
                limits(2, SearchLimits::depth(depth)),
                algorithm,
            );
            assert!(answer.legal, "{spec} {moves} {algorithm}: {answer:?}");
            // A helper may prove the value first; the main thread then stops early.
            assert!(
                answer.depth == depth || answer.solved,
                "{spec} {moves} {algorithm}: {answer:?}"
            );
        }
        let timed = limits(2, SearchLimits::time(Duration::from_millis(50)));
        let answer = search(spec, moves, timed, Algorithm::Pvs);
        assert!(answer.legal, "{spec} {moves} timed: {answer:?}");
    }
}

/// Positions `plies` random moves (seeded) into games of `spec` that are still going.
fn random_positions(spec: &str, plies: usize, count: usize, seed: u64) -> Vec<String> {
    struct Walk {
        plies: usize,
        rng: SplitMix,
    }
    impl GameVisitor for Walk {
        type Output = Option<String>;
        fn visit<G: EvaluatedGame>(mut self, mut game: G) -> Option<String> {
            let mut played = Vec::new();
            for _ in 0..self.plies {
                let moves = legal(&game);
                let mv = moves[self.rng.below(moves.len())];
                played.push(game.format_move(mv));
                game.play(mv);
                if game.status().is_over() {
                    return None;
                }
            }
            Some(played.join(","))
        }
    }
    let spec: GameSpec = spec.parse().unwrap();
    let mut rng = SplitMix::new(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let walk = Walk {
            plies,
            rng: SplitMix::new(rng.next_u64()),
        };
        if let Some(moves) = visit_game(&spec, walk).unwrap() {
            positions.push(moves);
        }
    }
    positions
}

#[test]
fn two_threads_prove_the_values_one_thread_proves() {
    let mut decisive = 0;
    for (spec, plies, seed) in [
        ("tictactoe", 2, 1),
        ("mnk:4x4x3", 3, 2),
        ("connect4", 24, 3),
        ("connectx:5x5x4", 8, 4),
        ("hex:4", 3, 5),
    ] {
        for moves in random_positions(spec, plies, 6, seed) {
            let budget = SearchLimits::nodes(2_000_000);
            let one = search(spec, &moves, limits(1, budget), Algorithm::Pvs);
            if !one.solved {
                continue;
            }
            decisive += usize::from(one.score != 0);
            for algorithm in [Algorithm::Pvs, Algorithm::Mtdf, Algorithm::AlphaBeta] {
                let two = search(spec, &moves, limits(2, SearchLimits::default()), algorithm);
                assert!(
                    two.solved && two.legal,
                    "{spec} {moves} {algorithm}: {two:?}"
                );
                assert_eq!(
                    two.score, one.score,
                    "{spec} {moves} {algorithm}: two threads {two:?}, one {one:?}"
                );
            }
        }
    }
    assert!(
        decisive >= 5,
        "only {decisive} forced wins or losses among the positions"
    );
}

#[test]
fn two_threads_keep_to_the_clock() {
    // After some opening moves, the largest boards of a few families: a 2 ms search with two
    // threads answers at once (both threads keep to the clock).
    quick_searches_answer_at_once(
        &[
            "gomoku",
            "connectx:100x100x30",
            "hex:19",
            "atoll:standard",
            "unstable:30x30",
        ],
        2,
    );
}

#[test]
fn the_node_limit_holds_for_all_threads_together() {
    for threads in [1, 2, 3] {
        let answer = search(
            "connect4",
            "",
            limits(threads, SearchLimits::nodes(200_000)),
            Algorithm::Pvs,
        );
        assert!(answer.legal);
        // Each thread adds its nodes to the total every 32 nodes, and stops at its next look.
        let slack = 64 * threads as u64;
        assert!(
            answer.nodes <= 200_000 + slack,
            "{threads} threads searched {} nodes",
            answer.nodes
        );
        assert!(answer.nodes >= 200_000 - slack, "{answer:?}");
    }
}

#[test]
fn a_thread_count_of_zero_or_too_many_is_refused_clearly() {
    assert_eq!(SearchLimits::default().threads, Threads::ONE);
    let zero = "0".parse::<Threads>().unwrap_err().to_string();
    assert!(
        zero.starts_with("threads must be between 1 and ") && zero.ends_with(", not 0"),
        "{zero}"
    );
    let many = Threads::new(Threads::max() + 1).unwrap_err().to_string();
    assert!(many.contains("per logical core"), "{many}");
    assert!("x".parse::<Threads>().is_err());
}
