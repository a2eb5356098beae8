//! Tables that cannot fit in memory are refused before anything is allocated, with the limit
//! named; the time benchmark runs; and `explain-time` says what a time control buys.

use zerosum_search::PhysicalMemory;

use crate::support::zerosum;

/// One error line naming `words`, exit code 1.
fn refused(args: &[&str], words: &str) {
    let output = zerosum(args);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(words), "{args:?}: {err}");
}

/// More MB than one table may have here: above half of physical memory (or above the 16 GB
/// any table may have, on a machine of more than 32 GB).
fn too_big_mb() -> String {
    let half = PhysicalMemory::read().map_or(u64::MAX / 2, |m| m.total_mb / 2);
    (half.min(16_384) + 1).to_string()
}

#[test]
fn a_table_larger_than_half_of_memory_is_refused_everywhere() {
    let mb = too_big_mb();
    refused(&["search", "tictactoe", "--hash", &mb], "at most");
    refused(&["solve", "tictactoe", "--hash", &mb], "at most");
    let engine = format!("engine:hash={mb}");
    refused(&["match", "tictactoe", &engine, "quasi"], "at most");
    // GTP and Gomocup refuse at startup, not at the first move.
    refused(&["gtp", "--hash", &mb], "at most");
    refused(&["gomocup", "--hash", &mb], "at most");
}

#[test]
fn concurrent_games_share_the_memory_limit() {
    let Some(memory) = PhysicalMemory::read() else {
        eprintln!("skipped: /proc/meminfo cannot be read here");
        return;
    };
    // Two engines a game, four games at once: eight tables, together above the half.
    let mb = (memory.total_mb / 2 / 8 + 1).to_string();
    let engine = format!("engine:hash={mb}");
    refused(
        &[
            "match",
            "tictactoe",
            &engine,
            "engine",
            "--concurrency",
            "4",
        ],
        "--concurrency 4",
    );
}

#[test]
fn the_time_benchmark_plays_every_family_and_counts_forfeits() {
    let output = zerosum(&["bench", "time", "--moves", "24", "--st", "0.05"]);
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    for family in [
        "tictactoe",
        "gomoku",
        "connect4",
        "hex",
        "atoll",
        "unstable",
        "all",
    ] {
        assert!(
            out.lines().any(|line| line.starts_with(family)),
            "{family}: {out}"
        );
    }
    assert!(out.contains("engine moves,"), "{out}");
}

#[test]
fn the_time_benchmark_measures_first_moves_of_the_games_asked() {
    let output = zerosum(&[
        "bench",
        "time",
        "--moves",
        "4",
        "--st",
        "0.05",
        "--specs",
        "gomoku,hex:5",
        "--first-moves",
    ]);
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    // One engine move a game: as many games as moves, on the games asked only.
    for spec in ["mnk:15x15x5", "hex:5"] {
        let row = out
            .lines()
            .find(|line| line.starts_with(spec))
            .unwrap_or_else(|| panic!("{spec}: {out}"));
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields[1], fields[2], "games and moves differ: {row}");
    }
    assert!(!out.contains("connectx"), "{out}");
}

/// The table `explain-time` prints for `args`, and each of its rows that begin with one of
/// `names`, the words of each joined by one space.
fn explained(args: &[&str], names: &[&str]) -> (String, Vec<String>) {
    let output = zerosum(&[&["explain-time"], args].concat());
    let table = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{args:?}: {table}");
    let rows = names
        .iter()
        .map(|name| {
            let line = table.lines().find(|line| line.starts_with(name));
            let line = line.unwrap_or_else(|| panic!("no row {name} in\n{table}"));
            line.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect();
    (table, rows)
}

#[test]
fn explain_time_gives_each_layer_of_a_move_its_time() {
    // In a match, and served over a protocol whose controller allots as much.
    let names = [
        "forfeit after",
        "protocol",
        "the player",
        "the search",
        "no new",
    ];
    let (table, rows) = explained(&["--st", "1"], &names);
    assert!(
        table.starts_with("st=1 margin=50ms: a move, a stall of 0 ms"),
        "{table}"
    );
    assert_eq!(
        rows,
        [
            "forfeit after (limit + margin) 1050.0 ms -",
            "protocol overhead kept back - 70.0 ms",
            "the player thinks 930.0 ms 861.4 ms",
            "the search aims to stop 910.0 ms 841.4 ms",
            "no new iteration (alpha-beta) after 455.0 ms 420.7 ms",
        ],
        "{table}"
    );
    // A game clock: a twentieth of it plus three quarters of the increment; a stall of
    // 40 ms comes off the hard stop and the aim.
    let names = ["allotted", "the player", "its answering", "the search"];
    let (table, rows) = explained(&["--tc", "60+0.6", "--stall", "40"], &names);
    assert_eq!(
        rows,
        [
            "allotted (limit, or clock/20 + 3/4 inc.) 3450.0 ms 3450.0 ms",
            "the player thinks 3331.0 ms 3214.4 ms",
            "its answering thread's hard stop 3291.0 ms 3174.4 ms",
            "the search aims to stop 3271.0 ms 3154.4 ms",
        ],
        "{table}"
    );
    refused(&["explain-time", "--stall", "500"], "at most 200 ms");
    refused(&["explain-time", "--st", "0"], "zero seconds per move");
}
