//! Opening suites through the binary: `zerosum openings` writes one, `match --openings` plays
//! each opening as a colour-swapped pair and records which, a resumed match keeps the same
//! openings, bad files are one-line errors; and an SPRT match always ends with its verdict.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{self, text, zerosum};

fn scratch(name: &str) -> PathBuf {
    support::scratch("openings", name)
}

/// Runs `zerosum` and insists it succeeds; its standard output.
fn run(args: &[&str]) -> String {
    let output = zerosum(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        text(&output.stderr)
    );
    text(&output.stdout)
}

/// The game lines of a record, in schedule order.
fn games(record: &Path) -> Vec<Value> {
    let mut games: Vec<Value> = std::fs::read_to_string(record)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    games.sort_by_key(|game| game["game"].as_u64());
    games
}

#[test]
fn a_suite_is_distinct_reproducible_and_read_back_by_match() {
    let dir = scratch("suite");
    let path = dir.join("c4.txt");
    let args = [
        "openings",
        "connect4",
        "--plies",
        "4",
        "--count",
        "12",
        "--seed",
        "3",
        "--out",
        path.to_str().unwrap(),
    ];
    run(&args);
    let suite = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = suite.lines().collect();
    assert_eq!(lines[0], "# zerosum openings connectx:6x7x4 plies=4 seed=3");
    assert_eq!(lines.len(), 13);
    let mut distinct = lines[1..].to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 12);
    // The same seed, the same suite; printed when there is no --out.
    assert_eq!(run(&args[..8]), suite);
    // Every line is a move list `show --moves` reads.
    run(&["show", "connect4", "--moves", lines[1]]);
    // A balanced suite: the solver's value, stated in the header (a small board, for speed).
    let balanced = run(&[
        "openings",
        "connectx:5x6x4",
        "--plies",
        "4",
        "--count",
        "3",
        "--balanced",
    ]);
    assert!(
        balanced.starts_with(
            "# zerosum openings connectx:5x6x4 plies=4 balanced threshold=solver:|score|<=2 seed=1\n"
        ),
        "{balanced}"
    );
    assert_eq!(balanced.lines().count(), 4, "{balanced}");
    for line in balanced.lines().skip(1) {
        let solved = run(&["solve", "connectx:5x6x4", "--moves", line]);
        let score: i32 = solved.lines().next().unwrap()["score ".len()..]
            .parse()
            .unwrap();
        assert!(score.abs() <= 2, "{line}: {solved}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn each_opening_is_played_twice_with_colours_swapped_and_a_resume_keeps_them() {
    let dir = scratch("pairs");
    let suite = dir.join("suite.txt");
    std::fs::write(
        &suite,
        "# zerosum openings connectx:6x7x4 plies=4 seed=1\n4,4,3,5\n1,7,2,6\n\n# note\n4,3,4,3\n",
    )
    .unwrap();
    let record = dir.join("match.jsonl");
    let out = run(&[
        "match",
        "connect4",
        "quasi",
        "random",
        "--games",
        "8",
        "--st",
        "1",
        "--seed",
        "5",
        "--openings",
        suite.to_str().unwrap(),
        "--order",
        "sequential",
        "--plies",
        "3",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(out.contains("Ptnml(0-2)"), "{out}");
    let played = games(&record);
    assert_eq!(played.len(), 8);
    let openings = [["4", "4", "3"], ["1", "7", "2"], ["4", "3", "4"]];
    for (index, game) in played.iter().enumerate() {
        let pair = index / 2;
        // Pairs take the openings in file order, starting over after the last.
        assert_eq!(game["opening"], pair % 3, "{game}");
        assert_eq!(game["pair"], pair);
        let moves: Vec<&str> = game["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(moves[..3], openings[pair % 3], "{game}");
        assert_eq!(game["move_ms"].as_array().unwrap()[..3], [0, 0, 0]);
        // Colours alternate within the pair.
        assert_eq!(game["first"], index % 2, "{game}");
    }
    // A kill after 5 games: the resumed match plays the 3 others from the same openings and
    // ends with the same records.
    let content = std::fs::read_to_string(&record).unwrap();
    let kept: Vec<&str> = content.lines().take(1 + 5).collect();
    std::fs::write(&record, kept.join("\n") + "\n").unwrap();
    let resumed = zerosum(&["match", "--resume", record.to_str().unwrap()]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let again = games(&record);
    assert_eq!(again.len(), 8);
    for (before, after) in played.iter().zip(&again) {
        assert_eq!(before["opening"], after["opening"]);
        assert_eq!(
            before["moves"], after["moves"],
            "quasi and random are seeded"
        );
    }
    // A suite changed since the start is refused on resume.
    std::fs::write(&suite, "4,4,3,5\n").unwrap();
    std::fs::write(&record, kept.join("\n") + "\n").unwrap();
    let refused = zerosum(&["match", "--resume", record.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("has changed since the tournament started"),
        "{}",
        text(&refused.stderr)
    );
    // The record has its game and players: a resume takes none.
    let path = record.to_str().unwrap();
    let output = zerosum(&["match", "--resume", path, "connect4", "quasi", "random"]);
    let err = text(&output.stderr);
    assert!(!output.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--resume"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_self_play_suite_states_its_judge_and_is_the_same_on_any_threads() {
    let args = |threads: &'static str| {
        [
            "openings",
            "mnk:6x6x4",
            "--plies",
            "3",
            "--count",
            "4",
            "--balanced",
            "--judge",
            "selfplay",
            "--games",
            "2",
            "--nodes",
            "300",
            "--threads",
            threads,
        ]
    };
    let suite = run(&args("1"));
    assert!(
        suite.starts_with(
            "# zerosum openings mnk:6x6x4 plies=3 balanced \
             threshold=selfplay:games=2,nodes=300,|points-half|<=2 seed=1\n"
        ),
        "{suite}"
    );
    assert_eq!(suite.lines().count(), 5, "{suite}");
    assert_eq!(run(&args("2")), suite);
    // Options of another judge, or none, are one-line errors.
    let openings = |extra: &[&'static str]| {
        [
            &["openings", "gomoku", "--plies", "2", "--count", "1"][..],
            extra,
        ]
        .concat()
    };
    for (args, words) in [
        (
            openings(&["--balanced", "--games", "4"]),
            "--games is for --judge selfplay",
        ),
        (
            openings(&["--balanced", "--nodes", "400"]),
            "--nodes is for --judge selfplay or engine",
        ),
        (
            openings(&["--balanced", "--judge", "engine", "--nodes", "0"]),
            "--nodes must be at least 1",
        ),
        (
            openings(&["--balanced", "--judge", "engine", "--depth", "2"]),
            "--depth is not for --judge selfplay or engine",
        ),
        (
            openings(&["--balanced", "--judge", "selfplay", "--nodes", "0"]),
            "--nodes must be at least 1",
        ),
        (openings(&["--threads", "0"]), "--threads"),
        (
            openings(&["--balanced", "--player", "engine", "--st", "0.1"]),
            "--player is for --judge selfplay",
        ),
        (
            openings(&[
                "--balanced",
                "--judge",
                "selfplay",
                "--player",
                "engine",
                "--st",
                "0",
            ]),
            "--st must be from 0.001 to 3600 seconds",
        ),
        (
            openings(&[
                "--balanced",
                "--judge",
                "selfplay",
                "--player",
                "nobody",
                "--st",
                "1",
            ]),
            "--player: bad player: unknown player `nobody`",
        ),
        (
            openings(&[
                "--balanced",
                "--judge",
                "selfplay",
                "--player",
                "human",
                "--st",
                "1",
            ]),
            "the judge must play by itself, not `human`",
        ),
    ] {
        assert_one_line_error(&args, words);
    }
}

#[test]
fn an_engine_judged_suite_keeps_what_monte_carlo_finds_even_on_any_threads() {
    let args = |threads: &'static str| {
        [
            "openings",
            "hex:5",
            "--plies",
            "2",
            "--count",
            "3",
            "--balanced",
            "--judge",
            "engine",
            "--nodes",
            "500",
            "--threshold",
            "120",
            "--threads",
            threads,
        ]
    };
    let suite = run(&args("1"));
    assert!(
        suite.starts_with(
            "# zerosum openings hex:5 plies=2 balanced \
             threshold=engine:nodes=500,|eval|<=120 seed=1\n"
        ),
        "{suite}"
    );
    assert_eq!(suite.lines().count(), 4, "{suite}");
    assert_eq!(run(&args("2")), suite);
    // Each kept opening is one the engine, searching as the judge did, scores within the
    // window, and not proven.
    for line in suite.lines().skip(1) {
        let out = run(&[
            "search", "hex:5", "--algo", "mcts", "--moves", line, "--nodes", "500",
        ]);
        let last = out.lines().last().expect("a bestmove line");
        let score: i32 = last
            .split_whitespace()
            .skip_while(|&word| word != "score")
            .nth(1)
            .and_then(|score| score.parse().ok())
            .unwrap_or_else(|| panic!("a score in {last}"));
        assert!(score.abs() <= 120, "{line}: {last}");
        assert!(last.contains("not proven"), "{line}: {last}");
    }
}

/// Runs `zerosum` and insists it fails with exit code 1 and one line, `error: ...` holding
/// `words`.
fn assert_one_line_error(args: &[&str], words: &str) {
    let output = zerosum(args);
    let err = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: ") && err.contains(words), "{err}");
}

#[test]
fn bad_suites_are_one_line_errors_naming_the_file_line_and_problem() {
    let dir = scratch("bad");
    let write = |name: &str, content: &str| {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        path.to_str().unwrap().to_string()
    };
    let illegal = write("illegal.txt", "4,4\n4,4,4,4,4,4,4\n");
    let wrong = write(
        "wrong.txt",
        "# zerosum openings gomoku plies=2 seed=1\nh8,h9\n",
    );
    let over = write("over.txt", "1,2,1,2,1,2,1\n");
    for (args, words) in [
        (
            vec![
                "match",
                "connect4",
                "quasi",
                "random",
                "--openings",
                &illegal,
            ],
            "illegal.txt:2: move 7 of the list",
        ),
        (
            vec!["match", "connect4", "quasi", "random", "--openings", &wrong],
            "wrong.txt:1: the openings are for mnk:15x15x5, but the game is connectx:6x7x4",
        ),
        (
            vec![
                "tournament",
                "--players",
                "quasi",
                "random",
                "--games",
                "connect4",
                "--openings",
                &over,
            ],
            "over.txt:1: the opening ends the game",
        ),
        (
            vec![
                "tournament",
                "--players",
                "quasi",
                "random",
                "--games",
                "connect4,tictactoe",
                "--openings",
                &over,
            ],
            "--openings is for one game",
        ),
    ] {
        assert_one_line_error(&args, words);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_sprt_match_ends_with_its_verdict() {
    let dir = scratch("sprt");
    let record = dir.join("sprt.jsonl");
    // quasi against random on tic-tac-toe (seeded): H1 (50 Elo better) is accepted after 25
    // pairs, long before the cap of 100.
    let out = run(&[
        "match",
        "tictactoe",
        "quasi",
        "random",
        "--games",
        "200",
        "--st",
        "1",
        "--seed",
        "1",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
        "--record",
        record.to_str().unwrap(),
    ]);
    let verdict = out
        .lines()
        .find(|l| l.starts_with("SPRT verdict: "))
        .unwrap();
    assert!(
        verdict.starts_with("SPRT verdict: H1 accepted: llr "),
        "{out}"
    );
    assert!(verdict.contains("lbound -2.94, ubound 2.94"), "{verdict}");
    assert!(games(&record).len() < 200);
    // The standings and the match line give one error bar.
    let elo = |line: &str| {
        line[line.find("Elo ").unwrap() + 4..]
            .split(" (")
            .next()
            .unwrap()
            .to_string()
    };
    let summary = out
        .lines()
        .rev()
        .find(|l| l.starts_with("quasi vs random"))
        .unwrap();
    let standing = out.lines().find(|l| l.contains("  quasi  ")).unwrap();
    assert!(standing.ends_with(&elo(summary)), "{standing} / {summary}");
    // Resumed, the decided test plays nothing more and says its verdict again.
    let resumed = run(&["match", "--resume", record.to_str().unwrap()]);
    assert!(resumed.contains(verdict), "{resumed}");
    // At the cap without a decision: inconclusive, with the LLR and the bounds.
    let out = run(&[
        "match",
        "tictactoe",
        "quasi",
        "random",
        "--games",
        "4",
        "--st",
        "1",
        "--seed",
        "1",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
        "--record",
        dir.join("cap.jsonl").to_str().unwrap(),
    ]);
    assert!(
        out.contains("SPRT verdict: inconclusive at the cap: llr "),
        "{out}"
    );
    assert!(
        out.contains(", lbound -2.94, ubound 2.94, 2 pairs\n"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_suite_stops_when_the_distinct_positions_run_out() {
    let dir = scratch("run_out");
    let out = dir.join("all.txt");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(["openings", "tictactoe", "--plies", "2"])
        .args(["--count", "1000000000000", "--out", out.to_str().unwrap()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).unwrap();
        text
    });
    // A generous bound for a hang: the 72 positions take milliseconds.
    let (status, _) = crate::peak_memory::wait_with_peak_rss_within(
        &mut child,
        std::time::Duration::from_secs(60),
    );
    let stderr = reader.join().unwrap();
    assert!(status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "only 72 of 1000000000000 openings: mnk:3x3x3 has 72 distinct positions after 2 plies"
        ),
        "{stderr}"
    );
    let suite = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = suite.lines().skip(1).collect();
    assert_eq!(lines.len(), 72, "{suite}");
    let distinct: std::collections::HashSet<&str> = lines.iter().copied().collect();
    assert_eq!(distinct.len(), 72);
}

#[test]
fn a_centre_square_suite_draws_its_plies_from_the_range_and_its_cells_from_the_square() {
    let args = [
        "openings", "gomoku", "--plies", "3-4", "--square", "7", "--count", "40", "--seed", "3",
    ];
    let suite = run(&args);
    assert_eq!(suite, run(&args), "the same seed, the same suite");
    let lines: Vec<&str> = suite.lines().collect();
    assert_eq!(
        lines[0],
        "# zerosum openings mnk:15x15x5 plies=3-4 square=7 seed=3"
    );
    assert_eq!(lines.len(), 41);
    let mut lengths = std::collections::BTreeSet::new();
    for line in &lines[1..] {
        let cells: Vec<&str> = line.split(',').collect();
        lengths.insert(cells.len());
        for cell in cells {
            // The central 7x7 square of 15x15: columns e to k, rows 5 to 11.
            let (column, row) = cell.split_at(1);
            let row: usize = row.parse().unwrap();
            assert!(
                ("e"..="k").contains(&column) && (5..=11).contains(&row),
                "{cell} in {line}"
            );
        }
    }
    assert_eq!(lengths.into_iter().collect::<Vec<_>>(), [3, 4]);
    let spec = "gomoku".parse().unwrap();
    let read = zerosum_arena::Openings::parse(&suite, "suite", &spec, None).unwrap();
    assert_eq!(read.len(), 40);
}

#[test]
fn bad_plies_and_squares_are_one_line_errors() {
    for (args, words) in [
        (vec!["--plies", "4-3"], "needs A <= B"),
        (vec!["--plies", "0"], "at least 1"),
        (vec!["--plies", "3-x"], "not a number of plies"),
        (
            vec!["--plies", "3", "--square", "16"],
            "larger than the board",
        ),
        (
            vec!["--plies", "3", "--square", "0"],
            "--square must be at least 1",
        ),
    ] {
        let mut all = vec!["openings", "gomoku", "--count", "2"];
        all.extend(args);
        assert_one_line_error(&all, words);
    }
    assert_one_line_error(
        &[
            "openings", "connect4", "--plies", "2", "--count", "2", "--square", "3",
        ],
        "--square needs a board of cells named",
    );
}
