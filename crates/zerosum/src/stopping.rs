//! How zerosum stops when it must stop now: on SIGINT (Ctrl-C), SIGTERM (`timeout`, Slurm's
//! `scancel`) or SIGHUP (the terminal closed), and when its standard output or error can no
//! longer be written (a reader such as `head` closed the pipe: see [`crate::output`]).
//!
//! Either way the stop is the same, for every command: no record line is written from then on
//! (a game under way is not recorded; a resume plays it), every external engine ends with what
//! it started (SIGTERM to its process group, SIGKILL after a grace: `zerosum_arena::shutdown`),
//! and the process exits:
//! - after a signal, by that signal (its default action, so that a shell or a job scheduler
//!   sees it: status 130 for Ctrl-C). While engines are being ended, a line on standard error
//!   says so, and a second signal ends them at once (SIGKILL) and exits;
//! - after a closed output, with status 0 for a command that reads and prints (as `grep | head`
//!   does: the reader has what it wanted) and 1 for one that plays or builds something
//!   ([`ClosedOutput::CutsShort`]: its work stopped unfinished), saying so on standard error
//!   when that is still open; any other write error is one error line and status 1.
//!
//! A signal whose disposition zerosum inherited as ignored (`nohup` ignores SIGHUP, a shell's
//! background job SIGINT) stays ignored.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU8, Ordering};

/// What a closed output means for the command running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClosedOutput {
    /// The command only reads and prints: its reader stopped reading, which is no failure.
    Ends,
    /// The command plays, serves or builds: its work stops unfinished, a failure.
    CutsShort,
}

/// The first stopping signal received (0 before any).
#[cfg(unix)]
static SIGNALLED: AtomicI32 = AtomicI32::new(0);
/// Raised by a second signal, or by a signal during a stop for another cause: stop at once.
static HURRY: AtomicBool = AtomicBool::new(false);
/// Raised when a stop begins.
static STOPPING: AtomicBool = AtomicBool::new(false);
/// The write end of the pipe that wakes the stopping thread (-1 before [`install`]).
#[cfg(unix)]
static WAKE: AtomicI32 = AtomicI32::new(-1);
/// What a closed output means now (a [`ClosedOutput`] as 0 or 1).
static CLOSED_OUTPUT: AtomicU8 = AtomicU8::new(0);

/// Sets up the stop for the command about to run: the signal handlers and the thread that
/// stops on a signal (on Unix), and what a closed output means. Called once, first thing.
pub fn install(closed: ClosedOutput) {
    CLOSED_OUTPUT.store(closed as u8, Ordering::SeqCst);
    #[cfg(unix)]
    signals::install();
}

/// Stops because writing `stream` failed with `error`: never returns.
pub fn output_failed(stream: Stream, error: &std::io::Error) -> ! {
    stop(Cause::Output {
        stream,
        closed: error.kind() == std::io::ErrorKind::BrokenPipe,
        error: error.to_string(),
    })
}

/// Standard output or standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Out,
    Err,
}

impl Stream {
    fn name(self) -> &'static str {
        match self {
            Stream::Out => "standard output",
            Stream::Err => "standard error",
        }
    }
}

/// Why zerosum stops.
enum Cause {
    #[cfg(unix)]
    Signal(libc::c_int),
    Output {
        stream: Stream,
        /// The reader closed it (a broken pipe), rather than another failure.
        closed: bool,
        error: String,
    },
}

/// Stops (see the module's documentation) and exits. Only the first caller stops: any other
/// waits for it to end the process.
fn stop(cause: Cause) -> ! {
    if STOPPING.swap(true, Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
    #[cfg(unix)]
    if let Cause::Signal(signal) = cause {
        let engines = zerosum_arena::shutdown::running_engines();
        if engines > 0 {
            let name = signals::name(signal);
            notice(&format!(
                "zerosum: {name}: ending {engines} engine{} (another {name} ends {} at once)\n",
                if engines == 1 { "" } else { "s" },
                if engines == 1 { "it" } else { "them" },
            ));
        }
    }
    zerosum_arena::shutdown::stop_everything(&HURRY);
    match cause {
        #[cfg(unix)]
        Cause::Signal(signal) => {
            if HURRY.load(Ordering::SeqCst) {
                notice("zerosum: stopped at once\n");
            }
            signals::die_by(signal)
        }
        Cause::Output {
            stream,
            closed,
            error,
        } => {
            let cut_short = CLOSED_OUTPUT.load(Ordering::SeqCst) == ClosedOutput::CutsShort as u8;
            if !closed {
                notice(&format!("error: cannot write {}: {error}\n", stream.name()));
            } else if cut_short && stream == Stream::Out {
                notice("error: standard output was closed (a broken pipe): stopped\n");
            }
            exit_now(i32::from(!closed || cut_short))
        }
    }
}

/// Ends the process at once with `status`, flushing nothing: a flush could block on the very
/// output that failed.
fn exit_now(status: i32) -> ! {
    #[cfg(unix)]
    // SAFETY: ends the process.
    unsafe {
        libc::_exit(status)
    }
    #[cfg(not(unix))]
    std::process::exit(status)
}

/// Writes `text` to standard error if it can take it now (see `signals::notice` on Unix).
#[cfg(not(unix))]
fn notice(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(text.as_bytes());
}

#[cfg(unix)]
use signals::notice;

/// Signals on Unix: the handlers, the thread they wake, and the end by a signal.
#[cfg(unix)]
mod signals {
    use std::io::Read;
    use std::os::fd::{AsRawFd, IntoRawFd};
    use std::sync::atomic::Ordering;

    use super::{stop, Cause, HURRY, SIGNALLED, STOPPING, WAKE};

    /// The signals that stop zerosum.
    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    /// Starts the stopping thread and catches [`SIGNALS`] (those not ignored).
    pub(super) fn install() {
        let Ok((reader, writer)) = std::io::pipe() else {
            return;
        };
        let started = std::thread::Builder::new()
            .name("stopping".into())
            .spawn(move || wait_for_signal(reader));
        if started.is_err() {
            return;
        }
        let wake = writer.into_raw_fd();
        // SAFETY: plain system calls: the pipe's write end never blocks the handler.
        unsafe {
            let flags = libc::fcntl(wake, libc::F_GETFL);
            libc::fcntl(wake, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
        WAKE.store(wake, Ordering::SeqCst);
        for signal in SIGNALS {
            // SAFETY: reads the current action, and replaces it (unless it ignores the signal)
            // with a handler that only touches atomics and writes to a pipe.
            unsafe {
                let mut current: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut current) != 0
                    || current.sa_sigaction == libc::SIG_IGN
                {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }

    /// The signal handler: notes the signal (a second one, or one during a stop, hurries the stop)
    /// and wakes the stopping thread.
    extern "C" fn on_signal(signal: libc::c_int) {
        let errno = Errno::save();
        if SIGNALLED.swap(signal, Ordering::SeqCst) != 0 || STOPPING.load(Ordering::SeqCst) {
            HURRY.store(true, Ordering::SeqCst);
        }
        let wake = WAKE.load(Ordering::SeqCst);
        if wake >= 0 {
            let byte = 1u8;
            // SAFETY: write(2) is async-signal-safe; the pipe is non-blocking.
            unsafe { libc::write(wake, (&raw const byte).cast(), 1) };
        }
        errno.restore();
    }

    /// The stopping thread: waits for a signal, then stops.
    fn wait_for_signal(mut reader: std::io::PipeReader) {
        let mut byte = [0u8];
        if reader.read_exact(&mut byte).is_ok() {
            stop(Cause::Signal(SIGNALLED.load(Ordering::SeqCst)));
        }
    }

    /// Ends the process by `signal`'s default action, as if it had not been caught.
    pub(super) fn die_by(signal: libc::c_int) -> ! {
        // SAFETY: plain system calls on this process.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, signal);
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::kill(libc::getpid(), signal);
        }
        // The signal ends the process as soon as it is delivered; should it not, the status says it.
        std::thread::sleep(std::time::Duration::from_secs(1));
        // SAFETY: ends the process.
        unsafe { libc::_exit(128 + signal) }
    }

    /// The name of a stopping signal, for messages.
    pub(super) fn name(signal: libc::c_int) -> &'static str {
        match signal {
            libc::SIGINT => "SIGINT",
            libc::SIGTERM => "SIGTERM",
            libc::SIGHUP => "SIGHUP",
            _ => "a signal",
        }
    }

    /// Writes `text` to standard error if it can take it now: never waits (a stop must not hang on
    /// an error output nobody reads) and never fails.
    pub(super) fn notice(text: &str) {
        let stderr = std::io::stderr();
        let fd = stderr.as_raw_fd();
        let mut ready = libc::pollfd {
            fd,
            events: libc::POLLOUT,
            revents: 0,
        };
        // SAFETY: polls one descriptor without waiting.
        let writable =
            unsafe { libc::poll(&mut ready, 1, 0) } == 1 && ready.revents == libc::POLLOUT;
        if writable {
            // SAFETY: one write of a short text (no lock: a thread blocked on standard error may
            // hold std's).
            unsafe { libc::write(fd, text.as_ptr().cast(), text.len()) };
        }
    }

    /// The calling thread's `errno`, kept across a signal handler's system calls.
    struct Errno(libc::c_int);

    impl Errno {
        fn save() -> Errno {
            Errno(std::io::Error::last_os_error().raw_os_error().unwrap_or(0))
        }

        fn restore(self) {
            #[cfg(target_os = "linux")]
            // SAFETY: the calling thread's errno.
            unsafe {
                *libc::__errno_location() = self.0;
            }
            #[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
            // SAFETY: the calling thread's errno.
            unsafe {
                *libc::__error() = self.0;
            }
        }
    }
}
