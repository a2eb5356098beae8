//! The web page's messages (zerosum-web `messages`): its JSON commands, the engine comments
//! it reads, and a live session of the server handling a stream of commands over loopback.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

use zerosum_web::http::MAX_BODY;
use zerosum_web::messages::{Command, SearchLine};
use zerosum_web::Server;

use super::{corpus_of, text, Target, Verdict};

const COMMAND_CORPUS: &[&str] = &[
    r#"{"type":"new","spec":"connect4","players":["human","quasi"]}"#,
    r#"{"type":"new","spec":"tictactoe","players":["human","human"]}"#,
    r#"{"type":"new","spec":"hex:5:swap-sides","players":["random","human"]}"#,
    r#"{"type":"move","move":"b2"}"#,
    r#"{"type":"move","move":"4"}"#,
    r#"{"type":"undo"}"#,
    r#"{"type":"swap"}"#,
    r#"{"type":"tournament","players":["random","quasi"],"games":["tictactoe","connectx:4x5x3"],"seconds":0.01,"rounds":1}"#,
    r#"{"type":"new","spec":"unstable:3x3","players":["human","random"]}"#,
    r#"{"type":"new","spec":"tictactoe","players":["human","quasi"],"moves":["a1","b2","a2"]}"#,
    r#"{"type":"new","spec":"connect4","players":["human","human"],"moves":["4","4","9"]}"#,
];

const COMMAND_TOKENS: &[&str] = &[
    r#""type""#,
    r#""new""#,
    r#""move""#,
    r#""undo""#,
    r#""swap""#,
    r#""tournament""#,
    r#""spec""#,
    r#""players""#,
    r#""games""#,
    r#""seconds""#,
    r#""rounds""#,
    r#""moves""#,
    r#""human""#,
    r#""quasi""#,
    r#""random""#,
    r#""engine:time=0.01""#,
    r#""tictactoe""#,
    "null",
    "true",
    "[]",
    "{}",
    "1e400",
    "-1",
    "\\u0000",
    "\\ud800",
];

/// The page's commands as JSON.
pub const COMMANDS: Target = Target {
    name: "web-commands",
    about: "the web page's JSON commands (zerosum-web messages::Command)",
    corpus: || corpus_of(COMMAND_CORPUS),
    tokens: COMMAND_TOKENS,
    share: 1,
    run: |input| Verdict::of(&serde_json::from_slice::<Command>(input)),
};

/// Engine comments as the page shows them.
pub const SEARCH_LINE: Target = Target {
    name: "web-search-line",
    about: "engine comments read and told in words for the page and the terminal (zerosum-web messages::SearchLine::new, zerosum-core EngineLine)",
    corpus: || {
        corpus_of(&[
            "depth 9 score +34 nodes 120345 nps 1000000 time 0.12s pv d4 e5 f6",
            "depth 12 score win-in-3 nodes 5 pv 4 4 (drawing: every move draws)",
            "depth 1 score 0 nodes 1",
            "score loss in 2 depth 3 nodes 99 time 1.5 pv",
            "exact 4 loss-in-40 proved 7/7 time 0.012",
            "proven win-in-5 pv f2 (kept from an earlier search)",
            "depth 9 score +0 nodes 5 nps 1 time 0.010 pv e5 (draw; e5 sets traps in 40% of the replies)",
            "depth 4 score -12 nodes 900 nps 1500 time 0.6 visits 300 winrate 0.470 pv d4 e5",
        ])
    },
    tokens: &[
        "depth", "score", "nodes", "nps", "time", "pv", "win-in-", "loss-in-", "(", ")", "s",
        "exact", "proven", "visits", "winrate", "draw;",
    ],
    share: 1,
    run: |input| {
        let line = SearchLine::new(&text(input), "Black", "you");
        match line {
            Some(_) => Verdict::Accepted,
            None => Verdict::Rejected,
        }
    },
};

/// A tab of a live server: one event stream, and each line of the input posted as a command.
pub const SESSION: Target = Target {
    name: "web-session",
    about: "a live web session (zerosum-web server) obeying the input's commands, one per line, over loopback",
    corpus: || {
        let mut corpus = corpus_of(COMMAND_CORPUS);
        corpus.push(COMMAND_CORPUS.join("\n").into_bytes());
        corpus.push(
            [COMMAND_CORPUS[1], r#"{"type":"move","move":"b2"}"#, r#"{"type":"move","move":"a1"}"#, r#"{"type":"undo"}"#, r#"{"type":"swap"}"#]
                .join("\n")
                .into_bytes(),
        );
        corpus
    },
    tokens: COMMAND_TOKENS,
    share: 200,
    run: run_session,
};

/// How long a session is waited for, at most, to have handled the commands (well within the
/// driver's hang limit).
const SETTLE: Duration = Duration::from_millis(500);

/// How long the session's first event is waited for (the machines that run the tests are
/// shared and can be slow).
const HELLO: Duration = Duration::from_millis(1500);

fn run_session(input: &[u8]) -> Verdict {
    let address = server();
    let mut events = TcpStream::connect(address).expect("connect to the server");
    write!(events, "GET /events HTTP/1.1\r\nHost: {address}\r\n\r\n").expect("loopback write");
    events
        .set_read_timeout(Some(HELLO))
        .expect("a read timeout");
    let mut events = BufReader::new(events);
    let hello = next_event(&mut events).expect("no hello event: the server opened no session");
    let session = hello["session"].as_str().expect("a session id").to_string();
    let mut accepted = 0;
    let mut verdict = Verdict::Rejected;
    for line in input.split(|&b| b == b'\n') {
        let status = post(address, &session, line);
        if line.len() > MAX_BODY {
            // Refused before it is read: 413, or no answer at all when the server closed
            // the connection while the body was still coming.
            assert!(
                status == 413 || status == 0,
                "POST /command of {} bytes answered {status}",
                line.len()
            );
            continue;
        }
        assert!(
            status == 204 || status == 400,
            "POST /command answered {status} while the session runs"
        );
        if status == 204 {
            accepted += 1;
            verdict = Verdict::Accepted;
        }
    }
    // Let the session handle the commands: a state event follows each (engine moves add more).
    let deadline = Instant::now() + SETTLE;
    let mut states = 0;
    while states <= accepted {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || events.get_ref().set_read_timeout(Some(left)).is_err() {
            break;
        }
        match next_event(&mut events) {
            Some(event) if event["type"] == "state" => states += 1,
            Some(_) => {}
            None => break,
        }
    }
    // The session is still there.
    let status = post(address, &session, br#"{"type":"swap"}"#);
    assert_eq!(status, 204, "the session is gone after the commands");
    verdict
}

/// The address of the server the target uses, started once.
fn server() -> SocketAddr {
    static ADDRESS: OnceLock<SocketAddr> = OnceLock::new();
    *ADDRESS.get_or_init(|| {
        let server = Server::bind("127.0.0.1:0").expect("a loopback server");
        let address = server.local_addr().expect("its address");
        thread::spawn(move || server.run());
        address
    })
}

/// The next event's JSON, `None` at the end of the stream or after the read timeout.
fn next_event(events: &mut impl BufRead) -> Option<serde_json::Value> {
    let mut line = String::new();
    loop {
        line.clear();
        if events.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if let Some(data) = line.strip_prefix("data: ") {
            return serde_json::from_str(data.trim_end()).ok();
        }
    }
}

/// Posts `body` as a command of `session`; the response's status code (0 without one).
fn post(address: SocketAddr, session: &str, body: &[u8]) -> u16 {
    let mut stream = TcpStream::connect(address).expect("connect to the server");
    let head = format!(
        "POST /command?session={session} HTTP/1.1\r\nHost: {address}\r\n\
         Origin: http://{address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    // A server that refuses the request early closes the connection while the body is still
    // being written: the answer is read all the same, if it came.
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body));
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}
