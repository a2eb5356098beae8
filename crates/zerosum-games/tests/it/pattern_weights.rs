//! The weights of the pattern evaluation: the weights file written and read back, every kind of
//! broken file refused with a one-line reason, the parameter vector, the trainer's terms
//! against the evaluation itself, loading weights into a game's evaluator, and the weights
//! shipped in `weights/`.

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Evaluator, Game, Status};
use zerosum_games::hex::gammas::{PatternGammas, GAMMAS_HEADER};
use zerosum_games::mnk::patterns::{CELL_CODES, CELL_THREATS};
use zerosum_games::mnk::{
    static_terms, Mnk, MnkEvaluator, MnkSpec, PatternWeights, Rule, MAX_WEIGHT, STATIC_LIMIT,
    WEIGHTS_HEADER,
};
use zerosum_games::{visit_game, EvaluatedGame, GameSpec, GameVisitor};

/// Weights with every entry different, drawn from `rng` within +/-`range`.
fn random_weights(rule: Rule, rng: &mut SplitMix, range: usize) -> PatternWeights {
    let parameters: Vec<f64> = (0..PatternWeights::PARAMETERS)
        .map(|_| rng.below(2 * range + 1) as f64 - range as f64)
        .collect();
    PatternWeights::from_parameters(rule, &parameters)
}

#[test]
fn a_weights_file_reads_back_to_the_same_weights() {
    let mut rng = SplitMix::new(0x5eed);
    for rule in Rule::ALL {
        for weights in [
            PatternWeights::hand_set(rule),
            random_weights(rule, &mut rng, 5000),
        ] {
            let text = weights.to_text(&["made by hand".to_string()]);
            assert!(text.starts_with(&format!("{WEIGHTS_HEADER}\n# made by hand\n")));
            assert_eq!(PatternWeights::parse(&text), Ok(weights.clone()));
            // Entries in any order, comments and blank lines anywhere.
            let mut lines: Vec<&str> = text.lines().collect();
            let end = lines.pop().unwrap();
            lines[1..].reverse();
            let shuffled = format!("{}\n\n# a comment\n{end}\n", lines.join("\n"));
            assert_eq!(PatternWeights::parse(&shuffled), Ok(weights));
        }
    }
}

#[test]
fn parameters_lay_out_the_cells_of_each_colour_then_the_initiative() {
    let weights = PatternWeights::hand_set(Rule::Renju);
    let parameters = weights.to_parameters();
    assert_eq!(
        parameters.len(),
        2 * CELL_CODES + CELL_THREATS * CELL_THREATS
    );
    assert_eq!(
        PatternWeights::from_parameters(Rule::Renju, &parameters),
        weights
    );
    assert_eq!(parameters[7], f64::from(weights.cell[0][7]));
    assert_eq!(parameters[CELL_CODES + 7], f64::from(weights.cell[1][7]));
    assert_eq!(
        parameters[2 * CELL_CODES + 30],
        f64::from(weights.initiative[30])
    );
    // Rounded to integers and kept within the largest weight.
    let mut wild = vec![0.4; PatternWeights::PARAMETERS];
    wild[0] = 1e12;
    wild[1] = -0.6;
    let rounded = PatternWeights::from_parameters(Rule::Freestyle, &wild);
    assert_eq!((rounded.cell[0][0], rounded.cell[0][1]), (MAX_WEIGHT, -1));
    assert_eq!(rounded.cell[0][2], 0);
}

#[test]
fn broken_weights_files_are_refused_with_a_one_line_reason() {
    let whole = PatternWeights::hand_set(Rule::Freestyle).to_text(&[]);
    let lines: Vec<&str> = whole.lines().collect();
    let with = |from: &str, to: &str| {
        assert!(whole.contains(from), "{from}");
        whole.replacen(from, to, 1)
    };
    let cases = [
        (String::new(), "not a weights file"),
        (
            "zerosum pattern weights 2\n".to_string(),
            "not a weights file",
        ),
        (lines[..lines.len() / 2].join("\n"), "truncated"),
        (whole[..whole.len() / 2].to_string(), "is not an entry"),
        (whole.replace("end\n", ""), "truncated"),
        (with("rule freestyle\n", ""), "no `rule` line"),
        (
            with("rule freestyle", "rule fivestyle"),
            "unknown rule `fivestyle`",
        ),
        (
            with("rule freestyle\n", "rule freestyle\nrule renju\n"),
            "a second `rule` line",
        ),
        (
            with(
                "cell black none+none+none+none 0",
                "cell red none+none+none+none 0",
            ),
            "unknown colour",
        ),
        (
            with(
                "cell black none+none+none+none 0",
                "cell black none+none+none 0",
            ),
            "four line threats",
        ),
        (
            with(
                "cell black none+none+none+none 0",
                "cell black none+none+none+six 0",
            ),
            "unknown line threat `six`",
        ),
        (
            with(
                "cell black none+none+none+none 0",
                "cell black none+none+none+none x1",
            ),
            "not a weight",
        ),
        (
            with(
                "cell black none+none+none+none 0",
                "cell black none+none+none+none 1000001",
            ),
            "not a weight",
        ),
        (
            with(
                "cell black none+none+none+none 0",
                "cell black none+none+none+none 99999999999",
            ),
            "not a weight",
        ),
        (
            with("cell black none+none+none+none 0\n", ""),
            "1 of the 2926 entries missing",
        ),
        (
            with(
                "cell black none+none+none+none 0\n",
                "cell black none+none+none+none 0\ncell black none+none+none+none 1\n",
            ),
            "given twice",
        ),
        (
            with("initiative five five 0\n", ""),
            "1 of the 2926 entries missing",
        ),
        (
            with("initiative five five 0", "initiative five six 0"),
            "unknown cell threat `six`",
        ),
        (
            with(
                "initiative five five 0\n",
                "initiative five five 0\ninitiative five five 0\n",
            ),
            "given twice",
        ),
        (
            format!("{whole}cell black none+none+none+none 0\n"),
            "an entry after `end`",
        ),
        (with("end\n", "the end\n"), "is not an entry"),
        (
            with("rule freestyle", "rule\tfreestyle extra"),
            "is not an entry",
        ),
    ];
    for (text, words) in cases {
        let error = PatternWeights::parse(&text).expect_err(words).to_string();
        assert!(error.contains(words), "{words}: {error}");
        assert!(!error.contains('\n'), "{error}");
    }
    // Every cut at a line's end before `end` is refused.
    for cut in 0..lines.len() - 1 {
        let text = lines[..cut].join("\n");
        assert!(
            PatternWeights::parse(&text).is_err(),
            "cut after {cut} lines"
        );
    }
    // A line of a broken file is named.
    let error = PatternWeights::parse(&with("rule freestyle", "rule free")).unwrap_err();
    assert_eq!(error.line, Some(2));
    assert!(error.to_string().starts_with("line 2: "), "{error}");
}

/// The static value of quiet positions is what the trainer's terms give under the same weights:
/// the cell terms over 16 (rounded toward zero) plus the initiative entry.
#[test]
fn the_trainers_terms_give_the_static_value() {
    let mut rng = SplitMix::new(0x7e);
    let mut moves = Vec::new();
    let mut terms = Vec::new();
    let mut checked = 0;
    for rule in Rule::ALL {
        for round in 0..40 {
            let weights = if round % 2 == 0 {
                PatternWeights::hand_set(rule)
            } else {
                random_weights(rule, &mut rng, 200)
            };
            let parameters = weights.to_parameters();
            let evaluator = MnkEvaluator::new()
                .with_vcf_budget(0)
                .with_patterns(Some(weights));
            let mut game = Mnk::<4>::with_rule(15, 15, 5, rule);
            let plies = 2 + rng.below(30);
            while game.ply() < plies && game.status() == Status::Ongoing {
                evaluator.candidate_moves(&game, &mut moves);
                game.play(moves[rng.below(moves.len())]);
            }
            if game.status() != Status::Ongoing {
                continue;
            }
            let value = evaluator.evaluate(&game);
            if value.abs() >= STATIC_LIMIT {
                continue;
            }
            static_terms(game.patterns().unwrap(), game.to_move().index(), &mut terms);
            let (cells, initiative): (Vec<_>, Vec<_>) = terms
                .iter()
                .partition(|&&(parameter, _)| (parameter as usize) < 2 * CELL_CODES);
            let cell_sum: i64 = cells
                .iter()
                .map(|&&(p, c)| i64::from(c) * parameters[p as usize] as i64)
                .sum();
            assert_eq!(initiative.len(), 1);
            let (p, c) = *initiative[0];
            assert_eq!(c, 16);
            let expected = cell_sum / 16 + parameters[p as usize] as i64;
            assert_eq!(i64::from(value), expected, "{rule}, ply {}", game.ply());
            checked += 1;
        }
    }
    assert!(checked > 60, "{checked} positions checked");
}

/// The evaluator a game makes from a weights file's text.
struct Weighted<'a> {
    name: Option<&'a str>,
    text: &'a str,
}

impl GameVisitor for Weighted<'_> {
    type Output = Result<(), String>;
    fn visit<G: EvaluatedGame>(self, mut game: G) -> Result<(), String> {
        let evaluator = game.evaluator_weighted(self.name, self.text)?;
        game.play_list("h8,h9,i8").map_err(|e| e.to_string())?;
        let mut moves = Vec::new();
        evaluator.candidate_moves(&game, &mut moves);
        assert!(!moves.is_empty());
        Ok(())
    }
}

#[test]
fn games_load_weights_for_their_rule_into_the_pattern_evaluation() {
    let load = |spec: &str, name: Option<&str>, text: &str| {
        let spec: GameSpec = spec.parse().unwrap();
        visit_game(&spec, Weighted { name, text }).unwrap()
    };
    let freestyle = PatternWeights::hand_set(Rule::Freestyle).to_text(&[]);
    let renju = PatternWeights::hand_set(Rule::Renju).to_text(&[]);
    assert_eq!(load("gomoku", None, &freestyle), Ok(()));
    assert_eq!(load("gomoku", Some("patterns"), &freestyle), Ok(()));
    assert_eq!(load("renju", None, &renju), Ok(()));
    let refused = [
        (
            load("renju", None, &freestyle),
            "for the freestyle rule, the game is played under renju",
        ),
        (
            load("gomoku", Some("windows"), &freestyle),
            "the window evaluation takes no weights",
        ),
        (
            load("gomoku", Some("nets"), &freestyle),
            "unknown m,n,k evaluation `nets`",
        ),
        (load("mnk:9x9x4", None, &freestyle), "needs five in a row"),
        (
            load("gomoku", None, "rubbish"),
            "line 1: not a weights file",
        ),
        (
            load("connect4", None, &freestyle),
            "has no evaluation that loads weights",
        ),
    ];
    for (result, words) in refused {
        let error = result.expect_err(words);
        assert!(error.contains(words), "{words}: {error}");
    }
}

#[test]
fn the_shipped_weights_load_into_their_game_and_name_the_command_that_made_them() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../weights");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // The file is named after the game it is for (`gomoku-standard.txt`: the spec
        // `gomoku:standard`; `hex.txt`: Hex's pattern gammas), and that game's pattern
        // evaluation takes it.
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let spec: GameSpec = stem.replace('-', ":").parse().unwrap();
        if text.starts_with(GAMMAS_HEADER) {
            PatternGammas::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        } else {
            let weights =
                PatternWeights::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(
                spec.params::<MnkSpec>().map(|mnk| mnk.rule),
                Some(weights.rule),
                "{}",
                path.display()
            );
        }
        let name = Some("patterns");
        assert_eq!(
            visit_game(&spec, Weighted { name, text: &text }).unwrap(),
            Ok(())
        );
        let made_by = text.lines().nth(1).unwrap_or_default();
        assert!(
            made_by.starts_with("# made by: zerosum train ") && made_by.contains(" --seed "),
            "{}: {made_by}",
            path.display()
        );
        files += 1;
    }
    assert!(files >= 1, "no weights in {}", dir.display());
}
