//! Every file zerosum reads has a stated cap: `/dev/zero` (a file that never ends, without a
//! line end) given as a record, an opening suite, a book, a game file or an engine list is
//! refused at once with one line, holding little memory, as is a line without end on standard
//! input; a Gomocup `BOARD` block that never ends holds no more stones than the board has
//! cells.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::peak_memory::wait_with_peak_rss_within;

/// What a run left: its status, its standard error, its peak memory in MiB and how long it
/// took.
struct Run {
    status: ExitStatus,
    stderr: String,
    peak_mib: u64,
    took: Duration,
}

/// Runs `zerosum` with `args` and `input` on standard input, its address space capped at
/// 2 GiB (so that a reader without a cap fails rather than fill the machine) and killed after
/// 60 s (a hang).
fn run(args: &[&str], input: &[u8]) -> Run {
    let started = Instant::now();
    let mut command = Command::new(env!("CARGO_BIN_EXE_zerosum"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: only setrlimit, which is async-signal-safe, runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 2 << 30,
                rlim_max: 2 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stderr_pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut stderr = String::new();
        let _ = stderr_pipe.read_to_string(&mut stderr);
        stderr
    });
    let (status, peak_mib) = wait_with_peak_rss_within(&mut child, Duration::from_secs(60));
    let took = started.elapsed();
    let _ = feeder.join();
    Run {
        status,
        stderr: reader.join().unwrap(),
        peak_mib,
        took,
    }
}

/// Checks that `args` is refused with one line naming `expected`, quickly and small.
fn refused(args: &[&str], expected: &str) {
    let run = run(args, b"");
    assert_eq!(run.status.code(), Some(1), "{args:?}: {}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
    assert!(run.peak_mib < 100, "{args:?}: {} MiB", run.peak_mib);
    assert!(
        run.took < Duration::from_secs(30),
        "{args:?}: {:?}",
        run.took
    );
}

#[test]
fn dev_zero_is_refused_as_any_file() {
    let line_cap = "/dev/zero: line 1 is longer than 1 MiB, the limit";
    refused(&["report", "/dev/zero"], line_cap);
    refused(&["export", "/dev/zero", "--format", "pgn"], line_cap);
    refused(&["merge", "/dev/zero"], line_cap);
    refused(&["tournament", "--resume", "/dev/zero"], line_cap);
    refused(
        &[
            "match",
            "connect4",
            "quasi",
            "random",
            "--openings",
            "/dev/zero",
        ],
        "/dev/zero:1: the line is longer than 1 MiB",
    );
    refused(
        &["book", "probe", "--book", "/dev/zero"],
        "/dev/zero: not a book",
    );
    // A game file is known by its name's ending.
    let dir = crate::support::scratch("input_caps", "zero");
    let zero_pgn = dir.join("zero.pgn");
    std::os::unix::fs::symlink("/dev/zero", &zero_pgn).unwrap();
    refused(
        &["show", "tictactoe", "--file", zero_pgn.to_str().unwrap()],
        "zero.pgn: the file is larger than 16 MiB, the limit",
    );
    refused(
        &["serve", "--port", "0", "--engines", "/dev/zero"],
        "the file is larger than 1 MiB, the limit",
    );
}

#[test]
fn a_line_without_end_on_standard_input_is_refused() {
    let endless = vec![b'4'; 4 << 20];
    let run = run(&["solve", "connect4", "--stdin"], &endless);
    assert_eq!(run.status.code(), Some(1), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("standard input: line 1 is longer than 1 MiB, the limit"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_gomocup_board_block_that_never_ends_holds_a_board_at_most() {
    // Ten million stone lines on a 15x15 board (225 cells), then DONE: kept, they took
    // 586 MB. Written a block at a time: a child's peak memory as the kernel counts it starts
    // from this process's own peak when the child is spawned, so this test holds no 60 MB
    // input of its own.
    let stones = b"7,7,1\n".repeat(10_000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .arg("gomocup")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || -> std::io::Result<()> {
        stdin.write_all(b"START 15\nBOARD\n")?;
        for _ in 0..1_000 {
            stdin.write_all(&stones)?;
        }
        stdin.write_all(b"DONE\nEND\n")
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        let _ = stdout.read_to_string(&mut out);
        out
    });
    let (status, peak_mib) = wait_with_peak_rss_within(&mut child, Duration::from_secs(120));
    feeder.join().unwrap().unwrap();
    let replies = reader.join().unwrap();
    assert!(status.success(), "{replies}");
    assert!(
        replies.contains("ERROR more stones than the board has cells (225)"),
        "{replies}"
    );
    assert!(peak_mib < 100, "the engine grew to {peak_mib} MiB");
}
