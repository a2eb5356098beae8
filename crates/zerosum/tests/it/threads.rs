//! `--threads N` on the commands that search and `threads=N` on the engine player: several
//! threads answer legal moves, one thread keeps the bench signature, and a bad count is a
//! one-line error.

use std::process::Output;

use crate::support::{text, zerosum, zerosum_with_input};

fn succeeds(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}{}",
        text(&output.stdout),
        text(&output.stderr)
    );
    text(&output.stdout)
}

#[test]
fn search_and_analyze_answer_with_two_threads() {
    let out = succeeds(&zerosum(&[
        "search",
        "connect4",
        "--moves",
        "4453",
        "--depth",
        "9",
        "--threads",
        "2",
    ]));
    let last = out.lines().last().unwrap();
    let column: usize = last
        .strip_prefix("bestmove ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|word| word.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!((1..=7).contains(&column), "{out}");
    assert!(last.contains(" depth 9 "), "{out}");

    let out = succeeds(&zerosum(&[
        "analyze",
        "tictactoe",
        "--moves",
        "a1",
        "--depth",
        "8",
        "--threads",
        "2",
    ]));
    // Every reply to a corner but the centre loses; the centre draws.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    assert_eq!(lines[0], "b2 draw", "{out}");
}

#[test]
fn gtp_and_gomocup_play_with_two_threads() {
    let out = succeeds(&zerosum_with_input(
        &["gtp", "--time", "0.1", "--threads", "2"],
        "zerosum-game connect4\ngenmove b\nquit\n",
    ));
    let replies: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(replies.len(), 3, "{out}");
    let column: usize = replies[1].strip_prefix("= ").unwrap().parse().unwrap();
    assert!((1..=7).contains(&column), "{out}");

    let out = succeeds(&zerosum_with_input(
        &["gomocup", "--threads", "2"],
        "START 15\r\nINFO timeout_turn 200\r\nBEGIN\r\nEND\r\n",
    ));
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(lines[0], "OK", "{out}");
    let (x, y) = lines[1].split_once(',').unwrap_or_else(|| panic!("{out}"));
    assert!(x.parse::<usize>().unwrap() < 15 && y.parse::<usize>().unwrap() < 15);
}

#[test]
fn a_match_of_two_threads_against_one_is_played() {
    let dir = crate::support::scratch("threads", "match");
    let record = dir.join("match.jsonl");
    let out = succeeds(&zerosum(&[
        "match",
        "tictactoe",
        "engine:threads=2,name=two",
        "engine:threads=1,name=one",
        "--games",
        "2",
        "--st",
        "0.05",
        "--record",
        record.to_str().unwrap(),
    ]));
    assert!(out.contains("two") && out.contains("one"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&record)
            .unwrap()
            .lines()
            .filter(|line| line.starts_with("{\"game\":"))
            .count(),
        2
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bench_with_threads_keeps_the_one_thread_signature() {
    let signature = |out: &str| {
        out.lines()
            .last()
            .and_then(|l| l.strip_prefix("signature: "))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no signature in:\n{out}"))
    };
    let plain = succeeds(&zerosum(&["bench"]));
    let threaded = succeeds(&zerosum(&["bench", "--threads", "2", "--repeat", "1"]));
    assert_eq!(signature(&threaded), signature(&plain));
    let positions = plain.lines().count() - 2;
    let compared = threaded.lines().filter(|l| l.contains(" depth ")).count();
    assert_eq!(compared, positions, "{threaded}");
}

#[test]
fn a_bad_thread_count_is_a_one_line_error_on_every_command() {
    let commands: [&[&str]; 7] = [
        &["search", "connect4"],
        &["analyze", "connect4"],
        &["gtp"],
        &["gomocup"],
        &["serve", "--port", "0"],
        &["bench"],
        &["match", "tictactoe", "engine:threads=0", "quasi"],
    ];
    for command in commands {
        for count in ["0", "100000", "two"] {
            let mut args = command.to_vec();
            if !command.contains(&"match") {
                args.extend(["--threads", count]);
            }
            let output = zerosum(&args);
            let err = text(&output.stderr);
            assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
            assert!(err.contains("threads must be"), "{args:?}: {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
        }
    }
}
