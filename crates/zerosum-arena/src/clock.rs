//! Time controls, as chess tournament managers spell them: `st=` seconds per move, game clocks
//! in cutechess's forms (`60+0.5`, `1:00+1`, `40/60`: base and increment, minutes:seconds,
//! moves per period), a margin the referee grants on top, a grace for each player's first move,
//! and a watchdog for players that are not timed at all.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use zerosum_core::TimeBudget;

/// Longest time any limit may name: a week.
const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// The time rules the referee enforces on every player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Fixed time per move (`st=`).
    pub per_move: Option<Duration>,
    /// Game clock: the time each player starts with (`tc=base+inc`).
    pub base: Option<Duration>,
    /// Added to a player's game clock after each of its moves.
    pub increment: Duration,
    /// Moves per period (`tc=40/60`): after every this many moves of a player, `base` is added
    /// to its clock again. `None`: one period for the whole game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_per_period: Option<u32>,
    /// Lateness the referee forgives on every move, for its own and the system's overhead
    /// ([`TimeBudget::REFEREE_MARGIN`] by default).
    pub margin: Duration,
    /// Extra time on each player's first move (engines that load tables, virtual machines that
    /// warm up).
    pub first_move_grace: Duration,
    /// How long the referee waits for an untimed player (limited by depth or nodes only), and
    /// for a late one to answer at all, before giving up on it as stalled.
    pub watchdog: Duration,
}

impl Default for TimeControl {
    /// One second per move, a 50 ms margin, no grace, a 60 s watchdog.
    fn default() -> Self {
        TimeControl {
            per_move: Some(Duration::from_secs(1)),
            base: None,
            increment: Duration::ZERO,
            moves_per_period: None,
            margin: TimeBudget::REFEREE_MARGIN,
            first_move_grace: Duration::ZERO,
            watchdog: Duration::from_secs(60),
        }
    }
}

/// A time control that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad time control: {0}")]
pub struct TimeControlError(String);

/// Reads a number of seconds, as in `--st 0.5`; `what` names the setting in the error.
pub fn parse_seconds(text: &str, what: &str) -> Result<Duration, TimeControlError> {
    let value: f64 = text.trim().parse().map_err(|_| {
        TimeControlError(format!("{what} must be a number of seconds, not `{text}`"))
    })?;
    if !value.is_finite() || !(0.0..=MAX_SECONDS).contains(&value) {
        return Err(TimeControlError(format!(
            "{what} must be between 0 and {MAX_SECONDS} seconds, not `{text}`"
        )));
    }
    Ok(Duration::from_secs_f64(value))
}

/// A game clock as `--tc` spells it: `[MOVES/]TIME[+INC]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// Moves per period, if the base time comes back every that many moves.
    pub moves: Option<u32>,
    /// Time of a period (of the whole game without `moves`); never zero.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
}

/// The forms [`parse_clock`] reads, for its errors.
const CLOCK_FORMS: &str =
    "expected SECONDS[+INC], MIN:SEC[+INC] or MOVES/TIME[+INC], e.g. 60+0.6, 1:00+1, 40/60";

/// Reads a game clock in cutechess's forms: `SECONDS` (`300`), `BASE+INC` in seconds
/// (`60+0.6`), `MIN:SEC+INC` (`1:00+1`), and `MOVES/TIME[+INC]`, the time (in either form)
/// given again after every `MOVES` moves (`40/60`).
pub fn parse_clock(text: &str) -> Result<GameClock, TimeControlError> {
    let bad = |why: String| TimeControlError(format!("`{text}`: {why} ({CLOCK_FORMS})"));
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => {
            let moves: u32 = moves
                .trim()
                .parse()
                .ok()
                .filter(|&m| m > 0)
                .ok_or_else(|| bad(format!("`{moves}` is not a number of moves")))?;
            (Some(moves), rest)
        }
        None => (None, text),
    };
    let (base, increment) = rest.split_once('+').unwrap_or((rest, "0"));
    let base = match base.split_once(':') {
        Some((minutes, seconds)) => {
            let minutes: u32 = minutes
                .trim()
                .parse()
                .map_err(|_| bad(format!("`{minutes}` is not a number of minutes")))?;
            let seconds = parse_seconds(seconds, "the seconds of MIN:SEC")
                .map_err(|e| bad(e.0))?
                .as_secs_f64();
            if seconds >= 60.0 {
                return Err(bad(format!("MIN:SEC with {seconds} seconds")));
            }
            parse_seconds(
                &(f64::from(minutes) * 60.0 + seconds).to_string(),
                "the clock's base time",
            )
            .map_err(|e| bad(e.0))?
        }
        None => parse_seconds(base, "the clock's base time").map_err(|e| bad(e.0))?,
    };
    let increment = parse_seconds(increment, "the clock's increment").map_err(|e| bad(e.0))?;
    if base.is_zero() {
        return Err(TimeControlError(format!(
            "the clock `{text}` starts at zero: every player would lose on time"
        )));
    }
    Ok(GameClock {
        moves,
        base,
        increment,
    })
}

impl TimeControl {
    /// A control of `seconds` per move with the default margin, grace and watchdog.
    pub fn per_move(seconds: f64) -> Self {
        TimeControl {
            per_move: Some(Duration::from_secs_f64(seconds)),
            ..TimeControl::default()
        }
    }

    /// No time limit at all: only the watchdog guards the referee.
    pub fn untimed() -> Self {
        TimeControl {
            per_move: None,
            ..TimeControl::default()
        }
    }

    /// Checks that the control can be played: a per-move limit is positive, the watchdog is at
    /// least a second.
    pub fn validate(&self) -> Result<(), TimeControlError> {
        if self.per_move == Some(Duration::ZERO) {
            return Err(TimeControlError(
                "zero seconds per move: every player would lose on time".into(),
            ));
        }
        if self.base == Some(Duration::ZERO) {
            return Err(TimeControlError(
                "the game clock starts at zero: every player would lose on time".into(),
            ));
        }
        if self.watchdog < Duration::from_secs(1) {
            return Err(TimeControlError(
                "the watchdog must wait at least one second".into(),
            ));
        }
        Ok(())
    }

    /// True when moves are timed (per move, by a game clock, or both).
    pub fn is_timed(&self) -> bool {
        self.per_move.is_some() || self.base.is_some()
    }

    /// What is left on a player's game clock of `left` after a move that took `elapsed`, the
    /// player's `moves`-th own move of the game (from 1): the time spent is taken off, the
    /// increment added, and at the end of each period of `moves_per_period` moves the base
    /// time is added again.
    pub fn after_move(&self, left: Duration, elapsed: Duration, moves: usize) -> Duration {
        let period_over = self
            .moves_per_period
            .is_some_and(|period| moves > 0 && moves.is_multiple_of(period as usize));
        let refill = match (period_over, self.base) {
            (true, Some(base)) => base,
            _ => Duration::ZERO,
        };
        left.saturating_sub(elapsed) + self.increment + refill
    }

    /// The limit of one move: the per-move time, capped by what is left on the game clock
    /// (`clock`), plus the first-move grace on a player's first move. `None` when untimed.
    pub fn move_limit(&self, clock: Option<Duration>, first_move: bool) -> Option<Duration> {
        let limit = match (self.per_move, clock) {
            (Some(per_move), Some(left)) => Some(per_move.min(left)),
            (Some(per_move), None) => Some(per_move),
            (None, left) => left,
        };
        let grace = if first_move {
            self.first_move_grace
        } else {
            Duration::ZERO
        };
        limit.map(|limit| limit + grace)
    }
}

impl fmt::Display for TimeControl {
    /// `st=0.1`, `tc=60+0.5`, both, or `untimed`, then the margin.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(per_move) = self.per_move {
            parts.push(format!("st={}", per_move.as_secs_f64()));
        }
        if let Some(base) = self.base {
            let period = self
                .moves_per_period
                .map(|moves| format!("{moves}/"))
                .unwrap_or_default();
            parts.push(format!(
                "tc={period}{}+{}",
                base.as_secs_f64(),
                self.increment.as_secs_f64()
            ));
        }
        if parts.is_empty() {
            parts.push("untimed".into());
        }
        write!(
            f,
            "{} margin={}ms",
            parts.join(" "),
            self.margin.as_millis()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(moves: Option<u32>, base_ms: u64, increment_ms: u64) -> GameClock {
        GameClock {
            moves,
            base: Duration::from_millis(base_ms),
            increment: Duration::from_millis(increment_ms),
        }
    }

    #[test]
    fn clocks_are_read_in_every_cutechess_form() {
        assert_eq!(parse_clock("60+0.5"), Ok(clock(None, 60_000, 500)));
        assert_eq!(parse_clock("60+0.6"), Ok(clock(None, 60_000, 600)));
        assert_eq!(parse_clock("300"), Ok(clock(None, 300_000, 0)));
        assert_eq!(parse_clock("1:00+1"), Ok(clock(None, 60_000, 1_000)));
        assert_eq!(parse_clock("2:30"), Ok(clock(None, 150_000, 0)));
        assert_eq!(parse_clock("40/60"), Ok(clock(Some(40), 60_000, 0)));
        assert_eq!(parse_clock("40/1:30+0.5"), Ok(clock(Some(40), 90_000, 500)));
    }

    #[test]
    fn bad_clocks_name_the_forms_expected() {
        for text in [
            "", "fast", "0/60", "x/60", "40/", "1:75", "a:00", "60+x", "60+-1",
        ] {
            let error = parse_clock(text).unwrap_err().to_string();
            assert!(error.contains("MOVES/TIME[+INC]"), "{text}: {error}");
            assert!(!error.contains('\n'), "{text}: {error}");
        }
    }

    #[test]
    fn a_period_of_moves_gives_the_base_time_back_after_each_period() {
        let control = TimeControl {
            per_move: None,
            base: Some(Duration::from_secs(60)),
            moves_per_period: Some(2),
            ..TimeControl::default()
        };
        let spent = Duration::from_secs(20);
        let left = control.after_move(Duration::from_secs(60), spent, 1);
        assert_eq!(left, Duration::from_secs(40));
        let left = control.after_move(left, spent, 2);
        assert_eq!(left, Duration::from_secs(80), "the period's 60 s come back");
        let left = control.after_move(left, spent, 3);
        assert_eq!(left, Duration::from_secs(60));
        let sudden_death = TimeControl {
            moves_per_period: None,
            increment: Duration::from_secs(1),
            ..control
        };
        assert_eq!(
            sudden_death.after_move(Duration::from_secs(60), spent, 2),
            Duration::from_secs(41)
        );
        assert_eq!(control.to_string(), "tc=2/60+0 margin=50ms");
    }

    #[test]
    fn impossible_controls_are_refused_with_a_reason() {
        assert!(parse_clock("0+0").unwrap_err().to_string().contains("zero"));
        assert!(parse_seconds("-1", "--st").is_err());
        assert!(parse_seconds("NaN", "--st").is_err());
        assert!(parse_seconds("1e300", "--st").is_err());
        assert!(parse_seconds("fast", "--st")
            .unwrap_err()
            .to_string()
            .contains("`fast`"));
        let zero = TimeControl {
            per_move: Some(Duration::ZERO),
            ..TimeControl::default()
        };
        assert!(zero.validate().is_err());
    }

    #[test]
    fn the_move_limit_is_capped_by_the_clock_and_extended_by_the_grace() {
        let control = TimeControl {
            per_move: Some(Duration::from_secs(2)),
            first_move_grace: Duration::from_secs(1),
            ..TimeControl::default()
        };
        assert_eq!(
            control.move_limit(Some(Duration::from_secs(5)), false),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            control.move_limit(Some(Duration::from_millis(500)), true),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(TimeControl::untimed().move_limit(None, true), None);
    }
}
