//! The Hex evaluator under search: wins in one and forced blocks are never missed, the engine
//! beats a random player and a "win, else block, else random" player in every game, the
//! evaluation is antisymmetric and mirror-symmetric, and the swap rules work. The `measure_*`
//! tests (ignored; run them in release with `--ignored --nocapture`) print the evaluation speed
//! and the strength of the potential settings against each other.

use std::time::Instant;

use zerosum_core::{Evaluator, Game, Outcome, Side, Status};
use zerosum_games::connection::potential::{PotentialParams, JOINED_BONUS, POTENTIAL_UNIT};
use zerosum_games::connection::{Stone, StoneMove};
use zerosum_games::hex::{inferior::is_dead, SwapRule};
use zerosum_games::hex::{Hex, HexEvaluator, HexMove};
use zerosum_games::EvaluatedGame;
use zerosum_search::{Algorithm, SearchLimits, Searcher};

use crate::common::*;

// ---------------------------------------------------------------------------------------------
// Positions.

fn hex(width: usize, height: usize, swap: Option<SwapRule>, moves: &str) -> Hex {
    let mut game = Hex::new(width, height, swap);
    game.play_list(moves).unwrap();
    game
}

fn cell(game: &Hex, name: &str) -> HexMove {
    game.parse_move(name).unwrap()
}

const SIZES: [(usize, usize); 5] = [(4, 4), (5, 5), (7, 7), (6, 4), (9, 9)];

// ---------------------------------------------------------------------------------------------
// Tactics.

#[test]
fn engine_takes_the_win_in_one() {
    // Black a1-a4 down the first column of 5x5, then b... : Black needs a5.
    let game = hex(5, 5, None, "a1 b1 a2 b2 a3 b3 a4 b4");
    let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 1);
    let mv = engine_move(&mut searcher, &game, &SearchLimits::depth(3));
    assert_eq!(game.format_move(mv), "a5");
}

#[test]
fn engine_blocks_the_only_threat() {
    // White (to move) must stop Black's a5 (Black's only way to finish), then Black's
    // other threats are gone: the engine must play a5.
    let game = hex(5, 5, None, "a1 c3 a2 d4 a3 b4 a4");
    assert_eq!(winning_moves(&game), Vec::<HexMove>::new());
    let mut after_pass = game.clone();
    after_pass.play(cell(&game, "e1"));
    assert_eq!(winning_moves(&after_pass), vec![cell(&game, "a5")]);
    let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 1);
    let mv = engine_move(&mut searcher, &game, &SearchLimits::depth(2));
    assert_eq!(game.format_move(mv), "a5");
}

/// Random positions of `start`'s board: after 0 to one less than its cells random plies.
fn random_positions(start: &Hex, count: usize, seed: u64) -> Vec<Hex> {
    crate::common::random_positions(start, count, start.width() * start.height() - 1, seed)
}

#[test]
fn engine_never_misses_a_win_in_one_on_random_positions() {
    let mut checked = 0;
    for (index, &(width, height)) in SIZES.iter().enumerate() {
        let start = Hex::new(width, height, None);
        let positions = random_positions(&start, 60, index as u64);
        checked += check_wins_in_one(positions, &SearchLimits::depth(2), usize::MAX, |game| {
            format!("hex {width}x{height} after {}", line(game))
        });
    }
    assert!(checked > 50, "only {checked} positions with a win in one");
}

#[test]
fn engine_never_misses_a_forced_block_on_random_positions() {
    let mut checked = 0;
    for (index, &(width, height)) in SIZES.iter().enumerate() {
        let start = Hex::new(width, height, None);
        let positions = random_positions(&start, 300, 100 + index as u64);
        checked += check_forced_blocks(positions, &SearchLimits::depth(2), usize::MAX, |game| {
            format!("hex {width}x{height} after {}", line(game))
        });
    }
    assert!(checked > 50, "only {checked} positions with a forced block");
}

// ---------------------------------------------------------------------------------------------
// Matches.

#[test]
fn engine_beats_the_random_player() {
    for size in [5, 7] {
        let start = Hex::new(size, size, None);
        engine_wins_every_game(
            &start,
            &SearchLimits::depth(2),
            random_move,
            10,
            size as u64,
        );
    }
}

#[test]
fn engine_beats_the_win_block_player() {
    for size in [5, 7] {
        let start = Hex::new(size, size, None);
        engine_wins_every_game(
            &start,
            &SearchLimits::nodes(3_000),
            win_block_move,
            10,
            10 + size as u64,
        );
    }
}

#[test]
fn engine_wins_on_swap_boards() {
    for swap in [SwapRule::Sides, SwapRule::Pieces] {
        let start = Hex::new(5, 5, Some(swap));
        engine_wins_every_game(&start, &SearchLimits::nodes(3_000), win_block_move, 5, 77);
    }
}

// ---------------------------------------------------------------------------------------------
// Evaluation.

/// The evaluator `EvaluatedGame` gives for `game`'s board.
fn evaluator(game: &Hex) -> HexEvaluator {
    game.evaluator()
}

#[test]
fn a_chain_joined_but_for_a_bridge_scores_high() {
    // Black c1 c2, then d3 bridged to c2 through c3 and d2, then d4 d5.
    let mut bridged = hex(5, 5, None, "c1 a1 c2 a2 d3 a3 d4 a4 d5");
    bridged.play(cell(&bridged, "e1"));
    let evaluator = evaluator(&bridged);
    let black = evaluator.evaluate_colour(&bridged, Stone::Black);
    assert!(black > JOINED_BONUS, "bridged chain: {black}");
    assert_eq!(evaluator.evaluate(&bridged), black, "Black to move");
    // White intrudes into the bridge: Black must answer, and is no longer joined.
    let mut intruded = hex(5, 5, None, "c1 a1 c2 a2 d3 a3 d4 a4 d5 d2");
    let black = evaluator.evaluate_colour(&intruded, Stone::Black);
    assert!(black < JOINED_BONUS && black > 0, "intruded: {black}");
    assert_eq!(
        evaluator.move_hint(&intruded, cell(&intruded, "c3")),
        1_000,
        "saving the bridge is hinted first"
    );
    let mut searcher = Searcher::new(evaluator.clone(), Algorithm::Pvs, 1);
    let mv = engine_move(&mut searcher, &intruded, &SearchLimits::depth(1));
    assert_eq!(
        intruded.format_move(mv),
        "c3",
        "the engine saves the bridge"
    );
    intruded.play(mv);
    assert_eq!(intruded.status(), Status::Over(Outcome::Win(Side::First)));
}

#[test]
fn more_stones_on_the_way_score_better() {
    // Black in the centre against White in an acute corner: good for Black, whoever is to
    // move.
    let game = hex(7, 7, None, "d4 a1");
    let evaluator = evaluator(&game);
    let black = evaluator.evaluate_colour(&game, Stone::Black);
    assert!(black > 0, "{black}");
    // A Black stone on the path scores better than one off it.
    let central = hex(7, 7, None, "d4 a7 d5 a6");
    let aside = hex(7, 7, None, "d4 a7 g1 a6");
    assert!(
        evaluator.evaluate_colour(&central, Stone::Black)
            > evaluator.evaluate_colour(&aside, Stone::Black)
    );
    // The empty board is balanced.
    assert_eq!(evaluator.evaluate(&Hex::new(7, 7, None)), 0);
}

/// The position with every stone moved by `map` on a `width x height` board and the colours
/// exchanged if `exchange`; built by replaying moves (equal stone counts needed to exchange).
fn transformed(
    game: &Hex,
    width: usize,
    height: usize,
    exchange: bool,
    map: impl Fn(usize, usize) -> (usize, usize),
) -> Hex {
    let mut black = Vec::new();
    let mut white = Vec::new();
    for (index, &stone) in game.stones().iter().enumerate() {
        let (c, r) = game.coordinates(index);
        let (c, r) = map(c, r);
        let target = r * width + c;
        match (stone, exchange) {
            (Stone::Black, false) | (Stone::White, true) => black.push(target),
            (Stone::White, false) | (Stone::Black, true) => white.push(target),
            _ => {}
        }
    }
    let mut image = Hex::new(width, height, None);
    for i in 0..black.len().max(white.len()) {
        for list in [&black, &white] {
            if let Some(&target) = list.get(i) {
                image.play(StoneMove::Place(target as u16));
            }
        }
    }
    image
}

#[test]
fn evaluation_is_antisymmetric_and_mirror_symmetric() {
    for &(width, height) in &SIZES {
        let start = Hex::new(width, height, None);
        let evaluator = evaluator(&start);
        let mirror = HexEvaluator::new(height, width);
        for game in random_positions(&start, 30, 500 + width as u64) {
            let black = evaluator.evaluate_colour(&game, Stone::Black);
            assert_eq!(black, -evaluator.evaluate_colour(&game, Stone::White));
            // The half turn keeps the colours' goals.
            let turned = transformed(&game, width, height, false, |c, r| {
                (width - 1 - c, height - 1 - r)
            });
            assert_eq!(evaluator.evaluate_colour(&turned, Stone::Black), black);
            // The mirror across the long diagonal exchanges them.
            if game.ply() % 2 == 0 {
                let mirrored = transformed(&game, height, width, true, |c, r| (r, c));
                assert_eq!(
                    mirror.evaluate_colour(&mirrored, Stone::White),
                    black,
                    "{}",
                    line(&game)
                );
            }
        }
    }
}

#[test]
fn swap_rules_are_evaluated_from_the_right_colour() {
    // After `c3 swap-sides` the first player has White and moves, facing Black's centre stone;
    // after `c3 swap-pieces` Black moves against White's centre stone (the mirror image).
    let sides = hex(5, 5, Some(SwapRule::Sides), "c3 swap");
    let pieces = hex(5, 5, Some(SwapRule::Pieces), "c3 swap");
    let evaluator = evaluator(&sides);
    assert_eq!(sides.colour_of(sides.to_move()), Stone::White);
    assert_eq!(pieces.colour_of(pieces.to_move()), Stone::Black);
    let value = evaluator.evaluate(&sides);
    assert!(value < 0, "{value}");
    assert_eq!(evaluator.evaluate(&pieces), value);
    // A central opening is worth swapping: searched first, and chosen.
    for start in [
        hex(5, 5, Some(SwapRule::Sides), "c3"),
        hex(5, 5, Some(SwapRule::Pieces), "c3"),
    ] {
        let mut moves = Vec::new();
        evaluator.candidate_moves(&start, &mut moves);
        assert_eq!(moves.first(), Some(&StoneMove::Swap));
        let mut searcher = Searcher::new(evaluator.clone(), Algorithm::Pvs, 1);
        let mv = engine_move(&mut searcher, &start, &SearchLimits::depth(2));
        assert_eq!(mv, StoneMove::Swap);
    }
    // A corner opening is not.
    let corner = hex(5, 5, Some(SwapRule::Sides), "a1");
    let mut moves = Vec::new();
    evaluator.candidate_moves(&corner, &mut moves);
    assert_eq!(moves.last(), Some(&StoneMove::Swap));
}

/// The legal moves of `game` but those on dead cells (unless every move is).
fn live_moves(game: &Hex) -> Vec<HexMove> {
    let mut moves = legal(game);
    let live = |mv: &HexMove| match *mv {
        StoneMove::Place(cell) => !is_dead(game, cell as usize),
        StoneMove::Swap => true,
    };
    if moves.iter().any(live) {
        moves.retain(live);
    }
    moves
}

#[test]
fn candidate_moves_are_the_legal_moves_but_dead_cells_best_first() {
    for &(width, height) in &SIZES {
        for swap in [None, Some(SwapRule::Sides)] {
            let start = Hex::new(width, height, swap);
            let evaluator = evaluator(&start);
            for game in random_positions(&start, 20, 900 + width as u64) {
                let mut candidates = Vec::new();
                evaluator.candidate_moves(&game, &mut candidates);
                let mut sorted = candidates.clone();
                sorted.sort();
                let mut moves = live_moves(&game);
                moves.sort();
                assert_eq!(sorted, moves, "{}", line(&game));
            }
        }
    }
    // On an open board the centre comes first.
    let game = Hex::new(7, 7, None);
    let mut candidates = Vec::new();
    evaluator(&game).candidate_moves(&game, &mut candidates);
    assert_eq!(game.format_move(candidates[0]), "d4");
    // The cell Black needs comes first for both sides.
    let game = hex(5, 5, None, "a1 c3 a2 d4 a3 b4 a4");
    evaluator(&game).candidate_moves(&game, &mut candidates);
    assert_eq!(game.format_move(candidates[0]), "a5");
}

#[test]
fn evaluations_stay_in_range_on_every_board_size() {
    for (width, height) in [
        (1, 1),
        (1, 6),
        (6, 1),
        (2, 2),
        (13, 13),
        (19, 11),
        (40, 40),
        (100, 100),
    ] {
        let start = Hex::new(width, height, None);
        let evaluator = evaluator(&start);
        for game in random_positions(&start, 3, (width * 1000 + height) as u64) {
            let value = evaluator.evaluate(&game);
            assert!(value.abs() < 20_000, "{width}x{height}: {value}");
            let mut candidates = Vec::new();
            evaluator.candidate_moves(&game, &mut candidates);
            assert_eq!(candidates.len(), live_moves(&game).len());
        }
    }
    // One stone on 3x3 is worth potential steps, not just alternatives.
    let game = hex(3, 3, None, "b2");
    assert!(evaluator(&game).evaluate_colour(&game, Stone::Black) >= POTENTIAL_UNIT);
}

// ---------------------------------------------------------------------------------------------
// Measurements (ignored by default).

#[test]
#[ignore = "measurement: run in release with --ignored --nocapture"]
fn measure_evaluation_speed() {
    for size in [7, 11, 13, 19] {
        let start = Hex::new(size, size, None);
        let evaluator = evaluator(&start);
        let positions = random_positions(&start, 200, size as u64);
        let rounds = 50;
        let begin = Instant::now();
        let mut sum = 0i64;
        for _ in 0..rounds {
            for game in &positions {
                sum += i64::from(evaluator.evaluate(std::hint::black_box(game)));
            }
        }
        let per_call = begin.elapsed().as_nanos() / (rounds * positions.len()) as u128;
        println!("hex {size}x{size}: {per_call} ns per evaluation (checksum {sum})");
    }
}

#[test]
#[ignore = "measurement: run in release with --ignored --nocapture"]
fn measure_strength() {
    let others = [
        ("pure two-distance", PotentialParams::TWO_DISTANCE),
        (
            "two-distance over chains",
            PotentialParams {
                bridges: true,
                ..PotentialParams::DEFAULT
            },
        ),
        ("shortest path over chains", PotentialParams::SHORTEST_PATH),
    ];
    for (size, nodes, openings) in [(7, 5_000, 10), (9, 3_000, 30)] {
        let start = Hex::new(size, size, None);
        let default = HexEvaluator::new(size, size);
        for &(name, params) in &others {
            let other = HexEvaluator::with_params(size, size, params);
            let [a, b, _] = duel(&start, default.clone(), other, nodes, openings);
            println!("hex {size}x{size}, {nodes} nodes: default {a} - {b} {name}");
        }
        let [a, b, _] = duel(&start, default, NoKnowledge, nodes, openings);
        println!("hex {size}x{size}, {nodes} nodes: default {a} - {b} no knowledge");
    }
}
