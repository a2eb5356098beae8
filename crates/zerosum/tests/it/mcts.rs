//! Monte Carlo tree search on the command line: `--algo mcts` for `search` and `analyze`,
//! with info lines that report visits and win rate, and `engine:algo=mcts` in a match.

use std::path::Path;

use serde_json::Value;

use crate::support::{self, text, zerosum};

fn succeeds(args: &[&str]) -> String {
    let output = zerosum(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        text(&output.stderr)
    );
    text(&output.stdout)
}

#[test]
fn search_with_mcts_reports_visits_win_rate_and_line() {
    let out = succeeds(&["search", "connect4", "--algo", "mcts", "--nodes", "5000"]);
    // What the book proves, then info lines at 1024, 2048 and 4096 playouts, the final one,
    // and the answer.
    assert!(out.starts_with("exact "), "{out}");
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(lines.len(), 5, "{out}");
    for line in &lines[..4] {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            [words[0], words[2], words[4], words[6], words[8]],
            ["depth", "score", "nodes", "nps", "time"],
            "{line}"
        );
        assert_eq!(
            [words[10], words[12], words[14]],
            ["visits", "winrate", "pv"]
        );
        let rate: f64 = words[13].parse().unwrap();
        assert!((0.0..=1.0).contains(&rate), "{line}");
        assert!(words.len() > 15, "{line}");
    }
    assert!(lines[3].contains(" nodes 5000 "), "{out}");
    assert!(lines[4].starts_with("bestmove "), "{out}");
    // Tic-tac-toe is proven a draw well within 100 units of depth (1000 playouts each).
    let out = succeeds(&["search", "tictactoe", "--algo", "mcts", "--depth", "100"]);
    assert!(out.lines().last().unwrap().contains("score draw"), "{out}");
    let out = succeeds(&[
        "analyze",
        "tictactoe",
        "--moves",
        "a1",
        "--algo",
        "mcts",
        "--nodes",
        "2000",
    ]);
    assert_eq!(out.lines().count(), 8, "{out}");
}

/// The game lines of a record file, as JSON.
fn games(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn a_match_of_mcts_against_the_default_engine_ends_without_forfeit() {
    let dir = support::scratch("mcts", "match");
    let record = dir.join("match.jsonl");
    let out = succeeds(&[
        "match",
        "connect4",
        "engine:algo=mcts,name=mcts",
        "engine",
        "--games",
        "2",
        "--st",
        "0.05",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(out.contains("mcts"), "{out}");
    let games = games(&record);
    assert_eq!(games.len(), 2, "{out}");
    for game in games {
        assert!(
            matches!(
                game["termination"].as_str(),
                Some("normal" | "adjudication")
            ),
            "{game}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}
