//! How long searches of this process lose the processor: the longest wall-clock gap between
//! two looks at the clock (a few microseconds of work apart), and how late past its deadline a
//! search returned. On an idle machine both are microseconds; on a loaded one they are how
//! long the search thread waits for a processor, which can strike right at the deadline. Every
//! timed search records what it saw and aims to stop that much earlier the next time, so the
//! budget shrinks as much as the machine is slow, measured, not guessed. What each layer of a
//! move does with the estimate is [`TimeBudget`]'s to say.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use zerosum_core::TimeBudget;

/// Most that a search makes up for ([`TimeBudget::MAX_STALL`]).
const MAX_COMPENSATION: Duration = TimeBudget::MAX_STALL;

/// After this long without a longer stall, the estimate has halved.
const HALF_LIFE: Duration = Duration::from_secs(10);

/// A decaying maximum of the stalls seen by the searches of this process: a long stall counts
/// at once, and is forgotten with a half-life of ten seconds.
///
/// Lock-free: the thread that must answer at a deadline reads and records it too, and a lock
/// held by a search thread that has lost its processor would hold that thread as long.
#[derive(Debug)]
pub struct StopLatency {
    /// The estimate in microseconds (low [`ESTIMATE_BITS`] bits) and when it was last updated,
    /// in milliseconds since [`epoch`] (the high bits); 0 before anything was measured.
    state: AtomicU64,
}

/// Bits of [`StopLatency::state`] that hold the estimate in microseconds: room for
/// [`MAX_COMPENSATION`].
const ESTIMATE_BITS: u32 = 24;

static PROCESS: StopLatency = StopLatency::new();

/// The process's reference instant for [`StopLatency`]'s time stamps (its first use).
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

impl Default for StopLatency {
    fn default() -> Self {
        Self::new()
    }
}

impl StopLatency {
    /// Nothing measured yet.
    pub const fn new() -> Self {
        StopLatency {
            state: AtomicU64::new(0),
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
        let stall = stall.min(MAX_COMPENSATION);
        let mut current = self.state.load(Ordering::Relaxed);
        loop {
            let estimate = Self::decayed(current, now).max(stall);
            let new = Self::pack(estimate, now);
            match self.state.compare_exchange_weak(
                current,
                new,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return,
                Err(seen) => current = seen,
            }
        }
    }

    fn estimate_at(&self, now: Instant) -> Duration {
        Self::decayed(self.state.load(Ordering::Relaxed), now)
    }

    /// `estimate` measured at `now`, as one word.
    fn pack(estimate: Duration, now: Instant) -> u64 {
        let micros = (estimate.as_micros() as u64).min((1 << ESTIMATE_BITS) - 1);
        // One more than the milliseconds, so that a measure is never the empty state.
        let millis = now.saturating_duration_since(epoch()).as_millis() as u64 + 1;
        millis << ESTIMATE_BITS | micros
    }

    /// The estimate of `state` (see [`StopLatency::state`]) as it has decayed by `now`.
    fn decayed(state: u64, now: Instant) -> Duration {
        if state == 0 {
            return Duration::ZERO;
        }
        let estimate = Duration::from_micros(state & ((1 << ESTIMATE_BITS) - 1));
        let then = epoch() + Duration::from_millis((state >> ESTIMATE_BITS) - 1);
        let halvings = now.saturating_duration_since(then).as_secs_f64() / HALF_LIFE.as_secs_f64();
        estimate.mul_f64(0.5f64.powf(halvings))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stall_counts_at_once_and_fades_with_time() {
        let latency = StopLatency::new();
        // Time stamps are kept in whole milliseconds since the epoch.
        let start = epoch() + Duration::from_millis(5);
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
