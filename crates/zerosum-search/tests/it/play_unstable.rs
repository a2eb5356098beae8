//! The Unstable evaluator in play: wins in one and forced defences are never missed, the engine
//! beats a random player and a "win, else block, else random" player in every game, and the
//! evaluation is symmetric.
//!
//! Measurements (ignored by default; run with `--ignored --nocapture`): strength against the
//! material-only evaluation at equal nodes, and evaluation speed.

use std::time::Instant;

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Evaluator, Game, Outcome, Side, Status};
use zerosum_games::unstable::{Cell, Unstable, UnstableEvaluator, UnstableWeights};
use zerosum_games::EvaluatedGame;
use zerosum_search::{Algorithm, SearchLimits, Searcher};

use crate::common::*;

/// Win in one, else a move that leaves the opponent no win in one, else random.
fn win_block_move(game: &Unstable, rng: &mut SplitMix) -> Cell {
    if let Some(&mv) = winning_moves(game).first() {
        return mv;
    }
    let safe = safe_moves(game);
    if safe.is_empty() {
        random_move(game, rng)
    } else {
        safe[rng.below(safe.len())]
    }
}

fn engine_move(game: &Unstable, limits: &SearchLimits) -> Cell {
    let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 1);
    searcher
        .search(game, limits, |_| {})
        .best_move
        .expect("the game goes on")
}

/// Ongoing positions of a `rows` x `cols` board after 0 to `4 * rows * cols` random plies,
/// 200 for each of the `wanted`.
fn positions(rows: usize, cols: usize, wanted: usize, seed: u64) -> Vec<Unstable> {
    random_positions(
        &Unstable::new(rows, cols),
        wanted * 200,
        4 * rows * cols,
        seed,
    )
}

fn described(game: &Unstable) -> String {
    format!("after {:?}\n{}", game.history(), game.render())
}

#[test]
fn engine_never_misses_a_win_in_one() {
    for (rows, cols, seed) in [(10, 6, 1), (5, 5, 2), (3, 3, 3)] {
        let found = positions(rows, cols, 40, seed);
        let checked = check_wins_in_one(found, &SearchLimits::depth(2), 40, described);
        assert_eq!(checked, 40, "positions with a win in one on {rows}x{cols}");
    }
}

#[test]
fn engine_never_misses_a_forced_defence() {
    for (rows, cols, seed) in [(10, 6, 4), (5, 5, 5), (3, 4, 6)] {
        let found = positions(rows, cols, 30, seed);
        let checked = check_forced_blocks(found, &SearchLimits::depth(3), 30, described);
        assert_eq!(
            checked, 30,
            "positions with a forced defence on {rows}x{cols}"
        );
    }
}

#[test]
fn engine_wins_in_one_on_a_hand_made_position() {
    // Black's corner A1 is on the brink next to White's only cell A2, also on the brink.
    let mut game = Unstable::new(5, 5);
    game.play_list("A1,A2,E5,A2").unwrap();
    let mv = engine_move(&game, &SearchLimits::depth(3));
    assert_eq!(game.format_move(mv), "A1");
}

/// Plays `games` games with the engine first and as many second; returns (wins, losses).
fn match_against(
    rows: usize,
    cols: usize,
    limits: &SearchLimits,
    games: usize,
    seed: u64,
    opponent: fn(&Unstable, &mut SplitMix) -> Cell,
) -> (usize, usize) {
    let mut rng = SplitMix::new(seed);
    let mut tally = (0, 0);
    for game_index in 0..2 * games {
        let engine_side = if game_index < games {
            Side::First
        } else {
            Side::Second
        };
        let mut game = Unstable::new(rows, cols);
        let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 1);
        while !game.status().is_over() {
            let mv = if game.to_move() == engine_side {
                searcher
                    .search(&game, limits, |_| {})
                    .best_move
                    .expect("a move")
            } else {
                opponent(&game, &mut rng)
            };
            game.play(mv);
        }
        if game.status() == Status::Over(Outcome::Win(engine_side)) {
            tally.0 += 1;
        } else {
            tally.1 += 1;
        }
    }
    tally
}

#[test]
fn engine_beats_random_and_win_block_players_on_10x6() {
    let limits = SearchLimits::nodes(2_000);
    assert_eq!(match_against(10, 6, &limits, 10, 11, random_move), (20, 0));
    assert_eq!(
        match_against(10, 6, &limits, 10, 12, win_block_move),
        (20, 0)
    );
}

#[test]
fn engine_beats_random_and_win_block_players_on_5x5() {
    let limits = SearchLimits::nodes(2_000);
    assert_eq!(match_against(5, 5, &limits, 10, 13, random_move), (20, 0));
    assert_eq!(
        match_against(5, 5, &limits, 10, 14, win_block_move),
        (20, 0)
    );
}

#[test]
fn mirrored_positions_evaluate_alike() {
    for (rows, cols) in [(10, 6), (5, 5), (4, 7)] {
        let eval = UnstableEvaluator::new(rows, cols);
        for game in random_positions(&Unstable::new(rows, cols), 200, 3 * rows * cols, 21) {
            // Mirror left-right and top-bottom.
            let mut mirror = Unstable::new(rows, cols);
            for &mv in game.history() {
                let (row, col) = game.row_col(mv);
                mirror.play(mirror.cell(rows - 1 - row, cols - 1 - col));
            }
            assert_eq!(eval.evaluate(&game), eval.evaluate(&mirror));
        }
    }
}

#[test]
fn material_and_brink_duels_move_the_value() {
    let eval = UnstableEvaluator::new(10, 6);
    // White to move with an atom more than Black nowhere near: material decides the sign.
    let mut game = Unstable::new(10, 6);
    game.play_list("C3,H4,C3").unwrap();
    // Black C3 has 2 atoms (critical 4), White H4 one atom; White to move, down an atom.
    assert!(eval.evaluate(&game) < 0, "{}", game.render());
    // A duel: Black's corner A1 (1 atom) next to White's edge A2 (2 atoms), both on the brink.
    // The side to move fires first and should like it.
    let mut duel = Unstable::new(10, 6);
    duel.play_list("A1,A2,J6,A2").unwrap();
    let black_to_move = eval.evaluate(&duel);
    duel.play_list("D3,G4").unwrap();
    // Black wasted a move; still Black to move in the same duel, so still good for Black.
    assert!(black_to_move > 0 && eval.evaluate(&duel) > 0);
}

// ---------------------------------------------------------------------------------------------
// Measurements.

/// Games between two evaluators at equal node budgets, each pair of games from the same random
/// opening with colours swapped; returns the first evaluator's (wins, losses).
fn duel(
    rows: usize,
    cols: usize,
    ours: &UnstableEvaluator,
    theirs: &UnstableEvaluator,
    nodes: u64,
    pairs: usize,
    opening: usize,
) -> (usize, usize) {
    let mut rng = SplitMix::new(5);
    let mut tally = (0, 0);
    for _ in 0..pairs {
        let mut opened = Unstable::new(rows, cols);
        for _ in 0..opening {
            opened.play(random_move(&opened, &mut rng));
        }
        for our_side in Side::BOTH {
            let mut game = opened.clone();
            let mut us = Searcher::new(ours.clone(), Algorithm::Pvs, 16);
            let mut them = Searcher::new(theirs.clone(), Algorithm::Pvs, 16);
            while !game.status().is_over() {
                let limits = SearchLimits::nodes(nodes);
                let mv = if game.to_move() == our_side {
                    us.search(&game, &limits, |_| {}).best_move
                } else {
                    them.search(&game, &limits, |_| {}).best_move
                };
                game.play(mv.expect("a move"));
            }
            if game.status() == Status::Over(Outcome::Win(our_side)) {
                tally.0 += 1;
            } else {
                tally.1 += 1;
            }
        }
    }
    tally
}

#[test]
#[ignore = "measurement: run with --ignored --nocapture"]
fn measure_strength_against_material_only() {
    for (rows, cols) in [(10, 6), (5, 5)] {
        let full = UnstableEvaluator::new(rows, cols);
        let material =
            UnstableEvaluator::with_weights(rows, cols, UnstableWeights::material_only());
        for nodes in [2_000, 20_000] {
            let (w, l) = duel(rows, cols, &full, &material, nodes, 10, 2);
            println!(
                "unstable:{rows}x{cols}, {nodes} nodes/move, 20 games: full eval {w} wins, {l} losses against material only"
            );
        }
    }
}

#[test]
#[ignore = "measurement: run with --ignored --nocapture"]
fn measure_evaluation_speed() {
    for (rows, cols) in [(10, 6), (5, 5), (20, 20), (100, 100)] {
        let eval = UnstableEvaluator::new(rows, cols);
        let positions = random_positions(&Unstable::new(rows, cols), 200, 2 * rows * cols, 99);
        // The best of five timings: the machine is shared.
        let ns = (0..5)
            .map(|_| {
                let rounds = 40;
                let began = Instant::now();
                let mut sum = 0i64;
                for _ in 0..rounds {
                    for game in &positions {
                        sum += eval.evaluate(game) as i64;
                    }
                }
                assert_ne!(sum, i64::MIN);
                began.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64
            })
            .fold(f64::INFINITY, f64::min);
        println!("unstable:{rows}x{cols}: {ns:.0} ns per evaluation");
    }
}
