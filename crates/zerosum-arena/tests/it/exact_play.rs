//! The engine keeps what it has proven: once a search proves a win, the engine's later moves
//! win, however little time they get.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use zerosum_arena::{GameSetup, MoveRequest, PlayerSpec, TimeControl};
use zerosum_core::{GameSpec, Outcome, Status};
use zerosum_games::new_game;

/// A request for a move after `moves`, with `limit` to think.
fn request(moves: &[String], limit: Duration) -> MoveRequest {
    MoveRequest {
        moves: Arc::new(moves.to_vec()),
        limit: Some(limit),
        clock: None,
        increment: Duration::ZERO,
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
