//! The engine as players meet it: through the referee, at 0.1 s a move with both cores busy,
//! it answers in time on every move and beats the reference players of the courses (`random`
//! and `quasi`) without ever losing, and without a draw where a win is there to take. The
//! engine is the whole player (opening book, exact solver, search, hard stop), as in `zerosum
//! match`.

use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use zerosum_arena::{play_game, PlayerSpec, RefereeOptions, TimeControl};
use zerosum_core::{Outcome, Side};
use zerosum_games::GameSpec;

/// Per-move budget of the matches.
const MOVE_TIME: Duration = Duration::from_millis(100);
/// Lateness the referee forgives: a shared, busy machine schedules late, but a player that
/// ignores its deadline overshoots by whole search iterations (seconds on these boards).
const MARGIN: Duration = Duration::from_millis(250);
/// Games per side of each match.
const GAMES_PER_SIDE: usize = 20;

/// Results of the engine's games against one opponent.
#[derive(Debug, Default)]
struct Tally {
    wins: usize,
    draws: usize,
    losses: usize,
    moves: usize,
    worst_ms: u64,
}

/// Plays the engine against `opponent` on `spec`, both colours, and tallies the engine's games;
/// prints every game it does not win.
fn play(spec: &str, opponent: &str) -> Tally {
    let spec: GameSpec = spec.parse().unwrap();
    let options = RefereeOptions {
        time: TimeControl {
            margin: MARGIN,
            ..TimeControl::per_move(MOVE_TIME.as_secs_f64())
        },
        max_moves: None,
        adjudicate_nodes: None,
    };
    let engine = "engine".parse::<PlayerSpec>().unwrap();
    let other = opponent.parse::<PlayerSpec>().unwrap();
    let mut tally = Tally::default();
    for game in 0..2 * GAMES_PER_SIDE {
        let engine_side = if game % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let players = match engine_side {
            Side::First => [engine.build(), other.build()],
            Side::Second => [other.build(), engine.build()],
        };
        let played = play_game(
            &spec,
            players,
            &options,
            0xC0FFEE + game as u64,
            &mut |_| {},
        );
        // The engine's turns: every other one, from its side's first.
        let engine_turns = played.move_ms.iter().skip(engine_side.index()).step_by(2);
        for &ms in engine_turns {
            tally.moves += 1;
            tally.worst_ms = tally.worst_ms.max(ms);
        }
        match played.outcome {
            Outcome::Win(side) if side == engine_side => tally.wins += 1,
            outcome => {
                eprintln!(
                    "{spec} vs {opponent}, engine {engine_side}: {outcome:?} ({:?}: {}) after {}",
                    played.termination,
                    played.reason,
                    played.moves.join(",")
                );
                if outcome == Outcome::Draw {
                    tally.draws += 1;
                } else {
                    tally.losses += 1;
                }
            }
        }
    }
    tally
}

#[test]
#[ignore = "400 games at 0.1 s a move take minutes; .ci/run runs it with --ignored"]
fn engine_beats_reference_players_and_answers_in_time() {
    // The ten matches run on one worker per core: the engines and the reference players keep
    // every core busy, so each engine is timed on a loaded machine, as in a tournament with
    // `--concurrency 2`.
    let specs = ["unstable", "hex:7", "connect4", "gomoku", "tictactoe"];
    let opponents = ["random", "quasi"];
    let queue: Mutex<Vec<(&str, &str)>> = Mutex::new(
        specs
            .iter()
            .flat_map(|&spec| opponents.iter().map(move |&opponent| (spec, opponent)))
            .rev()
            .collect(),
    );
    let cores = thread::available_parallelism().map_or(2, |n| n.get());
    let results: Vec<(&str, &str, Tally)> = thread::scope(|scope| {
        let workers: Vec<_> = (0..cores)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    while let Some((spec, opponent)) = queue.lock().unwrap().pop() {
                        done.push((spec, opponent, play(spec, opponent)));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let mut moves = 0;
    let mut worst_ms = 0;
    for (spec, opponent, tally) in &results {
        eprintln!("{spec} vs {opponent}: {tally:?}");
        moves += tally.moves;
        worst_ms = worst_ms.max(tally.worst_ms);
    }
    for (spec, opponent, tally) in &results {
        assert_eq!(tally.losses, 0, "{spec} vs {opponent}: {tally:?}");
        if *spec != "tictactoe" {
            assert_eq!(tally.draws, 0, "{spec} vs {opponent}: {tally:?}");
        }
    }
    eprintln!("{moves} engine moves, worst {worst_ms} ms for a {MOVE_TIME:?} budget");
    assert!(moves >= 1_000, "only {moves} engine moves were timed");
}
