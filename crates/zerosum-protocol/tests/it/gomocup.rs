//! Gomocup transcripts: every command, and every kind of bad input, against a fake engine.

use std::time::Duration;

use crate::support::{Behaviour, FakeEngine};
use zerosum_protocol::gomocup::{serve, GomocupSession};

/// The reply lines of a session of `behaviour` to `input` (bytes), and the session.
fn transcript_of(behaviour: Behaviour, input: &[u8]) -> (Vec<String>, GomocupSession<FakeEngine>) {
    let mut session = GomocupSession::new(FakeEngine::new(behaviour));
    let mut output = Vec::new();
    serve(&mut session, input, &mut output).unwrap();
    let output = String::from_utf8(output).unwrap();
    let lines: Vec<String> = output.lines().map(str::to_string).collect();
    for line in &lines {
        let well_formed = ["OK", "ERROR ", "UNKNOWN ", "MESSAGE ", "name="]
            .iter()
            .any(|start| line.starts_with(start))
            || is_cell(line);
        assert!(well_formed, "bad reply {line:?}");
    }
    (lines, session)
}

fn is_cell(line: &str) -> bool {
    line.split_once(',')
        .is_some_and(|(x, y)| x.parse::<usize>().is_ok() && y.parse::<usize>().is_ok())
}

/// The reply lines of a first-move engine, search lines left out.
fn transcript(input: &str) -> Vec<String> {
    transcript_of(Behaviour::FirstMove, input.as_bytes())
        .0
        .into_iter()
        .filter(|line| !line.starts_with("MESSAGE fake"))
        .collect()
}

fn spec_of(session: &GomocupSession<FakeEngine>) -> String {
    session.game().unwrap().spec().to_string()
}

#[test]
fn a_game_from_start_to_end() {
    let (replies, session) = transcript_of(
        Behaviour::FirstMove,
        b"START 15\r\nBEGIN\r\nTURN 7,7\r\nTURN 2,0\r\nABOUT\r\nEND\r\nSTART 10\r\n",
    );
    assert_eq!(
        replies,
        [
            "OK",
            "MESSAGE fake",
            "0,0",
            "MESSAGE fake",
            "1,0",
            "MESSAGE fake",
            "3,0",
            &format!(
                "name=\"zerosum\", version=\"{}\", author=\"the zerosum developers\"",
                env!("CARGO_PKG_VERSION")
            ),
        ]
    );
    assert!(session.has_ended(), "nothing is read after END");
    assert_eq!(spec_of(&session), "mnk:15x15x5");
    assert_eq!(
        session.game().unwrap().history(),
        ["a1", "h8", "b1", "c1", "d1"]
    );
}

#[test]
fn every_line_end_is_accepted() {
    let replies = transcript("START 9\rBEGIN\nRESTART\r\nbegin\n\rturn 0,0\n");
    assert_eq!(replies, ["OK", "0,0", "OK", "0,0", "ERROR 0,0 is occupied"]);
}

#[test]
fn rectstart_restart_and_board_sizes() {
    let (replies, session) =
        transcript_of(Behaviour::FirstMove, b"RECTSTART 20,15\nBEGIN\nRESTART\n");
    assert_eq!(replies, ["OK", "MESSAGE fake", "0,0", "OK"]);
    assert_eq!(spec_of(&session), "mnk:15x20x5");
    assert_eq!(session.game().unwrap().ply(), 0);
    let replies = transcript(
        "START 0\nSTART -1\nSTART 1000000000\nSTART 99999999999999999999999\nSTART\n\
         START abc\nRECTSTART 20\nRECTSTART 0,5\nRECTSTART 5,-5\nRECTSTART 101,5\nRESTART\n\
         START 5\n",
    );
    assert!(replies[0].starts_with("ERROR unsupported board 0x0:"));
    assert_eq!(
        replies[1],
        "ERROR `-1` is not a size: START takes the board size, e.g. START 15"
    );
    assert!(replies[2].contains("rows must be between 1 and 100, not 1000000000"));
    assert!(replies[3].starts_with("ERROR `99999999999999999999999` is not a size"));
    assert!(replies[4].starts_with("ERROR `` is not a size"));
    assert!(replies[5].starts_with("ERROR `abc` is not a size"));
    assert!(replies[6].starts_with("ERROR RECTSTART takes WIDTH,HEIGHT"));
    assert!(replies[7].starts_with("ERROR unsupported board 0x5"));
    assert!(replies[8].starts_with("ERROR `-5` is not a size"));
    assert!(replies[9].contains("columns must be between 1 and 100, not 101"));
    assert_eq!(replies[10], "ERROR no game: START first");
    assert_eq!(replies[11], "OK");
}

#[test]
fn commands_before_start_are_errors() {
    let replies = transcript("BEGIN\nTURN 1,1\nBOARD\nTAKEBACK 1,1\nRESTART\nABOUT\n");
    assert_eq!(replies[..5], ["ERROR no game: START first"; 5]);
    assert!(replies[5].starts_with("name="));
}

#[test]
fn board_sets_a_position_with_the_engine_to_move() {
    // The opponent has one stone more: it moved first.
    let (replies, session) = transcript_of(
        Behaviour::FirstMove,
        b"START 15\nBOARD\n7,7,2\n8,8,1\n 9,9 , 2 \n\nDONE\n",
    );
    assert_eq!(replies, ["OK", "MESSAGE fake", "0,0"]);
    assert_eq!(session.game().unwrap().history(), ["h8", "i9", "j10", "a1"]);
    // Equal counts: the engine moved first.
    let (_, session) = transcript_of(
        Behaviour::FirstMove,
        b"START 15\nBOARD\n7,7,1\n8,8,2\nDONE\n",
    );
    assert_eq!(session.game().unwrap().history(), ["h8", "i9", "a1"]);
    let (_, session) = transcript_of(Behaviour::FirstMove, b"START 15\nBOARD\nDONE\n");
    assert_eq!(session.game().unwrap().history(), ["a1"]);
}

#[test]
fn bad_boards_are_refused_at_done_and_change_nothing() {
    let boards = [
        (
            "1,1,1\n1,2,1\n",
            "ERROR 2 own and 0 opponent stones: the engine cannot be to move",
        ),
        (
            "1,1,2\n1,2,2\n",
            "ERROR 0 own and 2 opponent stones: the engine cannot be to move",
        ),
        ("1,1,1\n1,1,2\n", "ERROR 1,1 is occupied"),
        ("1,1\n", "ERROR `1,1` is not a stone X,Y,F"),
        ("1,1,4\n", "ERROR `1,1,4` is not a stone X,Y,F"),
        ("a,b,1\n", "ERROR `a,b,1` is not a stone X,Y,F"),
        (
            "1,1,3\n",
            "ERROR 1,1,3: winning-line stones of continuous games are not supported",
        ),
        ("20,1,2\n", "ERROR 20,1: move `u2` is off the board"),
        // Found by fuzzing: coordinates at the end of usize overflowed.
        (
            "0,18446744073709551615,2\n",
            "ERROR 0,18446744073709551615 is off every board (at most 100x100)",
        ),
        (
            "18446744073709551615,0,1\n",
            "ERROR 18446744073709551615,0 is off every board",
        ),
    ];
    for (stones, error) in boards {
        let input = format!("START 15\nTURN 7,7\nBOARD\n{stones}DONE\n");
        let (replies, session) = transcript_of(Behaviour::FirstMove, input.as_bytes());
        assert!(replies[3].starts_with(error), "{stones:?}: {replies:?}");
        assert_eq!(
            session.game().unwrap().history(),
            ["h8", "a1"],
            "{stones:?}"
        );
    }
    // A finished game.
    let replies = transcript(
        "INFO zerosum_k 3\nSTART 5\nBOARD\n0,0,1\n1,0,1\n2,0,1\n0,1,2\n1,1,2\n2,1,2\nDONE\n",
    );
    assert_eq!(
        replies[1],
        "ERROR 2,1 comes after the end (first player wins)"
    );
}

#[test]
fn turn_errors() {
    let replies = transcript(
        "START 15\nTURN\nTURN 7\nTURN a,b\nTURN -1,2\nTURN 15,0\nTURN 0,15\nTURN 1,1,1\nTURN 7,7\n\
         TURN 7,7\nTURN 0,0\n",
    );
    assert_eq!(replies[0], "OK");
    assert_eq!(replies[1], "ERROR `` is not a cell X,Y");
    assert_eq!(replies[2], "ERROR `7` is not a cell X,Y");
    assert_eq!(replies[3], "ERROR `a,b` is not a cell X,Y");
    assert_eq!(replies[4], "ERROR `-1,2` is not a cell X,Y");
    assert_eq!(replies[5], "ERROR 15,0 is off the 15x15 board");
    assert_eq!(replies[6], "ERROR 0,15 is off the 15x15 board");
    assert_eq!(replies[7], "ERROR `1,1,1` is not a cell X,Y");
    assert_eq!(replies[8], "0,0");
    assert_eq!(replies[9], "ERROR 7,7 is occupied");
    assert_eq!(replies[10], "ERROR 0,0 is occupied");
}

#[test]
fn moves_after_the_end_are_errors() {
    // Three in a row on 3x3: the engine plays a1, b1, c1 (0,0 1,0 2,0) and wins.
    let replies = transcript(
        "INFO zerosum_k 3\nSTART 3\nBEGIN\nTURN 0,1\nTURN 1,1\nTURN 2,2\nBEGIN\nRESTART\nTURN 0,0\n",
    );
    assert_eq!(
        replies[..5],
        [
            "OK",
            "0,0",
            "1,0",
            "2,0",
            "ERROR 2,2 comes after the end (first player wins)"
        ]
    );
    assert_eq!(
        replies[5],
        "ERROR BEGIN needs an empty board (RESTART first)"
    );
    assert_eq!(replies[6..], ["OK", "1,0"]);
    // The opponent's winning move: no answer to give, and the move is not kept.
    let replies = transcript("INFO zerosum_k 2\nSTART 3\nTURN 2,2\nTURN 2,1\nTAKEBACK 0,0\n");
    assert_eq!(replies[..2], ["OK", "0,0"]);
    assert_eq!(
        replies[2],
        "ERROR 2,1 ends the game (first player wins): there is no move to answer"
    );
    assert_eq!(replies[3], "OK");
}

#[test]
fn takeback() {
    let replies = transcript(
        "START 15\nTURN 7,7\nTAKEBACK 7,7\nTAKEBACK 0,0\nTAKEBACK 7,7\nTAKEBACK 7,7\nTAKEBACK\n\
         TAKEBACK 99,99\n",
    );
    assert_eq!(
        replies,
        [
            "OK",
            "0,0",
            "ERROR cannot take back 7,7: the last move is 0,0",
            "OK",
            "OK",
            "ERROR cannot take back 7,7: no move was played",
            "ERROR `` is not a cell X,Y",
            "ERROR 99,99 is off the 15x15 board",
        ]
    );
}

#[test]
fn info_keys() {
    let (replies, session) = transcript_of(
        Behaviour::FirstMove,
        b"INFO timeout_match 0\nINFO max_memory 83886080\nINFO game_type 1\nINFO rule 0\n\
          INFO rule 2\nINFO folder /tmp\nINFO evaluate 1,1\nINFO some_new_key 5\n\
          INFO zerosum_k 4\nSTART 7\nINFO zerosum_k 6\nTURN 3,3\nINFO zerosum_k 3\n\
          INFO rule 1\nINFO rule 4\nINFO timeout_turn -5\nINFO timeout_turn 1.5\n\
          INFO time_left x\nINFO max_memory lots\nINFO zerosum_k 0\nINFO zerosum_k 101\n\
          INFO zerosum_k\nINFO\n",
    );
    assert_eq!(replies[0], "OK");
    assert_eq!(replies[1..3], ["MESSAGE fake", "0,0"]);
    assert_eq!(
        replies[3],
        "MESSAGE K = 3 applies from the next game (mnk:7x7x3)"
    );
    // The rules of five cannot be played with K = 3 (the next game's run length).
    assert!(
        replies[4].starts_with("ERROR INFO rule 1: unsupported board 7x7")
            && replies[4].contains("a rule of five in a row (K = 5), not K = 3"),
        "{}",
        replies[4]
    );
    assert!(replies[5].starts_with("ERROR INFO rule 4"));
    assert_eq!(
        replies[6],
        "ERROR INFO timeout_turn: `-5` is not a number of milliseconds"
    );
    assert!(replies[7].starts_with("ERROR INFO timeout_turn: `1.5`"));
    assert!(replies[8].starts_with("ERROR INFO time_left: `x`"));
    assert!(replies[9].starts_with("ERROR INFO max_memory: `lots`"));
    assert_eq!(
        replies[10],
        "ERROR INFO zerosum_k: the run length must be between 1 and 64, not 0"
    );
    assert!(replies[11].ends_with("not 101"));
    assert_eq!(replies[12], "ERROR INFO takes a key and a value");
    assert_eq!(replies[13], "ERROR INFO takes a key and a value");
    assert_eq!(replies.len(), 14);
    // K = 6 applied at once to the empty board; K = 3 waits for the next game.
    assert_eq!(spec_of(&session), "mnk:7x7x6");
}

/// `INFO rule` chooses Gomocup's rule: at once on an empty board, else from the next game;
/// bits zerosum does not play are refused and the rule kept.
#[test]
fn info_rule_chooses_the_rule() {
    let (replies, session) = transcript_of(
        Behaviour::FirstMove,
        b"INFO rule 1\nSTART 15\nINFO rule 6\nINFO rule 8\nINFO rule 3\nTURN 7,7\nINFO rule 0\n\
          RESTART\n",
    );
    assert_eq!(
        replies,
        [
            "OK",
            "ERROR INFO rule 6: zerosum plays 0 (freestyle), 1 (exactly five), 4 (renju), and 2 \
             or 3 (0 or 1 in a continuous game)",
            "ERROR INFO rule 8: zerosum plays 0 (freestyle), 1 (exactly five), 4 (renju), and 2 \
             or 3 (0 or 1 in a continuous game)",
            "MESSAGE fake",
            "0,0",
            "MESSAGE the freestyle rule applies from the next game (mnk:15x15x5)",
            "OK",
        ]
    );
    assert_eq!(spec_of(&session), "mnk:15x15x5");
    let (_, session) = transcript_of(Behaviour::FirstMove, b"START 15\nINFO rule 4\n");
    assert_eq!(spec_of(&session), "mnk:15x15x5:renju");
    let (_, session) = transcript_of(Behaviour::FirstMove, b"INFO rule 3\nSTART 20\n");
    assert_eq!(spec_of(&session), "mnk:20x20x5:standard");
}

#[test]
fn time_keys_bound_the_budget() {
    let mut session = GomocupSession::new(FakeEngine::new(Behaviour::FirstMove));
    let budgets = session_budgets(&session);
    let input = b"START 15\nBEGIN\nINFO timeout_turn 1000\nTURN 5,5\nINFO timeout_match 4000\n\
                  TURN 6,6\nINFO time_left 100000\nTURN 7,7\nINFO timeout_turn 0\nTURN 8,8\n";
    serve(&mut session, &input[..], &mut Vec::new()).unwrap();
    let ms = |ms: u64| Some(Duration::from_millis(ms));
    assert_eq!(
        *budgets.lock().unwrap(),
        [None, ms(930), ms(180), ms(930), ms(0)]
    );
}

fn session_budgets(
    session: &GomocupSession<FakeEngine>,
) -> std::sync::Arc<std::sync::Mutex<Vec<Option<Duration>>>> {
    session.engine().budgets.clone()
}

#[test]
fn engine_failures_are_errors() {
    let replies = transcript_of(Behaviour::Resigns, b"START 15\nBEGIN\n").0;
    assert_eq!(replies, ["OK", "ERROR the engine resigns"]);
    let replies = transcript_of(Behaviour::Illegal, b"START 15\nBEGIN\n").0;
    assert!(replies[1].starts_with("ERROR the engine answered an illegal move"));
    let replies = transcript_of(Behaviour::Refuses, b"START 15\nBEGIN\n").0;
    assert_eq!(
        replies[1],
        "ERROR the engine cannot play mnk:15x15x5: this engine plays nothing"
    );
}

#[test]
fn bad_input_gets_well_formed_errors() {
    let mut input = b"HELLO\n\xff\xfe\nSTART 1\xff5\nSTART 15\nTURN 7,\xff7\n".to_vec();
    input.extend(vec![b'7'; zerosum_protocol::MAX_LINE_BYTES + 1]);
    input.extend(b"\nBOARD\n");
    input.extend(vec![b'7'; zerosum_protocol::MAX_LINE_BYTES + 1]);
    input.extend(b"\nDONE\nBEGIN now\nABOUT\n");
    // Through the byte reader: long lines are dropped whole.
    let (replies, _) = transcript_of(Behaviour::FirstMove, &input);
    let replies: Vec<&String> = replies
        .iter()
        .filter(|r| !r.starts_with("MESSAGE"))
        .collect();
    assert_eq!(replies[0], "UNKNOWN command `HELLO`");
    assert_eq!(replies[1], "UNKNOWN command `\u{fffd}\u{fffd}`");
    assert!(replies[2].starts_with("ERROR `1\u{fffd}5` is not a size"));
    assert_eq!(replies[3], "OK");
    assert_eq!(replies[4], "ERROR `7,\u{fffd}7` is not a cell X,Y");
    assert_eq!(
        replies[5],
        "ERROR line too long: the limit is 1048576 bytes"
    );
    assert_eq!(
        replies[6],
        "ERROR line too long: the limit is 1048576 bytes"
    );
    assert_eq!(replies[7], "ERROR BEGIN takes no arguments");
    assert!(replies[8].starts_with("name="));
}

/// The engine sets up (allocates its table) at `START`, before any move is asked for.
#[test]
fn the_engine_is_prepared_at_start_not_at_the_first_move() {
    let (replies, session) = transcript_of(Behaviour::FirstMove, b"START 15\n");
    assert_eq!(replies, ["OK"]);
    assert_eq!(session.engine().spec, Some("gomoku".parse().unwrap()));
    assert_eq!(session.engine().budgets.lock().unwrap().len(), 0);
}
