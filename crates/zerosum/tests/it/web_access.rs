//! Who may use `zerosum serve`, and how much a client can hold: a request addressed to another
//! host name (DNS rebinding) or a command from another site is refused and starts nothing; a
//! request trickled byte by byte is closed; idle connections cannot multiply threads. Through
//! raw HTTP, as a browser or an attacker sends it.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use serde_json::Value;

/// A watchdog for what must happen "soon": far above any real duration, so a slow machine
/// never fails a test, yet a hang does.
const WATCHDOG: Duration = Duration::from_secs(60);

/// `zerosum serve` on a free port, killed on drop.
struct Serve {
    child: Child,
    /// `127.0.0.1:PORT`.
    address: String,
}

impl Serve {
    fn start(extra: &[&str]) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zerosum"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .spawn()
            .expect("zerosum serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped stdout"))
            .read_line(&mut line)
            .expect("zerosum serve prints its address");
        let address = line
            .split_whitespace()
            .find_map(|word| word.strip_prefix("http://"))
            .unwrap_or_else(|| panic!("no address in `{line}`"))
            .trim_end_matches('/')
            .to_string();
        Serve { child, address }
    }

    fn port(&self) -> &str {
        self.address.rsplit_once(':').unwrap().1
    }

    /// Sends `head` (request line and headers, without the blank line) and `body`, with
    /// `Content-Length`, and reads the answer until the server closes the connection. (A
    /// server that answers before reading, as when it is busy, may reset the connection after
    /// its answer: what arrived counts.)
    fn exchange(&self, head: &str, body: &str) -> String {
        let mut stream = TcpStream::connect(&self.address).expect("the server accepts");
        stream.set_read_timeout(Some(WATCHDOG)).unwrap();
        let request = format!("{head}\r\nContent-Length: {}\r\n\r\n{body}", body.len());
        let _ = stream.write_all(request.as_bytes());
        let mut answer = Vec::new();
        let mut buffer = [0; 4096];
        while let Ok(read @ 1..) = stream.read(&mut buffer) {
            answer.extend_from_slice(&buffer[..read]);
        }
        String::from_utf8_lossy(&answer).into_owned()
    }

    /// The number of threads of the server process.
    fn threads(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/task", self.child.id()))
            .expect("the server's threads are listed")
            .count()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The status code of an HTTP answer.
fn status(answer: &str) -> &str {
    answer.split_whitespace().nth(1).unwrap_or("none")
}

/// Opens the event stream with `Host: host` and returns the session id of its `hello`.
fn open_session(serve: &Serve) -> (TcpStream, String) {
    let mut stream = TcpStream::connect(&serve.address).unwrap();
    stream.set_read_timeout(Some(WATCHDOG)).unwrap();
    write!(
        stream,
        "GET /events HTTP/1.1\r\nHost: {}\r\n\r\n",
        serve.address
    )
    .unwrap();
    for line in BufReader::new(stream.try_clone().unwrap()).lines() {
        let line = line.expect("the event stream goes on");
        if let Some(data) = line.strip_prefix("data: ") {
            let event: Value = serde_json::from_str(data).unwrap();
            if event["type"] == "hello" {
                return (stream, event["session"].as_str().unwrap().to_string());
            }
        }
    }
    panic!("the event stream ended without hello");
}

#[test]
fn a_request_to_a_foreign_host_is_refused_and_opens_no_session() {
    let serve = Serve::start(&[]);
    let port = serve.port();
    for (host, origin) in [
        (format!("evil.example:{port}"), None),
        (format!("evil.example:{port}"), Some("http://evil.example")),
        (format!("localhost.evil.example:{port}"), None),
        ("localhost:1".to_string(), None),
    ] {
        let origin = origin.map_or(String::new(), |o| format!("\r\nOrigin: {o}"));
        let answer = serve.exchange(&format!("GET /events HTTP/1.1\r\nHost: {host}{origin}"), "");
        assert_eq!(status(&answer), "421", "{host}: {answer}");
        assert!(!answer.contains("data:"), "{answer}");
        let page = serve.exchange(&format!("GET / HTTP/1.1\r\nHost: {host}"), "");
        assert_eq!(status(&page), "421", "{page}");
    }
    // Named as a browser on this machine names it, the same server answers.
    for host in [format!("localhost:{port}"), serve.address.clone()] {
        let page = serve.exchange(&format!("GET / HTTP/1.1\r\nHost: {host}"), "");
        assert_eq!(status(&page), "200", "{page}");
    }
    let (_events, session) = open_session(&serve);
    assert!(!session.is_empty());
}

/// An engine list offering `spy`, a program that notes each start in `started` and then
/// reads its input until it closes.
fn spy_engine(dir: &Path) -> (PathBuf, PathBuf) {
    let started = dir.join("started");
    let program = dir.join("spy.sh");
    std::fs::write(
        &program,
        format!(
            "#!/bin/sh\necho started >> '{}'\nexec cat > /dev/null\n",
            started.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let list = dir.join("engines.json");
    std::fs::write(
        &list,
        format!(
            r#"{{"engines": [{{"name": "spy", "cmd": "{}", "proto": "gtp"}}]}}"#,
            program.display()
        ),
    )
    .unwrap();
    (list, started)
}

#[test]
fn a_command_from_another_site_is_refused_and_starts_nothing() {
    let dir = std::env::temp_dir().join(format!("zerosum-web-access-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (list, started) = spy_engine(&dir);
    let serve = Serve::start(&["--engines", list.to_str().unwrap()]);
    let (_events, session) = open_session(&serve);
    let new_game = r#"{"type": "new", "spec": "tictactoe", "players": ["spy", "human"]}"#;
    let post = |headers: &str| {
        serve.exchange(
            &format!(
                "POST /command?session={session} HTTP/1.1\r\nHost: {}{headers}",
                serve.address
            ),
            new_game,
        )
    };
    let json = "\r\nContent-Type: application/json";
    let refused = [
        (format!("\r\nOrigin: http://evil.example{json}"), "403"),
        (format!("\r\nOrigin: null{json}"), "403"),
        (format!("\r\nOrigin: http://localhost:1{json}"), "403"),
        // What a plain form on another site can send: no JSON content type.
        ("\r\nContent-Type: text/plain".to_string(), "415"),
        (
            "\r\nContent-Type: application/x-www-form-urlencoded".to_string(),
            "415",
        ),
        (String::new(), "415"),
    ];
    for (headers, code) in &refused {
        let answer = post(headers);
        assert_eq!(status(&answer), *code, "{headers:?}: {answer}");
    }
    // The page itself: its own origin, JSON. The engine starts, so a start would have been seen.
    let own = format!("\r\nOrigin: http://{}{json}", serve.address);
    let answer = post(&own);
    assert_eq!(status(&answer), "204", "{answer}");
    let since = Instant::now();
    while !started.exists() {
        assert!(
            since.elapsed() < WATCHDOG,
            "the page's own command starts no engine"
        );
        sleep(Duration::from_millis(50));
    }
    drop(serve);
    let starts = std::fs::read_to_string(&started).unwrap();
    assert_eq!(
        starts.lines().count(),
        1,
        "refused commands started the engine"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_trickled_request_is_closed() {
    let serve = Serve::start(&[]);
    let mut stream = TcpStream::connect(&serve.address).unwrap();
    write!(
        stream,
        "GET / HTTP/1.1\r\nHost: {}\r\nX-Slow: ",
        serve.address
    )
    .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let since = Instant::now();
    let mut answer = Vec::new();
    let mut buffer = [0; 1024];
    // One byte at a time, never finishing the head, until the server closes the connection.
    let closed = loop {
        assert!(
            since.elapsed() < WATCHDOG,
            "the trickled request is still open"
        );
        if stream.write_all(b"a").is_err() {
            break true;
        }
        match stream.read(&mut buffer) {
            Ok(0) => break true,
            Ok(read) => answer.extend_from_slice(&buffer[..read]),
            Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break true,
        }
    };
    assert!(closed);
    let answer = String::from_utf8_lossy(&answer);
    assert!(
        answer.is_empty() || status(&answer) == "408",
        "the answer: {answer}"
    );
}

#[test]
fn idle_connections_do_not_multiply_threads() {
    let serve = Serve::start(&[]);
    let idle: Vec<TcpStream> = (0..300)
        .map(|_| TcpStream::connect(&serve.address).expect("the server accepts or turns away"))
        .collect();
    // The server serves at most 64 connections at once, a thread each, besides its own.
    let most = (0..10)
        .map(|_| {
            sleep(Duration::from_millis(100));
            serve.threads()
        })
        .max()
        .unwrap();
    assert!(most <= 64 + 4, "{most} threads for 300 idle connections");
    let page = format!("GET / HTTP/1.1\r\nHost: {}", serve.address);
    // While they are open a request is turned away (or served, once their deadline passed).
    let busy = serve.exchange(&page, "");
    assert!(["503", "200"].contains(&status(&busy)), "{busy}");
    drop(idle);
    let since = Instant::now();
    loop {
        let answer = serve.exchange(&page, "");
        if status(&answer) == "200" {
            break;
        }
        assert_eq!(status(&answer), "503", "{answer}");
        assert!(
            since.elapsed() < WATCHDOG,
            "still busy after the connections closed"
        );
        sleep(Duration::from_millis(100));
    }
}

#[test]
fn open_tabs_are_capped() {
    let serve = Serve::start(&[]);
    // The server keeps at most 32 sessions (tabs) open at once.
    let tabs: Vec<_> = (0..32).map(|_| open_session(&serve)).collect();
    let events = format!("GET /events HTTP/1.1\r\nHost: {}", serve.address);
    let refused = serve.exchange(&events, "");
    assert_eq!(status(&refused), "503", "{refused}");
    assert!(!refused.contains("data:"), "{refused}");
    drop(tabs);
    let since = Instant::now();
    loop {
        let mut stream = TcpStream::connect(&serve.address).unwrap();
        stream.set_read_timeout(Some(WATCHDOG)).unwrap();
        write!(stream, "{events}\r\n\r\n").unwrap();
        let mut first = String::new();
        BufReader::new(stream).read_line(&mut first).unwrap();
        if status(&first) == "200" {
            break;
        }
        assert_eq!(status(&first), "503", "{first}");
        assert!(
            since.elapsed() < WATCHDOG,
            "no tab opens after the others closed"
        );
        sleep(Duration::from_millis(100));
    }
}
