//! External engines that misbehave, scripted as small shell programs: each is forfeited with
//! the right reason, and its process does not outlive the game.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use zerosum_arena::{play_game, PlayedGame, PlayerSpec, RefereeOptions, Termination, TimeControl};
use zerosum_core::{Outcome, Side};
use zerosum_games::GameSpec;

/// Writes an executable shell script into a scratch directory and returns its path.
fn script(name: &str, body: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zerosum-external-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A GTP engine that answers every command with success and does `on_genmove` for genmove.
fn gtp_engine(name: &str, on_genmove: &str) -> PathBuf {
    script(
        name,
        &format!(
            r#"while IFS= read -r line; do
  case "$line" in
    genmove*) {on_genmove} ;;
    quit*) printf '= \n\n'; exit 0 ;;
    *) printf '= \n\n' ;;
  esac
done
"#
        ),
    )
}

/// A Gomocup engine that says OK to START and does `on_move` for BEGIN, TURN and DONE.
fn gomocup_engine(name: &str, on_move: &str) -> PathBuf {
    script(
        name,
        &format!(
            r#"while IFS= read -r line; do
  case "$line" in
    START*|RECTSTART*) printf 'OK\r\n' ;;
    BEGIN*|TURN*|DONE*) {on_move} ;;
    END*) exit 0 ;;
  esac
done
"#
        ),
    )
}

fn play(spec: &str, engine: &Path, proto: &str, engine_side: Side) -> PlayedGame {
    let spec: GameSpec = spec.parse().unwrap();
    let external: PlayerSpec = format!("cmd={},proto={proto},name=fake", engine.display())
        .parse()
        .unwrap();
    let quasi: PlayerSpec = "quasi".parse().unwrap();
    let players = match engine_side {
        Side::First => [external.build(), quasi.build()],
        Side::Second => [quasi.build(), external.build()],
    };
    let options = RefereeOptions {
        time: TimeControl::per_move(0.2),
        max_moves: None,
        adjudicate_nodes: None,
    };
    play_game(&spec, players, &options, 1, &mut |_| {})
}

fn assert_forfeit(played: &PlayedGame, side: Side, termination: Termination, words: &str) {
    assert_eq!(played.termination, termination, "{played:?}");
    assert_eq!(played.outcome, Outcome::Win(!side), "{played:?}");
    assert!(played.reason.contains(words), "{}", played.reason);
}

#[test]
fn gtp_engines_that_crash_stall_babble_or_cheat_are_forfeited() {
    let cases = [
        ("crash", "exit 3", Termination::Crash, "exited"),
        ("stall", "sleep 30", Termination::Stalled, "did not answer"),
        (
            "babble",
            "echo 'I am thinking'; echo",
            Termination::IllegalMove,
            "garbage",
        ),
        (
            "cheat",
            "printf '= z99\\n\\n'",
            Termination::IllegalMove,
            "off the board",
        ),
        (
            "slow",
            "sleep 0.6; printf '= a1\\n\\n'",
            Termination::Timeout,
            "timed out",
        ),
        (
            "resign",
            "printf '= resign\\n\\n'",
            Termination::Resignation,
            "resigns",
        ),
    ];
    for (name, behaviour, termination, words) in cases {
        let engine = gtp_engine(&format!("gtp-{name}"), behaviour);
        for side in [Side::First, Side::Second] {
            let played = play("tictactoe", &engine, "gtp", side);
            assert_forfeit(&played, side, termination, words);
        }
    }
}

#[test]
fn gomocup_engines_that_crash_stall_or_babble_are_forfeited() {
    let cases = [
        ("crash", "exit 3", Termination::Crash, "exited"),
        ("stall", "sleep 30", Termination::Stalled, "did not answer"),
        (
            "babble",
            "printf 'MESSAGE hello\\r\\nnonsense\\r\\n'",
            Termination::IllegalMove,
            "garbage",
        ),
        (
            "cheat",
            "printf '99,99\\r\\n'",
            Termination::IllegalMove,
            "off the board",
        ),
    ];
    for (name, behaviour, termination, words) in cases {
        let engine = gomocup_engine(&format!("gomocup-{name}"), behaviour);
        let played = play("mnk:7x7x4", &engine, "gomocup", Side::First);
        assert_forfeit(&played, Side::First, termination, words);
    }
}

#[test]
fn an_engine_that_cannot_start_or_play_the_game_loses_with_the_reason() {
    let missing = PathBuf::from("/nonexistent/engine");
    let played = play("tictactoe", &missing, "gtp", Side::Second);
    assert_forfeit(&played, Side::Second, Termination::Crash, "cannot start");
    let engine = gomocup_engine("gomocup-any", "printf '0,0\\r\\n'");
    let played = play("connect4", &engine, "gomocup", Side::First);
    assert_forfeit(&played, Side::First, Termination::Crash, "only plays m,n,k");
}

/// A Gomocup engine is told the game's rule (`INFO rule` 0 freestyle, 1 exactly five, 4
/// renju) after `START`.
#[test]
fn gomocup_engines_are_told_the_rule() {
    for (spec, number) in [("gomoku", 0), ("gomoku:standard", 1), ("renju", 4)] {
        let name = format!("gomocup-rule-{number}");
        let log = std::env::temp_dir()
            .join(format!("zerosum-external-{}", std::process::id()))
            .join(format!("{name}.log"));
        let engine = script(
            &name,
            &format!(
                r#"while IFS= read -r line; do
  printf '%s\n' "$line" >> '{}'
  case "$line" in
    START*) printf 'OK\r\n' ;;
    BEGIN*|TURN*) printf '7,7\r\n' ;;
    END*) exit 0 ;;
  esac
done
"#,
                log.display()
            ),
        );
        play(spec, &engine, "gomocup", Side::First);
        let text = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        let start = lines.iter().position(|&l| l == "START 15");
        let rule = lines
            .iter()
            .position(|&l| l == format!("INFO rule {number}"));
        assert!(start.is_some() && rule > start, "{text}");
        assert_eq!(text.matches("INFO rule").count(), 1, "{text}");
    }
}

#[test]
fn flooding_engines_forfeit_with_what_they_did() {
    let cases = [
        (
            "gtp-stream",
            "gtp",
            // The answer never ends: lines without the closing blank line.
            "printf '= a1\\n'; yes 'spam spam spam spam'",
            "sent 10,000 lines in its answer to `genmove",
        ),
        (
            "gtp-long-stream",
            "gtp",
            "printf '= a1\\n'; yes \"$(printf '%04000d' 0)\"",
            "sent more than 16 MiB in its answer to `genmove",
        ),
        (
            "gtp-long-line",
            "gtp",
            "printf '= '; cat /dev/zero",
            "sent a line longer than 1 MiB without an answer to `genmove",
        ),
        (
            "gtp-blank-lines",
            "gtp",
            "yes ''",
            "sent 10,000 lines without an answer to `genmove",
        ),
        (
            "gomocup-messages",
            "gomocup",
            "yes 'MESSAGE thinking'",
            "sent 10,000 lines without an answer to `BEGIN`",
        ),
    ];
    for (name, proto, behaviour, words) in cases {
        let engine = match proto {
            "gtp" => gtp_engine(name, behaviour),
            _ => gomocup_engine(name, behaviour),
        };
        let played = play("mnk:7x7x4", &engine, proto, Side::First);
        assert_forfeit(&played, Side::First, Termination::Crash, words);
        assert!(
            !played.reason.contains("did not answer"),
            "{}",
            played.reason
        );
    }
}

#[test]
fn control_bytes_from_an_engine_are_escaped_in_the_reason() {
    let engine = gtp_engine("gtp-escape", r"printf '= \033[2J\000a1\007\n\n'");
    let played = play("tictactoe", &engine, "gtp", Side::Second);
    assert_forfeit(&played, Side::Second, Termination::IllegalMove, "garbage");
    assert!(
        played.reason.contains(r"`\u{1b}[2J\u{0}a1\u{7}`"),
        "{}",
        played.reason
    );
    assert!(
        !played.reason.chars().any(char::is_control),
        "{:?}",
        played.reason
    );
    // A screenful is cut.
    let engine = gtp_engine("gtp-screenful", "printf '= %0300d\\n\\n' 7");
    let played = play("tictactoe", &engine, "gtp", Side::First);
    assert!(played.reason.contains("0000…`"), "{}", played.reason);
    assert!(played.reason.len() < 200, "{}", played.reason);
}

/// The state of process `pid` (`R`, `S`, `Z`...), `None` once it is gone.
fn process_state(pid: &str) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The state follows the command name in parentheses.
    stat.rsplit_once(')')?.1.trim().chars().next()
}

#[test]
fn an_engine_and_every_process_it_started_end_with_the_game() {
    let dir = std::env::temp_dir().join(format!("zerosum-external-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, proto, genmove) in [
        ("gtp-forker", "gtp", "printf '= resign\\n\\n'"),
        // Forfeited for garbage, the process still running.
        ("gomocup-forker", "gomocup", "printf 'nonsense\\r\\n'"),
    ] {
        let pids = dir.join(format!("{name}.pids"));
        let _ = std::fs::remove_file(&pids);
        let engine = match proto {
            "gtp" => gtp_engine(
                name,
                &format!("sleep 1000 & echo $! >> {}; {genmove}", pids.display()),
            ),
            _ => gomocup_engine(
                name,
                &format!("sleep 1000 & echo $! >> {}; {genmove}", pids.display()),
            ),
        };
        play("mnk:7x7x4", &engine, proto, Side::First);
        let pids = std::fs::read_to_string(&pids).unwrap();
        assert!(!pids.trim().is_empty());
        for pid in pids.split_whitespace() {
            // SIGKILL takes effect at once, but give a loaded machine a generous while.
            let ended = (0..1000).any(|_| {
                let state = process_state(pid);
                let ended = state.is_none() || state == Some('Z');
                if !ended {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                ended
            });
            assert!(ended, "{name}: the engine's child {pid} is still running");
        }
    }
}

#[test]
fn what_a_silent_engine_said_is_in_the_reason() {
    // Rapfi's answer to a command it lost, then silence.
    let engine = gomocup_engine(
        "gomocup-error",
        r"printf 'MESSAGE thinking\r\nDEBUG x\r\nERROR Unknown command: 4,8 \033[2J\r\n'; sleep 30",
    );
    let played = play("mnk:7x7x4", &engine, "gomocup", Side::First);
    assert_forfeit(
        &played,
        Side::First,
        Termination::Stalled,
        r"without a word; it said: MESSAGE thinking | ERROR Unknown command: 4,8 \u{1b}[2J)",
    );
    // A GTP engine's refusals during the move.
    let engine = script(
        "gtp-refuses",
        r#"while IFS= read -r line; do
  case "$line" in
    genmove*) sleep 30 ;;
    time_left*) printf '? unknown command\n\n' ;;
    *) printf '= \n\n' ;;
  esac
done
"#,
    );
    let spec: GameSpec = "tictactoe".parse().unwrap();
    let external: PlayerSpec = format!("cmd={},proto=gtp,name=fake", engine.display())
        .parse()
        .unwrap();
    let options = RefereeOptions {
        time: TimeControl {
            per_move: None,
            base: Some(std::time::Duration::from_secs(1)),
            ..TimeControl::default()
        },
        max_moves: None,
        adjudicate_nodes: None,
    };
    let players = [
        external.build(),
        "quasi".parse::<PlayerSpec>().unwrap().build(),
    ];
    let played = play_game(&spec, players, &options, 1, &mut |_| {});
    assert_forfeit(
        &played,
        Side::First,
        Termination::Stalled,
        "it said: ? unknown command (to `time_left b 1.000 0`) | ? unknown command (to `time_left b 1 0`)",
    );
}

#[test]
fn an_engine_with_its_own_margin_may_answer_that_late() {
    // 0.2 s a move and the default 50 ms margin: 2.5 s is far too late (the driver too gives
    // up after 2.2 s), unless the engine has a margin that long.
    let engine = gtp_engine("gtp-late-a1", "sleep 2.5; printf '= a1\\n\\n'");
    let played = play("tictactoe", &engine, "gtp", Side::First);
    assert_forfeit(&played, Side::First, Termination::Stalled, "did not answer");
    let spec: GameSpec = "tictactoe".parse().unwrap();
    let external: PlayerSpec = format!("cmd={},proto=gtp,margin=5000", engine.display())
        .parse()
        .unwrap();
    let options = RefereeOptions {
        time: TimeControl::per_move(0.2),
        max_moves: None,
        adjudicate_nodes: None,
    };
    let players = [
        external.build(),
        "quasi".parse::<PlayerSpec>().unwrap().build(),
    ];
    let played = play_game(&spec, players, &options, 1, &mut |_| {});
    // Its first move stands; its second (a1 again) is illegal.
    assert_eq!(
        played.moves.first().map(String::as_str),
        Some("a1"),
        "{played:?}"
    );
    assert_eq!(played.termination, Termination::IllegalMove, "{played:?}");
}

#[test]
fn a_gomocup_move_the_engine_shows_it_lost_is_sent_again_and_only_then() {
    // Rapfi's race, every other time: the engine reads the `TURN` it is sent while it still
    // counts itself thinking, drops the word and reads the coordinates as a command of their
    // own (`ERROR Unknown command: X,Y`). A move it was sent twice (and so played twice) it
    // answers with `twice`, a forfeit; a move it lost and never got again stalls it.
    let engine = script(
        "gomocup-drops-turns",
        r#"taken=" "
lose=1
play() {
  for y in 0 1 2 3 4 5 6; do for x in 0 1 2 3 4 5 6; do
    case "$taken" in *" $x,$y "*) ;; *) taken="$taken$x,$y "; printf '%s\r\n' "$x,$y"; return ;; esac
  done; done
}
while IFS= read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  case "$line" in
    START*) printf 'OK\r\n' ;;
    BEGIN*) play ;;
    TURN*)
      xy=${line#TURN }
      if [ "$lose" = 1 ]; then lose=0; printf 'ERROR Unknown command: %s\r\n' "$xy"; continue; fi
      lose=1
      case "$taken" in *" $xy "*) printf 'twice\r\n'; continue ;; esac
      taken="$taken$xy "
      play ;;
    END*) exit 0 ;;
  esac
done
"#,
    );
    for side in [Side::First, Side::Second] {
        let played = play("mnk:7x7x4", &engine, "gomocup", side);
        assert_eq!(played.termination, Termination::Normal, "{played:?}");
        assert!(played.moves.len() >= 7, "{played:?}");
    }
}
