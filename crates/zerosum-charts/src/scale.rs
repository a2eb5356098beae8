//! Scales: how a value maps to a pixel, which ticks an axis shows and how tick values read.
//!
//! A linear scale widens its domain to round ticks (steps of 1, 2 or 5 times a power of ten,
//! five to ten of them); a log scale to whole powers of ten, with a tick at each.

/// Linear or logarithmic (base 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScaleKind {
    Linear,
    /// Only positive values can be shown; the others are left out.
    Log,
}

/// A domain of values mapped onto a range of pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct Scale {
    pub kind: ScaleKind,
    /// The domain's ends, `low < high` (both positive on a log scale).
    pub low: f64,
    pub high: f64,
    /// The pixels of `low` and `high` (`to` may be less than `from`: y grows downwards).
    pub from: f64,
    pub to: f64,
    /// The values with a tick and a label, inside the domain.
    pub ticks: Vec<f64>,
    /// The distance between ticks (linear), for their labels' decimals.
    step: f64,
}

impl Scale {
    /// A scale of `kind` that shows every value of `values` that it can (finite, and positive
    /// on a log scale), widened to round ticks; a placeholder domain when there is none.
    pub fn fit(
        kind: ScaleKind,
        values: impl IntoIterator<Item = f64>,
        from: f64,
        to: f64,
    ) -> Scale {
        let shown = values
            .into_iter()
            .filter(|v| v.is_finite() && (kind == ScaleKind::Linear || *v > 0.0));
        let (mut low, mut high) = shown.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        if low > high {
            (low, high) = match kind {
                ScaleKind::Linear => (0.0, 1.0),
                ScaleKind::Log => (1.0, 10.0),
            };
        }
        match kind {
            ScaleKind::Linear => Scale::linear(low, high, from, to),
            ScaleKind::Log => Scale::log(low, high, from, to),
        }
    }

    /// Like [`Scale::fit`], but a linear domain ends at the values themselves (the ticks are
    /// the round values inside it): for an axis of counts, say, that should not run past the
    /// last game.
    pub fn fit_tight(
        kind: ScaleKind,
        values: impl IntoIterator<Item = f64>,
        from: f64,
        to: f64,
    ) -> Scale {
        let values: Vec<f64> = values.into_iter().filter(|v| v.is_finite()).collect();
        let wide = Scale::fit(kind, values.iter().copied(), from, to);
        let low = values.iter().copied().fold(f64::INFINITY, f64::min);
        let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if kind == ScaleKind::Log || low >= high {
            return wide;
        }
        let ticks = wide
            .ticks
            .iter()
            .copied()
            .filter(|t| (low - 1e-9..=high + 1e-9).contains(t))
            .collect();
        Scale {
            low,
            high,
            ticks,
            ..wide
        }
    }

    fn linear(low: f64, high: f64, from: f64, to: f64) -> Scale {
        let (low, high) = if high - low < 1e-9 {
            let pad = (low.abs() * 0.1).max(1.0);
            (low - pad, high + pad)
        } else {
            (low, high)
        };
        let step = nice_step((high - low) / 8.0);
        let low = (low / step).floor() * step;
        let high = (high / step).ceil() * step;
        let count = ((high - low) / step).round() as usize;
        let ticks = (0..=count).map(|i| low + i as f64 * step).collect();
        Scale {
            kind: ScaleKind::Linear,
            low,
            high,
            from,
            to,
            ticks,
            step,
        }
    }

    fn log(low: f64, high: f64, from: f64, to: f64) -> Scale {
        let first = low.log10().floor() as i32;
        let last = (high.log10().ceil() as i32).max(first + 1);
        // At most about eight labelled decades.
        let every = ((last - first) as usize).div_ceil(8).max(1);
        let ticks = (first..=last)
            .filter(|power| ((power - first) as usize).is_multiple_of(every))
            .map(|power| 10f64.powi(power))
            .collect();
        Scale {
            kind: ScaleKind::Log,
            low: 10f64.powi(first),
            high: 10f64.powi(last),
            from,
            to,
            ticks,
            step: 0.0,
        }
    }

    /// The same scale with ticks at whole numbers only, at least one apart, for an axis that
    /// counts (moves, games, iterations): a linear scale whose round steps are fractions
    /// (`1.5`, `2.5`) ticks every whole number of its domain instead.
    pub fn whole(self) -> Scale {
        if self.kind != ScaleKind::Linear || self.step >= 1.0 {
            return self;
        }
        let ticks = (self.low.ceil() as i64..=self.high.floor() as i64)
            .map(|tick| tick as f64)
            .collect();
        Scale {
            ticks,
            step: 1.0,
            ..self
        }
    }

    /// Narrows a linear scale to `low..=high` when that leaves out only outliers of little
    /// interest (error bars of the first games, say); values outside are drawn at the edge.
    pub fn clamp_domain(self, low: f64, high: f64) -> Scale {
        if self.kind == ScaleKind::Linear && low.is_finite() && high.is_finite() {
            Scale::linear(low.max(self.low), high.min(self.high), self.from, self.to)
        } else {
            self
        }
    }

    /// The pixel of `value`, held inside the range (infinite values at its ends).
    pub fn pixel(&self, value: f64) -> f64 {
        let share = match self.kind {
            ScaleKind::Linear => (value - self.low) / (self.high - self.low),
            ScaleKind::Log if value <= 0.0 => 0.0,
            ScaleKind::Log => {
                (value.log10() - self.low.log10()) / (self.high.log10() - self.low.log10())
            }
        };
        let share = if share.is_nan() {
            0.0
        } else {
            share.clamp(0.0, 1.0)
        };
        self.from + share * (self.to - self.from)
    }

    /// Whether `value` can be shown on this scale (finite, positive on a log scale).
    pub fn shows(&self, value: f64) -> bool {
        value.is_finite() && (self.kind == ScaleKind::Linear || value > 0.0)
    }

    /// The label of tick `value`.
    pub fn label(&self, value: f64) -> String {
        match self.kind {
            ScaleKind::Linear => format_value(value, self.step),
            ScaleKind::Log => format_value(value, value),
        }
    }
}

/// 1, 2 or 5 times a power of ten, at least `rough`.
fn nice_step(rough: f64) -> f64 {
    let power = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= rough * 0.999)
        .unwrap_or(10.0 * power)
}

/// A value as a tick reads: thousands as `k`, millions as `M`, billions as `G`; as many
/// decimals as `precision` (the distance to the next tick) needs.
pub fn format_value(value: f64, precision: f64) -> String {
    let magnitude = value.abs();
    for (unit, suffix) in [(1e9, "G"), (1e6, "M"), (1e3, "k")] {
        if magnitude >= unit && precision.abs() >= unit / 10.0 {
            let decimals = if precision.abs() >= unit { 0 } else { 1 };
            return trim(format!("{:.*}", decimals, value / unit)) + suffix;
        }
    }
    let decimals = if precision == 0.0 || precision.abs() >= 1.0 {
        0
    } else {
        (-precision.abs().log10().floor()) as usize
    };
    trim(format!("{value:.decimals$}"))
}

fn trim(text: String) -> String {
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    if text == "-0" {
        "0".into()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_scales_widen_to_round_ticks() {
        let scale = Scale::fit(ScaleKind::Linear, [-37.0, 212.0], 0.0, 100.0);
        assert_eq!(scale.low, -50.0);
        assert_eq!(scale.high, 250.0);
        assert_eq!(scale.ticks.len(), 7);
        assert_eq!(scale.pixel(-50.0), 0.0);
        assert_eq!(scale.pixel(250.0), 100.0);
        assert_eq!(scale.pixel(f64::INFINITY), 100.0);
        assert_eq!(scale.label(100.0), "100");
        let one = Scale::fit(ScaleKind::Linear, [5.0], 0.0, 1.0);
        assert!(one.low < 5.0 && one.high > 5.0);
    }

    #[test]
    fn tight_scales_end_at_the_values() {
        let scale = Scale::fit_tight(ScaleKind::Linear, [1.0, 504.0], 0.0, 100.0);
        assert_eq!((scale.low, scale.high), (1.0, 504.0));
        assert_eq!(scale.ticks, vec![100.0, 200.0, 300.0, 400.0, 500.0]);
        let one = Scale::fit_tight(ScaleKind::Linear, [3.0], 0.0, 100.0);
        assert!(one.low < 3.0 && one.high > 3.0);
    }

    #[test]
    fn whole_scales_tick_whole_numbers() {
        let scale = Scale::fit_tight(ScaleKind::Linear, [1.0, 2.0, 3.0], 0.0, 100.0);
        assert!(scale.ticks.iter().any(|t| t.fract() != 0.0), "{scale:?}");
        let whole = scale.whole();
        assert_eq!(whole.ticks, vec![1.0, 2.0, 3.0]);
        assert_eq!(whole.label(2.0), "2");
        let single = Scale::fit_tight(ScaleKind::Linear, [4.0], 0.0, 100.0).whole();
        assert!(single.ticks.contains(&4.0), "{single:?}");
        assert!(single.ticks.iter().all(|t| t.fract() == 0.0), "{single:?}");
        let long = Scale::fit_tight(ScaleKind::Linear, [1.0, 80.0], 0.0, 100.0);
        assert_eq!(long.clone().whole(), long, "steps of 10 are whole already");
    }

    #[test]
    fn log_scales_tick_powers_of_ten() {
        let scale = Scale::fit(ScaleKind::Log, [0.0, 3.0, 45_000.0], 300.0, 0.0);
        assert_eq!(scale.ticks, vec![1.0, 10.0, 100.0, 1e3, 1e4, 1e5]);
        assert_eq!(scale.pixel(1.0), 300.0);
        assert_eq!(scale.pixel(1e5), 0.0);
        assert!(!scale.shows(0.0));
        let labels: Vec<String> = scale.ticks.iter().map(|&t| scale.label(t)).collect();
        assert_eq!(labels, ["1", "10", "100", "1k", "10k", "100k"]);
        let small = Scale::fit(ScaleKind::Log, [0.002, 0.5], 0.0, 1.0);
        assert_eq!(small.label(0.001), "0.001");
    }

    #[test]
    fn values_read_with_units() {
        assert_eq!(format_value(2_500_000.0, 500_000.0), "2.5M");
        assert_eq!(format_value(0.25, 0.05), "0.25");
        assert_eq!(format_value(-0.0, 1.0), "0");
        assert_eq!(format_value(1500.0, 100.0), "1.5k");
        assert_eq!(format_value(1500.0, 1.0), "1500");
    }
}
