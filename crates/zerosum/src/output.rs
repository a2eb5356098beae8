//! Standard output and standard error, for every command: [`outln!`], [`out!`] and [`errln!`]
//! print as `println!`, `print!` and `eprintln!` do, and [`stdout`] is a locked standard output
//! for code that takes a writer; but a write that fails never panics (std's macros do: "failed
//! printing to stdout"), nor comes back as an error to pass up: it stops zerosum at once, as
//! [`crate::stopping`] says (a reader that closed the pipe, as `head` does, ends a listing with
//! status 0, and ends a run with its record whole and its engines ended). The crate's lints
//! refuse std's printing macros.

use std::fmt;
use std::io::{self, Write};

use crate::stopping::{output_failed, Stream};

/// Prints a line on standard output (see the module's documentation).
macro_rules! outln {
    () => {
        $crate::output::print($crate::stopping::Stream::Out, format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::print(
            $crate::stopping::Stream::Out,
            format_args!("{}\n", format_args!($($arg)*)),
        )
    };
}

/// Prints on standard output (see the module's documentation).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::print($crate::stopping::Stream::Out, format_args!($($arg)*))
    };
}

/// Prints a line on standard error (see the module's documentation).
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::print(
            $crate::stopping::Stream::Err,
            format_args!("{}\n", format_args!($($arg)*)),
        )
    };
}

/// Writes `text` to `stream`, stopping zerosum if that fails.
pub fn print(stream: Stream, text: fmt::Arguments<'_>) {
    let written = match stream {
        Stream::Out => io::stdout().lock().write_fmt(text),
        Stream::Err => io::stderr().lock().write_fmt(text),
    };
    if let Err(error) = written {
        output_failed(stream, &error);
    }
}

/// Standard output, whose failed writes stop zerosum (so they never return an error, though
/// the `Write` trait says they may).
pub fn stdout() -> Watched<io::Stdout> {
    Watched {
        inner: io::stdout(),
        stream: Stream::Out,
    }
}

/// Standard error, as [`stdout`].
pub fn stderr() -> Watched<io::Stderr> {
    Watched {
        inner: io::stderr(),
        stream: Stream::Err,
    }
}

/// A writer to standard output or error whose failures stop zerosum.
pub struct Watched<W> {
    inner: W,
    stream: Stream,
}

impl<W> Watched<W> {
    /// `result`, unless it is a failure other than an interrupted call: then zerosum stops.
    fn watch<T>(&self, result: io::Result<T>) -> io::Result<T> {
        match result {
            Err(error) if error.kind() != io::ErrorKind::Interrupted => {
                output_failed(self.stream, &error)
            }
            result => result,
        }
    }
}

impl<W: Write> Write for Watched<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(buf);
        self.watch(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        let flushed = self.inner.flush();
        self.watch(flushed)
    }

    /// One write of the whole text (std's standard streams hold their lock for it, so lines of
    /// several threads do not mix).
    fn write_fmt(&mut self, text: fmt::Arguments<'_>) -> io::Result<()> {
        let written = self.inner.write_fmt(text);
        self.watch(written)
    }
}
