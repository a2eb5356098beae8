//! How long searches of this process lose the processor: the longest wall-clock gap between
//! two looks at the clock (a few microseconds of work apart), and how late past its deadline a
//! search returned. On an idle machine both are microseconds; on a loaded one they are how
//! long the search thread waits for a processor, which can strike right at the deadline. Every
//! timed search records what it saw and aims to stop that much earlier the next time, so the
//! budget shrinks as much as the machine is slow, measured, not guessed.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Most that a search makes up for: beyond this it would think too little to play well, and
/// the referee's margin must do.
const MAX_COMPENSATION: Duration = Duration::from_millis(200);

/// After this long without a longer stall, the estimate has halved.
const HALF_LIFE: Duration = Duration::from_secs(10);

/// A decaying maximum of the stalls seen by the searches of this process: a long stall counts
/// at once, and is forgotten with a half-life of ten seconds.
#[derive(Debug)]
pub struct StopLatency {
    /// The estimate, and when it was last updated.
    state: Mutex<Option<(Duration, Instant)>>,
}

static PROCESS: StopLatency = StopLatency::new();

impl Default for StopLatency {
    fn default() -> Self {
        Self::new()
    }
}

impl StopLatency {
    /// Nothing measured yet.
    pub const fn new() -> Self {
        StopLatency {
            state: Mutex::new(None),
        }
    }

    /// The latency shared by every search of this process (the machine is the same for all).
    pub fn process() -> &'static StopLatency {
        &PROCESS
    }

    /// A search lost the processor for `stall` (or stopped that late past its deadline).
    pub fn record(&self, stall: Duration) {
        self.record_at(stall, Instant::now());
    }

    /// How much earlier than its budget a search should aim to stop.
    pub fn estimate(&self) -> Duration {
        self.estimate_at(Instant::now())
    }

    fn record_at(&self, stall: Duration, now: Instant) {
        let estimate = self.estimate_at(now).max(stall.min(MAX_COMPENSATION));
        *self.state.lock().unwrap_or_else(|e| e.into_inner()) = Some((estimate, now));
    }

    fn estimate_at(&self, now: Instant) -> Duration {
        let state = *self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.map_or(Duration::ZERO, |(estimate, then)| {
            let halvings =
                now.saturating_duration_since(then).as_secs_f64() / HALF_LIFE.as_secs_f64();
            estimate.mul_f64(0.5f64.powf(halvings))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stall_counts_at_once_and_fades_with_time() {
        let latency = StopLatency::new();
        let start = Instant::now();
        assert_eq!(latency.estimate_at(start), Duration::ZERO);
        latency.record_at(Duration::from_millis(40), start);
        assert_eq!(latency.estimate_at(start), Duration::from_millis(40));
        latency.record_at(Duration::ZERO, start);
        assert_eq!(latency.estimate_at(start), Duration::from_millis(40));
        let later = start + HALF_LIFE;
        assert_eq!(latency.estimate_at(later), Duration::from_millis(20));
        latency.record_at(Duration::from_secs(5), later);
        assert_eq!(latency.estimate_at(later), Duration::from_millis(200));
    }
}
