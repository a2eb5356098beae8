//! A tiny WebDriver client over `std::net`: enough of chromedriver's HTTP API to open a page
//! in headless Chromium, run scripts, click elements and take screenshots.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The key under which WebDriver names an element.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Chromium and its driver, as found on this machine.
pub struct Browser {
    pub chromium: PathBuf,
    pub chromedriver: PathBuf,
}

impl Browser {
    /// Both programs from `PATH` (or `CHROMIUM` / `CHROMEDRIVER`), if they are there.
    pub fn find() -> Option<Browser> {
        let chromium = program(
            "CHROMIUM",
            &["chromium", "chromium-browser", "google-chrome"],
        )?;
        let chromedriver = program("CHROMEDRIVER", &["chromedriver"])?;
        Some(Browser {
            chromium,
            chromedriver,
        })
    }
}

fn program(variable: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(variable) {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// A free port on loopback (free when asked; good enough for a test).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// A chromedriver process with one browser session, both ended on drop.
pub struct WebDriver {
    driver: Child,
    port: u16,
    session: String,
}

impl WebDriver {
    /// Starts chromedriver and a headless Chromium with a 1280x800 window.
    pub fn start(browser: &Browser) -> WebDriver {
        let port = free_port();
        let driver = Command::new(&browser.chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let mut webdriver = WebDriver {
            driver,
            port,
            session: String::new(),
        };
        let started = Instant::now();
        while !webdriver
            .call("GET", "/status", None)
            .is_ok_and(|status| status["ready"] == true)
        {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not get ready"
            );
            sleep(Duration::from_millis(50));
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "goog:chromeOptions": {
                "binary": path_text(&browser.chromium),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,800"],
            }
        }}});
        let created = webdriver
            .call("POST", "/session", Some(capabilities))
            .expect("a browser session");
        webdriver.session = created["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        webdriver
    }

    /// Loads `url`.
    pub fn goto(&self, url: &str) {
        self.session_call("POST", "/url", json!({ "url": url }));
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns its value.
    pub fn execute(&self, script: &str, args: Value) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": args}),
        )
    }

    /// Runs `script` (a function body; `arguments` holds `args`, then the callback that gives
    /// the result) and returns the value it passes to the callback.
    pub fn execute_async(&self, script: &str, args: Value) -> Value {
        self.session_call(
            "POST",
            "/execute/async",
            json!({"script": script, "args": args}),
        )
    }

    /// Moves the mouse over the middle of the first element matching `css`.
    pub fn hover(&self, css: &str) {
        let found = self.session_call(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        let element = found[ELEMENT_KEY]
            .as_str()
            .unwrap_or_else(|| panic!("no element `{css}`: {found}"))
            .to_string();
        let origin = json!({ ELEMENT_KEY: element });
        self.session_call(
            "POST",
            "/actions",
            json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                "actions": [{"type": "pointerMove", "origin": origin, "x": 0, "y": 0}]}]}),
        );
    }

    /// Clicks the first element matching `css` as a user would.
    pub fn click(&self, css: &str) {
        // The page redraws the board on its events (clocks, the engine's line), so the element
        // found may be replaced before the click lands: find it again, as a user's next click
        // would.
        for _ in 0..10 {
            let found = self.session_call(
                "POST",
                "/element",
                json!({"using": "css selector", "value": css}),
            );
            let element = found[ELEMENT_KEY]
                .as_str()
                .unwrap_or_else(|| panic!("no element `{css}`: {found}"))
                .to_string();
            let path = format!("/session/{}/element/{element}/click", self.session);
            match self.call("POST", &path, Some(json!({}))) {
                Ok(_) => return,
                Err(error) if error.contains("stale element reference") => continue,
                Err(error) => panic!("WebDriver POST {path}: {error}"),
            }
        }
        panic!("`{css}` was redrawn under every one of 10 clicks");
    }

    /// Presses and releases each of `keys` in turn on the focused element (WebDriver key
    /// codes: `\u{E012}` to `\u{E015}` the arrows left, up, right, down; `\u{E007}` Enter).
    pub fn press_keys(&self, keys: &[char]) {
        let actions: Vec<Value> = keys
            .iter()
            .flat_map(|key| {
                [
                    json!({"type": "keyDown", "value": key.to_string()}),
                    json!({"type": "keyUp", "value": key.to_string()}),
                ]
            })
            .collect();
        self.session_call(
            "POST",
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]}),
        );
    }

    /// Resizes the browser window to `width` x `height` CSS pixels.
    pub fn set_window_size(&self, width: u32, height: u32) {
        self.session_call(
            "POST",
            "/window/rect",
            json!({"width": width, "height": height}),
        );
    }

    /// The visible page as PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        decode_base64(&self.screenshot_base64())
    }

    /// The visible page as PNG, in base64.
    pub fn screenshot_base64(&self) -> String {
        let png = self
            .call(
                "GET",
                &format!("/session/{}/screenshot", self.session),
                None,
            )
            .expect("a screenshot");
        png.as_str().expect("base64 text").to_string()
    }

    fn session_call(&self, method: &str, path: &str, body: Value) -> Value {
        let path = format!("/session/{}{path}", self.session);
        self.call(method, &path, Some(body))
            .unwrap_or_else(|error| panic!("WebDriver {method} {path}: {error}"))
    }

    /// One WebDriver command: the `value` of its answer, or the error it reports.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let body = body.map(|body| body.to_string()).unwrap_or_default();
        let mut stream =
            TcpStream::connect(("127.0.0.1", self.port)).map_err(|error| error.to_string())?;
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        )
        .map_err(|error| error.to_string())?;
        let content = read_response(&mut stream)?;
        let answer: Value = serde_json::from_str(&content).map_err(|error| error.to_string())?;
        let value = answer["value"].clone();
        // An error answer is an object with `error`, `message` and `stacktrace`.
        match (value.get("error"), value.get("stacktrace")) {
            (Some(error), Some(_)) => Err(format!("{error}: {}", value["message"])),
            _ => Ok(value),
        }
    }
}

impl Drop for WebDriver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.call("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn path_text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The body of an HTTP response, read by its `Content-Length` (chromedriver keeps the
/// connection open whatever the request asks) or, when chunked, to its last chunk.
fn read_response(stream: &mut TcpStream) -> Result<String, String> {
    let mut received = Vec::new();
    let mut buffer = [0; 16 * 1024];
    loop {
        let read = stream
            .read(&mut buffer)
            .map_err(|error| error.to_string())?;
        received.extend_from_slice(&buffer[..read]);
        let text = String::from_utf8_lossy(&received);
        if let Some((head, content)) = text.split_once("\r\n\r\n") {
            let head = head.to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|length| length.trim().parse::<usize>().ok());
            match length {
                Some(length) if content.len() >= length => return Ok(content[..length].to_string()),
                None if head.contains("transfer-encoding: chunked")
                    && content.ends_with("0\r\n\r\n") =>
                {
                    return Ok(dechunk(content))
                }
                None if read == 0 => return Ok(content.to_string()),
                _ => {}
            }
        }
        if read == 0 {
            return Err("the connection closed before the whole response".into());
        }
    }
}

/// The body of a chunked HTTP response.
fn dechunk(mut text: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = text.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        text = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// Standard base64 (padding and line breaks ignored).
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |byte: u8| -> Option<u32> {
        Some(match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let digits: Vec<u32> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0u32, |bits, (i, digit)| bits | digit << (18 - 6 * i));
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

#[test]
fn base64_decodes_every_padding() {
    assert_eq!(decode_base64("TWFu"), b"Man");
    assert_eq!(decode_base64("TWE="), b"Ma");
    assert_eq!(decode_base64("TQ=="), b"M");
    assert_eq!(decode_base64("aGVs\nbG8="), b"hello");
}
