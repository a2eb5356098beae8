//! The game server: accepts two clients (the first plays Black, who moves first), referees one
//! game between them with the arena's referee and clocks, and refuses any further client with
//! a message. A client that closes its connection without a word before the game starts (a
//! port probe) gives its seat to the next one. In the game, a client that says nothing,
//! babbles, speaks out of turn, floods (see [`crate::MAX_PEER_BYTES`]) or disconnects loses by
//! forfeit; the server carries on to the end of the game.

use std::io::{ErrorKind, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;
use zerosum_core::{Outcome, Side};
use zerosum_games::GameSpec;

use super::ServerMessage;
use crate::lines::{Lines, NoLine};
use crate::peer_text::{is_plain, quote};
use crate::player::{GameSetup, MoveAnswer, MoveRequest, Player, PlayerError};
use crate::record::Termination;
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

/// Why the server could not run a game.
#[derive(Debug, Error)]
pub enum ServerError {
    #[error("network error: {0}")]
    Io(#[from] std::io::Error),
}

/// Sends one line to a client; a client that is gone is the referee's business, not an error.
fn send(stream: &mut TcpStream, message: &ServerMessage) {
    let _ = stream.write_all(format!("{message}\n").as_bytes());
    let _ = stream.flush();
}

/// A connected client as a player of the referee.
struct RemoteClient {
    address: SocketAddr,
    stream: TcpStream,
    lines: Lines,
    /// Moves the client has been told of.
    known: usize,
    watchdog: Duration,
}

impl Player for RemoteClient {
    fn name(&self) -> String {
        format!("client {}", self.address)
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        send(
            &mut self.stream,
            &ServerMessage::Game(setup.spec.to_string()),
        );
        if let Some(per_move) = setup.time.per_move {
            send(
                &mut self.stream,
                &ServerMessage::Time(per_move.as_secs_f64()),
            );
        }
        send(&mut self.stream, &ServerMessage::Welcome(setup.side));
        self.known = 0;
        Ok(())
    }

    fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        // Whatever came since the client's last move came unasked: blank lines are harmless,
        // anything else forfeits.
        loop {
            match self.lines.try_next() {
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
        // The opponent's move (the client's own were confirmed as they were made).
        if request.moves.len() > self.known {
            let last = request.moves[request.moves.len() - 1].clone();
            send(&mut self.stream, &ServerMessage::OpponentMove(last));
        }
        self.known = request.moves.len() + 1;
        self.lines.asked();
        send(&mut self.stream, &ServerMessage::YourTurn);
        let patience = request.limit.map_or(self.watchdog, |limit| {
            limit + limit.max(Duration::from_secs(2))
        });
        let deadline = Instant::now() + patience;
        let mut stop = Some(request.stop.as_ref());
        loop {
            match self.lines.next(Some(deadline), stop) {
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

/// Accepts two clients on `listener`, plays the game and tells both how it ended. `log` gets
/// a line for each connection and move.
pub fn serve(
    listener: TcpListener,
    options: &ServerOptions,
    log: &mut dyn FnMut(&str),
) -> Result<PlayedGame, ServerError> {
    // A seat goes to a client that is still there when the game starts, or that has spoken:
    // a connection closed without a word (a port probe) frees its place.
    let mut waiting: Vec<(TcpStream, SocketAddr)> = Vec::with_capacity(2);
    loop {
        waiting.retain(|(stream, address)| {
            let gone = left_without_a_word(stream);
            if gone {
                log(&format!("{address} left before the game: its seat is free"));
            }
            !gone
        });
        if waiting.len() == 2 {
            break;
        }
        let (stream, address) = listener.accept()?;
        let side = if waiting.is_empty() {
            Side::First
        } else {
            Side::Second
        };
        log(&format!("{address} connected: {side} player"));
        waiting.push((stream, address));
    }
    let mut clients = Vec::with_capacity(2);
    for (stream, address) in waiting {
        let lines = Lines::spawn(format!("client {address}"), stream.try_clone()?)?;
        clients.push(RemoteClient {
            address,
            stream,
            lines,
            known: 0,
            watchdog: options.time.watchdog,
        });
    }
    // Anyone else is turned away for as long as the server runs.
    thread::Builder::new()
        .name("turning clients away".into())
        .spawn(move || {
            for mut stream in listener.incoming().flatten() {
                send(
                    &mut stream,
                    &ServerMessage::Message("the game is full: two players are connected".into()),
                );
            }
        })?;
    let mut streams = [
        clients[0].stream.try_clone()?,
        clients[1].stream.try_clone()?,
    ];
    let second = clients.pop().expect("two clients");
    let first = clients.pop().expect("two clients");
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
                send(&mut streams[side.index()], &ServerMessage::ValidMove);
            }
        },
    );
    announce(&mut streams, &played);
    Ok(played)
}

/// True if the client on `stream` has closed its end (or reset the connection) without
/// sending a byte. Looks without waiting, and before any reader thread reads the stream.
fn left_without_a_word(stream: &TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return false;
    }
    let gone = match stream.peek(&mut [0]) {
        Ok(read) => read == 0,
        Err(error) => !matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted),
    };
    gone || stream.set_nonblocking(false).is_err()
}

/// Tells both clients how the game ended.
fn announce(streams: &mut [TcpStream; 2], played: &PlayedGame) {
    let mover = Side::at_ply(played.moves.len());
    match played.termination {
        // The last move ended the game: its mover was confirmed, the other learns it here.
        Termination::Normal => {
            if let Some(last) = played.moves.last() {
                let other = !Side::at_ply(played.moves.len() - 1);
                send(
                    &mut streams[other.index()],
                    &ServerMessage::OpponentMove(last.clone()),
                );
            }
        }
        Termination::IllegalMove => send(&mut streams[mover.index()], &ServerMessage::IllegalMove),
        _ => {}
    }
    for side in [Side::First, Side::Second] {
        let stream = &mut streams[side.index()];
        send(stream, &ServerMessage::Message(played.reason.clone()));
        let end = match played.outcome {
            Outcome::Draw => ServerMessage::Tie,
            Outcome::Win(winner) if winner == side => ServerMessage::Victory,
            Outcome::Win(_) => ServerMessage::Defeat,
        };
        send(stream, &end);
        let _ = stream.shutdown(std::net::Shutdown::Both);
    }
}
