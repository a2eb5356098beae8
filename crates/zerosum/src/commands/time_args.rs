//! The time control options of `play`, `match`, `tournament`, the game server and
//! `explain-time`: --st, --tc, --timemargin, --first-move-grace and --watchdog.

use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use zerosum_arena::clock::{parse_clock, parse_seconds};
use zerosum_arena::TimeControl;
use zerosum_core::TimeBudget;

/// The time control options shared by `play`, `match` and `tournament`.
#[derive(Args, Debug)]
pub struct TimeArgs {
    /// Seconds per move (the default: 1, or the preset's).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    st: Option<String>,
    /// Game clock, as cutechess spells it: BASE+INC seconds (60+0.6), MIN:SEC+INC (1:00+1) or
    /// MOVES/TIME[+INC], the time given again every MOVES moves (40/60).
    #[arg(long, value_name = "[MOVES/]TIME[+INC]")]
    tc: Option<String>,
    /// Lateness forgiven on every move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = TimeBudget::REFEREE_MARGIN.as_millis() as u64)]
    timemargin: u64,
    /// Extra seconds on each player's first move.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "0",
        allow_negative_numbers = true
    )]
    first_move_grace: String,
    /// Seconds the referee waits for an untimed or late player before giving up on it.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "60",
        allow_negative_numbers = true
    )]
    watchdog: String,
}

impl TimeArgs {
    /// The time control, with `default_st` seconds per move when neither --st nor --tc is given.
    pub fn control(&self, default_st: f64) -> Result<TimeControl> {
        let per_move = match (&self.st, &self.tc) {
            (Some(st), _) => Some(parse_seconds(st, "--st")?),
            (None, Some(_)) => None,
            (None, None) => Some(Duration::from_secs_f64(default_st)),
        };
        let clock = self
            .tc
            .as_deref()
            .map(parse_clock)
            .transpose()
            .context("--tc")?;
        let control = TimeControl {
            per_move,
            base: clock.map(|c| c.base),
            increment: clock.map_or(Duration::ZERO, |c| c.increment),
            moves_per_period: clock.and_then(|c| c.moves),
            margin: Duration::from_millis(self.timemargin.min(3_600_000)),
            first_move_grace: parse_seconds(&self.first_move_grace, "--first-move-grace")?,
            watchdog: parse_seconds(&self.watchdog, "--watchdog")?,
        };
        control.validate()?;
        Ok(control)
    }
}
