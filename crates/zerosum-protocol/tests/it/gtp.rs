//! GTP transcripts: every command, and every kind of bad input, against a fake engine.

use std::io::{BufRead, BufReader, Cursor, Write};
use std::time::{Duration, Instant};

use crate::support::{Behaviour, FakeEngine};
use zerosum_protocol::gtp::{serve, GtpSession};

fn session(behaviour: Behaviour, spec: &str) -> GtpSession<FakeEngine> {
    GtpSession::new(FakeEngine::new(behaviour), &spec.parse().unwrap()).unwrap()
}

/// The replies to `input` (bytes), each without its closing empty line, and the log.
fn transcript_of(session: &mut GtpSession<FakeEngine>, input: &[u8]) -> (Vec<String>, String) {
    let mut output = Vec::new();
    let mut log = Vec::new();
    serve(session, Cursor::new(input.to_vec()), &mut output, &mut log).unwrap();
    let output = String::from_utf8(output).unwrap();
    assert!(
        output.is_empty() || output.ends_with("\n\n"),
        "replies end with an empty line: {output:?}"
    );
    let replies = output
        .split_terminator("\n\n")
        .map(str::to_string)
        .collect::<Vec<_>>();
    for reply in &replies {
        assert!(
            reply.starts_with('=') || reply.starts_with('?'),
            "bad reply {reply:?}"
        );
    }
    (replies, String::from_utf8(log).unwrap())
}

/// The replies of a fresh first-move engine on `spec`.
fn transcript(spec: &str, input: &str) -> Vec<String> {
    transcript_of(&mut session(Behaviour::FirstMove, spec), input.as_bytes()).0
}

#[test]
fn required_commands_answer_with_ids() {
    let replies = transcript(
        "hex:11",
        "1 protocol_version\n2 name\n3 version\nknown_command play\n\
         known_command foo\nknown_command gogui-interrupt\n10 list_commands\n\
         4 quit\nname\n",
    );
    assert_eq!(
        replies[..6],
        [
            "=1 2",
            "=2 zerosum",
            &format!("=3 {}", env!("CARGO_PKG_VERSION")),
            "= true",
            "= false",
            "= true",
        ]
    );
    let commands: Vec<&str> = replies[6].lines().collect();
    assert_eq!(commands[0], "=10 protocol_version");
    for name in [
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
        "undo",
        "showboard",
        "time_settings",
        "time_left",
        "all_legal_moves",
        "final_score",
        "zerosum-game",
        "gogui-interrupt",
    ] {
        assert!(commands.contains(&name), "{name} listed");
    }
    // Nothing is answered after quit.
    assert_eq!(replies[7..], ["=4"]);
}

#[test]
fn input_is_cleaned_as_gtp_asks() {
    let replies = transcript(
        "hex:11",
        "\n   \n# a comment\r\n\tname\t# trailing\r\n5\x07 protocol_version\x01\n7\n\
         \x1b\x1b\n12 \t komi \t 6.5\n",
    );
    assert_eq!(
        replies,
        [
            "= zerosum",
            "=5 2",
            "?7 syntax error: no command after the id",
            "=12"
        ]
    );
}

#[test]
fn hex_play_genmove_showboard_undo() {
    let replies = transcript(
        "hex:5",
        "play b c3\nplay w c3\nplay B b2\nplay White b2\nshowboard\ngenmove b\n\
         all_legal_moves\nall_legal_moves b\nall_legal_moves w\nundo\nundo\nundo\nundo\n\
         play w a1\nplay x a1\nplay b\ngenmove\nplay b f1\nplay b a0\nplay b pass\n",
    );
    assert_eq!(replies[0], "=");
    assert_eq!(replies[1], "? illegal move: white c3 (occupied)");
    assert_eq!(replies[2], "? illegal move: black b2 (white is to move)");
    assert_eq!(replies[3], "=");
    let board = &replies[4];
    assert!(board.starts_with("= \n"), "{board}");
    assert!(board.contains("W") && board.contains("B"), "{board}");
    assert_eq!(replies[5], "= a1");
    assert!(replies[6].starts_with("= b1 c1 d1 e1 a2"), "{}", replies[6]);
    assert_eq!(replies[7], "=");
    assert_eq!(replies[8], replies[6]);
    assert_eq!(replies[9..12], ["=", "=", "="]);
    assert_eq!(replies[12], "? cannot undo: no move was played");
    assert_eq!(replies[13], "? illegal move: white a1 (black is to move)");
    assert!(replies[14].starts_with("? syntax error: `x` is not a colour"));
    assert!(replies[15].starts_with("? syntax error: wrong number of arguments to play"));
    assert!(replies[16].starts_with("? syntax error: wrong number of arguments to genmove"));
    assert!(
        replies[17].starts_with("? illegal move: black f1 (off the board"),
        "{}",
        replies[17]
    );
    assert!(replies[18].starts_with("? illegal move: black a0 (not a move"));
    assert!(replies[19].starts_with("? illegal move: black pass (not a move"));
}

#[test]
fn genmove_takes_the_colour_to_move_only() {
    let replies = transcript("hex:5", "genmove w\ngenmove b\ngenmove b\ngenmove w\n");
    assert_eq!(
        replies,
        [
            "? cannot move white: black is to move",
            "= a1",
            "? cannot move black: white is to move",
            "= b1"
        ]
    );
}

#[test]
fn hex_swap_pieces_and_swap_sides() {
    let replies = transcript(
        "hex:5:swap-pieces",
        "play b b1\nall_legal_moves\nplay w swap-pieces\nshowboard\nplay b c3\n",
    );
    assert!(replies[1].ends_with(" swap-pieces"), "{}", replies[1]);
    assert_eq!(replies[2], "=");
    // The black stone on b1 became a white one on a2; Black moves next.
    let board: Vec<&str> = replies[3].lines().collect();
    assert!(
        board[2].contains('.') && !board[2].contains('B'),
        "{board:?}"
    );
    assert!(board[3].contains('W'), "{board:?}");
    assert_eq!(replies[4], "=");

    // After the swap the first player has White, and moves next.
    let mut last_move = session(Behaviour::LastMove, "hex:5:swap-sides");
    let (swapped, _) = transcript_of(
        &mut last_move,
        b"play b b1\ngenmove w\nplay b c3\nplay w c3\n",
    );
    assert_eq!(
        swapped,
        [
            "=",
            "= swap-sides",
            "? illegal move: black c3 (white is to move)",
            "="
        ]
    );
    let replies = transcript("hex:5", "play b b1\nplay w swap-sides\n");
    assert_eq!(
        replies[1],
        "? illegal move: white swap-sides (the swap rule is not in force)"
    );
}

#[test]
fn connect_four_columns_final_score_and_moves_after_the_end() {
    let replies = transcript(
        "hex:11",
        "zerosum-game connect4\nzerosum-game\nfinal_score\nplay b 1\nplay w 2\nplay b 1\n\
         play w 2\nplay b 1\nplay w 2\nplay b 1\nfinal_score\nplay w 3\ngenmove w\n\
         all_legal_moves\nundo\nfinal_score\nplay b 8\n",
    );
    assert_eq!(replies[0], "=");
    assert_eq!(replies[1], "= connectx:6x7x4");
    assert_eq!(replies[2], "? cannot score: the game is not over");
    assert!(replies[3..10].iter().all(|reply| reply == "="));
    assert_eq!(replies[10], "= B+");
    assert_eq!(replies[11], "? illegal move: white 3 (the game is over)");
    assert_eq!(replies[12], "? cannot move: the game is over (black won)");
    assert_eq!(replies[13], "=");
    assert_eq!(replies[14], "=");
    assert_eq!(replies[15], "? cannot score: the game is not over");
    assert_eq!(
        replies[16],
        "? illegal move: black 8 (off the board: columns are numbered 1 to 7)"
    );
    let draw = transcript(
        "hex:11",
        "zerosum-game tictactoe\nplay b b2\nplay w a1\nplay b c1\nplay w a3\nplay b a2\n\
         play w c2\nplay b b1\nplay w b3\nplay b c3\nfinal_score\n",
    );
    assert_eq!(draw.last().unwrap(), "= 0");
}

#[test]
fn zerosum_game_picks_any_game() {
    let replies = transcript(
        "hex:11",
        "zerosum-game unstable:4x4\ngenmove b\nzerosum-game atoll:standard:pie\nzerosum-game\n\
         zerosum-game chess\nzerosum-game mnk:0x3x3\nzerosum-game a b\nzerosum-game\n",
    );
    assert_eq!(replies[..4], ["=", "= A1", "=", "= atoll:standard:pie"]);
    assert!(replies[4].starts_with("? unknown game `chess`"));
    assert!(replies[5].starts_with("? bad game spec `mnk:0x3x3`"));
    assert!(replies[6].starts_with("? syntax error: wrong number of arguments"));
    assert_eq!(replies[7], "= atoll:standard:pie");
}

#[test]
fn boardsize_keeps_the_family_and_refuses_absurd_sizes() {
    let replies = transcript(
        "hex:11:swap-sides",
        "play b a1\nboardsize 7\nzerosum-game\nall_legal_moves\nboardsize 9 7\nzerosum-game\n\
         boardsize 0\nboardsize -5\nboardsize 1000000000\nboardsize 1000000000000000000000000\n\
         boardsize abc\nboardsize 1.5\nboardsize\nboardsize 1 2 3\nzerosum-game\n\
         zerosum-game mnk:15x15x5\nboardsize 19\nzerosum-game\nzerosum-game atoll\nboardsize 9\n",
    );
    assert_eq!(replies[1], "=");
    assert_eq!(replies[2], "= hex:7:swap-sides");
    assert!(replies[3].starts_with("= a1 b1"), "the board was cleared");
    assert_eq!(replies[5], "= hex:9x7:swap-sides");
    assert!(replies[6].starts_with("? unacceptable size: bad game spec `hex:0:swap-sides`"));
    assert_eq!(replies[7], "? unacceptable size: -5");
    assert!(replies[8].starts_with("? unacceptable size: bad game spec"));
    assert_eq!(replies[9], "? unacceptable size: 1000000000000000000000000");
    assert_eq!(
        replies[10],
        "? syntax error: board size `abc` is not an integer"
    );
    assert_eq!(
        replies[11],
        "? syntax error: board size `1.5` is not an integer"
    );
    assert!(replies[12].starts_with("? syntax error: boardsize SIZE"));
    assert!(replies[13].starts_with("? syntax error: boardsize SIZE"));
    assert_eq!(
        replies[14], "= hex:9x7:swap-sides",
        "refused sizes change nothing"
    );
    assert_eq!(replies[17], "= mnk:19x19x5");
    assert!(replies[19].starts_with("? unacceptable size: Atoll boards are named"));
}

#[test]
fn komi_is_accepted_and_ignored() {
    let replies = transcript("hex:11", "komi 6.5\nkomi -3\nkomi x\nkomi\n");
    assert_eq!(replies[..2], ["=", "="]);
    assert_eq!(replies[2], "? syntax error: komi `x` is not a number");
    assert!(replies[3].starts_with("? syntax error: wrong number of arguments to komi"));
}

#[test]
fn time_settings_and_time_left_bound_the_budget() {
    let mut session = session(Behaviour::FirstMove, "hex:5");
    let budgets = std::sync::Arc::clone(&session_engine_budgets(&session));
    let (replies, log) = transcript_of(
        &mut session,
        b"genmove b\ntime_settings 20 0 0\ngenmove w\ntime_left b 2 0\ngenmove b\n\
          time_left w 3 3\ngenmove w\ntime_settings 0 10 0\ngenmove b\n\
          time_settings -1 0 0\ntime_settings 1 1\ntime_left x 1 0\ntime_left b 1 -1\n\
          time_left b 1e400 0\n",
    );
    assert!(
        replies[..9].iter().all(|reply| reply.starts_with('=')),
        "{replies:?}"
    );
    assert!(replies[9].starts_with("? syntax error: `-1` is not a number of seconds"));
    assert!(replies[10].starts_with("? syntax error: wrong number of arguments"));
    assert!(replies[11].starts_with("? syntax error: `x` is not a colour"));
    assert!(replies[12].starts_with("? syntax error: `-1` is not a number of stones"));
    assert!(replies[13].starts_with("? syntax error: `1e400` is not a number of seconds"));
    assert_eq!(log.lines().count(), 5, "one search line per genmove");
    let budgets = budgets.lock().unwrap().clone();
    let ms = |ms: u64| Some(Duration::from_millis(ms));
    // Untimed; 20 s / 20 = 1 s less 70 ms; 2 s / 20 less a tenth; 1 s per stone less 70 ms;
    // untimed again.
    assert_eq!(budgets, [None, ms(930), ms(90), ms(930), None]);
}

fn session_engine_budgets(
    session: &GtpSession<FakeEngine>,
) -> std::sync::Arc<std::sync::Mutex<Vec<Option<Duration>>>> {
    session.engine().budgets.clone()
}

#[test]
fn engine_failures_are_error_replies() {
    let replies = transcript_of(
        &mut session(Behaviour::Resigns, "hex:5"),
        b"genmove b\nall_legal_moves\n",
    )
    .0;
    assert_eq!(replies[0], "= resign");
    assert!(
        replies[1].starts_with("= a1 b1"),
        "a resignation plays nothing"
    );
    let replies = transcript_of(&mut session(Behaviour::Illegal, "hex:5"), b"genmove b\n").0;
    assert!(replies[0].starts_with("? the engine answered an illegal move"));
    let replies = transcript_of(&mut session(Behaviour::Refuses, "hex:5"), b"genmove b\n").0;
    assert_eq!(
        replies[0],
        "? the engine cannot play hex:5: this engine plays nothing"
    );
}

#[test]
fn bad_input_gets_well_formed_errors() {
    let mut input = b"foo\n3 bar baz\n\xff\xfe play b a1\nplay b a\xff1\n".to_vec();
    input.extend(vec![b'x'; zerosum_protocol::MAX_LINE_BYTES + 10]);
    input.extend(b"\nname\n=== ??? ===\n");
    let replies = transcript_of(&mut session(Behaviour::FirstMove, "hex:11"), &input).0;
    assert_eq!(replies[0], "? unknown command: foo");
    assert_eq!(replies[1], "?3 unknown command: bar");
    assert_eq!(replies[2], "? unknown command: \u{fffd}\u{fffd}");
    assert!(replies[3].starts_with("? illegal move: black a\u{fffd}1 (not a move"));
    assert_eq!(replies[4], "? line too long: the limit is 1048576 bytes");
    assert_eq!(replies[5], "= zerosum");
    assert_eq!(replies[6], "? unknown command: ===");
}

#[test]
fn random_bytes_never_break_the_server() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let words: [&[u8]; 12] = [
        b"play",
        b"genmove",
        b"b",
        b"w",
        b"a1",
        b"boardsize",
        b"undo",
        b"zerosum-game",
        b"connect4",
        b"\xc3",
        b"-1",
        b"99999999999999999999",
    ];
    let mut input = Vec::new();
    for _ in 0..2_000 {
        for _ in 0..next() % 4 {
            match next() % 3 {
                0 => input.push((next() % 256) as u8),
                _ => input.extend_from_slice(words[(next() % 12) as usize]),
            }
            input.push(b' ');
        }
        input.push(b'\n');
    }
    input.extend(b"name\n");
    let replies = transcript_of(&mut session(Behaviour::FirstMove, "hex:5"), &input).0;
    assert_eq!(replies.last().unwrap(), "= zerosum");
}

/// A server on a thread, fed and read through pipes.
struct LiveServer {
    input: std::io::PipeWriter,
    output: BufReader<std::io::PipeReader>,
}

impl LiveServer {
    fn start(behaviour: Behaviour) -> LiveServer {
        let (input_reader, input) = std::io::pipe().unwrap();
        let (output_reader, output_writer) = std::io::pipe().unwrap();
        std::thread::spawn(move || {
            let mut session = session(behaviour, "hex:9");
            serve(
                &mut session,
                BufReader::new(input_reader),
                output_writer,
                std::io::sink(),
            )
        });
        LiveServer {
            input,
            output: BufReader::new(output_reader),
        }
    }

    fn send(&mut self, line: &str) {
        self.input.write_all(line.as_bytes()).unwrap();
        self.input.write_all(b"\n").unwrap();
    }

    /// The next reply, without its empty line.
    fn reply(&mut self) -> String {
        let mut reply = String::new();
        loop {
            let mut line = String::new();
            assert!(self.output.read_line(&mut line).unwrap() > 0, "server gone");
            if line == "\n" {
                return reply.trim_end().to_string();
            }
            reply.push_str(&line);
        }
    }
}

#[test]
fn interrupt_stops_a_running_genmove_promptly() {
    let mut server = LiveServer::start(Behaviour::Slow);
    server.send("1 genmove b");
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    server.send("# interrupt");
    assert_eq!(server.reply(), "=1 a1");
    assert!(
        sent.elapsed() < Duration::from_millis(500),
        "{:?}",
        sent.elapsed()
    );
    // The interrupt was spent on that genmove: the next one thinks its full time.
    let started = Instant::now();
    server.send("2 genmove w");
    assert_eq!(server.reply(), "=2 b1");
    assert!(started.elapsed() >= Duration::from_secs(1));
    server.send("quit");
    assert_eq!(server.reply(), "=");
}

#[test]
fn a_late_interrupt_stops_nothing_later() {
    let mut session = session(Behaviour::Slow, "hex:9");
    let (replies, log) = transcript_of(&mut session, b"name\n# interrupt\ngenmove b\n");
    assert_eq!(replies, ["= zerosum", "= a1"]);
    assert_eq!(log, "waited\n");
    // An interrupt read before its genmove starts stops it at once.
    let mut session = self::session(Behaviour::Slow, "hex:9");
    let (_, log) = transcript_of(&mut session, b"genmove b\n# interrupt\n");
    assert_eq!(log, "stopped\n");
}

/// The engine sets up (allocates its table) when the game is chosen, never inside the first
/// `genmove`, where the controller's clock already runs.
#[test]
fn the_engine_is_prepared_when_the_game_is_chosen_not_at_genmove() {
    let mut session = session(Behaviour::FirstMove, "hex:11");
    assert_eq!(session.engine().spec, Some("hex:11".parse().unwrap()));
    for (input, spec) in [
        ("zerosum-game connect4\n", "connect4"),
        ("boardsize 5 4\n", "connectx:4x5x4"),
    ] {
        let (replies, _) = transcript_of(&mut session, input.as_bytes());
        assert_eq!(replies, ["="], "{input}");
        assert_eq!(
            session.engine().spec,
            Some(spec.parse().unwrap()),
            "{input}"
        );
    }
    assert_eq!(session.engine().budgets.lock().unwrap().len(), 0);
}
