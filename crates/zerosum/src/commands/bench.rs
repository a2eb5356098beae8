//! `zerosum bench`: a fixed list of positions searched to fixed depths, ending with the node
//! signature; `zerosum bench connect4 FILE...`: the solver on test sets of exact scores.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use zerosum_core::capped_read::read_text_file;
use zerosum_core::Game;
use zerosum_games::connect::{Bits, ConnectSolver, ConnectSpec, ConnectX, Packed};
use zerosum_games::{visit_game, EvaluatedGame, GameVisitor};
use zerosum_search::{Algorithm, SearchLimits, Searcher};

use super::depth_chart::{self, Iteration};
use super::parse_spec;
use super::search::check_hash;
use zerosum_arena::answers::count as short_count;

/// The benchmark positions: spec, moves, depth. Changing this list, an evaluator or the
/// search changes the signature; say so in the change.
pub(super) const POSITIONS: &[(&str, &str, usize)] = &[
    ("tictactoe", "", 9),
    ("mnk:7x7x4", "d4", 6),
    ("gomoku", "h8,h9,i8", 5),
    ("mnk:70x70x10", "ah35,ai36", 3),
    ("connect4", "", 11),
    ("connect4", "4453", 11),
    ("connectx:25x25x10", "13,13", 6),
    ("hex:7", "", 5),
    ("hex:11", "f6", 4),
    ("atoll:standard", "", 4),
    ("unstable", "", 5),
    ("unstable", "E3,F4", 5),
];

/// Table size of the benchmark searches, in MB.
pub(super) const BENCH_HASH_MB: usize = 16;

/// `zerosum bench [--svg FILE]`; with `svg`, the nodes and time of each iteration of every
/// position are drawn there.
pub fn bench(svg: Option<&Path>) -> Result<()> {
    let mut out = crate::output::stdout();
    let mut total_nodes = 0;
    let mut total_time = Duration::ZERO;
    let mut runs = Vec::new();
    for &(spec, moves, depth) in POSITIONS {
        let (nodes, time, best, iterations) = visit_game(
            &parse_spec(spec)?,
            BenchPosition {
                moves: moves.to_string(),
                depth,
            },
        )??;
        total_nodes += nodes;
        total_time += time;
        let name = match moves {
            "" => spec.to_string(),
            moves => format!("{spec} {moves}"),
        };
        runs.push((name, iterations));
        writeln!(
            out,
            "{spec:<20} {:<12} depth {depth:>2} nodes {nodes:>10} nps {:>10} best {best}",
            if moves.is_empty() { "(start)" } else { moves },
            (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
        )?;
    }
    writeln!(
        out,
        "total nodes {total_nodes} time {:.3}s nps {}",
        total_time.as_secs_f64(),
        (total_nodes as f64 / total_time.as_secs_f64().max(1e-9)) as u64
    )?;
    writeln!(out, "signature: {total_nodes}")?;
    if let Some(path) = svg {
        depth_chart::write(path, "bench", &runs)?;
    }
    Ok(())
}

struct BenchPosition {
    moves: String,
    depth: usize,
}

impl GameVisitor for BenchPosition {
    /// Nodes, time, best move and the iterations.
    type Output = Result<(u64, Duration, String, Vec<Iteration>)>;

    fn visit<G: EvaluatedGame>(self, mut game: G) -> Self::Output {
        game.play_list(&self.moves)?;
        let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, BENCH_HASH_MB);
        let mut iterations = Vec::new();
        let result = searcher.search(&game, &SearchLimits::depth(self.depth), |info| {
            iterations.push(Iteration {
                depth: info.depth,
                nodes: info.nodes,
                time: info.time,
            })
        });
        let best = result
            .best_move
            .map_or_else(|| "-".to_string(), |m| game.format_move(m));
        Ok((result.nodes, result.time, best, iterations))
    }
}

/// Options of `zerosum bench connect4`.
#[derive(Clone, Debug)]
pub struct SolverBench {
    pub files: Vec<String>,
    /// Also solve the empty board (after the files).
    pub empty: bool,
    pub spec: String,
    pub zero_based: bool,
    pub limit: Option<usize>,
    pub weak: bool,
    pub hash_mb: usize,
    /// Solver threads.
    pub threads: usize,
    pub json: bool,
}

/// `zerosum bench connect4 [FILE...] [--empty] [--threads N] [--json]`; after its table, an
/// error (exit 1) if a position of a file was solved to another score than the file gives.
pub fn bench_solver(options: &SolverBench) -> Result<()> {
    check_hash(options.hash_mb)?;
    if options.files.is_empty() && !options.empty {
        bail!("give test set files, --empty, or both");
    }
    let spec = parse_spec(&options.spec)?;
    let Some(&ConnectSpec { rows, cols, k, .. }) = spec.params() else {
        bail!(
            "the solver benchmark takes a connectx spec, not `{}`",
            options.spec
        );
    };
    if Packed::<u64>::fits(rows, cols) {
        run_sets::<u64>(rows, cols, k, options)
    } else if Packed::<u128>::fits(rows, cols) {
        run_sets::<u128>(rows, cols, k, options)
    } else {
        bail!("{} is too big for the bit-board solver", options.spec)
    }
}

/// A test set: positions with their expected scores (none for the empty board).
struct TestSet<B: Bits> {
    /// The name printed: the file's name, or `empty`.
    name: String,
    /// The file as given, or `(empty)`.
    file: String,
    positions: Vec<(ConnectX<Packed<B>>, Option<i32>)>,
}

/// What solving a test set took.
struct SetResult {
    positions: u64,
    /// Positions whose score (its sign with `--weak`) was the expected one.
    exact: u64,
    nodes: u64,
    /// Wall-clock time of the solves alone.
    time: Duration,
    /// Processor time of the solves alone, where the system tells it.
    cpu: Option<Duration>,
    /// The score of the last position.
    last_score: i32,
}

fn run_sets<B: Bits>(rows: usize, cols: usize, k: usize, options: &SolverBench) -> Result<()> {
    let mut solver = ConnectSolver::<B>::new(rows, cols, k, options.hash_mb);
    solver.set_threads(options.threads);
    let mut out = crate::output::stdout();
    if !options.json {
        writeln!(
            out,
            "{:<16} {:>9} {:>7} {:>6} {:>14} {:>14} {:>12} {:>12}",
            "file", "positions", "right", "score", "mean time", "mean nodes", "nodes/s", "mean cpu"
        )?;
    }
    let mut sets = Vec::new();
    for file in &options.files {
        sets.push(read_set::<B>(file, rows, cols, k, options)?);
    }
    if options.empty {
        sets.push(TestSet {
            name: "empty".to_string(),
            file: "(empty)".to_string(),
            positions: vec![(ConnectX::new(rows, cols, k), None)],
        });
    }
    // Sets with positions solved to another score than the file's, and how many.
    let mut wrong = Vec::new();
    for set in &sets {
        let result = solve_set(&mut solver, set, options.weak, &SetProgress::start(set))?;
        let scored = set.positions.iter().filter(|(_, e)| e.is_some()).count() as u64;
        if result.exact < scored {
            wrong.push(format!("{} of {}", scored - result.exact, set.name));
        }
        let count = result.positions.max(1) as f64;
        let mean_time_us = result.time.as_secs_f64() * 1e6 / count;
        let mean_cpu_us = result.cpu.map(|cpu| cpu.as_secs_f64() * 1e6 / count);
        let mean_nodes = result.nodes as f64 / count;
        let per_second = result.positions as f64 / result.time.as_secs_f64().max(1e-9);
        if options.json {
            let mut line = json!({
                "file": set.file,
                "positions": result.positions,
                "exact": result.exact,
                "mean_time_us": mean_time_us,
                "mean_cpu_us": mean_cpu_us,
                "mean_nodes": mean_nodes,
                "positions_per_second": per_second,
                "total_nodes": result.nodes,
                "weak": options.weak,
                "threads": options.threads,
            });
            if set.positions.iter().all(|(_, expected)| expected.is_none()) {
                line["score"] = json!(result.last_score);
            }
            writeln!(out, "{line}")?;
        } else {
            // Right: positions solved to the file's score (none to check on the empty board).
            let right = if scored > 0 {
                result.exact.to_string()
            } else {
                "-".to_string()
            };
            // Score: the value found, for a set of one position.
            let score = if result.positions == 1 {
                result.last_score.to_string()
            } else {
                "-".to_string()
            };
            let nodes_per_second = result.nodes as f64 / result.time.as_secs_f64().max(1e-9);
            writeln!(
                out,
                "{:<16} {:>9} {right:>7} {score:>6} {:>14} {mean_nodes:>14.1} {:>12} {:>12}",
                set.name,
                result.positions,
                format_duration(mean_time_us),
                short_count(nodes_per_second as u64),
                mean_cpu_us.map_or_else(|| "-".to_string(), format_duration)
            )?;
        }
        out.flush()?;
    }
    if !wrong.is_empty() {
        bail!(
            "scores differ from the files': {} positions",
            wrong.join(", ")
        );
    }
    Ok(())
}

/// Largest test set file read: 64 MiB (a million positions).
const MAX_TEST_SET_BYTES: u64 = 64 << 20;

/// The positions of a test set file of `moves score` lines (at most `--limit` of them).
fn read_set<B: Bits>(
    file: &str,
    rows: usize,
    cols: usize,
    k: usize,
    options: &SolverBench,
) -> Result<TestSet<B>> {
    let text = read_text_file(Path::new(file), MAX_TEST_SET_BYTES)?;
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if options.limit.is_some_and(|limit| positions.len() >= limit) {
            break;
        }
        let mut words = line.split_whitespace();
        let Some(moves) = words.next() else { continue };
        let expected: i32 = words
            .next()
            .and_then(|w| w.parse().ok())
            .with_context(|| format!("{file}:{}: expected `moves score`", number + 1))?;
        let mut game = ConnectX::<Packed<B>>::new(rows, cols, k);
        for digit in moves.bytes() {
            let column = match digit {
                b'0'..=b'9' => (digit - b'0') as usize,
                _ => bail!("{file}:{}: `{moves}` is not a digit string", number + 1),
            };
            let column = if options.zero_based {
                column
            } else {
                column
                    .checked_sub(1)
                    .with_context(|| format!("{file}:{}: column 0 in 1-based moves", number + 1))?
            };
            if column >= cols {
                bail!("{file}:{}: column {column} is off the board", number + 1);
            }
            game.try_play(column as u8)
                .with_context(|| format!("{file}:{}", number + 1))?;
        }
        positions.push((game, Some(expected)));
    }
    let name = Path::new(file)
        .file_name()
        .map_or_else(|| file.to_string(), |n| n.to_string_lossy().into_owned());
    Ok(TestSet {
        name,
        file: file.to_string(),
        positions,
    })
}

/// Solves every position of `set`, the table cleared before each, and counts the expected
/// scores found (only their signs if `weak`).
fn solve_set<B: Bits>(
    solver: &mut ConnectSolver<B>,
    set: &TestSet<B>,
    weak: bool,
    progress: &SetProgress,
) -> Result<SetResult> {
    let mut result = SetResult {
        positions: 0,
        exact: 0,
        nodes: 0,
        time: Duration::ZERO,
        cpu: Some(Duration::ZERO),
        last_score: 0,
    };
    for (game, expected) in &set.positions {
        solver.reset();
        let cpu_start = cpu_time();
        let start = Instant::now();
        let score = solver.solve(game, weak)?;
        result.time += start.elapsed();
        result.cpu = result
            .cpu
            .zip(cpu_start.zip(cpu_time()))
            .map(|(total, (start, end))| total + end.saturating_sub(start));
        result.nodes += solver.nodes();
        result.positions += 1;
        progress.bar.inc(1);
        result.last_score = score;
        let want = expected.map(|e| if weak { e.signum() } else { e });
        if want == Some(score) {
            result.exact += 1;
        }
    }
    Ok(result)
}

/// Processor time used by this process so far (`CLOCK_PROCESS_CPUTIME_ID`), on Unix: less
/// disturbed than the wall clock on a busy machine.
#[cfg(unix)]
pub fn cpu_time() -> Option<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    (status == 0).then(|| Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// Processor time is not measured off Unix.
#[cfg(not(unix))]
pub fn cpu_time() -> Option<Duration> {
    None
}

/// The progress of a test set's solves on standard error: on a terminal a live line (the set,
/// the position under way, elapsed time); otherwise one plain line before the long solve of
/// a single position (the empty board).
struct SetProgress {
    bar: ProgressBar,
}

impl SetProgress {
    fn start(set: &TestSet<impl Bits>) -> SetProgress {
        let bar = ProgressBar::new(set.positions.len() as u64);
        let template = if set.positions.len() == 1 {
            "{spinner} {msg}: solving, {elapsed} elapsed"
        } else {
            "{spinner} {msg}: {pos}/{len} positions, {elapsed} elapsed, eta {eta}"
        };
        bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
        bar.set_message(set.name.clone());
        if std::io::stderr().is_terminal() {
            bar.enable_steady_tick(Duration::from_millis(200));
        } else if set.positions.len() == 1 {
            errln!("[{}: solving the whole game]", set.name);
        }
        SetProgress { bar }
    }
}

impl Drop for SetProgress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// Microseconds as `5.3 us`, `2.20 ms` or `1.234 s`.
fn format_duration(us: f64) -> String {
    if us < 1_000.0 {
        format!("{us:.1} us")
    } else if us < 1_000_000.0 {
        format!("{:.2} ms", us / 1_000.0)
    } else {
        format!("{:.3} s", us / 1_000_000.0)
    }
}
