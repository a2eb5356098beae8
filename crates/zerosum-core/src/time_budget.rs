//! The time of one move, layer by layer, with every reserve kept back on the way and why.
//!
//! A timed move passes through up to six layers, each of which keeps back a part of the time
//! it was given for a risk of its own. All of them count from the start of the move's clock
//! (the referee's stamp, or when a protocol server read the command), so time lost before a
//! layer runs is already spent, not given again.
//!
//! ```text
//! layer (where)                 has                             kept back for
//! referee (arena referee)       allotted: st, or clock share    -
//!   forfeits a move later than  allotted + margin (50 ms)       (the margin is given on top)
//! protocol server (gtp,         served = allotted - overhead    the controller's clock
//!   gomocup)                                                    started first, no margin
//! player (arena MoveRequest::   thinking = allotted - reserve   answering, a busy machine
//!   thinking_time)
//! answering thread (arena       hard stop = thinking - stall    its own wake-up
//!   engine player)
//! search (alpha-beta and        aim = time - unwind - stall     unwinding, a lost processor
//!   Monte Carlo)
//! iterative deepening           no new iteration after aim / 2  it would not finish
//!   (alpha-beta)
//! ```
//!
//! [`TimeBudget`] is the time one layer has; each method gives the next layer's, so the whole
//! chain is written here and nowhere else. `zerosum explain-time` prints it for a time control.
//!
//! - **Referee margin** ([`TimeBudget::REFEREE_MARGIN`]): the arena's referee forfeits a move
//!   only when it comes later than its limit plus this margin, for its own overhead and the
//!   system's (waking the referee, passing the answer between threads). It is given on top of
//!   the limit: no player aims into it.
//! - **Clock share** ([`TimeBudget::for_move`]): under a game clock a move gets a twentieth of
//!   what is left plus three quarters of the increment, never more than the per-move limit.
//! - **Protocol overhead** ([`TimeBudget::served`]): a controller speaking GTP or Gomocup
//!   starts its clock when it writes the command, before the server reads it, and may forgive
//!   no lateness at all; so a protocol server keeps back the same share as the answer reserve
//!   before it hands the time to its engine player, which then keeps its own answer reserve.
//! - **Answer reserve** ([`TimeBudget::thinking`]): the player's own margin for sending its
//!   answer and for a busy machine: a tenth of the time, at most 50 ms plus 2%.
//! - **Stall** (the measured stop latency, `zerosum_search::StopLatency`): how long searches of
//!   this process have lately lost the processor, or stopped late; zero on an idle machine, at
//!   most [`TimeBudget::MAX_STALL`]. The engine player's answering thread
//!   ([`TimeBudget::hard_stop`]) and the search ([`TimeBudget::search_aim`]) both stop that
//!   much earlier, each never before a floor (a quarter, an eighth of its time), where a
//!   player with less time would play too badly and the referee's margin must do.
//! - **Unwind reserve** ([`TimeBudget::unwind_reserve`]): the search stops this much before its
//!   time to unwind its recursion and answer: 5%, at least 2 ms, at most 20 ms, at most half.
//! - **Deepening cutoff** ([`TimeBudget::deepening_cutoff`]): iterative deepening starts no
//!   iteration once half its aim is spent: the next would take longer than all before it and
//!   not finish. This is the default; an evaluator may give another share of the aim
//!   (`Evaluator::deepening_share`). (A Monte Carlo search has no iterations: it runs to its
//!   aim.)
//!
//! What the built-in engine does between the layers is its own policy, not a reserve: a game's
//! exact oracle may spend half of the thinking time first, and the search gets what is left.

use std::time::Duration;

/// The time a layer of a move has, counted from the start of the move's clock (see the
/// module's table); each method gives the time of the next layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimeBudget(Duration);

impl TimeBudget {
    /// Lateness the arena's referee forgives on every move by default, on top of the limit.
    pub const REFEREE_MARGIN: Duration = Duration::from_millis(50);

    /// Under a game clock, a move takes this fraction (one over it) of what is left: a game
    /// lasts long past its twentieth move, but the first moves matter most.
    pub const CLOCK_SHARE: u32 = 20;

    /// Share of a clock's increment spent on the move it comes with.
    pub const INCREMENT_SHARE: f64 = 0.75;

    /// Most stall a layer makes up for: beyond this a player would think too little to play
    /// well, and the referee's margin must do.
    pub const MAX_STALL: Duration = Duration::from_millis(200);

    /// A layer that has `time`.
    pub const fn new(time: Duration) -> Self {
        TimeBudget(time)
    }

    /// The time this layer has.
    pub const fn duration(self) -> Duration {
        self.0
    }

    /// What the arena's referee allots a move: the per-move limit `limit`, or under a game
    /// clock with `left` on it a twentieth of that plus three quarters of `increment`, never
    /// more than `limit`. `None` when the move is not timed.
    pub fn for_move(
        limit: Option<Duration>,
        left: Option<Duration>,
        increment: Duration,
    ) -> Option<Self> {
        let from_clock =
            left.map(|left| Self::clock_share(left) + increment.mul_f64(Self::INCREMENT_SHARE));
        let allotted = match (limit, from_clock) {
            (Some(limit), Some(share)) => share.min(limit),
            (Some(limit), None) => limit,
            (None, share) => share?,
        };
        Some(TimeBudget(allotted))
    }

    /// A move's share of `left` on a game clock, before any increment: a twentieth.
    pub fn clock_share(left: Duration) -> Duration {
        left / Self::CLOCK_SHARE
    }

    /// What a protocol server keeps back from a controller's allotment for the protocol's
    /// overhead: the same share as [`TimeBudget::answer_reserve`].
    pub fn protocol_overhead(self) -> Duration {
        self.answer_reserve()
    }

    /// The time a protocol server gives its engine for a controller's allotment: less the
    /// protocol's overhead.
    pub fn served(self) -> TimeBudget {
        TimeBudget(self.0 - self.protocol_overhead())
    }

    /// What a player keeps back for answering and for a busy machine: a tenth of the time,
    /// at most 50 ms plus 2%.
    pub fn answer_reserve(self) -> Duration {
        self.0
            .mul_f64(0.1)
            .min(Duration::from_millis(50) + self.0.mul_f64(0.02))
    }

    /// How long a player that uses its time well thinks: less its answer reserve.
    pub fn thinking(self) -> TimeBudget {
        TimeBudget(self.0 - self.answer_reserve())
    }

    /// When a thinking player's answering thread answers with the best move so far (its
    /// search thread may have lost the processor): `stall` earlier, which it may lose too
    /// when it wakes, but never before a quarter of the time.
    pub fn hard_stop(self, stall: Duration) -> Duration {
        self.0.saturating_sub(stall).max(self.0 / 4)
    }

    /// What a search keeps back for unwinding and answering: 5% or 2 ms, whichever is more,
    /// but at most 20 ms and never more than half the time.
    pub fn unwind_reserve(self) -> Duration {
        self.0
            .mul_f64(0.05)
            .max(Duration::from_millis(2))
            .min(Duration::from_millis(20))
            .min(self.0 / 2)
    }

    /// When a search with this time aims to stop, from its start: less the unwind reserve and
    /// less `stall`, the longest that searches have lately lost the processor; never before an
    /// eighth of the time (the answering thread's hard stop, at a quarter, comes later).
    pub fn search_aim(self, stall: Duration) -> Duration {
        self.0
            .saturating_sub(self.unwind_reserve())
            .saturating_sub(stall)
            .max(self.0 / 8)
    }

    /// When iterative deepening starts no more iterations, for a search that aims to stop at
    /// `aim` ([`TimeBudget::search_aim`]): half of it, since the next iteration would take
    /// longer than all the ones before it.
    pub fn deepening_cutoff(aim: Duration) -> Duration {
        aim.mul_f64(0.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    fn us(us: u64) -> Duration {
        Duration::from_micros(us)
    }

    #[test]
    fn a_move_gets_its_limit_or_a_twentieth_of_the_clock_plus_most_of_the_increment() {
        assert_eq!(TimeBudget::for_move(None, None, ms(600)), None);
        assert_eq!(
            TimeBudget::for_move(Some(ms(1_000)), None, ms(0)),
            Some(TimeBudget::new(ms(1_000)))
        );
        let clock = TimeBudget::for_move(None, Some(ms(60_000)), ms(600));
        assert_eq!(clock, Some(TimeBudget::new(ms(3_450))));
        let capped = TimeBudget::for_move(Some(ms(2_000)), Some(ms(60_000)), ms(600));
        assert_eq!(capped, Some(TimeBudget::new(ms(2_000))));
    }

    #[test]
    fn the_answer_reserve_is_a_tenth_capped_at_50_ms_plus_2_percent() {
        let thinking = |time| TimeBudget::new(time).thinking().duration();
        assert_eq!(thinking(ms(100)), ms(90));
        assert_eq!(thinking(ms(1_000)), ms(930));
        assert_eq!(thinking(ms(10_000)), ms(9_750));
        assert_eq!(thinking(ms(0)), ms(0));
        // A protocol keeps back as much again, before its engine player's own reserve.
        let served = TimeBudget::new(ms(1_000)).served();
        assert_eq!(served.duration(), ms(930));
        assert_eq!(served.thinking().duration(), us(861_400));
    }

    #[test]
    fn the_hard_stop_comes_a_stall_early_but_not_before_a_quarter() {
        let time = TimeBudget::new(ms(930));
        assert_eq!(time.hard_stop(ms(0)), ms(930));
        assert_eq!(time.hard_stop(ms(40)), ms(890));
        assert_eq!(TimeBudget::new(ms(100)).hard_stop(ms(200)), ms(25));
    }

    #[test]
    fn the_search_aims_inside_its_unwind_reserve_and_stall_but_not_before_an_eighth() {
        let aim = |time, stall| TimeBudget::new(time).search_aim(stall);
        // 5% of 930 ms is 46.5: capped at 20 ms.
        assert_eq!(aim(ms(930), ms(0)), ms(910));
        assert_eq!(aim(ms(930), ms(40)), ms(870));
        // 5% of 90 ms is 4.5 ms.
        assert_eq!(aim(ms(90), ms(0)), us(85_500));
        // At least 2 ms, at most half.
        assert_eq!(aim(ms(10), ms(0)), ms(8));
        assert_eq!(aim(ms(2), ms(0)), ms(1));
        assert_eq!(aim(ms(80), ms(200)), ms(10));
        assert_eq!(TimeBudget::deepening_cutoff(ms(910)), ms(455));
    }
}
