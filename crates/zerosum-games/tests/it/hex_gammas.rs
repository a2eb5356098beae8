//! The pattern gammas of Hex (`hex::gammas`): a file writes back to itself, a pattern and its
//! turn share a gamma, the patterns not listed take `other`, and a missing, truncated or
//! corrupt file (another radius, a gamma not positive and finite, a pattern twice) is refused
//! with its line; the evaluation `patterns` weighs the candidates by their gammas.

use std::sync::Arc;

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Evaluator, Game};
use zerosum_games::connection::{Stone, StoneMove};
use zerosum_games::hex::gammas::{pattern_text, PatternGammas};
use zerosum_games::hex::patterns::{pattern_code, turned, PatternFrame};
use zerosum_games::hex::{Hex, HexEvaluator, BUILT_IN_GAMMAS, PATTERN_PRIORS_MAX_CELLS};
use zerosum_games::EvaluatedGame;

/// A small file: two patterns and `other`.
fn sample() -> String {
    [
        "zerosum hex patterns 1",
        "# made by: hand",
        "radius 2",
        "other 0.5",
        "pattern .o..x.....#....... 2.5",
        "pattern .................. 0.125",
        "end",
    ]
    .join("\n")
}

#[test]
fn a_gammas_file_writes_back_and_a_pattern_shares_its_gamma_with_its_turn() {
    let gammas = PatternGammas::parse(&sample()).unwrap();
    assert_eq!(gammas.len(), 2);
    let again = PatternGammas::parse(&gammas.to_text(&["a comment".into()])).unwrap();
    assert_eq!(again, gammas);
    let code = pattern_code(&Hex::new(5, 5, None), 12, Stone::Black);
    assert_eq!(pattern_text(code), "..................");
    assert_eq!(gammas.gamma(code), 0.125);
    // `.o..x.....#.......` and its turn by 180 degrees.
    let listed = (1 << 2) | (2 << 8) | (3 << 20);
    assert_eq!(gammas.gamma(listed), 2.5);
    assert_eq!(gammas.gamma(turned(listed)), 2.5);
    assert_eq!(gammas.gamma(1 << 2), 0.5, "a pattern not listed");
    assert!(PatternGammas::parse(BUILT_IN_GAMMAS).is_ok());
}

#[test]
fn truncated_and_corrupt_gammas_files_are_refused_with_their_line() {
    let good = sample();
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "line 1: not a Hex pattern gammas file"),
        (
            good.replace("\nend", ""),
            "line 6: no `end` line: the file is truncated",
        ),
        (
            good.replace("radius 2", "radius 3"),
            "line 3: patterns of radius 3: only radius 2 is read",
        ),
        (
            good.replace("2.5", "-2.5"),
            "line 5: gamma `-2.5` is not a positive finite number",
        ),
        (good.replace("2.5", "NaN"), "line 5: gamma `NaN`"),
        (good.replace("2.5", "inf"), "line 5: gamma `inf`"),
        (good.replace("2.5", "1e39"), "line 5: gamma `1e39`"),
        (good.replace("other 0.5", "other 0"), "line 4: gamma `0`"),
        (
            good.replace(".o..x.....#.......", ".o..x"),
            "line 5: pattern `.o..x` has 5 cells",
        ),
        (
            good.replace(".o..x.....#.......", ".o..x.....#......b"),
            "`b` is no cell state",
        ),
        (
            good.replace(".................. 0.125", ".o..x.....#....... 1"),
            "line 6: pattern .o..x.....#....... listed twice",
        ),
        (good.replace("other 0.5\n", ""), "no `other` line"),
        (
            good.replace("end", "end\nother 1"),
            "line 8: an entry after `end`",
        ),
        (
            good.replace("radius 2", "radius 2\nbridge 1"),
            "is no entry",
        ),
    ];
    for (text, problem) in cases {
        let error = PatternGammas::parse(&text).unwrap_err().to_string();
        assert!(error.contains(problem), "{problem}: {error}");
        assert_eq!(error.lines().count(), 1);
    }
    // The same listed twice through its turn.
    let code: u64 = (1 << 2) | (2 << 8) | (3 << 20);
    let twice = good.replace(
        ".................. 0.125",
        &format!("{} 1", pattern_text(turned(code))),
    );
    assert!(PatternGammas::parse(&twice)
        .unwrap_err()
        .to_string()
        .contains("listed twice"));
}

#[test]
fn the_evaluation_patterns_weighs_each_candidate_by_its_gamma() {
    let mut game = Hex::new(5, 5, None);
    game.play_list("c3").unwrap();
    let gammas = Arc::new(PatternGammas::parse(&sample()).unwrap());
    let evaluator = HexEvaluator::new(5, 5).with_gammas(Some(Arc::clone(&gammas)));
    let mut moves = Vec::new();
    evaluator.candidate_moves(&game, &mut moves);
    let mut weights = Vec::new();
    evaluator.candidate_weights(&game, &moves, &mut weights);
    assert_eq!(weights.len(), moves.len());
    for (&mv, &weight) in moves.iter().zip(&weights) {
        let StoneMove::Place(cell) = mv else {
            unreachable!("no swap rule")
        };
        let code = pattern_code(&game, cell.into(), Stone::White);
        assert_eq!(weight, f64::from(gammas.gamma(code)));
    }
    HexEvaluator::new(5, 5).candidate_weights(&game, &moves, &mut weights);
    assert!(weights.is_empty(), "no gammas, no weights");
    let weighted = game.evaluator_weighted(None, &sample()).unwrap();
    weighted.candidate_weights(&game, &moves, &mut weights);
    assert_eq!(weights.len(), moves.len());
    let error = game
        .evaluator_weighted(Some("analysis"), &sample())
        .unwrap_err();
    assert!(error.contains("only patterns"), "{error}");
    let error = game
        .evaluator_weighted(None, &sample().replace("radius 2", "radius 3"))
        .unwrap_err();
    assert!(error.contains("line 3: patterns of radius 3"), "{error}");
}

/// The framed codes of many cells at once ([`PatternFrame`]) are the codes of `pattern_code`
/// on random positions of several boards, rectangles included, for both colours, and the
/// gamma looked up by a framed code is the gamma of its pattern (either turn, or `other`).
#[test]
fn framed_pattern_codes_and_gammas_are_the_plain_ones() {
    let gammas = PatternGammas::parse(BUILT_IN_GAMMAS).unwrap();
    let mut rng = SplitMix::new(32);
    let mut moves = Vec::new();
    let mut listed = 0;
    for (width, height) in [(11, 11), (9, 9), (5, 7), (7, 4), (1, 3), (3, 1)] {
        for _ in 0..20 {
            let mut game = Hex::new(width, height, None);
            for _ in 0..rng.below(width * height) {
                game.legal_moves(&mut moves);
                if moves.is_empty() || game.status().is_over() {
                    break;
                }
                game.play(moves[rng.below(moves.len())]);
            }
            let frame = PatternFrame::new(&game);
            for cell in 0..width * height {
                for colour in [Stone::Black, Stone::White] {
                    let code = pattern_code(&game, cell, colour);
                    assert_eq!(frame.code(cell, colour), code, "{width}x{height} {cell}");
                    let gamma = gammas.framed_gamma(&frame, cell, colour);
                    assert_eq!(gamma, gammas.gamma(code));
                    listed += usize::from(gamma != gammas.gamma(u64::MAX >> 28));
                }
            }
        }
    }
    assert!(
        listed > 1000,
        "the positions meet listed patterns ({listed})"
    );
}

/// The default Hex evaluation weighs the priors by the built-in gammas on boards of at most
/// [`PATTERN_PRIORS_MAX_CELLS`] cells (as `patterns` does) and not on larger ones (as
/// `potential` does); `potential` never does.
#[test]
fn the_default_evaluation_is_patterns_on_small_boards_and_potential_on_large_ones() {
    for (side, weighed) in [(5, true), (9, true), (10, true), (11, false), (13, false)] {
        assert_eq!(side * side <= PATTERN_PRIORS_MAX_CELLS, weighed);
        let mut game = Hex::new(side, side, None);
        game.play_list("c3,b4").unwrap();
        let mut moves = Vec::new();
        game.evaluator().candidate_moves(&game, &mut moves);
        let weights_of = |evaluator: HexEvaluator| {
            let mut weights = Vec::new();
            evaluator.candidate_weights(&game, &moves, &mut weights);
            weights
        };
        let default = weights_of(game.evaluator());
        let patterns = weights_of(game.evaluator_named("patterns").unwrap());
        assert_eq!(patterns.len(), moves.len(), "hex:{side}");
        assert!(weights_of(game.evaluator_named("potential").unwrap()).is_empty());
        if weighed {
            assert_eq!(default, patterns, "hex:{side}");
        } else {
            assert!(default.is_empty(), "hex:{side}");
        }
    }
}
