//! Time controls, as chess tournament managers spell them: `st=` seconds per move, `tc=base+inc`
//! game clocks, a margin the referee grants on top, a grace for each player's first move, and a
//! watchdog for players that are not timed at all.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

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
    /// Lateness the referee forgives on every move, for its own and the system's overhead.
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
            margin: Duration::from_millis(50),
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

/// Reads a game clock `BASE+INC` or `BASE` in seconds (`60+0.5`, `300`).
pub fn parse_clock(text: &str) -> Result<(Duration, Duration), TimeControlError> {
    let (base, increment) = match text.split_once('+') {
        Some((base, increment)) => (base, increment),
        None => (text, "0"),
    };
    let base = parse_seconds(base, "the clock's base time")?;
    let increment = parse_seconds(increment, "the clock's increment")?;
    if base.is_zero() {
        return Err(TimeControlError(format!(
            "the clock `{text}` starts at zero: every player would lose on time"
        )));
    }
    Ok((base, increment))
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
            parts.push(format!(
                "tc={}+{}",
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

    #[test]
    fn clocks_are_read_with_and_without_increment() {
        assert_eq!(
            parse_clock("60+0.5"),
            Ok((Duration::from_secs(60), Duration::from_millis(500)))
        );
        assert_eq!(
            parse_clock("300"),
            Ok((Duration::from_secs(300), Duration::ZERO))
        );
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
