//! Gomocup time: the INFO keys `timeout_turn`, `timeout_match` and `time_left`, and the
//! budget of the next move.

use std::time::Duration;

use zerosum_core::TimeBudget;

/// The time limits the manager announced, and the game time left.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GomocupTiming {
    /// Per move (`timeout_turn`); zero asks for fast play.
    turn: Option<Duration>,
    /// Per game (`timeout_match`); `None` for no limit.
    game: Option<Duration>,
    /// Game time left (`time_left`, or the game time less the engine's own moves).
    left: Option<Duration>,
}

impl GomocupTiming {
    /// `INFO timeout_turn MS`.
    pub fn set_turn(&mut self, limit: Duration) {
        self.turn = Some(limit);
    }

    /// `INFO timeout_match MS`; 0 means no limit.
    pub fn set_game(&mut self, limit: Duration) {
        self.game = (!limit.is_zero()).then_some(limit);
        self.left = self.game;
    }

    /// `INFO time_left MS`.
    pub fn set_left(&mut self, left: Duration) {
        self.left = Some(left);
    }

    /// A new game: the whole game time again.
    pub fn restart(&mut self) {
        self.left = self.game;
    }

    /// The engine's move took `elapsed`.
    pub fn spend(&mut self, elapsed: Duration) {
        if let Some(left) = &mut self.left {
            *left = left.saturating_sub(elapsed);
        }
    }

    /// How long the engine may think on its next move, the protocol's overhead deducted
    /// ([`TimeBudget::served`]): the per-move limit, or a twentieth of the game time left when
    /// that is less; `None` when untimed.
    pub fn budget(&self) -> Option<Duration> {
        let from_game = self.left.map(TimeBudget::clock_share);
        let budget = match (self.turn, from_game) {
            (Some(turn), Some(game)) => turn.min(game),
            (turn, game) => turn.or(game)?,
        };
        Some(TimeBudget::new(budget).served().duration())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn budget_is_the_tighter_limit_less_the_reserve() {
        let mut timing = GomocupTiming::default();
        assert_eq!(timing.budget(), None);
        timing.set_turn(ms(1_000));
        assert_eq!(timing.budget(), Some(ms(930)));
        timing.set_game(ms(10_000));
        assert_eq!(timing.budget(), Some(ms(450)));
        timing.spend(ms(8_000));
        assert_eq!(timing.budget(), Some(ms(90)));
        timing.restart();
        timing.set_left(ms(100_000));
        assert_eq!(timing.budget(), Some(ms(930)));
        timing.set_turn(ms(0));
        assert_eq!(timing.budget(), Some(ms(0)));
        timing.set_game(ms(0));
        timing.set_turn(ms(200));
        assert_eq!(timing.budget(), Some(ms(180)));
    }
}
