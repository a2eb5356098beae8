//! Opening suites (zerosum-arena `openings`): the file `--openings` reads, for several games,
//! with and without `--plies`; every opening read is legal from the start and leaves a game
//! that goes on.

use zerosum_arena::Openings;
use zerosum_games::{new_game, GameSpec};

use super::records::scratch_file;
use super::{corpus_of, text, Target, Verdict};

/// The games every input is read for.
const GAMES: [&str; 4] = ["connect4", "gomoku", "hex:5", "unstable:4x4"];

pub const TARGET: Target = Target {
    name: "openings",
    about: "opening suites (--openings FILE, Openings::load and ::parse) for connect4, gomoku, hex:5 and unstable:4x4, with --plies",
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
        // The file reader (line by line, capped, UTF-8 checked) reads what the parser reads.
        let path = scratch_file("openings.txt");
        std::fs::write(&path, input).expect("a scratch file");
        let spec: GameSpec = GAMES[0].parse().expect("a valid spec");
        let loaded = Openings::load(&path, &spec, plies);
        let _ = std::fs::remove_file(&path);
        if std::str::from_utf8(input).is_ok() {
            // The same openings, or both refused (the reader may stop at a line too long
            // before the parser finds an earlier bad line).
            let parsed = Openings::parse(&text, &path.display().to_string(), &spec, plies);
            match (&loaded, &parsed) {
                (Ok((loaded, _)), Ok(parsed)) => assert_eq!(loaded, parsed),
                (Err(_), Err(_)) => {}
                _ => panic!("Openings::load ({loaded:?}) and ::parse ({parsed:?}) disagree"),
            }
        } else {
            assert!(loaded.is_err(), "a file that is not UTF-8 is refused");
        }
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
