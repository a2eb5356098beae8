//! Our own protocol servers as external engines in the arena: `zerosum gtp` and `zerosum
//! gomocup` started as programs, against the built-in engine and against each other; a
//! tournament that goes on when a scripted engine crashes; and scripted engines that flood
//! the arena or write control bytes.

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use super::peak_memory::wait_with_peak_rss;

use crate::support;

const ZEROSUM: &str = env!("CARGO_BIN_EXE_zerosum");

fn zerosum(args: &[&str]) -> Output {
    Command::new(ZEROSUM)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    support::scratch("ext", name)
}

/// The game lines of a record.
fn records(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Plays a match and returns its records, checking the command succeeded.
fn play_match(name: &str, args: &[&str]) -> Vec<Value> {
    let dir = scratch(name);
    let record = dir.join("r.jsonl");
    let mut all: Vec<&str> = args.to_vec();
    // A process's first answer includes its start-up (the slow first move of real engines).
    all.extend(["--record", record.to_str().unwrap(), "--seed", "9"]);
    all.extend(["--first-move-grace", "1"]);
    let output = zerosum(&all);
    assert!(
        output.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = records(&record);
    let _ = std::fs::remove_dir_all(&dir);
    games
}

#[test]
fn zerosum_gtp_and_gomocup_play_as_external_engines() {
    let gtp = format!("cmd={ZEROSUM} gtp,proto=gtp,name=gtp");
    let gomocup = format!("cmd={ZEROSUM} gomocup,proto=gomocup,name=gomocup");
    let cases: [(&str, Vec<&str>); 4] = [
        (
            "ttt",
            vec![
                "match",
                "tictactoe",
                &gtp,
                "engine",
                "--games",
                "4",
                "--st",
                "0.3",
            ],
        ),
        (
            "gomoku",
            vec![
                "match",
                "mnk:7x7x4",
                &gomocup,
                &gtp,
                "--games",
                "2",
                "--st",
                "0.3",
            ],
        ),
        (
            "hex",
            vec![
                "match", "hex:5", &gtp, "quasi", "--games", "2", "--st", "0.3",
            ],
        ),
        (
            "c4",
            vec![
                "match", "connect4", &gtp, "engine", "--games", "2", "--tc", "4+0.1",
            ],
        ),
    ];
    for (name, args) in cases {
        let games = play_match(name, &args);
        assert!(!games.is_empty(), "{name}");
        for game in &games {
            assert_eq!(game["termination"], "normal", "{name}: {game}");
        }
        if name == "ttt" {
            // Our engine on both sides of tic-tac-toe: every game a draw.
            assert!(games.iter().all(|g| g["outcome"] == "draw"), "{games:?}");
        }
    }
}

#[test]
fn swaps_keep_gtp_colours_in_step() {
    // After a swap of sides the players exchange colours (white moves twice in a row); after
    // a swap of pieces they keep them. The seeded random player swaps in some of the games.
    let gtp = format!("cmd={ZEROSUM} gtp,proto=gtp,name=gtp");
    for spec in [
        "hex:3:swap-sides",
        "hex:3:swap-pieces",
        "atoll:rhombus3:pie",
    ] {
        let args = [
            "match", spec, "random", &gtp, "--games", "12", "--st", "0.3",
        ];
        let games = play_match(spec, &args);
        let swaps = games
            .iter()
            .filter(|g| {
                g["moves"][1]
                    .as_str()
                    .is_some_and(|m| m.starts_with("swap"))
            })
            .count();
        assert!(swaps > 0, "{spec}: no game with a swap");
        for game in &games {
            assert_eq!(game["termination"], "normal", "{spec}: {game}");
        }
    }
}

#[test]
fn a_tournament_goes_on_when_an_external_engine_crashes() {
    let dir = scratch("crash");
    let script = dir.join("crash.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile IFS= read -r line; do\n  case \"$line\" in\n    genmove*) exit 7 ;;\n    *) printf '= \\n\\n' ;;\n  esac\ndone\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let crasher = format!("cmd={},proto=gtp,name=crasher", script.display());
    let record = dir.join("t.jsonl");
    let output = zerosum(&[
        "tournament",
        "--players",
        "quasi",
        "random",
        &crasher,
        "--games",
        "tictactoe,connect4",
        "--st",
        "0.3",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = records(&record);
    assert_eq!(games.len(), 12);
    for game in games
        .iter()
        .filter(|g| g["first_name"] == "crasher" || g["second_name"] == "crasher")
    {
        assert_eq!(game["termination"], "crash", "{game}");
        assert!(
            game["reason"].as_str().unwrap().contains("exited"),
            "{game}"
        );
    }
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(out.contains("crasher") && out.contains("8c"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A GTP engine script that answers every command but `genmove`, which does `on_genmove`.
fn gtp_script(dir: &std::path::Path, on_genmove: &str) -> std::path::PathBuf {
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nwhile IFS= read -r line; do\n  case \"$line\" in\n    genmove*) {on_genmove} ;;\n    *) printf '= \\n\\n' ;;\n  esac\ndone\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// Runs a two-game tic-tac-toe match of `engine` against random, recorded in `dir`; its output
/// and the arena's peak memory in MiB.
fn match_measured(dir: &std::path::Path, engine: &std::path::Path) -> (String, u64) {
    let player = format!("cmd={},proto=gtp,name=peer", engine.display());
    let record = dir.join("r.jsonl");
    let mut child = Command::new(ZEROSUM)
        .args(["match", "tictactoe", &player, "random", "--games", "2"])
        .args([
            "--st",
            "1",
            "--seed",
            "3",
            "--record",
            record.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    let (status, peak) = wait_with_peak_rss(&mut child);
    let mut errors = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut errors).unwrap();
    assert!(status.success(), "{status}: {out}{errors}");
    (out, peak)
}

#[test]
fn an_engine_that_streams_its_answer_forfeits_and_the_arena_stays_small() {
    // `= a1`, then 4 kB lines forever without the blank line that ends a GTP answer.
    let dir = scratch("flood");
    let engine = gtp_script(&dir, "printf '= a1\\n'; yes \"$(printf '%04000d' 0)\"");
    let (out, peak_mib) = match_measured(&dir, &engine);
    let finished: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .collect();
    assert_eq!(finished.len(), 2, "{out}");
    for line in finished {
        assert!(
            line.contains("(peer) failed: sent more than 16 MiB in its answer to `genmove"),
            "{line}"
        );
    }
    assert!(peak_mib < 200, "the arena grew to {peak_mib} MiB");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn control_bytes_from_an_engine_reach_the_terminal_escaped() {
    let dir = scratch("escape");
    let engine = gtp_script(&dir, "printf '= \\033[2J\\000a1\\n\\n'");
    let (out, _) = match_measured(&dir, &engine);
    let finished: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .collect();
    assert_eq!(finished.len(), 2, "{out}");
    for line in finished {
        assert!(line.contains(r"`\u{1b}[2J\u{0}a1`"), "{line}");
    }
    assert!(!out.contains(['\u{1b}', '\0']), "{out:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// True once process `pid` has ended (gone, or a zombie nobody reaped), waiting for it a
/// generous while.
fn ends(pid: &str) -> bool {
    (0..1000).any(|_| {
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| stat.rsplit_once(')')?.1.trim().chars().next());
        let ended = matches!(state, None | Some('Z'));
        if !ended {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        ended
    })
}

#[test]
fn an_engine_late_in_the_last_game_leaves_no_process_behind() {
    // Each `genmove` starts a child, then never answers: the arena exits while the player
    // thread still waits for the engine.
    let dir = scratch("late");
    let pids = dir.join("pids");
    let engine = gtp_script(
        &dir,
        &format!("sleep 1000 & echo $! >> {}; sleep 30", pids.display()),
    );
    let player = format!("cmd={},proto=gtp,name=late", engine.display());
    let record = dir.join("r.jsonl");
    let output = zerosum(&[
        "match",
        "tictactoe",
        &player,
        "random",
        "--games",
        "2",
        "--st",
        "0.2",
        "--record",
        record.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    assert_eq!(out.matches("(late) did not answer").count(), 2, "{out}");
    let pids = std::fs::read_to_string(&pids).unwrap();
    assert_eq!(pids.split_whitespace().count(), 2, "{pids}");
    for pid in pids.split_whitespace() {
        assert!(ends(pid), "the engine's child {pid} outlived the arena");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_is_named_by_its_program_and_told_a_period_clock_as_canadian_overtime() {
    let dir = crate::support::scratch("external", "period-clock");
    let log = dir.join("commands.log");
    let engine = gtp_script(&dir, "printf '= resign\\n\\n'");
    let logging = std::fs::read_to_string(&engine).unwrap().replace(
        "do\n",
        &format!("do\n  printf '%s\\n' \"$line\" >> '{}'\n", log.display()),
    );
    std::fs::write(&engine, logging).unwrap();
    let record = dir.join("r.jsonl");
    let output = Command::new(ZEROSUM)
        .args(["match", "tictactoe", "random"])
        .arg(format!("cmd={},proto=gtp", engine.display()))
        .args(["--tc", "40/60", "--record", record.to_str().unwrap()])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    assert!(out.contains("(random vs engine.sh) on mnk:3x3x3"), "{out}");
    assert!(out.contains("(engine.sh vs random) on mnk:3x3x3"), "{out}");
    let commands = std::fs::read_to_string(&log).unwrap();
    assert!(commands.contains("time_settings 0 60 40\n"), "{commands}");
    let _ = std::fs::remove_dir_all(&dir);
}
