//! The web server's game downloads (`GET /games?feed=..`, `GET /game?feed=..&number=..&format=..`)
//! on a live server watching a finished tournament. The input is the request target after
//! `/game`, as a browser sends it: bytes other than visible ASCII percent-encoded (so every
//! request is well-formed, and the query's decoding meets every byte).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::thread;
use std::time::Duration;

use zerosum_arena::run::Run;
use zerosum_arena::{Format, TimeControl, TournamentSettings};
use zerosum_web::{Server, TournamentFeed};

use super::{Target, Verdict};

pub const TARGET: Target = Target {
    name: "web-downloads",
    about: "game downloads of a live web server (zerosum-web downloads) watching a finished tournament, the input as the GET request's target after /game",
    corpus: || {
        let (_, feed) = server();
        [
            format!("s?feed={feed}"),
            format!("s?feed={feed}&from=1"),
            format!("?feed={feed}&number=1&format=json"),
            format!("?feed={feed}&number=2&format=pgn"),
            format!("?feed={feed}&number=1&format=psq"),
            format!("?feed={feed}&number=1&format=sgf"),
        ]
        .into_iter()
        .map(String::into_bytes)
        .collect()
    },
    tokens: &[
        "s", "?", "&", "=", "feed=", "number=", "from=", "format=", "json", "pgn",
        "psq", "sgf", "%00", "%", "0", "-1", "18446744073709551616", " ", "#",
    ],
    share: 20,
    run: |input| {
        let (address, _) = server();
        let target = request_target(input);
        let status = get(address, &target);
        assert!(
            matches!(status, 200 | 400 | 404 | 431),
            "GET {target} answered {status}"
        );
        if status == 200 {
            Verdict::Accepted
        } else {
            Verdict::Rejected
        }
    },
};

/// How long a response is waited for (well within the driver's hang limit).
const ANSWER: Duration = Duration::from_secs(2);

/// The address of the server the target uses and the id of the feed it watches: a round robin
/// of two tic-tac-toe games, played once.
fn server() -> (SocketAddr, u64) {
    static SERVER: OnceLock<(SocketAddr, u64)> = OnceLock::new();
    *SERVER.get_or_init(|| {
        let settings = TournamentSettings::new(
            vec!["quasi".into(), "random".into()],
            vec!["tictactoe".into()],
            Format::RoundRobin { rounds: 1 },
            TimeControl::per_move(1.0),
            5,
        );
        let run = Run::unrecorded(settings, 1).expect("a valid tournament");
        let feed = TournamentFeed::of_run(&run);
        run.play(&mut feed.clone()).expect("an unrecorded run");
        feed.finish();
        let id = feed.id();
        let server = Server::bind("127.0.0.1:0")
            .expect("a loopback server")
            .watching(feed);
        let address = server.local_addr().expect("its address");
        thread::spawn(move || server.run());
        (address, id)
    })
}

/// `/game` and the input, its bytes other than visible ASCII percent-encoded.
fn request_target(input: &[u8]) -> String {
    let mut target = String::from("/game");
    for &byte in input {
        if byte.is_ascii_graphic() {
            target.push(byte as char);
        } else {
            target.push_str(&format!("%{byte:02X}"));
        }
    }
    target
}

/// Sends `GET target` to the server; the response's status code (0 if it sent none).
fn get(address: SocketAddr, target: &str) -> u16 {
    let mut stream = TcpStream::connect(address).expect("connect to the server");
    stream
        .set_read_timeout(Some(ANSWER))
        .expect("a read timeout");
    let request = format!("GET {target} HTTP/1.1\r\nHost: {address}\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .expect("loopback write");
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    String::from_utf8_lossy(&response)
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}
