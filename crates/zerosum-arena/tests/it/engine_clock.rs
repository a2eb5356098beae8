//! The engine on the referee's clock: its thinking time counts from when the referee started
//! the clock, whatever delayed its own thread.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use zerosum_arena::{GameSetup, MoveRequest, PlayerSpec, TimeControl};

/// A move asked on a clock that started `gone` before the engine got the request (as when the
/// player's thread waited that long for a processor): the engine answers within what is left
/// of `limit`, not a whole `limit` later.
fn answer_time(spec: &str, limit: Duration, gone: Duration) -> Duration {
    let mut engine = "engine".parse::<PlayerSpec>().unwrap().build();
    engine
        .new_game(&GameSetup {
            spec: spec.parse().unwrap(),
            side: zerosum_core::Side::First,
            time: TimeControl::per_move(limit.as_secs_f64()),
            seed: 1,
        })
        .unwrap();
    let called = Instant::now();
    let issued = called
        .checked_sub(gone)
        .expect("the clock goes back that far");
    let request = MoveRequest {
        moves: Arc::new(Vec::new()),
        limit: Some(limit),
        clock: None,
        increment: Duration::ZERO,
        issued,
        stop: Arc::new(AtomicBool::new(false)),
        progress: None,
    };
    engine.choose(&request).unwrap();
    called.elapsed()
}

#[test]
fn the_engine_counts_its_time_from_when_the_referee_started_the_clock() {
    // 2 s a move, 1.6 s of which were gone before the engine saw the request: it has 0.4 s
    // left (less its reserve). Counting from its own start it would think about 1.8 s.
    let limit = Duration::from_secs(2);
    let gone = Duration::from_millis(1600);
    for spec in ["gomoku", "hex:11", "connect4"] {
        let took = answer_time(spec, limit, gone);
        assert!(
            took < Duration::from_secs(1),
            "{spec}: the engine answered {took:?} after the request, {:?} after the clock \
             started (limit {limit:?})",
            took + gone
        );
    }
}
