//! Every example of the README and of the manual (`docs/`) runs as pasted: the ```sh blocks of
//! each document, one example per line (a line ending in `\` goes on), each run by `sh` in a
//! scratch folder of its own document, laid out as a clone after the README's "try it":
//! `openings/` and `data/` are the repository's, `zerosum-runs/` exists, and `zerosum` on the
//! `PATH` is this test's binary. A document's examples run in its order (later ones read what
//! earlier ones wrote); nothing is written into the repository. An example that exits with an
//! error fails the test.
//!
//! The examples that cannot run here are those of [`NOT_RUN`], each rule with its reason; the
//! `cargo` lines among them are checked by what they name
//! ([`cargo_lines_name_what_the_workspace_has`]).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{scratch, text};

/// The examples not run: a reason, and the texts that mark such an example (an example
/// containing one of them is not run). Every text must mark some example.
const NOT_RUN: &[(&str, &[&str])] = &[
    (
        "builds the workspace: minutes (the README gives the times measured); what it names is \
         checked by cargo_lines_name_what_the_workspace_has",
        &["cargo "],
    ),
    (
        "builds and installs the Python package (minutes), or runs its tests: .ci/run does \
         both; the Python examples run in crates/zerosum-py/tests/test_docs.py",
        &["pip install ", "pytest "],
    ),
    (
        "needs a person at a terminal (the terminal test plays through tmux)",
        &["zerosum play "],
    ),
    (
        "serves the page until Ctrl-C (the web tests drive it)",
        &["zerosum serve ", " --serve"],
    ),
    (
        "a server and its clients, run together in the background (the network tests run them)",
        &["zerosum server ", "zerosum client "],
    ),
    (
        "needs a JDK and a course framework with a player (the java_course tests run them)",
        &["javac ", "java -cp ", " java:"],
    ),
    (
        "downloads or builds a champion engine, or plays one (the external_engines tests drive \
         fake ones)",
        &[
            "git clone ",
            "cmake ",
            "make -j1",
            "mkdir -p build ",
            "cmd=$PWD/",
        ],
    ),
    (
        "needs a Slurm cluster, or GNU parallel and ssh hosts (the slurm test runs a local \
         cluster)",
        &[
            "zerosum slurm --shards 40 ",
            "| parallel ",
            "zerosum merge shard-",
        ],
    ),
    (
        "long: minutes of play or benchmark (its time is given beside it)",
        &[
            "zerosum bench --threads ",
            "zerosum bench connect4 --empty",
            " --sprt ",
            "--preset cx-course --st 0.1 ",
            "--preset mnk-course --players engine quasi random ",
        ],
    ),
];

/// Documents whose examples are all records of measurements rather than examples to try:
/// matches of minutes to hours, most against engines built elsewhere.
const RECORDS: &[&str] = &["docs/strength.md"];

/// The longest an example may run before it counts as hung.
const WATCHDOG: Duration = Duration::from_secs(300);

/// The repository's root.
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The examples of the ```sh blocks of `document`, continuation lines joined.
fn examples(document: &str) -> Vec<String> {
    let mut examples = Vec::new();
    let mut in_block = false;
    let mut current = String::new();
    for line in document.lines() {
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

/// The examples of the repository's document `path` (relative to the root).
fn examples_of(path: &str) -> Vec<String> {
    let document =
        std::fs::read_to_string(repository().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    examples(&document)
}

/// The reason an example is not run, if a rule of [`NOT_RUN`] marks it.
fn not_run(example: &str) -> Option<&'static str> {
    NOT_RUN
        .iter()
        .find(|(_, marks)| marks.iter().any(|mark| example.contains(mark)))
        .map(|&(reason, _)| reason)
}

/// Every document with examples: the README, the manual's chapters and its reference pages.
fn documents() -> Vec<String> {
    let mut documents = vec!["README.md".to_string()];
    for dir in ["docs", "docs/reference"] {
        let mut chapters: Vec<String> = std::fs::read_dir(repository().join(dir))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.ends_with(".md"))
            .map(|name| format!("{dir}/{name}"))
            .collect();
        chapters.sort();
        documents.extend(chapters);
    }
    documents
}

/// A folder laid out as a clone after the README's "try it", for the examples of `document`:
/// `work/` (the current directory) with `openings/`, `data/` and `zerosum-runs/`, and `bin/`
/// beside it, whose `zerosum` is this test's binary. Returns `work/` and `bin/`.
fn clone_like(document: &str) -> (PathBuf, PathBuf) {
    let root = scratch("examples", &document.replace(['/', '.'], "-"));
    let (work, bin) = (root.join("work"), root.join("bin"));
    std::fs::create_dir_all(work.join("zerosum-runs")).unwrap();
    std::fs::create_dir_all(&bin).unwrap();
    let link = |from: &Path, to: &Path| std::os::unix::fs::symlink(from, to).unwrap();
    link(
        Path::new(env!("CARGO_BIN_EXE_zerosum")),
        &bin.join("zerosum"),
    );
    for dir in ["openings", "data"] {
        link(&repository().join(dir), &work.join(dir));
    }
    (work, bin)
}

/// Runs the examples of `document` in its order (those [`NOT_RUN`] marks are printed with
/// their reason), and fails with every example that exited with an error.
fn run_examples(document: &str) {
    let examples = examples_of(document);
    if RECORDS.contains(&document) {
        for example in &examples {
            eprintln!("not run (a record of a measurement): {example}");
        }
        return;
    }
    let (work, bin) = clone_like(document);
    let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
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
            .env("PATH", &path)
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
                panic!("{document}: still running after {WATCHDOG:?}: {example}");
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
    assert!(failures.is_empty(), "{document}:\n{}", failures.join("\n"));
}

/// One test per document, and the list of documents they cover.
macro_rules! document_tests {
    ($($test:ident: $document:literal,)*) => {
        /// The documents a test of this module runs.
        const TESTED: &[&str] = &[$($document),*];
        $(
            #[test]
            fn $test() {
                run_examples($document);
            }
        )*
    };
}

document_tests! {
    readme_examples_run: "README.md",
    adding_a_game_examples_run: "docs/adding-a-game.md",
    architecture_examples_run: "docs/architecture.md",
    arena_examples_run: "docs/arena.md",
    beyond_one_machine_examples_run: "docs/beyond-one-machine.md",
    champions_examples_run: "docs/champions.md",
    engines_examples_run: "docs/engines.md",
    fuzzing_examples_run: "docs/fuzzing.md",
    game_files_and_charts_examples_run: "docs/game-files-and-charts.md",
    games_examples_run: "docs/games.md",
    glossary_examples_run: "docs/glossary.md",
    java_examples_run: "docs/java.md",
    openings_and_sprt_examples_run: "docs/openings-and-sprt.md",
    protocols_examples_run: "docs/protocols.md",
    python_examples_run: "docs/python.md",
    strength_examples_run: "docs/strength.md",
    testing_examples_run: "docs/testing.md",
    web_examples_run: "docs/web.md",
    reference_protocols_examples_run: "docs/reference/protocols.md",
    reference_rules_examples_run: "docs/reference/rules.md",
}

/// A new chapter gets its test: the tests above cover exactly the README and the manual.
#[test]
fn every_document_has_its_examples_test() {
    assert_eq!(
        TESTED,
        documents(),
        "add the new document to document_tests!"
    );
}

/// Every rule of [`NOT_RUN`] still marks an example, so the list holds no stale rule.
#[test]
fn every_rule_of_examples_not_run_marks_an_example() {
    let all: Vec<String> = documents()
        .iter()
        .filter(|document| !RECORDS.contains(&document.as_str()))
        .flat_map(|document| examples_of(document))
        .collect();
    for (reason, marks) in NOT_RUN {
        for mark in *marks {
            assert!(
                all.iter().any(|example| example.contains(mark)),
                "`{mark}` ({reason}) marks no example"
            );
        }
    }
}

/// The workspace as `cargo metadata` describes it.
fn metadata() -> Value {
    let output = Command::new(env!("CARGO"))
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .arg("--offline")
        .current_dir(repository())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The names of the targets of `package` of kind `kind` (`bin`, `test`).
fn targets<'a>(package: &'a Value, kind: &str) -> Vec<&'a str> {
    (package["targets"].as_array().unwrap().iter())
        .filter(|target| target["kind"].as_array().unwrap().iter().any(|k| k == kind))
        .map(|target| target["name"].as_str().unwrap())
        .collect()
}

/// The `cargo` examples are not run here (they would build the workspace again, for minutes;
/// `.ci/run` runs the main job, the install and the fuzz driver's list after the tests), but
/// what they name must exist: a package given with `-p` (with a binary, for `cargo run`), a
/// test target given with `--test`, and a path given to `cargo install --path`, a package
/// whose binary is `zerosum`; a `cargo run` without `-p` runs the default members, which must
/// hold exactly one binary, the command line's. The README's main job is this `cargo run`.
#[test]
fn cargo_lines_name_what_the_workspace_has() {
    assert!(
        examples_of("README.md").contains(&"cargo run --release -- tournament".to_string()),
        "the README's main job is no longer `cargo run --release -- tournament`"
    );
    let metadata = metadata();
    let packages = metadata["packages"].as_array().unwrap();
    let package = |name: &str| {
        (packages.iter())
            .find(|package| package["name"] == name)
            .unwrap_or_else(|| panic!("no package {name} in the workspace"))
    };
    let defaults = metadata["workspace_default_members"].as_array().unwrap();
    let default_binaries: Vec<&str> = (packages.iter())
        .filter(|package| defaults.contains(&package["id"]))
        .flat_map(|package| targets(package, "bin"))
        .collect();
    let lines: Vec<String> = (documents().iter())
        .flat_map(|document| examples_of(document))
        .filter(|example| example.starts_with("cargo "))
        .collect();
    assert!(lines.len() >= 5, "{lines:#?}");
    for line in &lines {
        let command = line.split('#').next().unwrap();
        let words: Vec<&str> = command.split_whitespace().collect();
        let after = |flag: &str| {
            let at = words.iter().position(|word| *word == flag)?;
            words.get(at + 1).copied()
        };
        let named = after("-p").map(package);
        match words[1] {
            "run" => match named {
                Some(package) => assert_eq!(targets(package, "bin").len(), 1, "{line}"),
                None => assert_eq!(default_binaries, ["zerosum"], "{line}"),
            },
            "test" => {
                assert!(named.is_some() || words.contains(&"--workspace"), "{line}");
                if let (Some(package), Some(test)) = (named, after("--test")) {
                    assert!(targets(package, "test").contains(&test), "{line}");
                }
            }
            "install" => {
                let path = after("--path").unwrap_or_else(|| panic!("{line}: no --path"));
                let manifest = repository().join(path).join("Cargo.toml");
                let manifest = manifest.canonicalize().unwrap();
                let installed = (packages.iter())
                    .find(|package| {
                        Path::new(package["manifest_path"].as_str().unwrap()) == manifest
                    })
                    .unwrap_or_else(|| panic!("{line}: {path} is no package of the workspace"));
                assert_eq!(targets(installed, "bin"), ["zerosum"], "{line}");
            }
            // A package given with `-p` was looked up above; a plain build builds the defaults.
            "build" => {}
            other => panic!("{line}: `cargo {other}` is not checked here: add it"),
        }
    }
}
