//! The Connect-X solver with threads: the same scores as one thread (and as the test files)
//! on positions of Pons' 7x6 sets and the 9x5 sets, many of them long enough for the helper
//! threads to start.

use zerosum_games::connect::{ConnectSolver, SolveLimits};

use super::connect_solver::{nine_by_five, pons, replay, Case};

/// Solves the first `count` cases with one thread and with two, each with its table cleared,
/// and checks both against the file; returns the nodes of each (all threads).
fn one_and_two_threads(rows: usize, cols: usize, cases: &[Case], count: usize) -> (u64, u64) {
    let mut one = ConnectSolver::<u64>::new(rows, cols, 4, 16);
    let mut two = ConnectSolver::<u64>::new(rows, cols, 4, 16);
    two.set_threads(2);
    assert_eq!((one.threads(), two.threads()), (1, 2));
    let (mut one_nodes, mut two_nodes) = (0, 0);
    for case in cases.iter().take(count) {
        let game = replay::<u64>(rows, cols, 4, &case.moves);
        one.reset();
        two.reset();
        assert_eq!(one.solve(&game, false), Ok(case.score), "{}", case.text);
        assert_eq!(
            two.solve(&game, false),
            Ok(case.score),
            "{} (2 threads)",
            case.text
        );
        one_nodes += one.nodes();
        two_nodes += two.nodes();
    }
    (one_nodes, two_nodes)
}

#[test]
fn two_threads_give_the_scores_of_one_on_pons_sets() {
    let mut total = (0, 0);
    for (name, count) in [
        ("Test_L3_R1", 40),
        ("Test_L2_R1", 40),
        ("Test_L2_R2", 120),
        ("Test_L1_R1", 60),
    ] {
        let (one, two) = one_and_two_threads(6, 7, &pons(name), count);
        eprintln!("{name}, first {count}: {one} nodes with 1 thread, {two} with 2");
        total = (total.0 + one, total.1 + two);
    }
    assert!(total.0 > 0 && total.1 > 0);
}

#[test]
fn two_threads_give_the_scores_of_one_on_nine_by_five_sets() {
    for (name, count) in [
        ("endgame_L1", 30),
        ("midgame_L1", 30),
        ("midgame_L2", 60),
        ("opening_L1", 20),
    ] {
        let (one, two) = one_and_two_threads(5, 9, &nine_by_five(name), count);
        eprintln!("9x5 {name}, first {count}: {one} nodes with 1 thread, {two} with 2");
    }
}

#[test]
fn two_threads_analyze_like_one_and_obey_a_node_limit() {
    let cases = pons("Test_L1_R1");
    let mut one = ConnectSolver::<u64>::new(6, 7, 4, 16);
    let mut two = ConnectSolver::<u64>::new(6, 7, 4, 16);
    two.set_threads(2);
    for case in cases.iter().take(5) {
        let game = replay::<u64>(6, 7, 4, &case.moves);
        let values = one.analyze(&game, false).unwrap();
        assert_eq!(two.analyze(&game, false), Ok(values), "{}", case.text);
    }
    // The empty board takes far more than a million nodes: the main thread stops there,
    // and the helper with it.
    let empty = replay::<u64>(6, 7, 4, &[]);
    let limits = SolveLimits {
        nodes: Some(1_000_000),
        ..SolveLimits::default()
    };
    two.reset();
    assert!(two.solve_within(&empty, false, &limits).is_err());
}
