//! Network play over loopback: `zerosum server` referees two `zerosum client` processes in
//! every game family, and survives clients that say nothing, babble, flood or disconnect; a
//! third client is turned away with a message; a connection that is not a client (closed at
//! once, silent, an HTTP probe) takes no seat; a client gives up on a silent server.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdout, Command, Output, Stdio};
use std::time::Duration;

use super::peak_memory::wait_with_peak_rss;

/// A running server and the port it listens on.
struct Server {
    child: Child,
    stdout: BufReader<ChildStdout>,
    port: u16,
}

fn start_server(spec: &str, seconds: &str) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(["server", spec, "--port", "0", "--st", seconds])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    // "listening on 127.0.0.1:PORT for SPEC"
    let port = first
        .split_whitespace()
        .nth(2)
        .and_then(|address| address.rsplit(':').next())
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("no port in `{first}`"));
    Server {
        child,
        stdout,
        port,
    }
}

impl Server {
    /// Waits for the end and returns everything it printed after the first line.
    fn finish(self) -> String {
        self.finish_measured().0
    }

    /// Waits for the end: everything it printed after the first line, and its peak memory
    /// in MiB.
    fn finish_measured(mut self) -> (String, u64) {
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).unwrap();
        let (status, peak_mib) = wait_with_peak_rss(&mut self.child);
        assert!(status.success(), "server failed:\n{rest}");
        (rest, peak_mib)
    }
}

fn start_client(port: u16, player: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(["client", "127.0.0.1", &port.to_string(), "--player", player])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn text(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A raw connection that reads the server's lines.
fn connect(port: u16) -> (TcpStream, BufReader<TcpStream>) {
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let reader = BufReader::new(stream.try_clone().unwrap());
    (stream, reader)
}

fn read_until(reader: &mut BufReader<TcpStream>, word: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            panic!("connection closed before `{word}`: {seen:?}");
        }
        let line = line.trim().to_string();
        let done = line.starts_with(word);
        seen.push(line);
        if done {
            return seen;
        }
    }
}

#[test]
fn two_clients_play_every_family_to_the_end() {
    for spec in [
        "tictactoe",
        "connect4",
        "hex:5",
        "atoll:hexhex2",
        "unstable:4x4",
    ] {
        let server = start_server(spec, "0.5");
        let black = start_client(server.port, "engine");
        std::thread::sleep(Duration::from_millis(100));
        let white = start_client(server.port, "quasi");
        let (black, white) = (
            black.wait_with_output().unwrap(),
            white.wait_with_output().unwrap(),
        );
        let log = server.finish();
        let (black, white) = (text(&black), text(&white));
        assert!(log.contains("result: "), "{spec}: {log}");
        let black_lines: Vec<&str> = black.lines().collect();
        assert!(black_lines[0].starts_with("GAME "), "{spec}: {black}");
        assert_eq!(black_lines[1], "TIME 0.5", "{spec}: {black}");
        assert_eq!(black_lines[2], "WELCOME Black", "{spec}: {black}");
        assert_eq!(black_lines[3], "YOUR_TURN", "{spec}: {black}");
        assert!(
            black.contains("VALID_MOVE") && black.contains("OPPONENT_MOVE "),
            "{black}"
        );
        assert!(
            white.contains("WELCOME White") && white.contains("OPPONENT_MOVE "),
            "{white}"
        );
        let ends = |out: &str| {
            ["VICTORY", "DEFEAT", "TIE"]
                .into_iter()
                .find(|word| out.lines().any(|l| l == *word))
                .unwrap_or_else(|| panic!("{spec}: no end in {out}"))
        };
        match ends(&black) {
            "VICTORY" => assert_eq!(ends(&white), "DEFEAT"),
            "DEFEAT" => assert_eq!(ends(&white), "VICTORY"),
            _ => assert_eq!(ends(&white), "TIE"),
        }
        // The engine does not lose to quasi on these boards.
        assert_ne!(ends(&black), "DEFEAT", "{spec}: {log}");
    }
}

#[test]
fn a_silent_client_loses_on_time_and_a_third_is_turned_away() {
    let server = start_server("connect4", "0.3");
    let (mut silent, mut silent_lines) = connect(server.port);
    std::thread::sleep(Duration::from_millis(100));
    let other = start_client(server.port, "quasi");
    // One move makes the seat its own; then it says nothing.
    read_until(&mut silent_lines, "YOUR_TURN");
    silent.write_all(b"MOVE 4\n").unwrap();
    read_until(&mut silent_lines, "OPPONENT_MOVE");
    // Both seats are confirmed: a third is turned away.
    let (_third, mut third_lines) = connect(server.port);
    let refusal = read_until(&mut third_lines, "MESSAGE");
    assert!(refusal.last().unwrap().contains("full"), "{refusal:?}");
    let seen = read_until(&mut silent_lines, "DEFEAT");
    assert!(seen.contains(&"YOUR_TURN".to_string()), "{seen:?}");
    let other = other.wait_with_output().unwrap();
    assert!(text(&other).contains("VICTORY"), "{}", text(&other));
    let log = server.finish();
    assert!(
        log.contains("result: 0-1") && log.contains("did not answer"),
        "{log}"
    );
}

#[test]
fn a_babbling_client_loses_for_an_illegal_move() {
    let server = start_server("tictactoe", "1");
    let (mut babbler, mut lines) = connect(server.port);
    std::thread::sleep(Duration::from_millis(100));
    let other = start_client(server.port, "random");
    read_until(&mut lines, "YOUR_TURN");
    babbler.write_all(b"MOVE b2\n").unwrap();
    read_until(&mut lines, "YOUR_TURN");
    babbler.write_all(b"HELLO \xff\xfe there\n").unwrap();
    let seen = read_until(&mut lines, "DEFEAT");
    assert!(seen.contains(&"ILLEGAL_MOVE".to_string()), "{seen:?}");
    assert!(text(&other.wait_with_output().unwrap()).contains("VICTORY"));
    let log = server.finish();
    assert!(log.contains("garbage"), "{log}");
}

#[test]
fn a_client_that_disconnects_loses_and_the_server_finishes() {
    let server = start_server("hex:4", "1");
    let (mut gone, mut lines) = connect(server.port);
    std::thread::sleep(Duration::from_millis(100));
    let other = start_client(server.port, "quasi");
    read_until(&mut lines, "YOUR_TURN");
    gone.write_all(b"MOVE b2\n").unwrap();
    read_until(&mut lines, "YOUR_TURN");
    drop(lines);
    drop(gone);
    assert!(text(&other.wait_with_output().unwrap()).contains("VICTORY"));
    let log = server.finish();
    assert!(
        log.contains("result: 0-1") && log.contains("disconnected"),
        "{log}"
    );
}

#[test]
fn a_client_that_floods_out_of_turn_forfeits_and_the_server_stays_small() {
    let server = start_server("tictactoe", "30");
    let (mut black, mut black_lines) = connect(server.port);
    std::thread::sleep(Duration::from_millis(100));
    let (mut flooder, mut flooder_lines) = connect(server.port);
    read_until(&mut black_lines, "YOUR_TURN");
    black.write_all(b"MOVE a1\n").unwrap();
    read_until(&mut flooder_lines, "YOUR_TURN");
    flooder.write_all(b"MOVE b2\n").unwrap();
    read_until(&mut black_lines, "YOUR_TURN");
    // While Black thinks, White sends 4 kB lines until the server stops taking them (its
    // writes stall) or 512 MiB are sent.
    let mut line = vec![b'x'; 4000];
    line.push(b'\n');
    let chunk = line.repeat(64);
    flooder
        .set_write_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let mut sent = 0;
    while sent < 512 << 20 && flooder.write_all(&chunk).is_ok() {
        sent += chunk.len();
    }
    black.write_all(b"MOVE c3\n").unwrap();
    let seen = read_until(&mut black_lines, "VICTORY");
    assert!(
        seen.iter().any(|l| l.contains("without being asked")),
        "{seen:?}"
    );
    let (log, peak_mib) = server.finish_measured();
    assert!(
        log.contains("result: 1-0") && log.contains("without being asked"),
        "{log}"
    );
    assert!(
        peak_mib < 200,
        "the server grew to {peak_mib} MiB (sent {sent} bytes)"
    );
}

#[test]
fn a_connection_closed_before_the_game_takes_no_seat() {
    let server = start_server("tictactoe", "0.5");
    // A port probe: connect and leave at once.
    drop(TcpStream::connect(("127.0.0.1", server.port)).unwrap());
    std::thread::sleep(Duration::from_millis(50));
    let black = start_client(server.port, "engine");
    std::thread::sleep(Duration::from_millis(100));
    let white = start_client(server.port, "quasi");
    let (black, white) = (
        black.wait_with_output().unwrap(),
        white.wait_with_output().unwrap(),
    );
    let log = server.finish();
    assert!(log.contains("closed the connection"), "{log}");
    let (black, white) = (text(&black), text(&white));
    assert!(black.contains("WELCOME Black"), "{black}");
    assert!(white.contains("WELCOME White"), "{white}");
    assert_real_game(&black, &white, &log);
}

/// Both clients moved and the game ended without a forfeit.
fn assert_real_game(black: &str, white: &str, log: &str) {
    assert!(
        black.contains("OPPONENT_MOVE") && white.contains("OPPONENT_MOVE"),
        "{black}\n{white}\n{log}"
    );
    let result = log
        .lines()
        .find(|line| line.starts_with("result: "))
        .unwrap_or_else(|| panic!("no result in {log}"));
    for forfeit in [
        "disconnected",
        "failed",
        "did not answer",
        "garbage",
        "gone",
    ] {
        assert!(!result.contains(forfeit), "{result}\n{log}");
    }
}

/// A connection that is not a client of the protocol.
#[derive(Clone, Copy, Debug)]
enum Stray {
    /// Connects and closes 20 ms later.
    EarlyClose,
    /// Connects and says nothing, for as long as the test runs.
    Silent,
    /// Sends an HTTP request and waits for an answer.
    HttpProbe,
}

impl Stray {
    /// Connects; what the test must keep open, if anything.
    fn connect(self, port: u16) -> Option<TcpStream> {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        match self {
            Stray::EarlyClose => {
                std::thread::sleep(Duration::from_millis(20));
                None
            }
            Stray::Silent => Some(stream),
            Stray::HttpProbe => {
                stream
                    .write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    .unwrap();
                Some(stream)
            }
        }
    }
}

#[test]
fn stray_connections_leave_the_seat_to_the_real_client() {
    // (stray, whether it comes before the first client), as a port scanner, a health check or
    // a browser would.
    for (stray, first) in [
        (Stray::EarlyClose, false),
        (Stray::Silent, false),
        (Stray::HttpProbe, false),
        (Stray::Silent, true),
    ] {
        let server = start_server("tictactoe", "0.5");
        let early = first.then(|| stray.connect(server.port));
        std::thread::sleep(Duration::from_millis(50));
        let black = start_client(server.port, "engine");
        std::thread::sleep(Duration::from_millis(100));
        let late = (!first).then(|| stray.connect(server.port));
        std::thread::sleep(Duration::from_millis(50));
        let white = start_client(server.port, "quasi");
        let (black, white) = (
            black.wait_with_output().unwrap(),
            white.wait_with_output().unwrap(),
        );
        let log = server.finish();
        drop((early, late));
        let (black, white) = (text(&black), text(&white));
        // Each real client has a seat and plays to the end (the engine first or second).
        let (one, other) = if first {
            (&white, &black)
        } else {
            (&black, &white)
        };
        assert!(one.contains("WELCOME Black"), "{stray:?}: {one}\n{log}");
        assert!(other.contains("WELCOME White"), "{stray:?}: {other}\n{log}");
        for out in [&black, &white] {
            assert!(
                ["VICTORY", "DEFEAT", "TIE"]
                    .iter()
                    .any(|end| out.lines().any(|line| line == *end)),
                "{stray:?}: {out}\n{log}"
            );
        }
        assert_real_game(one, other, &log);
        assert!(
            log.contains("gives up the") || log.contains("dropped"),
            "{stray:?}: {log}"
        );
    }
}

#[test]
fn a_client_gives_up_on_a_silent_server() {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let started = std::time::Instant::now();
    let mut client = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(["client", "127.0.0.1", &port.to_string()])
        .args(["--player", "random", "--time", "0.1", "--patience", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The server takes the connection and says nothing, until the client ends (or a
    // generous bound for a hang passes).
    let mut silent = Vec::new();
    while client.try_wait().unwrap().is_none() {
        if let Ok((stream, _)) = listener.accept() {
            silent.push(stream);
        }
        if started.elapsed() > Duration::from_secs(30) {
            client.kill().unwrap();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = client.wait_with_output().unwrap();
    let errors = String::from_utf8_lossy(&output.stderr);
    assert_eq!(silent.len(), 1, "{errors}");
    assert!(!output.status.success(), "{errors}");
    assert_eq!(
        errors.trim(),
        "error: the server said nothing for 1 s: giving up"
    );
}

#[test]
fn a_client_says_why_its_player_failed_once() {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let client = start_client(port, "random");
    let (mut server, _) = listener.accept().unwrap();
    server
        .write_all(b"GAME tictactoe\nWELCOME White\nOPPONENT_MOVE z9\nYOUR_TURN\n")
        .unwrap();
    let output = client.wait_with_output().unwrap();
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{errors}");
    assert_eq!(
        errors.trim(),
        "error: the player failed: cannot follow the game: move `z9` is off the board \
         (3 rows x 3 columns: a1 to c3)"
    );
}

#[test]
fn a_client_refuses_a_server_line_longer_than_the_cap() {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let client = start_client(port, "random");
    let (mut server, _) = listener.accept().unwrap();
    server.write_all(b"GAME tictactoe\nMESSAGE ").unwrap();
    // 2 MiB without a line end; the client stops reading at 1 MiB, so the rest may not fit.
    server
        .set_write_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let _ = server.write_all(&vec![b'x'; 2 << 20]);
    let output = client.wait_with_output().unwrap();
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{errors}");
    assert!(
        errors.contains("the server sent a line longer than 1 MiB"),
        "{errors}"
    );
}
