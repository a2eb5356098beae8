//! GTP v2 (the Go Text Protocol) serving an engine, for every game.
//!
//! [`serve`] reads commands from a byte stream and writes replies; [`GtpSession`] is the state
//! machine behind it. Besides the required commands it answers `showboard`, `undo`,
//! `time_settings`, `time_left`, `all_legal_moves [COLOUR]`, `final_score` (`B+`, `W+` or `0`),
//! and the private `zerosum-game [SPEC]`, which names the current game or starts another
//! (`zerosum-game connectx:6x7x4`).
//!
//! For the GUIs: `gogui-analyze_commands` and `hexgui-analyze_commands` list the analysis
//! commands (`zerosum-evaluate`, `zerosum-pv`, `zerosum-solve`, `zerosum-solve-moves`, see
//! `analyze`); GoGui's rules commands (`gogui-rules_game_id`, `_board_size`, `_board`,
//! `_board_gfx`,
//! `_legal_moves`, `_side_to_move`, `_final_result`, see `rules`) let GoGui referee and draw
//! every game; `kgs-time_settings` sets the clocks as `time_settings` does; `cputime` gives the
//! processor time used. With [`Vertices::GoGui`] every move is a GoGui vertex (`vertex`).
//!
//! Moves are written in each game's own notation (unless the session speaks GoGui's vertices):
//! - m,n,k, Hex and Atoll: a cell, column letters then the row from 1 at the top (`a1` is the
//!   top-left cell; letters do not skip `i`, as in the Hex tools);
//! - Connect-X: the column number from 1 (`play b 4`);
//! - Unstable: the row letter then the column from 1 (`A1` top-left);
//! - the swap move where the spec turns it on: `swap-sides` or `swap-pieces` (Hex), `swap`
//!   (Atoll pie rule); `genmove` may also answer `resign`.
//!
//! Colours name the stones on the board: Black moves first. After a Hex `swap-sides` (or an
//! Atoll `swap`) the players exchange colours, so White moves twice in a row (the swap, then
//! the first player's next move, now with White). Out-of-turn moves are refused:
//! `play` and `genmove` take the colour to move only. `boardsize` keeps the family and its
//! options (run length, swap rule) and clears the board; Atoll boards are named, not sized.
//!
//! Interrupts: a line `# interrupt` (HexGui's convention, advertised as `gogui-interrupt`)
//! stops a `genmove` in progress, which then answers the best move found so far. Input is read
//! on a thread of its own that raises the running command's stop flag as soon as the line
//! arrives; the line also goes through the command queue, in order, so that an interrupt
//! that comes after its `genmove` has already answered stops nothing later.

mod analyze;
mod clock;
mod colour;
mod command;
mod grid;
mod rules;
mod session;
mod vertex;

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::thread;

pub use analyze::ANALYZE_COMMANDS;
pub use colour::Colour;
pub use command::{format_reply, parse_command, Command};
pub use session::{CpuClock, GtpSession, COMMANDS};
pub use vertex::Vertices;

use crate::{InputLine, LineReader, MoveEngine, MAX_LINE_BYTES};

/// Most lines read ahead of the command being answered. The reader then waits (and the
/// controller's writes block), so input read but not yet answered never takes more than
/// `QUEUED_LINES` x [`MAX_LINE_BYTES`] (16 MiB), however fast the controller writes.
const QUEUED_LINES: usize = 16;

/// Serves `session` until `quit` or the end of `input`: one reply to `output` per command,
/// flushed at once; the engine's search line after each `genmove` to `log`. Reading happens
/// on another thread (so that `# interrupt` reaches a running `genmove`), hence the `'static`
/// input. Only errors of `input` and `output` end the service with an error.
pub fn serve<E, R, W, L>(
    session: &mut GtpSession<E>,
    input: R,
    mut output: W,
    mut log: L,
) -> io::Result<()>
where
    E: MoveEngine,
    R: BufRead + Send + 'static,
    W: Write,
    L: Write,
{
    let interrupts = Arc::new(Interrupts::default());
    let (sender, lines) = mpsc::sync_channel(QUEUED_LINES);
    let reader_interrupts = Arc::clone(&interrupts);
    thread::spawn(move || read_lines(input, &sender, &reader_interrupts));
    for line in lines {
        let reply = match line? {
            InputLine::Text(text) if is_interrupt(&text) => {
                interrupts.handled();
                continue;
            }
            InputLine::Text(text) => {
                let stop = interrupts.arm();
                let reply = session.respond(&text, &stop);
                interrupts.disarm();
                reply
            }
            InputLine::TooLong => Some(format_reply(
                None,
                &Err(format!(
                    "line too long: the limit is {MAX_LINE_BYTES} bytes"
                )),
            )),
        };
        if let Some(reply) = reply {
            output.write_all(reply.as_bytes())?;
            output.flush()?;
        }
        if let Some(info) = session.take_info() {
            // The log is a courtesy: a closed log does not stop the service.
            let _ = writeln!(log, "{info}");
        }
        if session.has_quit() {
            break;
        }
    }
    Ok(())
}

/// True for HexGui's interrupt line, `# interrupt`.
fn is_interrupt(line: &str) -> bool {
    line.trim()
        .strip_prefix('#')
        .is_some_and(|rest| rest.trim().eq_ignore_ascii_case("interrupt"))
}

/// The reading thread: sends every line in order (waiting while [`QUEUED_LINES`] are
/// queued), and raises the interrupt at once when it reads one. Ends at the end of the input, on an input error (sent on), or when the server
/// is gone.
fn read_lines<R: BufRead>(
    input: R,
    sender: &mpsc::SyncSender<io::Result<InputLine>>,
    interrupts: &Interrupts,
) {
    let mut reader = LineReader::new(input);
    loop {
        let line = match reader.next_line() {
            Ok(Some(line)) => Ok(line),
            Ok(None) => return,
            Err(error) => Err(error),
        };
        let failed = line.is_err();
        if let Ok(InputLine::Text(text)) = &line {
            if is_interrupt(text) {
                interrupts.raise();
            }
        }
        if sender.send(line).is_err() || failed {
            return;
        }
    }
}

/// Interrupts read but not yet reached in the command queue, and the stop flag of the command
/// running now.
#[derive(Default)]
struct Interrupts {
    state: Mutex<InterruptState>,
}

#[derive(Default)]
struct InterruptState {
    unhandled: usize,
    running: Option<Arc<AtomicBool>>,
}

impl Interrupts {
    fn state(&self) -> std::sync::MutexGuard<'_, InterruptState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// An interrupt was read: stop the running command.
    fn raise(&self) {
        let mut state = self.state();
        state.unhandled += 1;
        if let Some(stop) = &state.running {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// The queue reached an interrupt line.
    fn handled(&self) {
        let mut state = self.state();
        state.unhandled = state.unhandled.saturating_sub(1);
    }

    /// The stop flag of a command about to run: already raised when an interrupt that follows
    /// it in the queue has been read.
    fn arm(&self) -> Arc<AtomicBool> {
        let mut state = self.state();
        let stop = Arc::new(AtomicBool::new(state.unhandled > 0));
        state.running = Some(Arc::clone(&stop));
        stop
    }

    /// The command has answered.
    fn disarm(&self) {
        self.state().running = None;
    }
}
