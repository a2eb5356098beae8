//! The exact solver against truth: known game values, full-depth minimax, weak against strong.

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Evaluator, Game, Score};
use zerosum_games::{visit_game, GameSpec, GameVisitor};
use zerosum_search::{Algorithm, AlphaBetaSolver, SearchLimits, Searcher, WeakValue};

/// No knowledge at all: the solver must not need any to be right.
#[derive(Clone)]
struct Blind;

impl<G: Game> Evaluator<G> for Blind {
    fn evaluate(&self, _game: &G) -> i32 {
        0
    }
}

struct Value {
    weak: bool,
}

impl GameVisitor for Value {
    type Output = Score;
    fn visit<G: Game>(self, game: G) -> Score {
        let mut solver = AlphaBetaSolver::new(Blind, 16);
        let solution = solver
            .solve(&game, self.weak, &SearchLimits::default())
            .unwrap();
        assert!(solution.best_moves.iter().all(|&m| game.is_legal(m)));
        solution.score
    }
}

fn value(spec: &str, weak: bool) -> Score {
    let spec: GameSpec = spec.parse().unwrap();
    visit_game(&spec, Value { weak }).unwrap()
}

#[test]
fn known_values_of_small_boards() {
    // (spec, sign of the value for the first player), from data/known-results.md and docs/reference/rules.md.
    for (spec, sign) in [
        ("tictactoe", 0),
        ("mnk:4x3x3", 1),
        ("mnk:4x4x3", 1),
        ("connectx:4x4x4", 0),
        ("connectx:4x5x4", 0),
        ("connectx:5x4x4", 0),
        ("hex:2", 1),
        ("hex:3", 1),
        ("hex:4", 1),
        ("unstable:2x2", -1),
    ] {
        let weak = value(spec, true);
        assert_eq!(weak.0, sign, "{spec} weak");
        let strong = value(spec, false);
        assert_eq!(strong.0.signum(), sign, "{spec} strong: {strong}");
    }
}

struct AgainstMinimax {
    positions: usize,
}

impl GameVisitor for AgainstMinimax {
    type Output = ();
    fn visit<G: Game>(self, start: G) {
        let mut rng = SplitMix::new(99);
        let mut moves = Vec::new();
        let mut solver = AlphaBetaSolver::new(Blind, 4);
        let mut minimax = Searcher::new(Blind, Algorithm::Minimax, 1);
        let mut done = 0;
        while done < self.positions {
            let mut game = start.clone();
            for _ in 0..rng.below(game.move_id_bound()) {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.below(moves.len())]);
            }
            if game.status().is_over() {
                continue;
            }
            let line: Vec<String> = game
                .history()
                .iter()
                .map(|&m| game.format_move(m))
                .collect();
            // Minimax to the end of the game: every leaf is a finished game.
            let truth = minimax.search(&game, &SearchLimits::depth(64), |_| {});
            assert!(truth.solved);
            solver.clear();
            let strong = solver
                .solve(&game, false, &SearchLimits::default())
                .unwrap();
            assert_eq!(strong.score, truth.score, "strong after {}", line.join(","));
            let weak = solver.solve(&game, true, &SearchLimits::default()).unwrap();
            assert_eq!(
                weak.score.0,
                truth.score.0.signum(),
                "weak after {}",
                line.join(",")
            );
            // Every best move achieves the value.
            for &mv in &strong.best_moves {
                let mut child = game.clone();
                child.play(mv);
                let reply = solver
                    .solve(&child, false, &SearchLimits::default())
                    .unwrap();
                let through = if reply.score.is_decisive() {
                    // One ply further from the root.
                    Score(-reply.score.0 + reply.score.0.signum())
                } else {
                    -reply.score
                };
                assert_eq!(
                    through,
                    strong.score,
                    "{} after {}",
                    game.format_move(mv),
                    line.join(",")
                );
            }
            assert!(!strong.best_moves.is_empty());
            done += 1;
        }
    }
}

#[test]
fn strong_and_weak_solutions_match_full_depth_minimax() {
    for (spec, positions) in [
        ("tictactoe", 150),
        ("mnk:3x4x3", 60),
        ("connectx:3x4x3", 60),
        ("hex:3", 80),
        ("hex:3:swap-sides", 40),
        ("atoll:hexhex2", 40),
        ("unstable:2x3", 40),
    ] {
        let spec: GameSpec = spec.parse().unwrap();
        visit_game(&spec, AgainstMinimax { positions }).unwrap();
    }
}

#[test]
fn interrupted_solves_say_so() {
    struct Interrupted;
    impl GameVisitor for Interrupted {
        type Output = ();
        fn visit<G: Game>(self, game: G) {
            let mut solver = AlphaBetaSolver::new(Blind, 1);
            assert!(solver
                .solve(&game, false, &SearchLimits::nodes(1_000))
                .is_err());
        }
    }
    visit_game(&"gomoku".parse().unwrap(), Interrupted).unwrap();
}

/// Depth-limited proofs are sound: at every horizon, on random positions, the bounds hold the
/// true win/draw/loss value, only tighten as the horizon deepens, and meet once it is deep
/// enough, when the exact solve that follows gives the true value.
struct BoundsHoldTheValue {
    positions: usize,
}

impl GameVisitor for BoundsHoldTheValue {
    type Output = ();
    fn visit<G: Game>(self, start: G) {
        let mut rng = SplitMix::new(7);
        let mut moves = Vec::new();
        let mut solver = AlphaBetaSolver::new(Blind, 4);
        for _ in 0..self.positions {
            let mut game = start.clone();
            for _ in 0..rng.below(game.move_id_bound()) {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.below(moves.len())]);
            }
            if game.status().is_over() {
                continue;
            }
            solver.clear();
            let truth = WeakValue::of(
                solver
                    .solve(&game, true, &SearchLimits::default())
                    .unwrap()
                    .score,
            );
            let mut previous = (WeakValue::Loss, WeakValue::Win);
            for depth in 1..=400 {
                let mut reported = 0;
                let proof = solver.prove(&game, true, &SearchLimits::depth(depth), |b, _, _| {
                    reported += 1;
                    assert_eq!(b.depth, reported);
                });
                let bounds = proof.bounds;
                assert!(bounds.depth <= depth);
                assert!(
                    bounds.lower <= truth && truth <= bounds.upper,
                    "{bounds:?} against {truth:?} at horizon {depth}"
                );
                assert!(previous.0 <= bounds.lower && bounds.upper <= previous.1);
                previous = (bounds.lower, bounds.upper);
                if let Some(solution) = proof.solution {
                    assert_eq!(bounds.exact(), Some(truth));
                    assert_eq!(WeakValue::of(solution.score), truth);
                    assert!(game.is_legal(solution.best_moves[0]));
                    break;
                }
            }
            assert_eq!(previous, (truth, truth), "never met");
            // The strong solve at the end of a proof is the plain strong solve's.
            solver.clear();
            let strong = solver
                .solve(&game, false, &SearchLimits::default())
                .unwrap();
            let proof = solver.prove(&game, false, &SearchLimits::default(), |_, _, _| {});
            let proved = proof.solution.expect("solved without limits");
            assert_eq!(proved.score, strong.score);
            assert_eq!(proved.best_moves, strong.best_moves);
        }
    }
}

#[test]
fn depth_limited_proofs_hold_the_value() {
    for (spec, positions) in [
        ("tictactoe", 60),
        ("mnk:3x4x3", 30),
        ("connectx:3x4x3", 30),
        ("hex:3", 30),
        ("unstable:2x3", 20),
    ] {
        let spec: GameSpec = spec.parse().unwrap();
        visit_game(&spec, BoundsHoldTheValue { positions }).unwrap();
    }
}

#[test]
fn a_limited_proof_ends_with_what_it_proved() {
    struct Limited;
    impl GameVisitor for Limited {
        type Output = ();
        fn visit<G: Game>(self, game: G) {
            let mut solver = AlphaBetaSolver::new(Blind, 1);
            let proof = solver.prove(&game, false, &SearchLimits::nodes(20_000), |_, _, _| {});
            assert!(proof.solution.is_none());
            assert_eq!(proof.bounds.exact(), None);
            assert!(proof.bounds.depth >= 1, "{proof:?}");
            assert!(
                proof.nodes >= 20_000 && proof.nodes < 21_000,
                "{}",
                proof.nodes
            );
        }
    }
    visit_game(&"gomoku".parse().unwrap(), Limited).unwrap();
}
