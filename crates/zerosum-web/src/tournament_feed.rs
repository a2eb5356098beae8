//! A running tournament as the page shows it. The threads that run the tournament report to a
//! [`TournamentFeed`] (each finished game as its [`RunReport`], each start and
//! move of a game through the [`TournamentFeed::observer`] hook); the feed keeps the standings
//! and the game under way and sends a `tournament` event to every tab that watches it, after
//! every change. A watcher only receives: a tab that closes just drops out, the tournament goes
//! on.
//!
//! The `tournament` event: `feed` (which tournament), `games_total`, `games_played`, `over`,
//! `per_move_ms` (seconds per move, or null), `standings` ([`Standings`] as JSON) and
//! `current`: null before the first game starts, else the game under way or, between games, the
//! last one played: `number` (from 1), `players` (first, second), `game`
//! (the [`zerosum_games::DynGame`] JSON), `used_ms` (time each side has used) and `thinking_ms`
//! (how long the side to move has been thinking when the event was sent). After a game ends and
//! to a tab that starts watching, the event also carries `elo_chart`: each player's Elo against
//! the games played (SVG, as `zerosum report` draws it; null before the first game).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zerosum_arena::run::{Run, RunReport};
use zerosum_arena::statistics::judge::MatchJudge;
use zerosum_arena::statistics::report::elo_chart;
use zerosum_arena::{GameObserver, GameRecord, RefereeEvent, Scoring, SprtStatus, Standings};
use zerosum_charts::Chart;

use crate::inbox::Input;

/// Numbers the feeds of this process, so a tab tells them apart.
static NEXT_FEED: AtomicU64 = AtomicU64::new(1);

/// The game under way, or the last one played.
struct CurrentGame {
    number: usize,
    players: [String; 2],
    game: Value,
    used: [Duration; 2],
    turn_started: Instant,
}

/// What a feed knows and who listens.
struct FeedState {
    names: Vec<String>,
    scoring: Scoring,
    games_total: usize,
    per_move: Option<Duration>,
    records: Vec<GameRecord>,
    /// The standings JSON after `records`.
    standings: Value,
    /// The Elo-over-games chart (SVG) after `records`, if any.
    elo_chart: Option<String>,
    /// Whether the next event carries the chart: after a game ends and when a tab starts
    /// watching (the chart is not sent again with every move).
    chart_due: bool,
    current: Option<CurrentGame>,
    over: bool,
    watchers: Vec<Sender<Input>>,
}

impl FeedState {
    fn event(&self, feed: u64) -> Arc<String> {
        let current = self.current.as_ref().map(|current| {
            json!({
                "number": current.number,
                "players": current.players,
                "game": current.game,
                "used_ms": current.used.map(|used| used.as_millis() as u64),
                "thinking_ms": current.turn_started.elapsed().as_millis() as u64,
            })
        });
        let mut event = json!({
            "type": "tournament",
            "feed": feed.to_string(),
            "games_total": self.games_total,
            "games_played": self.records.len(),
            "over": self.over,
            "per_move_ms": self.per_move.map(|limit| limit.as_millis() as u64),
            "standings": self.standings,
            "current": current,
        });
        if self.chart_due {
            event["elo_chart"] = json!(self.elo_chart);
        }
        Arc::new(event.to_string())
    }

    fn compute_standings(&mut self) {
        self.standings = Standings::compute(&self.names, &self.records, self.scoring)
            .map_or(Value::Null, |standings| json!(standings));
        self.elo_chart = (!self.records.is_empty())
            .then(|| elo_chart(&self.names, &self.records, self.scoring).ok())
            .flatten()
            .map(|chart| chart.to_svg());
        self.chart_due = true;
    }
}

/// A tournament's progress, shared by the threads that run it and the tabs that watch it.
/// Clones share one feed.
#[derive(Clone)]
pub struct TournamentFeed {
    id: u64,
    state: Arc<Mutex<FeedState>>,
}

impl TournamentFeed {
    /// A feed for `run`: its entrants, its scoring, the games of its schedule, its time
    /// control, and the games it had played before it started.
    pub fn of_run(run: &Run) -> TournamentFeed {
        let mut state = FeedState {
            names: run.names(),
            scoring: run.scoring(),
            games_total: run.tournament().games.len(),
            per_move: run.settings().time.per_move,
            records: run.played().to_vec(),
            standings: Value::Null,
            elo_chart: None,
            chart_due: true,
            current: None,
            over: false,
            watchers: Vec::new(),
        };
        state.compute_standings();
        TournamentFeed {
            id: NEXT_FEED.fetch_add(1, Ordering::Relaxed),
            state: Arc::new(Mutex::new(state)),
        }
    }

    /// The hook to set as the tournament's [`zerosum_arena::Tournament::observer`]: shows each
    /// game as it starts and after every move.
    pub fn observer(&self) -> GameObserver {
        let feed = self.clone();
        Arc::new(move |scheduled, event| {
            let mut state = feed.lock();
            match event {
                RefereeEvent::Started { game } => {
                    let players = [scheduled.first, scheduled.second]
                        .map(|player| state.names.get(player).cloned().unwrap_or_default());
                    state.current = Some(CurrentGame {
                        number: scheduled.game + 1,
                        players,
                        game: game.to_json(),
                        used: [Duration::ZERO; 2],
                        turn_started: Instant::now(),
                    });
                }
                RefereeEvent::Moved {
                    game,
                    side,
                    elapsed,
                    ..
                } => {
                    let Some(current) = state
                        .current
                        .as_mut()
                        .filter(|current| current.number == scheduled.game + 1)
                    else {
                        // Another game of a concurrent tournament: the page shows the latest.
                        return;
                    };
                    current.game = game.to_json();
                    current.used[side.index()] += elapsed;
                    current.turn_started = Instant::now();
                }
                RefereeEvent::TookBack { game, .. } => {
                    if let Some(current) = state
                        .current
                        .as_mut()
                        .filter(|current| current.number == scheduled.game + 1)
                    {
                        current.game = game.to_json();
                    }
                }
            }
            feed.publish(&mut state);
        })
    }

    /// Marks the tournament over (played out or stopped).
    pub fn finish(&self) {
        let mut state = self.lock();
        state.over = true;
        self.publish(&mut state);
    }

    /// Which feed this is: the `feed` of its events and of the download queries
    /// (`/games?feed=ID`, `/game?feed=ID&number=N`).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Sends the feed's events to `watcher` from now on, starting with the current one.
    pub(crate) fn watch(&self, watcher: Sender<Input>) {
        let mut state = self.lock();
        state.watchers.push(watcher);
        state.chart_due = true;
        self.publish(&mut state);
    }

    /// The finished games from the `from`th to finish (from 0), at most `most` of them, and
    /// how many have finished.
    pub(crate) fn finished(&self, from: usize, most: usize) -> (Vec<GameRecord>, usize) {
        let state = self.lock();
        let records = &state.records;
        let start = from.min(records.len());
        let end = start.saturating_add(most).min(records.len());
        (records[start..end].to_vec(), records.len())
    }

    /// The finished game numbered `number` (from 1, as the page shows it), if it has finished.
    pub(crate) fn finished_game(&self, number: usize) -> Option<GameRecord> {
        let state = self.lock();
        state
            .records
            .iter()
            .find(|record| record.game.checked_add(1) == Some(number))
            .cloned()
    }

    fn lock(&self) -> MutexGuard<'_, FeedState> {
        // A panic while the state was held leaves it readable: the page shows what is there.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Sends the current event to every watcher; those gone are dropped.
    fn publish(&self, state: &mut FeedState) {
        let event = state.event(self.id);
        state.chart_due = false;
        state.watchers.retain(|watcher| {
            watcher
                .send(Input::Tournament {
                    feed: self.id,
                    event: event.clone(),
                })
                .is_ok()
        });
    }
}

impl RunReport for TournamentFeed {
    /// A finished game goes into the standings.
    fn finished(&mut self, record: &GameRecord, _: &MatchJudge, _: Option<SprtStatus>) {
        let mut state = self.lock();
        state.records.push(record.clone());
        state.compute_standings();
        self.publish(&mut state);
    }
}

/// The feeds a server's tabs watch, by id, for the downloads of their finished games. Held
/// weakly: a feed that nobody runs or watches any more drops out.
#[derive(Default)]
pub(crate) struct FeedTable(Mutex<Vec<(u64, Weak<Mutex<FeedState>>)>>);

impl FeedTable {
    /// Adds `feed` (and forgets the feeds gone).
    pub(crate) fn add(&self, feed: &TournamentFeed) {
        let mut feeds = self.lock();
        feeds.retain(|(_, state)| state.strong_count() > 0);
        feeds.push((feed.id, Arc::downgrade(&feed.state)));
    }

    /// The feed numbered `id`, while it lasts.
    pub(crate) fn get(&self, id: u64) -> Option<TournamentFeed> {
        let feeds = self.lock();
        let (_, state) = feeds.iter().find(|(feed, _)| *feed == id)?;
        Some(TournamentFeed {
            id,
            state: state.upgrade()?,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Vec<(u64, Weak<Mutex<FeedState>>)>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use zerosum_arena::{Format, TimeControl, TournamentSettings};

    #[test]
    fn watchers_see_moves_and_standings_until_the_end() {
        let settings = TournamentSettings::new(
            vec!["quasi".into(), "random".into()],
            vec!["tictactoe".into()],
            Format::RoundRobin { rounds: 1 },
            TimeControl::per_move(1.0),
            3,
        );
        let mut run = Run::unrecorded(settings, 1).unwrap();
        let feed = TournamentFeed::of_run(&run);
        let (watcher, events) = channel();
        feed.watch(watcher);
        run.observe(feed.observer());
        run.play(&mut feed.clone()).unwrap();
        feed.finish();
        drop(feed);
        let events: Vec<Value> = events
            .try_iter()
            .map(|input| match input {
                Input::Tournament { event, .. } => serde_json::from_str(&event).unwrap(),
                _ => panic!("a feed sends tournament events only"),
            })
            .collect();
        let moved = events
            .iter()
            .filter(|event| event["current"]["game"]["ply"].as_u64() > Some(0))
            .count();
        assert!(moved >= 10, "two games of at least five moves each");
        let last = events.last().unwrap();
        assert_eq!(last["over"], true);
        assert_eq!(last["games_played"], 2);
        assert_eq!(last["per_move_ms"], 1000);
        assert_eq!(last["standings"]["players"].as_array().unwrap().len(), 2);
        assert_eq!(last["current"]["number"], 2);
        assert_ne!(last["current"]["game"]["status"], "ongoing");
        // The Elo chart comes with the first event and after each game, not with every move.
        let charts: Vec<&Value> = events.iter().filter_map(|e| e.get("elo_chart")).collect();
        assert_eq!(
            charts.len(),
            3,
            "on watching and after each of the two games"
        );
        assert!(charts[0].is_null());
        let svg = charts[2].as_str().unwrap();
        zerosum_charts::check_svg(svg).unwrap();
        assert!(svg.contains("Elo against games played"));
    }
}
