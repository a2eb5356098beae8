//! `zerosum book` and the book in `zerosum solve`: answers from the embedded Connect Four
//! book, builds stopped and resumed, corrupt files.

use crate::support::{scratch, text, zerosum};

#[test]
fn solve_connect4_from_the_empty_board_answers_from_the_book() {
    // Without the book this is a half-minute solve; the test's watchdog is the test runner.
    let out = zerosum(&["solve", "connect4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("score 1\n"), "{stdout}");
    assert!(stdout.contains("best 4\n"), "{stdout}");
}

#[test]
fn probe_prints_the_score_and_every_move_of_a_position() {
    let out = zerosum(&["book", "probe", "4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("score -1\n"), "{stdout}");
    let show = text(&zerosum(&["book", "show"]).stdout);
    assert!(show.starts_with("board 6x7x4\ndepth "), "{show}");
}

#[test]
fn a_build_stopped_and_resumed_writes_the_book_of_an_uninterrupted_build() {
    let dir = scratch("book", "resume");
    let build = |out: &str, extra: &[&str]| {
        let out = dir.join(out);
        let mut args = vec![
            "book",
            "build",
            "--spec",
            "connectx:4x5x4",
            "--depth",
            "3",
            "--lines",
            "7",
            "--threads",
            "2",
            "--hash",
            "1",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        let run = zerosum(&args);
        assert!(run.status.success(), "{}", text(&run.stderr));
        (out, text(&run.stderr))
    };
    let (whole, _) = build("whole.book", &[]);
    let (parts, stderr) = build("parts.book", &["--max-solves", "50"]);
    assert!(stderr.contains("stopped after"), "{stderr}");
    assert!(!parts.exists());
    // A kill in the middle of writing a line leaves it cut short.
    let checkpoint = dir.join("parts.book.solved");
    let mut lines = std::fs::read_to_string(&checkpoint).unwrap();
    lines.push_str("1f");
    std::fs::write(&checkpoint, lines).unwrap();
    loop {
        let (_, stderr) = build("parts.book", &["--max-solves", "50"]);
        if !stderr.contains("stopped after") {
            break;
        }
    }
    assert_eq!(
        std::fs::read(&parts).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    let show = zerosum(&["book", "show", "--book", whole.to_str().unwrap()]);
    assert!(text(&show.stdout).starts_with("board 4x5x4\ndepth 3\nlines 7\n"));
}

#[test]
fn a_corrupt_book_file_is_a_clear_error() {
    let dir = scratch("book", "corrupt");
    let file = dir.join("bad.book");
    std::fs::write(&file, b"ZSBOOK\r\n\x01\x00\x06\x07\x04\x00\x00\x00\x05").unwrap();
    let out = zerosum(&["book", "probe", "--book", file.to_str().unwrap(), "4"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("not a book") && stderr.lines().count() == 1,
        "{stderr}"
    );
}
