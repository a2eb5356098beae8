//! Reading protocol input as lines of bytes: any line end, a cap on the length, lossy UTF-8.

use std::io::{self, BufRead};

/// Longest line a server accepts, in bytes (its end not counted): 1 MiB.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputLine {
    /// The line without its end; bytes that are not UTF-8 become U+FFFD.
    Text(String),
    /// A line longer than [`MAX_LINE_BYTES`], read to its end and dropped.
    TooLong,
}

/// Splits a byte stream into lines ended by LF, CR or CR LF (a last line may have no end).
/// Reading never buffers more than [`MAX_LINE_BYTES`] of one line.
#[derive(Debug)]
pub struct LineReader<R> {
    input: R,
    /// The last line ended with CR: an LF right after it belongs to that end.
    after_cr: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader at the start of `input`.
    pub fn new(input: R) -> Self {
        LineReader {
            input,
            after_cr: false,
        }
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<InputLine>> {
        let mut bytes = Vec::new();
        let mut too_long = false;
        let mut started = false;
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) => buffer,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if buffer.is_empty() {
                if !started {
                    return Ok(None);
                }
                break;
            }
            if self.after_cr {
                self.after_cr = false;
                if buffer[0] == b'\n' {
                    self.input.consume(1);
                    continue;
                }
            }
            started = true;
            let end = buffer.iter().position(|&b| b == b'\n' || b == b'\r');
            let taken = end.unwrap_or(buffer.len());
            if bytes.len() + taken > MAX_LINE_BYTES {
                too_long = true;
                bytes = Vec::new();
            } else if !too_long {
                bytes.extend_from_slice(&buffer[..taken]);
            }
            match end {
                Some(at) => {
                    self.after_cr = buffer[at] == b'\r';
                    self.input.consume(at + 1);
                    break;
                }
                None => self.input.consume(taken),
            }
        }
        Ok(Some(if too_long {
            InputLine::TooLong
        } else {
            InputLine::Text(String::from_utf8_lossy(&bytes).into_owned())
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<InputLine> {
        let mut reader = LineReader::new(io::BufReader::with_capacity(7, input));
        std::iter::from_fn(|| reader.next_line().unwrap()).collect()
    }

    fn text(s: &str) -> InputLine {
        InputLine::Text(s.to_string())
    }

    #[test]
    fn every_line_end_is_one_end() {
        assert_eq!(
            lines(b"a\r\nb\nc\rd\r\r\ne"),
            vec![
                text("a"),
                text("b"),
                text("c"),
                text("d"),
                text(""),
                text("e")
            ]
        );
        assert_eq!(lines(b""), vec![]);
        assert_eq!(lines(b"\n"), vec![text("")]);
    }

    #[test]
    fn bad_bytes_are_replaced_and_long_lines_dropped() {
        assert_eq!(lines(b"x\xffy\n"), vec![text("x\u{fffd}y")]);
        let mut long = vec![b'a'; MAX_LINE_BYTES + 1];
        long.extend_from_slice(b"\nok\n");
        assert_eq!(lines(&long), vec![InputLine::TooLong, text("ok")]);
        let exact = vec![b'a'; MAX_LINE_BYTES];
        assert_eq!(lines(&exact).len(), 1);
        assert_ne!(lines(&exact)[0], InputLine::TooLong);
    }
}
