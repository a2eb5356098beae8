//! Hex pattern gammas files (`zerosum_games::hex::gammas::PatternGammas`, written by
//! `zerosum train hex`, read by `eval=patterns,weights=FILE` on Hex): the file reader and the
//! parser agree, accepted gammas write back to the same gammas, and an engine's evaluation of
//! Hex with them gives every candidate a positive finite weight.

use zerosum_core::{Evaluator, Game};
use zerosum_games::hex::gammas::PatternGammas;
use zerosum_games::hex::{Hex, BUILT_IN_GAMMAS};
use zerosum_games::EvaluatedGame;

use super::weights::read_back;
use super::{Target, Verdict};

pub const TARGET: Target = Target {
    name: "hex-gammas",
    about: "Hex pattern gammas files (PatternGammas::parse, read_weights); accepted gammas write \
            back to themselves and weigh the candidates of a Hex position",
    corpus: || {
        vec![
            BUILT_IN_GAMMAS.as_bytes().to_vec(),
            b"zerosum hex patterns 1\n# made by: hand\nradius 2\nother 0.5\n\
              pattern .o..x.....#....... 2.5\npattern .................. 1e-3\nend\n"
                .to_vec(),
        ]
    },
    tokens: &[
        "zerosum hex patterns 1\n",
        "radius 2\n",
        "radius 3\n",
        "other ",
        "pattern ",
        "..................",
        "o",
        "x",
        "#",
        "end\n",
        "# a comment\n",
        "NaN",
        "inf",
        "-1",
        "0",
        "1e39",
        " ",
        "\t",
    ],
    share: 1,
    run: |input| {
        let text = read_back(input, "hex-gammas.txt");
        let parsed = PatternGammas::parse(&text);
        if let Ok(gammas) = &parsed {
            let again = PatternGammas::parse(&gammas.to_text(&[]));
            assert_eq!(again.as_ref(), Ok(gammas), "accepted gammas write back");
            let mut game = Hex::new(7, 7, None);
            game.play_list("d4,c5,a1").expect("a legal opening");
            let evaluator = game
                .evaluator_weighted(Some("patterns"), &text)
                .expect("accepted gammas make an evaluator");
            let mut moves = Vec::new();
            evaluator.candidate_moves(&game, &mut moves);
            let mut weights = Vec::new();
            evaluator.candidate_weights(&game, &moves, &mut weights);
            assert_eq!(weights.len(), moves.len());
            assert!(weights.iter().all(|w| w.is_finite() && *w > 0.0));
        }
        Verdict::of(&parsed)
    },
};
