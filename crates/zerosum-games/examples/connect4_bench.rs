//! Benchmark of the Connect-X solver on a test file of positions with known scores.
//!
//! ```text
//! connect4_bench FILE [--9x5] [--weak] [--limit N] [--table-mb MB]
//! connect4_bench --empty [--9x5] [--weak] [--table-mb MB]
//! ```
//!
//! A line of FILE is `<moves> <score>`: one digit per move, 1-based columns on the 7x6 board
//! (Pons' test sets) or 0-based columns on the 5-row, 9-column board with `--9x5`. The table is
//! cleared before every position. Prints the number of positions, how many scores matched
//! (signs only with `--weak`), the mean time and nodes per position, and positions and nodes
//! per second, and the process's CPU time (less disturbed than the wall clock on a busy
//! machine, but including the replay of the moves). `--empty` solves the empty board instead.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use zerosum_core::Game;
use zerosum_games::connect::{ConnectX64, Solver};

struct Options {
    file: Option<String>,
    nine_by_five: bool,
    weak: bool,
    limit: usize,
    table_mb: usize,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        file: None,
        nine_by_five: false,
        weak: false,
        limit: usize::MAX,
        table_mb: Solver::<u64>::DEFAULT_TABLE_MB,
    };
    let mut empty = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> Result<usize, String> {
            args.next()
                .and_then(|n| n.parse().ok())
                .ok_or(format!("{name} wants a number"))
        };
        match arg.as_str() {
            "--9x5" => options.nine_by_five = true,
            "--weak" => options.weak = true,
            "--empty" => empty = true,
            "--limit" => options.limit = number("--limit")?,
            "--table-mb" => options.table_mb = number("--table-mb")?,
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => options.file = Some(arg),
        }
    }
    if empty == options.file.is_some() {
        return Err("give a test file or --empty".to_string());
    }
    Ok(options)
}

/// The game after `moves` (one digit per move), or why it cannot be played.
fn replay(moves: &str, options: &Options) -> Result<ConnectX64, String> {
    let (rows, cols, first_digit) = if options.nine_by_five {
        (5, 9, b'0')
    } else {
        (6, 7, b'1')
    };
    let mut game = ConnectX64::new(rows, cols, 4);
    for byte in moves.bytes() {
        let col = byte.wrapping_sub(first_digit);
        if !byte.is_ascii_digit() || !game.is_legal(col) {
            return Err(format!("bad move {:?} in {moves}", byte as char));
        }
        game.play(col);
    }
    Ok(game)
}

/// CPU time this process has used (user and system), where `/proc/self/stat` tells it
/// (Linux), in seconds. Less disturbed than wall-clock time on a busy machine.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses): utime and stime are the 12th
    // and 13th of them, in clock ticks of 1/100 s.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("connect4_bench: {message}");
            eprintln!(
                "usage: connect4_bench FILE|--empty [--9x5] [--weak] [--limit N] [--table-mb MB]"
            );
            return ExitCode::FAILURE;
        }
    };
    let cases: Vec<(String, Option<i32>)> = match &options.file {
        None => vec![(String::new(), None)],
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => text
                .lines()
                .filter_map(|line| {
                    let mut fields = line.split_whitespace();
                    let moves = fields.next()?.to_string();
                    Some((moves, fields.next().and_then(|s| s.parse().ok())))
                })
                .take(options.limit)
                .collect(),
            Err(e) => {
                eprintln!("connect4_bench: {path}: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let (rows, cols) = if options.nine_by_five { (5, 9) } else { (6, 7) };
    let mut solver = Solver::<u64>::new(rows, cols, 4, options.table_mb);
    let mut total_time = Duration::ZERO;
    let mut total_nodes = 0u64;
    let mut matches = 0usize;
    let cpu_start = cpu_seconds();
    for (moves, expected) in &cases {
        let game = match replay(moves, &options) {
            Ok(game) => game,
            Err(message) => {
                eprintln!("connect4_bench: {message}");
                return ExitCode::FAILURE;
            }
        };
        let start = Instant::now();
        solver.reset();
        let score = solver.solve(&game, options.weak);
        total_time += start.elapsed();
        let score = match score {
            Ok(score) => score,
            Err(e) => {
                eprintln!("connect4_bench: {moves}: {e}");
                return ExitCode::FAILURE;
            }
        };
        total_nodes += solver.nodes();
        let expected = expected.map(|e| if options.weak { e.signum() } else { e });
        match expected {
            Some(e) if e == score => matches += 1,
            Some(e) => eprintln!("MISMATCH {moves}: expected {e}, got {score}"),
            None => println!("{moves:?}: score {score}, {} nodes", solver.nodes()),
        }
    }
    let cpu = cpu_start.zip(cpu_seconds()).map(|(start, end)| end - start);
    let n = cases.len().max(1) as f64;
    let seconds = total_time.as_secs_f64();
    println!("positions      {}", cases.len());
    println!("exact matches  {matches}");
    println!("mean time      {:.3} us", seconds * 1e6 / n);
    println!("mean nodes     {:.1}", total_nodes as f64 / n);
    println!("positions/s    {:.1}", n / seconds);
    println!("nodes/s        {:.0}", total_nodes as f64 / seconds);
    println!("total time     {seconds:.3} s");
    if let Some(cpu) = cpu {
        println!(
            "cpu time       {cpu:.2} s ({:.3} us per position)",
            cpu * 1e6 / n
        );
    }
    ExitCode::SUCCESS
}
