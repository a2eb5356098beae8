//! Just enough HTTP/1.1 for one page on loopback: read a request (request line, headers, a body
//! by `Content-Length`), write a whole response, or open a server-sent-events stream. Every
//! response but an event stream closes its connection.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;

/// Largest request head (request line and headers) accepted, in bytes.
const MAX_HEAD: usize = 16 * 1024;
/// Largest request body accepted, in bytes.
const MAX_BODY: usize = 64 * 1024;

/// A request as the server needs it.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path without the query, e.g. `/command`.
    pub path: String,
    /// The query string after `?`, empty when there is none.
    pub query: String,
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
}

/// Why a request could not be read; the text is what a `400` response says.
#[derive(Debug, PartialEq, Eq)]
pub struct BadRequest(pub String);

/// Reads one request from `reader`. An I/O error or a malformed or oversized request is a
/// [`BadRequest`].
pub fn read_request(reader: &mut impl Read) -> Result<Request, BadRequest> {
    let mut reader = BufReader::new(reader.take((MAX_HEAD + MAX_BODY) as u64));
    let mut head_size = 0;
    let mut line = String::new();
    let mut next_line = |reader: &mut BufReader<_>| -> Result<String, BadRequest> {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .map_err(|error| BadRequest(format!("cannot read the request: {error}")))?;
        head_size += read;
        if read == 0 || head_size > MAX_HEAD {
            return Err(BadRequest("incomplete or oversized request head".into()));
        }
        Ok(line.trim_end_matches(['\r', '\n']).to_string())
    };
    let request_line = next_line(&mut reader)?;
    let mut words = request_line.split_whitespace();
    let (Some(method), Some(target), Some(_version)) = (words.next(), words.next(), words.next())
    else {
        return Err(BadRequest(format!("bad request line `{request_line}`")));
    };
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let (method, path, query) = (method.to_string(), path.to_string(), query.to_string());
    let mut length = 0;
    loop {
        let header = next_line(&mut reader)?;
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value
                    .trim()
                    .parse()
                    .map_err(|_| BadRequest(format!("bad Content-Length `{}`", value.trim())))?;
            }
        }
    }
    if length > MAX_BODY {
        return Err(BadRequest(format!(
            "body of {length} bytes (at most {MAX_BODY})"
        )));
    }
    let mut body = vec![0; length];
    reader
        .read_exact(&mut body)
        .map_err(|error| BadRequest(format!("cannot read the body: {error}")))?;
    Ok(Request {
        method,
        path,
        query,
        body,
    })
}

/// Writes a whole response and leaves the connection to be closed.
pub fn respond(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
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

    #[test]
    fn refuses_garbage_and_oversized_requests() {
        assert!(read_request(&mut "hello\r\n\r\n".as_bytes()).is_err());
        assert!(read_request(&mut "".as_bytes()).is_err());
        let huge = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD));
        assert!(read_request(&mut huge.as_bytes()).is_err());
        let long_body = "POST / HTTP/1.1\r\nContent-Length: 999999\r\n\r\n";
        assert!(read_request(&mut long_body.as_bytes()).is_err());
        let short_body = "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc";
        assert!(read_request(&mut short_body.as_bytes()).is_err());
    }
}
