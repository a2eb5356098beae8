//! Game files (zerosum-formats): SGF, PSQ and PGN-style text read, with and without the game
//! given; an accepted file replays, and one that replays writes back to a file with the same
//! moves.

use zerosum_formats::{Format, GameFile};
use zerosum_games::GameSpec;

use super::{corpus_of, text, Target, Verdict};

/// Reads `input` as `format`, without a game and with `given`; whatever replays must write
/// back and read again with the same moves.
fn run_file(format: Format, input: &[u8], given: &str) -> Verdict {
    let text = text(input);
    let given: GameSpec = given.parse().expect("valid spec");
    let mut verdict = Verdict::Rejected;
    for spec in [None, Some(&given)] {
        let Ok(game) = format.read(&text, spec) else {
            continue;
        };
        if game.position().is_err() {
            continue;
        }
        verdict = Verdict::Accepted;
        let _ = game.result();
        check_round_trip(format, &game);
    }
    verdict
}

/// A game that replays reads back from what it writes with the same moves.
fn check_round_trip(format: Format, game: &GameFile) {
    let Ok(written) = format.write(game) else {
        return;
    };
    let back = format
        .read(&written, Some(&game.spec))
        .unwrap_or_else(|error| panic!("{error} reading back:\n{written}"));
    assert_eq!(back.moves, game.moves, "moves read back from:\n{written}");
}

pub const SGF: Target = Target {
    name: "sgf",
    about: "SGF game files (zerosum-formats sgf: Hex and Atoll, HexGui's files)",
    corpus: || {
        corpus_of(&[
            "(;FF[4]GM[11]AP[zerosum:0.1.0]SZ[5]ZS[hex:5:swap-sides]PB[a]PW[b]RE[W+]C[x]\n;B[c3];W[swap-sides];W[b2];B[d1])\n",
            "(;FF[4]AP[HexGui:0.9.GIT]GM[11]SZ[4]C[a \\] b]\n;B[b2];W[swap-pieces]\n;B[c3])\n",
            "(;GM[11]SZ[6]ZS[atoll:rhombus4:pie]\n;B[d3];W[swap-sides];W[c2];B[resign])",
            "(;GM[11]SZ[5:3];B[a1](;W[b1];B[c1](;W[d1])(;W[e1]))(;W[e3]))",
            "(;GM[11]SZ[5]RE[B+R]PL[B];B[a1];W[e5])",
        ])
    },
    tokens: &[
        "(",
        ")",
        ";",
        "[",
        "]",
        "\\",
        "B[",
        "W[",
        "GM[11]",
        "SZ[",
        "ZS[",
        "RE[",
        "AB[",
        "swap-sides",
        "swap-pieces",
        "resign",
        "a1",
        "e5",
        "hex:5",
        "atoll:standard:pie",
        ":",
    ],
    share: 1,
    run: |input| run_file(Format::Sgf, input, "hex:5"),
};

pub const PSQ: Target = Target {
    name: "psq",
    about: "PSQ game files (zerosum-formats psq: Piskvork's m,n,k files)",
    corpus: || {
        corpus_of(&[
            "Piskvorky 15x15, 0:0, 0\n8,8,120\n9,8,35\nengine\nquasi\n-1\n",
            "Piskvorky 20x20, 11:11, 0\r\n10,10,0\r\n11,10,16\r\n0\r\n",
            "Piskvorky 15x15, 0:0, 1\n1,1\n15,15\n",
            "Piskvorky 9x7, 0:0, 0\n1,1,5\n9,7,1200\nplayer 12\nquasi\n-1\n",
        ])
    },
    tokens: &[
        "Piskvorky ",
        "15x15",
        "x",
        ",",
        ", 0:0, 0",
        "\n",
        "\r\n",
        "-1",
        "0",
        "16",
        "99999999999",
    ],
    share: 1,
    run: |input| run_file(Format::Psq, input, "gomoku"),
};

pub const PGN: Target = Target {
    name: "pgn",
    about: "PGN-style game files (zerosum-formats pgn: every game, tags, moves, times)",
    corpus: || {
        corpus_of(&[
            "[Event \"zerosum\"]\n[Spec \"connectx:6x7x4\"]\n[First \"a \\\"b\\\"\"]\n[Second \"c\"]\n[Result \"1-0\"]\n[Termination \"timeout\"]\n[Reason \"late\"]\n\n1. 4 {0.120s} 4 {0.051s} 2. 5 {0.130s} {lost 1.310s} 1-0\n\n",
            "[Spec \"tictactoe\"]\n\n1. b2 a1 2. c3 *\n",
            "[Spec \"unstable:4x4\"]\n[Result \"*\"]\n\n1. A1 {0.000s} D4 {1.5s} *\n[Event \"next\"]\n",
            "[Spec \"hex:5:swap-sides\"]\n\n1. c3 swap-sides 2. b2 1/2-1/2\n",
        ])
    },
    tokens: &[
        "[", "]", "\"", "\\", "{", "}", "1.", "2.", "1-0", "0-1", "1/2-1/2", "*", "{lost ", "s}",
        "[Spec \"", "\n\n", "a1", "4",
    ],
    share: 1,
    run: |input| run_file(Format::Pgn, input, "tictactoe"),
};
