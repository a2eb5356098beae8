//! Elo differences with a 95% error bar, computed from game results (wins, draws, losses), never
//! from a scheme's points.
//!
//! Two ways to sample the results, as cutechess-cli and fastchess do:
//!
//! - **trinomial**: one sample per game, scoring 1 for a win, 1/2 for a draw and 0 for a loss
//!   ([`Wdl::sample`]);
//! - **pentanomial**: one sample per colour-swapped pair of games, the pair's score out of 2
//!   (0, 1/2, 1, 3/2 or 2) halved to lie in 0..=1 ([`Pentanomial::sample`]). The two games of a
//!   pair are correlated (same configuration, colours exchanged), and per-pair statistics take
//!   that into account; their error bars are the honest ones for a two-player match.
//!
//! From a sample of `n` scores `x_i` in 0..=1 ([`ScoreSample`]): the mean `p = sum(x_i) / n`,
//! the variance `v = sum((x_i - p)^2) / n` (the population variance of the observed scores),
//! the standard error of the mean `se = sqrt(v / n)`. The Elo difference is
//! [`elo_from_score`]`(p) = -400 * log10(1 / p - 1)` and the 95% interval maps the two ends
//! `p - 1.96 * se` and `p + 1.96 * se` through the same formula ([`EloEstimate`]). A score of 1
//! (or 0) has an infinite Elo difference, represented by `f64::INFINITY` (`NEG_INFINITY`); it is
//! never printed as a number: the text says `n/a` and why (`n/a: every pair won`), an interval
//! with an infinite end gives its finite end alone (`+240.8 (95% above +66.4)`), and JSON
//! carries `null`.

use std::fmt;
use std::ops::AddAssign;

use serde::{Serialize, Serializer};

/// The quantile of the standard normal distribution for a two-sided 95% interval.
pub const Z_95: f64 = 1.96;

/// Wins, draws and losses, from one player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    /// The count of `wins`, `draws` and `losses`.
    pub const fn new(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// The number of games.
    pub const fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The share of drawn games, in 0..=1; `None` without games.
    pub fn draw_ratio(self) -> Option<f64> {
        (self.games() > 0).then(|| f64::from(self.draws) / f64::from(self.games()))
    }

    /// The trinomial sample: one score per game (win 1, draw 1/2, loss 0); `None` without
    /// games.
    pub fn sample(self) -> Option<ScoreSample> {
        ScoreSample::from_counts(
            SampleUnit::Game,
            &[(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)],
        )
    }

    /// The Elo difference from the trinomial sample; `None` without games.
    pub fn elo(self) -> Option<EloEstimate> {
        self.sample().map(EloEstimate::from_sample)
    }
}

impl AddAssign for Wdl {
    fn add_assign(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

impl fmt::Display for Wdl {
    /// `wins-draws-losses`, e.g. `7-2-1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

/// How many colour-swapped pairs of games scored 0, 1/2, 1, 3/2 and 2 points (out of 2), from
/// one player's point of view: `counts[h]` is the number of pairs that scored `h` half-points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts one more pair that scored `half_points` (0..=4: 2 for a win, 1 for a draw and 0
    /// for a loss in each of its two games).
    ///
    /// # Panics
    ///
    /// If `half_points > 4`, which no pair of two games can score.
    pub fn add_pair(&mut self, half_points: usize) {
        assert!(
            half_points <= 4,
            "a pair of games scores 0 to 4 half-points, not {half_points}"
        );
        self.counts[half_points] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The same pairs from the opponent's point of view: `counts` reversed.
    pub fn mirrored(&self) -> Pentanomial {
        let mut counts = self.counts;
        counts.reverse();
        Pentanomial { counts }
    }

    /// The pentanomial sample: one score per pair, the pair's points halved (0, 1/4, 1/2, 3/4
    /// or 1); `None` without pairs.
    pub fn sample(&self) -> Option<ScoreSample> {
        let values: Vec<(f64, u32)> = (0..5)
            .map(|half_points| (half_points as f64 / 4.0, self.counts[half_points]))
            .collect();
        ScoreSample::from_counts(SampleUnit::Pair, &values)
    }

    /// The Elo difference from the pentanomial sample; `None` without pairs.
    pub fn elo(&self) -> Option<EloEstimate> {
        self.sample().map(EloEstimate::from_sample)
    }
}

/// What the tables print for an Elo difference before any colour-swapped pair of games is
/// complete (a lone game says little: its colour decides much of it).
pub const NO_PAIR_YET: &str = "n/a: no complete pair yet";

/// The one Elo estimate every table of zerosum prints for a player or a match: from the
/// colour-swapped pairs (pentanomial); `None` (printed [`NO_PAIR_YET`]) before a pair is
/// complete. Standings and match lines both use it, so a player's error bar is the same
/// wherever it is printed.
pub fn paired_elo(pentanomial: &Pentanomial) -> Option<EloEstimate> {
    pentanomial.elo()
}

impl fmt::Display for Pentanomial {
    /// The counts as fastchess prints them after `Ptnml(0-2):`, e.g. `[0, 1, 2, 1, 1]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [zero, half, one, one_and_half, two] = self.counts;
        write!(f, "[{zero}, {half}, {one}, {one_and_half}, {two}]")
    }
}

/// What one observation of a [`ScoreSample`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SampleUnit {
    /// One game (trinomial statistics).
    Game,
    /// One colour-swapped pair of games (pentanomial statistics).
    Pair,
}

impl SampleUnit {
    /// The name of the statistics: `trinomial` or `pentanomial`.
    pub const fn model(self) -> &'static str {
        match self {
            SampleUnit::Game => "trinomial",
            SampleUnit::Pair => "pentanomial",
        }
    }
}

/// `count` scores in 0..=1 summed up by their mean and their (population) variance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ScoreSample {
    /// What one score is: a game or a pair of games.
    pub unit: SampleUnit,
    /// The number of scores, at least 1.
    pub count: u32,
    /// The mean score `p`, in 0..=1.
    pub mean: f64,
    /// `sum((x_i - p)^2) / count`, the variance of one score.
    pub variance: f64,
}

impl ScoreSample {
    /// The sample made of `weight` copies of each `(score, weight)`; `None` when the weights
    /// add up to 0.
    fn from_counts(unit: SampleUnit, values: &[(f64, u32)]) -> Option<ScoreSample> {
        let count: u32 = values.iter().map(|&(_, weight)| weight).sum();
        if count == 0 {
            return None;
        }
        let n = f64::from(count);
        let mean = values
            .iter()
            .map(|&(score, weight)| score * f64::from(weight))
            .sum::<f64>()
            / n;
        let variance = values
            .iter()
            .map(|&(score, weight)| (score - mean).powi(2) * f64::from(weight))
            .sum::<f64>()
            / n;
        Some(ScoreSample {
            unit,
            count,
            mean,
            variance,
        })
    }

    /// The standard error of the mean: `sqrt(variance / count)`.
    pub fn standard_error(&self) -> f64 {
        (self.variance / f64::from(self.count)).sqrt()
    }

    /// The likelihood of superiority: the probability that the true mean score is above 1/2,
    /// in the normal approximation `Phi((mean - 1/2) / standard_error)`. With a standard error
    /// of 0 it is 1, 0 or 1/2 as the mean is above, below or at 1/2.
    pub fn los(&self) -> f64 {
        let se = self.standard_error();
        let excess = self.mean - 0.5;
        if se > 0.0 {
            normal_cdf(excess / se)
        } else if excess > 0.0 {
            1.0
        } else if excess < 0.0 {
            0.0
        } else {
            0.5
        }
    }
}

/// The Elo difference of a player that scores `score` (in 0..=1) per game:
/// `-400 * log10(1 / score - 1)`; `+inf` at a score of 1 or more, `-inf` at 0 or less.
pub fn elo_from_score(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        // The same as -400 * log10(1 / score - 1), but +0 rather than -0 at a score of 1/2.
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// The expected score per game of a player `elo` points stronger (the inverse of
/// [`elo_from_score`]): `1 / (1 + 10^(-elo / 400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% confidence interval and likelihood of superiority.
///
/// Infinite values (`f64::INFINITY`, `f64::NEG_INFINITY`) are never written as numbers: JSON
/// carries `null`, text says what is known instead (see the [`fmt::Display`] impl).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// The sample the estimate is computed from.
    pub sample: ScoreSample,
    /// The Elo difference of the mean score.
    #[serde(serialize_with = "serialize_elo")]
    pub elo: f64,
    /// The Elo difference of `mean - 1.96 * standard_error` (clamped: `-inf` at or below 0).
    #[serde(serialize_with = "serialize_elo")]
    pub lower: f64,
    /// The Elo difference of `mean + 1.96 * standard_error` (clamped: `+inf` at or above 1).
    #[serde(serialize_with = "serialize_elo")]
    pub upper: f64,
    /// Half the width of the interval, `(upper - lower) / 2`, as cutechess-cli and fastchess
    /// print after `+/-`; infinite when an end is. The interval is not symmetric around `elo`:
    /// `lower` and `upper` are the exact ends.
    #[serde(serialize_with = "serialize_elo")]
    pub margin: f64,
    /// The likelihood of superiority ([`ScoreSample::los`]), in 0..=1.
    pub los: f64,
}

impl EloEstimate {
    /// The estimate from `sample`.
    pub fn from_sample(sample: ScoreSample) -> EloEstimate {
        let half_width = Z_95 * sample.standard_error();
        let lower = elo_from_score(sample.mean - half_width);
        let upper = elo_from_score(sample.mean + half_width);
        let margin = if lower.is_finite() && upper.is_finite() {
            (upper - lower) / 2.0
        } else {
            f64::INFINITY
        };
        EloEstimate {
            sample,
            elo: elo_from_score(sample.mean),
            lower,
            upper,
            margin,
            los: sample.los(),
        }
    }
}

impl EloEstimate {
    /// The 95% interval in words: `95% interval -2.4 to +194.1`; with an end unbounded (a
    /// score of 0 or 1 lies inside it) the other end alone, `95% above +66.4` or `95% below
    /// -66.4`; `95% unbounded` when both are.
    pub fn interval_text(&self) -> String {
        match (self.lower.is_finite(), self.upper.is_finite()) {
            (true, true) => format!(
                "95% interval {} to {}",
                elo_text(self.lower),
                elo_text(self.upper)
            ),
            (true, false) => format!("95% above {}", elo_text(self.lower)),
            (false, true) => format!("95% below {}", elo_text(self.upper)),
            (false, false) => "95% unbounded".to_string(),
        }
    }
}

impl fmt::Display for EloEstimate {
    /// `+35.2 +/- 20.1` (one decimal, signed, +/- half the 95% interval); when an end of the
    /// interval is unbounded, the interval in words instead of the error bar, `+240.8 (95%
    /// above +66.4)` ([`EloEstimate::interval_text`]); when the difference itself is infinite
    /// (every score 1, or every score 0), `n/a: every pair won` (`lost`; `game` for a
    /// trinomial sample).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.elo.is_finite() {
            let unit = match self.sample.unit {
                SampleUnit::Game => "game",
                SampleUnit::Pair => "pair",
            };
            let result = if self.elo > 0.0 { "won" } else { "lost" };
            return write!(f, "n/a: every {unit} {result}");
        }
        if self.margin.is_finite() {
            write!(f, "{} +/- {:.1}", elo_text(self.elo), self.margin)
        } else {
            write!(f, "{} ({})", elo_text(self.elo), self.interval_text())
        }
    }
}

/// A finite Elo value with its sign and one decimal: `+35.2`, `-4.0`.
fn elo_text(elo: f64) -> String {
    format!("{elo:+.1}")
}

/// Writes a finite Elo value as a JSON number and an infinite one as `null` (JSON has no
/// infinity).
fn serialize_elo<S: Serializer>(elo: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if elo.is_finite() {
        serializer.serialize_f64(*elo)
    } else {
        serializer.serialize_none()
    }
}

/// The standard normal distribution function, `Phi(x) = (1 + erf(x / sqrt 2)) / 2`, with `erf`
/// from Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    #[test]
    fn seven_wins_two_draws_one_loss() {
        let estimate = Wdl::new(7, 2, 1).elo().unwrap();
        // p = (7 + 2/2) / 10 = 0.8
        assert_close(estimate.sample.mean, 0.8, 1e-12);
        // v = (7 * 0.2^2 + 2 * 0.3^2 + 1 * 0.8^2) / 10 = (0.28 + 0.18 + 0.64) / 10 = 0.11
        assert_close(estimate.sample.variance, 0.11, 1e-12);
        // se = sqrt(0.11 / 10) = 0.1048809
        assert_close(estimate.sample.standard_error(), 0.104_880_9, 1e-7);
        // elo = -400 * log10(1 / 0.8 - 1) = -400 * log10(0.25) = 240.824
        assert_close(estimate.elo, 240.824, 1e-3);
        // p - 1.96 se = 0.8 - 0.2055665 = 0.5944335; 1 / 0.5944335 - 1 = 0.6822741;
        // -400 * log10(0.6822741) = 66.416
        assert_close(estimate.lower, 66.416, 1e-3);
        // p + 1.96 se = 1.0056 > 1: the upper end is infinite, and so is the margin
        assert_eq!(estimate.upper, f64::INFINITY);
        assert_eq!(estimate.margin, f64::INFINITY);
        assert_eq!(estimate.to_string(), "+240.8 (95% above +66.4)");
        // LOS = Phi((0.8 - 0.5) / 0.1048809) = Phi(2.8604) = 0.99788
        assert_close(estimate.los, 0.997_88, 1e-5);
        // 2 draws of 10 games
        assert_eq!(Wdl::new(7, 2, 1).draw_ratio(), Some(0.2));
    }

    #[test]
    fn finite_interval() {
        let estimate = Wdl::new(20, 10, 10).elo().unwrap();
        // p = (20 + 5) / 40 = 0.625; elo = -400 * log10(0.6) = 88.739
        assert_close(estimate.elo, 88.739, 1e-3);
        // v = (20 * 0.375^2 + 10 * 0.125^2 + 10 * 0.625^2) / 40 = 6.875 / 40 = 0.171875
        // se = sqrt(0.171875 / 40) = 0.0655506; 1.96 se = 0.1284791
        // lower: p = 0.4965209, -400 * log10(1 / p - 1) = -2.418
        // upper: p = 0.7534791, -400 * log10(1 / p - 1) = 194.087
        assert_close(estimate.lower, -2.418, 1e-3);
        assert_close(estimate.upper, 194.087, 1e-3);
        // margin = (194.087 + 2.418) / 2 = 98.252
        assert_close(estimate.margin, 98.252, 1e-3);
        assert_eq!(estimate.to_string(), "+88.7 +/- 98.3");
        assert_eq!(estimate.interval_text(), "95% interval -2.4 to +194.1");
    }

    #[test]
    fn perfect_and_null_scores_are_infinite() {
        let all_wins = Wdl::new(5, 0, 0).elo().unwrap();
        // p = 1, v = 0: every end of the interval is +inf
        assert_eq!(all_wins.elo, f64::INFINITY);
        assert_eq!(all_wins.lower, f64::INFINITY);
        assert_eq!(all_wins.los, 1.0);
        assert_eq!(all_wins.to_string(), "n/a: every game won");
        let all_losses = Wdl::new(0, 0, 3).elo().unwrap();
        assert_eq!(all_losses.elo, f64::NEG_INFINITY);
        assert_eq!(all_losses.los, 0.0);
        assert_eq!(all_losses.to_string(), "n/a: every game lost");
        let json = serde_json::to_value(all_losses).unwrap();
        assert_eq!(json["elo"], serde_json::Value::Null);
        assert_eq!(json["margin"], serde_json::Value::Null);
        let mut pairs = Pentanomial::default();
        pairs.add_pair(4);
        pairs.add_pair(4);
        assert_eq!(
            paired_elo(&pairs).unwrap().to_string(),
            "n/a: every pair won"
        );
    }

    #[test]
    fn no_games_no_estimate() {
        assert_eq!(Wdl::default().elo(), None);
        assert_eq!(Wdl::default().draw_ratio(), None);
        assert_eq!(Pentanomial::default().elo(), None);
        assert_eq!(paired_elo(&Pentanomial::default()), None);
    }

    #[test]
    fn an_interval_unbounded_both_ways_is_said_so() {
        // Two pairs, one lost 0-2 and one won 2-0: p = 1/2, v = 1/4, se = sqrt(1/8) = 0.354,
        // 1.96 se = 0.693: both ends leave 0..1.
        let mut pairs = Pentanomial::default();
        pairs.add_pair(0);
        pairs.add_pair(4);
        let estimate = pairs.elo().unwrap();
        assert_eq!(estimate.to_string(), "+0.0 (95% unbounded)");
        let json = serde_json::to_value(estimate).unwrap();
        assert_eq!(json["elo"], 0.0);
        assert_eq!(json["lower"], serde_json::Value::Null);
    }

    #[test]
    fn all_draws_is_zero_with_no_spread() {
        let estimate = Wdl::new(0, 4, 0).elo().unwrap();
        // p = 1/2: elo = -400 * log10(1) = 0; v = 0 so both ends are 0
        assert_eq!(estimate.elo, 0.0);
        assert_eq!(estimate.margin, 0.0);
        assert_eq!(estimate.los, 0.5);
        assert_eq!(estimate.to_string(), "+0.0 +/- 0.0");
    }

    #[test]
    fn pentanomial_mean_and_variance_per_pair() {
        let mut pentanomial = Pentanomial::default();
        // Pairs scoring 0.5, 1, 1, 1.5 and 2 points of 2 (1, 2, 2, 3 and 4 half-points).
        for half_points in [1, 2, 2, 3, 4] {
            pentanomial.add_pair(half_points);
        }
        assert_eq!(pentanomial.counts, [0, 1, 2, 1, 1]);
        assert_eq!(pentanomial.to_string(), "[0, 1, 2, 1, 1]");
        let sample = pentanomial.sample().unwrap();
        assert_eq!(sample.unit, SampleUnit::Pair);
        assert_eq!(sample.count, 5);
        // scores halved: 0.25, 0.5, 0.5, 0.75, 1; mean = 3 / 5 = 0.6
        assert_close(sample.mean, 0.6, 1e-12);
        // deviations -0.35, -0.1, -0.1, 0.15, 0.4; squares 0.1225 + 0.01 + 0.01 + 0.0225 + 0.16
        // = 0.325; variance = 0.325 / 5 = 0.065
        assert_close(sample.variance, 0.065, 1e-12);
        assert_eq!(pentanomial.mirrored().counts, [1, 1, 2, 1, 0]);
        let estimate = pentanomial.elo().unwrap();
        // elo = -400 * log10(1 / 0.6 - 1) = 70.437
        assert_close(estimate.elo, 70.437, 1e-3);
        // se = sqrt(0.065 / 5) = 0.1140175; 1.96 se = 0.2234744
        // lower: p = 0.3765257, -400 * log10(1 / p - 1) = -87.610
        // upper: p = 0.8234743, -400 * log10(1 / p - 1) = 267.537
        assert_close(estimate.lower, -87.610, 1e-3);
        assert_close(estimate.upper, 267.537, 1e-3);
        assert_eq!(estimate.to_string(), "+70.4 +/- 177.6");
    }

    #[test]
    #[should_panic(expected = "0 to 4 half-points")]
    fn a_pair_cannot_score_more_than_two_points() {
        Pentanomial::default().add_pair(5);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        // 10^(-100 / 400) = 0.5623413; 1 / 1.5623413 = 0.6400649
        assert_close(score_from_elo(100.0), 0.640_064_9, 1e-7);
        assert_close(elo_from_score(score_from_elo(-123.4)), -123.4, 1e-9);
        assert_eq!(elo_from_score(0.5), 0.0);
    }

    #[test]
    fn normal_cdf_matches_tables() {
        // Phi(0) = 0.5, Phi(1.96) = 0.9750021, Phi(-1) = 0.1586553
        assert_close(normal_cdf(0.0), 0.5, 1e-7);
        assert_close(normal_cdf(1.96), 0.975_002_1, 2e-7);
        assert_close(normal_cdf(-1.0), 0.158_655_3, 2e-7);
    }

    #[test]
    fn wdl_text_and_sums() {
        let mut total = Wdl::new(1, 2, 3);
        total += Wdl::new(4, 0, 1);
        assert_eq!(total, Wdl::new(5, 2, 4));
        assert_eq!(total.games(), 11);
        assert_eq!(total.to_string(), "5-2-4");
    }
}
