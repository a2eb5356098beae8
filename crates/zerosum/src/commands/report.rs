//! `zerosum report RECORD [--svg DIR]`: the standings of a record and its charts as SVG files
//! (standings with Elo error bars, Elo against games played, the score of each pair, time used
//! per move), drawn by `zerosum_arena::statistics::report`.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use zerosum_arena::statistics::report::report as draw;
use zerosum_arena::Scoring;

/// Options of `zerosum report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The record (the JSON lines a match or tournament writes).
    record: PathBuf,
    /// Folder of the charts (default: the record's), named RECORD-standings.svg,
    /// RECORD-elo.svg, RECORD-pairs.svg and RECORD-move-times.svg.
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    /// Scoring scheme of the ranking, cx or mnk (default: the record's).
    #[arg(long)]
    scoring: Option<Scoring>,
}

/// `zerosum report RECORD [--svg DIR] [--scoring S]`
pub fn report(args: &ReportArgs) -> Result<()> {
    let shown = args.record.display();
    let merged = super::merge::read_one(&args.record)?;
    let scoring = match args.scoring {
        Some(scoring) => scoring,
        None => merged.settings.scoring_scheme()?,
    };
    let report =
        draw(&merged.games, scoring).map_err(|error| anyhow::anyhow!("{shown}: {error}"))?;
    let (dir, stem) = super::files::files_beside(&args.record, args.svg.as_deref(), "record")?;
    let mut written = Vec::new();
    for (name, svg) in &report.charts {
        let path = dir.join(format!("{stem}-{name}.svg"));
        std::fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))?;
        written.push(path.display().to_string());
    }
    outln!("{}", report.standings.table());
    outln!("wrote {} charts: {}", written.len(), written.join(", "));
    Ok(())
}
