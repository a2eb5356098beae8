//! The one interface every player speaks: a new game (spec, side, limits, seed), then a move for
//! a position by a deadline.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use thiserror::Error;
use zerosum_core::{Side, TimeBudget};
use zerosum_games::GameSpec;

use crate::clock::TimeControl;

/// What a player learns before a game.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The game and board.
    pub spec: GameSpec,
    /// The side this player has.
    pub side: Side,
    /// The time control the referee enforces.
    pub time: TimeControl,
    /// Seed for any randomness: the same seed gives the same games with deterministic players.
    pub seed: u64,
}

/// The referee's request for a move.
#[derive(Clone, Debug)]
pub struct MoveRequest {
    /// Every move played so far, from the start position, in the game's notation (shared with
    /// the referee, which appends to it without a copy once the player has answered).
    pub moves: Arc<Vec<String>>,
    /// Time the player may use for this move before it forfeits (the referee adds its margin
    /// on top); `None` when the move is not timed.
    pub limit: Option<Duration>,
    /// The player's remaining game clock before this move, under a `tc=` control.
    pub clock: Option<Duration>,
    /// Increment added to the clock after this move.
    pub increment: Duration,
    /// When the move's clock started (the referee's stamp, or when a protocol command was
    /// read): a player's thinking time counts from here, however late its thread gets to the
    /// request on a busy machine.
    pub issued: Instant,
    /// Raised by the referee once the time is over: a player still thinking should answer at
    /// once (or give up).
    pub stop: Arc<AtomicBool>,
    /// Where a thinking player may report how it is getting on (the engine sends its search
    /// line after each iteration); `None` when nobody watches.
    pub progress: Option<Progress>,
}

/// Receives a thinking player's interim reports, one line each, on the player's thread.
#[derive(Clone)]
pub struct Progress(Arc<dyn Fn(&str) + Send + Sync>);

impl Progress {
    /// Reports go to `sink`.
    pub fn new(sink: impl Fn(&str) + Send + Sync + 'static) -> Self {
        Progress(Arc::new(sink))
    }

    /// Passes one report on.
    pub fn report(&self, line: &str) {
        (self.0)(line)
    }
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
    }
}

impl MoveRequest {
    /// How long a player that wants to use its time well should think on this move: the
    /// per-move limit under `st=`, or under a game clock a twentieth of what is left plus most
    /// of the increment (never more than the limit) ([`TimeBudget::for_move`]), in both cases
    /// less a safety reserve for answering and for a busy machine (a tenth of the time, at
    /// most 50 ms plus 2%: [`TimeBudget::thinking`]). `None` when the move is not timed.
    pub fn thinking_time(&self) -> Option<Duration> {
        TimeBudget::for_move(self.limit, self.clock, self.increment)
            .map(|allotted| allotted.thinking().duration())
    }

    /// True once the referee has asked for an answer at once.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A move and, optionally, what the player has to say about it (an engine's search line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnswer {
    /// The move in the game's notation. The referee checks it.
    pub text: String,
    /// A comment for the game log, e.g. `depth 9 score +34 nodes 120345 pv d4 e5`.
    pub comment: Option<String>,
    /// How long the move took as a player that keeps its own clock measured it
    /// ([`Player::keeps_own_time`]); `None` for the others, which the referee times.
    pub elapsed: Option<Duration>,
}

impl MoveAnswer {
    /// A move with nothing to say.
    pub fn new(text: impl Into<String>) -> Self {
        MoveAnswer {
            text: text.into(),
            comment: None,
            elapsed: None,
        }
    }
}

/// Why a player could not go on. Any of these forfeits its game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayerError {
    /// The player cannot play this game at all.
    #[error("cannot play {spec}: {reason}")]
    Unsupported { spec: String, reason: String },
    /// The player resigns the game: a loss, not a fault.
    #[error("resigned")]
    Resigned,
    /// The player (a person at the terminal) asks to take back the last move of each side, so
    /// that it is its turn again one move earlier. The referee grants it when both moves were
    /// played in this game (not in its opening) and asks again for a move either way.
    #[error("asked to take back its last move")]
    TakeBack,
    /// The player's seat is open again before its first move: its connection turned out not
    /// to be a player (a network seat whose client closed, sent a stray request or stayed
    /// silent). The referee asks again, the turn's time starting over; after the player's
    /// first move it is a failure like any other.
    #[error("gave up its seat")]
    Vacated,
    /// The player answered something that is not a move at all (an external engine printing
    /// garbage): judged as an illegal move.
    #[error("{0}")]
    Garbage(String),
    /// The player gave up or failed (an engine process died, a human closed the input).
    #[error("{0}")]
    Failed(String),
    /// The player reports that it ran out of its own time limit (a course player whose adapter
    /// enforces the course's per-call limit): judged as a timeout.
    #[error("{0}")]
    OutOfTime(String),
}

/// What a player said on the side while it was asked for a move (an engine's `ERROR` lines,
/// its refusals), kept for the reason of a forfeit: the last [`Remarks::KEPT`], each quoted as
/// peer text ([`crate::peers::text::quote`]). Shared between the player's thread, which notes,
/// and the referee's, which reads when the player is silent.
#[derive(Clone, Debug, Default)]
pub struct Remarks(Arc<Mutex<VecDeque<String>>>);

impl Remarks {
    /// How many remarks are kept: the latest.
    pub const KEPT: usize = 3;

    /// Notes one remark (quoted here), forgetting the oldest beyond [`Remarks::KEPT`].
    pub fn note(&self, text: &str) {
        let mut kept = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if kept.len() == Self::KEPT {
            kept.pop_front();
        }
        kept.push_back(crate::peers::text::quote(text.trim()));
    }

    /// Forgets every remark (a new move is asked for).
    pub fn clear(&self) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
    }

    /// The remarks kept, oldest first, joined by ` | `; `None` if there are none.
    pub fn said(&self) -> Option<String> {
        let kept = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (!kept.is_empty()).then(|| Vec::from(kept.clone()).join(" | "))
    }

    /// The failure of a driver that got no answer to `command`, with what the engine said.
    pub fn no_answer(&self, command: &str) -> PlayerError {
        let said = self
            .said()
            .map(|said| format!(" (it said: {said})"))
            .unwrap_or_default();
        PlayerError::Failed(format!("no answer to `{command}`{said}"))
    }
}

/// A participant in games. The referee calls [`Player::new_game`] before every game (a player
/// may be reused), then [`Player::choose`] on each of its turns, each call on a thread of the
/// referee's own, so a player may block; the referee enforces the time from outside and forfeits
/// a player that is late, illegal, failing, panicking or silent.
pub trait Player: Send {
    /// The name shown in results.
    fn name(&self) -> String;

    /// Prepares for a game: discards what the last game left.
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError>;

    /// A move for the position reached by `request.moves`, which is always an ongoing game in
    /// which this player is to move.
    fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError>;

    /// True for a person at a keyboard: the referee never times such a player.
    fn is_human(&self) -> bool {
        false
    }

    /// True for a player timed by a rule of its own, as the course referee times a course
    /// player: it reports a late move as [`PlayerError::OutOfTime`] and the time of every move
    /// in [`MoveAnswer::elapsed`], and the referee's clock only guards against a player that
    /// is gone silent (the watchdog on top of the limit).
    fn keeps_own_time(&self) -> bool {
        false
    }

    /// Where the player notes what it says on the side (see [`Remarks`]); the referee quotes
    /// them when the player goes silent. `None` for players with nothing to say.
    fn remarks(&self) -> Option<Remarks> {
        None
    }

    /// The lateness the referee forgives this player on every move, if not the time
    /// control's [`TimeControl::margin`] (an engine behind pipes may need more).
    fn margin(&self) -> Option<Duration> {
        None
    }

    /// True for a player whose [`Player::choose`] on a timed move only waits (for a thread or
    /// a process of its own) and hands the answer on, never computes for long: its thread may
    /// then be a prompt thread during timed moves ([`crate::prompt`]), which wakes at once
    /// however busy the machine is. A player that searches on the calling thread must say
    /// false (the default): a prompt thread that computes takes a processor from everything
    /// else.
    fn waits_when_timed(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(limit: Option<f64>, clock: Option<f64>, increment: f64) -> MoveRequest {
        MoveRequest {
            moves: Arc::new(Vec::new()),
            limit: limit.map(Duration::from_secs_f64),
            clock: clock.map(Duration::from_secs_f64),
            increment: Duration::from_secs_f64(increment),
            issued: Instant::now(),
            stop: Arc::new(AtomicBool::new(false)),
            progress: None,
        }
    }

    #[test]
    fn thinking_time_keeps_a_reserve_below_the_limit() {
        // 0.1 s a move: a tenth kept back (10 ms < 50 ms + 2 ms).
        assert_eq!(
            request(Some(0.1), None, 0.0).thinking_time(),
            Some(Duration::from_millis(90))
        );
        // 10 s a move: 50 ms + 200 ms kept back (< 1 s).
        assert_eq!(
            request(Some(10.0), None, 0.0).thinking_time(),
            Some(Duration::from_millis(9_750))
        );
        // 60 s on the clock, 1 s increment: 3 s + 0.75 s = 3.75 s, less 50 ms + 75 ms.
        assert_eq!(
            request(None, Some(60.0), 1.0).thinking_time(),
            Some(Duration::from_millis(3_625))
        );
        assert_eq!(request(None, None, 0.0).thinking_time(), None);
    }
}
