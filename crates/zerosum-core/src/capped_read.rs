//! Reading files and streams with a stated cap: on the bytes of a file, and, line by line, on
//! each line, so that no input (a huge file, a device such as `/dev/zero`, a pipe that never
//! ends a line) makes zerosum hold more than the cap. Every file zerosum reads is read through
//! here; a file past its cap is refused with an error that says so, before it is read whole
//! where its size is known (a regular file), and at the first byte past the cap where it is not.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

/// A byte count in the largest binary unit that divides it (`16 MiB`), else in bytes.
pub fn size_text(bytes: u64) -> String {
    const UNITS: [(u32, &str); 3] = [(30, "GiB"), (20, "MiB"), (10, "KiB")];
    for (shift, unit) in UNITS {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

/// What went wrong reading capped input.
#[derive(Debug)]
pub enum ReadProblem {
    /// The system's error (no such file, permission denied...).
    Io(io::Error),
    /// More bytes than the cap.
    TooLarge { cap: u64 },
    /// A line (counted from 1) longer than its cap, its end not counted.
    LineTooLong { line: u64, cap: u64 },
    /// Bytes that are not UTF-8 where text is read.
    NotText,
}

impl fmt::Display for ReadProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadProblem::Io(error) => write!(f, "{error}"),
            ReadProblem::TooLarge { cap } => {
                write!(f, "the file is larger than {}, the limit", size_text(*cap))
            }
            ReadProblem::LineTooLong { line, cap } => write!(
                f,
                "line {line} is longer than {}, the limit",
                size_text(*cap)
            ),
            ReadProblem::NotText => write!(f, "not UTF-8 text"),
        }
    }
}

impl ReadProblem {
    /// The problem an I/O error of a [`CappedReader`] stands for.
    pub fn from_io(error: io::Error) -> ReadProblem {
        match error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<CapExceeded>())
        {
            Some(exceeded) => ReadProblem::TooLarge { cap: exceeded.0 },
            None => ReadProblem::Io(error),
        }
    }
}

/// A file that could not be read within its cap: `PATH: PROBLEM`.
#[derive(Debug)]
pub struct CappedReadError {
    pub path: PathBuf,
    pub problem: ReadProblem,
}

impl fmt::Display for CappedReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.problem)
    }
}

impl std::error::Error for CappedReadError {}

impl CappedReadError {
    /// `problem` with the file at `path`.
    pub fn new(path: &Path, problem: ReadProblem) -> CappedReadError {
        CappedReadError {
            path: path.to_path_buf(),
            problem,
        }
    }
}

/// The I/O error a [`CappedReader`] gives once its input goes past the cap.
#[derive(Debug)]
struct CapExceeded(u64);

impl fmt::Display for CapExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the input is larger than {}, the limit",
            size_text(self.0)
        )
    }
}

impl std::error::Error for CapExceeded {}

/// A reader that gives at most `cap` bytes of its input, and an error (see
/// [`ReadProblem::from_io`]) rather than end of input when the input holds more.
#[derive(Debug)]
pub struct CappedReader<R> {
    input: R,
    cap: u64,
    left: u64,
}

impl<R: Read> CappedReader<R> {
    /// At most `cap` bytes of `input`.
    pub fn new(input: R, cap: u64) -> Self {
        CappedReader {
            input,
            cap,
            left: cap,
        }
    }
}

impl<R: Read> Read for CappedReader<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        if buffer.is_empty() {
            return Ok(0);
        }
        if self.left == 0 {
            // At the cap: the input must end here.
            return match self.input.read(&mut [0])? {
                0 => Ok(0),
                _ => Err(io::Error::other(CapExceeded(self.cap))),
            };
        }
        let wanted = buffer
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let read = self.input.read(&mut buffer[..wanted])?;
        self.left -= read as u64;
        Ok(read)
    }
}

/// Opens `path` to read at most `cap` bytes of it: a regular file larger than that is refused
/// at once; any other (a device, a pipe) when the cap is passed.
pub fn open_file(path: &Path, cap: u64) -> Result<CappedReader<File>, CappedReadError> {
    let error = |problem| CappedReadError::new(path, problem);
    let file = File::open(path).map_err(|e| error(ReadProblem::Io(e)))?;
    let metadata = file.metadata().map_err(|e| error(ReadProblem::Io(e)))?;
    if metadata.is_file() && metadata.len() > cap {
        return Err(error(ReadProblem::TooLarge { cap }));
    }
    Ok(CappedReader::new(file, cap))
}

/// The bytes of the file at `path`, at most `cap` of them (see [`open_file`]).
pub fn read_file(path: &Path, cap: u64) -> Result<Vec<u8>, CappedReadError> {
    let mut reader = open_file(path, cap)?;
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|e| CappedReadError::new(path, ReadProblem::from_io(e)))?;
    Ok(bytes)
}

/// The text of the file at `path`, at most `cap` bytes of UTF-8.
pub fn read_text_file(path: &Path, cap: u64) -> Result<String, CappedReadError> {
    String::from_utf8(read_file(path, cap)?)
        .map_err(|_| CappedReadError::new(path, ReadProblem::NotText))
}

/// One line of [`CappedLines`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line's bytes, without its LF (a CR before it is kept).
    pub bytes: Vec<u8>,
    /// The line ended with an LF (the last line of an input may not).
    pub ended: bool,
}

/// The lines of a stream (ended by LF), each at most `max_line` bytes: a longer line is an
/// error as soon as it is that long, so no line is held past its cap.
#[derive(Debug)]
pub struct CappedLines<R> {
    input: R,
    max_line: u64,
    /// Lines read so far.
    count: u64,
}

impl<R: BufRead> CappedLines<R> {
    /// The lines of `input`, each at most `max_line` bytes.
    pub fn new(input: R, max_line: u64) -> Self {
        CappedLines {
            input,
            max_line,
            count: 0,
        }
    }

    /// Lines read so far (the number of the last one).
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The next line, `None` at the end of the input.
    pub fn next_line(&mut self) -> Result<Option<Line>, ReadProblem> {
        let mut bytes = Vec::new();
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) => buffer,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(ReadProblem::from_io(error)),
            };
            if buffer.is_empty() {
                if bytes.is_empty() {
                    return Ok(None);
                }
                self.count += 1;
                return Ok(Some(Line {
                    bytes,
                    ended: false,
                }));
            }
            let end = buffer.iter().position(|&b| b == b'\n');
            let taken = end.unwrap_or(buffer.len());
            if (bytes.len() + taken) as u64 > self.max_line {
                return Err(ReadProblem::LineTooLong {
                    line: self.count + 1,
                    cap: self.max_line,
                });
            }
            bytes.extend_from_slice(&buffer[..taken]);
            match end {
                Some(at) => {
                    self.input.consume(at + 1);
                    self.count += 1;
                    return Ok(Some(Line { bytes, ended: true }));
                }
                None => self.input.consume(taken),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max_line: u64) -> Result<Vec<Line>, ReadProblem> {
        let mut lines = CappedLines::new(input, max_line);
        let mut all = Vec::new();
        while let Some(line) = lines.next_line()? {
            all.push(line);
        }
        Ok(all)
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(size_text(16 << 20), "16 MiB");
        assert_eq!(size_text(4 << 30), "4 GiB");
        assert_eq!(size_text(64 << 10), "64 KiB");
        assert_eq!(size_text(1536), "1536 bytes");
    }

    #[test]
    fn a_capped_reader_refuses_the_byte_past_its_cap() {
        let mut exact = Vec::new();
        CappedReader::new(&b"12345"[..], 5)
            .read_to_end(&mut exact)
            .unwrap();
        assert_eq!(exact, b"12345");
        let error = CappedReader::new(&b"123456"[..], 5)
            .read_to_end(&mut Vec::new())
            .unwrap_err();
        assert!(matches!(
            ReadProblem::from_io(error),
            ReadProblem::TooLarge { cap: 5 }
        ));
    }

    #[test]
    fn a_device_that_never_ends_is_refused_at_its_cap() {
        let error = read_file(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(
            error.to_string(),
            "/dev/zero: the file is larger than 1 MiB, the limit"
        );
        let mut zeros = CappedLines::new(io::BufReader::new(io::repeat(0)), 1000);
        assert!(matches!(
            zeros.next_line(),
            Err(ReadProblem::LineTooLong { line: 1, cap: 1000 })
        ));
    }

    #[test]
    fn lines_end_with_lf_and_the_last_may_not() {
        let read = lines(b"a\r\nb\n\nc", 10).unwrap();
        let ended: Vec<(&[u8], bool)> = read.iter().map(|l| (&l.bytes[..], l.ended)).collect();
        assert_eq!(
            ended,
            [
                (&b"a\r"[..], true),
                (b"b", true),
                (b"", true),
                (b"c", false)
            ]
        );
        assert!(lines(b"0123456789\n", 10).is_ok());
        assert!(matches!(
            lines(b"ok\n0123456789x\n", 10),
            Err(ReadProblem::LineTooLong { line: 2, cap: 10 })
        ));
    }
}
