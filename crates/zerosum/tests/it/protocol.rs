//! `zerosum gtp` and `zerosum gomocup` as processes, with piped standard input.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::zerosum_with_input;

/// Runs `zerosum ARGS` with `input` on standard input; its standard output.
fn run(args: &[&str], input: &str) -> String {
    let output = zerosum_with_input(args, input);
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn gtp_plays_connect_four_with_the_engine() {
    let output = run(
        &["gtp", "--time", "0.05"],
        "zerosum-game connect4\ngenmove b\nplay w 4\ngenmove b\nshowboard\nquit\n",
    );
    let replies: Vec<&str> = output.split_terminator("\n\n").collect();
    assert_eq!(replies.len(), 6, "{output}");
    assert_eq!(replies[0], "=");
    let column: usize = replies[1].strip_prefix("= ").unwrap().parse().unwrap();
    assert!((1..=7).contains(&column));
    assert_eq!(replies[2], "=");
    assert_eq!(replies[4].matches('X').count(), 2, "{}", replies[4]);
    assert_eq!(replies[5], "=");
}

#[test]
fn gtp_refuses_a_human_and_a_bad_game() {
    let output = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(["gtp", "--engine", "human"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let output = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(["gtp", "--game", "chess"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).starts_with("error: unknown game"));
}

#[test]
fn gtp_interrupt_stops_the_engine() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(["gtp", "--game", "hex:9", "--time", "60"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    input.write_all(b"genmove b\n").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    input.write_all(b"# interrupt\n").unwrap();
    let mut reply = String::new();
    output.read_line(&mut reply).unwrap();
    assert!(
        sent.elapsed() < Duration::from_secs(3),
        "{:?}",
        sent.elapsed()
    );
    assert!(reply.starts_with("= "), "{reply}");
    input.write_all(b"quit\n").unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn gomocup_plays_gomoku_within_the_turn_limit() {
    let started = Instant::now();
    let output = run(
        &["gomocup"],
        "START 15\r\nINFO timeout_turn 200\r\nINFO timeout_match 100000\r\nBEGIN\r\n\
         TURN 0,0\r\nFOO\r\nEND\r\n",
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    let lines: Vec<&str> = output
        .lines()
        .filter(|line| !line.starts_with("MESSAGE"))
        .collect();
    assert_eq!(lines.len(), 4, "{output}");
    assert_eq!(lines[0], "OK");
    for cell in &lines[1..3] {
        let (x, y) = cell.split_once(',').unwrap();
        assert!(x.parse::<usize>().unwrap() < 15 && y.parse::<usize>().unwrap() < 15);
    }
    assert!(lines[3].starts_with("UNKNOWN"));
}

#[test]
fn gtp_input_sent_while_the_engine_thinks_is_not_hoarded() {
    // While `genmove` thinks, the controller writes 256 lines of almost 1 MiB (comments, which
    // need no reply): the server reads a few lines ahead, and its writes wait for the rest.
    let mut child = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(["gtp", "--game", "gomoku", "--time", "2", "--hash", "16"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let replies = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    stdin.write_all(b"genmove b\n").unwrap();
    let mut comment = vec![b'#'];
    comment.resize((1 << 20) - 1, b'x');
    comment.push(b'\n');
    for _ in 0..256 {
        stdin.write_all(&comment).unwrap();
    }
    stdin.write_all(b"name\nquit\n").unwrap();
    drop(stdin);
    let (status, peak_mib) = super::peak_memory::wait_with_peak_rss(&mut child);
    let replies = replies.join().unwrap();
    assert!(status.success(), "{replies}");
    let replies: Vec<&str> = replies.split_terminator("\n\n").collect();
    assert_eq!(replies.len(), 3, "{replies:?}");
    assert!(replies[0].starts_with("= "), "{replies:?}");
    assert_eq!(replies[1], "= zerosum");
    assert!(peak_mib < 200, "the server grew to {peak_mib} MiB");
}

#[test]
fn gtp_answers_the_gui_analysis_commands_with_the_real_engine() {
    let output = run(
        &["gtp", "--game", "tictactoe", "--time", "0.5"],
        "play b b2\nzerosum-solve\nzerosum-solve-moves\nzerosum-evaluate\nzerosum-pv\ncputime\nquit\n",
    );
    let replies: Vec<&str> = output.split_terminator("\n\n").collect();
    assert_eq!(replies[0], "=");
    // Tic-tac-toe is a draw; after b2 White keeps it only in a corner.
    assert_eq!(replies[1], "= draw, best: a1 c1 a3 c3", "{output}");
    assert_eq!(replies[2], "= a1 D c1 D a3 D c3 D", "{output}");
    // Proven a draw, and said so.
    assert!(replies[3].starts_with("= score draw depth "), "{output}");
    assert!(replies[4].split(' ').count() >= 3, "{output}");
    let seconds: f64 = replies[5].trim_start_matches("= ").parse().unwrap();
    assert!(seconds > 0.0, "{output}");
}

#[test]
fn gtp_speaks_gogui_vertices() {
    let output = run(
        &["gtp", "--gogui", "--game", "connect4", "--time", "0.2"],
        "play b D1\ngenmove w\ngogui-rules_game_id\ngogui-rules_board_size\nquit\n",
    );
    let replies: Vec<&str> = output.split_terminator("\n\n").collect();
    assert_eq!(replies[0], "=");
    let answer = replies[1].trim_start_matches("= ");
    assert!(
        ["A1", "B1", "C1", "D2", "E1", "F1", "G1"].contains(&answer),
        "{output}"
    );
    assert_eq!(replies[2..4], ["= Connectx", "= 7 6"]);
}

#[test]
fn gtp_info_lines_start_with_the_move_played() {
    // Node budgets that stop the search part-way through an iteration in which another move
    // came out best (with 8,000 nodes on hex:11 the engine played f6 while its line said
    // `pv j2 i4`, the line of the last completed iteration), and budgets that do not.
    for nodes in [500, 3_000, 8_000, 13_000] {
        let engine = format!("engine:nodes={nodes}");
        let output = zerosum_with_input(
            &["gtp", "--game", "hex:11", "--engine", &engine],
            "genmove b\nplay w f7\ngenmove b\nquit\n",
        );
        assert!(output.status.success(), "{output:?}");
        let transcript = String::from_utf8(output.stdout).unwrap();
        let played: Vec<&str> = transcript
            .split_terminator("\n\n")
            .filter_map(|reply| reply.strip_prefix("= "))
            .collect();
        let lines = String::from_utf8(output.stderr).unwrap();
        let pv_heads: Vec<&str> = lines
            .lines()
            .filter(|line| line.starts_with("depth "))
            .map(|line| {
                line.split(" pv ")
                    .nth(1)
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap()
            })
            .collect();
        assert_eq!(played.len(), 2, "{transcript}");
        assert_eq!(pv_heads, played, "{nodes} nodes:\n{transcript}\n{lines}");
    }
}
