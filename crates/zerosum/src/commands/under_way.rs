//! A line on standard error about each game under way when a run has printed nothing for a
//! while: `[under way: game 67 of 70 (engine vs quasi) on connectx:100x100x30, 1412 moves,
//! 2:31]`. Between its `Started` and `Finished` lines a game of thousands of moves (the Connect-X
//! course's 25x25 to 100x100 boards: 300 to 6,000 moves) takes a minute or more at 0.1 s a move,
//! and the run would look hung.
//!
//! The line is due once nothing was printed for [`DEFAULT_EVERY`] (the environment variable
//! `ZEROSUM_PROGRESS_EVERY`, in seconds, changes it); it is checked at every move, on the
//! thread that plays the game.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use zerosum_arena::{GameObserver, RefereeEvent, Tournament};

/// How long a run may print nothing before the line about the games under way.
pub const DEFAULT_EVERY: Duration = Duration::from_secs(30);

/// The games under way of one run, and when the run last printed a line.
pub struct UnderWay {
    every: Duration,
    /// `Started game N of M (A vs B) on SPEC` without its first words, by schedule index.
    labels: Vec<String>,
    bar: ProgressBar,
    state: Mutex<State>,
}

struct State {
    last_line: Instant,
    games: BTreeMap<usize, Game>,
}

/// A game under way: when it started and the moves played so far.
struct Game {
    started: Instant,
    moves: usize,
}

impl UnderWay {
    /// Watches the games of `tournament`; its lines are printed above `bar`.
    pub fn new(tournament: &Tournament, bar: ProgressBar) -> Arc<UnderWay> {
        let every = std::env::var("ZEROSUM_PROGRESS_EVERY")
            .ok()
            .and_then(|value| value.parse::<f64>().ok())
            .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
            .unwrap_or(DEFAULT_EVERY);
        let labels = (tournament.games.iter())
            .map(|game| {
                let line = tournament.started_line(game);
                line.strip_prefix("Started ").unwrap_or(&line).to_string()
            })
            .collect();
        Arc::new(UnderWay {
            every,
            labels,
            bar,
            state: Mutex::new(State {
                last_line: Instant::now(),
                games: BTreeMap::new(),
            }),
        })
    }

    /// An observer of the tournament's games that counts their moves, composed with `other`
    /// (the page's, when the run is served), which sees every event first.
    pub fn observer(self: &Arc<Self>, other: Option<GameObserver>) -> GameObserver {
        let watch = Arc::clone(self);
        Arc::new(move |scheduled, event| {
            let moved = matches!(event, RefereeEvent::Moved { .. });
            if let Some(other) = &other {
                other(scheduled, event);
            }
            if moved {
                watch.moved(scheduled.game);
            }
        })
    }

    /// Game `game` (schedule index) started (its line was printed: the quiet time restarts).
    pub fn started(&self, game: usize) {
        let mut state = self.lock();
        state.last_line = Instant::now();
        state.games.insert(
            game,
            Game {
                started: Instant::now(),
                moves: 0,
            },
        );
    }

    /// Game `game` finished (its line is printed: the quiet time restarts).
    pub fn finished(&self, game: usize) {
        let mut state = self.lock();
        state.last_line = Instant::now();
        state.games.remove(&game);
    }

    /// A move of game `game`: counts it, and prints the lines when they are due.
    fn moved(&self, game: usize) {
        let mut state = self.lock();
        let Some(entry) = state.games.get_mut(&game) else {
            return;
        };
        entry.moves += 1;
        if state.last_line.elapsed() < self.every {
            return;
        }
        state.last_line = Instant::now();
        let lines: Vec<String> = (state.games.iter())
            .map(|(&game, under_way)| {
                let seconds = under_way.started.elapsed().as_secs();
                format!(
                    "[under way: {}, {} moves, {}:{:02}]",
                    self.labels.get(game).map_or("a game", String::as_str),
                    under_way.moves,
                    seconds / 60,
                    seconds % 60
                )
            })
            .collect();
        self.bar.suspend(|| {
            for line in &lines {
                errln!("{line}");
            }
        });
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}
