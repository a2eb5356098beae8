//! The command line as a user meets it: outputs, and one-line errors with a non-zero exit for
//! bad input, never a panic.

use std::process::{Command, Output};

use crate::support::zerosum;

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
    assert!(text.contains("to move: O (second player)"), "{text}");
    assert!(text.contains("legal moves: b1 c1 a2 c2 a3 b3"), "{text}");
}

#[test]
fn show_says_whose_move_it_is_once() {
    for (spec, moves, mover) in [
        ("hex:5", "a1,b2", "to move: Black (first player, B)"),
        ("atoll:standard", "", "to move: Black (first player, B)"),
        (
            "unstable:3x3",
            "a1,c3,a1",
            "to move: White (second player, -)",
        ),
        ("connect4", "4453", "to move: X (first player)"),
    ] {
        let output = zerosum(&["show", spec, "--moves", moves]);
        assert!(output.status.success());
        let text = stdout(&output);
        assert_eq!(text.matches("to move").count(), 1, "{spec}:\n{text}");
        assert!(text.contains(mover), "{spec}:\n{text}");
    }
}

#[test]
fn show_counts_one_atom_in_the_singular() {
    let output = zerosum(&["show", "unstable:3x3", "--moves", "a1"]);
    let text = stdout(&output);
    assert!(
        text.contains("Black (+) 1 atom in 1 cell, White (-) 0 atoms in 0 cells"),
        "{text}"
    );
    assert!(
        !text.contains("1 atoms") && !text.contains("1 cells"),
        "{text}"
    );
}

#[test]
fn show_frames_the_winning_line_and_names_the_winner() {
    let output = zerosum(&["show", "connect4", "--moves", "1212121"]);
    let text = stdout(&output);
    assert!(text.contains("[X]O . . . . ."), "{text}");
    assert_eq!(text.matches("[X]").count(), 4, "{text}");
    assert!(text.contains("status: X (first player) wins"), "{text}");
    let output = zerosum(&["show", "tictactoe", "--moves", "a1,a2,b1,b2,c1"]);
    let text = stdout(&output);
    assert!(text.contains("1[X X X]"), "{text}");
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
    fails_with(&["perft", "connect4", "deep"], "invalid value 'deep'");
}

#[test]
fn search_prints_an_info_line_per_iteration_and_the_best_move() {
    let output = zerosum(&["search", "connect4", "--moves", "4453", "--depth", "6"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    // What the book and the solver prove first, then the search.
    assert_eq!(lines.len(), 8, "{text}");
    assert!(lines[0].starts_with("exact "), "{text}");
    for (i, line) in lines[1..7].iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[..2], ["depth", &(i + 1).to_string()], "{line}");
        assert_eq!(
            [words[2], words[4], words[6], words[8], words[10]],
            ["score", "nodes", "nps", "time", "pv"]
        );
    }
    assert!(lines[7].starts_with("bestmove "), "{text}");
    for algo in ["pvs", "mtdf", "alphabeta", "minimax"] {
        let output = zerosum(&["search", "tictactoe", "--depth", "9", "--algo", algo]);
        assert!(output.status.success());
        assert!(
            stdout(&output)
                .lines()
                .last()
                .unwrap()
                .contains("score draw"),
            "{algo}"
        );
    }
    let timed = zerosum(&["search", "gomoku", "--moves", "h8", "--time", "0.2"]);
    assert!(timed.status.success());
    let nodes = zerosum(&["search", "hex:5", "--nodes", "5000"]);
    assert!(stdout(&nodes).contains("bestmove"));
}

#[test]
fn solve_and_analyze_give_exact_values() {
    let output = zerosum(&["solve", "connect4", "--moves", "4453"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("score -2\n"),
        "{}",
        stdout(&output)
    );
    let output = zerosum(&["solve", "tictactoe", "--moves", "a1"]);
    assert!(
        stdout(&output).starts_with("score draw\n"),
        "{}",
        stdout(&output)
    );
    let output = zerosum(&["solve", "mnk:4x3x3", "--weak"]);
    assert!(
        stdout(&output).starts_with("score win\n"),
        "{}",
        stdout(&output)
    );
    let output = zerosum(&[
        "analyze",
        "tictactoe",
        "--moves",
        "a1,b2,c3",
        "--depth",
        "9",
    ]);
    let text = stdout(&output);
    // O must block nothing yet, but every move keeps the draw except none: all are proven
    // draws or worse.
    assert_eq!(text.lines().count(), 6, "{text}");
    assert!(text.lines().next().unwrap().ends_with(" draw"), "{text}");
}

#[test]
fn solve_reads_positions_from_standard_input() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(["solve", "connect4", "--stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"5554224333234511764415115 4\n52753311433677442422121 8\n\n271713432331713132 -11\n",
        )
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "5554224333234511764415115 4\n52753311433677442422121 8\n271713432331713132 -11\n"
    );
}

#[test]
fn bench_signature_is_the_same_on_every_run() {
    let signature = |output: &Output| {
        let text = stdout(output);
        text.lines()
            .last()
            .and_then(|l| l.strip_prefix("signature: "))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no signature in:\n{text}"))
    };
    let first = zerosum(&["bench"]);
    let second = zerosum(&["bench"]);
    assert!(first.status.success() && second.status.success());
    assert_eq!(signature(&first), signature(&second));
}

#[test]
fn bad_engine_options_are_one_line_errors() {
    fails_with(
        &["search", "connect4", "--time", "-1"],
        "--time must be a positive number",
    );
    fails_with(
        &["search", "connect4", "--time", "nan"],
        "--time must be a positive number",
    );
    fails_with(
        &["search", "connect4", "--depth", "0"],
        "--depth must be between 1 and 250",
    );
    fails_with(
        &["search", "connect4", "--nodes", "0"],
        "--nodes must be at least 1",
    );
    fails_with(
        &["search", "connect4", "--hash", "0"],
        "--hash must be between 1",
    );
    fails_with(
        &["search", "tictactoe", "--moves", "a1,b1,a2,b2,a3"],
        "the game is over",
    );
    fails_with(
        &["solve", "tictactoe", "--moves", "a1,b1,a2,b2,a3"],
        "the game is over",
    );
    fails_with(
        &["solve", "connect4", "--moves", "1212121"],
        "the game is over",
    );
    fails_with(&["analyze", "hex:3", "--moves", "a9"], "off the board");
    fails_with(
        &["search", "connect4", "--algo", "magic"],
        "unknown search algorithm `magic`",
    );
}

#[test]
fn bench_connect4_solves_test_sets_and_the_empty_board() {
    let dir = std::env::temp_dir().join(format!("zerosum-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("set");
    std::fs::write(
        &file,
        "5554224333234511764415115 4\n52753311433677442422121 8\n271713432331713132 -11\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let output = zerosum(&["bench", "connect4", file, "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let line: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(line["positions"], 3);
    assert_eq!(line["exact"], 3);
    assert!(line["mean_nodes"].as_f64().unwrap() > 0.0);
    // A score the solver does not find: the table is still printed, then a one-line error.
    let wrong = dir.join("wrong");
    std::fs::write(
        &wrong,
        "52753311433677442422121 8\n271713432331713132 -10\n",
    )
    .unwrap();
    let output = zerosum(&["bench", "connect4", wrong.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stdout(&output).contains("wrong "), "{}", stdout(&output));
    let err = stderr(&output);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("scores differ from the files': 1 of wrong"),
        "{err}"
    );
    // The 4-row, 5-column board is a draw.
    let output = zerosum(&[
        "bench",
        "connect4",
        file,
        "--limit",
        "1",
        "--empty",
        "--spec",
        "connectx:4x5x4",
        "--zero-based",
    ]);
    // The file's moves are off a 5-column board: a one-line error, before any solve.
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let output = zerosum(&["bench", "connect4", "--empty", "--spec", "connectx:4x5x4"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with("file "), "{text}");
    assert!(text.contains("mean cpu"), "{text}");
    let row = text.lines().nth(1).unwrap();
    let words: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&words[..4], ["empty", "1", "-", "0"], "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The depth of the last info line and of the bestmove line of a `zerosum search`.
fn last_depths(out: &str) -> (Option<usize>, usize) {
    let depth_after = |line: &str| -> Option<usize> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "depth")?;
        words.get(at + 1)?.parse().ok()
    };
    let info = out
        .lines()
        .rev()
        .find(|line| line.starts_with("depth "))
        .and_then(depth_after);
    let best = out
        .lines()
        .last()
        .filter(|line| line.starts_with("bestmove "))
        .and_then(depth_after)
        .unwrap_or_else(|| panic!("no bestmove depth:\n{out}"));
    (info, best)
}

/// The depth a search answers with is the depth of the last info line, also when the time
/// runs out part-way through an iteration whose first move is searched (which reports its
/// line and answers its move), with one thread or two, with alpha-beta or MCTS.
#[test]
fn bestmove_depth_is_the_last_info_lines() {
    let positions: [&[&str]; 6] = [
        &["gomoku", "--moves", "h8"],
        &["hex:7"],
        &["mnk:7x7x4"],
        &["connectx:8x9x4", "--moves", "5"],
        &["gomoku", "--moves", "h8", "--threads", "2"],
        &["hex:7", "--algo", "mcts"],
    ];
    for position in positions {
        for time in ["0.05", "0.2", "0.5"] {
            let mut args = vec!["search"];
            args.extend_from_slice(position);
            args.extend_from_slice(&["--time", time]);
            let output = zerosum(&args);
            assert!(output.status.success(), "{args:?}: {}", stderr(&output));
            let out = stdout(&output);
            // (A search stopped before its first iteration has no line and answers depth 0.)
            let (info, best) = last_depths(&out);
            assert_eq!(info.unwrap_or(0), best, "{args:?}:\n{out}");
        }
    }
}

/// A draw a search proves reads `draw`, in its info lines, its bestmove line and `analyze`,
/// whatever the algorithm; an unproven value says it is an evaluation.
#[test]
fn proven_draws_read_draw_and_evaluations_say_so() {
    for algo in ["pvs", "mcts"] {
        let out = stdout(&zerosum(&[
            "search",
            "tictactoe",
            "--depth",
            "100",
            "--algo",
            algo,
        ]));
        let last = out.lines().last().unwrap();
        assert!(
            last.starts_with("bestmove ") && last.contains(" score draw "),
            "{out}"
        );
        assert!(!last.contains("evaluation"), "{out}");
        let info = out.lines().rev().nth(1).unwrap();
        assert!(info.contains(" score draw "), "{algo}: {out}");
    }
    let out = stdout(&zerosum(&[
        "analyze",
        "tictactoe",
        "--moves",
        "a1",
        "--depth",
        "8",
    ]));
    assert_eq!(out.lines().next(), Some("b2 draw"), "{out}");
    let out = stdout(&zerosum(&[
        "search", "gomoku", "--moves", "h8", "--depth", "2",
    ]));
    let last = out.lines().last().unwrap();
    assert!(last.ends_with(" (evaluation, not proven)"), "{out}");
}

/// From the empty Connect Four board the search's evaluation at a short time prefers a
/// losing column; `search` answers what the opening book proves (the centre wins), says so,
/// and still shows its search.
#[test]
fn search_on_connect_four_answers_the_books_proof() {
    let out = stdout(&zerosum(&["search", "connect4", "--time", "0.5"]));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("exact 4 win-in-"), "{out}");
    assert!(lines[1].starts_with("depth 1 "), "{out}");
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("bestmove 4 score win-in-")
            && last.ends_with(" (exact: opening book or solver)"),
        "{out}"
    );
    // A lost position: every move is proven to lose, and the answer says so.
    let out = stdout(&zerosum(&[
        "search", "connect4", "--moves", "4453", "--depth", "4",
    ]));
    let last = out.lines().last().unwrap();
    assert!(last.contains(" score loss-in-"), "{out}");
}
