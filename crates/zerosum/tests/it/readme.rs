//! Every example of the README runs as pasted: the ```sh blocks of README.md, one example per
//! line (a line ending in `\` goes on), each run by `sh` in a scratch directory laid out as a
//! clone is (`target/release/zerosum` is this test's binary, `openings/` and `data/` the
//! repository's), in the README's order (later examples read what earlier ones
//! wrote). An example that exits with an error fails the test. The few that cannot run here
//! are in [`NOT_RUN`], each with its reason.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{scratch, text};

/// Examples not run (by how they begin), and why.
const NOT_RUN: &[(&str, &str)] = &[
    ("cargo ", "builds, tests or fuzzes the workspace itself"),
    ("javac ", "needs a JDK and the course frameworks"),
    ("java ", "needs a JDK and the course frameworks"),
    (
        "./target/release/zerosum play ",
        "needs a person at a terminal",
    ),
    (
        "./target/release/zerosum server ",
        "a server with clients, run together",
    ),
    (
        "./target/release/zerosum client ",
        "a client of the server example",
    ),
    (
        "./target/release/zerosum bench --threads",
        "long-running: a repeated timing measurement, minutes",
    ),
    (
        "./target/release/zerosum bench connect4 --empty",
        "long-running: the whole game of Connect Four, about 20 s in release",
    ),
    (
        "./target/release/zerosum match gomoku engine:algo=mtdf",
        "long-running: an SPRT match of up to 200 games",
    ),
    (
        "./target/release/zerosum tournament --preset",
        "long-running: the course presets (and Java players)",
    ),
    (
        "./target/release/zerosum match mnk:7x7x4 java:",
        "needs a JDK and a course player",
    ),
    (
        "./target/release/zerosum slurm ",
        "submits to a Slurm cluster (the slurm test runs one)",
    ),
    (
        "seq 0 7 | parallel ",
        "needs GNU parallel and two ssh hosts",
    ),
    (
        "./target/release/zerosum merge shard-",
        "merges the records of the GNU parallel example",
    ),
    ("git clone ", "downloads a champion engine (Rapfi, MoHex)"),
    ("cmake ", "builds a champion engine"),
    ("make -j1", "builds a champion engine"),
    ("mkdir -p build ", "builds a champion engine"),
    (
        "zerosum match gomoku \"cmd=",
        "needs Rapfi built (the section's first lines)",
    ),
    (
        "zerosum match hex:11 \"cmd=",
        "needs MoHex built (the section's first lines)",
    ),
];

/// The longest an example may run before it counts as hung.
const WATCHDOG: Duration = Duration::from_secs(300);

/// The examples of the ```sh blocks of `readme`, continuation lines joined.
fn examples(readme: &str) -> Vec<String> {
    let mut examples = Vec::new();
    let mut in_block = false;
    let mut current = String::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_block = line == "```sh";
            continue;
        }
        if !in_block || (current.is_empty() && line.trim().is_empty()) {
            continue;
        }
        current.push_str(line);
        if line.ends_with('\\') {
            current.push('\n');
        } else {
            examples.push(std::mem::take(&mut current));
        }
    }
    examples
}

/// The reason an example is not run, if it is one of [`NOT_RUN`].
fn not_run(example: &str) -> Option<&'static str> {
    NOT_RUN
        .iter()
        .find(|(start, _)| example.starts_with(start))
        .map(|&(_, reason)| reason)
}

/// A directory laid out as a clone for the examples: `work/` (the current directory) with
/// `target/release/zerosum`, `openings/` and `data/`.
fn clone_like(repository: &Path) -> PathBuf {
    let root = scratch("readme", "examples");
    let work = root.join("work");
    std::fs::create_dir_all(work.join("target/release")).unwrap();
    let link = |from: &Path, to: &Path| std::os::unix::fs::symlink(from, to).unwrap();
    link(
        Path::new(env!("CARGO_BIN_EXE_zerosum")),
        &work.join("target/release/zerosum"),
    );
    link(&repository.join("openings"), &work.join("openings"));
    link(&repository.join("data"), &work.join("data"));
    work
}

/// The `cargo` examples are not run here (they would build the workspace again), but the
/// main job's `cargo run --release -- tournament` names no package: the workspace's default
/// members must hold exactly one binary, the command line's.
#[test]
fn cargo_run_without_a_package_runs_the_command_line() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(repository.join("README.md")).unwrap();
    assert!(
        examples(&readme).contains(&"cargo run --release -- tournament".to_string()),
        "the README's main job is no longer `cargo run --release -- tournament`"
    );
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(&repository)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let defaults = metadata["workspace_default_members"].as_array().unwrap();
    let binaries: Vec<&str> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|package| defaults.contains(&package["id"]))
        .flat_map(|package| package["targets"].as_array().unwrap())
        .filter(|target| {
            target["kind"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k == "bin")
        })
        .map(|target| target["name"].as_str().unwrap())
        .collect();
    assert_eq!(binaries, ["zerosum"]);
}

#[test]
fn every_readme_example_runs_as_pasted() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(repository.join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(examples.len() > 30, "{examples:#?}");
    for (start, _) in NOT_RUN {
        assert!(
            examples.iter().any(|e| e.starts_with(start)),
            "NOT_RUN names `{start}`, which no example begins with"
        );
    }
    let work = clone_like(&repository);
    let mut failures = Vec::new();
    for example in &examples {
        if let Some(reason) = not_run(example) {
            eprintln!("not run ({reason}): {example}");
            continue;
        }
        let started = Instant::now();
        // Output to files: a pipe nobody reads while the example runs could fill and block it.
        let (out, err) = (work.join("../stdout"), work.join("../stderr"));
        let mut child = Command::new("sh")
            .args(["-c", example])
            .current_dir(&work)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(std::fs::File::create(&err).unwrap())
            .spawn()
            .unwrap();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > WATCHDOG {
                let _ = child.kill();
                let _ = child.wait();
                panic!("still running after {WATCHDOG:?}: {example}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        eprintln!("ran in {:.1} s: {example}", started.elapsed().as_secs_f64());
        if !status.success() {
            failures.push(format!(
                "{example}\n  exit {:?}: {}",
                status.code(),
                text(&std::fs::read(&err).unwrap()).trim_end()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(work.parent().unwrap());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
