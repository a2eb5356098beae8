//! Opening suites (zerosum-arena `openings`): the file `--openings` reads, for several games,
//! with and without `--plies`; every opening read is legal from the start and leaves a game
//! that goes on.

use zerosum_arena::Openings;
use zerosum_games::{new_game, GameSpec};

use super::{corpus_of, text, Target, Verdict};

/// The games every input is read for.
const GAMES: [&str; 4] = ["connect4", "gomoku", "hex:5", "unstable:4x4"];

pub const TARGET: Target = Target {
    name: "openings",
    about: "opening suites (--openings FILE, Openings::parse) for connect4, gomoku, hex:5 and unstable:4x4, with --plies",
    corpus: || {
        corpus_of(&[
            "# zerosum openings connectx:6x7x4 plies=4 seed=1\n4,4,3,5\n4453\n\n# a note\n1 2 3\n",
            "# zerosum openings mnk:15x15x5 plies=3 balanced threshold=search:depth=4,|eval|<=150 seed=2\nh8,h9,i7\nh8 g7 i9\n",
            "c3,b4\na1\r\ne5,d4,swap\n",
            "A1,D4\r\nB2,B2,C3\n",
        ])
    },
    tokens: &[
        "# zerosum openings ", "connect4", "gomoku", "hex:5", ",", " ", "\n", "\r\n", "#", "h8",
        "4", "99", "a1", "A1", "swap", "plies=", "mnk:15x15x5", "connectx:6x7x4",
    ],
    share: 1,
    run: |input| {
        let text = text(input);
        let plies = (input.len() % 3 == 0).then_some(input.len() % 7);
        let mut verdict = Verdict::Rejected;
        for game in GAMES {
            let spec: GameSpec = game.parse().expect("a valid spec");
            let Ok(openings) = Openings::parse(&text, "fuzz.txt", &spec, plies) else {
                continue;
            };
            verdict = Verdict::Accepted;
            assert!(!openings.is_empty());
            for moves in &openings.lines {
                let mut game = new_game(&spec).expect("a valid spec");
                for mv in moves {
                    game.play(mv)
                        .unwrap_or_else(|e| panic!("opening {moves:?} does not replay: {e}"));
                }
                assert!(!game.status().is_over(), "opening {moves:?} ends the game");
            }
        }
        verdict
    },
};
