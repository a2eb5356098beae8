//! `zerosum train` through the binary: the same seed writes the same weights file, the engine
//! loads it (`--weights` on search, `weights=` in the arena), and a missing, truncated or
//! corrupt weights file is a one-line error wherever it is given (in a match, the reason the
//! engine forfeits its games, as an unknown `eval=` is).

use std::path::PathBuf;

use crate::support::{self, text, zerosum};

fn scratch(name: &str) -> PathBuf {
    support::scratch("train", name)
}

/// Runs `zerosum` and insists it succeeds; its standard output and error.
fn run(args: &[&str]) -> (String, String) {
    let output = zerosum(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        text(&output.stderr)
    );
    (text(&output.stdout), text(&output.stderr))
}

/// Runs `zerosum` and insists it fails with exit code 1 and one line holding `words`.
fn assert_one_line_error(args: &[&str], words: &str) {
    let output = zerosum(args);
    let err = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.starts_with("error: ") && err.contains(words),
        "{words}: {err}"
    );
}

/// A small training run's arguments, writing to `out`.
fn small_run(out: &str, seed: &str) -> Vec<String> {
    [
        "train", "gomoku", "--games", "6", "--nodes", "50", "--epochs", "20", "--seed", seed,
        "--out", out,
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn the_same_seed_trains_the_same_weights_which_the_engine_loads() {
    let dir = scratch("same");
    let (a, b, c) = (dir.join("a.txt"), dir.join("b.txt"), dir.join("c.txt"));
    let args = |path: &PathBuf, seed: &str| small_run(path.to_str().unwrap(), seed);
    let (_, report) = run(&args(&a, "5").iter().map(String::as_str).collect::<Vec<_>>());
    assert!(report.contains("6 of 6 games"), "{report}");
    assert!(report.contains("cross-entropy training"), "{report}");
    run(&args(&b, "5").iter().map(String::as_str).collect::<Vec<_>>());
    run(&args(&c, "6").iter().map(String::as_str).collect::<Vec<_>>());
    let file = std::fs::read_to_string(&a).unwrap();
    assert_eq!(file, std::fs::read_to_string(&b).unwrap());
    assert_ne!(file, std::fs::read_to_string(&c).unwrap());
    assert!(file.starts_with("zerosum pattern weights 1\n# made by: zerosum train mnk:15x15x5 --games 6 --seed 5 --nodes 50 --plies 3-4 --square 7 --epochs 20 --l2 "));
    let weights = a.to_str().unwrap();
    let (out, _) = run(&[
        "search",
        "gomoku",
        "--moves",
        "h8,h9,i8",
        "--depth",
        "3",
        "--weights",
        weights,
    ]);
    assert!(out.contains("bestmove"), "{out}");
    // A second training run may start from the first's weights.
    run(&[
        "train",
        "gomoku",
        "--games",
        "2",
        "--nodes",
        "30",
        "--epochs",
        "2",
        "--from",
        weights,
        "--out",
        dir.join("d.txt").to_str().unwrap(),
    ]);
    let record = dir.join("m.jsonl");
    let player = format!("engine:nodes=300,weights={weights},name=trained");
    let (out, _) = run(&[
        "match",
        "gomoku",
        &player,
        "engine:nodes=300,eval=patterns,name=hand",
        "--games",
        "2",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(out.contains("Finished game 2"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_truncated_and_corrupt_weights_are_one_line_errors() {
    let dir = scratch("broken");
    let write = |name: &str, content: &str| {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        path.to_str().unwrap().to_string()
    };
    let good = dir.join("good.txt");
    run(&small_run(good.to_str().unwrap(), "1")
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    let whole = std::fs::read_to_string(&good).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    let truncated = write("truncated.txt", &lines[..lines.len() / 2].join("\n"));
    let corrupt = write("corrupt.txt", &whole.replacen(" 0\n", " zero\n", 1));
    let binary = write("binary.txt", "\u{0}\u{1}");
    let missing = dir.join("missing.txt");
    let missing = missing.to_str().unwrap();
    let search = |file: &str| {
        vec!["search", "gomoku", "--depth", "2", "--weights", file]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            search(missing),
            format!("cannot read weights file {missing}"),
        ),
        (
            search(&truncated),
            format!("weights file {truncated}: truncated"),
        ),
        (search(&corrupt), format!("weights file {corrupt}: line ")),
        (search(&binary), "not a weights file".into()),
        (
            vec![
                "search",
                "renju",
                "--depth",
                "2",
                "--weights",
                good.to_str().unwrap(),
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            "the weights are for the freestyle rule, the game is played under renju".into(),
        ),
        (
            vec![
                "search",
                "gomoku",
                "--depth",
                "2",
                "--eval",
                "windows",
                "--weights",
                good.to_str().unwrap(),
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            "the window evaluation takes no weights".into(),
        ),
        (
            vec![
                "match",
                "gomoku",
                &format!("engine:weights={missing}"),
                "engine",
                "--games",
                "2",
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            format!("engine `weights={missing}`: cannot read weights file"),
        ),
        (
            vec![
                "train",
                "gomoku",
                "--games",
                "2",
                "--from",
                &truncated,
                "--out",
                dir.join("x.txt").to_str().unwrap(),
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            format!("{truncated}: truncated"),
        ),
        (
            vec![
                "train",
                "connect4",
                "--games",
                "2",
                "--out",
                dir.join("x.txt").to_str().unwrap(),
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            "the trainer fits the pattern weights of five in a row".into(),
        ),
    ];
    for (args, words) in cases {
        assert_one_line_error(&args.iter().map(String::as_str).collect::<Vec<_>>(), &words);
    }
    // In a match, weights or an evaluation the game cannot use are found before the first
    // game, as a program that cannot start is: one line naming the player, no game played.
    let player = format!("engine:weights={corrupt}");
    let record = dir.join("c.jsonl");
    assert_one_line_error(
        &[
            "match",
            "gomoku",
            &player,
            "engine:nodes=100",
            "--record",
            record.to_str().unwrap(),
        ],
        &format!("player 1 ({player}): weights file {corrupt}: line "),
    );
    assert_one_line_error(
        &["match", "gomoku", "random", "engine:eval=nosuch"],
        "player 2 (engine:eval=nosuch): unknown m,n,k evaluation `nosuch` (expected windows",
    );
    assert!(!record.exists(), "a record was started");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The arguments of a small Hex training run writing to `out`.
fn hex_run(out: &str) -> Vec<String> {
    [
        "train",
        "hex:5",
        "--games",
        "4",
        "--nodes",
        "20",
        "--plies",
        "2",
        "--epochs",
        "10",
        "--min-count",
        "2",
        "--seed",
        "3",
        "--out",
        out,
    ]
    .map(String::from)
    .to_vec()
}

/// The arguments of a search of hex:5 with the gammas file `path`.
fn hex_search(path: &str) -> Vec<String> {
    [
        "search",
        "hex:5",
        "--algo",
        "mcts",
        "--moves",
        "c3",
        "--nodes",
        "200",
        "--weights",
        path,
    ]
    .map(String::from)
    .to_vec()
}

/// `args` as the `&str`s `run` takes.
fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// `zerosum train hex:N`: the same seed writes the same gammas file, which `search` loads; a
/// truncated or corrupt one (another radius, a negative or non-finite gamma) and the options
/// of five in a row are one-line errors.
#[test]
fn hex_gammas_train_reproducibly_and_corrupt_files_are_one_line_errors() {
    let dir = scratch("hex");
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let (_, report) = run(&strs(&hex_run(a)));
    assert!(report.contains("4 of 4 games"), "{report}");
    run(&strs(&hex_run(b)));
    let file = std::fs::read_to_string(a).unwrap();
    assert_eq!(file, std::fs::read_to_string(b).unwrap());
    assert!(file.starts_with(
        "zerosum hex patterns 1\n# made by: zerosum train hex:5 --games 4 --seed 3 --nodes 20 \
         --plies 2 --epochs 10 --min-count 2\n"
    ));
    let (out, _) = run(&strs(&hex_search(a)));
    assert!(out.contains("bestmove"), "{out}");
    let write = |name: &str, content: &str| {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        path.to_str().unwrap().to_string()
    };
    let other = file.lines().find(|l| l.starts_with("other ")).unwrap();
    let cases = [
        (
            write("truncated.txt", &file.replace("end\n", "")),
            "truncated",
        ),
        (
            write("radius.txt", &file.replace("radius 2", "radius 3")),
            "radius 3",
        ),
        (
            write("negative.txt", &file.replace(other, "other -1")),
            "gamma `-1`",
        ),
        (
            write("nan.txt", &file.replace(other, "other NaN")),
            "gamma `NaN`",
        ),
    ];
    for (path, words) in cases {
        assert_one_line_error(&strs(&hex_search(&path)), words);
    }
    let mut five = hex_run(a);
    five.extend(["--l2".to_string(), "0.1".to_string()]);
    assert_one_line_error(&strs(&five), "for five in a row, not Hex");
    let _ = std::fs::remove_dir_all(&dir);
}
