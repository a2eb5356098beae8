//! The engine protocols' sessions: GTP and Gomocup command streams, answered with a fast fake
//! engine.

use std::io::{self, Cursor};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use zerosum_games::GameSpec;
use zerosum_protocol::gomocup::{self, GomocupSession};
use zerosum_protocol::gtp::{self, GtpSession, Vertices};
use zerosum_protocol::{InputLine, LineReader, MAX_LINE_BYTES};

use super::{corpus_of, joined, Target, Verdict};
use crate::fake_engine::FakeEngine;

const GTP_CORPUS: &[&str] = &[
    "protocol_version\nname\nversion\nlist_commands\nknown_command play\n",
    "1 boardsize 7\n2 clear_board\n3 play b a1\n4 genmove w\n5 showboard\n6 undo\n7 final_score\n",
    "zerosum-game connect4\nplay b 4\ngenmove w\nall_legal_moves\nall_legal_moves w\nquit\n",
    "zerosum-game tictactoe\nplay black b2\nplay white a1\nplay b c3\ngenmove w\nfinal_score\n",
    "zerosum-game hex:5:swap-sides\nplay b c3\nplay w swap-sides\ngenmove w\nshowboard\n",
    "zerosum-game hex:4:swap-pieces\nplay b a1\nplay w swap-pieces\ngenmove b\n",
    "zerosum-game atoll:standard:pie\nplay b e5\nplay w swap\ngenmove w\n",
    "zerosum-game unstable:4x4\nplay b A1\nplay w D4\nplay b A1\ngenmove w\ngenmove b\n",
    "time_settings 60 5 10\ntime_left b 30 0\ngenmove b\ntime_left w 0.5 1\ngenmove w\n",
    "komi 6.5\nboardsize 9 7\nclear_board\n# comment\n\tgenmove b\r\n# interrupt\r\nquit\r\n",
    "zerosum-game\nzerosum-game gomoku\nplay b h8\ngenmove w\ngenmove b\nundo\nundo\n",
    "zerosum-game connectx:20x20x5\nplay b 1\ngenmove w\nboardsize 12\n",
    "gogui-analyze_commands\nhexgui-analyze_commands\ngogui-rules_game_id\ngogui-rules_board_size\n",
    "zerosum-game connect4\nplay b 4\ngogui-rules_board\ngogui-rules_legal_moves\ngogui-rules_side_to_move\n",
    "zerosum-game unstable:3x4\nplay b A1\nplay w C4\nplay w C4\ngogui-rules_board_gfx\n",
    "zerosum-game tictactoe\nplay b a1\nplay w b1\nplay b a2\nplay w b2\nplay b a3\ngogui-rules_final_result\n",
    "kgs-time_settings canadian 60 10 5\ngenmove b\nkgs-time_settings byoyomi 0 3 5\nkgs-time_settings none\ncputime\n",
    "zerosum-game hex:5:swap-pieces\nplay b A5\nplay w pass\nzerosum-evaluate\nzerosum-pv\nzerosum-solve\nzerosum-solve-moves\n",
    "loadsgf missing.sgf\nloadsgf x.sgf 0\nzerosum-game atoll:rhombus4\ngogui-rules_board\n",
    "zerosum-game mnk:5x5x4\nboardsize 4\nplay b a1\nboardsize 5 3\ngenmove w\n",
];

/// The words of GTP sessions besides the command names ([`gtp::COMMANDS`]): arguments,
/// vertices, colours and game specs.
const GTP_ARGUMENT_TOKENS: &[&str] = &[
    "# interrupt",
    "canadian",
    "byoyomi",
    "absolute",
    "A1",
    "J10",
    "b",
    "w",
    "black",
    "white",
    "pass",
    "resign",
    "swap-sides",
    "swap-pieces",
    "swap",
    "tictactoe",
    "connect4",
    "hex:11",
    "atoll:standard:pie",
    "unstable:10x6",
    "mnk:15x15x5",
    "\n",
];

/// Every command name the GTP server knows and the words of its arguments, so that the
/// dictionary follows the server's command list.
const GTP_TOKENS: &[&str] = &joined::<{ gtp::COMMANDS.len() + GTP_ARGUMENT_TOKENS.len() }>(
    gtp::COMMANDS,
    GTP_ARGUMENT_TOKENS,
);

/// A GTP session: each line of the input (read by the protocol's [`LineReader`]) answered.
pub const GTP: Target = Target {
    name: "gtp",
    about:
        "GTP session (zerosum-protocol): command streams answered line by line with a fake engine",
    corpus: || corpus_of(GTP_CORPUS),
    tokens: GTP_TOKENS,
    share: 1,
    run: |input| run_gtp(input, &mut |_| {}),
};

/// A GTP session speaking GoGui's vertices (`zerosum gtp --gogui`).
pub const GTP_GOGUI: Target = Target {
    name: "gtp-gogui",
    about: "GTP session in GoGui's vertices (A1 bottom-left, no I, pass for the swap)",
    corpus: || corpus_of(GTP_CORPUS),
    tokens: GTP_TOKENS,
    share: 1,
    run: |input| run_gtp_in(input, Vertices::GoGui, &mut |_| {}),
};

/// The GTP server with its reading thread and interrupts, on the lines [`GTP`] would answer.
pub const GTP_SERVE: Target = Target {
    name: "gtp-serve",
    about: "GTP server (gtp::serve: reading thread, interrupts, replies) over a byte stream",
    corpus: || corpus_of(GTP_CORPUS),
    tokens: GTP_TOKENS,
    share: 10,
    run: |input| {
        // The lines that ran through a session, again through the server.
        let mut kept = Vec::new();
        let verdict = run_gtp(input, &mut |line| {
            kept.extend_from_slice(line.as_bytes());
            kept.push(b'\n');
        });
        let spec: GameSpec = "tictactoe".parse().expect("valid spec");
        let mut session = GtpSession::new(FakeEngine::default(), &spec).expect("a session");
        gtp::serve(&mut session, Cursor::new(kept), io::sink(), io::sink())
            .expect("a byte stream cannot fail");
        verdict
    },
};

/// Answers every line of `input`, passing each line that runs to `kept`.
fn run_gtp(input: &[u8], kept: &mut dyn FnMut(&str)) -> Verdict {
    run_gtp_in(input, Vertices::Native, kept)
}

/// [`run_gtp`] with the session speaking `vertices`.
fn run_gtp_in(input: &[u8], vertices: Vertices, kept: &mut dyn FnMut(&str)) -> Verdict {
    let spec: GameSpec = "tictactoe".parse().expect("valid spec");
    let mut session = GtpSession::new(FakeEngine::default(), &spec)
        .expect("a session")
        .with_vertices(vertices);
    let stop = Arc::new(AtomicBool::new(false));
    let mut reader = LineReader::new(input);
    let mut verdict = Verdict::Rejected;
    while let Some(line) = reader.next_line().expect("a byte slice cannot fail") {
        let InputLine::Text(line) = line else {
            continue;
        };
        kept(&line);
        if let Some(reply) = session.respond(&line, &stop) {
            assert!(
                reply.starts_with('=') || reply.starts_with('?'),
                "reply `{reply}` to `{line}`"
            );
            assert!(
                reply.ends_with("\n\n"),
                "reply `{reply}` to `{line}` is not ended"
            );
            if reply.starts_with('=') {
                verdict = Verdict::Accepted;
            }
        }
        let _ = session.take_info();
        if session.has_quit() {
            break;
        }
    }
    verdict
}

/// A Gomocup session: each line of the input answered.
pub const GOMOCUP: Target = Target {
    name: "gomocup",
    about: "Gomocup session (zerosum-protocol): pbrain command streams with a fake engine",
    corpus: || {
        corpus_of(&[
            "START 15\nBEGIN\nTURN 7,7\nTURN 8,8\nEND\n",
            "INFO timeout_turn 1000\nINFO timeout_match 100000\nINFO time_left 5000\nSTART 20\nTURN 10,10\n",
            "RECTSTART 20,15\nBOARD\n7,7,1\n8,8,2\n9,9,3\nDONE\nTAKEBACK 9,9\nRESTART\nBEGIN\n",
            "INFO zerosum_k 4\nSTART 7\nBEGIN\nTURN 0,0\nTURN 6,6\nABOUT\n",
            "INFO rule 2\nINFO rule 1\nINFO max_memory 83886080\nSTART 5\nBEGIN\n",
            "start 10\r\nturn 1,1\r\ntakeback 1,1\r\nabout\r\nend\r\n",
            "START 15\nBOARD\n0,0,1\n0,0,2\nDONE\nBOARD\nDONE\nUNKNOWNCMD\n",
            "INFO zerosum_k 6\nSTART 6\nBEGIN\nINFO zerosum_k 5\nRECTSTART 3,5\nRESTART\n",
        ])
    },
    tokens: &[
        "START",
        "RECTSTART",
        "RESTART",
        "BEGIN",
        "TURN",
        "BOARD",
        "DONE",
        "TAKEBACK",
        "INFO",
        "ABOUT",
        "END",
        "timeout_turn",
        "timeout_match",
        "time_left",
        "max_memory",
        "rule",
        "zerosum_k",
        "game_type",
        ",",
        "\n",
    ],
    share: 1,
    run: run_gomocup,
};

fn run_gomocup(input: &[u8]) -> Verdict {
    let mut session = GomocupSession::new(FakeEngine::default());
    let mut reader = LineReader::new(input);
    let mut verdict = Verdict::Rejected;
    let mut kept = Vec::new();
    while let Some(line) = reader.next_line().expect("a byte slice cannot fail") {
        let replies = match line {
            InputLine::Text(line) => {
                kept.extend_from_slice(line.as_bytes());
                kept.push(b'\n');
                session.respond(&line)
            }
            InputLine::TooLong => {
                kept.extend(std::iter::repeat_n(b'a', MAX_LINE_BYTES + 1));
                kept.push(b'\n');
                session.refuse_long_line()
            }
        };
        for reply in &replies {
            assert!(!reply.contains(['\n', '\r']), "reply `{reply}` spans lines");
            if !reply.starts_with("ERROR") && !reply.starts_with("UNKNOWN") {
                verdict = Verdict::Accepted;
            }
        }
        if session.has_ended() {
            break;
        }
    }
    // The same lines through the server.
    let mut session = GomocupSession::new(FakeEngine::default());
    gomocup::serve(&mut session, kept.as_slice(), io::sink()).expect("a byte stream cannot fail");
    verdict
}
