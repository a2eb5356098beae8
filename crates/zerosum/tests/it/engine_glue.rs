//! What real engines need to join a match, reproduced by scripted engines: one that loses a
//! command arriving within 2 ms of its own answer (Rapfi's race: paced, it never stalls) and one
//! that refuses `time_settings` and learns its time from `init=` commands (MoHex). Each plays a
//! 20-game match with no stall and no forfeit.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::support;

const ZEROSUM: &str = env!("CARGO_BIN_EXE_zerosum");

/// Writes an executable bash script `name` into `dir`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!("#!/usr/bin/env bash\nexport LC_ALL=C\n{body}"),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A Gomocup engine on a 15x15 board that plays the first free cell in reading order and, as
/// Rapfi does, loses the first line that arrives within 2 ms of its own answer: it prints
/// `ERROR Unknown command: ...` for it and waits for the next. The answer's time is taken just
/// before the answer is written, so a paced line is never lost, however late the script reads.
const HASTY_GOMOCUP: &str = r#"
declare -A taken
answered=0
# Microseconds since the epoch, in `now`, without a subshell.
clock() { local t=$EPOCHREALTIME; now=$(( 10#${t/./} )); }
answer() { clock; answered=$now; printf '%s\r\n' "$1"; }
move() {
  for ((y = 0; y < 15; y++)); do for ((x = 0; x < 15; x++)); do
    if [[ -z ${taken[$x,$y]} ]]; then taken[$x,$y]=1; answer "$x,$y"; return; fi
  done; done
}
while IFS= read -r line; do
  line=${line%$'\r'}
  clock
  if (( answered > 0 && now - answered < 2000 )); then
    answered=0
    echo "ERROR Unknown command: ${line#* }"
    continue
  fi
  answered=0
  case "$line" in
    START*) taken=(); answer OK ;;
    BEGIN) move ;;
    TURN*) taken[${line#TURN }]=1; move ;;
    END) exit 0 ;;
  esac
done
"#;

/// A GTP Hex engine that refuses `time_settings` (and anything it does not know) and thinks
/// `max_time` seconds a move, 10 unless `param_mohex max_time SECONDS` says otherwise, as MoHex
/// does; it plays the first free cell.
const TIMELESS_GTP: &str = r#"
declare -A taken
size=5
letters=abcdefghijk
max_time=10
ok() { printf '= %s\n\n' "$1"; }
while read -r -a words; do
  case "${words[0]}" in
    ''|'#'*) continue ;;
    protocol_version) ok 2 ;;
    name) ok timeless ;;
    boardsize) size=${words[1]}; ok ;;
    clear_board) taken=(); ok ;;
    param_mohex)
      if [[ ${words[1]} == max_time ]]; then max_time=${words[2]}; fi
      ok ;;
    play) taken[${words[2]}]=1; ok ;;
    genmove)
      sleep "$max_time"
      for ((row = 1; row <= size; row++)); do for ((column = 0; column < size; column++)); do
        cell=${letters:column:1}$row
        if [[ -z ${taken[$cell]} ]]; then taken[$cell]=1; ok "$cell"; continue 3; fi
      done; done
      printf '? no move\n\n' ;;
    quit) ok; exit 0 ;;
    *) printf '? unknown command\n\n' ;;
  esac
done
"#;

/// Runs a match recorded in `dir` as `name` and returns its output and its records.
fn play_match(dir: &Path, name: &str, args: &[&str]) -> (Output, Vec<Value>) {
    let record = dir.join(format!("{name}.jsonl"));
    let output = Command::new(ZEROSUM)
        .args(args)
        .args(["--record", record.to_str().unwrap(), "--seed", "5"])
        .output()
        .expect("the binary runs");
    let games = std::fs::read_to_string(&record)
        .unwrap_or_default()
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (output, games)
}

/// Asserts that `games` are `count` games that all ended normally.
fn assert_clean(games: &[Value], count: usize, output: &Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(games.len(), count, "{stderr}");
    for game in games {
        assert_eq!(game["termination"], "normal", "{game}\n{stderr}");
    }
}

#[test]
fn an_engine_that_loses_hasty_commands_plays_a_whole_match_paced() {
    let dir = support::scratch("glue", "hasty");
    let engine = script(&dir, "hasty", HASTY_GOMOCUP);
    // A script on a loaded machine needs its own margin.
    let spec = format!(
        "cmd={},proto=gomocup,name=hasty,margin=2000",
        engine.display()
    );
    // Our engine answers forced moves (a four to block, a five to make) at once.
    let args = [
        "match", "gomoku", &spec, "engine", "--games", "20", "--st", "0.05",
    ];
    let (output, games) = play_match(&dir, "paced", &args);
    assert_clean(&games, 20, &output);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_refuses_time_settings_learns_its_time_from_init_commands() {
    let dir = support::scratch("glue", "timeless");
    let engine = script(&dir, "timeless", TIMELESS_GTP);
    let spec = format!(
        "cmd={},proto=gtp,name=timeless,init=param_mohex max_time 0.02;name,margin=2000",
        engine.display()
    );
    let args = [
        "match", "hex:5", &spec, "quasi", "--games", "20", "--st", "0.2",
    ];
    let (output, games) = play_match(&dir, "init", &args);
    assert_clean(&games, 20, &output);
    // The refusal is a warning, once for the whole match.
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr
            .matches("warning: timeless: refuses `time_settings`")
            .count(),
        1,
        "{stderr}"
    );
    // Without its init command it thinks 10 s a move and loses on time.
    let spec = format!(
        "cmd={},proto=gtp,name=timeless,margin=2000",
        engine.display()
    );
    let args = [
        "match", "hex:5", &spec, "quasi", "--games", "1", "--st", "0.2",
    ];
    let (_, games) = play_match(&dir, "no-init", &args);
    assert_eq!(games.len(), 1);
    assert_ne!(games[0]["termination"], "normal", "{}", games[0]);
    // A refused init command is an error that says which.
    let spec = format!(
        "cmd={},proto=gtp,name=timeless,init=param_wolve max_time 1",
        engine.display()
    );
    let args = [
        "match", "hex:5", &spec, "quasi", "--games", "1", "--st", "0.2",
    ];
    let (_, games) = play_match(&dir, "refused-init", &args);
    let reason = games[0]["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("refused the init command `param_wolve max_time 1`: unknown command"),
        "{}",
        games[0]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
