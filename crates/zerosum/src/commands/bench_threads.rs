//! `zerosum bench --threads N`: time to depth on the benchmark positions with N threads
//! against one, each search on a fresh table, the two interleaved and repeated; then the node
//! signature of the one-thread searches at the benchmark depths, as `zerosum bench` prints it.
//!
//! Two speedups: of the wall-clock time, which needs N idle cores to mean anything, and of
//! the nodes the calling thread searched to reach the depth (one thread's nodes over the main
//! thread's), which is what the time speedup comes to with each thread on a core of its own
//! and can be read on a busy machine too.

use std::io::Write;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use zerosum_games::{visit_game, EvaluatedGame, GameVisitor};
use zerosum_search::{Algorithm, SearchLimits, Searcher, Threads};

use super::bench::{BENCH_HASH_MB, POSITIONS};
use super::parse_spec;

/// Options of `zerosum bench` that compare thread counts.
#[derive(Args, Debug)]
pub struct ThreadBenchArgs {
    /// Compare the time to depth of N threads with one thread's.
    #[arg(long, value_name = "N")]
    threads: Option<Threads>,
    /// Runs of each search; the median time counts.
    #[arg(long, default_value_t = 3, requires = "threads")]
    repeat: usize,
    /// Search this many plies deeper than the benchmark depth (longer, steadier times).
    #[arg(long, default_value_t = 0, requires = "threads")]
    deeper: usize,
}

impl ThreadBenchArgs {
    /// The thread count to compare with one, if one was asked for.
    pub fn threads(&self) -> Option<Threads> {
        self.threads
    }
}

/// What searching one position took.
struct Run {
    nodes: u64,
    main_nodes: u64,
    time: Duration,
    best: String,
}

/// `zerosum bench --threads N [--repeat R] [--deeper D]`
pub fn bench_threads(args: &ThreadBenchArgs, threads: Threads) -> Result<()> {
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    if args.deeper > 10 {
        bail!("--deeper must be at most 10, not {}", args.deeper);
    }
    let mut out = crate::output::stdout();
    let n = threads.get();
    writeln!(
        out,
        "time to depth, 1 thread against {n}, median of {} runs each, interleaved",
        args.repeat
    )?;
    let mut signature = 0;
    let (mut log_speedup, mut log_node_speedup) = (0.0, 0.0);
    for &(text, moves, depth) in POSITIONS {
        let spec = parse_spec(text)?;
        let search = |threads, depth| {
            visit_game(
                &spec,
                TimedSearch {
                    moves: moves.to_string(),
                    depth,
                    threads,
                },
            )?
        };
        signature += search(Threads::ONE, depth)?.nodes;
        let timed_depth = depth + args.deeper;
        let (mut one, mut many) = (Vec::new(), Vec::new());
        for _ in 0..args.repeat {
            one.push(search(Threads::ONE, timed_depth)?);
            many.push(search(threads, timed_depth)?);
        }
        let (one, many) = (median(&mut one), median(&mut many));
        let speedup = one.time.as_secs_f64() / many.time.as_secs_f64().max(1e-9);
        let node_speedup = one.nodes as f64 / many.main_nodes.max(1) as f64;
        log_speedup += speedup.ln();
        log_node_speedup += node_speedup.ln();
        writeln!(
            out,
            "{text:<18} {:<10} depth {timed_depth:>2} | 1 thread {:>8.4}s {:>9} nodes {:<4} | \
             {n} threads {:>8.4}s {:>9} nodes, main {:>9} {:<4} | speedup time {speedup:.2} \
             nodes {node_speedup:.2}",
            if moves.is_empty() { "(start)" } else { moves },
            one.time.as_secs_f64(),
            one.nodes,
            one.best,
            many.time.as_secs_f64(),
            many.nodes,
            many.main_nodes,
            many.best,
        )?;
    }
    let count = POSITIONS.len() as f64;
    writeln!(
        out,
        "geometric mean speedup: time {:.2} nodes {:.2}",
        (log_speedup / count).exp(),
        (log_node_speedup / count).exp()
    )?;
    writeln!(out, "signature: {signature}")?;
    Ok(())
}

/// The run of median time.
fn median(runs: &mut [Run]) -> &Run {
    runs.sort_by_key(|run| run.time);
    &runs[runs.len() / 2]
}

/// One search of a benchmark position on a fresh table.
struct TimedSearch {
    moves: String,
    depth: usize,
    threads: Threads,
}

impl GameVisitor for TimedSearch {
    type Output = Result<Run>;

    fn visit<G: EvaluatedGame>(self, mut game: G) -> Result<Run> {
        game.play_list(&self.moves)?;
        let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, BENCH_HASH_MB);
        let limits = SearchLimits {
            threads: self.threads,
            ..SearchLimits::depth(self.depth)
        };
        let result = searcher.search(&game, &limits, |_| {});
        Ok(Run {
            nodes: result.nodes,
            main_nodes: result.main_nodes,
            time: result.time,
            best: result
                .best_move
                .map_or_else(|| "-".to_string(), |m| game.format_move(m)),
        })
    }
}
