//! `zerosum solve` against the game values of `data/known-results.md`: every m,n,k and
//! Connect-X (X = 4) board listed there whose weak solve takes under a minute in a release
//! build. The boards that take more than a couple of seconds in the test profile are in the
//! ignored test.

use std::process::Command;

/// The value line `zerosum solve SPEC --weak` prints for the side to move.
fn weak_value(spec: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(["solve", spec, "--weak"])
        .output()
        .expect("the binary runs");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{spec}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    text.lines()
        .find_map(|line| line.strip_prefix("value "))
        .unwrap_or_else(|| panic!("{spec}: no value line in:\n{text}"))
        .to_string()
}

/// The words of `zerosum solve` for a first-player value: `+` win, `=` draw, `-` loss.
fn words(value: char) -> &'static str {
    match value {
        '+' => "the side to move wins",
        '=' => "draw",
        '-' => "the side to move loses",
        _ => unreachable!("a value is +, = or -"),
    }
}

fn check(boards: &[(&str, char)]) {
    for &(spec, value) in boards {
        assert_eq!(weak_value(spec), words(value), "{spec}");
    }
}

#[test]
fn quick_known_values() {
    check(&[
        ("mnk:3x3x3", '='),
        ("mnk:4x3x3", '+'),
        ("mnk:4x4x3", '+'),
        ("mnk:4x4x4", '='),
        ("connectx:4x4x4", '='),
        ("connectx:4x5x4", '='),
        ("connectx:4x6x4", '-'),
        ("connectx:4x7x4", '='),
        ("connectx:5x4x4", '='),
        ("connectx:5x5x4", '='),
        ("connectx:6x4x4", '='),
        ("connectx:6x5x4", '='),
        ("connectx:7x4x4", '='),
    ]);
}

#[test]
#[ignore = "seconds to a minute each in release, longer in the test profile"]
fn slow_known_values() {
    check(&[
        ("mnk:5x4x4", '='),
        ("connectx:4x8x4", '-'),
        ("connectx:4x9x4", '-'),
        ("connectx:5x6x4", '='),
        ("connectx:5x7x4", '='),
        ("connectx:5x8x4", '+'),
        ("connectx:6x6x4", '-'),
        ("connectx:6x7x4", '+'),
        ("connectx:7x5x4", '='),
        ("connectx:7x6x4", '+'),
        ("connectx:8x4x4", '='),
        ("connectx:8x5x4", '='),
        ("connectx:9x4x4", '='),
        ("connectx:9x5x4", '='),
        ("connectx:10x4x4", '='),
        ("connectx:11x4x4", '='),
    ]);
}
