//! `zerosum merge`: the records of a tournament's shards (`--shard K/N`, played on several
//! machines) read as one tournament, printed exactly as one run prints it. It can run while
//! the shards play: an SPRT match reads its current state.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use zerosum_arena::run::write_ranking;
use zerosum_arena::statistics::judge::MatchJudge;
use zerosum_arena::{merge_records, MergedRecords, RecordWriter};

use super::results::print_standings;

/// Options of `zerosum merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The records of the shards (any order; shards still playing are read as far as they
    /// are).
    #[arg(required = true, value_name = "RECORD")]
    records: Vec<PathBuf>,
    /// Also write the merged games as one record (in schedule order), its ranking next to it.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

/// The games of one record, read and checked as `merge` (and `--resume`) read them: a repeated
/// line or an unfinished last one dropped with a warning, every game checked against the
/// schedule and replayed.
pub fn read_one(record: &Path) -> Result<MergedRecords> {
    let merged = merge_records(&[record.to_path_buf()])?;
    for note in &merged.notes {
        errln!("warning: {note}");
    }
    Ok(merged)
}

/// `zerosum merge`.
pub fn merge(args: &MergeArgs) -> Result<()> {
    let merged = merge_records(&args.records)?;
    for note in &merged.notes {
        errln!("warning: {note}");
    }
    let total = merged.tournament.games.len();
    errln!(
        "{} records: {} of {} games",
        args.records.len(),
        merged.games.len(),
        total
    );
    let scoring = merged.settings.scoring_scheme()?;
    let sprt = merged.settings.sprt_params()?;
    let names: Vec<String> = (merged.tournament.entrants.iter())
        .map(|entrant| entrant.name.clone())
        .collect();
    // The test sees the games in schedule order, as one run playing one game at a time.
    let mut judge = MatchJudge::new(names.len(), sprt, scoring);
    for record in &merged.games {
        judge.add(record);
    }
    let standings = print_standings(&names, &merged.games, scoring)?;
    let decided = judge.decided.is_some();
    if let Some(status) = judge.verdict() {
        if decided || merged.missing.is_empty() {
            outln!("{}", status.verdict());
        } else {
            // Games are still to come: the test's state so far, not a verdict.
            outln!("{status}");
        }
    }
    if !merged.missing.is_empty() {
        let shards = merged
            .missing_shards()
            .map(|shards| format!(", {shards}"))
            .unwrap_or_default();
        outln!(
            "{} of {total} games missing{shards}: {}",
            merged.missing.len(),
            merged.missing_text(12),
        );
        outln!(
            "{}",
            if decided {
                "the test has decided: stop the shards still playing (on Slurm: scancel JOBID)"
            } else {
                "(shards still playing, or to resume with --resume)"
            }
        );
    }
    if let Some(path) = &args.record {
        let mut writer = RecordWriter::create(path, &merged.settings, None, None)?;
        for record in &merged.games {
            writer.append(record)?;
        }
        let ranking = write_ranking(path, &standings)?;
        outln!("record: {}", path.display());
        outln!("ranking: {}", ranking.display());
    }
    Ok(())
}
