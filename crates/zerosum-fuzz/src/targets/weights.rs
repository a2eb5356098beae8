//! Weights files of the pattern evaluation (`zerosum_games::mnk::PatternWeights`, written by
//! `zerosum train`, read by `weights=FILE` and `--weights FILE`): the file reader and the
//! parser agree, accepted weights write back to the same weights, and a game of their rule
//! evaluates and orders moves with them (whatever their size) without overflow.

use zerosum_core::{Evaluator, Game};
use zerosum_games::mnk::{Mnk, MnkEvaluator, PatternWeights, Rule};

use super::records::scratch_file;
use super::{text, Target, Verdict};
use zerosum_arena::players::read_weights;

pub const TARGET: Target = Target {
    name: "weights",
    about: "pattern weights files (PatternWeights::parse, read_weights); accepted weights write \
            back to themselves and evaluate a position of their rule",
    corpus: || {
        let mut extreme = PatternWeights::hand_set(Rule::Standard);
        extreme.cell[0].iter_mut().for_each(|w| *w = 1_000_000);
        extreme.initiative.iter_mut().for_each(|w| *w = -1_000_000);
        vec![
            PatternWeights::hand_set(Rule::Freestyle)
                .to_text(&["made by: hand".into()])
                .into_bytes(),
            PatternWeights::hand_set(Rule::Renju)
                .to_text(&[])
                .into_bytes(),
            extreme.to_text(&[]).into_bytes(),
        ]
    },
    tokens: &[
        "zerosum pattern weights 1\n",
        "rule renju\n",
        "rule standard\n",
        "cell black ",
        "cell white ",
        "open-three+",
        "double-four+",
        "initiative four-three none ",
        "end\n",
        "# a comment\n",
        "1000000",
        "-1000001",
        " ",
        "\t",
        "+",
    ],
    share: 1,
    run: |input| {
        let text = read_back(input, "weights.txt");
        let parsed = PatternWeights::parse(&text);
        if let Ok(weights) = &parsed {
            let again = PatternWeights::parse(&weights.to_text(&[]));
            assert_eq!(again.as_ref(), Ok(weights), "accepted weights write back");
            let evaluator = MnkEvaluator::new().with_patterns(Some(weights.clone()));
            let mut game = Mnk::<4>::with_rule(15, 15, 5, weights.rule);
            game.play_list("h8,h9,i8,i9,j8").expect("a legal opening");
            let _ = evaluator.evaluate(&game);
            let mut moves = Vec::new();
            evaluator.candidate_moves(&game, &mut moves);
            assert!(!moves.is_empty());
            let _ = evaluator.move_hint(&game, moves[0]);
        }
        Verdict::of(&parsed)
    },
};

/// `input` written to a scratch file named `name` and read back by the engine's weights-file
/// reader ([`read_weights`], which the `weights=` and `--weights` options use): the same text,
/// or refused only when it is not UTF-8. Returns `input` as text.
pub(super) fn read_back(input: &[u8], name: &str) -> String {
    let text = text(input);
    let path = scratch_file(name);
    std::fs::write(&path, input).expect("a scratch file");
    let read = read_weights(&path);
    let _ = std::fs::remove_file(&path);
    match &read {
        Ok(read) => assert_eq!(read.as_str(), text, "the reader reads the bytes"),
        Err(_) => assert!(
            std::str::from_utf8(input).is_err(),
            "only a file that is not UTF-8 is unreadable here"
        ),
    }
    text.into_owned()
}
