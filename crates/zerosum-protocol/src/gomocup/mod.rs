//! The Gomocup ("pbrain") protocol, engine side, for m,n,k games (free placement, K or more in
//! a row wins; with K = 5 also Gomocup's standard and renju rules).
//!
//! [`serve`] reads commands and writes replies; [`GomocupSession`] is the state machine
//! behind it. Commands: `START N`, `RECTSTART W,H`, `RESTART`, `BEGIN`, `TURN X,Y`, `BOARD`
//! (lines `X,Y,F`, then `DONE`), `TAKEBACK X,Y`, `INFO KEY VALUE`, `ABOUT`, `END`, in any case.
//! Coordinates are 0-based `X,Y`, X the column, Y the row from the top. Replies: a move
//! `X,Y` (after a `MESSAGE` line with the engine's search line), `OK`, `ERROR message`, or
//! `UNKNOWN message` for a command the protocol does not have; `INFO` has no reply.
//!
//! The board is `mnk:HxWxK` with K = 5 unless the private `INFO zerosum_k K` says otherwise
//! (it applies to an empty board at once, else from the next game). `INFO rule` accepts only
//! freestyle (five or more wins) and the continuous-game bit: exactly-five and renju cannot be
//! expressed and are refused with `ERROR`. `INFO max_memory` is accepted, but the engine's
//! table size is the one it was started with. Time: `timeout_turn` (ms per move, 0 = play
//! fast), `timeout_match` (ms per game, 0 = no limit) and `time_left` (ms left in the game)
//! bound the engine's budget, the protocol's overhead deducted
//! ([`zerosum_core::TimeBudget::served`]).

mod session;
mod timing;

use std::io::{self, BufRead, Write};

pub use session::GomocupSession;

use crate::{InputLine, LineReader};

/// Serves `session` until `END` or the end of `input`: the replies to each line go to
/// `output`, one per line, flushed at once. Only errors of `input` and `output` end the
/// service with an error.
pub fn serve<E, R, W>(session: &mut GomocupSession<E>, input: R, mut output: W) -> io::Result<()>
where
    E: crate::MoveEngine,
    R: BufRead,
    W: Write,
{
    let mut reader = LineReader::new(input);
    while let Some(line) = reader.next_line()? {
        let replies = match line {
            InputLine::Text(text) => session.respond(&text),
            InputLine::TooLong => session.refuse_long_line(),
        };
        for reply in replies {
            output.write_all(reply.as_bytes())?;
            output.write_all(b"\n")?;
        }
        output.flush()?;
        if session.has_ended() {
            break;
        }
    }
    Ok(())
}
