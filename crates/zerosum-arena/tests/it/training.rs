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

/// The Hex trainer's fit (`training::hex_patterns::fit`), on moves whose answer is known:
/// three patterns on every move, played 4 : 2 : 1, give gammas in those ratios (the prior's
/// virtual games are a few against thousands of moves); a pattern rarer than `min_count` gets
/// no gamma of its own and takes `other`; the gammas lower the log-loss of the moves played.
#[test]
fn the_hex_fit_finds_the_gammas_of_moves_whose_answer_is_known() {
    use zerosum_arena::training::hex_patterns::{fit, moves_of, validate};
    let (a, b, c, rare) = (5u64, 9, 17, 33);
    let mut positions = Vec::new();
    for i in 0..7000 {
        let played = match i % 7 {
            0..=3 => 0,
            4 | 5 => 1,
            _ => 2,
        };
        positions.push((vec![a, b, c], played));
    }
    positions.push((vec![a, rare], 1));
    let moves = moves_of(&positions);
    let gammas = fit(&moves, 2, 200, |_| {});
    assert_eq!(gammas.len(), 3, "the rare pattern shares `other`");
    let (ga, gb, gc) = (gammas.gamma(a), gammas.gamma(b), gammas.gamma(c));
    assert!((ga / gb - 2.0).abs() < 0.02, "{ga} / {gb}");
    assert!((gb / gc - 2.0).abs() < 0.02, "{gb} / {gc}");
    assert!(gammas.gamma(rare) > 0.0 && gammas.gamma(rare) == gammas.gamma(1));
    let (uniform, trained, top) = validate(&moves, &gammas);
    assert!((uniform - 3f64.ln()).abs() < 1e-3);
    // The entropy of 4/7, 2/7, 1/7.
    let best = -[4.0f64, 2.0, 1.0]
        .iter()
        .map(|p| p / 7.0 * (p / 7.0).ln())
        .sum::<f64>();
    assert!((trained - best).abs() < 1e-3, "{trained} against {best}");
    assert!((top - 4.0 / 7.0).abs() < 1e-3, "{top}");
}

/// A Hex run is reproducible from its seed on any number of threads; its moves are those of
/// its games after the openings.
#[test]
fn a_hex_run_is_the_same_from_the_same_seed_on_any_threads() {
    use zerosum_arena::training::hex_patterns::{train_hex, HexTrainOptions};
    let options = |seed: u64, threads: usize| HexTrainOptions {
        side: 5,
        games: 6,
        seed,
        playouts: 20,
        plies: Plies { min: 2, max: 2 },
        threads,
        iterations: 10,
        min_count: 3,
    };
    let (mut games, mut iterations) = (0, 0);
    let one = train_hex(&options(3, 1), |stage| match stage {
        TrainStage::Games(done) => games = games.max(done),
        TrainStage::Epochs(done) => iterations = done,
    });
    assert_eq!((games, iterations), (6, 10));
    assert_eq!(one, train_hex(&options(3, 2), |_| {}));
    assert_ne!(one, train_hex(&options(4, 1), |_| {}));
    let report = &one.1;
    assert_eq!(report.black_wins + report.white_wins, 6);
    assert!(report.training_moves > 0 && report.validation_moves == 0);
    assert!(report.patterns == one.0.len() && report.patterns > 0);
}
