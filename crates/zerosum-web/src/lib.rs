//! The browser UI of zerosum: `zerosum serve` starts a [`Server`] and prints its address; the
//! page it serves plays and watches every game family, boards drawn as SVG.
//!
//! The server is a small HTTP/1.1 server on `std::net` with server-sent events, no framework:
//!
//! - `GET /` and its script and style: the page, embedded in the binary (it works offline);
//! - `GET /events`: opens a tab's event stream and with it a [`session`], a game of its own
//!   running on a thread of its own; the stream's first event names the session. A tab also
//!   watches a tournament: the one the server was given ([`Server::watching`], for
//!   `zerosum tournament --serve`) or one it started (see `page_tournament`);
//! - `POST /command?session=ID`: one JSON [`messages::Command`] for that session; `204` when
//!   it was handed over, `400`/`404`/`415` with `{"error": ...}` when it cannot be read, is not
//!   sent as `application/json` or the session is gone. Whatever a command leads to comes back
//!   on the event stream;
//! - `GET /games?feed=F` and `GET /game?feed=F&number=N&format=FMT`: the finished games of a
//!   watched tournament, listed and downloaded (JSON line, PGN-style, SGF, PSQ; see
//!   `downloads`).
//!
//! Only the page itself may use the server (see `access`): a request must be addressed to a
//! loopback name or the address it reached (else `421`), and one that names another site as its
//! `Origin` is refused (`403`).
//!
//! Threads: one per connection (blocked in I/O; at most [`server::MAX_CONNECTIONS`], each
//! request whole within [`server::REQUEST_DEADLINE`]), one per open tab (its session, asleep on its
//! channel while nobody plays), one per engine move under way, one per page tournament. Nothing polls: an idle server
//! uses no CPU. A closed tab is seen at once (its stream's socket reads end of file) and stops
//! its game and any search.

//!
//! Modules, each importing only those below it (`access` reads requests from `http`):
//!
//! ```text
//! server            accepts connections, routes requests, owns the sessions
//!   access          which requests the server answers (Host, Origin)
//!   downloads       the finished games of a watched tournament, listed and as files
//!   session         one tab's game: seats, moves, clocks, its page tournament
//!     engine_move   one engine move on a thread of its own
//!     score_graph   the engines' evaluations of the game, drawn
//!     page_tournament  a round robin started from the page
//!       tournament_feed  a tournament's events, fanned out to watching tabs
//!     catalog       the games, boards and players the page offers
//!   access          who may be answered: Host, Origin, content type
//!   settings        what every session shares (engines, watched tournament)
//!   inbox           what a session receives (commands, engine replies, events)
//!   http            reading requests, writing answers and event streams
//!   messages        the JSON commands and events of the page
//!   page            the embedded page
//! ```

mod access;
pub mod catalog;
mod downloads;
mod engine_move;
pub mod http;
mod inbox;
pub mod messages;
mod page;
mod page_tournament;
mod score_graph;
pub mod server;
mod session;
mod settings;
pub mod tournament_feed;

pub use server::Server;
pub use tournament_feed::TournamentFeed;
