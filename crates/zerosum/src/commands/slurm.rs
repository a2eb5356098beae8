//! `zerosum slurm`: a `tournament` or `match` cut into shards that run as one Slurm job array
//! (`sbatch --array=0-(N-1)`, each task one `--shard K/N`), and a job that merges their records
//! once every task has ended (`--dependency=afterany:`). A task run again resumes its shard's
//! record, so a killed or failed task is resubmitted with `sbatch --array=K shards.sh`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use clap::Args;
use zerosum_arena::run::{timestamp, RUNS_DIR};

use super::arena::shard_plan;

/// Options of `zerosum slurm`.
#[derive(Args, Debug)]
pub struct SlurmArgs {
    /// Number of shards: array tasks 0 to N-1.
    #[arg(long, value_name = "N")]
    shards: usize,
    /// The folder for the job scripts, the shards' records and logs and the merged record
    /// (default: a new zerosum-runs/slurm-<date>-<time>); it must be seen by every node.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// An option for both jobs' `#SBATCH` lines, e.g. --sbatch=--partition=short
    /// --sbatch=--time=4:00:00 (repeat it).
    #[arg(long, value_name = "OPTION", allow_hyphen_values = true)]
    sbatch: Vec<String>,
    /// Write the job scripts without submitting them.
    #[arg(long)]
    no_submit: bool,
    /// The run to shard: `tournament ...` or `match ...` with its options.
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "tournament|match OPTIONS"
    )]
    run: Vec<String>,
}

/// `zerosum slurm`.
pub fn slurm(args: &SlurmArgs) -> Result<()> {
    let shard_limit = zerosum_arena::shard::MAX_SHARDS;
    if !(1..=shard_limit).contains(&args.shards) {
        bail!(
            "--shards must be between 1 and {shard_limit}, not {}",
            args.shards
        );
    }
    let plan = shard_plan(&args.run)?;
    let mut run = args.run.clone();
    if !plan.seeded {
        // Every shard must play the same tournament: one seed for all.
        run.extend(["--seed".to_string(), plan.settings.seed.to_string()]);
    }
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| Path::new(RUNS_DIR).join(format!("slurm-{}", timestamp())));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let dir = std::fs::canonicalize(&dir)?;
    let shards_script = dir.join("shards.sh");
    if shards_script.exists() {
        bail!(
            "{} already holds a sharded run: resubmit its shards (sbatch --array=K {}), or give \
             another --dir",
            dir.display(),
            shards_script.display()
        );
    }
    let program = std::env::current_exe().context("cannot find this program")?;
    let scripts = Scripts {
        program: &program,
        dir: &dir,
        workdir: &std::env::current_dir()?,
        sbatch: &args.sbatch,
    };
    let merge_script = dir.join("merge.sh");
    write_script(
        &shards_script,
        &scripts.shards(&run, args.shards, plan.concurrency),
    )?;
    write_script(&merge_script, &scripts.merge())?;
    let shards_glob = format!("{}/shard-*.jsonl", dir.display());
    outln!(
        "{} games in {} shards: {}",
        plan.settings.prepare_for_records()?.games.len(),
        args.shards,
        shards_script.display()
    );
    if args.no_submit {
        outln!(
            "submit: id=$(sbatch --parsable {}) && sbatch --dependency=afterany:$id {}",
            shards_script.display(),
            merge_script.display()
        );
        return Ok(());
    }
    let shards_job = submit(&[shards_script.as_os_str().to_str().unwrap_or_default()])?;
    let dependency = format!("--dependency=afterany:{shards_job}");
    let merge_job = submit(&[&dependency, merge_script.to_str().unwrap_or_default()])?;
    let notes = format!(
        "shards: job {shards_job} (array tasks 0-{last}), logs {dir}/shard-K.log\n\
         merge: job {merge_job}, once every task has ended: {dir}/merge.log, {dir}/merged.jsonl\n\
         standings (and an SPRT's state) at any time: {program} merge {shards_glob}\n\
         stop: scancel {shards_job}\n\
         a task killed or failed: sbatch --array=K {script} resumes shard K; then sbatch \
         --dependency=afterany:JOBID {merge}\n",
        last = args.shards - 1,
        dir = dir.display(),
        program = program.display(),
        script = shards_script.display(),
        merge = merge_script.display(),
    );
    let notes = match plan.settings.sprt {
        Some(_) => format!(
            "{notes}stop the shards once the SPRT decides: while sleep 60 && squeue -h -j \
             {shards_job} | grep -q .; do {program} merge {shards_glob} | grep -q '^SPRT \
             verdict: H' && scancel {shards_job}; done\n",
            program = program.display(),
        ),
        None => notes,
    };
    out!("{notes}");
    std::fs::write(dir.join("jobs.txt"), notes)?;
    Ok(())
}

/// What the job scripts are made of.
struct Scripts<'a> {
    /// This zerosum (the nodes must see the same path).
    program: &'a Path,
    /// The folder of the run (absolute).
    dir: &'a Path,
    /// Where the jobs run (relative paths of the run's options are read from there).
    workdir: &'a Path,
    /// Extra `#SBATCH` options.
    sbatch: &'a [String],
}

impl Scripts<'_> {
    /// The `#SBATCH` lines of a job named `name` logging to `log`.
    fn header(&self, name: &str, log: &str, extra: &[String]) -> String {
        let mut text = format!(
            "#!/bin/bash\n#SBATCH --job-name={name}\n#SBATCH --output={}/{log}\n\
             #SBATCH --chdir={}\n",
            self.dir.display(),
            self.workdir.display()
        );
        for option in extra.iter().chain(self.sbatch) {
            let _ = writeln!(text, "#SBATCH {option}");
        }
        text
    }

    /// The array job: task K starts shard K of `count` of `run`, or resumes its record.
    fn shards(&self, run: &[String], count: usize, concurrency: usize) -> String {
        let mut text = self.header(
            "zerosum-shards",
            "shard-%a.log",
            &[
                format!("--array=0-{}", count - 1),
                format!("--cpus-per-task={concurrency}"),
            ],
        );
        let program = quote(&self.program.display().to_string());
        let command: Vec<String> = run.iter().map(|word| quote(word)).collect();
        let _ = write!(
            text,
            "# Written by `zerosum slurm`. Task K plays shard K/{count} into shard-K.jsonl; run \
             again (sbatch --array=K\n\
             # this script), it resumes that record.\n\
             set -eu\n\
             shard=${{SLURM_ARRAY_TASK_ID:?submit this script with sbatch}}\n\
             record={dir}/shard-$shard.jsonl\n\
             # A record killed before its first line was written holds nothing: start again.\n\
             if [ -e \"$record\" ] && [ \"$(wc -l < \"$record\")\" -eq 0 ]; then rm -f -- \"$record\"; fi\n\
             if [ -e \"$record\" ]; then\n\
             \x20 exec {program} {subcommand} --resume \"$record\" --concurrency {concurrency}\n\
             fi\n\
             exec {program} {command} --shard \"$shard/{count}\" --record \"$record\"\n",
            dir = quote(&self.dir.display().to_string()),
            subcommand = command[0],
            command = command.join(" "),
        );
        text
    }

    /// The merge job: every shard record there is, merged into merged.jsonl.
    fn merge(&self) -> String {
        let mut text = self.header("zerosum-merge", "merge.log", &[]);
        let dir = quote(&self.dir.display().to_string());
        let _ = write!(
            text,
            "# Written by `zerosum slurm`: merges the shards' records (submit it again after a \
             resubmitted shard).\n\
             set -eu\n\
             rm -f -- {dir}/merged.jsonl {dir}/merged.ranking.txt\n\
             exec {} merge {dir}/shard-*.jsonl --record {dir}/merged.jsonl\n",
            quote(&self.program.display().to_string())
        );
        text
    }
}

/// `word` as one shell word: in single quotes unless it is plain.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Writes an executable script.
fn write_script(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

/// Submits with `sbatch --parsable ARGS` and returns the job id.
fn submit(args: &[&str]) -> Result<String> {
    let output = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .context(
            "cannot run sbatch (is this a Slurm login node? --no-submit writes the scripts only)",
        )?;
    if !output.status.success() {
        bail!(
            "sbatch {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let id = text.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() {
        bail!("sbatch {} printed no job id", args.join(" "));
    }
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_for_the_shell_only_when_needed() {
        assert_eq!(quote("engine:nodes=100,name=a"), "engine:nodes=100,name=a");
        assert_eq!(quote("my bot"), "'my bot'");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
    }
}
