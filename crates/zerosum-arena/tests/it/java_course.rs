//! Course players in Java (`java:CLASS,cp=PATH`) in the arena: the adapter is compiled against
//! stand-ins of the course frameworks (`tests/java`, written for these tests) and toy players,
//! which then play (a thousand moves on 100x100 boards too), misbehave and are forfeited as the
//! course referee would. zerosum's own course players (`java/course`) play too, inside the
//! adapter, against a scripted GTP peer standing in for `zerosum gtp`: the adapter running a toy,
//! or a peer that never answers. Every test is ignored, with the reason, when the build found no
//! JDK.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use zerosum_arena::players::JavaPlayer;
use zerosum_arena::{
    play_game, PlayedGame, PlayerSpec, RefereeEvent, RefereeOptions, Termination, TimeControl,
};
use zerosum_core::{Outcome, Side};
use zerosum_games::GameSpec;

/// The compiled stand-ins and toys. The tests that use them are ignored when the build script
/// found no `javac`.
fn toy_classes() -> &'static Path {
    static CLASSES: OnceLock<PathBuf> = OnceLock::new();
    CLASSES.get_or_init(|| {
        let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("java-course");
        // The adapter's cache for these tests only, shared by the tests of this process.
        std::env::set_var("ZEROSUM_JAVA_CACHE", scratch.join("adapter-cache"));
        let classes = scratch.join(format!("toys-{}", std::process::id()));
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for package in [
            "tests/java/mnkgame",
            "tests/java/connectx",
            "tests/java/toys",
            "../../java/course/src/zerosum/course",
        ] {
            for entry in std::fs::read_dir(manifest.join(package)).unwrap() {
                files.push(entry.unwrap().path());
            }
        }
        let status = Command::new("javac")
            .arg("-d")
            .arg(&classes)
            .args(&files)
            .status()
            .unwrap();
        assert!(status.success(), "the stand-ins and toys do not compile");
        classes
    })
}

fn java(class: &str, classes: &Path) -> PlayerSpec {
    let class = if class.contains('.') {
        class.to_string()
    } else {
        format!("toys.{class}")
    };
    format!("java:{class},cp={}", classes.display())
        .parse()
        .unwrap()
}

/// Plays `spec` between the toy `class` on `side` and the built-in `opponent`, at one second a
/// move (the course limit the adapter enforces is then one second too).
fn play(spec: &str, class: &str, side: Side, opponent: &str, classes: &Path) -> PlayedGame {
    let toy = java(class, classes);
    let other: PlayerSpec = opponent.parse().unwrap();
    let players = match side {
        Side::First => [toy.build(), other.build()],
        Side::Second => [other.build(), toy.build()],
    };
    let options = RefereeOptions {
        time: TimeControl::per_move(1.0),
        max_moves: None,
        adjudicate_nodes: None,
    };
    play_game(&spec.parse().unwrap(), players, &options, 7, &mut |_| {})
}

fn assert_forfeit(played: &PlayedGame, side: Side, termination: Termination, words: &str) {
    assert_eq!(played.termination, termination, "{played:?}");
    assert_eq!(played.outcome, Outcome::Win(!side), "{played:?}");
    assert!(played.reason.contains(words), "{}", played.reason);
}

#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn well_behaved_course_players_play_whole_games_in_both_colours() {
    let classes = toy_classes();
    for side in [Side::First, Side::Second] {
        // FirstFreeCell prints to System.out, starts a thread that never ends and checks that
        // it is given every cell of the board.
        let played = play("mnk:4x4x3", "FirstFreeCell", side, "random", classes);
        assert_eq!(played.termination, Termination::Normal, "{played:?}");
        let played = play("connectx:6x7x4", "LeftmostColumn", side, "quasi", classes);
        assert_eq!(played.termination, Termination::Normal, "{played:?}");
        // Every move of the toy in column 1 until it is full.
        let toy_moves: Vec<&String> = played.moves.iter().skip(side.index()).step_by(2).collect();
        assert_eq!(toy_moves.first().map(|m| m.as_str()), Some("1"));
    }
}

#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn a_course_player_plays_game_after_game_in_a_fresh_jvm_each() {
    let classes = toy_classes();
    let toy = java("FirstFreeCell", classes);
    let options = RefereeOptions {
        time: TimeControl::per_move(1.0),
        max_moves: None,
        adjudicate_nodes: None,
    };
    let spec: GameSpec = "mnk:3x3x3".parse().unwrap();
    let played: Vec<PlayedGame> = (0..3)
        .map(|seed| {
            let players = [toy.build(), "random".parse::<PlayerSpec>().unwrap().build()];
            play_game(&spec, players, &options, seed, &mut |_| {})
        })
        .collect();
    for game in played {
        assert_eq!(game.termination, Termination::Normal, "{game:?}");
        assert_eq!(game.moves[0], "a1");
    }
}

#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn a_player_that_throws_is_forfeited_as_a_crash() {
    let classes = toy_classes();
    for side in [Side::First, Side::Second] {
        let played = play("mnk:3x3x3", "MnkThrower", side, "random", classes);
        assert_forfeit(&played, side, Termination::Crash, "selectCell threw");
        assert!(played.reason.contains("boom"), "{}", played.reason);
    }
}

#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn a_player_that_sleeps_past_the_limit_is_forfeited_on_time() {
    let classes = toy_classes();
    let played = play("mnk:3x3x3", "MnkSleeper", Side::Second, "random", classes);
    assert_forfeit(&played, Side::Second, Termination::Timeout, "timeout");
    assert!(played.reason.contains("selectCell"), "{}", played.reason);
}

#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn a_player_that_uses_90_percent_of_its_time_on_every_move_is_not_forfeited() {
    let classes = toy_classes();
    let played = play("mnk:3x3x3", "MnkNearLimit", Side::First, "random", classes);
    assert_eq!(played.termination, Termination::Normal, "{played:?}");
}

#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn a_player_that_plays_an_occupied_cell_is_forfeited_for_an_illegal_move() {
    let classes = toy_classes();
    for side in [Side::First, Side::Second] {
        let played = play("mnk:3x3x3", "MnkOccupier", side, "random", classes);
        assert_forfeit(&played, side, Termination::IllegalMove, "illegal move");
        assert!(played.reason.contains("occupied"), "{}", played.reason);
    }
}

#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn a_player_that_plays_off_the_board_is_forfeited_for_an_illegal_move() {
    let classes = toy_classes();
    for side in [Side::First, Side::Second] {
        let played = play("connectx:6x7x4", "CxOffBoard", side, "random", classes);
        assert_forfeit(&played, side, Termination::IllegalMove, "off the board");
    }
}

#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn a_player_of_the_other_framework_cannot_play() {
    let classes = toy_classes();
    let played = play(
        "connectx:6x7x4",
        "FirstFreeCell",
        Side::First,
        "random",
        classes,
    );
    assert_eq!(played.termination, Termination::Crash, "{played:?}");
    assert!(
        played.reason.contains("not a connectx.CXPlayer"),
        "{}",
        played.reason
    );
}

/// The time the referee measured for each move of `side`, from the observer.
fn move_times(spec: &str, class: &str, classes: &Path, moves: usize) -> Vec<Duration> {
    let players = [java(class, classes).build(), java(class, classes).build()];
    let options = RefereeOptions {
        time: TimeControl::per_move(10.0),
        max_moves: Some(moves),
        adjudicate_nodes: None,
    };
    let mut times = Vec::new();
    let played = play_game(&spec.parse().unwrap(), players, &options, 1, &mut |event| {
        if let RefereeEvent::Moved { elapsed, .. } = event {
            times.push(elapsed);
        }
    });
    assert_eq!(played.termination, Termination::Adjudication, "{played:?}");
    times
}

/// Players that answer at once on 100x100 boards play a thousand moves through the adapter,
/// which builds what the course gives the player at every move (10 000 free and marked cells, or
/// a copy of the board replaying every move). The times printed are the course's clock (the
/// in-JVM call); they are reported, not asserted: this machine's speed is not the test's
/// business.
#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn course_players_play_a_thousand_moves_on_100x100_boards() {
    let classes = toy_classes();
    for (spec, class) in [
        ("mnk:100x100x30", "FirstFreeCell"),
        ("connectx:100x100x30", "LeftmostColumn"),
    ] {
        let times = move_times(spec, class, classes, 1000);
        assert_eq!(times.len(), 1000, "{spec}: a time for every move");
        // The first move of each JVM runs cold.
        let warm = &times[2..];
        let mean = warm.iter().sum::<Duration>() / warm.len() as u32;
        let mut sorted = warm.to_vec();
        sorted.sort();
        let p99 = sorted[sorted.len() * 99 / 100];
        let last = &times[times.len() - 100..];
        let last_mean = last.iter().sum::<Duration>() / last.len() as u32;
        eprintln!(
            "{spec}: {} moves, course clock per move: mean {:.2} ms, p99 {:.2} ms, \
             mean of the last 100 {:.2} ms, first moves {:.1} / {:.1} ms",
            times.len(),
            mean.as_secs_f64() * 1e3,
            p99.as_secs_f64() * 1e3,
            last_mean.as_secs_f64() * 1e3,
            times[0].as_secs_f64() * 1e3,
            times[1].as_secs_f64() * 1e3,
        );
    }
}

/// zerosum's course players start the command in `ZEROSUM_GTP` as their engine. Here the engine
/// is a scripted GTP peer: the adapter running a toy (its moves show through), then a peer that
/// never answers `genmove` (the player falls back to a legal move within the course limit).
#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn zerosum_course_players_answer_through_a_gtp_engine_within_the_course_limit() {
    let classes = toy_classes();
    let peer = |class: &str| {
        JavaPlayer {
            class: format!("toys.{class}"),
            classpath: classes.display().to_string(),
        }
        .command()
        .unwrap()
        .join(" ")
    };
    // This is the only test of this file that reads the variable.
    std::env::set_var("ZEROSUM_GTP", peer("FirstFreeCell"));
    let bridge = "zerosum.course.ZerosumMNKPlayer";
    let played = play("mnk:4x4x3", bridge, Side::First, "random", classes);
    assert_eq!(played.termination, Termination::Normal, "{played:?}");
    assert_eq!(played.moves[0], "a1", "the peer's first free cell");
    std::env::set_var("ZEROSUM_GTP", peer("LeftmostColumn"));
    let bridge = "zerosum.course.ZerosumCXPlayer";
    let played = play("connectx:6x7x4", bridge, Side::First, "random", classes);
    assert_eq!(played.termination, Termination::Normal, "{played:?}");
    assert_eq!(played.moves[0], "1", "the peer's leftmost column");

    let silent = Path::new(env!("CARGO_TARGET_TMPDIR")).join("silent-gtp.sh");
    std::fs::write(
        &silent,
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in genmove*) ;; *) printf '= \\n\\n' ;; esac; done\n",
    )
    .unwrap();
    std::env::set_var("ZEROSUM_GTP", format!("sh {}", silent.display()));
    let played = play("connectx:4x4x4", bridge, Side::Second, "random", classes);
    assert_eq!(played.termination, Termination::Normal, "{played:?}");
}

/// The course rounds the limit up to whole seconds and times the call in the JVM: at 0.5 s a
/// move the course allows a second, and a player that thinks 0.9 s a move is accepted (the
/// arena's own clock, 0.5 s plus its margin, once forfeited it on move 1).
#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn a_course_player_is_judged_by_the_course_clock_alone() {
    let classes = toy_classes();
    let players = [
        java("MnkNearLimit", classes).build(),
        "random".parse::<PlayerSpec>().unwrap().build(),
    ];
    let options = RefereeOptions {
        time: TimeControl::per_move(0.5),
        max_moves: None,
        adjudicate_nodes: None,
    };
    let spec: GameSpec = "mnk:3x3x3".parse().unwrap();
    let played = play_game(&spec, players, &options, 3, &mut |_| {});
    assert_eq!(played.termination, Termination::Normal, "{played:?}");
    // Its moves took the in-JVM time, 0.9 s each at least.
    for ms in played.move_ms.iter().step_by(2) {
        assert!(*ms >= 850, "{:?}", played.move_ms);
    }
}

#[test]
#[cfg_attr(zerosum_no_javac, ignore = "needs a JDK: javac on PATH")]
fn the_record_keeps_the_time_of_the_move_forfeited_on_time() {
    let classes = toy_classes();
    let played = play("mnk:3x3x3", "MnkSleeper", Side::Second, "random", classes);
    assert_forfeit(&played, Side::Second, Termination::Timeout, "timeout");
    assert_eq!(played.move_ms.len(), played.moves.len() + 1, "{played:?}");
    assert!(played.move_ms[played.moves.len()] >= 1000, "{played:?}");
}
