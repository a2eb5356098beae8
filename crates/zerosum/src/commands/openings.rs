//! `zerosum openings`: writes an opening suite (see `zerosum_arena::openings::generate`).

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use zerosum_arena::openings::generate::{generate, Judge, SuiteOptions};

use super::parse_spec;

/// Options of `zerosum openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// Game spec.
    spec: String,
    /// Moves in each opening.
    #[arg(long)]
    plies: usize,
    /// Openings wanted.
    #[arg(long)]
    count: usize,
    /// Keep only openings close to even: on Connect-X boards the solver fits, |Pons score| <=
    /// threshold (default 2: a draw or a win in the last moves); elsewhere a fixed-depth
    /// search's evaluation within +/- threshold, no proven result.
    #[arg(long)]
    balanced: bool,
    /// The judge's threshold (Pons score, or evaluation units; defaults per game).
    #[arg(long, requires = "balanced", allow_negative_numbers = true)]
    threshold: Option<i32>,
    /// The judge's search depth (not for the solver; defaults per game).
    #[arg(long, requires = "balanced")]
    depth: Option<usize>,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the suite here instead of to standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// `zerosum openings SPEC --plies N --count C [--balanced] [--seed S] [--out FILE]`.
pub fn openings(args: &OpeningsArgs) -> Result<()> {
    let spec = parse_spec(&args.spec)?;
    if args.threshold.is_some_and(|t| t < 0) {
        anyhow::bail!("--threshold must be at least 0");
    }
    let judge = args
        .balanced
        .then(|| Judge::default_for(&spec).with(args.threshold, args.depth));
    let options = SuiteOptions {
        plies: args.plies,
        count: args.count,
        seed: args.seed,
        judge,
    };
    let suite = generate(&spec, &options).map_err(anyhow::Error::msg)?;
    if suite.lines.len() < args.count {
        eprintln!(
            "warning: only {} of {} openings found ({} distinct positions tried)",
            suite.lines.len(),
            args.count,
            suite.judged
        );
    }
    match &args.out {
        Some(path) => std::fs::write(path, suite.text())
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{}", suite.text()),
    }
    eprintln!(
        "{} openings of {} distinct positions",
        suite.lines.len(),
        suite.judged
    );
    Ok(())
}
