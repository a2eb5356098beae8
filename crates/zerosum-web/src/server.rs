//! The server: accepts connections, answers page requests and commands, and turns each event
//! stream into a session.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::io::{self, Read};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::json;
use zerosum_arena::EngineList;

use crate::http::{read_request, respond, start_event_stream, Request};
use crate::inbox::Input;
use crate::messages::Command;
use crate::page::asset;
use crate::session::Session;
use crate::settings::ServerSettings;
use crate::tournament_feed::TournamentFeed;

/// How long a connection may take to send its request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// The open sessions by id: where to send their commands.
type Sessions = Arc<Mutex<HashMap<u64, Sender<Input>>>>;

/// A bound server, ready to [`Server::run`].
pub struct Server {
    listener: TcpListener,
    sessions: Sessions,
    settings: Arc<ServerSettings>,
}

impl Server {
    /// Binds to `address` (port 0 picks a free port).
    pub fn bind(address: impl ToSocketAddrs) -> io::Result<Server> {
        Ok(Server {
            listener: TcpListener::bind(address)?,
            sessions: Arc::default(),
            settings: Arc::default(),
        })
    }

    /// Offers the engines of `engines` as players (by name; no other program can be named).
    pub fn with_engines(mut self, engines: EngineList) -> Server {
        self.settings_mut().engines = engines;
        self
    }

    /// Shows `feed`'s tournament to every tab.
    pub fn watching(mut self, feed: TournamentFeed) -> Server {
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

    /// Serves until the process ends, each connection on a thread of its own. Returns only if
    /// accepting fails for good.
    pub fn run(self) -> io::Result<()> {
        for stream in self.listener.incoming() {
            let stream = match stream {
                Ok(stream) => stream,
                // A connection that failed before it was accepted concerns nobody else.
                Err(error) if is_transient(&error) => continue,
                Err(error) => return Err(error),
            };
            let sessions = self.sessions.clone();
            let settings = self.settings.clone();
            // Without a thread the connection is dropped; the server goes on.
            let _ = thread::Builder::new()
                .name("zerosum-web-connection".into())
                .spawn(move || serve_connection(stream, &sessions, settings));
        }
        Ok(())
    }
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

/// Answers one request; an event stream keeps the connection as its session's.
fn serve_connection(mut stream: TcpStream, sessions: &Sessions, settings: Arc<ServerSettings>) {
    // Errors below mean the browser went away: there is nobody left to tell.
    let _ = stream.set_read_timeout(Some(REQUEST_TIMEOUT));
    let request = match read_request(&mut stream) {
        Ok(request) => request,
        Err(bad) => {
            let _ = respond_error(&mut stream, "400 Bad Request", &bad.0);
            return;
        }
    };
    let _ = match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/events") => open_session(stream, sessions, settings),
        ("POST", "/command") => take_command(&mut stream, &request, sessions),
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
    let watched = stream.try_clone()?;
    start_event_stream(&mut stream)?;
    let id = RandomState::new().hash_one(thread::current().id());
    let (inputs, receiver) = channel();
    sessions
        .lock()
        .map_err(|_| io::Error::other("the session table is poisoned"))?
        .insert(id, inputs.clone());
    let watcher_inputs = inputs.clone();
    thread::Builder::new()
        .name("zerosum-web-watcher".into())
        .spawn(move || watch_for_close(watched, &watcher_inputs))?;
    let seed = RandomState::new().hash_one(id);
    Session::new(id, stream.try_clone()?, inputs, seed, settings).run(receiver);
    if let Ok(mut sessions) = sessions.lock() {
        sessions.remove(&id);
    }
    // Wakes the watcher if the session ended first.
    stream.shutdown(Shutdown::Both)
}

/// Blocks until the browser closes `stream` (a page never writes on its event stream), then
/// tells the session.
fn watch_for_close(mut stream: TcpStream, session: &Sender<Input>) {
    let mut buffer = [0; 256];
    while matches!(stream.read(&mut buffer), Ok(read) if read > 0) {}
    // The session may have ended already.
    let _ = session.send(Input::Closed);
}
