//! The command line as a user meets it: outputs, and one-line errors with a non-zero exit for
//! bad input, never a panic.

use std::process::{Command, Output};

fn zerosum(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Runs a command that must fail with exactly one error line containing `message`.
fn fails_with(args: &[&str], message: &str) {
    let output = zerosum(args);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(err.contains(message), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn games_lists_every_family_and_alias() {
    let output = zerosum(&["games"]);
    assert!(output.status.success());
    let text = stdout(&output);
    for word in [
        "mnk:MxNxK",
        "connectx:MxNxX",
        "hex:N",
        "atoll:BOARD",
        "unstable:MxN",
        "tictactoe",
        "gomoku",
        "connect4",
        "chain-reaction",
        "standard",
        "hexhexR",
    ] {
        assert!(text.contains(word), "{word} missing from:\n{text}");
    }
}

#[test]
fn show_prints_board_side_status_and_moves() {
    let output = zerosum(&["show", "tictactoe", "--moves", "b2,a1,c3"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("1 O . ."), "{text}");
    assert!(text.contains("2 . X ."), "{text}");
    assert!(text.contains("to move: second"), "{text}");
    assert!(text.contains("legal moves: b1 c1 a2 c2 a3 b3"), "{text}");
}

#[test]
fn show_json_has_the_documented_fields() {
    let output = zerosum(&["show", "connect4", "--moves", "4453", "--json"]);
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["spec"], "connectx:6x7x4");
    assert_eq!(json["to_move"], "first");
    assert_eq!(json["status"], "ongoing");
    assert_eq!(json["ply"], 4);
    assert_eq!(json["legal_moves"].as_array().unwrap().len(), 7);
    assert_eq!(json["moves"], serde_json::json!(["4", "4", "5", "3"]));

    // A finished game names the winner; hex cells, unstable cells and atoll specs work too.
    let won = zerosum(&["show", "tictactoe", "--moves", "a1,b1,a2,b2,a3", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&won)).unwrap();
    assert_eq!(json["status"], "first");
    assert_eq!(json["legal_moves"], serde_json::json!([]));
    for (spec, moves) in [
        ("hex:5:swap-sides", "c3,swap"),
        ("unstable", "A1,J6,A1"),
        ("atoll:hexhex4:pie", "e5"),
        ("mnk:70x70x10", "ah35"),
        ("connectx:100x100x30", "50,50"),
    ] {
        let output = zerosum(&["show", spec, "--moves", moves, "--json"]);
        assert!(output.status.success(), "{spec}: {}", stderr(&output));
        let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        assert_eq!(json["status"], "ongoing", "{spec}");
    }
}

#[test]
fn perft_prints_one_line_per_depth() {
    let output = zerosum(&["perft", "connect4", "5"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let counts: Vec<(usize, u64)> = text
        .lines()
        .map(|line| {
            let mut words = line.split_whitespace();
            (
                words.next().unwrap().parse().unwrap(),
                words.next().unwrap().parse().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        counts,
        vec![(1, 7), (2, 49), (3, 343), (4, 2401), (5, 16807)]
    );
    assert!(text.lines().all(|l| l.ends_with("positions/s")), "{text}");
    let from = zerosum(&["perft", "tictactoe", "2", "--moves", "b2"]);
    assert!(stdout(&from).starts_with("1 8 "), "{}", stdout(&from));
}

#[test]
fn bad_input_is_one_line_and_a_non_zero_exit() {
    fails_with(&["show", "chess"], "unknown game `chess`");
    fails_with(&["show", "mnk:3x3"], "expected mnk:MxNxK");
    fails_with(&["show", "mnk:0x3x3"], "rows must be between 1 and 100");
    fails_with(&["show", "hex:12:swap"], "expected hex:N");
    fails_with(&["show", "atoll:nowhere"], "nowhere");
    fails_with(
        &["show", "tictactoe", "--moves", "b2,b2"],
        "move 2 of the list: illegal move `b2`: occupied",
    );
    fails_with(&["show", "tictactoe", "--moves", "z9"], "off the board");
    fails_with(
        &["show", "tictactoe", "--moves", "1a"],
        "cannot read move `1a`",
    );
    fails_with(&["show", "connect4", "--moves", "1111111"], "column full");
    fails_with(&["show", "connect4", "--moves", "8"], "off the board");
    fails_with(&["show", "unstable", "--moves", "A1,A1"], "opponent's cell");
    fails_with(
        &["show", "tictactoe", "--moves", "a1,b1,a2,b2,a3,c3"],
        "after the end of the game",
    );
    fails_with(&["show", "hex:5", "--moves", "c3,swap"], "swap");
    fails_with(&["perft", "connect4", "5000"], "at most 1000");
    fails_with(&["perft", "tictactoe", "3", "--moves", "a1,a1"], "occupied");
    // Argument errors come from the parser: a non-zero exit and a message, no panic.
    let output = zerosum(&["perft", "connect4", "deep"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("invalid value"));
}
