//! The engine plays Connect Four by proof where it can: the opening book, else the solver
//! within its time, over GTP as in matches.

use crate::support::{text, zerosum, zerosum_with_input};

/// The GTP answers to `input` (one per command) and the engine's lines on standard error.
fn gtp(input: &str) -> (Vec<String>, String) {
    let output = zerosum_with_input(&["gtp", "--game", "connect4", "--time", "60"], input);
    assert!(output.status.success(), "{output:?}");
    let replies = text(&output.stdout)
        .split_terminator("\n\n")
        .map(str::to_string)
        .collect();
    (replies, text(&output.stderr))
}

#[test]
fn genmove_opens_connect_four_in_the_only_winning_column_from_the_book() {
    let (replies, lines) = gtp("genmove b\nquit\n");
    assert_eq!(replies[0], "= 4", "{lines}");
    // Proven by the book, not searched: the minute it may think is not spent.
    assert!(lines.starts_with("exact 4 win"), "{lines}");
}

#[test]
fn the_engine_second_after_2_3_3_3_3_plays_the_only_winning_column() {
    // `zerosum solve connect4 --moves 23333`: only column 2 wins. The engine, searching to
    // depth 12 with its evaluation, once played 5 here and lost.
    let (replies, lines) =
        gtp("play b 2\nplay w 3\nplay b 3\nplay w 3\nplay b 3\ngenmove w\nquit\n");
    assert_eq!(replies[5], "= 2", "{lines}");
    assert!(lines.starts_with("exact 2 win"), "{lines}");
}

/// On Hex the oracle is the proof-number solver, consulted with `oracle=on`: after Black's
/// d1 on 7x7 (lost for Black, `solve hex:7 --moves d1`), White answers with a proven win
/// at once, and the move wins.
#[test]
fn on_hex_the_engine_with_its_oracle_plays_a_proven_win_at_once() {
    let output = zerosum_with_input(
        &[
            "gtp",
            "--game",
            "hex:7",
            "--engine",
            "engine:oracle=on",
            "--time",
            "60",
        ],
        "play b d1\ngenmove w\nquit\n",
    );
    assert!(output.status.success(), "{output:?}");
    let replies: Vec<String> = text(&output.stdout)
        .split_terminator("\n\n")
        .map(str::to_string)
        .collect();
    let lines = text(&output.stderr);
    assert!(lines.starts_with("exact "), "{lines}");
    assert!(lines.contains(" win "), "{lines}");
    let answer = replies[1].strip_prefix("= ").expect("a move");
    let solved = zerosum(&["solve", "hex:7", "--moves", &format!("d1,{answer}")]);
    assert!(
        text(&solved.stdout).contains("score loss"),
        "{answer}: {solved:?}"
    );
}
