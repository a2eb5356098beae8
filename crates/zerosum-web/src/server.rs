//! The server: accepts connections, answers page requests and commands, and turns each event
//! stream into a session. What a client can hold is bounded: [`MAX_CONNECTIONS`] connections
//! (and with them threads) at once, [`MAX_SESSIONS`] of them event streams, and a request must
//! arrive whole within [`REQUEST_DEADLINE`].

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::io::{self, Read, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::json;
use zerosum_arena::{EngineList, Threads};

use crate::access::{self, OwnAddress};
use crate::downloads::{self, Download, Refusal};
use crate::http::{
    read_request, respond, respond_with, start_event_stream, DeadlineReader, Request,
};
use crate::inbox::Input;
use crate::messages::Command;
use crate::page::asset;
use crate::session::Session;
use crate::settings::ServerSettings;
use crate::tournament_feed::TournamentFeed;

/// How long a connection may take to send its whole request (request line, headers and body),
/// however its bytes trickle in; after that it is answered `408` and closed. A page on this
/// machine sends a request in milliseconds.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(5);

/// How long writing a response may block on a client that does not read it.
const RESPONSE_DEADLINE: Duration = Duration::from_secs(10);

/// Most connections served at once, each on a thread of its own (an open tab holds one, its
/// event stream; a browser opens at most six per server). A connection over the cap is
/// answered `503` and closed at once by the accepting thread, without a thread of its own.
pub const MAX_CONNECTIONS: usize = 64;

/// Most sessions (open tabs, each an event stream with a game and a thread or two) at once; an
/// event stream over the cap is answered `503`. Half of [`MAX_CONNECTIONS`], so that pages and
/// commands still get through when every tab is open.
pub const MAX_SESSIONS: usize = 32;

/// The open sessions by id: where to send their commands.
type Sessions = Arc<Mutex<HashMap<u64, Sender<Input>>>>;

/// A bound server, ready to [`Server::run`].
pub struct Server {
    listener: TcpListener,
    sessions: Sessions,
    connections: Arc<AtomicUsize>,
    settings: Arc<ServerSettings>,
}

impl Server {
    /// Binds to `address` (port 0 picks a free port).
    pub fn bind(address: impl ToSocketAddrs) -> io::Result<Server> {
        Ok(Server {
            listener: TcpListener::bind(address)?,
            sessions: Arc::default(),
            connections: Arc::default(),
            settings: Arc::default(),
        })
    }

    /// Offers the engines of `engines` as players (by name; no other program can be named).
    pub fn with_engines(mut self, engines: EngineList) -> Server {
        self.settings_mut().engines = engines;
        self
    }

    /// Has the page's engine players search with `threads` threads (unless a player's spec
    /// names its own).
    pub fn with_engine_threads(mut self, threads: Threads) -> Server {
        self.settings_mut().engine_threads = Some(threads);
        self
    }

    /// Shows `feed`'s tournament to every tab.
    pub fn watching(mut self, feed: TournamentFeed) -> Server {
        self.settings_mut().feeds.add(&feed);
        self.settings_mut().watched = Some(feed);
        self
    }

    fn settings_mut(&mut self) -> &mut ServerSettings {
        Arc::get_mut(&mut self.settings).expect("settings are set before the server runs")
    }

    /// The address bound.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the process ends, each connection on a thread of its own (at most
    /// [`MAX_CONNECTIONS`]). Returns only if accepting fails for good.
    pub fn run(self) -> io::Result<()> {
        let bound = self.listener.local_addr()?.ip();
        for stream in self.listener.incoming() {
            let stream = match stream {
                Ok(stream) => stream,
                // A connection that failed before it was accepted concerns nobody else.
                Err(error) if is_transient(&error) => continue,
                Err(error) => return Err(error),
            };
            let Some(slot) = ConnectionSlot::take(&self.connections) else {
                turn_away(stream);
                continue;
            };
            let sessions = self.sessions.clone();
            let settings = self.settings.clone();
            // Without a thread the connection is dropped (and its slot freed); the server goes on.
            let _ = thread::Builder::new()
                .name("zerosum-web-connection".into())
                .spawn(move || {
                    serve_connection(stream, bound, &sessions, settings);
                    drop(slot);
                });
        }
        Ok(())
    }
}

/// One of the [`MAX_CONNECTIONS`] places for a connection, given back on drop.
struct ConnectionSlot(Arc<AtomicUsize>);

impl ConnectionSlot {
    /// A place in `open` (the count of connections being served), if one is free.
    fn take(open: &Arc<AtomicUsize>) -> Option<ConnectionSlot> {
        open.fetch_update(Ordering::AcqRel, Ordering::Acquire, |count| {
            (count < MAX_CONNECTIONS).then_some(count + 1)
        })
        .ok()
        .map(|_| ConnectionSlot(open.clone()))
    }
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Answers a connection over [`MAX_CONNECTIONS`] `503` without reading it and closes it, never
/// blocking the accepting thread: what does not fit the socket's empty send buffer is dropped.
fn turn_away(stream: TcpStream) {
    let body = json!({ "error": format!("the server is busy ({MAX_CONNECTIONS} connections): try again") })
        .to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    if stream.set_nonblocking(true).is_ok() {
        let _ = (&stream).write(answer.as_bytes());
    }
    let _ = stream.shutdown(Shutdown::Write);
}

fn is_transient(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
            | io::ErrorKind::WouldBlock
    ) || error.raw_os_error() == Some(24) // EMFILE: too many open files, for a moment
}

/// Answers one request that reached the server bound to `bound` (refused unless
/// [`access::check`] passes); an event stream keeps the connection as its session's.
fn serve_connection(
    mut stream: TcpStream,
    bound: IpAddr,
    sessions: &Sessions,
    settings: Arc<ServerSettings>,
) {
    // Errors below mean the browser went away: there is nobody left to tell.
    let _ = stream.set_write_timeout(Some(RESPONSE_DEADLINE));
    let mut reader = DeadlineReader {
        stream: &stream,
        deadline: Instant::now() + REQUEST_DEADLINE,
    };
    let request = match read_request(&mut reader) {
        Ok(request) => request,
        Err(bad) => {
            let _ = respond_error(&mut stream, bad.status, &bad.message);
            return;
        }
    };
    let checked = stream
        .local_addr()
        .map_err(|_| access::Refusal {
            status: "400 Bad Request",
            message: "the connection has no address",
        })
        .and_then(|reached| {
            let own = OwnAddress {
                port: reached.port(),
                bound,
                reached: reached.ip(),
            };
            access::check(&request, own)
        });
    if let Err(refusal) = checked {
        let _ = respond_error(&mut stream, refusal.status, refusal.message);
        return;
    }
    let _ = match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/events") => open_session(stream, sessions, settings),
        ("POST", "/command") if !request.is_json() => respond_error(
            &mut stream,
            "415 Unsupported Media Type",
            "a command is sent as Content-Type: application/json",
        ),
        ("POST", "/command") => take_command(&mut stream, &request, sessions),
        ("GET", "/games") => answer(&mut stream, downloads::list(&request, &settings.feeds)),
        ("GET", "/game") => answer(&mut stream, downloads::game(&request, &settings.feeds)),
        ("GET", path) => match asset(path) {
            Some(asset) => respond(
                &mut stream,
                "200 OK",
                asset.content_type,
                asset.body.as_bytes(),
            ),
            None => respond_error(&mut stream, "404 Not Found", "no such page"),
        },
        _ => respond_error(&mut stream, "405 Method Not Allowed", "unknown request"),
    };
}

/// Writes a download's answer: the file, or why there is none.
fn answer(stream: &mut TcpStream, download: Result<Download, Refusal>) -> io::Result<()> {
    match download {
        Ok(file) => respond_with(
            stream,
            "200 OK",
            file.content_type,
            &file.headers(),
            file.body.as_bytes(),
        ),
        Err(refusal) => respond_error(stream, refusal.status, &refusal.message),
    }
}

fn respond_error(stream: &mut TcpStream, status: &str, message: &str) -> io::Result<()> {
    let body = json!({ "error": message }).to_string();
    respond(stream, status, "application/json", body.as_bytes())
}

/// Hands the command in `request` to its session.
fn take_command(stream: &mut TcpStream, request: &Request, sessions: &Sessions) -> io::Result<()> {
    let command: Command = match serde_json::from_slice(&request.body) {
        Ok(command) => command,
        Err(error) => {
            return respond_error(stream, "400 Bad Request", &format!("bad command: {error}"))
        }
    };
    let session = request
        .query_value("session")
        .and_then(|id| id.parse::<u64>().ok())
        .and_then(|id| sessions.lock().ok()?.get(&id).cloned());
    match session {
        Some(session) if session.send(Input::Command(command)).is_ok() => {
            respond(stream, "204 No Content", "text/plain", b"")
        }
        _ => respond_error(
            stream,
            "404 Not Found",
            "this game's session is gone: reload the page",
        ),
    }
}

/// Runs a session on this thread for the tab whose event stream `stream` is, until it closes.
fn open_session(
    mut stream: TcpStream,
    sessions: &Sessions,
    settings: Arc<ServerSettings>,
) -> io::Result<()> {
    stream.set_read_timeout(None)?;
    // A tab that stops reading its events blocks only its own session.
    stream.set_write_timeout(None)?;
    let id = RandomState::new().hash_one(thread::current().id());
    let (inputs, receiver) = channel();
    let Some(_entry) = SessionEntry::add(sessions, id, inputs.clone()) else {
        let message = format!("{MAX_SESSIONS} tabs are open already: close one");
        return respond_error(&mut stream, "503 Service Unavailable", &message);
    };
    let watched = stream.try_clone()?;
    start_event_stream(&mut stream)?;
    let watcher_inputs = inputs.clone();
    thread::Builder::new()
        .name("zerosum-web-watcher".into())
        .spawn(move || watch_for_close(watched, &watcher_inputs))?;
    let seed = RandomState::new().hash_one(id);
    Session::new(id, stream.try_clone()?, inputs, seed, settings).run(receiver);
    // Wakes the watcher if the session ended first.
    stream.shutdown(Shutdown::Both)
}

/// A session's place in the table of open sessions, given back on drop (however the session
/// ends).
struct SessionEntry<'a> {
    sessions: &'a Sessions,
    id: u64,
}

impl<'a> SessionEntry<'a> {
    /// Adds session `id` to `sessions`, unless [`MAX_SESSIONS`] are open (or the table is
    /// poisoned).
    fn add(sessions: &'a Sessions, id: u64, inputs: Sender<Input>) -> Option<SessionEntry<'a>> {
        let mut open = sessions.lock().ok()?;
        if open.len() >= MAX_SESSIONS {
            return None;
        }
        open.insert(id, inputs);
        Some(SessionEntry { sessions, id })
    }
}

impl Drop for SessionEntry<'_> {
    fn drop(&mut self) {
        if let Ok(mut sessions) = self.sessions.lock() {
            sessions.remove(&self.id);
        }
    }
}

/// Blocks until the browser closes `stream` (a page never writes on its event stream), then
/// tells the session.
fn watch_for_close(mut stream: TcpStream, session: &Sender<Input>) {
    let mut buffer = [0; 256];
    while matches!(stream.read(&mut buffer), Ok(read) if read > 0) {}
    // The session may have ended already.
    let _ = session.send(Input::Closed);
}
