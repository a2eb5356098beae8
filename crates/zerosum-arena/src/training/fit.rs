//! Logistic regression of the pattern weights on labelled positions.
//!
//! A position's static value `v` (the sum of its terms, [`Samples`]) predicts the side to
//! move's expected score as `sigmoid(v / scale)`; the loss is the mean cross-entropy of those
//! predictions against the game results (1 a win, 1/2 a draw, 0 a loss), plus
//! `l2 / 2 * sum((w - prior)^2)` over the parameters, which keeps the weights of rare codes near
//! the prior's (parameters no position holds stay at the prior). The scale is fitted first,
//! with the prior weights, by golden-section search (so the evaluation keeps its units); then
//! the weights, by full-batch Adam with a learning rate falling linearly to zero, in a fixed
//! order of floating-point sums, so a fit is reproducible.

use super::self_play::Samples;

/// How the weights are fitted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Full passes over the training samples.
    pub epochs: usize,
    /// Strength of the pull towards the prior, per squared parameter unit.
    pub l2: f64,
    /// Adam's first step for cell weights (1/16 evaluation units) and initiative entries
    /// (evaluation units).
    pub cell_rate: f64,
    pub initiative_rate: f64,
}

impl Default for FitOptions {
    /// 300 epochs, `l2` 1e-8 (the best of 1e-6 to 1e-9 on the validation games of a run of
    /// 400), steps of 8/16 and 2 evaluation units.
    fn default() -> Self {
        FitOptions {
            epochs: 300,
            l2: 1e-8,
            cell_rate: 8.0,
            initiative_rate: 2.0,
        }
    }
}

/// Cell parameters come first, the initiative table after this many.
fn is_cell(parameter: usize, cell_parameters: usize) -> bool {
    parameter < cell_parameters
}

/// The static value of each sample under `parameters`, in evaluation units.
fn values(samples: &Samples, parameters: &[f64]) -> Vec<f64> {
    samples
        .samples
        .iter()
        .map(|sample| {
            samples
                .terms_of(sample)
                .iter()
                .map(|&(p, c)| f64::from(c) * parameters[p as usize])
                .sum::<f64>()
                / 16.0
        })
        .collect()
}

/// `sigmoid(x)`.
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean cross-entropy of `sigmoid(value / scale)` against the samples' results (0 for
/// no samples).
pub fn loss(samples: &Samples, parameters: &[f64], scale: f64) -> f64 {
    if samples.samples.is_empty() {
        return 0.0;
    }
    let total: f64 = values(samples, parameters)
        .iter()
        .zip(&samples.samples)
        .map(|(&value, sample)| {
            let target = f64::from(sample.half_points) / 2.0;
            // log(1 + e^-x) and log(1 + e^x), computed without overflow.
            let x = value / scale;
            let softplus = |x: f64| x.max(0.0) + (-x.abs()).exp().ln_1p();
            target * softplus(-x) + (1.0 - target) * softplus(x)
        })
        .sum();
    total / samples.samples.len() as f64
}

/// The scale that fits `parameters` best on `samples`: golden-section search of the loss
/// over 10 to 5,000 evaluation units (on a logarithmic axis).
pub fn fit_scale(samples: &Samples, parameters: &[f64]) -> f64 {
    let at = |log_scale: f64| loss(samples, parameters, log_scale.exp());
    let (mut low, mut high) = (10f64.ln(), 5000f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut left = high - ratio * (high - low);
    let mut right = low + ratio * (high - low);
    let (mut left_loss, mut right_loss) = (at(left), at(right));
    for _ in 0..40 {
        if left_loss < right_loss {
            high = right;
            right = left;
            right_loss = left_loss;
            left = high - ratio * (high - low);
            left_loss = at(left);
        } else {
            low = left;
            left = right;
            left_loss = right_loss;
            right = low + ratio * (high - low);
            right_loss = at(right);
        }
    }
    ((low + high) / 2.0).exp()
}

/// The parameters fitted to `samples` from `prior` (see the module documentation), with
/// `cell_parameters` cell weights first; `on_epoch` hears each epoch's number from 1.
pub fn fit(
    samples: &Samples,
    prior: &[f64],
    cell_parameters: usize,
    scale: f64,
    options: &FitOptions,
    mut on_epoch: impl FnMut(usize),
) -> Vec<f64> {
    let mut parameters = prior.to_vec();
    let count = samples.samples.len().max(1) as f64;
    let (beta1, beta2, epsilon) = (0.9f64, 0.999f64, 1e-12);
    let mut first = vec![0.0; parameters.len()];
    let mut second = vec![0.0; parameters.len()];
    let mut gradient = vec![0.0; parameters.len()];
    for epoch in 1..=options.epochs {
        gradient.iter_mut().for_each(|g| *g = 0.0);
        for (value, sample) in values(samples, &parameters).iter().zip(&samples.samples) {
            let target = f64::from(sample.half_points) / 2.0;
            // d loss / d value, over the count and the 16 of the coefficients.
            let slope = (sigmoid(value / scale) - target) / (scale * count * 16.0);
            for &(p, c) in samples.terms_of(sample) {
                gradient[p as usize] += slope * f64::from(c);
            }
        }
        let fall = 1.0 - (epoch - 1) as f64 / options.epochs as f64;
        let (correct1, correct2) = (
            1.0 - beta1.powi(epoch as i32),
            1.0 - beta2.powi(epoch as i32),
        );
        for (index, parameter) in parameters.iter_mut().enumerate() {
            let g = gradient[index] + options.l2 * (*parameter - prior[index]);
            first[index] = beta1 * first[index] + (1.0 - beta1) * g;
            second[index] = beta2 * second[index] + (1.0 - beta2) * g * g;
            let rate = if is_cell(index, cell_parameters) {
                options.cell_rate
            } else {
                options.initiative_rate
            };
            let step = (first[index] / correct1) / ((second[index] / correct2).sqrt() + epsilon);
            *parameter -= rate * fall * step;
        }
        on_epoch(epoch);
    }
    parameters
}
