//! The answers about one position (`zerosum_arena::answers`): each solver a spec calls for
//! gives the known value, a limited solve says what it proved, a search limited by depth is
//! reproducible, and analysis values every legal move.

use std::time::Duration;

use zerosum_arena::answers::{
    analyze, search, AnswerError, EngineSettings, ExactEngine, Quiet, SearchEvent, SolveAnswer,
    SolveLimits, SolveSettings,
};
use zerosum_games::GameSpec;
use zerosum_search::{Algorithm, SearchLimits};

fn spec(text: &str) -> GameSpec {
    text.parse().unwrap()
}

fn settings(limits: Option<SolveLimits>) -> SolveSettings {
    SolveSettings {
        weak: false,
        hash_mb: 16,
        threads: 1,
        limits,
    }
}

fn solved(spec_text: &str, moves: &str) -> (String, Vec<String>) {
    match ExactEngine::new(&spec(spec_text), &settings(None))
        .solve(moves, &mut Quiet)
        .unwrap()
    {
        SolveAnswer::Solved(solved) => (solved.score, solved.best_moves),
        SolveAnswer::Unsolved(line) => panic!("{spec_text} after {moves}: {line}"),
    }
}

#[test]
fn each_solver_gives_the_known_value() {
    // Connect Four is a first-player win, in the middle column only (the book).
    assert_eq!(
        solved("connect4", ""),
        ("1".to_string(), vec!["4".to_string()])
    );
    // Tic-tac-toe is a draw (the generic solver); 3x3 Hex a win on b2 (proof numbers).
    assert_eq!(solved("tictactoe", "").0, "draw");
    assert_eq!(
        solved("hex:3", ""),
        ("win".to_string(), vec!["b2".to_string()])
    );
}

#[test]
fn a_solve_stopped_by_its_limits_says_what_it_proved() {
    let limits = SolveLimits {
        time: Some(Duration::from_secs(60)),
        nodes: Some(500),
    };
    let answer = ExactEngine::new(&spec("mnk:5x5x4"), &settings(Some(limits)))
        .solve("", &mut Quiet)
        .unwrap();
    let SolveAnswer::Unsolved(line) = answer else {
        panic!("5x5x4 solved in 500 nodes: {answer:?}");
    };
    assert!(line.contains("nodes"), "{line}");
}

#[test]
fn a_finished_game_or_a_bad_move_is_refused() {
    let mut engine = ExactEngine::new(&spec("tictactoe"), &settings(None));
    let over = engine.solve("a1 b1 a2 b2 a3", &mut Quiet).unwrap_err();
    assert!(matches!(over, AnswerError::Over { .. }), "{over}");
    let illegal = engine.solve("a1 a1", &mut Quiet).unwrap_err();
    assert!(matches!(illegal, AnswerError::Move(_)), "{illegal}");
}

fn engine(depth: usize) -> EngineSettings {
    EngineSettings {
        limits: SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        },
        hash_mb: 16,
        algorithm: Algorithm::Pvs,
        eval: None,
        weights: None,
    }
}

#[test]
fn a_search_limited_by_depth_is_reproducible_and_reports_each_iteration() {
    let run = || {
        let mut lines = Vec::new();
        let answer = search(&spec("gomoku"), "h8", &engine(3), &mut |event| {
            if let SearchEvent::Iteration(iteration) = event {
                lines.push(iteration.depth);
            }
        })
        .unwrap();
        (answer, lines)
    };
    let (first, depths) = run();
    let (second, _) = run();
    assert_eq!(depths, [1, 2, 3]);
    assert_eq!(
        (first.best_move.clone(), first.nodes, first.pv.clone()),
        (second.best_move, second.nodes, second.pv)
    );
    assert_eq!(first.depth, 3);
    assert_eq!(first.pv.first(), Some(&first.best_move));
}

#[test]
fn analysis_values_every_legal_move_best_first() {
    let values = analyze(&spec("tictactoe"), "a1", &engine(9)).unwrap();
    assert_eq!(values.len(), 8);
    // After a corner, the centre is the only reply that does not lose.
    assert_eq!(values[0].mv, "b2");
    assert_eq!(values[0].score, "draw");
    assert!(values[1..].iter().all(|v| v.solved && v.value < 0));
}
