//! One convention for every failure of the command line, the argument parser's included:
//! exactly one line on standard error naming the problem, and exit code 1. `--help` and
//! `--version` still print as usual and exit 0.

use crate::support::zerosum_with_input;

#[test]
fn every_bad_input_is_one_line_and_exit_code_1() {
    let missing = std::env::temp_dir().join(format!("zerosum-missing-{}", std::process::id()));
    let missing = missing.to_str().unwrap();
    let java = format!("java:Player,cp={missing}");
    let table: &[(&[&str], &str, &str)] = &[
        // The argument parser.
        (&[], "", "no command given: one of games, show, perft"),
        (&["chess"], "", "unrecognized subcommand 'chess'"),
        (
            &["perft", "tictactoe", "x"],
            "",
            "invalid value 'x' for '<DEPTH>': invalid digit found in string \
             (see `zerosum perft --help`)",
        ),
        (
            &["search", "tictactoe", "--time", "abc"],
            "",
            "invalid value 'abc' for '--time <TIME>'",
        ),
        (
            &["perft"],
            "",
            "the following required arguments were not provided: <SPEC>, <DEPTH>",
        ),
        (
            &["show", "tictactoe", "--bogus"],
            "",
            "unexpected argument '--bogus'",
        ),
        (
            &["server", "connect4", "--port", "99999"],
            "",
            "99999 is not in 0..=65535",
        ),
        (
            &["search", "connect4", "--algo", "magic"],
            "",
            "unknown search algorithm `magic`",
        ),
        (
            &["solve", "connect4", "--stdin", "--moves", "1"],
            "",
            "'--stdin' cannot be used with '--moves <MOVES>'",
        ),
        (
            &["bench", "connect4"],
            "",
            "not provided: <FILES>... (see `zerosum bench connect4 --help`)",
        ),
        // Bad specs and moves.
        (&["show", "chess"], "", "unknown game `chess`"),
        (&["perft", "mnk:3x3x4", "2"], "", "a run of 4 cannot fit"),
        (&["show", "tictactoe", "--moves", "z9"], "", "off the board"),
        (
            &["solve", "connect4", "--stdin"],
            "5554224333234511764415115 4\n9 x\n",
            "line 2: move 1 of the list: move `9` is off the board",
        ),
        // Bad player specs and time controls.
        (
            &["match", "connect4", "champion", "random"],
            "",
            "unknown player `champion`",
        ),
        (&["gtp", "--engine", "bogus"], "", "unknown player `bogus`"),
        (
            &["match", "connect4", "random", "random", "--st", "-1"],
            "",
            "--st must be between 0 and 604800 seconds, not `-1`",
        ),
        // Missing files.
        (&["bench", "connect4", missing], "", missing),
        (&["tournament", "--resume", missing], "", missing),
        (&["serve", "--port", "0", "--engines", missing], "", missing),
    ];
    for (args, input, problem) in table {
        let output = zerosum_with_input(args, input);
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(problem), "{args:?}: {err}");
    }
    // A Java player's classpath that does not exist (without a JDK: the JDK is named).
    let output = zerosum_with_input(&["match", "tictactoe", &java, "random"], "");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("the classpath entry `{missing}` does not exist"))
            || err.contains("players need a JDK"),
        "{err}"
    );
}

#[test]
fn help_and_version_print_as_usual() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["perft", "--help"],
        &["help", "solve"],
    ] {
        let output = zerosum_with_input(args, "");
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert!(output.stderr.is_empty(), "{args:?}");
        assert!(!output.stdout.is_empty(), "{args:?}");
    }
    let usage = zerosum_with_input(&["perft", "--help"], "");
    assert!(String::from_utf8_lossy(&usage.stdout).contains("Usage: zerosum perft"));
}
