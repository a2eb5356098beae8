//! Just enough HTTP/1.1 for one page on loopback: read a request (request line, headers, a body
//! by `Content-Length`) within bounds, write a whole response, or open a server-sent-events
//! stream. Every response but an event stream closes its connection.
//!
//! [`read_request`] takes any reader and never panics or allocates without bound: the head is
//! read through a limit of [`MAX_HEAD`] bytes, at most [`MAX_HEADERS`] header lines are kept,
//! and a body is allocated only after its length was checked against [`MAX_BODY`]. A deadline
//! for the whole request is the reader's business ([`DeadlineReader`]).

use std::io::{self, BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::Instant;

/// Largest request head (request line and headers, line ends included) accepted, in bytes:
/// room for a browser's headers with a few cookies other local pages left for `localhost`.
pub const MAX_HEAD: usize = 16 * 1024;
/// Most header lines a request may have; a browser sends about 15.
pub const MAX_HEADERS: usize = 64;
/// Largest request body accepted, in bytes; a command is well under 1 KiB.
pub const MAX_BODY: usize = 64 * 1024;

/// A request as the server needs it.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path without the query, e.g. `/command`.
    pub path: String,
    /// The query string after `?`, empty when there is none.
    pub query: String,
    /// The `Host` header: the authority the client addressed, e.g. `localhost:8080`.
    pub host: Option<String>,
    /// The `Origin` header: which page sent the request, e.g. `http://localhost:8080`.
    pub origin: Option<String>,
    /// The `Content-Type` header, e.g. `application/json`.
    pub content_type: Option<String>,
    /// The body (empty without `Content-Length`).
    pub body: Vec<u8>,
}

impl Request {
    /// The value of `name` in the query string (`a=1&b=2`), undecoded.
    pub fn query_value(&self, name: &str) -> Option<&str> {
        self.query
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value)
    }

    /// Whether the body is declared JSON (`application/json`, parameters allowed).
    pub fn is_json(&self) -> bool {
        self.content_type.as_deref().is_some_and(|content_type| {
            let media_type = content_type.split(';').next().unwrap_or_default();
            media_type.trim().eq_ignore_ascii_case("application/json")
        })
    }
}

/// Why a request could not be read: the status line to answer with (`400 Bad Request`,
/// `408 Request Timeout`, `413 Content Too Large`, `431 Request Header Fields Too Large`,
/// `501 Not Implemented`) and what the answer says.
#[derive(Debug, PartialEq, Eq)]
pub struct BadRequest {
    pub status: &'static str,
    pub message: String,
}

impl BadRequest {
    fn new(status: &'static str, message: impl Into<String>) -> BadRequest {
        BadRequest {
            status,
            message: message.into(),
        }
    }

    fn malformed(message: impl Into<String>) -> BadRequest {
        BadRequest::new("400 Bad Request", message)
    }

    /// A read that failed: too slow (the reader's deadline passed) or broken.
    fn io(what: &str, error: &io::Error) -> BadRequest {
        match error.kind() {
            ErrorKind::TimedOut | ErrorKind::WouldBlock => BadRequest::new(
                "408 Request Timeout",
                format!("{what} did not arrive in time"),
            ),
            _ => BadRequest::malformed(format!("cannot read {what}: {error}")),
        }
    }
}

/// Reads one request from `reader`. An I/O error, a malformed request or one over the limits
/// ([`MAX_HEAD`], [`MAX_HEADERS`], [`MAX_BODY`]) is a [`BadRequest`]. Reads no further than
/// the body's end, apart from what its buffer holds.
pub fn read_request(reader: &mut impl Read) -> Result<Request, BadRequest> {
    let mut reader = BufReader::new(reader);
    let (request_line, headers) = read_head(&mut reader)?;
    let mut words = request_line.split_whitespace();
    let (Some(method), Some(target), Some(_version), None) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(BadRequest::malformed(format!(
            "bad request line `{}`",
            request_line.escape_debug()
        )));
    };
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut request = Request {
        method: method.to_string(),
        path: path.to_string(),
        query: query.to_string(),
        host: None,
        origin: None,
        content_type: None,
        body: Vec::new(),
    };
    let mut length = None;
    for header in headers {
        // A name with white space (or a folded line) could be read otherwise by a proxy.
        let Some((name, value)) = header
            .split_once(':')
            .filter(|(name, _)| !name.is_empty() && !name.contains(|c: char| c.is_whitespace()))
        else {
            return Err(BadRequest::malformed("a header line without `name:`"));
        };
        let value = value.trim();
        let field = match name.to_ascii_lowercase().as_str() {
            "host" => &mut request.host,
            "origin" => &mut request.origin,
            "content-type" => &mut request.content_type,
            "content-length" => {
                let parsed = value
                    .bytes()
                    .all(|byte| byte.is_ascii_digit())
                    .then(|| value.parse::<usize>().ok())
                    .flatten()
                    .ok_or_else(|| {
                        BadRequest::malformed(format!(
                            "bad Content-Length `{}`",
                            value.escape_debug()
                        ))
                    })?;
                if length.replace(parsed).is_some_and(|first| first != parsed) {
                    return Err(BadRequest::malformed("two different Content-Lengths"));
                }
                continue;
            }
            "transfer-encoding" => {
                return Err(BadRequest::new(
                    "501 Not Implemented",
                    "a body must come with a Content-Length, not a Transfer-Encoding",
                ))
            }
            _ => continue,
        };
        if field.replace(value.to_string()).is_some() {
            return Err(BadRequest::malformed(format!("two {name} headers")));
        }
    }
    let length = length.unwrap_or(0);
    if length > MAX_BODY {
        return Err(BadRequest::new(
            "413 Content Too Large",
            format!("a body of {length} bytes (at most {MAX_BODY})"),
        ));
    }
    request.body = vec![0; length];
    reader
        .read_exact(&mut request.body)
        .map_err(|error| BadRequest::io("the body", &error))?;
    Ok(request)
}

/// Reads the head up to its blank line: the request line and the header lines, line ends
/// removed (blank lines before the request line are skipped, as RFC 9112 allows).
fn read_head(reader: &mut impl BufRead) -> Result<(String, Vec<String>), BadRequest> {
    let mut limited = reader.take(MAX_HEAD as u64);
    let mut line = Vec::new();
    let request_line = loop {
        let text = next_line(&mut limited, &mut line)?;
        if !text.is_empty() {
            break String::from_utf8_lossy(text).into_owned();
        }
    };
    let mut headers = Vec::new();
    loop {
        let text = next_line(&mut limited, &mut line)?;
        if text.is_empty() {
            return Ok((request_line, headers));
        }
        if headers.len() == MAX_HEADERS {
            return Err(head_too_large());
        }
        headers.push(String::from_utf8_lossy(text).into_owned());
    }
}

/// The next line of the head in `line`, without its line end (`\r\n` or `\n`).
fn next_line<'a>(
    limited: &mut io::Take<impl BufRead>,
    line: &'a mut Vec<u8>,
) -> Result<&'a [u8], BadRequest> {
    line.clear();
    limited
        .read_until(b'\n', line)
        .map_err(|error| BadRequest::io("the request head", &error))?;
    match line.strip_suffix(b"\n") {
        Some(text) => Ok(text.strip_suffix(b"\r").unwrap_or(text)),
        None if limited.limit() == 0 => Err(head_too_large()),
        None => Err(BadRequest::malformed(
            "the request head ends before its blank line",
        )),
    }
}

fn head_too_large() -> BadRequest {
    BadRequest::new(
        "431 Request Header Fields Too Large",
        format!("a request head over {MAX_HEAD} bytes or {MAX_HEADERS} headers"),
    )
}

/// Reads from a connection until `deadline`, then fails with [`ErrorKind::TimedOut`]: a
/// request must arrive whole by then, however slowly its bytes trickle.
pub struct DeadlineReader<'a> {
    pub stream: &'a TcpStream,
    pub deadline: Instant,
}

impl Read for DeadlineReader<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buffer)
    }
}

/// Writes a whole response and leaves the connection to be closed.
pub fn respond(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
) -> io::Result<()> {
    respond_with(stream, status, content_type, "", body)
}

/// [`respond`] with `headers` added: whole header lines, each ending in `\r\n`.
pub fn respond_with(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    headers: &str,
    body: &[u8],
) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         {headers}Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

/// Starts a server-sent-events response: after this, [`send_event`] writes events.
pub fn start_event_stream(stream: &mut TcpStream) -> io::Result<()> {
    stream.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
          Connection: keep-alive\r\n\r\n",
    )?;
    stream.flush()
}

/// Writes one event whose data is `json` (one line: JSON text has no raw newlines).
pub fn send_event(stream: &mut TcpStream, json: &str) -> io::Result<()> {
    stream.write_all(format!("data: {json}\n\n").as_bytes())?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_post_with_its_body() {
        let text = "POST /command?session=12&x=y HTTP/1.1\r\nHost: a\r\ncontent-length: 4\r\n\r\nabcdEXTRA";
        let request = read_request(&mut text.as_bytes()).unwrap();
        assert_eq!(request.method, "POST");
        assert_eq!(request.path, "/command");
        assert_eq!(request.query_value("session"), Some("12"));
        assert_eq!(request.query_value("x"), Some("y"));
        assert_eq!(request.query_value("z"), None);
        assert_eq!(request.body, b"abcd");
    }

    fn status(text: &[u8]) -> &'static str {
        match read_request(&mut &text[..]) {
            Ok(_) => "ok",
            Err(bad) => bad.status,
        }
    }

    #[test]
    fn reads_the_headers_the_server_checks() {
        let text =
            "POST /command HTTP/1.1\r\nHOST: localhost:8080\r\nOrigin:http://localhost:8080\r\n\
                    Content-Type: application/json; charset=utf-8\r\n\r\n";
        let request = read_request(&mut text.as_bytes()).unwrap();
        assert_eq!(request.host.as_deref(), Some("localhost:8080"));
        assert_eq!(request.origin.as_deref(), Some("http://localhost:8080"));
        assert!(request.is_json());
        assert!(request.body.is_empty());
        let form = "POST / HTTP/1.1\r\nContent-Type: text/plain\r\n\r\n";
        assert!(!read_request(&mut form.as_bytes()).unwrap().is_json());
    }

    #[test]
    fn refuses_garbage_and_oversized_requests() {
        assert_eq!(status(b"hello\r\n\r\n"), "400 Bad Request");
        assert_eq!(status(b""), "400 Bad Request");
        assert_eq!(status(b"GET / HTTP/1.1\r\nHost: a\r\n"), "400 Bad Request");
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nno colon\r\n\r\n"),
            "400 Bad Request"
        );
        assert_eq!(status(b"GET / HTTP/1.1 extra\r\n\r\n"), "400 Bad Request");
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nHost : a\r\n\r\n"),
            "400 Bad Request"
        );
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n"),
            "400 Bad Request"
        );
        let huge = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(
            status(huge.as_bytes()),
            "431 Request Header Fields Too Large"
        );
        let endless_line = vec![b'a'; 10 * MAX_HEAD];
        assert_eq!(status(&endless_line), "431 Request Header Fields Too Large");
        let blank_lines = vec![b'\n'; 10 * MAX_HEAD];
        assert_eq!(status(&blank_lines), "431 Request Header Fields Too Large");
        let many = format!(
            "GET / HTTP/1.1\r\n{}\r\n",
            "X: y\r\n".repeat(MAX_HEADERS + 1)
        );
        assert_eq!(
            status(many.as_bytes()),
            "431 Request Header Fields Too Large"
        );
        let enough = format!("GET / HTTP/1.1\r\n{}\r\n", "X: y\r\n".repeat(MAX_HEADERS));
        assert_eq!(status(enough.as_bytes()), "ok");
        let long_body = "POST / HTTP/1.1\r\nContent-Length: 999999\r\n\r\n";
        assert_eq!(status(long_body.as_bytes()), "413 Content Too Large");
        let vast_body = "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n";
        assert_eq!(status(vast_body.as_bytes()), "400 Bad Request");
        let short_body = "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc";
        assert_eq!(status(short_body.as_bytes()), "400 Bad Request");
        for bad_length in ["+3", "-1", "3 3", ""] {
            let text = format!("POST / HTTP/1.1\r\nContent-Length: {bad_length}\r\n\r\nabc");
            assert_eq!(status(text.as_bytes()), "400 Bad Request", "{bad_length}");
        }
        let two_lengths = "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab";
        assert_eq!(status(two_lengths.as_bytes()), "400 Bad Request");
        let two_hosts = "GET / HTTP/1.1\r\nHost: localhost:1\r\nHost: evil.example\r\n\r\n";
        assert_eq!(status(two_hosts.as_bytes()), "400 Bad Request");
        let chunked = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
        assert_eq!(status(chunked.as_bytes()), "501 Not Implemented");
        assert_eq!(status(b"GET / HTTP/1.1\r\nX: \xff\xfe\r\n\r\n"), "ok");
    }

    /// A reader that hands out its bytes and then times out, as a socket past its deadline.
    struct Stalling<'a>(&'a [u8]);

    impl Read for Stalling<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(ErrorKind::TimedOut.into());
            }
            let read = self.0.read(&mut buffer[..1])?;
            Ok(read)
        }
    }

    #[test]
    fn a_request_that_stalls_times_out() {
        for text in [
            &b"GET / HTTP/1.1\r\nHost: a"[..],
            b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab",
        ] {
            let bad = read_request(&mut Stalling(text)).unwrap_err();
            assert_eq!(bad.status, "408 Request Timeout");
        }
    }
}
