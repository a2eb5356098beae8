//! `zerosum book`: build a Connect-X opening book with the solver (`build`), read a position's
//! values from a book (`probe`), and say what a book holds (`show`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use zerosum_core::capped_read::open_file;
use zerosum_core::Game;
use zerosum_games::connect::book::build::{build, BuildOptions, Built, Progress};
use zerosum_games::connect::{Book, ConnectSpec, ConnectX, Packed, MAX_BOOK_BYTES};

use super::parse_spec;
use super::search::check_hash;

/// How often a build without a terminal prints its progress.
const LOG_EVERY: Duration = Duration::from_secs(30);

#[derive(Subcommand)]
pub enum BookCommand {
    /// Build a book with the solver, on every core; the scores go to OUT.solved as they come,
    /// so the same command after a kill (or with larger depths) continues where it stopped.
    Build(BuildArgs),
    /// The book's score of a position and of each of its moves.
    Probe(ProbeArgs),
    /// What a book holds: board, depths, positions.
    Show(ShowArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// Connect-X board (columns * (rows + 1) <= 56).
    #[arg(long, default_value = "connect4")]
    spec: String,
    /// Every position of at most this many stones.
    #[arg(long)]
    depth: usize,
    /// Beyond --depth, up to this many stones: the positions where one side has always played
    /// a best move and the other anything, for each side, with all their children (default:
    /// --depth).
    #[arg(long)]
    lines: Option<usize>,
    /// The book file to write (its checkpoint is OUT.solved).
    #[arg(long)]
    out: PathBuf,
    /// Solver threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table of each thread, in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Stop after this many new solves (checkpointed; run again to continue).
    #[arg(long)]
    max_solves: Option<u64>,
}

#[derive(Args)]
pub struct ProbeArgs {
    /// Moves from the empty board (e.g. 4453).
    #[arg(default_value = "")]
    moves: String,
    /// A book file instead of the embedded Connect Four book.
    #[arg(long)]
    book: Option<PathBuf>,
}

#[derive(Args)]
pub struct ShowArgs {
    /// A book file instead of the embedded Connect Four book.
    #[arg(long)]
    book: Option<PathBuf>,
}

pub fn book(command: &BookCommand) -> Result<()> {
    match command {
        BookCommand::Build(args) => build_book(args),
        BookCommand::Probe(args) => probe(args),
        BookCommand::Show(args) => show(args),
    }
}

fn build_book(args: &BuildArgs) -> Result<()> {
    check_hash(args.hash)?;
    let spec = parse_spec(&args.spec)?;
    let Some(&ConnectSpec { rows, cols, k, .. }) = spec.params() else {
        bail!("books are for Connect-X boards, not {}", args.spec);
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let options = BuildOptions {
        rows,
        cols,
        k,
        depth: args.depth,
        lines: args.lines.unwrap_or(args.depth),
        threads,
        hash_mb: args.hash,
        max_solves: args.max_solves,
    };
    let mut checkpoint = args.out.clone().into_os_string();
    checkpoint.push(".solved");
    let checkpoint = PathBuf::from(checkpoint);
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "ply {msg} {bar:30} {pos}/{len} positions, {per_sec}, {elapsed} elapsed, eta {eta}",
        )
        .expect("a valid template"),
    );
    let started = std::time::Instant::now();
    // Without a terminal (a log file), a plain line every LOG_EVERY instead of the bar.
    let terminal = std::io::stderr().is_terminal();
    let mut logged = started;
    let mut ply = usize::MAX;
    let mut report = |p: &Progress| {
        if p.ply != ply {
            ply = p.ply;
            bar.set_message(p.ply.to_string());
            bar.set_length(p.positions as u64);
            bar.reset();
        }
        bar.set_position(p.done as u64);
        if !terminal && (logged.elapsed() >= LOG_EVERY || p.done == p.positions) {
            logged = std::time::Instant::now();
            errln!(
                "ply {}: {}/{} positions, {} solved by this run, {:.0} s",
                p.ply,
                p.done,
                p.positions,
                p.solved,
                started.elapsed().as_secs_f64()
            );
        }
    };
    let built = build(&options, &checkpoint, &mut report)?;
    bar.finish_and_clear();
    match built {
        Built::Stopped { solved } => {
            errln!(
                "stopped after {solved} new solves; the same command continues ({})",
                checkpoint.display()
            );
        }
        Built::Complete(book) => {
            write_atomically(&args.out, &book.to_bytes())?;
            errln!(
                "{}: {} positions, depth {}, lines {}, in {:.1} s",
                args.out.display(),
                book.len(),
                book.depth(),
                book.lines(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file beside it, so a kill leaves the old file
/// or the new one.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut temporary = path.to_path_buf().into_os_string();
    temporary.push(".tmp");
    std::fs::write(&temporary, bytes)
        .with_context(|| format!("cannot write {}", Path::new(&temporary).display()))?;
    std::fs::rename(&temporary, path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// The book of a file, or the embedded Connect Four book.
fn load(file: Option<&Path>) -> Result<std::borrow::Cow<'static, Book>> {
    match file {
        Some(path) => {
            let mut file = open_file(path, MAX_BOOK_BYTES)?;
            let book = Book::read(&mut file).map_err(|e| anyhow!("{}: {e}", path.display()))?;
            Ok(std::borrow::Cow::Owned(book))
        }
        None => Book::for_board(6, 7, 4)
            .map(std::borrow::Cow::Borrowed)
            .context("this build has no Connect Four book"),
    }
}

fn probe(args: &ProbeArgs) -> Result<()> {
    let book = load(args.book.as_deref())?;
    let (rows, cols, k) = book.board();
    let mut game = ConnectX::<Packed<u64>>::new(rows, cols, k);
    game.play_list(&args.moves)?;
    if game.status().is_over() {
        bail!(
            "the game is over ({}): there is nothing to probe",
            game.status()
        );
    }
    match book.value(&game) {
        Some(score) => outln!("score {score}"),
        None => outln!("score not in the book"),
    }
    if let Some(values) = book.analyze(&game) {
        let moves: Vec<String> = values
            .iter()
            .enumerate()
            .filter_map(|(col, v)| v.map(|v| format!("{}:{v}", game.format_move(col as u8))))
            .collect();
        outln!("moves {}", moves.join(" "));
    }
    Ok(())
}

fn show(args: &ShowArgs) -> Result<()> {
    let book = load(args.book.as_deref())?;
    let (rows, cols, k) = book.board();
    outln!("board {rows}x{cols}x{k}");
    outln!("depth {}", book.depth());
    outln!("lines {}", book.lines());
    outln!("positions {}", book.len());
    outln!("bytes {}", book.to_bytes().len());
    Ok(())
}
