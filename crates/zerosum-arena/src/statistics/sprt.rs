//! A sequential probability ratio test for a two-player match: keep playing colour-swapped pairs
//! of games until the results show, with error rates `alpha` and `beta`, that the Elo difference
//! is `elo0` (H0) or `elo1` (H1).
//!
//! **Games are always paired.** The test reads complete colour-swapped pairs only, as
//! pentanomial counts (how many pairs scored 0, 1/2, 1, 3/2 and 2 points of 2, see
//! [`Pentanomial`]); a match under an SPRT is scheduled in pairs, and a lone game whose partner
//! is not finished waits. There is no per-game (trinomial) path.
//!
//! **Elo is logistic**: `elo0` and `elo1` are differences on the usual logistic scale (a player
//! `e` points stronger scores `1 / (1 + 10^(-e / 400))` per game, [`score_from_elo`]), the scale
//! of the Elo the standings print; not fishtest's normalized Elo.
//!
//! **The LLR** is the generalised SPRT (Michel Van den Bergh), computed as fastchess'
//! `getLLR_logistic` does. With the pair scores `a = (0, 1/4, 1/2, 3/4, 1)` and the observed
//! frequencies `q_i = n_i / N` (a count of 0 taken as 0.001, as fastchess does, so that the
//! distributions below exist and a match won pair after pair still ends), the distribution
//! closest to `q` whose mean is `s` is
//!
//! ```text
//! p_i(s) = q_i / (1 + theta * (a_i - s)),  where theta solves  sum q_i (a_i - s) / (1 + theta (a_i - s)) = 0
//! ```
//!
//! (Proposition 1.1 of "Comparing the approximations for the generalized log likelihood ratio
//! of a multinomial distribution"; `theta` is found by bisection where every `1 + theta (a_i -
//! s)` is positive, as the sum decreases with `theta`), and with `s0 = score(elo0)`,
//! `s1 = score(elo1)`:
//!
//! ```text
//! LLR = N * sum q_i * ln(p_i(s1) / p_i(s0))
//! ```
//!
//! The test goes on while `ln(beta / (1 - alpha)) < LLR < ln((1 - beta) / alpha)`; it accepts H0
//! at or below the lower bound and H1 at or above the upper one. A match that ends (its games
//! all played) before either bound is inconclusive at the cap: [`SprtStatus::verdict`] says
//! which of the three it is.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use thiserror::Error;

use crate::statistics::elo::{score_from_elo, Pentanomial};

/// The largest Elo difference a hypothesis may name, either way: the expected score per game
/// stays within 0.0032..0.9968.
pub const MAX_ELO: f64 = 1000.0;

/// The hypotheses and error rates of a test: H0 is "the first player is `elo0` Elo stronger",
/// H1 is "`elo1` stronger" (logistic Elo, at most [`MAX_ELO`] either way), `alpha` the chance to
/// accept H1 when H0 holds and `beta` the chance to accept H0 when H1 holds.
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
    #[error("SPRT: {key}={value} is outside -1000..=1000 (logistic Elo)")]
    EloRange { key: &'static str, value: f64 },
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

/// The state of a test after some pairs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtStatus {
    /// The log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// `ln(beta / (1 - alpha))`, negative.
    pub lower_bound: f64,
    /// `ln((1 - beta) / alpha)`, positive.
    pub upper_bound: f64,
    pub decision: SprtDecision,
    /// The complete colour-swapped pairs the LLR is computed from.
    pub pairs: u32,
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

    /// The line printed when a match ends, whatever ended it: `SPRT verdict: H1 accepted`,
    /// `H0 accepted` or, when the games ran out first, `inconclusive at the cap`, then the
    /// LLR, the bounds and the pairs, e.g. `SPRT verdict: inconclusive at the cap: llr 1.23,
    /// lbound -2.94, ubound 2.94, 100 pairs`.
    pub fn verdict(&self) -> String {
        let words = match self.decision {
            SprtDecision::Continue => "inconclusive at the cap",
            decided => decided.text(),
        };
        format!(
            "SPRT verdict: {words}: llr {:.2}, lbound {:.2}, ubound {:.2}, {} pair{}",
            self.llr,
            self.lower_bound,
            self.upper_bound,
            self.pairs,
            if self.pairs == 1 { "" } else { "s" }
        )
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

/// The scores of a pair (its points of 2, halved), index `h` for `h` half-points.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// What a count of 0 is taken as (fastchess' `regularize`).
const EMPTY_COUNT: f64 = 1e-3;

/// The distribution closest to the frequencies `q` (over [`PAIR_SCORES`]) whose mean is `s`,
/// `0 < s < 1`, every `q_i > 0` (see the module documentation).
fn closest_with_mean(q: &[f64; 5], s: f64) -> [f64; 5] {
    let sum = |theta: f64| -> f64 {
        PAIR_SCORES
            .iter()
            .zip(q)
            .map(|(&a, &q)| q * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    // Every 1 + theta (a_i - s) > 0 for theta in (-1 / (1 - s), 1 / s); the sum goes from +inf
    // to -inf there.
    let (mut low, mut high) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if sum(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let theta = 0.5 * (low + high);
    let mut p = [0.0; 5];
    for (i, p) in p.iter_mut().enumerate() {
        *p = q[i] / (1.0 + theta * (PAIR_SCORES[i] - s));
    }
    p
}

impl SprtParams {
    /// Checked parameters: `elo0 < elo1`, both within `-MAX_ELO..=MAX_ELO`; `alpha` and `beta` strictly between 0
    /// and 1 with `alpha + beta < 1` (otherwise the lower bound is not below the upper one).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<SprtParams, SprtError> {
        for (key, value) in [("elo0", elo0), ("elo1", elo1)] {
            if !value.is_finite() {
                return Err(SprtError::NotANumber {
                    key,
                    value: value.to_string(),
                });
            }
            if value.abs() > MAX_ELO {
                return Err(SprtError::EloRange { key, value });
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

    /// The log-likelihood ratio of H1 against H0 after the pairs `pentanomial` (formula in
    /// the module documentation); 0 without pairs.
    pub fn llr(&self, pentanomial: &Pentanomial) -> f64 {
        if pentanomial.pairs() == 0 {
            return 0.0;
        }
        let counts = pentanomial.counts.map(|n| match n {
            0 => EMPTY_COUNT,
            n => f64::from(n),
        });
        let total: f64 = counts.iter().sum();
        let q = counts.map(|n| n / total);
        let p0 = closest_with_mean(&q, score_from_elo(self.elo0));
        let p1 = closest_with_mean(&q, score_from_elo(self.elo1));
        total
            * (0..5)
                .map(|i| q[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
    }

    /// The state of the test after the pairs `pentanomial`.
    pub fn status(&self, pentanomial: &Pentanomial) -> SprtStatus {
        let llr = self.llr(pentanomial);
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
            pairs: pentanomial.pairs(),
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

    fn pairs(counts: [u32; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    #[test]
    fn pentanomial_llr_by_hand() {
        // 12 pairs scoring 0, 1/2, 1, 3/2 and 2 points: counts 1, 2, 4, 3, 2, so the pair
        // scores a = 0, 1/4, 1/2, 3/4, 1 have frequencies q = 1/12, 2/12, 4/12, 3/12, 2/12
        // (mean 6.75 / 12 = 0.5625). H0: elo0 = 0, s0 = 1/2; H1: elo1 = 50,
        // s1 = 1 / (1 + 10^(-50 / 400)) = 1 / (1 + 0.7498942) = 0.5714631.
        //
        // theta for s0, by Newton on f(t) = sum q_i d_i / (1 + t d_i), d_i = a_i - s0
        // = -1/2, -1/4, 0, 1/4, 1/2, f'(t) = -sum q_i d_i^2 / (1 + t d_i)^2:
        //   t = 0:         f = 0.5625 - 0.5 = 0.0625, f' = -1.0625 / 12 = -0.0885417
        //   t = 0.7058824: f = -0.00027, f' = -0.0991704
        //   t = 0.7031600: f = -2.4e-7 -> theta0 = 0.7031576
        // p0 = q / (1 + theta0 d) = 0.0833333 / 0.6484212, 0.1666667 / 0.8242106,
        //      0.3333333 / 1, 0.25 / 1.1757894, 0.1666667 / 1.3515788
        //    = 0.1285173, 0.2022137, 0.3333333, 0.2126231, 0.1233126 (sum 1, mean 1/2)
        // theta for s1, d_i = a_i - 0.5714631 = -0.5714631, -0.3214631, -0.0714631, 0.1785369,
        // 0.4285369:
        //   t = 0:          f = 0.5625 - 0.5714631 = -0.0089631, f' = -0.0847158
        //   t = -0.1058023: f = -0.0000554, f' = -0.0838473
        //   t = -0.1064632: f = -6.9e-10 -> theta1 = -0.1064632
        // p1 = q / (1 + theta1 d) = 0.0785541, 0.1611514, 0.3308164, 0.2548440, 0.1746341
        //      (sum 1, mean 0.5714631)
        // LLR = sum n_i ln(p1_i / p0_i)
        //     = 1 ln(0.0785541 / 0.1285173) + 2 ln(0.1611514 / 0.2022137)
        //       + 4 ln(0.3308164 / 0.3333333) + 3 ln(0.2548440 / 0.2126231)
        //       + 2 ln(0.1746341 / 0.1233126)
        //     = -0.4922757 - 0.4539612 - 0.0303176 + 0.5433910 + 0.6959407 = 0.2627772
        // (The normal approximation (s1 - s0)(2 N mean - N (s0 + s1)) / (2 var) gives 0.2712.)
        let params = params(0.0, 50.0);
        assert_close(params.llr(&pairs([1, 2, 4, 3, 2])), 0.262_777_2, 1e-6);
        let status = params.status(&pairs([1, 2, 4, 3, 2]));
        assert_eq!(status.decision, SprtDecision::Continue);
        assert_eq!(status.pairs, 12);
        // 0.2627772 / 2.944439 = 8.9%
        assert_eq!(
            status.to_string(),
            "SPRT: llr 0.26 (8.9%), lbound -2.94, ubound 2.94 - continue"
        );
    }

    #[test]
    fn pentanomial_llr_agrees_with_fastchess() {
        // fastchess' tests (app/tests/sprt_test.cpp, "logistic pentanomial 1" and "2"):
        // Stats(ll, ld, wl, dd, wd, ww) = (223, 9863, 20279, 1000, 10037, 246), elo 0.5..2.5,
        // LLR -3.07; (871, 26175, 55003, 980, 26678, 821), elo 0..2, LLR -4.98. A win and a
        // loss (wl) and two draws (dd) both score 1 point of 2.
        let first = SprtParams::new(0.5, 2.5, 0.05, 0.05).unwrap();
        assert_close(
            first.llr(&pairs([223, 9863, 21279, 10037, 246])),
            -3.07,
            0.005,
        );
        let second = params(0.0, 2.0);
        assert_close(
            second.llr(&pairs([871, 26175, 55983, 26678, 821])),
            -4.98,
            0.005,
        );
    }

    #[test]
    fn verdicts_for_each_outcome() {
        let params = params(0.0, 50.0);
        // Values from the formula of the module documentation (the same computation as the
        // hand-worked test above).
        let h1 = params.status(&pairs([0, 1, 6, 12, 6]));
        assert_close(h1.llr, 3.339_194, 1e-5);
        assert_eq!(h1.decision, SprtDecision::AcceptH1);
        assert!(h1.decision.is_final());
        assert_eq!(
            h1.verdict(),
            "SPRT verdict: H1 accepted: llr 3.34, lbound -2.94, ubound 2.94, 25 pairs"
        );
        let h0 = params.status(&pairs([6, 12, 6, 1, 0]));
        assert_close(h0.llr, -3.855_409, 1e-5);
        assert_eq!(h0.decision, SprtDecision::AcceptH0);
        assert_eq!(h0.to_string().split(" - ").last(), Some("H0 accepted"));
        assert_eq!(
            h0.verdict(),
            "SPRT verdict: H0 accepted: llr -3.86, lbound -2.94, ubound 2.94, 25 pairs"
        );
        let open = params.status(&pairs([1, 2, 4, 3, 2]));
        assert_eq!(
            open.verdict(),
            "SPRT verdict: inconclusive at the cap: llr 0.26, lbound -2.94, ubound 2.94, 12 pairs"
        );
        let none = params.status(&Pentanomial::default());
        assert_eq!(none.llr, 0.0);
        assert_eq!(none.progress_percent(), 0.0);
        assert!(none
            .verdict()
            .ends_with("llr 0.00, lbound -2.94, ubound 2.94, 0 pairs"));
    }

    #[test]
    fn a_match_won_pair_after_pair_ends() {
        // Empty counts are taken as 0.001 (as fastchess does): every pair won is evidence, and
        // 30 of them accept H1 of 0..50 where 20 do not yet.
        let params = params(0.0, 50.0);
        assert_close(params.llr(&pairs([0, 0, 0, 0, 20])), 2.672_083, 1e-5);
        assert_eq!(
            params.status(&pairs([0, 0, 0, 0, 30])).decision,
            SprtDecision::AcceptH1
        );
        assert_eq!(
            params.status(&pairs([30, 0, 0, 0, 0])).decision,
            SprtDecision::AcceptH0
        );
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
            error("elo0=-1001,elo1=5,alpha=0.05,beta=0.05"),
            "SPRT: elo0=-1001 is outside -1000..=1000 (logistic Elo)"
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
