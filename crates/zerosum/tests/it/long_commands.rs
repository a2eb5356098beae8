//! Long commands are never silent and end with what they found: `solve` under `--time` and
//! `--nodes` on games too big to finish, and `bench connect4 --empty`.

use std::process::Output;
use std::time::{Duration, Instant};

use crate::support::{scratch, text, zerosum};

/// The last line `zerosum` printed on standard output, after checking it succeeded.
fn last_line(args: &[&str], output: &Output) -> String {
    assert!(
        output.status.success(),
        "{args:?}: {}",
        text(&output.stderr)
    );
    let out = text(&output.stdout);
    out.lines().last().unwrap_or_default().to_string()
}

#[test]
fn solve_gomoku_under_a_time_limit_ends_with_what_it_proved() {
    let args = ["solve", "gomoku", "--time", "5"];
    let start = Instant::now();
    let output = zerosum(&args);
    // A generous watchdog: the limit is 5 s, the machine may be loaded.
    assert!(start.elapsed() < Duration::from_secs(60));
    let line = last_line(&args, &output);
    assert!(
        line.starts_with("unproved after ")
            && line.contains(" nodes: no forced result within depth "),
        "{line}"
    );
}

#[test]
fn solve_under_a_node_limit_names_the_nodes_and_the_depth() {
    let args = ["solve", "gomoku", "--nodes", "20000"];
    let line = last_line(&args, &zerosum(&args));
    assert!(
        line.contains(", 20.0k nodes: no forced result within depth "),
        "{line}"
    );
    // Hex goes to the proof-number solver, which has no horizon.
    let args = ["solve", "hex:11", "--nodes", "20"];
    let line = last_line(&args, &zerosum(&args));
    assert!(
        line.starts_with("unproved after ")
            && line.ends_with(", 20 nodes: the proof-number search did not finish"),
        "{line}"
    );
    // A game the generic solver finishes prints its exact value as without a limit.
    let args = ["solve", "tictactoe", "--moves", "a1", "--time", "30"];
    assert!(text(&zerosum(&args).stdout).starts_with("score draw\nvalue draw\n"));
}

#[test]
fn a_limited_solve_proves_forced_results_within_its_horizon() {
    // The second player faces an open four: lost in two plies, whatever it does.
    let args = [
        "solve",
        "gomoku",
        "--moves",
        "h8,a1,i8,a2,j8,a3,k8",
        "--time",
        "30",
    ];
    let output = zerosum(&args);
    assert!(
        text(&output.stdout).starts_with("score loss-in-2\n"),
        "{}",
        text(&output.stdout)
    );
    // Weak: the same form of score as on every game.
    let args = [
        "solve",
        "gomoku",
        "--moves",
        "h8,a1,i8,a2,j8,a3",
        "--weak",
        "--time",
        "30",
    ];
    let output = zerosum(&args);
    assert!(
        text(&output.stdout).starts_with("score win\nvalue the side to move wins\n"),
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn a_limited_connect_x_solve_says_it_did_not_finish() {
    let args = ["solve", "connectx:7x8x4", "--nodes", "10000"];
    let line = last_line(&args, &zerosum(&args));
    assert!(
        line.starts_with("unproved after ") && line.ends_with("the solver did not finish"),
        "{line}"
    );
}

#[test]
fn weak_solves_print_win_draw_or_loss_on_every_game() {
    for (args, score) in [
        (
            vec!["solve", "connect4", "--moves", "4453", "--weak"],
            "loss",
        ),
        (vec!["solve", "connectx:4x4x4", "--weak"], "draw"),
        (vec!["solve", "mnk:4x3x3", "--weak"], "win"),
        (vec!["solve", "tictactoe", "--weak"], "draw"),
        (vec!["solve", "hex:3", "--weak"], "win"),
    ] {
        let output = zerosum(&args);
        let out = text(&output.stdout);
        assert_eq!(
            out.lines().next(),
            Some(format!("score {score}").as_str()),
            "{args:?}"
        );
    }
}

#[test]
fn bench_connect4_columns_mean_what_they_say() {
    let dir = scratch("long_commands", "bench");
    let file = dir.join("set");
    std::fs::write(
        &file,
        "5554224333234511764415115 4\n52753311433677442422121 8\n271713432331713132 -11\n",
    )
    .unwrap();
    let output = zerosum(&["bench", "connect4", file.to_str().unwrap()]);
    let table = text(&output.stdout);
    let header: Vec<&str> = table.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(
        header,
        [
            "file",
            "positions",
            "right",
            "score",
            "mean",
            "time",
            "mean",
            "nodes",
            "nodes/s",
            "mean",
            "cpu"
        ]
    );
    let row: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(&row[..4], ["set", "3", "3", "-"], "{table}");
    let args = ["bench", "connect4", "--empty", "--spec", "connectx:4x5x4"];
    let output = zerosum(&args);
    let table = text(&output.stdout);
    let row: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    // No score to check on the empty board; its score (a draw) in its own column; a speed
    // in nodes per second, never a rounded-down `0.0` positions per second.
    assert_eq!(&row[..4], ["empty", "1", "-", "0"], "{table}");
    assert_ne!(row[8], "0", "{table}");
    // Standard error is not a terminal here: a plain line says what is being solved.
    assert!(text(&output.stderr).contains("[empty: solving the whole game]"));
    let _ = std::fs::remove_dir_all(dir);
}
