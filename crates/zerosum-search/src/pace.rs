//! How late timed searches stop, measured in this process: the time from a search's deadline
//! to its return. On an idle machine that is the clock's polling interval (microseconds); on a
//! loaded one it is how long the search thread waited for a processor when the deadline came.
//! Every timed search records it and ends that much earlier the next time, so the budget
//! shrinks exactly as much as the machine is slow, measured, not guessed.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Most lateness a search makes up for, in microseconds: beyond this a search would think too
/// little to play well, and the referee's margin must do.
const MAX_COMPENSATION_US: u64 = 200_000;

/// A decaying maximum of the lateness of the searches of this process: a late stop counts at
/// once, and is forgotten by an eighth at each later record.
#[derive(Debug, Default)]
pub struct StopLatency {
    micros: AtomicU64,
}

static PROCESS: StopLatency = StopLatency::new();

impl StopLatency {
    /// Nothing measured yet.
    pub const fn new() -> Self {
        StopLatency {
            micros: AtomicU64::new(0),
        }
    }

    /// The latency shared by every search of this process (the machine is the same for all).
    pub fn process() -> &'static StopLatency {
        &PROCESS
    }

    /// One search stopped `late` after its deadline.
    pub fn record(&self, late: Duration) {
        let late = (late.as_micros() as u64).min(MAX_COMPENSATION_US);
        // Never fails: the closure always returns a value.
        let _ = self
            .micros
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                Some(late.max(old - old / 8))
            });
    }

    /// How much earlier than its budget a search should aim to stop.
    pub fn estimate(&self) -> Duration {
        Duration::from_micros(self.micros.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_stop_counts_at_once_and_fades() {
        let latency = StopLatency::new();
        assert_eq!(latency.estimate(), Duration::ZERO);
        latency.record(Duration::from_millis(40));
        assert_eq!(latency.estimate(), Duration::from_millis(40));
        latency.record(Duration::ZERO);
        assert_eq!(latency.estimate(), Duration::from_millis(35));
        latency.record(Duration::from_millis(50));
        assert_eq!(latency.estimate(), Duration::from_millis(50));
        latency.record(Duration::from_secs(5));
        assert_eq!(latency.estimate(), Duration::from_millis(200));
    }
}
