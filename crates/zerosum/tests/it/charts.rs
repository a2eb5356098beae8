//! Charts: `zerosum report` on a 500-game record writes well-formed SVG charts whose Elo
//! values are those of the standings; an empty, one-game or broken record gets a clear answer;
//! `search --svg` and `bench --svg` draw nodes and time per depth.

use std::path::{Path, PathBuf};

use zerosum_charts::check_svg;

use crate::support::{scratch, text, zerosum};

/// The charts `zerosum report` writes for a record named `stem`.
pub const CHARTS: [&str; 4] = ["standings", "elo", "pairs", "move-times"];

/// Plays a round robin of four players (three node-limited engines and the quasi-random
/// player) on Connect Four from the balanced openings, `rounds` times: 12 games a round.
/// Returns the record's path and what the tournament printed.
pub fn tournament_record(dir: &Path, rounds: usize) -> (PathBuf, String) {
    let record = dir.join("tournament.jsonl");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/../../openings/connect4.txt");
    let output = zerosum(&[
        "tournament",
        "--games",
        "connect4",
        "--players",
        "engine:nodes=3000,name=n3000",
        "engine:nodes=1000,name=n1000",
        "engine:nodes=300,name=n300",
        "quasi",
        "--openings",
        openings,
        "--rounds",
        &rounds.to_string(),
        "--st",
        "10",
        "--seed",
        "7",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    (record, text(&output.stdout))
}

/// Runs `zerosum report RECORD --svg DIR`; returns stdout and the charts' text by name.
pub fn report(record: &Path, dir: &Path) -> (String, Vec<(String, String)>) {
    let output = zerosum(&[
        "report",
        record.to_str().unwrap(),
        "--svg",
        dir.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stem = record.file_stem().unwrap().to_str().unwrap();
    let charts = CHARTS
        .iter()
        .map(|name| {
            let path = dir.join(format!("{stem}-{name}.svg"));
            let svg = std::fs::read_to_string(&path).expect("the chart is written");
            check_svg(&svg).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            (name.to_string(), svg)
        })
        .collect();
    (text(&output.stdout), charts)
}

/// `(name, elo)` of each line of a standings table (`+35.2 +/- 20.1`, `+240.8 (95% above
/// +66.4)`, `n/a: every pair won`...): the Elo cell is the rest of the line from its first word
/// after the forfeits that is a signed number or `n/a:`.
fn standings_elo(table: &str) -> Vec<(String, String)> {
    table
        .lines()
        .skip_while(|line| !line.starts_with("Rank  Name"))
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let signed = |word: &str| {
                word.starts_with(['+', '-']) && word[1..].starts_with(|c: char| c.is_ascii_digit())
            };
            let elo_start = (6..words.len())
                .find(|&i| words[i] == "n/a:" || signed(words[i]))
                .unwrap_or_else(|| panic!("no Elo in {line}"));
            (words[1].to_string(), words[elo_start..].join(" "))
        })
        .collect()
}

/// What a failing `zerosum report` printed: one line on stderr, nothing on stdout.
fn report_error(record: &Path) -> String {
    let output = zerosum(&["report", record.to_str().unwrap()]);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn report_of_a_500_game_record_draws_the_standings_elo() {
    let dir = scratch("charts", "five-hundred");
    let (record, printed) = tournament_record(&dir, 42);
    let (reported, charts) = report(&record, &dir.join("svg"));
    let expected = standings_elo(&printed);
    assert_eq!(expected.len(), 4, "{printed}");
    // The report prints the standings the tournament printed.
    assert_eq!(standings_elo(&reported), expected);
    let chart = |name: &str| &charts.iter().find(|(n, _)| n == name).unwrap().1;
    for (name, elo) in &expected {
        assert!(
            chart("standings").contains(&format!("<title>{name}: Elo {elo}, 95% ")),
            "{name} {elo}"
        );
        assert!(
            chart("elo").contains(&format!("<title>{name}: Elo {elo} after 504 games</title>")),
            "{name} {elo}"
        );
    }
    // The dots of the standings are at the values printed.
    let values: Vec<f64> = chart("standings")
        .split("data-value=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(values.len(), 4);
    for ((_, elo), value) in expected.iter().zip(&values) {
        let printed: f64 = elo.split_whitespace().next().unwrap().parse().unwrap();
        assert!((printed - value).abs() <= 0.05, "{printed} {value}");
    }
    assert!(chart("pairs").contains("n3000 against quasi"));
    assert!(chart("move-times").contains("Time used per move"));
}

#[test]
fn report_of_one_game_says_the_elo_is_not_finite_yet() {
    let dir = scratch("charts", "one-game");
    let record = dir.join("one.jsonl");
    let output = zerosum(&[
        "match",
        "tictactoe",
        "quasi",
        "random",
        "--games",
        "1",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let (_, charts) = report(&record, &dir);
    let elo = &charts[1].1;
    assert!(
        elo.contains("no finite Elo yet") || elo.contains("<polyline"),
        "{elo}"
    );
}

#[test]
fn report_of_an_empty_or_broken_record_is_one_clear_line() {
    let dir = scratch("charts", "broken");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    // A real record to break in several ways.
    let record = dir.join("good.jsonl");
    let output = zerosum(&[
        "match",
        "tictactoe",
        "quasi",
        "random",
        "--games",
        "2",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let good = std::fs::read_to_string(&record).unwrap();
    let header = good.lines().next().unwrap();
    let game = good.lines().nth(1).unwrap();

    let empty = report_error(&write("empty.jsonl", &format!("{header}\n")));
    assert!(empty.contains("holds no game"), "{empty}");
    let nothing = report_error(&write("nothing.jsonl", ""));
    assert!(nothing.contains("no complete header line"), "{nothing}");
    let missing = report_error(&dir.join("missing.jsonl"));
    assert!(missing.contains("missing.jsonl"), "{missing}");
    let no_settings = report_error(&write(
        "no-settings.jsonl",
        &format!(
            "{}\n{game}\n",
            r#"{"zerosum_record":1,"settings":{"scoring":"cx"}}"#
        ),
    ));
    assert!(
        no_settings.contains("the header holds no tournament's settings"),
        "{no_settings}"
    );
    let garbage = report_error(&write(
        "garbage.jsonl",
        &format!("{header}\n{game}\nnot json at all\n"),
    ));
    assert!(
        garbage.contains("line 3") && garbage.contains("not a game record"),
        "{garbage}"
    );
    // Games that are not the schedule's: other players, or an index past its end.
    for (name, changed) in [
        (
            "huge.jsonl",
            game.replacen("\"second\":1", "\"second\":99999999999", 1),
        ),
        (
            "alone.jsonl",
            game.replacen("\"second\":1", "\"second\":0", 1),
        ),
    ] {
        let error = report_error(&write(name, &format!("{header}\n{changed}\n")));
        assert!(
            error.contains("does not match game 1 of the schedule"),
            "{name}: {error}"
        );
    }
    let last = report_error(&write(
        "last.jsonl",
        &format!(
            "{header}\n{}\n",
            game.replacen("\"game\":0", "\"game\":18446744073709551615", 1)
        ),
    ));
    assert!(
        last.contains("game 18446744073709551616 is outside the schedule"),
        "{last}"
    );
    let binary = report_error(&write("binary.jsonl", "\u{0}\u{1}\n"));
    assert!(binary.contains("line 1"), "{binary}");
}

#[test]
fn search_and_bench_draw_nodes_and_time_per_depth() {
    let dir = scratch("charts", "depth");
    let path = dir.join("search.svg");
    let output = zerosum(&[
        "search",
        "connect4",
        "--depth",
        "6",
        "--svg",
        path.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let svg = std::fs::read_to_string(&path).unwrap();
    check_svg(&svg).unwrap();
    // The nodes of each iteration, as its info line prints them.
    for line in text(&output.stdout)
        .lines()
        .filter(|l| l.starts_with("depth "))
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        let nodes = words[words.iter().position(|w| *w == "nodes").unwrap() + 1];
        let title = format!(
            "connect4: depth {}, nodes searched {nodes}</title>",
            words[1]
        );
        assert!(svg.contains(&title), "{title}");
    }
    assert!(svg.contains("time per depth (log scale)"));
    let refused = zerosum(&["bench", "--threads", "2", "--svg", "x.svg"]);
    assert!(!refused.status.success());
    let unwritable = zerosum(&[
        "search",
        "tictactoe",
        "--depth",
        "2",
        "--svg",
        dir.join("no/such/dir/x.svg").to_str().unwrap(),
    ]);
    assert!(!unwritable.status.success());
    assert!(text(&unwritable.stderr).contains("cannot write"));
}
