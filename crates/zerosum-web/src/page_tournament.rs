//! A tournament started from a tab: a round robin of the players the page chose, run on a
//! thread of its own and reported to a [`TournamentFeed`] the tab watches. It belongs to the
//! tab: when the tab closes (or starts another tournament) no further game starts, and the game
//! under way plays out, unwatched.

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use zerosum_arena::{EngineList, Format, PlayerKind, Scoring, TimeControl, TournamentSettings};

use crate::catalog::page_player;
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
    /// Checks `request` (players as [`page_player`] allows with `engines`) and starts it on a
    /// thread of its own, scored as the course Connect-X tournaments are.
    pub fn start(request: TournamentRequest, engines: &EngineList) -> Result<Self, String> {
        for player in &request.players {
            let spec = page_player(player, engines)?;
            if matches!(spec.kind, PlayerKind::Human) {
                return Err("a tournament is between programs: `human` cannot enter".into());
            }
        }
        if !(request.seconds.is_finite() && request.seconds > 0.0 && request.seconds <= 60.0) {
            return Err(format!(
                "seconds per move must be above 0 and at most 60, not {}",
                request.seconds
            ));
        }
        let settings = TournamentSettings {
            players: request
                .players
                .iter()
                .map(|player| engines.resolve(player))
                .collect(),
            games: request.games,
            format: Format::RoundRobin {
                rounds: request.rounds,
            },
            time: TimeControl::per_move(request.seconds),
            max_moves: None,
            adjudicate_nodes: None,
            scoring: "cx".into(),
            sprt: None,
            seed: std::process::id().into(),
            openings: None,
        };
        let mut tournament = settings.prepare(1).map_err(|error| error.to_string())?;
        if tournament.games.len() > MAX_GAMES {
            return Err(format!(
                "{} games is too many for the page (at most {MAX_GAMES})",
                tournament.games.len()
            ));
        }
        let names = tournament.entrants.iter().map(|e| e.name.clone()).collect();
        let feed = TournamentFeed::new(
            names,
            Scoring::Cx,
            tournament.games.len(),
            &settings.time,
            Vec::new(),
        );
        tournament.observer = Some(feed.observer());
        let stop = Arc::new(AtomicBool::new(false));
        let (runner_feed, runner_stop) = (feed.clone(), stop.clone());
        thread::Builder::new()
            .name("zerosum-web-tournament".into())
            .spawn(move || {
                tournament.run(&HashSet::new(), |event| {
                    runner_feed.report(&event);
                    if runner_stop.load(Ordering::Relaxed) {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
                runner_feed.finish();
            })
            .map_err(|error| format!("cannot start the tournament: {error}"))?;
        Ok(PageTournament { feed, stop })
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
            assert!(PageTournament::start(request(players), &engines).is_err());
        }
        let mut slow = request(&["quasi", "random"]);
        slow.seconds = 120.0;
        assert!(PageTournament::start(slow, &engines).is_err());
    }

    #[test]
    fn dropping_the_tournament_stops_it_after_the_game_under_way() {
        let tournament = PageTournament::start(
            request(&["engine:time=0.05", "quasi"]),
            &EngineList::default(),
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
