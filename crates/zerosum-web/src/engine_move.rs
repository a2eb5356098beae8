//! One engine move, searched on a thread of its own: the thread prepares the player for the
//! game if needed, asks it for a move, and sends the answer (with the player, for its next
//! move) back to the session. A panicking player is caught and reported, not propagated.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use zerosum_arena::{GameSetup, MoveRequest, Player, Progress, TimeControl};
use zerosum_core::Side;
use zerosum_games::GameSpec;

use crate::inbox::{EngineReply, Input};

/// What the search thread needs to know.
pub struct Job {
    /// Tells the session's current search from abandoned ones.
    pub generation: u64,
    pub spec: GameSpec,
    /// The side the player plays.
    pub side: Side,
    /// The moves so far; the position is ongoing and `side` is to move.
    pub moves: Arc<Vec<String>>,
    /// Whether the player has already been told about this game.
    pub prepared: bool,
    pub seed: u64,
    /// Raised when the session no longer wants the answer.
    pub stop: Arc<AtomicBool>,
}

/// Starts `job` on a new thread; its reply goes to `session` as [`Input::EngineReplied`], and
/// the engine's line after each iteration as [`Input::EngineProgress`].
pub fn start(mut player: Box<dyn Player>, job: Job, session: Sender<Input>) -> std::io::Result<()> {
    // Each iteration's search line goes to the session as it comes, tagged with the search.
    let reports = session.clone();
    let generation = job.generation;
    let progress = Progress::new(move |line| {
        let _ = reports.send(Input::EngineProgress {
            generation,
            line: line.to_string(),
        });
    });
    thread::Builder::new()
        .name("zerosum-web-engine".into())
        .spawn(move || {
            let started = Instant::now();
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                if !job.prepared {
                    player.new_game(&GameSetup {
                        spec: job.spec.clone(),
                        side: job.side,
                        time: TimeControl::untimed(),
                        seed: job.seed,
                    })?;
                }
                player.choose(&MoveRequest {
                    moves: job.moves.clone(),
                    limit: None,
                    clock: None,
                    increment: Duration::ZERO,
                    issued: started,
                    stop: job.stop.clone(),
                    progress: Some(progress),
                })
            }));
            let (player, answer) = match outcome {
                Ok(answer) => (Some(player), answer.map_err(|error| error.to_string())),
                Err(_) => (None, Err("the player panicked".to_string())),
            };
            // The session may be gone (the tab closed): then nobody wants the answer.
            let _ = session.send(Input::EngineReplied(EngineReply {
                generation: job.generation,
                side: job.side,
                player,
                answer,
                elapsed: started.elapsed(),
            }));
        })?;
    Ok(())
}
