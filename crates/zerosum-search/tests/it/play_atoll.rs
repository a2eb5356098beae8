//! The Atoll evaluator under search: wins in one and forced blocks are never missed, the engine
//! beats a random player and a "win, else block, else random" player in every game on the
//! standard (8-island) and hexhex4 (12-island) boards, the evaluation is antisymmetric and
//! symmetric under the board's symmetries, and the pie rule works. The `measure_*` tests
//! (ignored; run them in release with `--ignored --nocapture`) print the evaluation speed and
//! the strength of the potential settings against each other.

use std::time::Instant;

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Evaluator, Game, Outcome, Side, Status};
use zerosum_games::atoll::{Atoll, AtollEvaluator, AtollMove};
use zerosum_games::connection::potential::{PotentialParams, JOINED_BONUS, UNREACHABLE};
use zerosum_games::connection::{Stone, StoneMove};
use zerosum_games::EvaluatedGame;
use zerosum_search::{Algorithm, SearchLimits, Searcher};

use crate::common::*;

// ---------------------------------------------------------------------------------------------
// Positions.

fn atoll(board: &str, pie: bool, moves: &str) -> Atoll {
    let mut game = Atoll::new(board, pie).unwrap();
    game.play_list(moves).unwrap();
    game
}

fn cell(game: &Atoll, name: &str) -> AtollMove {
    game.parse_move(name).unwrap()
}

const BOARDS: [&str; 4] = ["standard", "hexhex4", "rhombus5", "hexhex6"];

// ---------------------------------------------------------------------------------------------
// Tactics.

/// Black's row-6 chain from its left island (a6) towards its right island (k6), White far
/// away on row 3 and on j5; Black threatens only j6.
const ROW_SIX: &str = "b6 j5 c6 b3 d6 c3 e6 d3 f6 e3 g6 f3 h6 g3 i6";

#[test]
fn engine_takes_the_win_in_one() {
    let game = atoll("standard", false, &format!("{ROW_SIX} h3"));
    assert_eq!(winning_moves(&game), vec![cell(&game, "j6")]);
    let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 1);
    let mv = engine_move(&mut searcher, &game, &SearchLimits::depth(3));
    assert_eq!(game.format_move(mv), "j6");
}

#[test]
fn engine_blocks_the_only_threat() {
    let game = atoll("standard", false, ROW_SIX);
    assert_eq!(safe_moves(&game), vec![cell(&game, "j6")]);
    let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 1);
    let mv = engine_move(&mut searcher, &game, &SearchLimits::depth(2));
    assert_eq!(game.format_move(mv), "j6");
}

/// Random positions of `start`'s board: after 0 to one less than its cells random plies.
fn random_positions(start: &Atoll, count: usize, seed: u64) -> Vec<Atoll> {
    crate::common::random_positions(start, count, start.board().playable().len() - 1, seed)
}

#[test]
fn engine_never_misses_a_win_in_one_on_random_positions() {
    let mut checked = 0;
    for (index, board) in BOARDS.iter().enumerate() {
        let start = Atoll::new(board, false).unwrap();
        let positions = random_positions(&start, 100, index as u64);
        checked += check_wins_in_one(positions, &SearchLimits::depth(2), usize::MAX, |game| {
            format!("{board} after {}", line(game))
        });
    }
    assert!(checked > 40, "only {checked} positions with a win in one");
}

#[test]
fn engine_never_misses_a_forced_block_on_random_positions() {
    let mut checked = 0;
    for (index, board) in BOARDS.iter().enumerate() {
        let start = Atoll::new(board, false).unwrap();
        let positions = random_positions(&start, 250, 100 + index as u64);
        checked += check_forced_blocks(positions, &SearchLimits::depth(2), usize::MAX, |game| {
            format!("{board} after {}", line(game))
        });
    }
    assert!(checked > 40, "only {checked} positions with a forced block");
}

// ---------------------------------------------------------------------------------------------
// Matches.

#[test]
fn engine_beats_the_random_player() {
    for (seed, board) in ["standard", "hexhex4"].iter().enumerate() {
        let start = Atoll::new(board, false).unwrap();
        engine_wins_every_game(
            &start,
            &SearchLimits::depth(2),
            random_move,
            10,
            seed as u64,
        );
    }
}

#[test]
fn engine_beats_the_win_block_player() {
    for (seed, board) in ["standard", "hexhex4"].iter().enumerate() {
        let start = Atoll::new(board, false).unwrap();
        engine_wins_every_game(
            &start,
            &SearchLimits::depth(2),
            win_block_move,
            10,
            10 + seed as u64,
        );
    }
}

#[test]
fn engine_wins_with_the_pie_rule() {
    let start = Atoll::new("hexhex4", true).unwrap();
    engine_wins_every_game(&start, &SearchLimits::depth(2), win_block_move, 5, 77);
}

// ---------------------------------------------------------------------------------------------
// Evaluation.

#[test]
fn a_chain_joined_but_for_a_bridge_scores_high() {
    // Black b6 c6 d6 e6, bridged to g5 through f5 and f6, then h5 i5 j5 to the right island.
    let moves = "b6 b3 c6 c3 d6 d3 e6 e3 g5 f3 h5 g3 i5 h3 j5";
    let bridged = atoll("standard", false, moves);
    let evaluator = bridged.evaluator();
    let black = evaluator.evaluate_colour(&bridged, Stone::Black);
    assert!(black > JOINED_BONUS, "bridged chain: {black}");
    assert_eq!(evaluator.evaluate(&bridged), -black, "White to move");
    let mut intruded = atoll("standard", false, &format!("{moves} f6"));
    let black = evaluator.evaluate_colour(&intruded, Stone::Black);
    assert!(black < JOINED_BONUS && black > 0, "intruded: {black}");
    assert_eq!(
        evaluator.move_hint(&intruded, cell(&intruded, "f5")),
        1_000,
        "saving the bridge is hinted first"
    );
    let mut searcher = Searcher::new(evaluator.clone(), Algorithm::Pvs, 1);
    let mv = engine_move(&mut searcher, &intruded, &SearchLimits::depth(1));
    assert_eq!(
        intruded.format_move(mv),
        "f5",
        "the engine saves the bridge"
    );
    intruded.play(mv);
    assert_eq!(intruded.status(), Status::Over(Outcome::Win(Side::First)));
}

/// The position with every stone moved by `map` (a symmetry of the board) and the colours
/// exchanged if `exchange`; built by replaying moves (equal stone counts needed to exchange).
fn transformed(
    game: &Atoll,
    exchange: bool,
    map: impl Fn(usize, usize) -> (usize, usize),
) -> Atoll {
    let board = game.board();
    let mut black = Vec::new();
    let mut white = Vec::new();
    for &cell in board.playable() {
        let (c, r) = board.coordinates(cell as usize);
        let (c, r) = map(c, r);
        let target = board.cell_at(c, r).expect("a symmetry of the board") as u16;
        match (game.stone(cell as usize), exchange) {
            (Stone::Black, false) | (Stone::White, true) => black.push(target),
            (Stone::White, false) | (Stone::Black, true) => white.push(target),
            _ => {}
        }
    }
    let mut image = Atoll::new(board.name(), false).unwrap();
    for i in 0..black.len().max(white.len()) {
        for list in [&black, &white] {
            if let Some(&target) = list.get(i) {
                image.play(StoneMove::Place(target));
            }
        }
    }
    image
}

#[test]
fn evaluation_is_antisymmetric_and_symmetric() {
    for (index, board) in BOARDS.iter().enumerate() {
        let start = Atoll::new(board, false).unwrap();
        let evaluator = start.evaluator();
        let (columns, rows) = (start.board().columns(), start.board().rows());
        for game in random_positions(&start, 30, 500 + index as u64) {
            let black = evaluator.evaluate_colour(&game, Stone::Black);
            assert_eq!(black, -evaluator.evaluate_colour(&game, Stone::White));
            // The half turn maps each island onto its opposite, of the same colour.
            let turned = transformed(&game, false, |c, r| (columns - 1 - c, rows - 1 - r));
            assert_eq!(
                evaluator.evaluate_colour(&turned, Stone::Black),
                black,
                "{board}: {}",
                line(&game)
            );
            // The rhombus boards' long diagonal exchanges the colours of the islands.
            let rhombus = board.starts_with("rhombus") || *board == "standard";
            if rhombus && game.ply() % 2 == 0 {
                let mirrored = transformed(&game, true, |c, r| (r, c));
                assert_eq!(
                    evaluator.evaluate_colour(&mirrored, Stone::White),
                    black,
                    "{board}: {}",
                    line(&game)
                );
            }
        }
    }
}

#[test]
fn cut_off_colours_balance_to_zero() {
    // Random games on the 12-island board, which can end in a draw: a colour cut off from
    // every opposite pair stands worse than one that is not, and a full drawn board, where
    // both are cut off, evaluates to 0.
    let start = Atoll::new("hexhex4", false).unwrap();
    let evaluator = start.evaluator();
    let mut rng = SplitMix::new(3);
    let (mut draws, mut one_sided) = (0, 0);
    for _ in 0..1_000 {
        let mut game = start.clone();
        loop {
            let [black, white] = evaluator.potentials(&game);
            let value = evaluator.evaluate_colour(&game, Stone::Black);
            match (
                black.potential == UNREACHABLE,
                white.potential == UNREACHABLE,
            ) {
                (true, true) => assert_eq!(value, 0, "{}", line(&game)),
                (true, false) => {
                    assert!(value < 0, "{}", line(&game));
                    one_sided += 1;
                }
                (false, true) => {
                    assert!(value > 0, "{}", line(&game));
                    one_sided += 1;
                }
                (false, false) => {}
            }
            if game.status().is_over() {
                if game.status() == Status::Over(Outcome::Draw) {
                    assert_eq!(black.potential, UNREACHABLE, "{}", line(&game));
                    assert_eq!(white.potential, UNREACHABLE, "{}", line(&game));
                    draws += 1;
                }
                break;
            }
            let mv = random_move(&game, &mut rng);
            game.play(mv);
        }
    }
    assert!(
        draws > 0 && one_sided > 0,
        "{draws} draws, {one_sided} one-sided"
    );
}

#[test]
fn the_pie_move_is_taken_for_a_central_stone() {
    let start = atoll("standard", true, "f6");
    let evaluator = start.evaluator();
    let mut moves = Vec::new();
    evaluator.candidate_moves(&start, &mut moves);
    assert_eq!(moves.first(), Some(&StoneMove::Swap));
    let mut searcher = Searcher::new(evaluator.clone(), Algorithm::Pvs, 1);
    assert_eq!(
        engine_move(&mut searcher, &start, &SearchLimits::depth(2)),
        StoneMove::Swap
    );
    // After the pie move the first player has White and moves, facing the central stone.
    let mut swapped = start.clone();
    swapped.play(StoneMove::Swap);
    assert_eq!(swapped.colour_of(swapped.to_move()), Stone::White);
    assert!(evaluator.evaluate(&swapped) < 0);
    // A stone at the rim is not worth it.
    let rim = atoll("standard", true, "b2");
    evaluator.candidate_moves(&rim, &mut moves);
    assert_eq!(moves.last(), Some(&StoneMove::Swap));
}

#[test]
fn candidate_moves_are_the_legal_moves() {
    for (index, board) in BOARDS.iter().enumerate() {
        for pie in [false, true] {
            let start = Atoll::new(board, pie).unwrap();
            let evaluator = start.evaluator();
            for game in random_positions(&start, 20, 900 + index as u64) {
                let mut candidates = Vec::new();
                evaluator.candidate_moves(&game, &mut candidates);
                let mut sorted = candidates.clone();
                sorted.sort();
                let mut moves = legal(&game);
                moves.sort();
                assert_eq!(sorted, moves, "{board}: {}", line(&game));
            }
        }
    }
    // The cell Black needs comes first.
    let game = atoll("standard", false, ROW_SIX);
    let mut candidates = Vec::new();
    game.evaluator().candidate_moves(&game, &mut candidates);
    assert_eq!(game.format_move(candidates[0]), "j6");
}

#[test]
fn evaluations_stay_in_range_on_every_board() {
    for board in ["rhombus2", "hexhex2", "rhombus30", "hexhex20", "rhombus98"] {
        let start = Atoll::new(board, false).unwrap();
        let evaluator = start.evaluator();
        for game in random_positions(&start, 3, board.len() as u64) {
            let value = evaluator.evaluate(&game);
            assert!(value.abs() < 20_000, "{board}: {value}");
            let mut candidates = Vec::new();
            evaluator.candidate_moves(&game, &mut candidates);
            assert_eq!(candidates.len(), legal(&game).len());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Measurements (ignored by default).

#[test]
#[ignore = "measurement: run in release with --ignored --nocapture"]
fn measure_evaluation_speed() {
    for board in ["standard", "hexhex4", "hexhex8", "rhombus13"] {
        let start = Atoll::new(board, false).unwrap();
        let evaluator: AtollEvaluator = start.evaluator();
        let positions = random_positions(&start, 200, 1);
        let rounds = 50;
        let begin = Instant::now();
        let mut sum = 0i64;
        for _ in 0..rounds {
            for game in &positions {
                sum += i64::from(evaluator.evaluate(std::hint::black_box(game)));
            }
        }
        let per_call = begin.elapsed().as_nanos() / (rounds * positions.len()) as u128;
        println!("atoll {board}: {per_call} ns per evaluation (checksum {sum})");
    }
}

#[test]
#[ignore = "measurement: run in release with --ignored --nocapture"]
fn measure_strength() {
    for (board, nodes, openings) in [("standard", 3_000, 10), ("hexhex4", 3_000, 10)] {
        let start = Atoll::new(board, false).unwrap();
        let default = start.evaluator();
        let others = [
            ("pure two-distance", PotentialParams::TWO_DISTANCE),
            ("shortest path over chains", PotentialParams::SHORTEST_PATH),
        ];
        for (name, params) in others {
            let other = AtollEvaluator::with_params(start.board(), params);
            let [a, b, draws] = duel(&start, default.clone(), other, nodes, openings);
            println!("atoll {board}, {nodes} nodes: default {a} - {b} {name} ({draws} draws)");
        }
        let [a, b, draws] = duel(&start, default, NoKnowledge, nodes, openings);
        println!("atoll {board}, {nodes} nodes: default {a} - {b} no knowledge ({draws} draws)");
    }
}
