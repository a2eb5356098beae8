//! `zerosum report RECORD [--svg DIR]`: the standings of a record and its charts as SVG files
//! (standings with Elo error bars, Elo against games played, the score of each pair, time used
//! per move), drawn by `zerosum_arena::report`.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use zerosum_arena::export::read_records;
use zerosum_arena::report::report as draw;
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
    /// Scoring scheme of the ranking, cx or mnk (default: the record's, else cx).
    #[arg(long)]
    scoring: Option<Scoring>,
}

/// The scoring scheme in the record's header line, if it has one that names a known scheme.
fn header_scoring(path: &Path) -> Option<Scoring> {
    let file = std::fs::File::open(path).ok()?;
    let mut line = String::new();
    // A header is short: a longer first line is no header.
    BufReader::new(file)
        .take(1 << 20)
        .read_line(&mut line)
        .ok()?;
    let header: serde_json::Value = serde_json::from_str(&line).ok()?;
    header.get("zerosum_record")?;
    header["settings"]["scoring"].as_str()?.parse().ok()
}

/// `zerosum report RECORD [--svg DIR] [--scoring S]`
pub fn report(args: &ReportArgs) -> Result<()> {
    let shown = args.record.display();
    let records = read_records(&args.record)?;
    let scoring = args
        .scoring
        .or_else(|| header_scoring(&args.record))
        .unwrap_or(Scoring::Cx);
    let report = draw(&records, scoring).map_err(|error| anyhow::anyhow!("{shown}: {error}"))?;
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
