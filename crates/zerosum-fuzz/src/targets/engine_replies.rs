//! What an external Gomocup engine answers (zerosum-arena's Gomocup driver, `proto=gomocup`):
//! a scripted engine program says the input's replies, one to each request, and the driver
//! plays a game with it through the public player API, as the referee would.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use zerosum_arena::{GameSetup, MoveRequest, PlayerSpec, TimeControl};
use zerosum_core::Side;
use zerosum_games::{new_game, GameSpec};

use super::records::scratch_file;
use super::{corpus_of, Target, Verdict};

/// Separates the replies in an input: the engine says the text before the first one to the
/// first request (`START`), the next to the second, and so on.
const SEPARATOR: u8 = 0x1e;

/// Most requests answered from one input (the rest of it is never said).
const MAX_REPLIES: usize = 8;

/// How long the driver waits for a reply that does not come (the watchdog of an untimed move,
/// and of the setup): the engine has said all of its reply and waits for the next request.
const PATIENCE: Duration = Duration::from_millis(100);

/// The engine: for each request (`START`, `RECTSTART`, `BEGIN`, `TURN`, the `DONE` ending a
/// `BOARD`), the next file of the directory it is given (`0`, `1`, ...) said as it is; it
/// ends when there is none left, or at `END`.
const ENGINE: &str = r#"#!/bin/sh
n=0
while IFS= read -r line; do
  case "$line" in
    START*|RECTSTART*|BEGIN*|TURN*|DONE*)
      [ -f "$1/$n" ] || exit 0
      cat "$1/$n"
      n=$((n+1)) ;;
    END*) exit 0 ;;
  esac
done
"#;

pub const TARGET: Target = Target {
    name: "gomocup-engine",
    about: "an external Gomocup engine's replies (zerosum-arena's Gomocup driver): messages, \
            moves, garbage, lost requests sent again, an engine that ends or goes silent",
    corpus: || {
        corpus_of(&[
            "OK\r\n\u{1e}7,7\r\n\u{1e}8,8\r\n\u{1e}9,9\r\n",
            "OK\n\u{1e}MESSAGE thinking\nDEBUG depth 3\n\n7,7\n\u{1e}ERROR Unknown command: 8,8\n\
             \u{1e}8,8\n\u{1e}UNKNOWN what 3,2\n\u{1e}3,2\n",
            "MESSAGE hello\r\nOK\r\n\u{1e}ERROR Unknown command: DONE\r\n\u{1e}4,4\r\n",
            "OK\n\u{1e}UNKNOWN 7,7\n\u{1e}UNKNOWN 7,7\n\u{1e}UNKNOWN 7,7\n\u{1e}UNKNOWN 7,7\n",
            "OK\n\u{1e} 6 , 6 \n\u{1e}99,99\n",
            "ERROR no\n\u{1e}",
            "OK\n\u{1e}7,7\n8,8\n9,9\n\u{1e}",
            "OK\n\u{1e}18446744073709551615,0\n",
            "OK\n\u{1e}0,18446744073709551615\n",
            "OK\n\u{1e}MESSAGE \u{1b}[31m\u{7}\n\u{1e}x,y\n",
        ])
    },
    tokens: &[
        "\u{1e}",
        "OK",
        "MESSAGE ",
        "DEBUG ",
        "ERROR ",
        "UNKNOWN ",
        "Unknown command: ",
        "DONE",
        "7,7",
        ",",
        "18446744073709551616",
        "\r\n",
        "\n",
    ],
    share: 50,
    run: run_engine_replies,
};

/// The engine program, written once per process.
fn engine_program() -> &'static Path {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        let path = scratch_file("gomocup-engine.sh");
        std::fs::write(&path, ENGINE).expect("a scratch file");
        path
    })
}

fn run_engine_replies(input: &[u8]) -> Verdict {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let replies = scratch_file(&format!(
        "gomocup-replies-{}",
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&replies).expect("a scratch directory");
    for (n, reply) in input
        .split(|&b| b == SEPARATOR)
        .take(MAX_REPLIES)
        .enumerate()
    {
        std::fs::write(replies.join(n.to_string()), reply).expect("a scratch file");
    }
    let verdict = play(input.len(), &replies);
    let _ = std::fs::remove_dir_all(&replies);
    verdict
}

/// Plays a game with the scripted engine (its replies in `replies`) until it fails or ends;
/// `variant` picks the board and how the game reaches the engine (`BEGIN`, `TURN` or
/// `BOARD`). Accepted when the engine gave at least one move.
fn play(variant: usize, replies: &Path) -> Verdict {
    let spec: GameSpec = ["gomoku", "mnk:7x7x4"][variant % 2]
        .parse()
        .expect("a spec");
    // Moves already played when the engine is first asked, and its side.
    let (side, mut moves) = match variant / 2 % 3 {
        0 => (Side::First, vec![]),
        1 => (Side::Second, vec!["d4".to_string()]),
        _ => (Side::First, vec!["d4".to_string(), "e5".to_string()]),
    };
    let engine: PlayerSpec = format!(
        "cmd=/bin/sh {} {},proto=gomocup,name=scripted",
        engine_program().display(),
        replies.display()
    )
    .parse()
    .expect("a player spec");
    let mut player = engine.build();
    let setup = GameSetup {
        spec: spec.clone(),
        side,
        time: TimeControl {
            per_move: None,
            watchdog: PATIENCE,
            ..TimeControl::default()
        },
        seed: 1,
    };
    let one_line = |error: &dyn std::fmt::Display| {
        let text = error.to_string();
        assert!(
            !text.contains(['\n', '\r']),
            "a reason spans lines: {text:?}"
        );
    };
    if let Err(error) = player.new_game(&setup) {
        one_line(&error);
        return Verdict::Rejected;
    }
    let mut verdict = Verdict::Rejected;
    let mut game = new_game(&spec).expect("a game");
    for cell in &moves {
        game.play(cell).expect("a legal opening");
    }
    for _ in 0..MAX_REPLIES {
        let request = MoveRequest {
            moves: Arc::new(moves.clone()),
            limit: None,
            clock: None,
            increment: Duration::ZERO,
            issued: Instant::now(),
            stop: Arc::new(AtomicBool::new(false)),
            progress: None,
        };
        let answer = match player.choose(&request) {
            Ok(answer) => answer,
            Err(error) => {
                one_line(&error);
                break;
            }
        };
        verdict = Verdict::Accepted;
        // The referee's check: a move off the board or taken ends the game.
        if game.play(&answer.text).is_err() || game.status().is_over() {
            break;
        }
        moves.push(answer.text.clone());
        let Some(reply) = game.legal_moves().into_iter().next() else {
            break;
        };
        game.play(&reply).expect("a legal move");
        moves.push(reply);
        if game.status().is_over() {
            break;
        }
    }
    verdict
}
