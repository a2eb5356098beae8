//! The engine plays what it can prove: on Connect-X boards the solver fits it keeps the exact
//! value of the position, and on every game, once a search proves a win, the engine's later
//! moves win, however little time they get.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use zerosum_arena::{GameSetup, MoveRequest, PlayerSpec, TimeControl};
use zerosum_core::conformance::SplitMix;
use zerosum_core::{Game, Outcome, Status};
use zerosum_games::connect::{ConnectSolver, ConnectX64};
use zerosum_games::{new_game, GameSpec};

/// A request for a move after `moves`, with `limit` to think.
fn request(moves: &[String], limit: Duration) -> MoveRequest {
    MoveRequest {
        moves: Arc::new(moves.to_vec()),
        limit: Some(limit),
        clock: None,
        increment: Duration::ZERO,
        issued: Instant::now(),
        stop: Arc::new(AtomicBool::new(false)),
        progress: None,
    }
}

/// Time enough to prove a small game's win.
const PROVING_TIME: Duration = Duration::from_secs(20);
/// Time for no search at all: the engine answers at its hard stop, at once.
const NO_TIME: Duration = Duration::from_micros(50);

/// Plays every defence of the side not to move in `opening` (a position the side to move
/// wins) against the engine, which gets time to prove the win on its first move and none on
/// the later ones, and returns the lines the engine did not win.
fn lines_not_won(spec: &str, opening: &str) -> Vec<String> {
    let spec: GameSpec = spec.parse().unwrap();
    let mut failures = Vec::new();
    // Lines to play, as the index of each of the opponent's replies among its legal moves; a
    // line that runs out of indices goes on with the first reply and leaves the others here.
    let mut pending = vec![Vec::<usize>::new()];
    while let Some(mut line) = pending.pop() {
        let mut game = new_game(&spec).unwrap();
        game.play_list(opening).unwrap();
        let engine_side = game.to_move();
        let setup_ply = game.ply();
        let mut engine = "engine".parse::<PlayerSpec>().unwrap().build();
        let setup = GameSetup {
            spec: spec.clone(),
            side: engine_side,
            time: TimeControl::untimed(),
            seed: 1,
        };
        engine.new_game(&setup).unwrap();
        let mut replied = 0;
        while !game.status().is_over() {
            if game.to_move() == engine_side {
                let first = game.history().len() == setup_ply;
                let limit = if first { PROVING_TIME } else { NO_TIME };
                let answer = engine.choose(&request(&game.history(), limit)).unwrap();
                game.play(&answer.text).unwrap();
                continue;
            }
            let replies = game.legal_moves();
            if replied == line.len() {
                for other in 1..replies.len() {
                    let mut branch = line.clone();
                    branch.push(other);
                    pending.push(branch);
                }
                line.push(0);
            }
            game.play(&replies[line[replied]]).unwrap();
            replied += 1;
        }
        if game.status() != Status::Over(Outcome::Win(engine_side)) {
            failures.push(game.history().join(","));
        }
    }
    failures
}

#[test]
fn a_proven_tic_tac_toe_win_is_kept_against_every_defence() {
    // X in a corner, O beside it: X wins in 5 plies. Proven on the first move, it must be won
    // on every line although the later moves get no time to search.
    let failures = lines_not_won("tictactoe", "a1,b1");
    assert!(failures.is_empty(), "not won: {failures:?}");
}

/// The exact score (Pons' scale, for the side to move) of `game`, ongoing.
fn exact(solver: &mut ConnectSolver<u64>, game: &ConnectX64) -> i32 {
    solver.solve(game, false).unwrap()
}

#[test]
fn on_a_solvable_connect_x_board_the_engine_keeps_the_exact_value() {
    // 5 rows, 6 columns, 4 in a row: the oracle proves every position after a few random
    // moves within its node budget (a depth-limited engine: reproducible, no clock).
    let spec: GameSpec = "connectx:5x6x4".parse().unwrap();
    let mut solver = ConnectSolver::<u64>::new(5, 6, 4, 16);
    let mut rng = SplitMix::new(14);
    let mut checked = [0; 3];
    for _ in 0..24 {
        let mut game = ConnectX64::new(5, 6, 4);
        while game.ply() < 8 {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            game.play(moves[rng.below(moves.len())]);
            if game.status().is_over() {
                game = ConnectX64::new(5, 6, 4);
            }
        }
        let before = exact(&mut solver, &game);
        let mut engine = "engine:depth=4".parse::<PlayerSpec>().unwrap().build();
        let setup = GameSetup {
            spec: spec.clone(),
            side: game.to_move(),
            time: TimeControl::untimed(),
            seed: 1,
        };
        engine.new_game(&setup).unwrap();
        let history: Vec<String> = game
            .history()
            .iter()
            .map(|&m| game.format_move(m))
            .collect();
        let mut request = request(&history, NO_TIME);
        request.limit = None;
        let answer = engine.choose(&request).unwrap();
        game.play_text(&answer.text).unwrap();
        // A win is kept at its distance (the fastest), a draw kept, a loss the slowest.
        let after = match game.status() {
            Status::Over(Outcome::Draw) => 0,
            // A win with the stone after `ply - 1` others: (cells + 1 - (ply - 1)) / 2.
            Status::Over(_) => (30 + 2 - game.ply() as i32) / 2,
            Status::Ongoing => -exact(&mut solver, &game),
        };
        assert_eq!(
            after,
            before,
            "{} then {}: {:?}",
            history.join(""),
            answer.text,
            answer.comment
        );
        checked[(before.signum() + 1) as usize] += 1;
    }
    // Lost, drawn and won positions were all met.
    assert!(checked.iter().all(|&n| n > 0), "{checked:?}");
}
