//! `zerosum bench soak`: a tournament of deterministic players, killed with SIGKILL at random
//! (seeded) moments and resumed with `--resume` each time, must end with exactly the scheduled
//! games in its record, none repeated or lost, and the standings of the same tournament played
//! without interruption.
//!
//! The tournaments run as child processes of this binary (`zerosum tournament`), exactly as a
//! user runs them. The first kill waits until the record's header is written (before that there
//! is no record to resume); every later moment is drawn from the start of a resumed run.

use std::collections::HashSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use zerosum_arena::records::record_file::MAX_RECORD_BYTES;
use zerosum_arena::{GameRecord, Scoring, Standings};
use zerosum_core::capped_read::{read_file, read_text_file};
use zerosum_core::conformance::SplitMix;

/// Options of `zerosum bench soak`.
#[derive(Args, Debug)]
pub struct SoakArgs {
    /// How many times the tournament is killed.
    #[arg(long, default_value_t = 20)]
    kills: usize,
    /// Seed of the kill moments and of the tournament's players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rounds of the tournament (each is 18 games; more rounds make a longer run).
    #[arg(long, default_value_t = 4)]
    rounds: usize,
    /// Directory for the records (default: a fresh one in the temporary directory, removed
    /// when the soak passes).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// The tournament of the soak, without its record: players whose moves depend only on the
/// seed (a node-limited engine, quasi and random players), two games at once, so games end
/// out of schedule order and a kill interrupts two.
fn tournament_args(rounds: usize, seed: u64) -> Vec<String> {
    let rounds = rounds.to_string();
    let seed = seed.to_string();
    [
        "tournament",
        "--players",
        "engine:nodes=20000,name=engine",
        "quasi",
        "random",
        "--games",
        "connect4,mnk:6x6x4,hex:5",
        "--rounds",
        &rounds,
        "--st",
        "30",
        "--seed",
        &seed,
        "--concurrency",
        "2",
    ]
    .map(String::from)
    .to_vec()
}

/// `zerosum bench soak`.
pub fn soak(args: &SoakArgs) -> Result<()> {
    if args.rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let dir = args.dir.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("zerosum-soak-{}", std::process::id()))
    });
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let reference = dir.join("reference.jsonl");
    let soaked = dir.join("soak.jsonl");
    for path in [&reference, &soaked] {
        if path.exists() {
            bail!("{} already exists: give another --dir", path.display());
        }
    }
    let exe = std::env::current_exe().context("cannot find this program")?;
    let tournament = tournament_args(args.rounds, args.seed);

    outln!("uninterrupted run: {}", reference.display());
    let started = Instant::now();
    let mut command = Command::new(&exe);
    command.args(&tournament).arg("--record").arg(&reference);
    let output = command.stderr(Stdio::null()).output()?;
    if !output.status.success() {
        bail!("the uninterrupted tournament failed ({})", output.status);
    }
    let duration = started.elapsed();
    let reference_table = standings_table(&String::from_utf8_lossy(&output.stdout))?;
    let reference_games = read_games(&reference)?;
    outln!(
        "  {} games in {:.1} s",
        reference_games.len(),
        duration.as_secs_f64()
    );

    // Kill moments spread so that the kills, together, cover about the length of a whole run.
    let window = duration.mul_f64(2.0 / (args.kills as f64 + 1.0));
    let mut random = SplitMix::new(args.seed);
    let mut kills = 0;
    let mut cut_lines = 0;
    outln!("killed run: {}", soaked.display());
    for run in 0..args.kills {
        let stderr = dir.join(format!("run-{run}.stderr"));
        let mut child = if run == 0 {
            let mut command = Command::new(&exe);
            command.args(&tournament).arg("--record").arg(&soaked);
            spawn(command, &stderr)?
        } else {
            spawn(resume_command(&exe, &soaked), &stderr)?
        };
        if run == 0 {
            wait_for_header(&soaked, &mut child)?;
        }
        let delay = window.mul_f64(random.next_u64() as f64 / u64::MAX as f64);
        let killed = kill_after(&mut child, delay)?;
        cut_lines += count_notes(&stderr, "unfinished last line")?;
        let (games, cut) = check_lines(&soaked)?;
        if killed {
            kills += 1;
            outln!(
                "  kill {kills} after {:.2} s: {games} games in the record{}",
                delay.as_secs_f64(),
                if cut { ", the last line cut short" } else { "" }
            );
        } else {
            outln!("  run {} ended before its kill: {games} games", run + 1);
            break;
        }
    }
    let stderr = dir.join("final.stderr");
    let output = resume_command(&exe, &soaked)
        .stderr(File::create(&stderr)?)
        .output()?;
    if !output.status.success() {
        bail!(
            "the last resume failed ({}); see {}",
            output.status,
            stderr.display()
        );
    }
    cut_lines += count_notes(&stderr, "unfinished last line")?;
    let final_table = standings_table(&String::from_utf8_lossy(&output.stdout))?;

    let mut problems = Vec::new();
    let (_, cut) = check_lines(&soaked)?;
    if cut {
        problems.push("the record ends with an unfinished line".to_string());
    }
    let games = read_games(&soaked)?;
    let mut seen = HashSet::new();
    let repeated: Vec<usize> = games
        .iter()
        .filter(|g| !seen.insert(g.game))
        .map(|g| g.game + 1)
        .collect();
    if !repeated.is_empty() {
        problems.push(format!("games recorded more than once: {repeated:?}"));
    }
    let missing: Vec<usize> = (0..reference_games.len())
        .filter(|game| !seen.contains(game))
        .map(|game| game + 1)
        .collect();
    if !missing.is_empty() {
        problems.push(format!("games missing: {missing:?}"));
    }
    if games.len() != reference_games.len() {
        problems.push(format!(
            "{} games recorded, {} scheduled",
            games.len(),
            reference_games.len()
        ));
    }
    let differing: Vec<usize> = sorted_without_times(&games)
        .iter()
        .zip(sorted_without_times(&reference_games))
        .filter(|(soaked, reference)| **soaked != *reference)
        .map(|(soaked, _)| soaked.game + 1)
        .collect();
    if !differing.is_empty() {
        problems.push(format!(
            "games played differently from the uninterrupted run: {differing:?}"
        ));
    }
    let same_standings = match (standings(&games), standings(&reference_games)) {
        (Ok(soaked), Ok(reference)) => soaked == reference && final_table == reference_table,
        _ => false,
    };
    if !same_standings {
        problems.push("the standings differ from those of the uninterrupted run".to_string());
    }

    outln!(
        "soak: {kills} kills, {cut_lines} unfinished lines dropped on resume, {} of {} games \
         recorded, {} repeated, {} missing",
        games.len(),
        reference_games.len(),
        repeated.len(),
        missing.len()
    );
    outln!("{final_table}");
    if !problems.is_empty() {
        for problem in &problems {
            outln!("MISMATCH: {problem}");
        }
        bail!(
            "the soak found {} mismatches; the records are in {}",
            problems.len(),
            dir.display()
        );
    }
    outln!("soak passed: exactly the scheduled games, standings equal to the uninterrupted run");
    if args.dir.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(())
}

fn resume_command(exe: &Path, record: &Path) -> Command {
    let mut command = Command::new(exe);
    command
        .args(["tournament", "--concurrency", "2", "--resume"])
        .arg(record);
    command
}

/// Starts `command` with its output discarded and its standard error in `stderr`.
fn spawn(mut command: Command, stderr: &Path) -> Result<Child> {
    Ok(command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(File::create(stderr)?)
        .spawn()?)
}

/// Waits until the record at `path` has its header line (or the child has ended).
fn wait_for_header(path: &Path, child: &mut Child) -> Result<()> {
    let started = Instant::now();
    loop {
        if read_file(path, MAX_RECORD_BYTES).is_ok_and(|bytes| bytes.contains(&b'\n')) {
            return Ok(());
        }
        if let Some(status) = child.try_wait()? {
            bail!("the tournament ended ({status}) before writing its record");
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            bail!("the tournament wrote no record within 60 s");
        }
        thread::sleep(Duration::from_millis(1));
    }
}

/// Kills `child` with SIGKILL once `delay` has passed; false if it ended on its own before.
fn kill_after(child: &mut Child, delay: Duration) -> Result<bool> {
    let deadline = Instant::now() + delay;
    loop {
        if let Some(status) = child.try_wait()? {
            if !status.success() {
                bail!("a resumed tournament failed ({status})");
            }
            return Ok(false);
        }
        let now = Instant::now();
        if now >= deadline {
            break;
        }
        thread::sleep((deadline - now).min(Duration::from_millis(2)));
    }
    child.kill()?; // SIGKILL on Unix
    child.wait()?;
    Ok(true)
}

/// Lines of the file at `stderr` that contain `note`.
fn count_notes(stderr: &Path, note: &str) -> Result<usize> {
    let text = read_text_file(stderr, MAX_RECORD_BYTES).unwrap_or_default();
    Ok(text.lines().filter(|line| line.contains(note)).count())
}

/// Checks that every complete line of the record after its header is a game record; returns
/// how many there are and whether the file ends with an unfinished line (which resume drops).
fn check_lines(path: &Path) -> Result<(usize, bool)> {
    let bytes = read_file(path, MAX_RECORD_BYTES)?;
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let text = std::str::from_utf8(&bytes[..complete])
        .with_context(|| format!("{} is not UTF-8", path.display()))?;
    let mut games = 0;
    for (index, line) in text.lines().enumerate().skip(1) {
        serde_json::from_str::<GameRecord>(line).with_context(|| {
            format!(
                "{}, line {}: a complete line that is not a game record",
                path.display(),
                index + 1
            )
        })?;
        games += 1;
    }
    Ok((games, complete < bytes.len()))
}

/// Every game line of the record, as written (repeats included).
fn read_games(path: &Path) -> Result<Vec<GameRecord>> {
    let text = read_text_file(path, MAX_RECORD_BYTES)?;
    text.lines()
        .skip(1)
        .enumerate()
        .map(|(index, line)| {
            serde_json::from_str(line)
                .with_context(|| format!("{}, line {}", path.display(), index + 2))
        })
        .collect()
}

/// The games in schedule order, without the move times (which differ run to run).
fn sorted_without_times(games: &[GameRecord]) -> Vec<GameRecord> {
    let mut games: Vec<GameRecord> = games
        .iter()
        .map(|game| GameRecord {
            move_ms: Vec::new(),
            ..game.clone()
        })
        .collect();
    games.sort_by_key(|game| game.game);
    games
}

/// The standings table of the soak's players under the cx scheme.
fn standings(games: &[GameRecord]) -> Result<String> {
    let names = ["engine", "quasi", "random"];
    Ok(Standings::compute(&names, &sorted_without_times(games), Scoring::Cx)?.table())
}

/// The standings table a tournament prints: from its `Rank` line to the blank line after it.
fn standings_table(stdout: &str) -> Result<String> {
    let Some(start) = stdout.find("Rank ") else {
        bail!("the tournament printed no standings");
    };
    let table = &stdout[start..];
    Ok(table[..table.find("\n\n").unwrap_or(table.len())].to_string())
}
