//! How a command stops when its output closes (a reader such as `head` went away) or when it
//! gets SIGINT, SIGTERM or SIGHUP: at once, without a panic, its record whole, every engine it
//! started ended with every process the engine started, those that left its process group
//! (`setsid`) included. Processes are counted by a variable only the test's zerosum and its
//! descendants carry in their environment.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::support::{self, text};

const ZEROSUM: &str = env!("CARGO_BIN_EXE_zerosum");

/// The variable that marks the processes of one test.
const MARK: &str = "ZEROSUM_TEST_MARK";

fn scratch(name: &str) -> PathBuf {
    support::scratch("stopping", name)
}

/// `zerosum` with `args`, its processes marked with `mark`, started with the default action
/// for the stopping signals whatever the test inherited (`nohup` ignores SIGHUP, a shell's
/// background job SIGINT: a zerosum started so rightly keeps ignoring them).
fn zerosum(args: &[&str], mark: &str) -> Command {
    let mut command = Command::new(ZEROSUM);
    command.args(args).env(MARK, mark).stdin(Stdio::null());
    // SAFETY: between fork and exec the closure makes only async-signal-safe system calls.
    unsafe {
        command.pre_exec(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                if libc::signal(signal, libc::SIG_DFL) == libc::SIG_ERR {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    command
}

/// Waits for `child` up to `seconds`; its status, or `None` (then it is killed) if it did not
/// end: the hang this module's fixes removed.
fn wait_for(child: &mut Child, seconds: u64) -> Option<ExitStatus> {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// The living processes that carry `mark`, each as its command line.
fn marked(mark: &str) -> Vec<String> {
    let entry = format!("{MARK}={mark}");
    let mut found = Vec::new();
    for dir in std::fs::read_dir("/proc").unwrap().flatten() {
        let path = dir.path();
        let Ok(environment) = std::fs::read(path.join("environ")) else {
            continue;
        };
        if environment
            .split(|&byte| byte == 0)
            .any(|variable| variable == entry.as_bytes())
        {
            let command = std::fs::read(path.join("cmdline")).unwrap_or_default();
            found.push(String::from_utf8_lossy(&command).replace('\0', " "));
        }
    }
    found
}

/// Waits (a generous while) until no process carries `mark`; those left, if any.
fn left_behind(mark: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = marked(mark);
        if left.is_empty() || Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits (a generous while) until at least `count` processes carry `mark` and `ready` holds.
fn wait_until_running(mark: &str, count: usize, ready: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while marked(mark).len() < count || !ready() {
        assert!(Instant::now() < deadline, "never ready: {:?}", marked(mark));
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The lines of a record, checking that each is whole (ended by a newline).
fn record_lines(path: &Path) -> Vec<String> {
    let contents = std::fs::read_to_string(path).unwrap();
    assert!(contents.ends_with('\n'), "a line cut short: {contents}");
    contents.lines().map(String::from).collect()
}

/// A GTP engine for tic-tac-toe in `dir` that starts, as soon as it runs, a process in its
/// own group, one in a session of its own (`setsid`), and one that leaves twice (a new session
/// whose child takes another), each sleeping; the first `genmove` any of its instances gets is
/// answered `resign`, every later one never (it sleeps). With `stubborn`, it and its children
/// ignore SIGTERM.
fn forking_engine(dir: &Path, stubborn: bool) -> PathBuf {
    let script = dir.join("engine.sh");
    let resigned = dir.join("resigned");
    let trap = if stubborn { "trap '' TERM\n" } else { "" };
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n{trap}sleep 1000 &\nsetsid sleep 1000 &\n\
             ( setsid sh -c 'setsid sleep 1000 & sleep 1000' & )\n\
             while IFS= read -r line; do\n  case \"$line\" in\n    \
             genmove*) if [ -e {resigned} ]; then sleep 1000; else : > {resigned}; \
             printf '= resign\\n\\n'; fi ;;\n    \
             *) printf '= \\n\\n' ;;\n  esac\ndone\n",
            resigned = resigned.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// The processes one forking engine runs before its first `genmove`: itself and five others.
const ENGINE_PROCESSES: usize = 6;

/// Starts a two-game match of two forking engines recorded in `dir`, and waits until the first
/// game is recorded (the first engine resigned) and the second is under way, the engine to
/// move waiting: every process started.
fn match_under_way(dir: &Path, mark: &str, stubborn: bool, stderr: Stdio) -> Child {
    let engine = forking_engine(dir, stubborn);
    let player = |name: &str| format!("cmd={},proto=gtp,name={name}", engine.display());
    let record = dir.join("r.jsonl");
    let child = zerosum(
        &[
            "match",
            "tictactoe",
            &player("one"),
            &player("two"),
            "--games",
            "2",
            "--st",
            "100",
            "--record",
            record.to_str().unwrap(),
        ],
        mark,
    )
    .stdout(Stdio::null())
    .stderr(stderr)
    .spawn()
    .unwrap();
    // zerosum and the second game's two engines.
    wait_until_running(mark, 1 + 2 * ENGINE_PROCESSES, || {
        std::fs::read_to_string(&record).is_ok_and(|text| text.lines().count() == 2)
    });
    child
}

fn signal(child: &Child, signal: libc::c_int) {
    // SAFETY: a plain system call on our own child.
    let sent = unsafe { libc::kill(libc::pid_t::try_from(child.id()).unwrap(), signal) };
    assert_eq!(sent, 0);
}

#[test]
fn every_stopping_signal_ends_every_engine_and_all_it_started() {
    for (name, number) in [
        ("int", libc::SIGINT),
        ("term", libc::SIGTERM),
        ("hup", libc::SIGHUP),
    ] {
        let dir = scratch(&format!("signal-{name}"));
        let mark = format!("signal-{name}-{}", std::process::id());
        let mut child = match_under_way(&dir, &mark, false, Stdio::null());
        let before = marked(&mark).len();
        signal(&child, number);
        let status = wait_for(&mut child, 30).expect("zerosum ends");
        // It ends by the signal, as a shell expects of a program the signal stopped.
        assert_eq!(status.signal(), Some(number), "{name}: {status}");
        let left = left_behind(&mark);
        assert!(
            left.is_empty(),
            "{name}: {before} processes, left: {left:?}"
        );
        // The record holds the first game, whole; the second, cut short, is not recorded (its
        // engines were ended by the stop, not beaten).
        let lines = record_lines(&dir.join("r.jsonl"));
        assert_eq!(lines.len(), 2, "{name}: {lines:?}");
        assert!(lines[1].contains("\"game\":0"), "{name}: {}", lines[1]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_second_sigint_ends_stubborn_engines_at_once() {
    let dir = scratch("second");
    let mark = format!("second-{}", std::process::id());
    // The engines and their children ignore SIGTERM: the first SIGINT would wait its grace.
    let mut child = match_under_way(&dir, &mark, true, Stdio::piped());
    let mut errors = BufReader::new(child.stderr.take().unwrap());
    signal(&child, libc::SIGINT);
    let mut said = String::new();
    while !said.contains("ending 2 engines") {
        let mut line = String::new();
        assert!(errors.read_line(&mut line).unwrap() > 0, "said: {said}");
        said.push_str(&line);
    }
    signal(&child, libc::SIGINT);
    let status = wait_for(&mut child, 30).expect("zerosum ends");
    errors.read_to_string(&mut said).unwrap();
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status}: {said}");
    assert!(said.contains("zerosum: stopped at once"), "{said}");
    let left = left_behind(&mark);
    assert!(left.is_empty(), "left: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_served_over_gtp_ends_on_sigterm() {
    let dir = scratch("gtp");
    let mark = format!("gtp-{}", std::process::id());
    let engine = forking_engine(&dir, false);
    let player = format!("cmd={},proto=gtp", engine.display());
    let mut child = zerosum(&["gtp", "--game", "tictactoe", "--engine", &player], &mark)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut input, b"clear_board\n").unwrap();
    wait_until_running(&mark, 1 + ENGINE_PROCESSES, || true);
    signal(&child, libc::SIGTERM);
    let status = wait_for(&mut child, 30).expect("zerosum ends");
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status}");
    let left = left_behind(&mark);
    assert!(left.is_empty(), "left: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_finished_game_leaves_no_process_its_engines_started() {
    let dir = scratch("finished");
    let mark = format!("finished-{}", std::process::id());
    let engine = forking_engine(&dir, false);
    let player = format!("cmd={},proto=gtp", engine.display());
    let record = dir.join("r.jsonl");
    let mut child = zerosum(
        &[
            "match",
            "tictactoe",
            &player,
            "random",
            "--games",
            "1",
            "--record",
            record.to_str().unwrap(),
        ],
        &mark,
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let status = wait_for(&mut child, 60).expect("the match ends");
    assert!(status.success(), "{status}");
    assert_eq!(record_lines(&record).len(), 2);
    let left = left_behind(&mark);
    assert!(left.is_empty(), "left: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `args` with standard output (and standard error too, with `both`) into a pipe whose
/// reader takes the first line and closes it, as `| head -1` does; the exit status, the
/// first line and what went to standard error otherwise.
fn run_into_head(args: &[&str], both: bool) -> (Option<ExitStatus>, String, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    let mut command = zerosum(args, "head");
    command.stdout(writer.try_clone().unwrap());
    if both {
        command.stderr(writer);
    } else {
        command.stderr(Stdio::piped());
        drop(writer);
    }
    let mut child = command.spawn().unwrap();
    let mut first = String::new();
    BufReader::new(reader).read_line(&mut first).unwrap();
    // The reader is closed here.
    let status = wait_for(&mut child, 60);
    let mut errors = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        stderr.read_to_string(&mut errors).unwrap();
    }
    (status, first, errors)
}

#[test]
fn a_run_whose_output_closes_stops_at_once_its_record_whole_and_resumable() {
    for (kind, both) in [
        ("match", true),
        ("match", false),
        ("tournament", true),
        ("tournament", false),
    ] {
        let dir = scratch(&format!("head-{kind}-{both}"));
        let record = dir.join("r.jsonl");
        let path = record.to_str().unwrap();
        let args: Vec<&str> = match kind {
            "match" => vec!["match", "tictactoe", "random", "quasi", "--games", "10"],
            _ => vec![
                "tournament",
                "--players",
                "random",
                "quasi",
                "--games",
                "tictactoe",
                "--rounds",
                "5",
            ],
        };
        let args = [&args[..], &["--st", "0.05", "--record", path]].concat();
        let (status, first, errors) = run_into_head(&args, both);
        // It used to hang after the first game (with standard error in the pipe too) or panic.
        let status = status.unwrap_or_else(|| panic!("{kind} {both}: still running"));
        assert_eq!(status.code(), Some(1), "{kind} {both}: {status}: {errors}");
        assert!(!first.is_empty(), "{kind} {both}");
        assert!(!errors.contains("panicked"), "{kind} {both}: {errors}");
        if !both {
            assert!(
                errors.contains("standard output was closed"),
                "{kind} {both}: {errors}"
            );
        }
        let played = record_lines(&record).len() - 1;
        assert!(played < 10, "{kind} {both}: {played} games played");
        // The record is whole: the resume plays what is left, and only that.
        let output = zerosum(&[kind, "--resume", path], "resume")
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", text(&output.stderr));
        assert_eq!(record_lines(&record).len(), 11, "{kind} {both}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_command_whose_reader_closed_ends_without_a_panic() {
    let dir = scratch("readers");
    let record = dir.join("r.jsonl");
    let path = record.to_str().unwrap();
    let output = zerosum(
        &[
            "match",
            "tictactoe",
            "random",
            "quasi",
            "--games",
            "4",
            "--st",
            "1",
            "--record",
            path,
        ],
        "readers",
    )
    .output()
    .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let charts = dir.join("charts");
    let files = dir.join("files");
    // Commands that read and print: a reader that stops reading is no failure (status 0, as
    // `grep | head`); commands that play or serve stopped unfinished (status 1).
    let cases: [(&[&str], i32); 15] = [
        (&["merge", path], 0),
        (&["report", path, "--svg", charts.to_str().unwrap()], 0),
        (
            &[
                "export",
                path,
                "--format",
                "pgn",
                "--out",
                files.to_str().unwrap(),
            ],
            0,
        ),
        (&["games"], 0),
        (&["show", "tictactoe"], 0),
        (&["perft", "tictactoe", "3"], 0),
        (&["search", "tictactoe", "--depth", "3"], 0),
        (&["analyze", "tictactoe", "--depth", "2"], 0),
        (&["solve", "tictactoe"], 0),
        (
            &["openings", "tictactoe", "--plies", "2", "--count", "5"],
            0,
        ),
        (&["bench"], 0),
        (&["gtp"], 1),
        (&["gomocup"], 1),
        (
            &["match", "tictactoe", "random", "quasi", "--st", "0.05"],
            1,
        ),
        (&["server", "tictactoe", "--port", "0"], 1),
    ];
    for (args, code) in cases {
        let (reader, writer) = std::io::pipe().unwrap();
        // The reader is gone before the command prints anything: its first write fails.
        drop(reader);
        let mut command = zerosum(args, "readers");
        command
            .current_dir(&dir)
            .stdout(writer)
            .stderr(Stdio::piped());
        if args[0] == "gtp" || args[0] == "gomocup" {
            command.stdin(Stdio::piped());
        }
        let mut child = command.spawn().unwrap();
        if let Some(mut input) = child.stdin.take() {
            let line: &[u8] = if args[0] == "gtp" {
                b"name\n"
            } else {
                b"ABOUT\n"
            };
            std::io::Write::write_all(&mut input, line).unwrap();
        }
        let status = wait_for(&mut child, 120).unwrap_or_else(|| panic!("{args:?}: hangs"));
        let mut errors = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut errors)
            .unwrap();
        assert_eq!(status.code(), Some(code), "{args:?}: {status}: {errors}");
        assert!(!errors.contains("panicked"), "{args:?}: {errors}");
        if code == 0 {
            assert!(!errors.contains("error"), "{args:?}: {errors}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
