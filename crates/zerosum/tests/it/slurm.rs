//! `zerosum slurm` on a real one-node Slurm cluster (started by contrib/slurm/local-cluster.sh,
//! as root): a tournament in four shards, one of them cancelled midway and resubmitted, merges
//! to the tournament of one run, game by game.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::shards::{games_by_index, run, standings};
use crate::support::{scratch, text};

/// The cluster's state folder (its configuration, logs and the daemons' pid files).
const STATE: &str = "/tmp/zerosum-slurm-test";

/// A tournament whose shards take a second or two each: node-limited engines on Connect Four.
const TOURNAMENT: &[&str] = &[
    "tournament",
    "--players",
    "engine:nodes=60000,name=engine",
    "engine:nodes=15000,name=small",
    "quasi",
    "--games",
    "connect4",
    "--rounds",
    "8",
    "--st",
    "30",
    "--seed",
    "3",
];

/// The one-node cluster, stopped when dropped.
struct Cluster {
    script: PathBuf,
}

impl Cluster {
    fn start() -> Cluster {
        let script =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../contrib/slurm/local-cluster.sh");
        let output = Command::new(&script)
            .args(["start", STATE])
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "the cluster did not start: {}{}",
            text(&output.stdout),
            text(&output.stderr)
        );
        Cluster { script }
    }

    /// A Slurm command, run on this cluster; its standard output (it must succeed).
    fn command(&self, program: &str, args: &[&str]) -> String {
        let output = Command::new(program)
            .args(args)
            .env("SLURM_CONF", format!("{STATE}/slurm.conf"))
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{program} {args:?}: {}",
            text(&output.stderr)
        );
        text(&output.stdout)
    }

    /// Waits until every task of job `id` has ended (a generous watchdog: 3 minutes); their
    /// states.
    fn wait(&self, id: &str) -> Vec<String> {
        let started = Instant::now();
        loop {
            let states: Vec<String> = self
                .command("squeue", &["-h", "-t", "all", "-j", id, "-o", "%T"])
                .lines()
                .map(String::from)
                .collect();
            let over = [
                "PENDING",
                "RUNNING",
                "CONFIGURING",
                "COMPLETING",
                "SUSPENDED",
            ];
            if !states.is_empty() && states.iter().all(|s| !over.contains(&s.as_str())) {
                return states;
            }
            assert!(
                started.elapsed() < Duration::from_secs(180),
                "job {id} did not end in 3 minutes: {states:?}\n{}",
                self.command("squeue", &["-t", "all"])
            );
            sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(&self.script).args(["stop", STATE]).output();
    }
}

/// The job id after `label` (`shards: job 12 ...`) in `zerosum slurm`'s output.
fn job(out: &str, label: &str) -> String {
    out.lines()
        .find_map(|line| line.strip_prefix(label))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no `{label}` line: {out}"))
        .to_string()
}

/// Complete game lines in a record (0 when it does not exist yet).
fn game_lines(record: &Path) -> usize {
    std::fs::read_to_string(record).map_or(0, |text| text.matches('\n').count().saturating_sub(1))
}

#[test]
#[cfg_attr(
    zerosum_no_slurm,
    ignore = "needs Slurm: slurm-wlm and munge installed, and root to start a local cluster"
)]
fn four_slurm_shards_with_one_killed_and_resubmitted_merge_to_the_tournament_of_one_run() {
    let cluster = Cluster::start();
    let dir = scratch("slurm", "shards");
    let one = dir.join("one.jsonl");
    let one_run = run(&[TOURNAMENT, &["--record", one.to_str().unwrap()]].concat());

    let jobs = dir.join("jobs");
    let mut args = vec!["slurm", "--shards", "4", "--dir", jobs.to_str().unwrap()];
    args.extend(TOURNAMENT);
    let output = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(&args)
        .env("SLURM_CONF", format!("{STATE}/slurm.conf"))
        .output()
        .unwrap();
    let submitted = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let (shards, merge) = (
        job(&submitted, "shards: job "),
        job(&submitted, "merge: job "),
    );

    // Shard 0 is cancelled as soon as its first game is in its record.
    let record = jobs.join("shard-0.jsonl");
    let started = Instant::now();
    while game_lines(&record) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "shard 0 never played"
        );
        sleep(Duration::from_millis(5));
    }
    cluster.command("scancel", &[&format!("{shards}_0")]);
    let states = cluster.wait(&shards);
    assert!(states.contains(&"CANCELLED".to_string()), "{states:?}");
    let log = std::fs::read_to_string(jobs.join("shard-0.log")).unwrap();
    let shard_games: usize = log
        .lines()
        .find_map(|line| line.strip_prefix("shard 0/4: "))
        .and_then(|rest| rest.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{log}"));
    let kept = game_lines(&record);
    assert!(
        (1..shard_games).contains(&kept),
        "shard 0 was not killed midway: {kept} of {shard_games} games"
    );
    // The merge job runs once every task has ended, and names the games shard 0 did not play.
    assert_eq!(cluster.wait(&merge), ["COMPLETED"]);
    let first_merge = std::fs::read_to_string(jobs.join("merge.log")).unwrap();
    assert!(
        first_merge.contains(" of 48 games missing, in shard 0 of 4: "),
        "{first_merge}"
    );

    // Resubmitted, shard 0 resumes its record; merged again, the tournament is whole.
    let script = jobs.join("shards.sh");
    let again = cluster.command(
        "sbatch",
        &["--parsable", "--array=0", script.to_str().unwrap()],
    );
    let again = again.trim().split(';').next().unwrap().to_string();
    let dependency = format!("--dependency=afterany:{again}");
    let merge_script = jobs.join("merge.sh");
    let merge = cluster.command(
        "sbatch",
        &["--parsable", &dependency, merge_script.to_str().unwrap()],
    );
    assert_eq!(cluster.wait(merge.trim()), ["COMPLETED"]);
    let log = std::fs::read_to_string(jobs.join("shard-0.log")).unwrap();
    assert!(
        log.contains(&format!("{kept} of 48 games already played")),
        "{log}"
    );
    let merged = std::fs::read_to_string(jobs.join("merge.log")).unwrap();
    assert!(!merged.contains("missing"), "{merged}");
    assert_eq!(standings(&merged), standings(&one_run));
    assert_eq!(
        games_by_index(&jobs.join("merged.jsonl")),
        games_by_index(&one)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
