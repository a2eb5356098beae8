//! GTP time: the settings of `time_settings`, each colour's clock as `time_left` reports it
//! and as the engine's own moves spend it, and the budget of the next move.

use std::time::Duration;

use zerosum_core::TimeBudget;

use super::colour::Colour;

/// `time_settings MAIN BYO_TIME BYO_STONES`: main time, then (when `byo_stones > 0`)
/// Canadian byo-yomi, `byo_stones` stones in every period of `byo_time`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeSettings {
    main: Duration,
    byo_time: Duration,
    byo_stones: u32,
}

/// What one colour has left.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Period {
    /// Main (or absolute) time.
    Main(Duration),
    /// A byo-yomi period: `left` for `stones` more moves.
    ByoYomi { left: Duration, stones: u32 },
}

/// The time rules of a GTP game and both colours' clocks. Without `time_settings` or
/// `time_left`, moves are untimed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GtpClock {
    settings: Option<TimeSettings>,
    periods: [Option<Period>; 2],
}

impl GtpClock {
    /// Applies `time_settings`. `byo_stones == 0` with `byo_time > 0`, or all zero, means no
    /// time limit (as GTP says); `byo_stones == 0` with `byo_time == 0` is absolute time.
    pub fn set(&mut self, main: Duration, byo_time: Duration, byo_stones: u32) {
        let untimed = byo_stones == 0 && (!byo_time.is_zero() || main.is_zero());
        self.settings = (!untimed).then_some(TimeSettings {
            main,
            byo_time,
            byo_stones,
        });
        self.restart();
    }

    /// Both clocks back to the settings' start (a new game).
    pub fn restart(&mut self) {
        let start = self.settings.map(|settings| {
            if settings.main.is_zero() {
                ByoYomiStart(settings).period()
            } else {
                Period::Main(settings.main)
            }
        });
        self.periods = [start; 2];
    }

    /// Applies `time_left COLOUR SECONDS STONES`: `stones == 0` means main time, else a
    /// byo-yomi period with that many stones.
    pub fn set_left(&mut self, colour: Colour, left: Duration, stones: u32) {
        self.periods[colour.index()] = Some(if stones == 0 {
            Period::Main(left)
        } else {
            Period::ByoYomi { left, stones }
        });
    }

    /// How long `colour` may think on its next move, the protocol's overhead deducted
    /// ([`TimeBudget::served`]): a twentieth of the main time left plus one byo-yomi stone's
    /// share, or the period's share per stone.
    pub fn budget(&self, colour: Colour) -> Option<Duration> {
        let budget = match self.periods[colour.index()]? {
            Period::Main(left) => {
                let stone = self
                    .settings
                    .filter(|settings| settings.byo_stones > 0)
                    .map_or(Duration::ZERO, |settings| {
                        settings.byo_time / settings.byo_stones
                    });
                TimeBudget::clock_share(left) + stone
            }
            Period::ByoYomi { left, stones } => left / stones.max(1),
        };
        Some(TimeBudget::new(budget).served().duration())
    }

    /// Charges a move of `colour` that took `elapsed`.
    pub fn spend(&mut self, colour: Colour, elapsed: Duration) {
        let Some(period) = self.periods[colour.index()] else {
            return;
        };
        let byo_yomi = self
            .settings
            .filter(|settings| settings.byo_stones > 0)
            .map(ByoYomiStart);
        let next = match period {
            Period::Main(left) if elapsed <= left => Period::Main(left - elapsed),
            Period::Main(left) => match byo_yomi {
                Some(start) => start.after(start.period(), elapsed - left),
                None => Period::Main(Duration::ZERO),
            },
            Period::ByoYomi { .. } => match byo_yomi {
                Some(start) => start.after(period, elapsed),
                None => Period::Main(Duration::ZERO),
            },
        };
        self.periods[colour.index()] = Some(next);
    }
}

/// The byo-yomi of the settings.
#[derive(Clone, Copy, Debug)]
struct ByoYomiStart(TimeSettings);

impl ByoYomiStart {
    /// A fresh period.
    fn period(self) -> Period {
        Period::ByoYomi {
            left: self.0.byo_time,
            stones: self.0.byo_stones,
        }
    }

    /// The period after one move that took `elapsed` in `period`: a fresh one once its stones
    /// are played.
    fn after(self, period: Period, elapsed: Duration) -> Period {
        match period {
            Period::ByoYomi { left, stones } if stones > 1 => Period::ByoYomi {
                left: left.saturating_sub(elapsed),
                stones: stones - 1,
            },
            _ => self.period(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    /// What the server gives its engine of a controller's `allotted`.
    fn served(allotted: Duration) -> Duration {
        TimeBudget::new(allotted).served().duration()
    }

    #[test]
    fn untimed_until_told() {
        let mut clock = GtpClock::default();
        assert_eq!(clock.budget(Colour::Black), None);
        clock.set(secs(0.0), secs(10.0), 0);
        assert_eq!(clock.budget(Colour::Black), None);
    }

    #[test]
    fn main_time_then_byo_yomi() {
        let mut clock = GtpClock::default();
        clock.set(secs(100.0), secs(10.0), 5);
        // 100/20 + 10/5 = 7 s, less 50 ms + 140 ms.
        assert_eq!(clock.budget(Colour::White), Some(secs(6.81)));
        clock.spend(Colour::White, secs(101.0));
        // Overran main time by 1 s: in a period of 10 s with 4 stones left, 9 s.
        assert_eq!(
            clock.periods[1],
            Some(Period::ByoYomi {
                left: secs(9.0),
                stones: 4
            })
        );
        clock.set_left(Colour::White, secs(4.0), 2);
        assert_eq!(clock.budget(Colour::White), Some(served(secs(2.0))));
        clock.spend(Colour::White, secs(1.0));
        clock.spend(Colour::White, secs(1.0));
        assert_eq!(
            clock.periods[1],
            Some(Period::ByoYomi {
                left: secs(10.0),
                stones: 5
            })
        );
    }

    #[test]
    fn absolute_time_runs_out() {
        let mut clock = GtpClock::default();
        clock.set(secs(2.0), secs(0.0), 0);
        assert_eq!(clock.budget(Colour::Black), Some(served(secs(0.1))));
        clock.spend(Colour::Black, secs(3.0));
        assert_eq!(clock.budget(Colour::Black), Some(Duration::ZERO));
        clock.restart();
        assert_eq!(clock.periods[0], Some(Period::Main(secs(2.0))));
    }
}
