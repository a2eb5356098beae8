//! Round robins: every pair of players plays every configuration in both colours, `rounds`
//! times, on up to `concurrency` games at once. Finished games are handed to the caller the
//! moment they end (to be written, printed, scored), and the caller can stop the tournament.

pub mod merge;
pub mod presets;
pub mod settings;

use std::collections::{HashMap, HashSet, VecDeque};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::thread;

use thiserror::Error;
use zerosum_core::conformance::SplitMix;
use zerosum_games::GameSpec;

use crate::player::Player;
use crate::players::PlayerSpec;
use crate::records::record::GameRecord;
use crate::referee::{play_game_from, RefereeEvent, RefereeOptions};
use crate::shard::{deal_pairs, Shard};

/// Builds a fresh player for each game.
pub type PlayerFactory = Arc<dyn Fn() -> Box<dyn Player> + Send + Sync>;

/// A participant: a name for the tables and a way to build its player.
#[derive(Clone)]
pub struct Entrant {
    pub name: String,
    pub factory: PlayerFactory,
}

impl Entrant {
    /// An entrant built from a built-in player spec, named `name`.
    pub fn from_spec(spec: &PlayerSpec, name: String) -> Entrant {
        let mut spec = spec.clone();
        spec.name = Some(name.clone());
        Entrant {
            name,
            factory: Arc::new(move || spec.build()),
        }
    }
}

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Position in the schedule, from 0.
    pub game: usize,
    pub round: usize,
    /// The colour-swapped pair: both games of a pair share it.
    pub pair: usize,
    pub spec: GameSpec,
    /// Index of the first player.
    pub first: usize,
    /// Index of the second player.
    pub second: usize,
    /// Seed of the game's players.
    pub seed: u64,
    /// The opening it starts from (an index into [`Tournament::openings`]), if any.
    pub opening: Option<usize>,
}

/// The games of a round robin of `players` players over `specs`, `rounds` times: per round,
/// per configuration, per pair of players `i < j`, the game with `i` first, then with `j`
/// first. Seeds derive from `seed` and the game's position.
pub fn round_robin(
    players: usize,
    specs: &[GameSpec],
    rounds: usize,
    seed: u64,
) -> Vec<ScheduledGame> {
    let pairs: Vec<(usize, usize)> = (0..players)
        .flat_map(|i| (i + 1..players).map(move |j| (i, j)))
        .collect();
    paired_games(&pairs, specs, rounds, seed)
}

/// The games of a gauntlet of `players` players over `specs`, `rounds` times: player 0
/// against each other player `j`, per round, per configuration, the game with 0 first, then
/// with `j` first (cutechess's `-tournament gauntlet`). Seeds derive from `seed` and the
/// game's position.
pub fn gauntlet(
    players: usize,
    specs: &[GameSpec],
    rounds: usize,
    seed: u64,
) -> Vec<ScheduledGame> {
    let pairs: Vec<(usize, usize)> = (1..players).map(|j| (0, j)).collect();
    paired_games(&pairs, specs, rounds, seed)
}

/// Per round, per configuration, per pair `(i, j)` of `pairs` in order: the game with `i`
/// first, then with `j` first, numbered in that order, each pair of games its own pair number.
fn paired_games(
    pairs: &[(usize, usize)],
    specs: &[GameSpec],
    rounds: usize,
    seed: u64,
) -> Vec<ScheduledGame> {
    let mut games = Vec::new();
    let mut pair = 0;
    for round in 0..rounds {
        for spec in specs {
            for &(i, j) in pairs {
                for (first, second) in [(i, j), (j, i)] {
                    let game = games.len();
                    games.push(ScheduledGame {
                        game,
                        round,
                        pair,
                        spec: spec.clone(),
                        first,
                        second,
                        seed: game_seed(seed, game),
                        opening: None,
                    });
                }
                pair += 1;
            }
        }
    }
    games
}

/// A match of `count` games between players 0 and 1 on `spec`, colours alternating (player 0
/// first in even games), pairs numbered by twos.
pub fn match_games(spec: &GameSpec, count: usize, seed: u64) -> Vec<ScheduledGame> {
    (0..count)
        .map(|game| ScheduledGame {
            game,
            round: game / 2,
            pair: game / 2,
            spec: spec.clone(),
            first: game % 2,
            second: 1 - game % 2,
            seed: game_seed(seed, game),
            opening: None,
        })
        .collect()
}

fn game_seed(seed: u64, game: usize) -> u64 {
    SplitMix::new(seed ^ (game as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// Why a finished game does not belong to a tournament's schedule (games numbered from 1, as
/// printed).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ScheduleError {
    /// The game's index is past the end of the schedule.
    #[error("game {game} is outside the schedule, which has {games} games")]
    Outside { game: u128, games: usize },
    /// The schedule has another game at that index (other players, board, round, seed or
    /// opening).
    #[error("game {game} does not match game {game} of the schedule (players, board, round, seed or opening differ)")]
    Mismatch { game: u128 },
    /// The game's moves do not replay to its result (a move that is not legal, a result the
    /// moves do not reach, times that do not fit the moves).
    #[error("game {game} does not replay: {reason}")]
    Moves { game: u128, reason: String },
}

/// What a running tournament reports.
pub enum TournamentEvent<'a> {
    /// A game starts.
    Started(&'a ScheduledGame),
    /// A game has ended (boxed: a record is large).
    Finished(Box<GameRecord>),
}

/// Watches the games of a tournament move by move: called with the scheduled game and each
/// [`RefereeEvent`] of it, on the thread that plays the game (so it must be quick).
pub type GameObserver = Arc<dyn Fn(&ScheduledGame, RefereeEvent<'_>) + Send + Sync>;

/// Players, games and rules, ready to run.
pub struct Tournament {
    pub entrants: Vec<Entrant>,
    pub games: Vec<ScheduledGame>,
    pub options: RefereeOptions,
    /// Games played at once (at least 1).
    pub concurrency: usize,
    /// Sees every game's start and moves, if set.
    pub observer: Option<GameObserver>,
    /// The openings the games start from ([`ScheduledGame::opening`]), each a list of moves.
    pub openings: Vec<Vec<String>>,
}

impl Tournament {
    /// Checks that `record` is the game its index names in the schedule, and that its moves
    /// replay from that game's opening to its result ([`GameRecord::check_moves`]).
    pub fn check_played(&self, record: &GameRecord) -> Result<(), ScheduleError> {
        let scheduled = self.games.get(record.game).ok_or(ScheduleError::Outside {
            game: record.game as u128 + 1,
            games: self.games.len(),
        })?;
        let same = scheduled.game == record.game
            && (scheduled.round, scheduled.pair) == (record.round, record.pair)
            && (scheduled.first, scheduled.second) == (record.first, record.second)
            && scheduled.seed == record.seed
            && scheduled.opening == record.opening
            && scheduled.spec.to_string() == record.spec;
        if !same {
            return Err(ScheduleError::Mismatch {
                game: record.game as u128 + 1,
            });
        }
        let opening = scheduled
            .opening
            .and_then(|index| self.openings.get(index))
            .map_or(&[][..], Vec::as_slice);
        record
            .check_moves(&scheduled.spec, opening)
            .map_err(|reason| ScheduleError::Moves {
                game: record.game as u128 + 1,
                reason,
            })
    }

    /// The schedule indexes of the games `shard` plays: whole colour-swapped pairs, dealt by
    /// [`deal_pairs`] at each pair's expected playing time ([`Tournament::expected_millis`]).
    pub fn shard_games(&self, shard: Shard) -> HashSet<usize> {
        let shard_of = self.shards_of_games(shard.count());
        (self.games.iter())
            .filter(|game| shard_of[game.game] == shard.index())
            .map(|game| game.game)
            .collect()
    }

    /// The shard (of `count`) of each game of the schedule, by schedule index.
    pub fn shards_of_games(&self, count: usize) -> Vec<usize> {
        let pairs = self.games.iter().map(|g| g.pair + 1).max().unwrap_or(0);
        let mut costs = vec![0u64; pairs];
        let mut per_spec: HashMap<String, u64> = HashMap::new();
        for game in &self.games {
            let cost = *per_spec
                .entry(game.spec.to_string())
                .or_insert_with(|| self.expected_millis(&game.spec));
            costs[game.pair] = costs[game.pair].saturating_add(cost);
        }
        let shard_of_pair = deal_pairs(&costs, count);
        self.games
            .iter()
            .map(|game| shard_of_pair[game.pair])
            .collect()
    }

    /// What a game on `spec` is expected to take, in milliseconds, to balance shards: the most
    /// its moves may take under the time control, counting as many moves as the empty board
    /// has cells (or the move limit, if lower); one millisecond a move when untimed.
    pub fn expected_millis(&self, spec: &GameSpec) -> u64 {
        // Without the family's count of cells (Atoll), the first player's choices.
        let cells = spec.family().cells(spec).unwrap_or_else(|| {
            zerosum_games::new_game(spec).map_or(1, |game| game.legal_moves().len())
        });
        let plies = self
            .options
            .max_moves
            .map_or(cells, |limit| cells.min(limit)) as u64;
        let time = &self.options.time;
        let per_move = time.per_move.map(|t| t.as_millis() as u64 * plies);
        let clock = time.base.map(|base| {
            let moves_each = plies.div_ceil(2);
            let periods = time.moves_per_period.map_or(1, |period| {
                moves_each.div_ceil(u64::from(period).max(1)).max(1)
            });
            let each =
                base.as_millis() as u64 * periods + time.increment.as_millis() as u64 * moves_each;
            2 * each
        });
        match (per_move, clock) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => plies,
        }
        .max(1)
    }

    /// The `Started game N of M (A vs B) on SPEC` line of cutechess-style tools, for `game`
    /// of this tournament's schedule.
    pub fn started_line(&self, game: &ScheduledGame) -> String {
        format!(
            "Started game {} of {} ({} vs {}) on {}",
            game.game + 1,
            self.games.len(),
            self.entrants[game.first].name,
            self.entrants[game.second].name,
            game.spec
        )
    }

    /// Plays every scheduled game whose number is not in `done`, in schedule order, up to
    /// `concurrency` at a time, and hands each event to `on_event` on the calling thread. When
    /// `on_event` breaks, no further game starts; the games already running are finished and
    /// reported. Returns once every started game is reported.
    pub fn run(
        &self,
        done: &HashSet<usize>,
        mut on_event: impl FnMut(TournamentEvent<'_>) -> ControlFlow<()>,
    ) {
        let pending: VecDeque<&ScheduledGame> = self
            .games
            .iter()
            .filter(|game| !done.contains(&game.game))
            .collect();
        let pending = Mutex::new(pending);
        let stop = AtomicBool::new(false);
        // Each event travels with a sender the main thread answers once `on_event` has seen it:
        // a worker takes its next game only after its last result was heard, so a `Break` from
        // that result (or from a stop flag `on_event` reads) starts no further game. The sender
        // is the event's alone: should `on_event` panic, it is dropped with the event, and the
        // worker stops waiting (the panic then ends the run instead of hanging it).
        let (events, inbox) = channel::<(TournamentEvent<'_>, Sender<()>)>();
        thread::scope(|scope| {
            for _ in 0..self.concurrency.max(1) {
                let events = events.clone();
                let (pending, stop) = (&pending, &stop);
                scope.spawn(move || {
                    let send = |event| {
                        let (heard, hearing) = channel();
                        events.send((event, heard)).is_ok() && hearing.recv().is_ok()
                    };
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let next = pending.lock().map(|mut queue| queue.pop_front());
                        let Ok(Some(scheduled)) = next else { break };
                        if !send(TournamentEvent::Started(scheduled)) {
                            break;
                        }
                        let record = self.play(scheduled);
                        if !send(TournamentEvent::Finished(Box::new(record))) {
                            break;
                        }
                    }
                });
            }
            drop(events);
            for (event, heard) in inbox {
                if on_event(event).is_break() {
                    stop.store(true, Ordering::Relaxed);
                }
                let _ = heard.send(());
            }
        });
    }

    /// Plays one scheduled game.
    fn play(&self, scheduled: &ScheduledGame) -> GameRecord {
        let first = &self.entrants[scheduled.first];
        let second = &self.entrants[scheduled.second];
        let opening = scheduled
            .opening
            .and_then(|index| self.openings.get(index))
            .map_or(&[][..], Vec::as_slice);
        let played = play_game_from(
            &scheduled.spec,
            opening,
            [(first.factory)(), (second.factory)()],
            &self.options,
            scheduled.seed,
            &mut |event| {
                if let Some(observer) = &self.observer {
                    observer(scheduled, event);
                }
            },
        );
        GameRecord {
            game: scheduled.game,
            round: scheduled.round,
            pair: scheduled.pair,
            spec: scheduled.spec.to_string(),
            first: scheduled.first,
            second: scheduled.second,
            first_name: first.name.clone(),
            second_name: second.name.clone(),
            moves: played.moves,
            move_ms: played.move_ms,
            outcome: played.outcome,
            termination: played.termination,
            reason: played.reason,
            seed: scheduled.seed,
            opening: scheduled.opening,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn shards_hold_whole_pairs_balanced_by_expected_time() {
        let specs: Vec<GameSpec> = ["connect4", "tictactoe", "tictactoe", "tictactoe"]
            .map(|spec| spec.parse().unwrap())
            .to_vec();
        let tournament = Tournament {
            entrants: ["quasi", "random"]
                .map(|name| Entrant::from_spec(&name.parse().unwrap(), name.into()))
                .to_vec(),
            games: round_robin(2, &specs, 1, 7),
            options: RefereeOptions {
                time: crate::TimeControl::per_move(0.5),
                max_moves: None,
                adjudicate_nodes: None,
            },
            concurrency: 1,
            observer: None,
            openings: Vec::new(),
        };
        // A Connect Four game may take 42 moves of 0.5 s, a tic-tac-toe game 9.
        assert_eq!(tournament.expected_millis(&specs[0]), 21_000);
        assert_eq!(tournament.expected_millis(&specs[1]), 4_500);
        let shards: Vec<HashSet<usize>> = (0..2)
            .map(|k| tournament.shard_games(crate::Shard::new(k, 2).unwrap()))
            .collect();
        // The Connect Four pair alone on one shard, the three tic-tac-toe pairs on the other.
        assert_eq!(shards[0], HashSet::from([0, 1]));
        assert_eq!(shards[1], HashSet::from([2, 3, 4, 5, 6, 7]));
    }

    #[test]
    fn the_observer_sees_every_start_and_move() {
        let starts = Arc::new(AtomicUsize::new(0));
        let moves = Arc::new(AtomicUsize::new(0));
        let (seen_starts, seen_moves) = (starts.clone(), moves.clone());
        let specs: Vec<GameSpec> = vec!["tictactoe".parse().unwrap()];
        let tournament = Tournament {
            entrants: ["quasi", "random"]
                .map(|name| Entrant::from_spec(&name.parse().unwrap(), name.into()))
                .to_vec(),
            games: round_robin(2, &specs, 1, 7),
            options: RefereeOptions {
                time: crate::TimeControl::per_move(1.0),
                max_moves: None,
                adjudicate_nodes: None,
            },
            concurrency: 1,
            observer: Some(Arc::new(move |_, event| match event {
                RefereeEvent::Started { game } => {
                    assert_eq!(game.ply(), 0);
                    seen_starts.fetch_add(1, Ordering::Relaxed);
                }
                RefereeEvent::Moved { .. } => {
                    seen_moves.fetch_add(1, Ordering::Relaxed);
                }
                RefereeEvent::TookBack { .. } => panic!("no take-back between these players"),
            })),
            openings: Vec::new(),
        };
        let mut played = 0;
        tournament.run(&HashSet::new(), |event| {
            if let TournamentEvent::Finished(record) = event {
                played += record.moves.len();
            }
            ControlFlow::Continue(())
        });
        assert_eq!(starts.load(Ordering::Relaxed), 2);
        assert_eq!(moves.load(Ordering::Relaxed), played);
    }

    #[test]
    fn a_panic_of_the_caller_ends_the_run_instead_of_hanging_it() {
        let specs: Vec<GameSpec> = vec!["tictactoe".parse().unwrap()];
        let tournament = Tournament {
            entrants: ["quasi", "random"]
                .map(|name| Entrant::from_spec(&name.parse().unwrap(), name.into()))
                .to_vec(),
            games: round_robin(2, &specs, 3, 7),
            options: RefereeOptions {
                time: crate::TimeControl::per_move(1.0),
                max_moves: None,
                adjudicate_nodes: None,
            },
            concurrency: 2,
            observer: None,
            openings: Vec::new(),
        };
        let (ended, end) = std::sync::mpsc::channel();
        thread::spawn(move || {
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                tournament.run(&HashSet::new(), |_| panic!("the caller failed"))
            }));
            let _ = ended.send(run.is_err());
        });
        // The run hung here, its workers waiting for an answer from the unwound caller.
        let panicked = end.recv_timeout(std::time::Duration::from_secs(60));
        assert_eq!(panicked, Ok(true), "the run did not end");
    }
}
