//! The trainer of the pattern weights: a run is reproducible from its seed on any number of
//! threads, its samples are the quiet positions of its games labelled with their results, and
//! the fit lowers the loss it minimises.

use zerosum_arena::openings::generate::Plies;
use zerosum_arena::training::fit::{self, FitOptions};
use zerosum_arena::training::self_play::{play_games, Sample, Samples, SelfPlayOptions};
use zerosum_arena::training::{train, train_board, TrainOptions, TrainStage};
use zerosum_games::mnk::patterns::CELL_CODES;
use zerosum_games::mnk::{PatternWeights, Rule};

fn options(games: usize, seed: u64, threads: usize) -> TrainOptions {
    TrainOptions {
        self_play: SelfPlayOptions {
            games,
            seed,
            nodes: 60,
            plies: Plies { min: 3, max: 4 },
            square: 7,
            threads,
        },
        fit: FitOptions {
            epochs: 30,
            ..FitOptions::default()
        },
        prior: PatternWeights::hand_set(Rule::Freestyle),
    }
}

#[test]
fn a_run_is_the_same_from_the_same_seed_on_any_threads() {
    let start = train_board(&"gomoku".parse().unwrap()).unwrap();
    let (mut games, mut epochs) = (0, 0);
    let one = train(&start, &options(10, 7, 1), |stage| match stage {
        TrainStage::Games(done) => games = games.max(done),
        TrainStage::Epochs(done) => epochs = done,
    });
    assert_eq!((games, epochs), (10, 30));
    let two = train(&start, &options(10, 7, 2), |_| {});
    assert_eq!(one, two);
    let text = one.0.to_text(&one.1.comments());
    assert_eq!(text, two.0.to_text(&two.1.comments()), "the same file");
    assert_eq!(PatternWeights::parse(&text), Ok(one.0.clone()));
    let report = &one.1;
    assert_eq!(report.first_wins + report.second_wins + report.draws, 10);
    assert!(report.training_positions > 50 && report.validation_positions > 0);
    assert!(report.trained_loss[0] < report.prior_loss[0], "{report:?}");
    // Another seed, other games, other weights.
    let other = train(&start, &options(10, 8, 1), |_| {});
    assert_ne!(one.0, other.0);
}

#[test]
fn samples_are_labelled_with_the_result_for_the_side_to_move() {
    let start = train_board(&"gomoku".parse().unwrap()).unwrap();
    let data = play_games(
        &start,
        &PatternWeights::hand_set(Rule::Freestyle),
        &options(1, 3, 1).self_play,
        |_| {},
    );
    assert_eq!(data.first_wins + data.second_wins + data.draws, 1);
    let samples = &data.training;
    assert!(!samples.samples.is_empty());
    // The game alternates the side to move, so the labels of a decided game alternate
    // between a win and a loss where consecutive positions were kept; every position holds
    // its initiative term last.
    for sample in &samples.samples {
        let terms = samples.terms_of(sample);
        let (last, _) = terms.last().unwrap();
        assert!(*last as usize >= 2 * CELL_CODES);
        assert!(terms[..terms.len() - 1]
            .iter()
            .all(|&(p, c)| (p as usize) < 2 * CELL_CODES && c != 0));
        if data.draws == 0 {
            assert!(sample.half_points == 0 || sample.half_points == 2);
        }
    }
}

#[test]
fn the_fit_lowers_the_loss_and_keeps_unseen_parameters() {
    // Two kinds of position: one parameter's count favours the side to move, who wins.
    let mut samples = Samples::default();
    for i in 0..200u32 {
        let win = i % 4 != 0;
        samples.samples.push(fit_sample(
            &mut samples.terms,
            if win { 3 } else { -3 },
            win,
        ));
    }
    let prior = vec![0.0; PatternWeights::PARAMETERS];
    let scale = 100.0;
    let before = fit::loss(&samples, &prior, scale);
    let trained = fit::fit(
        &samples,
        &prior,
        2 * CELL_CODES,
        scale,
        &FitOptions::default(),
        |_| {},
    );
    assert!(fit::loss(&samples, &trained, scale) < before);
    assert!(trained[5] > 0.0, "the winning count's weight grew");
    assert!(trained.iter().enumerate().all(|(i, &w)| i == 5 || w == 0.0));
    // The scale fitted to the trained weights is finite and within its range.
    let fitted = fit::fit_scale(&samples, &trained);
    assert!((10.0..=5000.0).contains(&fitted), "{fitted}");
}

/// A sample whose only term is parameter 5 with `count`, won or lost.
fn fit_sample(terms: &mut Vec<(u16, i16)>, count: i16, win: bool) -> Sample {
    let first = terms.len() as u32;
    terms.push((5, count));
    Sample {
        first,
        len: 1,
        half_points: if win { 2 } else { 0 },
    }
}

#[test]
fn the_trainer_refuses_games_it_does_not_play() {
    for (spec, words) in [
        ("connect4", "five in a row (m,n,k with K = 5), not"),
        ("mnk:9x9x4", "not K = 4"),
        ("mnk:20x20x5", "at most 256 cells"),
    ] {
        let error = train_board(&spec.parse().unwrap()).expect_err(spec);
        assert!(error.contains(words), "{spec}: {error}");
    }
    assert!(train_board(&"renju".parse().unwrap()).is_ok());
}
