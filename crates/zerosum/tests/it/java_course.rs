//! Java course players on the command line: a clear error without a JDK, and a course-preset
//! tournament with `java:` players scored, forfeited and ranked as the course does. The
//! tournament tests are ignored, with the reason, when the build found no JDK.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::{self, text};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    support::scratch("java", name)
}

/// Compiles `files` into `classes`; every file must compile.
fn compile(classes: &Path, files: &[PathBuf]) {
    let status = Command::new("javac")
        .arg("-d")
        .arg(classes)
        .args(files)
        .status()
        .unwrap();
    assert!(status.success(), "javac failed on {files:?}");
}

fn zerosum(args: &[&str], cache: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(args)
        .env("ZEROSUM_JAVA_CACHE", cache)
        .output()
        .expect("the binary runs")
}

#[test]
fn without_a_jdk_a_java_player_is_refused_before_any_game() {
    let dir = scratch("nojdk");
    let record = dir.join("t.jsonl");
    let output = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(["tournament", "--games", "mnk:3x3x3", "--players"])
        .args(["java:toys.FirstFreeCell,cp=/nowhere", "random", "--record"])
        .arg(&record)
        .env("PATH", &dir)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let error = text(&output.stderr);
    assert!(error.contains("players need a JDK"), "{error}");
    assert!(error.contains("default-jdk-headless"), "{error}");
    assert!(!record.exists());
}

#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn a_course_preset_tournament_scores_and_ranks_java_players_as_the_course() {
    let dir = scratch("preset");
    let classes = dir.join("classes");
    let stand_ins = Path::new(env!("CARGO_MANIFEST_DIR")).join("../zerosum-arena/tests/java");
    let mut files = Vec::new();
    for package in ["mnkgame", "toys"] {
        for entry in std::fs::read_dir(stand_ins.join(package)).unwrap() {
            let path = entry.unwrap().path();
            let mnk_toy = package == "mnkgame"
                || ["FirstFreeCell.java", "MnkOccupier.java"]
                    .contains(&path.file_name().unwrap().to_str().unwrap());
            if mnk_toy {
                files.push(path);
            }
        }
    }
    compile(&classes, &files);
    let record = dir.join("t.jsonl");
    let cp = classes.display();
    let output = zerosum(
        &[
            "tournament",
            "--preset",
            "mnk-course",
            "--games",
            "mnk:3x3x3",
            "--st",
            "1",
            "--players",
            &format!("java:toys.FirstFreeCell,cp={cp},name=first-free"),
            &format!("java:toys.MnkOccupier,cp={cp},name=occupier"),
            "--record",
            record.to_str().unwrap(),
        ],
        &dir.join("cache"),
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    // The preset's 2 rounds: 4 games, 2 with each player first. The occupier plays an occupied
    // cell on its first move after a marked one, always a forfeit: 2 points each (mnk scoring).
    let ranking = std::fs::read_to_string(dir.join("t.ranking.txt")).unwrap();
    assert_eq!(
        ranking,
        "Ranking after 4 games (win as first player 2, as second player 3, by forfeit 2, \
         draw 1)\n  1. first-free      8\n  2. occupier        0\n"
    );
    let stdout = text(&output.stdout);
    assert_eq!(
        stdout.matches("played an illegal move").count(),
        4,
        "{stdout}"
    );
}

#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn our_engine_inside_the_course_framework_plays_through_the_adapter() {
    // The stand-in frameworks and zerosum's course players (which start `zerosum gtp`), run as
    // course players by the adapter: zerosum inside the course framework inside the arena.
    let dir = scratch("bridge");
    let classes = dir.join("classes");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for folder in [
        "crates/zerosum-arena/tests/java/mnkgame",
        "crates/zerosum-arena/tests/java/connectx",
        "java/course/src/zerosum/course",
    ] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            files.push(entry.unwrap().path());
        }
    }
    compile(&classes, &files);
    let cp = classes.display().to_string();
    for (spec, class) in [
        ("mnk:4x4x3", "zerosum.course.ZerosumMNKPlayer"),
        ("connectx:4x5x4", "zerosum.course.ZerosumCXPlayer"),
    ] {
        let record = dir.join(format!("{class}.jsonl"));
        let output = Command::new(env!("CARGO_BIN_EXE_zerosum"))
            .args([
                "match",
                spec,
                &format!("java:{class},cp={cp},name=zerosum-in-java"),
                "quasi",
                "--games",
                "2",
                "--st",
                "2",
                "--record",
                record.to_str().unwrap(),
            ])
            .env("ZEROSUM_JAVA_CACHE", dir.join("cache"))
            .env(
                "ZEROSUM_GTP",
                format!("{} gtp", env!("CARGO_BIN_EXE_zerosum")),
            )
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", text(&output.stderr));
        let out = text(&output.stdout);
        for game in 1..=2 {
            assert!(out.contains(&format!("Finished game {game} ")), "{out}");
        }
        // No forfeit. 4x4x3 is a first-player win: the engine wins the game it opens, and
        // as second player it may lose to quasi's lucky random moves. 4x5x4 Connect Four is
        // a draw: the engine never loses it.
        let records = std::fs::read_to_string(&record).unwrap();
        for line in records.lines().skip(1) {
            assert!(line.contains(r#""termination":"normal""#), "{spec}: {line}");
        }
        for line in out.lines().filter(|l| l.starts_with("Finished game ")) {
            let engine_first = line.contains("(zerosum-in-java vs quasi)");
            let engine_won = line.contains(if engine_first { ": 1-0" } else { ": 0-1" });
            let draw = line.contains(": 1/2-1/2");
            match (spec, engine_first) {
                ("mnk:4x4x3", true) => assert!(engine_won, "{spec}: {line}"),
                ("mnk:4x4x3", false) => {}
                _ => assert!(engine_won || draw, "{spec}: the engine lost: {line}"),
            }
        }
    }
}

#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn a_java_player_that_cannot_start_stops_the_run_before_any_game_in_plain_words() {
    let dir = scratch("cannot-start");
    let classes = dir.join("classes");
    let stand_ins = Path::new(env!("CARGO_MANIFEST_DIR")).join("../zerosum-arena/tests/java");
    let mut files = Vec::new();
    for package in ["mnkgame", "connectx"] {
        for entry in std::fs::read_dir(stand_ins.join(package)).unwrap() {
            files.push(entry.unwrap().path());
        }
    }
    files.push(stand_ins.join("toys/FirstFreeCell.java"));
    compile(&classes, &files);
    let record = dir.join("t.jsonl");
    let cp = classes.display();
    for (player, game, why) in [
        (
            format!("java:toys.Missing,cp={cp}"),
            "mnk:3x3x3",
            "class toys.Missing not found on the classpath",
        ),
        (
            format!("java:toys.FirstFreeCell,cp={cp}"),
            "connectx:4x4x3",
            "toys.FirstFreeCell is not a connectx.CXPlayer",
        ),
    ] {
        let record_arg = record.to_str().unwrap();
        let args = ["match", game, "quasi", &player, "--record", record_arg];
        let output = zerosum(&args, &dir.join("cache"));
        assert!(!output.status.success(), "{player}");
        let error = text(&output.stderr);
        assert_eq!(error.trim().lines().count(), 1, "{error}");
        assert!(
            error.starts_with(&format!("error: player 2 ({player}): {why}")),
            "{error}"
        );
        assert!(!error.contains("zerosum-game"), "{error}");
        assert!(!text(&output.stdout).contains("game"), "a game started");
        assert!(!record.exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
