//! Tables that cannot fit in memory are refused before anything is allocated, with the limit
//! named; and the time benchmark runs.

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
