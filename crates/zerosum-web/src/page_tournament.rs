//! A tournament started from a tab: a round robin of the players the page chose, run on a
//! thread of its own and reported to a [`TournamentFeed`] the tab watches. It belongs to the
//! tab: when the tab closes (or starts another tournament) no further game starts, and the game
//! under way plays out, unwatched.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use zerosum_arena::players::table_budget::tournament_tables;
use zerosum_arena::run::{Run, RunReport};
use zerosum_arena::statistics::judge::MatchJudge;
use zerosum_arena::{
    EngineList, Format, GameRecord, PlayerKind, PlayerSpec, SprtStatus, TableBudget, TimeControl,
    TournamentSettings,
};
use zerosum_games::GameSpec;

use crate::catalog::page_player;
use crate::messages::CommandError;
use crate::tournament_feed::TournamentFeed;

/// Most players and games a page tournament may have: the page is for watching, not for
/// week-long runs.
const MAX_GAMES: usize = 1000;

/// What the page asks for: a round robin of `players` over `games`, `rounds` times, with
/// `seconds` per move.
pub struct TournamentRequest {
    pub players: Vec<String>,
    pub games: Vec<String>,
    pub seconds: f64,
    pub rounds: usize,
}

/// A running page tournament: its feed, and the switch that stops it.
pub struct PageTournament {
    pub feed: TournamentFeed,
    stop: Arc<AtomicBool>,
}

impl PageTournament {
    /// Checks `request` (players as [`page_player`] allows with `engines`; at most
    /// [`MAX_GAMES`] games, counted before the schedule is built; its engines' tables within
    /// `tables`, held until its last game ends) and starts it on a thread of its own, scored as
    /// the course Connect-X tournaments are. An error names the field of the request it
    /// concerns (`players`, `games`, `seconds`, `rounds`) when one does.
    pub fn start(
        request: TournamentRequest,
        engines: &EngineList,
        tables: &Arc<TableBudget>,
    ) -> Result<Self, CommandError> {
        let players = |message: String| CommandError::in_field("players", message);
        let mut specs: Vec<PlayerSpec> = Vec::with_capacity(request.players.len());
        for player in &request.players {
            let spec = page_player(player, engines).map_err(players)?;
            if matches!(spec.kind, PlayerKind::Human) {
                return Err(players(
                    "a tournament is between programs: `human` cannot enter".into(),
                ));
            }
            specs.push(spec);
        }
        if request.players.len() < 2 {
            return Err(players(format!(
                "choose at least two players, not {}",
                request.players.len()
            )));
        }
        if request.games.is_empty() {
            return Err(CommandError::in_field("games", "name at least one game"));
        }
        let mut games: Vec<GameSpec> = Vec::with_capacity(request.games.len());
        for game in &request.games {
            match game.parse::<GameSpec>() {
                Ok(spec) => games.push(spec),
                Err(error) => {
                    return Err(CommandError::in_field(
                        "games",
                        format!("`{game}`: {error}"),
                    ))
                }
            }
        }
        if !(request.seconds.is_finite() && request.seconds > 0.0 && request.seconds <= 60.0) {
            return Err(CommandError::in_field(
                "seconds",
                format!(
                    "seconds per move must be above 0 and at most 60, not {}",
                    request.seconds
                ),
            ));
        }
        if request.rounds == 0 {
            return Err(CommandError::in_field("rounds", "play at least one round"));
        }
        let players = (request.players.iter())
            .map(|player| engines.resolve(player))
            .collect();
        let settings = TournamentSettings::new(
            players,
            request.games,
            Format::RoundRobin {
                rounds: request.rounds,
            },
            TimeControl::per_move(request.seconds),
            std::process::id().into(),
        );
        // Counted before anything is built: a schedule of millions of games takes gigabytes.
        let too_many = |count: String| {
            CommandError::in_field(
                "rounds",
                format!("{count}: too many for the page (at most {MAX_GAMES} games): fewer rounds"),
            )
        };
        match settings.game_count() {
            Ok(count) if count <= MAX_GAMES => {}
            Ok(count) => return Err(too_many(format!("{count} games"))),
            Err(error) => return Err(too_many(error.to_string())),
        }
        let reservation = tables
            .reserve(&tournament_tables(&specs, &games))
            .map_err(|error| CommandError::from(error.to_string()))?;
        let mut run =
            Run::unrecorded(settings, 1).map_err(|error| CommandError::from(error.to_string()))?;
        let feed = TournamentFeed::of_run(&run);
        run.observe(feed.observer());
        let stop = Arc::new(AtomicBool::new(false));
        let mut report = Stoppable {
            feed: feed.clone(),
            stop: stop.clone(),
        };
        thread::Builder::new()
            .name("zerosum-web-tournament".into())
            .spawn(move || {
                // An unrecorded run writes nothing, so nothing can fail it.
                let _ = run.play(&mut report);
                report.feed.finish();
                // The tables of its last game are gone: give their memory back.
                drop(reservation);
            })
            .map_err(|error| CommandError::from(format!("cannot start the tournament: {error}")))?;
        Ok(PageTournament { feed, stop })
    }
}

/// What a page tournament's run reports to: its feed, and the switch of its tab.
struct Stoppable {
    feed: TournamentFeed,
    stop: Arc<AtomicBool>,
}

impl RunReport for Stoppable {
    fn finished(&mut self, record: &GameRecord, judge: &MatchJudge, status: Option<SprtStatus>) {
        RunReport::finished(&mut self.feed, record, judge, status);
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl Drop for PageTournament {
    /// Its tab no longer wants it: no further game starts.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::Input;
    use serde_json::Value;
    use std::sync::mpsc::channel;
    use std::time::Duration;
    use zerosum_arena::players::table_budget::PhysicalMemory;

    fn budget() -> Arc<TableBudget> {
        TableBudget::of_this_machine()
    }

    fn request(players: &[&str]) -> TournamentRequest {
        TournamentRequest {
            players: players.iter().map(|p| p.to_string()).collect(),
            games: vec!["connect4".into()],
            seconds: 0.05,
            rounds: 5,
        }
    }

    #[test]
    fn only_programs_the_page_may_name_enter() {
        let engines = EngineList::default();
        for players in [
            &["human", "quasi"][..],
            &["cmd=/bin/sh,proto=gtp", "quasi"],
            &["quasi"],
        ] {
            assert!(PageTournament::start(request(players), &engines, &budget()).is_err());
        }
        let field = |request| {
            PageTournament::start(request, &engines, &budget())
                .err()
                .unwrap()
                .field
        };
        let mut slow = request(&["quasi", "random"]);
        slow.seconds = 120.0;
        assert_eq!(field(slow), Some("seconds"));
        let mut bad_game = request(&["quasi", "random"]);
        bad_game.games.push("connectx:3x3x9".into());
        assert_eq!(field(bad_game), Some("games"));
        let mut no_rounds = request(&["quasi", "random"]);
        no_rounds.rounds = 0;
        assert_eq!(field(no_rounds), Some("rounds"));
        assert_eq!(field(request(&["human", "quasi"])), Some("players"));
        for rounds in [501, 4_999_999, usize::MAX] {
            let mut huge = request(&["quasi", "random"]);
            huge.rounds = rounds;
            assert_eq!(field(huge), Some("rounds"), "{rounds} rounds");
        }
    }

    #[test]
    fn a_tournament_holds_its_engines_tables_until_its_last_game_ends() {
        // A machine of 100 MB: 50 MB for all the tables.
        let budget = TableBudget::on(Some(PhysicalMemory {
            total_mb: 100,
            available_mb: 100,
        }));
        let mut small = request(&["engine:time=0.05,hash=40", "quasi"]);
        small.games = vec!["tictactoe".into()];
        let tournament = PageTournament::start(small, &EngineList::default(), &budget).unwrap();
        assert_eq!(budget.reserved_mb(), 40);
        // On Connect Four the engine has a second table, its solver's.
        let error = PageTournament::start(
            request(&["engine:time=0.05,hash=20", "quasi"]),
            &EngineList::default(),
            &budget,
        )
        .err()
        .unwrap();
        assert_eq!(
            error.message,
            "the engines' tables of this game take 40 MB and those of the games under way 40 MB: \
             more than half of this machine's 100 MB of memory (at most 50 MB in all)"
        );
        let (watcher, events) = channel();
        tournament.feed.watch(watcher);
        drop(tournament);
        while let Ok(Input::Tournament { event, .. }) = events.recv_timeout(Duration::from_secs(20))
        {
            if event.contains("\"over\":true") {
                break;
            }
        }
        let released = std::time::Instant::now();
        while budget.reserved_mb() > 0 {
            assert!(
                released.elapsed() < Duration::from_secs(20),
                "the tables stay reserved"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn dropping_the_tournament_stops_it_after_the_game_under_way() {
        let tournament = PageTournament::start(
            request(&["engine:time=0.05", "quasi"]),
            &EngineList::default(),
            &budget(),
        )
        .unwrap();
        let (watcher, events) = channel();
        tournament.feed.watch(watcher);
        drop(tournament);
        let over = loop {
            let Input::Tournament { event, .. } = events
                .recv_timeout(Duration::from_secs(20))
                .expect("the tournament ends")
            else {
                panic!("a feed sends tournament events only");
            };
            let event: Value = serde_json::from_str(&event).unwrap();
            if event["over"] == true {
                break event;
            }
        };
        assert_eq!(over["games_total"], 10);
        assert!(over["games_played"].as_u64() <= Some(1), "{over}");
    }
}
