//! The page's server as the command line starts it: `zerosum serve --engines` offers the listed
//! engines, and `zerosum tournament --serve` shows its tournament to a tab live. Read through
//! raw HTTP, as a browser's event stream.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStderr, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A child process, killed on drop.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The first `http://` address in the lines `output` prints; the rest of `output` is read on
/// a thread of its own (a process whose output pipe closes fails when it next writes).
fn address(output: impl std::io::Read + Send + 'static) -> String {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines().map_while(Result::ok) {
            if let Some(word) = line.split_whitespace().find(|w| w.starts_with("http://")) {
                let _ = sender.send(
                    word.trim_start_matches("http://")
                        .trim_end_matches('/')
                        .to_string(),
                );
            }
        }
    });
    receiver
        .recv_timeout(Duration::from_secs(60))
        .expect("no address printed")
}

/// Opens the event stream of the server at `address` and returns the first event for which
/// `wanted` holds, reading for at most 20 seconds.
fn first_event(address: &str, wanted: impl Fn(&Value) -> bool) -> Value {
    let mut stream = TcpStream::connect(address).expect("the server accepts");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(stream, "GET /events HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
    let started = Instant::now();
    for line in BufReader::new(stream).lines() {
        let line = line.expect("the event stream goes on");
        if let Some(data) = line.strip_prefix("data: ") {
            let event: Value = serde_json::from_str(data).expect("events are JSON");
            if wanted(&event) {
                return event;
            }
        }
        assert!(started.elapsed() < Duration::from_secs(20), "no such event");
    }
    panic!("the event stream ended without the event");
}

fn spawn(args: &[&str]) -> (Running, Option<ChildStdout>, Option<ChildStderr>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("zerosum starts");
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    (Running(child), stdout, stderr)
}

#[test]
fn serve_offers_the_listed_engines_by_name() {
    let list =
        std::env::temp_dir().join(format!("zerosum-web-engines-{}.json", std::process::id()));
    std::fs::write(
        &list,
        r#"{"engines": [{"name": "mybot", "cmd": "/bin/mybot", "proto": "gtp"}]}"#,
    )
    .unwrap();
    let (_server, stdout, _) =
        spawn(&["serve", "--port", "0", "--engines", list.to_str().unwrap()]);
    let address = address(stdout.unwrap());
    let hello = first_event(&address, |event| event["type"] == "hello");
    std::fs::remove_file(&list).unwrap();
    let players = hello["catalog"]["players"].as_array().unwrap();
    assert!(players.iter().any(|p| p["spec"] == "mybot"), "{players:?}");
}

#[test]
fn serve_with_threads_greets_a_tab() {
    let (_server, stdout, _) = spawn(&["serve", "--port", "0", "--threads", "2"]);
    let address = address(stdout.unwrap());
    let hello = first_event(&address, |event| event["type"] == "hello");
    assert!(hello["catalog"]["players"].as_array().is_some(), "{hello}");
}

#[test]
fn tournament_serve_shows_the_tournament_live() {
    let record =
        std::env::temp_dir().join(format!("zerosum-web-serve-{}.jsonl", std::process::id()));
    // Standard output stays open: a run whose output closes stops (see stopping.rs).
    let (_tournament, _stdout, stderr) = spawn(&[
        "tournament",
        "--players",
        "engine:time=0.1",
        "quasi",
        "--games",
        "connect4",
        "--rounds",
        "3",
        "--st",
        "0.1",
        "--serve",
        "--port",
        "0",
        "--record",
        record.to_str().unwrap(),
    ]);
    let address = address(stderr.unwrap());
    let playing = first_event(&address, |event| {
        event["type"] == "tournament" && event["current"]["game"]["ply"].as_u64() > Some(0)
    });
    assert_eq!(playing["games_total"], 6);
    assert_eq!(playing["per_move_ms"], 100);
    assert_eq!(playing["current"]["game"]["spec"], "connectx:6x7x4");
    assert_eq!(playing["standings"]["players"].as_array().unwrap().len(), 2);
    let _ = std::fs::remove_file(&record);
    let _ = std::fs::remove_file(record.with_extension("ranking.txt"));
}

/// The answer to `GET path` from the server at `address`, addressed to `host`: head and body.
fn get(address: &str, host: &str, path: &str) -> (String, String) {
    let mut stream = TcpStream::connect(address).expect("the server accepts");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut stream, &mut answer).expect("a whole answer");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    (head.to_string(), body.to_string())
}

#[test]
fn tournament_serve_keeps_its_final_standings_and_games_until_stopped() {
    let record =
        std::env::temp_dir().join(format!("zerosum-web-final-{}.jsonl", std::process::id()));
    let (mut tournament, stdout, stderr) = spawn(&[
        "tournament",
        "--players",
        "quasi",
        "random",
        "--games",
        "tictactoe",
        "--st",
        "0.05",
        "--serve",
        "--port",
        "0",
        "--record",
        record.to_str().unwrap(),
    ]);
    let address = address(stderr.unwrap());
    let over_line = BufReader::new(stdout.unwrap())
        .lines()
        .map(|line| line.expect("a line of output"))
        .find(|line| line.starts_with("the tournament is over"))
        .expect("the closing line");
    assert!(over_line.contains("until Ctrl-C"), "{over_line}");
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        tournament.0.try_wait().unwrap().is_none(),
        "the process ended with its tournament"
    );
    let _ = std::fs::remove_file(&record);
    let _ = std::fs::remove_file(record.with_extension("ranking.txt"));

    // A tab opened after the end sees the final standings, and no button to start another.
    let hello = first_event(&address, |event| event["type"] == "hello");
    assert_eq!(hello["watching"], true);
    let over = first_event(&address, |event| event["type"] == "tournament");
    assert_eq!(over["over"], true, "{over}");
    assert_eq!(over["games_played"], 2);
    assert_eq!(over["standings"]["players"].as_array().unwrap().len(), 2);

    // Every finished game is listed and downloads, as a JSON line and as PGN and PSQ text.
    let feed = over["feed"].as_str().unwrap();
    let (head, body) = get(&address, &address, &format!("/games?feed={feed}"));
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let listed: Value = serde_json::from_str(&body).unwrap();
    let games = listed["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{listed}");
    for game in games {
        let number = &game["number"];
        for format in ["json", "pgn", "psq"] {
            let path = format!("/game?feed={feed}&number={number}&format={format}");
            let (head, body) = get(&address, &address, &path);
            assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
            assert!(
                head.contains(&format!("filename=\"zerosum-game-{number}.{format}\"")),
                "{head}"
            );
            assert!(!body.is_empty(), "{path}");
        }
        let (_, line) = get(
            &address,
            &address,
            &format!("/game?feed={feed}&number={number}"),
        );
        let record: Value = serde_json::from_str(&line).expect("the game's JSON line");
        assert_eq!(record["moves"].as_array().unwrap().len(), game["moves"]);
    }
    // Addressed by another name (a rebound DNS name), a download is refused.
    let (head, _) = get(
        &address,
        "evil.example",
        &format!("/game?feed={feed}&number=1"),
    );
    assert!(head.starts_with("HTTP/1.1 421"), "{head}");
}

/// A tab of the page: its session and its event stream.
struct Tab {
    address: String,
    session: String,
    events: std::io::Lines<BufReader<TcpStream>>,
}

impl Tab {
    /// Opens a tab, read past its greeting and the state of its opening game.
    fn open(address: &str) -> Tab {
        let mut stream = TcpStream::connect(address).expect("the server accepts");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        write!(stream, "GET /events HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
        let mut tab = Tab {
            address: address.to_string(),
            session: String::new(),
            events: BufReader::new(stream).lines(),
        };
        let hello = tab.next(|event| event["type"] == "hello");
        tab.session = hello["session"].as_str().unwrap().to_string();
        // The opening game's.
        tab.next(|event| event["type"] == "state");
        tab
    }

    /// The next event for which `wanted` holds.
    fn next(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let line = self
                .events
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
    }

    /// Posts `command`; the HTTP status line.
    fn post(&self, command: &Value) -> String {
        let address = &self.address;
        let body = command.to_string();
        let mut stream = TcpStream::connect(address).expect("the server accepts");
        write!(
            stream,
            "POST /command?session={} HTTP/1.1\r\nHost: {address}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            self.session,
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        std::io::Read::read_to_string(&mut stream, &mut answer).unwrap();
        answer.lines().next().unwrap_or_default().to_string()
    }
}

/// A field of `/proc/PID/status` in MiB (`VmHWM`: the peak resident memory).
fn status_mib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in {status}"));
    kib / 1024
}

#[test]
fn a_page_tournament_of_millions_of_games_is_refused_before_it_is_built() {
    let (server, stdout, _) = spawn(&["serve", "--port", "0"]);
    let address = address(stdout.unwrap());
    let mut tab = Tab::open(&address);
    let status = tab.post(&serde_json::json!({
        "type": "tournament", "players": ["quasi", "random"], "games": ["tictactoe"],
        "seconds": 0.1, "rounds": 4_999_999,
    }));
    assert!(status.contains("204"), "{status}");
    let error = tab.next(|event| event["type"] == "error");
    assert_eq!(error["field"], "rounds", "{error}");
    assert!(
        error["message"].as_str().unwrap().contains("too many"),
        "{error}"
    );
    // The schedule of 10^7 games would take about 900 MB.
    let peak = status_mib(server.0.id(), "VmHWM");
    assert!(peak < 100, "the server reached {peak} MiB");
}

#[test]
fn page_games_share_half_of_memory_for_their_tables() {
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let total_mb: usize = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemTotal:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .map(|kib: usize| kib / 1024)
        .unwrap();
    let share = total_mb / 2;
    // Tables that fit alone, but not as many as it takes to pass the share. The engine of
    // each game is second to move and never asked to, so no table is ever made.
    let hash = (share * 3 / 5).min(16_384);
    let fitting = share / hash;
    let (_server, stdout, _) = spawn(&["serve", "--port", "0"]);
    let address = address(stdout.unwrap());
    let engine = format!("engine:hash={hash}");
    let new_game =
        serde_json::json!({"type": "new", "spec": "tictactoe", "players": ["human", engine]});
    let mut tabs = Vec::new();
    for _ in 0..fitting {
        let mut tab = Tab::open(&address);
        tab.post(&new_game);
        let state = tab.next(|event| event["type"] == "state" || event["type"] == "error");
        assert_eq!(state["type"], "state", "{state}");
        assert_eq!(state["players"][1], engine, "{state}");
        tabs.push(tab);
    }
    let mut refused = Tab::open(&address);
    refused.post(&new_game);
    let error = refused.next(|event| {
        event["type"] == "error" || event["type"] == "state" && event["players"][1] == engine
    });
    assert_eq!(error["type"], "error", "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("take {hash} MB"))
            && message.contains(&format!("half of this machine's {total_mb} MB")),
        "{message}"
    );
    // A tab that closes gives its tables back.
    drop(tabs.pop());
    let started = Instant::now();
    loop {
        refused.post(&new_game);
        let answer = refused.next(|event| {
            event["type"] == "error" || event["type"] == "state" && event["players"][1] == engine
        });
        if answer["type"] == "state" {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "{answer}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_new_game_opens_at_the_moves_it_names() {
    let (_server, stdout, _) = spawn(&["serve", "--port", "0"]);
    let address = address(stdout.unwrap());
    let mut tab = Tab::open(&address);
    tab.post(&serde_json::json!({"type": "swap"}));
    let opening = tab.next(|event| event["type"] == "state");
    assert_eq!(opening["number"], 0, "{opening}");
    assert_eq!(
        opening["seats"],
        serde_json::json!(["engine:time=0.5", "human"]),
        "{opening}"
    );

    // A finished game, reopened from its moves: at its end, with its players.
    let answer = tab.post(&serde_json::from_str(r#"{"type":"new","spec":"tictactoe","players":["human","quasi"],"moves":["a1","b1","a2","b2","a3"]}"#).unwrap());
    assert!(answer.contains("204"), "{answer}");
    let won = tab.next(|event| event["type"] == "state" && event["number"] == 1);
    assert_eq!(won["game"]["ply"], 5, "{won}");
    assert_eq!(won["game"]["name"], "Tic-tac-toe", "{won}");
    assert_eq!(won["result"], "first player wins", "{won}");
    assert_eq!(won["seats"], serde_json::json!(["human", "quasi"]), "{won}");

    // Moves that cannot be played: which one and why, about the moves; the game stays.
    tab.post(
        &serde_json::from_str(
            r#"{"type":"new","spec":"connect4","players":["human","human"],"moves":["4","4","9"]}"#,
        )
        .unwrap(),
    );
    let refused = tab.next(|event| event["type"] == "error");
    assert_eq!(refused["command"], "new", "{refused}");
    assert_eq!(refused["field"], "moves", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .starts_with("move 3 (9): "),
        "{refused}"
    );
    let kept = tab.next(|event| event["type"] == "state");
    assert_eq!(kept["number"], 1, "{kept}");
    assert_eq!(kept["game"]["spec"], "mnk:3x3x3", "{kept}");
    tab.post(&serde_json::from_str(r#"{"type":"new","spec":"tictactoe","players":["human","human"],"moves":["a1","b1","a2","b2","a3","c3"]}"#).unwrap());
    let over = tab.next(|event| event["type"] == "error");
    assert_eq!(over["message"], "move 6 (c3): the game is over", "{over}");
}
