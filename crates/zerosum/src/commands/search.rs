//! `zerosum search` (the answers: `zerosum_arena::answers::search`; iterative deepening with an info line per iteration, after what the
//! game's exact oracle proves where it has one) and `zerosum analyze` (the value of every
//! legal move).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Result};
use zerosum_arena::answers::{self, EngineSettings, SearchEvent};
use zerosum_search::{check_table_mb, Algorithm, SearchLimits, Threads, MAX_TABLE_MB};

use super::depth_chart::{self, Iteration};
use super::parse_spec;

/// Checks a `--hash` size: at least 1 MB, and no more than the machine can hold (half of its
/// physical memory, see [`check_table_mb`]).
pub fn check_hash(mb: usize) -> Result<()> {
    if mb == 0 {
        bail!("--hash must be between 1 and {MAX_TABLE_MB} MB, not 0");
    }
    check_table_mb(mb, 1).map_err(|error| anyhow::anyhow!("--hash: {error}"))
}

/// Limits and settings shared by `search` and `analyze`.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    pub time: Option<f64>,
    pub depth: Option<usize>,
    pub nodes: Option<u64>,
    pub hash_mb: usize,
    pub algorithm: Algorithm,
    pub threads: Threads,
    /// The evaluation by name; the game's default when `None`.
    pub eval: Option<String>,
    /// A weights file for the evaluation.
    pub weights: Option<String>,
}

impl EngineOptions {
    /// The library's engine settings: these options with `limits` (checked by
    /// [`EngineOptions::limits`]).
    fn settings(&self, limits: SearchLimits) -> EngineSettings {
        EngineSettings {
            limits,
            hash_mb: self.hash_mb,
            algorithm: self.algorithm,
            eval: self.eval.clone(),
            weights: self.weights.clone(),
        }
    }

    /// Checks the options and turns them into search limits; with no limit at all, one
    /// second.
    pub fn limits(&self) -> Result<SearchLimits> {
        check_hash(self.hash_mb)?;
        let time = match self.time {
            Some(t) if !(t.is_finite() && t > 0.0 && t <= 1e6) => {
                bail!("--time must be a positive number of seconds, not {t}")
            }
            Some(t) => Some(Duration::from_secs_f64(t)),
            None if self.depth.is_none() && self.nodes.is_none() => Some(Duration::from_secs(1)),
            None => None,
        };
        if let Some(depth) = self.depth {
            if !(1..=250).contains(&depth) {
                bail!("--depth must be between 1 and 250, not {depth}");
            }
        }
        if self.nodes == Some(0) {
            bail!("--nodes must be at least 1");
        }
        Ok(SearchLimits {
            depth: self.depth,
            nodes: self.nodes,
            time,
            stop: None,
            threads: self.threads,
        })
    }
}

/// `zerosum search SPEC [--moves LIST] [--time S | --depth D | --nodes N] [--hash MB] [--algo A]
/// [--threads N] [--svg FILE]`; with `svg`, the nodes and time of each iteration are drawn
/// there. Prints what the game's exact oracle (Connect-X: the opening book, then the solver)
/// proves within the share of the limits the engine gives it in play, an info line per
/// iteration, and `bestmove M score S depth D nodes N time T`: D the last info line's depth,
/// M and S the proof's where it settles the move or overrules the search's (then the line
/// ends `(exact: ...)`), an unproven evaluation ending `(evaluation, not proven)`.
pub fn search(spec: &str, moves: &str, options: &EngineOptions, svg: Option<&Path>) -> Result<()> {
    let limits = options.limits()?;
    SearchCommand {
        spec: spec.to_string(),
        moves: moves.to_string(),
        options: options.clone(),
        limits,
        svg: svg.map(Path::to_path_buf),
    }
    .run()
}

struct SearchCommand {
    spec: String,
    moves: String,
    options: EngineOptions,
    limits: SearchLimits,
    svg: Option<PathBuf>,
}

impl SearchCommand {
    fn run(self) -> Result<()> {
        let spec = parse_spec(&self.spec)?;
        let settings = self.options.settings(self.limits.clone());
        let mut out = crate::output::stdout();
        let mut iterations = Vec::new();
        let answer = answers::search(&spec, &self.moves, &settings, &mut |event| match event {
            SearchEvent::Proof(line) => {
                let _ = writeln!(out, "{line}");
            }
            SearchEvent::Iteration(iteration) => {
                iterations.push(Iteration {
                    depth: iteration.depth,
                    nodes: iteration.nodes,
                    time: iteration.time,
                });
                let _ = writeln!(out, "{}", iteration.line);
            }
        })?;
        writeln!(
            out,
            "bestmove {} score {} depth {} nodes {} time {:.3}{}",
            answer.best_move,
            answer.score,
            answer.depth,
            answer.nodes,
            answer.time.as_secs_f64(),
            answer.source
        )?;
        if let Some(path) = &self.svg {
            let name = match self.moves.as_str() {
                "" => self.spec.clone(),
                moves => format!("{} after {moves}", self.spec),
            };
            depth_chart::write(path, &format!("search {name}"), &[(name, iterations)])?;
        }
        Ok(())
    }
}

/// `zerosum analyze SPEC --moves LIST [limits]`: searches the position after each legal move
/// and prints the moves best first.
pub fn analyze(spec: &str, moves: &str, options: &EngineOptions) -> Result<()> {
    let settings = options.settings(options.limits()?);
    let values = answers::analyze(&parse_spec(spec)?, moves, &settings)?;
    let mut out = crate::output::stdout();
    for value in values {
        writeln!(out, "{} {}", value.mv, value.score)?;
    }
    Ok(())
}
