//! `--shard K/N` and `zerosum merge`: shards of a tournament, merged, are the tournament played
//! in one run, game by game; a shard resumes its own record; records of other settings or with
//! shared games are refused; an SPRT match in shards reaches the verdict of one run.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::support::{scratch, text, zerosum};

/// A small tournament of deterministic players (a node-limited engine, quasi, random).
pub const TOURNAMENT: &[&str] = &[
    "tournament",
    "--players",
    "engine:nodes=2000,name=engine",
    "quasi",
    "random",
    "--games",
    "tictactoe,connect4",
    "--rounds",
    "2",
    "--st",
    "30",
    "--seed",
    "5",
];

/// Runs `zerosum` with `args`, which must succeed; its standard output.
pub fn run(args: &[&str]) -> String {
    let output = zerosum(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        text(&output.stderr)
    );
    text(&output.stdout)
}

/// `args` followed by `more`.
fn with<'a>(args: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    args.iter().chain(more).copied().collect()
}

/// The games of a record by schedule index, each without its move times (which differ run to
/// run); a game twice fails.
pub fn games_by_index(record: &Path) -> BTreeMap<u64, Value> {
    let text = std::fs::read_to_string(record).unwrap();
    let mut games = BTreeMap::new();
    for line in text.lines().skip(1) {
        let mut game: Value = serde_json::from_str(line).unwrap();
        game.as_object_mut().unwrap().remove("move_ms");
        let index = game["game"].as_u64().unwrap();
        assert!(games.insert(index, game).is_none(), "game {index} twice");
    }
    games
}

/// The lines of a run's output from the standings table on, without the record's and
/// ranking's paths: what one run and a merge print alike.
pub fn standings(out: &str) -> String {
    out.lines()
        .skip_while(|line| !line.starts_with("Rank"))
        .filter(|line| !line.starts_with("record: ") && !line.starts_with("ranking: "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn shards_merge_to_the_tournament_of_one_run_and_a_cut_shard_resumes() {
    let dir = scratch("shards", "merge");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let one_run = run(&with(TOURNAMENT, &["--record", &path("one.jsonl")]));
    let mut records = Vec::new();
    for shard in 0..3 {
        let (shard_text, record) = (format!("{shard}/3"), path(&format!("s{shard}.jsonl")));
        let out = run(&with(
            TOURNAMENT,
            &[
                "--shard",
                &shard_text,
                "--record",
                &record,
                "--concurrency",
                "2",
            ],
        ));
        assert!(
            out.contains(&format!("(the games of shard {shard}/3 only")),
            "{out}"
        );
        records.push(record);
    }
    // Every shard has games (24 games, 12 pairs, dealt by expected time), and its header says
    // which shard it is.
    let sizes: Vec<usize> = records
        .iter()
        .map(|r| games_by_index(Path::new(r)).len())
        .collect();
    assert_eq!(sizes.iter().sum::<usize>(), 24);
    assert!(sizes.iter().all(|&n| n >= 4), "{sizes:?}");
    let header = std::fs::read_to_string(&records[1]).unwrap();
    assert!(header.lines().next().unwrap().contains(r#""shard":"1/3""#));

    // Shard 1 as a kill leaves it: one game kept, the next line cut short. It resumes alone.
    let full = std::fs::read_to_string(&records[1]).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    let cut = format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..20]);
    std::fs::write(&records[1], cut).unwrap();
    let resumed = zerosum(&["tournament", "--resume", &records[1]]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert!(text(&resumed.stderr).contains("shard 1/3: "));
    assert_eq!(games_by_index(Path::new(&records[1])).len(), sizes[1]);

    let merged_record = path("merged.jsonl");
    let mut merge = vec!["merge", "--record", &merged_record];
    merge.extend(records.iter().map(String::as_str));
    let merged = run(&merge);
    assert_eq!(standings(&merged), standings(&one_run));
    assert!(
        merged.contains("Rank  Name    1   2   3  Total"),
        "{merged}"
    );
    assert_eq!(
        games_by_index(Path::new(&merged_record)),
        games_by_index(&dir.join("one.jsonl"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_other_settings_and_shared_games_and_names_missing_ones() {
    let dir = scratch("shards", "refusals");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let shard = |seed: &str, shard: &str, name: &str| {
        let mut args = TOURNAMENT.to_vec();
        let at = args.iter().position(|a| *a == "--seed").unwrap();
        args[at + 1] = seed;
        let record = path(name);
        run(&with(&args, &["--shard", shard, "--record", &record]));
        record
    };
    let a = shard("5", "0/2", "a.jsonl");
    let b = shard("6", "1/2", "b.jsonl");
    let other_half = shard("5", "1/2", "c.jsonl");
    let whole = shard("5", "0/1", "whole.jsonl");
    let refused = |records: &[&str], words: &str| {
        let mut args = vec!["merge"];
        args.extend(records);
        let output = zerosum(&args);
        let err = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{records:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: ") && err.contains(words), "{err}");
    };
    refused(
        &[&a, &b],
        &format!(
            "{a} and {b} are not records of one tournament: their settings differ in `seed` \
             (5 in {a}, 6 in {b})"
        ),
    );
    refused(&[&a, &a], &format!("is in both {a} and {a}"));
    refused(&[&whole, &other_half], "is in both");
    // A shard alone, still writing a line: its standings, the other shard's games named as
    // missing, the record left as it is.
    let mut writing = std::fs::read_to_string(&a).unwrap();
    writing.push_str(r#"{"game":3,"round":0"#);
    std::fs::write(&a, &writing).unwrap();
    let output = zerosum(&["merge", &a]);
    let half = text(&output.stdout);
    assert!(
        half.contains("12 of 24 games missing, in shard 1 of 2: "),
        "{half}"
    );
    assert!(text(&output.stderr).contains("left out an unfinished last line"));
    assert_eq!(std::fs::read_to_string(&a).unwrap(), writing);
    // Both halves: nothing missing, the tournament of the whole record.
    let both = run(&["merge", &a, &other_half]);
    assert!(!both.contains("missing"), "{both}");
    assert_eq!(standings(&both), standings(&run(&["merge", &whole])));

    // Shards that do not exist, and shards of unseeded tournaments (each would draw its own).
    for (args, words) in [
        (
            with(TOURNAMENT, &["--shard", "2/2"]),
            "shard 2/2 does not exist",
        ),
        (
            vec!["match", "tictactoe", "quasi", "random", "--shard", "0/2"],
            "--seed",
        ),
    ] {
        let output = zerosum(&args);
        let err = text(&output.stderr);
        assert!(!output.status.success() && err.contains(words), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_sprt_match_in_shards_reaches_the_verdict_of_one_run() {
    let dir = scratch("shards", "sprt");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    // quasi against random on tic-tac-toe: one run stops once H1 is accepted (25 pairs).
    let sprt = [
        "match",
        "tictactoe",
        "quasi",
        "random",
        "--games",
        "120",
        "--st",
        "1",
        "--seed",
        "1",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
    ];
    let verdict = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("SPRT verdict: "))
            .unwrap_or_else(|| panic!("no verdict: {out}"))
            .to_string()
    };
    let one_run = verdict(&run(&with(&sprt, &["--record", &path("one.jsonl")])));
    assert!(
        one_run.starts_with("SPRT verdict: H1 accepted"),
        "{one_run}"
    );
    let (a, b) = (path("a.jsonl"), path("b.jsonl"));
    // A shard plays all its games: the test is the merged shards'.
    let shard = run(&with(&sprt, &["--shard", "0/2", "--record", &a]));
    assert!(!shard.contains("SPRT verdict"), "{shard}");
    assert_eq!(games_by_index(Path::new(&a)).len(), 60);
    // Merged while shard 0 has played 8 games and shard 1 none: the test's state so far.
    let record = std::fs::read_to_string(&a).unwrap();
    let early_record = path("early.jsonl");
    let lines: Vec<&str> = record.lines().take(9).collect();
    std::fs::write(&early_record, lines.join("\n") + "\n").unwrap();
    let early = run(&["merge", &early_record]);
    assert!(early.contains("\nSPRT: llr "), "{early}");
    assert!(early.contains(" - continue\n"), "{early}");
    assert!(!early.contains("SPRT verdict"), "{early}");
    assert!(
        early.contains("112 of 120 games missing, in shards 0, 1 of 2: "),
        "{early}"
    );
    run(&with(&sprt, &["--shard", "1/2", "--record", &b]));
    let merged = run(&["merge", &a, &b]);
    assert_eq!(verdict(&merged), one_run);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_slurm_scripts_run_the_shards_and_merge_them_without_slurm() {
    let dir = scratch("shards", "scripts");
    let jobs = dir.join("jobs");
    let one = dir.join("one.jsonl");
    let one_run = run(&with(TOURNAMENT, &["--record", one.to_str().unwrap()]));
    let written = run(&with(
        &[
            "slurm",
            "--shards",
            "3",
            "--no-submit",
            "--sbatch=--partition=short",
            "--dir",
            jobs.to_str().unwrap(),
        ],
        TOURNAMENT,
    ));
    assert!(written.contains("24 games in 3 shards"), "{written}");
    let script = std::fs::read_to_string(jobs.join("shards.sh")).unwrap();
    for line in [
        "#SBATCH --array=0-2",
        "#SBATCH --partition=short",
        "--shard \"$shard/3\"",
    ] {
        assert!(script.contains(line), "{line}: {script}");
    }
    // Each task is the script with its array index; run a second time, a task resumes.
    let task = |index: &str, script: &str| {
        let output = std::process::Command::new("bash")
            .arg(jobs.join(script))
            .env("SLURM_ARRAY_TASK_ID", index)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", text(&output.stderr));
        (text(&output.stdout), text(&output.stderr))
    };
    for index in ["0", "1", "2"] {
        task(index, "shards.sh");
    }
    let (_, again) = task("1", "shards.sh");
    assert!(again.contains("games already played"), "{again}");
    let (merged, _) = task("0", "merge.sh");
    assert_eq!(standings(&merged), standings(&one_run));
    assert_eq!(
        games_by_index(&jobs.join("merged.jsonl")),
        games_by_index(&one)
    );
    // Options the shards set themselves are refused, as is a second run in the same folder.
    for (extra, words) in [
        (
            &["--record", "x.jsonl"][..],
            "--record: not for a sharded run",
        ),
        (&["--shard", "0/2"][..], "--shard: not for a sharded run"),
        (
            &["--pgnout", "x.pgn"][..],
            "write game files from the merged record",
        ),
    ] {
        let mut args = vec!["slurm", "--shards", "2", "--no-submit"];
        args.extend(TOURNAMENT);
        args.extend(extra);
        let output = zerosum(&args);
        let err = text(&output.stderr);
        assert!(!output.status.success() && err.contains(words), "{err}");
    }
    let mut args = vec!["slurm", "--shards", "2", "--no-submit", "--dir"];
    args.push(jobs.to_str().unwrap());
    args.extend(TOURNAMENT);
    let output = zerosum(&args);
    assert!(text(&output.stderr).contains("already holds a sharded run"));
    let _ = std::fs::remove_dir_all(&dir);
}
