//! One browser tab's game. A session runs on a thread of its own and owns the tab's event
//! stream; it sleeps on its input channel, which carries the page's commands, the answers of
//! engine searches and the news that the tab closed. An engine's move is searched on a thread
//! of its own ([`crate::engine_move`]), so neither the session nor any connection thread ever
//! searches. When the tab closes, the session stops its search and ends.
//!
//! A session also passes on the events of the tournament its tab watches: the server's (see
//! [`crate::server::ServerSettings::watched`]) or, once the tab starts one, its own, which it
//! stops when the tab closes.

use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zerosum_arena::players::table_budget::game_tables;
use zerosum_arena::{Player, PlayerKind, PlayerSpec, TableReservation};
use zerosum_core::{Side, Status};
use zerosum_games::{new_game, DynGame, GameSpec};

use crate::catalog::{self, page_player};
use crate::engine_move;
use crate::http::send_event;
use crate::inbox::{EngineReply, Input};
use crate::messages::{Command, CommandError, SearchLine};
use crate::page_tournament::{PageTournament, TournamentRequest};
use crate::score_graph::ScoreGraph;
use crate::settings::ServerSettings;

/// The game a new tab starts with: tic-tac-toe, the page against the engine.
const OPENING_SPEC: &str = "tictactoe";
const OPENING_PLAYERS: [&str; 2] = ["human", "engine:time=0.5"];

/// Who plays a side.
enum Seat {
    /// The page: moves come as [`Command::Move`].
    Human,
    /// A built-in player, named `text` by the page. `player` is `None` before its first move
    /// and while it searches (the search thread holds it); `prepared` says whether it has been
    /// told about this game.
    Program {
        text: String,
        spec: PlayerSpec,
        player: Option<Box<dyn Player>>,
        prepared: bool,
    },
}

impl Seat {
    /// Reads `human`, a built-in player spec or a configured engine's name (see
    /// [`page_player`]); a built-in engine naming no threads gets the server's.
    fn parse(text: &str, settings: &ServerSettings) -> Result<Seat, String> {
        if text.trim().eq_ignore_ascii_case("human") {
            return Ok(Seat::Human);
        }
        let mut spec = page_player(text, &settings.engines)?;
        if let (PlayerKind::Engine(engine), Some(threads)) =
            (&mut spec.kind, settings.engine_threads)
        {
            engine.threads.get_or_insert(threads);
        }
        match spec.kind {
            PlayerKind::Human => Ok(Seat::Human),
            _ => Ok(Seat::Program {
                text: text.trim().to_string(),
                spec,
                player: None,
                prepared: false,
            }),
        }
    }

    /// The time the seat's player takes for a move at most, when it has a limit: a built-in
    /// engine's time setting (one second when it has no limit at all).
    fn move_limit(&self) -> Option<Duration> {
        match self {
            Seat::Program {
                spec:
                    PlayerSpec {
                        kind: PlayerKind::Engine(settings),
                        ..
                    },
                ..
            } => match (settings.time, settings.depth, settings.nodes) {
                (Some(time), _, _) => Some(time),
                (None, None, None) => Some(Duration::from_secs(1)),
                _ => None,
            },
            _ => None,
        }
    }

    fn name(&self) -> String {
        match self {
            Seat::Human => "human".into(),
            Seat::Program { spec, .. } => spec.display_name(),
        }
    }

    /// The player as the page names it in a `new` command: `human`, `engine:time=0.5`.
    fn text(&self) -> &str {
        match self {
            Seat::Human => "human",
            Seat::Program { text, .. } => text,
        }
    }

    fn is_human(&self) -> bool {
        matches!(self, Seat::Human)
    }

    /// The seat's built-in or external player, if it has one.
    fn program(&self) -> Option<&PlayerSpec> {
        match self {
            Seat::Human => None,
            Seat::Program { spec, .. } => Some(spec),
        }
    }
}

/// The tables the engines of `seats` hold in a game of `spec`.
fn tables_of(seats: &[Seat; 2], spec: &GameSpec) -> Vec<usize> {
    game_tables(seats.iter().filter_map(Seat::program), spec)
}

/// The engine search under way.
struct Search {
    /// Which search: replies of older ones are dropped.
    generation: u64,
    side: Side,
    stop: Arc<AtomicBool>,
}

/// A tab's game and the players of both sides.
pub struct Session {
    id: u64,
    events: TcpStream,
    inputs: Sender<Input>,
    game: Box<dyn DynGame>,
    seats: [Seat; 2],
    /// Thinking time each side has used.
    used: [Duration; 2],
    turn_started: Instant,
    search: Option<Search>,
    generations: u64,
    /// Set when a player failed: the game is over with this result.
    forfeit: Option<String>,
    seed: u64,
    settings: Arc<ServerSettings>,
    /// The feed whose tournament the tab is shown.
    watching: Option<u64>,
    /// The tournament this tab started, stopped when dropped.
    tournament: Option<PageTournament>,
    /// The engines' evaluations of the game's moves.
    scores: ScoreGraph,
    /// The memory the engines' tables of the game take, reserved in the server's budget.
    tables: TableReservation,
    /// The game's number in the tab: 0 for the opening game, one more for each new game.
    number: u64,
}

impl Session {
    /// A session for the tab whose event stream is `events`; `inputs` is the sending end of
    /// the channel [`Session::run`] reads.
    pub fn new(
        id: u64,
        events: TcpStream,
        inputs: Sender<Input>,
        seed: u64,
        settings: Arc<ServerSettings>,
    ) -> Session {
        let spec: GameSpec = OPENING_SPEC.parse().expect("the opening spec is valid");
        let mut seats = OPENING_PLAYERS
            .map(|text| Seat::parse(text, &settings).expect("valid opening players"));
        // With every table of the machine's budget taken, a new tab opens on a game between
        // people.
        let tables = match settings.tables.reserve(&tables_of(&seats, &spec)) {
            Ok(tables) => tables,
            Err(_) => {
                seats = [Seat::Human, Seat::Human];
                settings.tables.nothing()
            }
        };
        Session {
            id,
            events,
            inputs,
            game: new_game(&spec).expect("the opening game exists"),
            seats,
            used: [Duration::ZERO; 2],
            turn_started: Instant::now(),
            search: None,
            generations: 0,
            forfeit: None,
            seed,
            settings,
            watching: None,
            tournament: None,
            scores: ScoreGraph::default(),
            tables,
            number: 0,
        }
    }

    /// Greets the tab, then serves it until it closes.
    pub fn run(mut self, inputs: Receiver<Input>) {
        let hello = json!({
            "type": "hello",
            "session": self.id.to_string(),
            "catalog": catalog::catalog(&self.settings.engines),
            "watching": self.settings.watched.is_some(),
        });
        if self.send(&hello).is_err() || self.send_state().is_err() {
            return;
        }
        if let Some(feed) = &self.settings.watched {
            self.watching = Some(feed.id());
            feed.watch(self.inputs.clone());
        }
        for input in inputs {
            let outcome = match input {
                Input::Closed => break,
                Input::Tournament { feed, event } => {
                    if self.watching == Some(feed) && send_event(&mut self.events, &event).is_err()
                    {
                        break;
                    }
                    continue;
                }
                Input::EngineProgress { generation, line } => {
                    if self.report_progress(generation, &line).is_err() {
                        break;
                    }
                    continue;
                }
                Input::Command(command) => {
                    let name = command.name();
                    self.obey(command).map_err(|error| error.of_command(name))
                }
                Input::EngineReplied(reply) => self.take_reply(reply).map_err(CommandError::from),
            };
            if let Err(error) = outcome {
                if self.send(&error.event()).is_err() {
                    break;
                }
            }
            self.start_search_if_due();
            if self.send_state().is_err() {
                break;
            }
        }
        self.cancel_search();
    }

    fn send(&mut self, event: &Value) -> std::io::Result<()> {
        send_event(&mut self.events, &event.to_string())
    }

    fn send_state(&mut self) -> std::io::Result<()> {
        self.scores.truncate(self.game.ply());
        let names = [self.seats[0].name(), self.seats[1].name()];
        let state = json!({
            "type": "state",
            "game": self.game.to_json(),
            "number": self.number,
            "players": [self.seats[0].name(), self.seats[1].name()],
            "seats": [self.seats[0].text(), self.seats[1].text()],
            "humans": [self.seats[0].is_human(), self.seats[1].is_human()],
            "thinking": self.search.as_ref().map(|search| search.side.name()),
            "used_ms": self.used.map(|used| used.as_millis() as u64),
            "limit_ms": self.seats.each_ref().map(|seat| seat.move_limit().map(|limit| limit.as_millis() as u64)),
            "turn_ms": self.turn_started.elapsed().as_millis() as u64,
            "result": self.result(),
            "score_graph": self.scores.svg(&names[0], &names[1]),
        });
        self.send(&state)
    }

    /// The result and its reason once the game is over.
    fn result(&self) -> Option<String> {
        if let Some(forfeit) = &self.forfeit {
            return Some(forfeit.clone());
        }
        match self.game.status() {
            Status::Ongoing => None,
            over => Some(over.to_string()),
        }
    }

    fn is_over(&self) -> bool {
        self.forfeit.is_some() || self.game.status() != Status::Ongoing
    }

    fn obey(&mut self, command: Command) -> Result<(), CommandError> {
        match command {
            Command::New {
                spec,
                players,
                moves,
            } => self.new_game(&spec, &players, &moves),
            Command::Move { text } => self.human_move(&text).map_err(CommandError::from),
            Command::Undo => self.undo().map_err(CommandError::from),
            Command::Swap => {
                self.cancel_search();
                self.seats.swap(0, 1);
                self.used.swap(0, 1);
                self.turn_started = Instant::now();
                Ok(())
            }
            Command::Tournament {
                players,
                games,
                seconds,
                rounds,
            } => {
                if self.settings.watched.is_some() {
                    return Err(CommandError::from(
                        "this page shows the tournament of `zerosum tournament --serve`; \
                         start tournaments of your own from `zerosum serve`"
                            .to_string(),
                    ));
                }
                let request = TournamentRequest {
                    players,
                    games,
                    seconds,
                    rounds,
                };
                let tournament =
                    PageTournament::start(request, &self.settings.engines, &self.settings.tables)?;
                self.settings.feeds.add(&tournament.feed);
                self.watching = Some(tournament.feed.id());
                tournament.feed.watch(self.inputs.clone());
                // Replacing the tab's previous tournament stops it.
                self.tournament = Some(tournament);
                Ok(())
            }
        }
    }

    /// Starts a game of `spec` between `players`, from the position after `moves`.
    fn new_game(
        &mut self,
        spec: &str,
        players: &[String; 2],
        moves: &[String],
    ) -> Result<(), CommandError> {
        let spec_error =
            |error: &dyn std::fmt::Display| CommandError::in_field("spec", error.to_string());
        let spec: GameSpec = spec.parse().map_err(|error| spec_error(&error))?;
        let mut game = new_game(&spec).map_err(|error| spec_error(&error))?;
        for (number, text) in moves.iter().enumerate() {
            if game.status() != Status::Ongoing {
                return Err(CommandError::in_field(
                    "moves",
                    format!("move {} ({text}): the game is over", number + 1),
                ));
            }
            game.play(text).map_err(|error| {
                CommandError::in_field("moves", format!("move {} ({text}): {error}", number + 1))
            })?;
        }
        let seats = [
            Seat::parse(&players[0], &self.settings)
                .map_err(|error| CommandError::in_field("first", error))?,
            Seat::parse(&players[1], &self.settings)
                .map_err(|error| CommandError::in_field("second", error))?,
        ];
        // The old game's tables are freed as it ends here (or once its search thread stops).
        self.tables
            .change(&tables_of(&seats, &spec))
            .map_err(|error| CommandError::from(error.to_string()))?;
        self.cancel_search();
        self.game = game;
        self.seats = seats;
        self.scores = ScoreGraph::default();
        self.used = [Duration::ZERO; 2];
        self.forfeit = None;
        self.seed = self.seed.wrapping_add(1);
        self.number += 1;
        self.turn_started = Instant::now();
        Ok(())
    }

    fn human_move(&mut self, text: &str) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over: start a new game or take a move back".into());
        }
        let side = self.game.to_move();
        if !self.seats[side.index()].is_human() {
            return Err(format!(
                "it is the {side} player's turn ({}), not yours",
                self.seats[side.index()].name()
            ));
        }
        self.game.play(text).map_err(|error| format!("{error}"))?;
        self.used[side.index()] += self.turn_started.elapsed();
        self.turn_started = Instant::now();
        Ok(())
    }

    /// Takes back one move, then more until a human is to move (when a human plays at all).
    fn undo(&mut self) -> Result<(), String> {
        if self.game.ply() == 0 {
            return Err("there is no move to take back".into());
        }
        self.cancel_search();
        self.forfeit = None;
        self.game.undo();
        let anyone_human = self.seats.iter().any(Seat::is_human);
        while anyone_human
            && self.game.ply() > 0
            && !self.seats[self.game.to_move().index()].is_human()
        {
            self.game.undo();
        }
        self.turn_started = Instant::now();
        Ok(())
    }

    /// Starts the engine of the side to move, if a program is to move and none searches.
    fn start_search_if_due(&mut self) {
        if self.search.is_some() || self.is_over() {
            return;
        }
        let side = self.game.to_move();
        let Seat::Program {
            spec,
            player,
            prepared,
            ..
        } = &mut self.seats[side.index()]
        else {
            return;
        };
        let player = player.take().unwrap_or_else(|| {
            *prepared = false;
            spec.build()
        });
        self.generations += 1;
        let stop = Arc::new(AtomicBool::new(false));
        let job = engine_move::Job {
            generation: self.generations,
            spec: self.game.spec(),
            side,
            moves: Arc::new(self.game.history()),
            prepared: *prepared,
            seed: self.seed,
            stop: stop.clone(),
        };
        *prepared = true;
        match engine_move::start(player, job, self.inputs.clone()) {
            Ok(()) => {
                self.search = Some(Search {
                    generation: self.generations,
                    side,
                    stop,
                });
            }
            Err(error) => {
                self.forfeit = Some(format!(
                    "{side} player ({}) could not start: {error}",
                    self.seats[side.index()].name()
                ));
            }
        }
    }

    /// Asks the search under way to stop; its answer, when it comes, is dropped.
    fn cancel_search(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Shows the page the line of the search under way (`live`), if it is still the current
    /// one; the board draws its principal variation.
    fn report_progress(&mut self, generation: u64, line: &str) -> std::io::Result<()> {
        let Some(search) = self.search.as_ref().filter(|s| s.generation == generation) else {
            return Ok(());
        };
        let mut event = self.search_event(search.side, line);
        event["live"] = json!(true);
        self.send(&event)
    }

    /// The `search` event of the engine playing `side` that commented `comment`: its line in
    /// the words of the terminal ([`SearchLine`]; the page's one person is `you`), or the
    /// comment as it is when it carries no score.
    fn search_event(&self, side: Side, comment: &str) -> Value {
        let sides = &self.game.to_json()["sides"];
        let called = |side: Side| {
            sides[side.name()]
                .as_str()
                .unwrap_or(side.name())
                .to_string()
        };
        let one_person = self.seats.iter().filter(|seat| seat.is_human()).count() == 1;
        let other = match self.seats[(!side).index()].is_human() && one_person {
            true => "you".to_string(),
            false => called(!side),
        };
        match SearchLine::new(comment, &called(side), &other) {
            Some(line) => json!({"type": "search", "side": side.name(), "line": line}),
            None => json!({"type": "search", "side": side.name(), "comment": comment}),
        }
    }

    fn take_reply(&mut self, reply: EngineReply) -> Result<(), String> {
        let current = self
            .search
            .as_ref()
            .is_some_and(|search| search.generation == reply.generation);
        if !current {
            return Ok(());
        }
        self.search = None;
        let side = reply.side;
        if let Seat::Program { player, .. } = &mut self.seats[side.index()] {
            *player = reply.player;
        }
        let name = self.seats[side.index()].name();
        let answer = match reply.answer {
            Ok(answer) => answer,
            Err(error) => {
                self.forfeit = Some(format!(
                    "{} player wins: {side} player ({name}) failed: {error}",
                    !side
                ));
                return Ok(());
            }
        };
        match self.game.play(&answer.text) {
            Ok(canonical) => {
                self.used[side.index()] += reply.elapsed;
                self.turn_started = Instant::now();
                if let Some(comment) = &answer.comment {
                    self.scores.record(self.game.ply(), side, comment);
                    let mut event = self.search_event(side, comment);
                    event["move"] = json!(canonical);
                    self.send(&event).map_err(|error| error.to_string())?;
                }
            }
            Err(error) => {
                self.forfeit = Some(format!(
                    "{} player wins: {side} player ({name}) played an illegal move: {error}",
                    !side
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_arena::Threads;

    #[test]
    fn the_servers_threads_go_to_the_engines_that_name_none() {
        let settings = ServerSettings {
            engine_threads: Some(Threads::new(2).unwrap()),
            ..ServerSettings::default()
        };
        let threads = |text: &str| match Seat::parse(text, &settings).unwrap() {
            Seat::Program {
                spec:
                    PlayerSpec {
                        kind: PlayerKind::Engine(engine),
                        ..
                    },
                ..
            } => engine.threads.map(Threads::get),
            _ => panic!("{text} is not an engine"),
        };
        assert_eq!(threads("engine:time=0.1"), Some(2));
        assert_eq!(threads("engine:threads=1"), Some(1));
        assert!(matches!(
            Seat::parse("quasi", &settings),
            Ok(Seat::Program { .. })
        ));
    }
}
