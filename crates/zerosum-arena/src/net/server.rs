//! The game server: referees one game between two clients (the first plays Black, who moves
//! first), with the arena's referee and clocks. Every connection waits in the [lobby] until a
//! seat takes it; a seat is a client's only once it has answered its first `YOUR_TURN` with a
//! `MOVE` (clients of the original protocol say nothing before). Until then, a connection
//! that closes, says anything before it is asked (an HTTP probe), or stays silent past its
//! first move's time is dropped: it is not a player, and the seat goes to the next connection
//! (the referee asks again, the turn's time starting over). Once both seats are confirmed,
//! everyone else is turned away with a message. In the game, a confirmed client that says
//! nothing, babbles, speaks out of turn, floods (see [`crate::MAX_PEER_BYTES`]) or disconnects
//! loses by forfeit; the server carries on to the end of the game.
//!
//! [lobby]: super::lobby

use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use thiserror::Error;
use zerosum_core::{Outcome, Side};
use zerosum_games::GameSpec;

use super::lobby::{send, Connection, Lobby, Log};
use super::{colour, ServerMessage};
use crate::peers::lines::NoLine;
use crate::peers::text::{is_plain, quote};
use crate::player::{GameSetup, MoveAnswer, MoveRequest, Player, PlayerError};
use crate::records::record::Termination;
use crate::referee::{play_game, PlayedGame, RefereeEvent, RefereeOptions};
use crate::TimeControl;

/// What the server plays.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    pub spec: GameSpec,
    pub time: TimeControl,
    /// Seed for the referee (the players here are remote; it only names the game).
    pub seed: u64,
}

/// Why the server could not run a game (the message holds the whole story: no source, which
/// would print it twice in a chain).
#[derive(Debug, Error)]
pub enum ServerError {
    #[error("network error: {0}")]
    Io(std::io::Error),
}

impl From<std::io::Error> for ServerError {
    fn from(error: std::io::Error) -> Self {
        ServerError::Io(error)
    }
}

/// Where the server writes to the client on each seat (the seat's current connection), shared
/// by the seats and the game's observer.
type Writers = Arc<[Mutex<Option<TcpStream>>; 2]>;

/// Sends `message` to the client on `side`'s seat, if there is one.
fn tell(writers: &Writers, side: Side, message: &ServerMessage) {
    let mut writer = writers[side.index()]
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(stream) = writer.as_mut() {
        send(stream, message);
    }
}

/// One seat of the game as a player of the referee: the connection on it, replaced from the
/// lobby until one answers its first `YOUR_TURN`.
struct RemoteSeat {
    side: Side,
    lobby: Arc<Lobby>,
    /// The connection on the seat; `None` while it is open.
    connection: Option<Connection>,
    /// The connection has moved: the seat is its for the rest of the game.
    confirmed: bool,
    writers: Writers,
    setup: Option<GameSetup>,
    /// Moves the client has been told of.
    known: usize,
    watchdog: Duration,
    log: Log,
    /// When the opponent was last told that this seat is open (see [`OPEN_SEAT_NOTICE`]).
    told_open: Option<Instant>,
}

/// How often, at most, the client on the other seat is told that this one is open while it
/// waits for a player (which also tells it that the server is still there).
const OPEN_SEAT_NOTICE: Duration = Duration::from_secs(10);

impl RemoteSeat {
    /// Gives the seat to `connection` and welcomes it once the game is set up.
    fn take(&mut self, connection: Connection) {
        (self.log)(&format!(
            "{} connected: {} player",
            connection.address, self.side
        ));
        *self.writers[self.side.index()]
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = connection.stream.try_clone().ok();
        self.connection = Some(connection);
        self.known = 0;
        self.told_open = None;
        if self.setup.is_some() {
            self.welcome();
        }
    }

    /// Tells the connection on the seat the game, the time and its colour (once the game is
    /// set up; before, [`Player::new_game`] does).
    fn welcome(&mut self) {
        let (Some(setup), Some(connection)) = (&self.setup, &mut self.connection) else {
            return;
        };
        send(
            &mut connection.stream,
            &ServerMessage::Game(setup.spec.to_string()),
        );
        if let Some(per_move) = setup.time.per_move {
            send(
                &mut connection.stream,
                &ServerMessage::Time(per_move.as_secs_f64()),
            );
        }
        send(&mut connection.stream, &ServerMessage::Welcome(setup.side));
    }

    /// Drops the connection on the seat, which has not moved, for `reason`: the seat is open.
    fn vacate(&mut self, reason: &str) -> PlayerError {
        if let Some(connection) = self.connection.take() {
            (self.log)(&format!(
                "{} gives up the {} seat: it {reason}; the seat is open",
                connection.address,
                colour(self.side)
            ));
            *self.writers[self.side.index()]
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = None;
            connection.close(Some(&format!(
                "the {} seat goes to the next client: this connection {reason}",
                colour(self.side)
            )));
        }
        PlayerError::Vacated
    }

    /// A seat's first move: from its connection if that turns out to be a client of the
    /// protocol, else [`PlayerError::Vacated`] with the seat open (the referee asks again).
    fn first_move(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        // Not beyond the referee's patience when the move is untimed.
        let started = Instant::now();
        let deadline = started
            + request.limit.map_or(self.watchdog / 2, |limit| {
                limit + limit.max(Duration::from_secs(2))
            });
        if let Some(reason) = self.connection.as_ref().and_then(Connection::unfit) {
            return Err(self.vacate(&reason));
        }
        if self.connection.is_none() {
            match self.lobby.next(deadline, &request.stop) {
                Some(connection) => self.take(connection),
                None => {
                    if self
                        .told_open
                        .is_none_or(|told| told.elapsed() >= OPEN_SEAT_NOTICE)
                    {
                        self.told_open = Some(Instant::now());
                        let waiting = format!(
                            "the {} seat is open: waiting for a player",
                            colour(self.side)
                        );
                        tell(&self.writers, !self.side, &ServerMessage::Message(waiting));
                    }
                    return Err(PlayerError::Vacated);
                }
            }
        }
        let connection = self.connection.as_mut().expect("a connection on the seat");
        if request.moves.len() > self.known {
            let last = request.moves[request.moves.len() - 1].clone();
            send(&mut connection.stream, &ServerMessage::OpponentMove(last));
        }
        connection.lines.asked();
        send(&mut connection.stream, &ServerMessage::YourTurn);
        let reason = loop {
            match connection.lines.next(Some(deadline), Some(&request.stop)) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => {
                    let line = line.trim();
                    match line.strip_prefix("MOVE ").map(str::trim) {
                        Some(mv) if !mv.is_empty() && is_plain(mv) => {
                            self.confirmed = true;
                            self.known = request.moves.len() + 1;
                            self.lobby.confirm(self.side.index());
                            return Ok(MoveAnswer::new(mv));
                        }
                        _ => break format!("answered `{}` instead of MOVE", quote(line)),
                    }
                }
                Err(NoLine::Late) => {
                    break format!(
                        "did not answer its first YOUR_TURN within {:.2} s",
                        started.elapsed().as_secs_f64()
                    )
                }
                Err(NoLine::Gone) => break "closed the connection".into(),
                Err(NoLine::Flood(flood)) => break flood.to_string(),
            }
        };
        Err(self.vacate(&reason))
    }
}

impl Player for RemoteSeat {
    fn name(&self) -> String {
        format!("{} client", colour(self.side))
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.setup = Some(setup.clone());
        self.known = 0;
        self.welcome();
        Ok(())
    }

    fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        if !self.confirmed {
            return self.first_move(request);
        }
        let lines = &self
            .connection
            .as_ref()
            .expect("a confirmed seat keeps its connection")
            .lines;
        // Whatever came since the client's last move came unasked: blank lines are harmless,
        // anything else forfeits.
        loop {
            match lines.try_next() {
                Ok(Some(line)) if line.trim().is_empty() => continue,
                Ok(Some(line)) => {
                    return Err(PlayerError::Garbage(format!(
                        "sent `{}` without being asked",
                        quote(line.trim())
                    )))
                }
                Ok(None) => break,
                Err(NoLine::Flood(flood)) => {
                    return Err(PlayerError::Failed(format!("{flood} without being asked")))
                }
                Err(NoLine::Gone) => return Err(PlayerError::Failed("disconnected".into())),
                Err(NoLine::Late) => break,
            }
        }
        let connection = self.connection.as_mut().expect("a confirmed seat");
        // The opponent's move (the client's own were confirmed as they were made).
        if request.moves.len() > self.known {
            let last = request.moves[request.moves.len() - 1].clone();
            send(&mut connection.stream, &ServerMessage::OpponentMove(last));
        }
        self.known = request.moves.len() + 1;
        connection.lines.asked();
        send(&mut connection.stream, &ServerMessage::YourTurn);
        let patience = request.limit.map_or(self.watchdog, |limit| {
            limit + limit.max(Duration::from_secs(2))
        });
        let deadline = Instant::now() + patience;
        let mut stop = Some(request.stop.as_ref());
        loop {
            match connection.lines.next(Some(deadline), stop) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => {
                    let line = line.trim();
                    return match line.strip_prefix("MOVE ").map(str::trim) {
                        Some(mv) if !mv.is_empty() && is_plain(mv) => Ok(MoveAnswer::new(mv)),
                        _ => Err(PlayerError::Garbage(format!(
                            "sent `{}` instead of MOVE",
                            quote(line)
                        ))),
                    };
                }
                // Time is up: the referee decides; keep listening for a late answer.
                Err(NoLine::Late) if stop.is_some() && Instant::now() < deadline => stop = None,
                Err(NoLine::Late) => return Err(PlayerError::Failed("no answer".into())),
                Err(NoLine::Gone) => return Err(PlayerError::Failed("disconnected".into())),
                Err(NoLine::Flood(flood)) => {
                    return Err(PlayerError::Failed(format!("{flood} without a move")))
                }
            }
        }
    }
}

/// Accepts clients on `listener` until the game is over, plays the game between the first two
/// that are players, and tells both how it ended; the listener is closed on return. `log` gets
/// a line for each connection, seat and move.
pub fn serve(
    listener: TcpListener,
    options: &ServerOptions,
    log: impl Fn(&str) + Send + Sync + 'static,
) -> Result<PlayedGame, ServerError> {
    let log: Log = Arc::new(log);
    let mut greeting = vec![ServerMessage::Game(options.spec.to_string())];
    if let Some(per_move) = options.time.per_move {
        greeting.push(ServerMessage::Time(per_move.as_secs_f64()));
    }
    let lobby = Lobby::open(listener, greeting, Arc::clone(&log))?;
    let writers: Writers = Arc::new([Mutex::new(None), Mutex::new(None)]);
    let seats = [Side::First, Side::Second].map(|side| RemoteSeat {
        side,
        lobby: Arc::clone(&lobby),
        connection: None,
        confirmed: false,
        writers: Arc::clone(&writers),
        setup: None,
        known: 0,
        watchdog: options.time.watchdog,
        log: Arc::clone(&log),
        told_open: None,
    });
    let [mut first, mut second] = seats;
    let [black, white] = lobby.first_two();
    first.take(black);
    second.take(white);
    let referee = RefereeOptions {
        time: options.time,
        max_moves: None,
        adjudicate_nodes: None,
    };
    let played = play_game(
        &options.spec,
        [Box::new(first), Box::new(second)],
        &referee,
        options.seed,
        &mut |event| {
            if let RefereeEvent::Moved { side, answer, .. } = event {
                log(&format!("{side} plays {}", answer.text));
                tell(&writers, side, &ServerMessage::ValidMove);
            }
        },
    );
    lobby.close("the game is over");
    announce(&writers, &played);
    lobby.stop();
    Ok(played)
}

/// Tells both clients how the game ended, and closes their connections.
fn announce(writers: &Writers, played: &PlayedGame) {
    let mover = Side::at_ply(played.moves.len());
    match played.termination {
        // The last move ended the game: its mover was confirmed, the other learns it here.
        Termination::Normal => {
            if let Some(last) = played.moves.last() {
                let other = !Side::at_ply(played.moves.len() - 1);
                tell(writers, other, &ServerMessage::OpponentMove(last.clone()));
            }
        }
        Termination::IllegalMove => tell(writers, mover, &ServerMessage::IllegalMove),
        _ => {}
    }
    for side in [Side::First, Side::Second] {
        tell(
            writers,
            side,
            &ServerMessage::Message(played.reason.clone()),
        );
        let end = match played.outcome {
            Outcome::Draw => ServerMessage::Tie,
            Outcome::Win(winner) if winner == side => ServerMessage::Victory,
            Outcome::Win(_) => ServerMessage::Defeat,
        };
        tell(writers, side, &end);
        let writer = writers[side.index()]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(stream) = writer.as_ref() {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}
