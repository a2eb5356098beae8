//! Board sizes no game can be built with (a run longer than both sides, a side of 0, sizes over
//! the limits) are refused with one clear error at every entry point: each command exits 1 with
//! one line, GTP answers `? ...` and Gomocup `ERROR ...` and both keep serving, and a page
//! session reports the error and stays usable. Never a panic.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::zerosum_with_input;

const RUN_TOO_LONG: &str = "a run of 4 cannot fit on a 3x3 board (K must not exceed both M and N)";

/// `args` must exit 1 with exactly one stderr line that contains `problem`.
fn refused(args: &[&str], problem: &str) {
    let output = zerosum_with_input(args, "");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(problem), "{args:?}: {err}");
}

#[test]
fn every_command_refuses_a_run_longer_than_the_board() {
    for args in [
        &["show", "mnk:3x3x4"][..],
        &["perft", "mnk:3x3x4", "2"],
        &["solve", "mnk:3x3x4"],
        &["search", "mnk:3x3x4", "--depth", "2"],
        &["analyze", "mnk:3x3x4", "--depth", "1"],
        &["play", "mnk:3x3x4"],
        &["gtp", "--game", "mnk:3x3x4"],
        &["match", "mnk:3x3x4", "random", "random"],
        &[
            "tournament",
            "--players",
            "random",
            "random",
            "--games",
            "mnk:3x3x4",
        ],
        &["server", "mnk:3x3x4", "--port", "0"],
    ] {
        refused(args, RUN_TOO_LONG);
    }
    refused(
        &["show", "connectx:3x3x4"],
        "a run of 4 cannot fit on a 3x3 board (X must not exceed both M and N)",
    );
}

#[test]
fn sizes_over_the_limits_name_the_limit() {
    for (spec, problem) in [
        ("mnk:1x1x2", "a run of 2 cannot fit on a 1x1 board"),
        ("mnk:0x3x3", "rows must be between 1 and 100, not 0"),
        ("mnk:3x101x3", "columns must be between 1 and 100, not 101"),
        (
            "mnk:100x100x65",
            "the run length must be between 1 and 64, not 65",
        ),
        (
            "connectx:101x100x30",
            "rows must be between 1 and 100, not 101",
        ),
        (
            "connectx:6x7x0",
            "the run length must be between 1 and 100, not 0",
        ),
        ("hex:0", "width must be between 1 and 100, not 0"),
        ("hex:5x101", "height must be between 1 and 100, not 101"),
        ("unstable:1x6", "rows must be between 2 and 100, not 1"),
        (
            "unstable:6x101",
            "columns must be between 2 and 100, not 101",
        ),
    ] {
        refused(&["show", spec], problem);
        refused(&["search", spec, "--depth", "1"], problem);
    }
}

#[test]
fn the_largest_boards_are_played() {
    for spec in [
        "mnk:1x1x1",
        "mnk:1x100x64",
        "mnk:70x70x10",
        "connectx:100x1x100",
        "connectx:100x100x30",
        "hex:1",
        "unstable:2x2",
    ] {
        let output = zerosum_with_input(&["search", spec, "--depth", "1"], "");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{spec}: {err}");
    }
}

#[test]
fn gtp_refuses_a_board_too_small_for_the_run_and_keeps_serving() {
    let output = zerosum_with_input(
        &["gtp"],
        "zerosum-game tictactoe\nboardsize 1\nzerosum-game mnk:3x3x4\nboardsize 4\n\
         zerosum-game\nquit\n",
    );
    assert!(output.status.success());
    let replies: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .split("\n\n")
        .map(str::to_string)
        .collect();
    assert_eq!(replies[0], "=");
    assert_eq!(
        replies[1],
        "? unacceptable size: bad game spec `mnk:1x1x3`: a run of 3 cannot fit on a 1x1 board \
         (K must not exceed both M and N)"
    );
    assert_eq!(
        replies[2],
        format!("? bad game spec `mnk:3x3x4`: {RUN_TOO_LONG}")
    );
    assert_eq!(replies[3], "=");
    assert_eq!(replies[4], "= mnk:4x4x3");
}

#[test]
fn gomocup_refuses_a_board_too_small_for_the_run_and_keeps_serving() {
    let output = zerosum_with_input(
        &["gomocup"],
        "START 4\nSTART 15\nINFO zerosum_k 16\nRECTSTART 3,2\nINFO zerosum_k 3\nRECTSTART 3,2\n\
         BEGIN\nINFO zerosum_k 4\nEND\n",
    );
    assert!(output.status.success());
    let replies = String::from_utf8(output.stdout).unwrap();
    let replies: Vec<&str> = replies.lines().collect();
    assert_eq!(
        replies[..5],
        [
            "ERROR unsupported board 4x4: bad game spec `mnk:4x4x5`: a run of 5 cannot fit on a \
             4x4 board (K must not exceed both M and N)",
            "OK",
            "ERROR unsupported board 15x15: bad game spec `mnk:15x15x16`: a run of 16 cannot fit \
             on a 15x15 board (K must not exceed both M and N)",
            "ERROR unsupported board 3x2: bad game spec `mnk:2x3x5`: a run of 5 cannot fit on a \
             2x3 board (K must not exceed both M and N)",
            "OK",
        ]
    );
    // BEGIN: a search line and the move; then K for the next game, which this board is too
    // small for.
    assert_eq!(replies.len(), 8, "{replies:?}");
    assert_eq!(
        replies[7],
        "MESSAGE K = 4 applies from the next game (which needs a board wider or taller than 3x2)"
    );
}

/// A server started with `zerosum serve`, killed on drop.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Posts `command` to `session` on the page server at `address`; the HTTP status line.
fn post(address: &str, session: &str, command: &str) -> String {
    let mut stream = TcpStream::connect(address).expect("the server accepts");
    write!(
        stream,
        "POST /command?session={session} HTTP/1.1\r\nHost: {address}\r\n\
         Origin: http://{address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{command}",
        command.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer.lines().next().unwrap_or_default().to_string()
}

#[test]
fn a_page_session_reports_a_bad_board_and_stays_usable() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("zerosum starts");
    let stdout = child.stdout.take().unwrap();
    let _server = Server(child);
    let address = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find_map(|line| {
            let word = line.split_whitespace().find(|w| w.starts_with("http://"))?;
            Some(word["http://".len()..].trim_end_matches('/').to_string())
        })
        .expect("the address is printed");

    let mut events = TcpStream::connect(&address).expect("the server accepts");
    events
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        events,
        "GET /events HTTP/1.1\r\nHost: {address}\r\nOrigin: http://{address}\r\n\r\n"
    )
    .unwrap();
    let mut lines = BufReader::new(events).lines();
    let started = Instant::now();
    let mut next_event = |wanted: &dyn Fn(&Value) -> bool| -> Value {
        loop {
            assert!(started.elapsed() < Duration::from_secs(60), "no such event");
            let line = lines
                .next()
                .expect("the event stream goes on")
                .expect("an event line");
            if let Some(data) = line.strip_prefix("data: ") {
                let event: Value = serde_json::from_str(data).expect("events are JSON");
                if wanted(&event) {
                    return event;
                }
            }
        }
    };
    let hello = next_event(&|event| event["type"] == "hello");
    let session = hello["session"].as_str().unwrap().to_string();

    let bad = r#"{"type":"new","spec":"mnk:3x3x4","players":["human","human"]}"#;
    assert!(post(&address, &session, bad).contains("204"));
    let error = next_event(&|event| event["type"] == "error");
    assert_eq!(
        error["message"],
        format!("bad game spec `mnk:3x3x4`: {RUN_TOO_LONG}")
    );

    let good = r#"{"type":"new","spec":"mnk:4x4x4","players":["human","human"]}"#;
    assert!(post(&address, &session, good).contains("204"));
    next_event(&|event| event["type"] == "state" && event["game"]["spec"] == "mnk:4x4x4");
    let played = r#"{"type":"move","move":"b2"}"#;
    assert!(post(&address, &session, played).contains("204"));
    let state = next_event(&|event| event["type"] == "state" && event["game"]["ply"] == 1);
    assert_eq!(state["game"]["spec"], "mnk:4x4x4");
}
