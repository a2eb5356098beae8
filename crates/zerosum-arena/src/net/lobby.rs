//! The server's lobby: every connection is accepted into it and waits there, its lines read on
//! a thread of its own, until a seat takes it. A seat belongs to a connection only once it has
//! answered its first `YOUR_TURN` with a `MOVE` (see the server); until then, a connection that
//! has closed, or has said anything before it was asked (an HTTP probe), is dropped wherever
//! it is, and the next one in order of arrival gets the seat. Once both seats are confirmed,
//! the lobby turns everyone away.

use std::collections::VecDeque;
use std::io::Write;
use std::net::{Ipv4Addr, Ipv6Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use super::ServerMessage;
use crate::peers::lines::{Lines, NoLine};
use crate::peers::text::quote;

/// Where the server's log lines go (from any of its threads).
pub(super) type Log = Arc<dyn Fn(&str) + Send + Sync>;

/// Most connections that wait in the lobby while both seats are held: a later one is turned
/// away. Each may hold up to [`crate::MAX_PEER_BYTES`] of unread lines.
pub const MAX_WAITING: usize = 4;

/// How often a wait for a connection looks at its stop flag.
const POLL: Duration = Duration::from_millis(5);

/// Sends one line; a peer that is gone is found out by its reader, not here.
pub(super) fn send(stream: &mut TcpStream, message: &ServerMessage) {
    let _ = stream.write_all(format!("{message}\n").as_bytes());
    let _ = stream.flush();
}

/// A client's connection: where to write, and the lines it sent.
pub(super) struct Connection {
    pub(super) address: SocketAddr,
    pub(super) stream: TcpStream,
    pub(super) lines: Lines,
}

impl Connection {
    fn accept(stream: TcpStream, address: SocketAddr) -> std::io::Result<Connection> {
        let lines = Lines::spawn(format!("client {address}"), stream.try_clone()?)?;
        Ok(Connection {
            address,
            stream,
            lines,
        })
    }

    /// Why this connection cannot be a player before it has been asked for a move: it closed,
    /// flooded, or said something (blank lines aside); `None` if it may still be one. Takes
    /// the lines it looks at.
    pub(super) fn unfit(&self) -> Option<String> {
        loop {
            match self.lines.try_next() {
                Ok(Some(line)) if line.trim().is_empty() => continue,
                Ok(Some(line)) => {
                    return Some(format!(
                        "sent `{}` before it was asked for a move",
                        quote(line.trim())
                    ))
                }
                Ok(None) => return None,
                Err(NoLine::Gone) => return Some("closed the connection".into()),
                Err(NoLine::Flood(flood)) => return Some(flood.to_string()),
                Err(NoLine::Late) => return None,
            }
        }
    }

    /// Says goodbye (if there is something to say) and closes the connection, which also ends
    /// its reading thread.
    pub(super) fn close(mut self, message: Option<&str>) {
        if let Some(message) = message {
            send(&mut self.stream, &ServerMessage::Message(message.into()));
        }
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

/// What the lobby's threads share.
struct State {
    waiting: VecDeque<Connection>,
    /// Both seats are held (the game has started): a newcomer is told it waits.
    playing: bool,
    /// The seats that have been confirmed by a move.
    confirmed: [bool; 2],
    /// Why everyone is turned away now, once both seats are confirmed or the game is over.
    closed: Option<&'static str>,
}

/// The connections waiting for a seat.
pub(super) struct Lobby {
    state: Mutex<State>,
    arrived: Condvar,
    /// The address accepted on, and the thread accepting, until [`Lobby::stop`].
    address: SocketAddr,
    accepting: Mutex<Option<thread::JoinHandle<()>>>,
    /// Raised by [`Lobby::stop`]: the accepting thread ends at its next connection.
    stopping: AtomicBool,
    /// What a newcomer that waits is told first: the game and the time (ours; older clients
    /// ignore them).
    greeting: Vec<ServerMessage>,
    log: Log,
}

/// What the lobby tells connections it turns away once both seats are confirmed.
pub(super) const FULL: &str = "the game is full: two players are connected";

impl Lobby {
    /// Starts accepting on `listener` into a new lobby, until [`Lobby::stop`].
    pub(super) fn open(
        listener: TcpListener,
        greeting: Vec<ServerMessage>,
        log: Log,
    ) -> std::io::Result<Arc<Lobby>> {
        let address = listener.local_addr()?;
        let lobby = Arc::new(Lobby {
            state: Mutex::new(State {
                waiting: VecDeque::new(),
                playing: false,
                confirmed: [false; 2],
                closed: None,
            }),
            arrived: Condvar::new(),
            address,
            accepting: Mutex::new(None),
            stopping: AtomicBool::new(false),
            greeting,
            log,
        });
        let accepting = Arc::clone(&lobby);
        let handle = thread::Builder::new()
            .name("accepting clients".into())
            .spawn(move || accepting.accept_all(listener))?;
        *lobby
            .accepting
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(handle);
        Ok(lobby)
    }

    /// Stops accepting and closes the listening socket: wakes the accepting thread with a
    /// connection of its own and waits for it to end (if the wake-up cannot connect, the
    /// thread is left to the end of the program).
    pub(super) fn stop(&self) {
        self.stopping.store(true, Ordering::Relaxed);
        let handle = self
            .accepting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let mut wake = self.address;
        if wake.ip().is_unspecified() {
            wake.set_ip(match wake {
                SocketAddr::V4(_) => Ipv4Addr::LOCALHOST.into(),
                SocketAddr::V6(_) => Ipv6Addr::LOCALHOST.into(),
            });
        }
        if TcpStream::connect_timeout(&wake, Duration::from_secs(1)).is_ok() {
            if let Some(handle) = handle {
                let _ = handle.join();
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn accept_all(&self, listener: TcpListener) {
        for stream in listener.incoming() {
            if self.stopping.load(Ordering::Relaxed) {
                return;
            }
            match stream {
                Ok(stream) => self.arrive(stream),
                // Out of descriptors, or a connection reset before it was taken: try again
                // shortly rather than spin.
                Err(_) => thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    /// Files a new connection, or turns it away.
    fn arrive(&self, mut stream: TcpStream) {
        let Ok(address) = stream.peer_addr() else {
            return;
        };
        let mut state = self.lock();
        if let Some(reason) = state.closed {
            send(&mut stream, &ServerMessage::Message(reason.into()));
            return;
        }
        self.drop_unfit(&mut state);
        if state.waiting.len() >= MAX_WAITING {
            (self.log)(&format!(
                "{address} turned away: {MAX_WAITING} clients are waiting for a seat"
            ));
            send(
                &mut stream,
                &ServerMessage::Message("too many clients are waiting for a seat".into()),
            );
            return;
        }
        let Ok(mut connection) = Connection::accept(stream, address) else {
            return;
        };
        if state.playing {
            self.tell_waiting(&mut connection);
        }
        state.waiting.push_back(connection);
        drop(state);
        self.arrived.notify_all();
    }

    /// Tells `connection` the game and that it waits for a seat.
    fn tell_waiting(&self, connection: &mut Connection) {
        for message in &self.greeting {
            send(&mut connection.stream, message);
        }
        send(
            &mut connection.stream,
            &ServerMessage::Message(
                "both seats are held until their players have moved: waiting in case one is \
                 given up"
                    .into(),
            ),
        );
        (self.log)(&format!("{} waits for a seat", connection.address));
    }

    /// Drops the waiting connections that can no longer be players.
    fn drop_unfit(&self, state: &mut State) {
        let mut kept = VecDeque::with_capacity(state.waiting.len());
        for connection in state.waiting.drain(..) {
            match connection.unfit() {
                Some(reason) => {
                    (self.log)(&format!("{} dropped: it {reason}", connection.address));
                    connection.close(None);
                }
                None => kept.push_back(connection),
            }
        }
        state.waiting = kept;
    }

    /// The first two connections fit to play, once they are there; from then on newcomers are
    /// told that they wait.
    pub(super) fn first_two(&self) -> [Connection; 2] {
        let mut state = self.lock();
        loop {
            self.drop_unfit(&mut state);
            if state.waiting.len() >= 2 {
                state.playing = true;
                let first = state.waiting.pop_front().expect("two waiting");
                let second = state.waiting.pop_front().expect("two waiting");
                // Any that came at the same moment wait from now on.
                for connection in &mut state.waiting {
                    self.tell_waiting(connection);
                }
                return [first, second];
            }
            state = self
                .arrived
                .wait_timeout(state, POLL)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// The first connection fit to play, waiting until `deadline` unless `stop` is raised;
    /// `None` if none came.
    pub(super) fn next(&self, deadline: Instant, stop: &AtomicBool) -> Option<Connection> {
        let mut state = self.lock();
        loop {
            self.drop_unfit(&mut state);
            if let Some(connection) = state.waiting.pop_front() {
                return Some(connection);
            }
            let now = Instant::now();
            if stop.load(Ordering::Relaxed) || now >= deadline || state.closed.is_some() {
                return None;
            }
            state = self
                .arrived
                .wait_timeout(state, POLL.min(deadline - now))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// `seat` (0 Black, 1 White) is confirmed; once both are, everyone waiting is turned away.
    pub(super) fn confirm(&self, seat: usize) {
        let mut state = self.lock();
        state.confirmed[seat] = true;
        if state.confirmed == [true, true] {
            self.close_with(&mut state, FULL);
        }
    }

    /// Turns everyone away from now on, saying `reason`.
    pub(super) fn close(&self, reason: &'static str) {
        let mut state = self.lock();
        self.close_with(&mut state, reason);
    }

    fn close_with(&self, state: &mut State, reason: &'static str) {
        state.closed = Some(reason);
        for connection in state.waiting.drain(..) {
            (self.log)(&format!("{} turned away: {reason}", connection.address));
            connection.close(Some(reason));
        }
    }
}
