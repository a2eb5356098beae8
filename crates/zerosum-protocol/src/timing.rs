//! The safety reserve kept back from every time budget.

use std::time::Duration;

/// The part of `budget` an engine may think: a tenth is kept back for answering and for a
/// busy machine, at most 50 ms plus 2%.
pub fn with_reserve(budget: Duration) -> Duration {
    let reserve = budget
        .mul_f64(0.1)
        .min(Duration::from_millis(50) + budget.mul_f64(0.02));
    budget - reserve
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserve_is_a_tenth_capped_at_50_ms_plus_2_percent() {
        assert_eq!(
            with_reserve(Duration::from_millis(100)),
            Duration::from_millis(90)
        );
        assert_eq!(
            with_reserve(Duration::from_secs(10)),
            Duration::from_millis(9_750)
        );
        assert_eq!(with_reserve(Duration::ZERO), Duration::ZERO);
    }
}
