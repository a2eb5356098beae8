//! Game specs: parsing, printing back, and building the game a spec names.

use zerosum_games::{new_game, GameSpec};

use super::{corpus_of, text, Target, Verdict};

pub const TARGET: Target = Target {
    name: "spec",
    about: "GameSpec parsing (zerosum-core); an accepted spec prints back to itself and builds its game",
    corpus: || {
        corpus_of(&[
            "mnk:15x15x5",
            "mnk:3x3x3",
            "MNK:4X3X3",
            "connectx:6x7x4",
            "connectx:20x20x5",
            "connectx:100x100x30",
            "hex:11",
            "hex:5x7",
            "hex:7:swap-sides",
            "hex:9:swap-pieces",
            "atoll:standard",
            "atoll:standard:pie",
            "atoll:rhombus13",
            "atoll:hexhex6:pie",
            "atoll:rhombus2",
            "atoll:hexhex20",
            "unstable:10x6",
            "unstable:2x2",
            "tictactoe",
            "gomoku",
            "connect4",
            "hex",
            "atoll",
            "unstable",
            "chain-reaction",
            " mnk: 3 x 3 x 3 ",
        ])
    },
    tokens: &[
        "mnk", "connectx", "hex", "atoll", "unstable", "swap-sides", "swap-pieces", "pie",
        "standard", "rhombus", "hexhex", "tictactoe", "gomoku", "connect4", "chain-reaction", "x", ":",
    ],
    share: 1,
    run,
};

fn run(input: &[u8]) -> Verdict {
    let text = text(input);
    let parsed = text.parse::<GameSpec>();
    if let Ok(spec) = &parsed {
        let printed = spec.to_string();
        let again: GameSpec = printed
            .parse()
            .unwrap_or_else(|e| panic!("`{printed}` (printed from `{text}`) does not parse: {e}"));
        assert_eq!(&again, spec, "`{text}` does not print back to itself");
        if let Ok(game) = new_game(spec) {
            assert_eq!(
                game.spec(),
                *spec,
                "the game of `{text}` names another spec"
            );
            let _ = game.legal_moves();
            let _ = game.render();
            let _ = game.to_json();
        }
    }
    Verdict::of(&parsed)
}
