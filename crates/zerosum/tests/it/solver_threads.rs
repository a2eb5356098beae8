//! `solve --threads N` and `bench connect4 --threads N`: the Connect-X solver's threads give
//! one thread's answers; a bad count is a one-line error.

use crate::support::{text, zerosum};

#[test]
fn solve_with_two_threads_answers_as_one() {
    for moves in ["4453", "44533"] {
        let one = zerosum(&["solve", "connect4", "--moves", moves]);
        let two = zerosum(&["solve", "connect4", "--moves", moves, "--threads", "2"]);
        assert!(two.status.success(), "{}", text(&two.stderr));
        assert_eq!(text(&two.stdout), text(&one.stdout), "{moves}");
    }
    let output = zerosum(&["solve", "connect4", "--moves", "4", "--threads", "0"]);
    let err = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("not a thread count"), "{err}");
}

#[test]
fn bench_connect4_with_two_threads_finds_the_exact_scores() {
    let dir = std::env::temp_dir().join(format!("zerosum-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("set");
    // Test_L2_R2 lines, some long enough for the helper thread to start.
    std::fs::write(
        &file,
        "2531276566711153 2\n274552224131661 0\n5455174361263362 -1\n6614446666373154 -4\n",
    )
    .unwrap();
    let output = zerosum(&[
        "bench",
        "connect4",
        file.to_str().unwrap(),
        "--threads",
        "2",
        "--json",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let line: serde_json::Value = serde_json::from_str(text(&output.stdout).trim()).unwrap();
    assert_eq!(line["exact"], 4);
    assert_eq!(line["threads"], 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
