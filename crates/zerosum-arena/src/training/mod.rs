//! Training the weights of the pattern evaluation of five in a row
//! ([`zerosum_games::mnk::PatternWeights`]) by our own pipeline: self-play games of the pattern
//! engine from random openings (`self_play`), their quiet positions labelled with the games'
//! results, and a logistic regression of the weights on them (`fit`). A run is reproducible
//! from its seed: the same options give the same weights, on any number of threads.
//!
//! The gammas of Hex's patterns are trained alike (`hex_patterns`: self-play of the Monte Carlo
//! engine, a Bradley-Terry fit by minorization-maximization), on the same machinery of games
//! played in index order on any number of threads (`self_play::play_indexed`).
//!
//! Modules: `self_play` (the games and their samples, and the scheduling of games), `fit` (the
//! regression), which uses the samples' type, and `hex_patterns` (the Hex trainer).

pub mod fit;
pub mod hex_patterns;
pub mod self_play;

use zerosum_games::mnk::patterns::CELL_CODES;
use zerosum_games::mnk::{MnkSpec, PatternWeights};
use zerosum_games::GameSpec;

pub use fit::FitOptions;
pub use self_play::{SelfPlayData, SelfPlayOptions, TrainBoard};

/// What a training run does.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    pub self_play: SelfPlayOptions,
    pub fit: FitOptions,
    /// The weights the self-play engine plays with and the fit starts from and is pulled
    /// towards.
    pub prior: PatternWeights,
}

/// What a run found, besides the weights.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// The games' outcomes and positions.
    pub first_wins: usize,
    pub second_wins: usize,
    pub draws: usize,
    pub moves: usize,
    pub training_positions: usize,
    pub validation_positions: usize,
    /// Bytes of the samples in memory.
    pub data_bytes: usize,
    /// The scale of the logistic model, in evaluation units.
    pub scale: f64,
    /// Mean cross-entropy of the prior and of the trained weights, on the training and the
    /// validation samples (every tenth game, not fitted).
    pub prior_loss: [f64; 2],
    pub trained_loss: [f64; 2],
}

impl TrainReport {
    /// The report as comment lines of a weights file (no times: the file stays reproducible).
    pub fn comments(&self) -> Vec<String> {
        vec![
            format!(
                "games: {} first-player wins, {} second-player wins, {} draws, {} moves",
                self.first_wins, self.second_wins, self.draws, self.moves
            ),
            format!(
                "positions: {} training, {} validation (every tenth game)",
                self.training_positions, self.validation_positions
            ),
            format!(
                "logistic scale {:.1}; cross-entropy training {:.5} -> {:.5}, validation \
                 {:.5} -> {:.5} (prior -> trained)",
                self.scale,
                self.prior_loss[0],
                self.trained_loss[0],
                self.prior_loss[1],
                self.trained_loss[1]
            ),
        ]
    }
}

/// The stages of a run, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainStage {
    /// Games finished.
    Games(usize),
    /// Fit epochs finished.
    Epochs(usize),
}

/// The board a spec names, if the trainer plays it: an m,n,k board with K = 5 of at most
/// 256 cells.
pub fn train_board(spec: &GameSpec) -> Result<TrainBoard, String> {
    let Some(&MnkSpec {
        rows,
        cols,
        k,
        rule,
        ..
    }) = spec.params::<MnkSpec>()
    else {
        return Err(format!(
            "the trainer fits the pattern weights of five in a row (m,n,k with K = 5), not {spec}"
        ));
    };
    if k != 5 {
        return Err(format!(
            "the trainer fits the pattern weights of five in a row, not K = {k}"
        ));
    }
    if rows * cols > 256 {
        return Err(format!(
            "the trainer plays boards of at most 256 cells, not {rows}x{cols}"
        ));
    }
    Ok(TrainBoard::with_rule(rows, cols, k, rule))
}

/// Runs the self-play games and the fit; the weights and the report.
pub fn train(
    start: &TrainBoard,
    options: &TrainOptions,
    mut progress: impl FnMut(TrainStage) + Send,
) -> (PatternWeights, TrainReport) {
    let data = self_play::play_games(start, &options.prior, &options.self_play, |games| {
        progress(TrainStage::Games(games))
    });
    let prior = options.prior.to_parameters();
    let scale = fit::fit_scale(&data.training, &prior);
    let trained = fit::fit(
        &data.training,
        &prior,
        2 * CELL_CODES,
        scale,
        &options.fit,
        |epoch| progress(TrainStage::Epochs(epoch)),
    );
    let losses = |parameters: &[f64]| {
        [&data.training, &data.validation].map(|samples| fit::loss(samples, parameters, scale))
    };
    let report = TrainReport {
        first_wins: data.first_wins,
        second_wins: data.second_wins,
        draws: data.draws,
        moves: data.moves,
        training_positions: data.training.samples.len(),
        validation_positions: data.validation.samples.len(),
        data_bytes: data.training.bytes() + data.validation.bytes(),
        scale,
        prior_loss: losses(&prior),
        trained_loss: losses(&trained),
    };
    (
        PatternWeights::from_parameters(options.prior.rule, &trained),
        report,
    )
}
