//! A sequential probability ratio test for a two-player match: keep playing until the results
//! show, with error rates `alpha` and `beta`, that the Elo difference is `elo0` (H0) or `elo1`
//! (H1).
//!
//! The test is the generalised SPRT (Michel Van den Bergh, "A practical introduction to the
//! GSPRT") with the normal approximation, on logistic Elo, as fishtest and fastchess compute it.
//! For a sample of `n` scores in 0..=1 (games, or colour-swapped pairs whose points are halved)
//! with sum `S = n * mean` and variance `var` ([`ScoreSample`]), and the expected scores
//! `s0 = score_from_elo(elo0)`, `s1 = score_from_elo(elo1)`:
//!
//! ```text
//! LLR = (s1 - s0) * (2 * S - n * (s0 + s1)) / (2 * var)
//! ```
//!
//! which is `n` times the log-likelihood ratio of two normal distributions of the mean score
//! with the observed variance, centred on `s1` and on `s0`. The test goes on while
//! `ln(beta / (1 - alpha)) < LLR < ln((1 - beta) / alpha)`; it accepts H0 at or below the lower
//! bound and H1 at or above the upper one. Use the pentanomial sample (per pair) when the games
//! come in colour-swapped pairs, the trinomial one (per game) otherwise. Until the scores vary
//! (variance 0: no games, or all of them won, all drawn or all lost) the LLR is 0.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use thiserror::Error;

use crate::elo::{score_from_elo, ScoreSample};

/// The hypotheses and error rates of a test: H0 is "the first player is `elo0` Elo stronger",
/// H1 is "`elo1` stronger", `alpha` the chance to accept H1 when H0 holds and `beta` the chance
/// to accept H0 when H1 holds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtParams {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Why SPRT parameters were refused.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SprtError {
    #[error("SPRT: unknown key `{0}` (expected elo0, elo1, alpha and beta)")]
    UnknownKey(String),
    #[error("SPRT: `{0}` is not key=value (expected e.g. elo0=0,elo1=5,alpha=0.05,beta=0.05)")]
    NotKeyValue(String),
    #[error("SPRT: {key} is given twice")]
    Duplicate { key: &'static str },
    #[error("SPRT: {key} is missing (expected elo0, elo1, alpha and beta)")]
    Missing { key: &'static str },
    #[error("SPRT: {key}=`{value}` is not a finite number")]
    NotANumber { key: &'static str, value: String },
    #[error("SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})")]
    EloOrder { elo0: f64, elo1: f64 },
    #[error("SPRT: {key}={value} must lie strictly between 0 and 1")]
    Probability { key: &'static str, value: f64 },
    #[error("SPRT: alpha + beta ({sum}) must be less than 1, or the bounds cross")]
    ErrorSum { sum: f64 },
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtDecision {
    /// The LLR is between the bounds: play more games.
    Continue,
    /// The LLR reached the lower bound: H0 (`elo0`) is accepted.
    AcceptH0,
    /// The LLR reached the upper bound: H1 (`elo1`) is accepted.
    AcceptH1,
}

impl SprtDecision {
    /// True when the test has decided and the match can stop.
    pub const fn is_final(self) -> bool {
        !matches!(self, SprtDecision::Continue)
    }

    /// The words of the SPRT line: `continue`, `H0 accepted`, `H1 accepted`.
    pub const fn text(self) -> &'static str {
        match self {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        }
    }
}

/// The state of a test after some results.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtStatus {
    /// The log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// `ln(beta / (1 - alpha))`, negative.
    pub lower_bound: f64,
    /// `ln((1 - beta) / alpha)`, positive.
    pub upper_bound: f64,
    pub decision: SprtDecision,
}

impl SprtStatus {
    /// How far the LLR has gone towards the bound it heads for, in percent: `llr / upper_bound`
    /// when it is positive, `-llr / lower_bound` (a negative percentage) otherwise; 100 or -100
    /// at the bounds.
    pub fn progress_percent(&self) -> f64 {
        if self.llr >= 0.0 {
            100.0 * self.llr / self.upper_bound
        } else {
            -100.0 * self.llr / self.lower_bound
        }
    }
}

impl fmt::Display for SprtStatus {
    /// `SPRT: llr 1.23 (41.8%), lbound -2.94, ubound 2.94 - continue`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SPRT: llr {:.2} ({:.1}%), lbound {:.2}, ubound {:.2} - {}",
            self.llr,
            self.progress_percent(),
            self.lower_bound,
            self.upper_bound,
            self.decision.text()
        )
    }
}

impl SprtParams {
    /// Checked parameters: `elo0 < elo1`, both finite; `alpha` and `beta` strictly between 0
    /// and 1 with `alpha + beta < 1` (otherwise the lower bound is not below the upper one).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<SprtParams, SprtError> {
        for (key, value) in [("elo0", elo0), ("elo1", elo1)] {
            if !value.is_finite() {
                return Err(SprtError::NotANumber {
                    key,
                    value: value.to_string(),
                });
            }
        }
        if elo0 >= elo1 {
            return Err(SprtError::EloOrder { elo0, elo1 });
        }
        for (key, value) in [("alpha", alpha), ("beta", beta)] {
            // Written so that NaN is refused too.
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtError::Probability { key, value });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::ErrorSum { sum: alpha + beta });
        }
        Ok(SprtParams {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// `ln(beta / (1 - alpha))`: at or below it, H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// `ln((1 - beta) / alpha)`: at or above it, H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 for `sample` (formula in the module
    /// documentation); 0 when the sample's variance is 0.
    pub fn llr(&self, sample: &ScoreSample) -> f64 {
        if sample.variance <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        let n = f64::from(sample.count);
        let sum = n * sample.mean;
        (s1 - s0) * (2.0 * sum - n * (s0 + s1)) / (2.0 * sample.variance)
    }

    /// The state of the test after the results in `sample`; `None` (no results yet) is an LLR
    /// of 0.
    pub fn status(&self, sample: Option<&ScoreSample>) -> SprtStatus {
        let llr = sample.map_or(0.0, |sample| self.llr(sample));
        let lower_bound = self.lower_bound();
        let upper_bound = self.upper_bound();
        let decision = if llr >= upper_bound {
            SprtDecision::AcceptH1
        } else if llr <= lower_bound {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        };
        SprtStatus {
            llr,
            lower_bound,
            upper_bound,
            decision,
        }
    }
}

impl FromStr for SprtParams {
    type Err = SprtError;

    /// Reads `elo0=0,elo1=5,alpha=0.05,beta=0.05`: the four keys, each once, in any order,
    /// separated by commas or white space (so cutechess' `elo0=0 elo1=5 alpha=0.05 beta=0.05`
    /// is read too), then checks them as [`SprtParams::new`] does.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        const KEYS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        let mut values: [Option<f64>; 4] = [None; 4];
        for item in text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|item| !item.is_empty())
        {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(item.to_string()))?;
            let index = KEYS
                .iter()
                .position(|&known| known == key.trim())
                .ok_or_else(|| SprtError::UnknownKey(key.trim().to_string()))?;
            let key = KEYS[index];
            if values[index].is_some() {
                return Err(SprtError::Duplicate { key });
            }
            let number = value
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|number| number.is_finite())
                .ok_or_else(|| SprtError::NotANumber {
                    key,
                    value: value.to_string(),
                })?;
            values[index] = Some(number);
        }
        let mut checked = [0.0; 4];
        for (index, value) in values.into_iter().enumerate() {
            checked[index] = value.ok_or(SprtError::Missing { key: KEYS[index] })?;
        }
        let [elo0, elo1, alpha, beta] = checked;
        SprtParams::new(elo0, elo1, alpha, beta)
    }
}

impl fmt::Display for SprtParams {
    /// The form [`SprtParams::from_str`] reads: `elo0=0,elo1=5,alpha=0.05,beta=0.05`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::{Pentanomial, Wdl};

    fn assert_close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    fn params(elo0: f64, elo1: f64) -> SprtParams {
        SprtParams::new(elo0, elo1, 0.05, 0.05).unwrap()
    }

    #[test]
    fn bounds_for_five_percent_errors() {
        let params = params(0.0, 5.0);
        // ln(0.05 / 0.95) = ln(0.0526316) = -2.944439
        assert_close(params.lower_bound(), -2.944_439, 1e-6);
        // ln(0.95 / 0.05) = ln(19) = 2.944439
        assert_close(params.upper_bound(), 2.944_439, 1e-6);
    }

    #[test]
    fn trinomial_llr_by_hand() {
        let sample = Wdl::new(7, 2, 1).sample().unwrap();
        let params = params(0.0, 10.0);
        // s0 = 1/2; s1 = 1 / (1 + 10^(-10/400)) = 1 / (1 + 0.9440609) = 0.5143872
        // S = 7 + 2/2 = 8, n = 10, var = 0.11 (see the Elo tests)
        // LLR = (0.5143872 - 0.5) * (2 * 8 - 10 * 1.0143872) / (2 * 0.11)
        //     = 0.0143872 * 5.856128 / 0.22 = 0.382969
        assert_close(params.llr(&sample), 0.382_969, 1e-6);
        let status = params.status(Some(&sample));
        assert_eq!(status.decision, SprtDecision::Continue);
        // 0.382969 / 2.944439 = 13.0%
        assert_eq!(
            status.to_string(),
            "SPRT: llr 0.38 (13.0%), lbound -2.94, ubound 2.94 - continue"
        );
    }

    #[test]
    fn pentanomial_llr_by_hand() {
        let mut pentanomial = Pentanomial::default();
        for half_points in [1, 2, 2, 3, 4] {
            pentanomial.add_pair(half_points);
        }
        let sample = pentanomial.sample().unwrap();
        let params = params(0.0, 10.0);
        // per pair: n = 5, S = 0.25 + 0.5 + 0.5 + 0.75 + 1 = 3, var = 0.065 (see the Elo tests)
        // LLR = 0.0143872 * (2 * 3 - 5 * 1.0143872) / (2 * 0.065)
        //     = 0.0143872 * 0.928064 / 0.13 = 0.102709
        assert_close(params.llr(&sample), 0.102_709, 1e-6);
    }

    #[test]
    fn decisions_at_the_bounds() {
        let params = params(0.0, 10.0);
        // 60 wins, 20 losses: S = 60, n = 80, mean 0.75, var = 0.75 * 0.25 = 0.1875
        // LLR = 0.0143872 * (120 - 80 * 1.0143872) / 0.375 = 0.0143872 * 38.84902 / 0.375
        //     = 1.490475: still between the bounds
        let sample = Wdl::new(60, 0, 20).sample().unwrap();
        assert_close(params.llr(&sample), 1.490_475, 1e-6);
        assert_eq!(
            params.status(Some(&sample)).decision,
            SprtDecision::Continue
        );
        // 120 wins, 40 losses: twice the sum and count, same variance: LLR = 0.0143872 *
        // (240 - 160 * 1.0143872) / 0.375 = 0.0143872 * 77.69805 / 0.375 = 2.980950 >= 2.944
        let sample = Wdl::new(120, 0, 40).sample().unwrap();
        let status = params.status(Some(&sample));
        assert_eq!(status.decision, SprtDecision::AcceptH1);
        assert!(status.decision.is_final());
        // The mirror image: 40 wins, 120 losses, LLR = 0.0143872 * (80 - 162.30195) / 0.375
        // = -3.158 <= -2.944
        let sample = Wdl::new(40, 0, 120).sample().unwrap();
        let status = params.status(Some(&sample));
        assert_eq!(status.decision, SprtDecision::AcceptH0);
        assert_eq!(status.to_string().split(" - ").last(), Some("H0 accepted"));
    }

    #[test]
    fn no_variance_no_evidence() {
        let params = params(0.0, 5.0);
        let all_wins = Wdl::new(3, 0, 0).sample().unwrap();
        assert_eq!(params.llr(&all_wins), 0.0);
        let status = params.status(None);
        assert_eq!(status.llr, 0.0);
        assert_eq!(status.decision, SprtDecision::Continue);
        assert_eq!(status.progress_percent(), 0.0);
    }

    #[test]
    fn parses_parameters() {
        let parsed: SprtParams = "elo0=0,elo1=5,alpha=0.05,beta=0.1".parse().unwrap();
        assert_eq!(parsed, SprtParams::new(0.0, 5.0, 0.05, 0.1).unwrap());
        let spaced: SprtParams = "beta=0.1 alpha=0.05  elo1=5 elo0=0".parse().unwrap();
        assert_eq!(spaced, parsed);
        assert_eq!(parsed.to_string(), "elo0=0,elo1=5,alpha=0.05,beta=0.1");
        assert_eq!(parsed.to_string().parse(), Ok(parsed));
    }

    #[test]
    fn refuses_bad_parameters_with_the_culprit_named() {
        let error = |text: &str| text.parse::<SprtParams>().unwrap_err().to_string();
        assert_eq!(
            error("elo0=0,elo1=5,alfa=0.05,beta=0.05"),
            "SPRT: unknown key `alfa` (expected elo0, elo1, alpha and beta)"
        );
        assert_eq!(
            error("elo0=0,elo1=five,alpha=0.05,beta=0.05"),
            "SPRT: elo1=`five` is not a finite number"
        );
        assert_eq!(
            error("elo0=0,elo1=5,alpha=0.05"),
            "SPRT: beta is missing (expected elo0, elo1, alpha and beta)"
        );
        assert_eq!(
            error("elo0=0,elo0=1,elo1=5,alpha=0.05,beta=0.05"),
            "SPRT: elo0 is given twice"
        );
        assert_eq!(
            error("elo0=0,elo1,alpha=0.05,beta=0.05"),
            "SPRT: `elo1` is not key=value (expected e.g. elo0=0,elo1=5,alpha=0.05,beta=0.05)"
        );
        assert_eq!(
            error("elo0=5,elo1=5,alpha=0.05,beta=0.05"),
            "SPRT: elo0 (5) must be less than elo1 (5)"
        );
        assert_eq!(
            error("elo0=0,elo1=5,alpha=0,beta=0.05"),
            "SPRT: alpha=0 must lie strictly between 0 and 1"
        );
        assert_eq!(
            error("elo0=0,elo1=5,alpha=0.05,beta=1"),
            "SPRT: beta=1 must lie strictly between 0 and 1"
        );
        assert_eq!(
            error("elo0=0,elo1=5,alpha=0.6,beta=0.5"),
            "SPRT: alpha + beta (1.1) must be less than 1, or the bounds cross"
        );
    }
}
