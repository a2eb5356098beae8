//! `zerosum solve`: exact values, printed (the solvers: `zerosum_arena::answers::solve`). Connect-X boards that fit a packed bit board go to the
//! Pons-style solver and get its exact score (Connect Four from the embedded opening book when
//! the book has every move's value); Hex positions to the proof-number solver (win or loss,
//! with virtual connections and inferior cells), but for the first two moves under a swap rule;
//! every other game goes to the generic solver, which under `--time`/`--nodes` deepens a
//! horizon and ends with the best bound it proved.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use zerosum_arena::answers::{
    count, ExactEngine, SolveAnswer, SolveLimits, SolveMeter, SolveSettings, SolveWatch,
};
use zerosum_core::capped_read::CappedLines;

use super::parse_spec;
use super::search::check_hash;
use super::solve_progress::Progress;

/// Longest line of positions read from standard input: 1 MiB.
const MAX_POSITION_LINE_BYTES: u64 = 1 << 20;

/// How `zerosum solve` searches.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Win, draw or loss only.
    pub weak: bool,
    pub hash_mb: usize,
    /// Threads of the Connect-X solver (the generic solver has one).
    pub threads: usize,
    /// Seconds before giving up with what is proven (each position of `--stdin`).
    pub time: Option<f64>,
    /// Nodes before giving up with what is proven (each position of `--stdin`).
    pub nodes: Option<u64>,
}

impl SolveOptions {
    /// The limits of one position's solve, checked; `None` when there is none.
    fn limits(&self) -> Result<Option<SolveLimits>> {
        let time = match self.time {
            Some(t) if !(t.is_finite() && t > 0.0 && t <= 1e6) => {
                bail!("--time must be a positive number of seconds, not {t}")
            }
            time => time.map(Duration::from_secs_f64),
        };
        if self.nodes == Some(0) {
            bail!("--nodes must be at least 1");
        }
        Ok(
            (time.is_some() || self.nodes.is_some()).then_some(SolveLimits {
                time,
                nodes: self.nodes,
            }),
        )
    }
}

/// `zerosum solve SPEC [--moves LIST] [--weak] [--hash MB] [--threads N] [--time S] [--nodes
/// N]`; with `moves` absent (`--stdin`), one position per line from standard input (the first
/// word of a line is its move list; the rest, such as an expected score, is ignored), printing
/// `position score` per line and stopping at the first line that is not a position. A position
/// not solved within the limits prints what was proven instead (`unproved` per line with
/// `--stdin`). Progress goes to standard error: a live line on a terminal, else a plain line
/// now and then.
pub fn solve(spec: &str, moves: Option<&str>, options: &SolveOptions) -> Result<()> {
    check_hash(options.hash_mb)?;
    let limits = options.limits()?;
    let spec = parse_spec(spec)?;
    let settings = SolveSettings {
        weak: options.weak,
        hash_mb: options.hash_mb,
        threads: options.threads,
        limits,
    };
    let mut engine = ExactEngine::new(&spec, &settings);
    let mut out = crate::output::stdout();
    if let Some(moves) = moves {
        match solve_one(&mut engine, moves, true)? {
            SolveAnswer::Solved(answer) => {
                writeln!(out, "score {}", answer.score)?;
                writeln!(out, "value {}", answer.meaning)?;
                writeln!(out, "best {}", answer.best_moves.join(" "))?;
            }
            SolveAnswer::Unsolved(line) => writeln!(out, "{line}")?,
        }
        return Ok(());
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        errln!("reading positions, one per line (end with Ctrl-D)");
    }
    let mut lines = CappedLines::new(stdin.lock(), MAX_POSITION_LINE_BYTES);
    while let Some(line) = lines
        .next_line()
        .map_err(|problem| anyhow!("standard input: {problem}"))?
    {
        let line = String::from_utf8_lossy(&line.bytes);
        let Some(position) = line.split_whitespace().next() else {
            continue;
        };
        let answer = solve_one(&mut engine, position, false)
            .with_context(|| format!("line {}", lines.count()))?;
        match answer {
            SolveAnswer::Solved(answer) => writeln!(out, "{position} {}", answer.score)?,
            SolveAnswer::Unsolved(_) => writeln!(out, "{position} unproved")?,
        }
    }
    Ok(())
}

/// Shows a solve's progress on standard error when asked to (a live line on a terminal, else
/// a plain line now and then; the proof-number search's nodes and time at its end).
struct Shown {
    show: bool,
    progress: Option<Progress>,
}

impl SolveWatch for Shown {
    fn started(&mut self, meter: SolveMeter) {
        if !self.show {
            return;
        }
        self.progress = Some(match meter {
            SolveMeter::Deepening {
                meter,
                start,
                deepening,
            } => Progress::start(meter, start, deepening),
            SolveMeter::Nodes(nodes) => Progress::counting(nodes),
            SolveMeter::Elapsed => Progress::elapsed_only(),
        });
    }

    fn horizon_done(&mut self, proven: &str, nodes: u64, elapsed: Duration) {
        if let Some(progress) = &self.progress {
            progress.depth_done(proven, nodes, elapsed);
        }
    }

    fn finished(&mut self) {
        self.progress = None;
    }

    fn proof_numbers_done(&mut self, nodes: u64, time: Duration) {
        if self.show {
            errln!(
                "[proof-number search: {} nodes, {:.2} s]",
                count(nodes),
                time.as_secs_f64()
            );
        }
    }
}

/// Solves one position, with progress if `show_progress`.
fn solve_one(engine: &mut ExactEngine, moves: &str, show_progress: bool) -> Result<SolveAnswer> {
    let mut shown = Shown {
        show: show_progress,
        progress: None,
    };
    Ok(engine.solve(moves, &mut shown)?)
}
