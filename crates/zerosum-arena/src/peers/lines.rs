//! Lines from a peer (an engine's standard output, a network client, the game server), read on
//! a thread of their own so that every wait for one has a deadline and can be cut short by a
//! stop flag, and so that no peer can make us hold more than a fixed number of its bytes.
//!
//! The budget: between two of our requests (see [`Lines::asked`]) a peer may send at most
//! [`MAX_PEER_BYTES`] bytes in at most [`MAX_PEER_LINES`] lines, each at most
//! [`MAX_PEER_LINE_BYTES`] long, and we never hold more than that of its unread lines. A peer
//! that goes over is flooding: the reader drops what it holds, stops reading (the peer's
//! writes block once the pipe or socket buffer is full) and every later wait for a line
//! reports the [`Flood`] at once, ahead of any line still unread.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, ErrorKind, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// Longest line accepted from a peer, in bytes, its end not counted: 1 MiB. Far above any
/// honest line (a GTP `showboard` row of a 100x100 board is about 300 bytes, a long `info` or
/// debug line a few kilobytes).
pub const MAX_PEER_LINE_BYTES: usize = 1 << 20;
/// Most bytes (line ends included) a peer may send between two of our requests, and most
/// bytes of its unread lines we hold: 16 MiB. A whole GTP `showboard` of a 100x100 board is
/// about 30 kB.
pub const MAX_PEER_BYTES: usize = 16 << 20;
/// Most lines a peer may send between two of our requests (or leave unread): 10,000. An
/// honest reply is one line, or a few hundred for a board; messages while thinking a few
/// dozen.
pub const MAX_PEER_LINES: usize = 10_000;

/// How often a wait looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(5);

/// How a peer went over its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flood {
    /// A line longer than [`MAX_PEER_LINE_BYTES`].
    LongLine,
    /// More than [`MAX_PEER_BYTES`].
    Bytes,
    /// More than [`MAX_PEER_LINES`].
    Lines,
}

/// A byte count in the largest binary unit that divides it (`16 MiB`), else in bytes.
fn size(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b.is_multiple_of(1 << 20) => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b.is_multiple_of(1 << 10) => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// A count with a comma between thousands (`10,000`).
fn thousands(count: usize) -> String {
    let digits = count.to_string();
    let mut grouped = String::new();
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

impl fmt::Display for Flood {
    /// What the peer did, as the predicate of a sentence: `sent more than 16 MiB`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Flood::LongLine => write!(f, "sent a line longer than {}", size(MAX_PEER_LINE_BYTES)),
            Flood::Bytes => write!(f, "sent more than {}", size(MAX_PEER_BYTES)),
            Flood::Lines => write!(f, "sent {} lines", thousands(MAX_PEER_LINES)),
        }
    }
}

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoLine {
    /// The deadline passed, or the stop flag was raised.
    Late,
    /// The other end closed (a process died, a client disconnected) and every line it sent
    /// has been taken.
    Gone,
    /// The peer went over its budget.
    Flood(Flood),
}

/// What the reading thread and the reader of lines share.
#[derive(Default)]
struct State {
    /// Lines read and not yet taken.
    unread: VecDeque<String>,
    /// Their bytes.
    unread_bytes: usize,
    /// Bytes (line ends included) and lines read since the last request.
    bytes_since_asked: usize,
    lines_since_asked: usize,
    flood: Option<Flood>,
    /// The input has ended (or failed).
    ended: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    arrived: Condvar,
    /// The [`Lines`] is gone: the reading thread may stop.
    dropped: AtomicBool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Files one line; false when the reading thread should stop (a flood, or nobody left to
    /// read).
    fn push(&self, bytes: &[u8], too_long: bool) -> bool {
        let mut state = self.lock();
        let mut flood = too_long.then_some(Flood::LongLine);
        state.bytes_since_asked += bytes.len() + 1;
        state.lines_since_asked += 1;
        if state.bytes_since_asked > MAX_PEER_BYTES
            || state.unread_bytes + bytes.len() > MAX_PEER_BYTES
        {
            flood = flood.or(Some(Flood::Bytes));
        }
        if state.lines_since_asked > MAX_PEER_LINES || state.unread.len() >= MAX_PEER_LINES {
            flood = flood.or(Some(Flood::Lines));
        }
        if flood.is_some() {
            state.flood = flood;
            state.unread = VecDeque::new();
            state.unread_bytes = 0;
        } else {
            let text = String::from_utf8_lossy(bytes).into_owned();
            state.unread_bytes += text.len();
            state.unread.push_back(text);
        }
        drop(state);
        self.arrived.notify_all();
        flood.is_none() && !self.dropped.load(Ordering::Relaxed)
    }

    fn end(&self) {
        self.lock().ended = true;
        self.arrived.notify_all();
    }
}

/// The lines of a byte stream from a peer.
pub(crate) struct Lines {
    shared: Arc<Shared>,
}

/// Reads `input` into `shared` until its end, a flood, or the [`Lines`] is dropped. Lines end
/// with LF, CR or CR LF; a line longer than [`MAX_PEER_LINE_BYTES`] is a flood as soon as it
/// is that long.
fn read_lines(input: impl Read, shared: &Shared) {
    let mut reader = BufReader::new(input);
    let mut line = Vec::new();
    // The last line ended with CR: an LF right after it belongs to that end.
    let mut after_cr = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok([]) => break,
            Ok(buffer) => buffer,
            Err(error) if error.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if after_cr && buffer[0] == b'\n' {
            after_cr = false;
            reader.consume(1);
            continue;
        }
        after_cr = false;
        let end = buffer.iter().position(|&b| b == b'\n' || b == b'\r');
        let taken = end.unwrap_or(buffer.len());
        if line.len() + taken > MAX_PEER_LINE_BYTES {
            shared.push(&[], true);
            return;
        }
        line.extend_from_slice(&buffer[..taken]);
        match end {
            Some(at) => {
                after_cr = buffer[at] == b'\r';
                reader.consume(at + 1);
                let keep_reading = shared.push(&line, false);
                line.clear();
                if !keep_reading {
                    return;
                }
            }
            None => reader.consume(taken),
        }
    }
    if !line.is_empty() && !shared.push(&line, false) {
        return;
    }
    shared.end();
}

impl Lines {
    /// Starts a thread (named `name`) reading `input` line by line. Lines may end with CR LF,
    /// LF or CR; bytes that are not UTF-8 are replaced; an empty line arrives as `""`.
    pub(crate) fn spawn(name: String, input: impl Read + Send + 'static) -> std::io::Result<Lines> {
        let shared = Arc::new(Shared::default());
        let reader = Arc::clone(&shared);
        thread::Builder::new()
            .name(name)
            .spawn(move || read_lines(input, &reader))?;
        Ok(Lines { shared })
    }

    /// Marks a request of ours to the peer: the budget of bytes and lines starts again.
    pub(crate) fn asked(&self) {
        let mut state = self.shared.lock();
        state.bytes_since_asked = 0;
        state.lines_since_asked = 0;
    }

    /// The next line if one is waiting, `None` if none is (yet). A flood or the end of the
    /// input comes as the error.
    pub(crate) fn try_next(&self) -> Result<Option<String>, NoLine> {
        match self.next(Some(Instant::now()), None) {
            Ok(line) => Ok(Some(line)),
            Err(NoLine::Late) => Ok(None),
            Err(other) => Err(other),
        }
    }

    /// The next line, waiting until `deadline` (forever with `None`) unless `stop` is raised.
    /// A flood is reported ahead of any unread line; the end of the input after them.
    pub(crate) fn next(
        &self,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> Result<String, NoLine> {
        let mut state = self.shared.lock();
        loop {
            if let Some(flood) = state.flood {
                return Err(NoLine::Flood(flood));
            }
            if let Some(line) = state.unread.pop_front() {
                state.unread_bytes -= line.len();
                return Ok(line);
            }
            if state.ended {
                return Err(NoLine::Gone);
            }
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(NoLine::Late);
            }
            let wait = match deadline {
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(NoLine::Late);
                    }
                    left.min(STOP_POLL)
                }
                None => STOP_POLL,
            };
            state = self
                .shared
                .arrived
                .wait_timeout(state, wait)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        self.shared.dropped.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &'static [u8]) -> Lines {
        Lines::spawn("test".into(), input).unwrap()
    }

    fn all(lines: &Lines) -> Result<Vec<String>, NoLine> {
        let mut seen = Vec::new();
        loop {
            match lines.next(None, None) {
                Ok(line) => seen.push(line),
                Err(NoLine::Gone) => return Ok(seen),
                Err(other) => return Err(other),
            }
        }
    }

    #[test]
    fn every_line_end_is_one_end() {
        let seen = all(&lines(b"a\r\nb\nc\rd\r\r\ne\xff")).unwrap();
        assert_eq!(seen, ["a", "b", "c", "d", "", "e\u{fffd}"]);
        assert_eq!(all(&lines(b"")).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn a_long_line_is_a_flood() {
        let mut input = b"ok\n".to_vec();
        input.extend(vec![b'x'; MAX_PEER_LINE_BYTES + 1]);
        let lines = Lines::spawn("test".into(), std::io::Cursor::new(input)).unwrap();
        // The flood comes first once it is known, even ahead of the unread `ok`.
        while lines.shared.lock().flood.is_none() {
            thread::sleep(STOP_POLL);
        }
        assert_eq!(all(&lines), Err(NoLine::Flood(Flood::LongLine)));
        let exact = vec![b'x'; MAX_PEER_LINE_BYTES];
        let lines = Lines::spawn("test".into(), std::io::Cursor::new(exact)).unwrap();
        assert_eq!(all(&lines).unwrap()[0].len(), MAX_PEER_LINE_BYTES);
    }

    #[test]
    fn too_many_bytes_or_lines_without_a_request_are_a_flood() {
        // Long enough lines that the bytes run out before the lines do.
        let line = vec![b'y'; 4000];
        let mut input = Vec::new();
        for _ in 0..=MAX_PEER_BYTES / 4000 {
            input.extend_from_slice(&line);
            input.push(b'\n');
        }
        let lines = Lines::spawn("test".into(), std::io::Cursor::new(input)).unwrap();
        assert!(
            matches!(all(&lines), Err(NoLine::Flood(Flood::Bytes))),
            "the unread lines or the lines since the request go over"
        );
        let many = "\n".repeat(MAX_PEER_LINES + 1);
        let lines = Lines::spawn("test".into(), std::io::Cursor::new(many)).unwrap();
        let mut taken = 0;
        let flood = loop {
            match lines.next(None, None) {
                Ok(_) => taken += 1,
                Err(other) => break other,
            }
        };
        assert_eq!(flood, NoLine::Flood(Flood::Lines));
        assert!(taken <= MAX_PEER_LINES);
    }

    #[test]
    fn a_request_renews_the_budget() {
        let (mut writer, reader) = std::os::unix::net::UnixStream::pair().unwrap();
        let lines = Lines::spawn("test".into(), reader).unwrap();
        use std::io::Write;
        for _ in 0..3 {
            lines.asked();
            writer
                .write_all("\n".repeat(MAX_PEER_LINES).as_bytes())
                .unwrap();
            for _ in 0..MAX_PEER_LINES {
                assert_eq!(lines.next(None, None).unwrap(), "");
            }
        }
        drop(writer);
        assert_eq!(lines.next(None, None), Err(NoLine::Gone));
    }

    #[test]
    fn budget_sizes_read_well() {
        assert_eq!(Flood::Bytes.to_string(), "sent more than 16 MiB");
        assert_eq!(Flood::LongLine.to_string(), "sent a line longer than 1 MiB");
        assert_eq!(Flood::Lines.to_string(), "sent 10,000 lines");
        assert_eq!(size(1536), "1536 bytes");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
