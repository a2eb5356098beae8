//! Building a [`Book`] with the solver, ply by ply, on every core, resumably.
//!
//! Only the positions of the book's depth and beyond are solved: the value of a position above
//! the depth is the best of its children's, all in the book. Ply `p` is a list of positions (mirror images merged, the first met kept), in the order
//! their parents and then their columns come, so that neighbours in the list share most of
//! their subtrees. Up to the book's depth a ply holds every child of the ply before; beyond
//! it, the children of the positions on a line of best play of either side (see the module
//! documentation of [`book`](super)). Each thread owns a solver with its own table, kept for
//! the whole build, and takes the next few positions of the ply from a shared counter; the
//! main thread records every score in the checkpoint file as it comes.
//!
//! The checkpoint is a text file: a header line `zerosum-book-solved ROWSxCOLSxK`, then one
//! `KEY SCORE` line per solved position (key in hex). Its scores are exact facts of the game,
//! whatever the book's depths, so a build restarted with the same checkpoint (after a kill, or
//! with larger depths) solves only what is missing, and ends with the same book as a build
//! that was never interrupted. A last line cut short by a kill is dropped.

use std::collections::HashMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use zerosum_core::capped_read::{CappedLines, CappedReader};
use zerosum_core::{Game, Outcome, Side, Status};

use super::{canonical_key, Book, KEY_BITS};
use crate::connect::{ConnectSolver, ConnectX, Packed};

/// The positions a thread takes from the shared counter at a time.
const CHUNK: usize = 8;
/// How often the checkpoint is flushed to the file, at most.
const FLUSH_EVERY: Duration = Duration::from_secs(2);

/// What to build, and with what.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Rows, columns and run length of the board (`cols * (rows + 1) <= 56`).
    pub rows: usize,
    pub cols: usize,
    pub k: usize,
    /// Every position of at most this many stones.
    pub depth: usize,
    /// The lines of best play of each side up to this many stones (at least `depth`).
    pub lines: usize,
    /// Solver threads (at least 1).
    pub threads: usize,
    /// Transposition table of each thread, in MB.
    pub hash_mb: usize,
    /// Stop once this many new solves are done (solves under way finish too; the checkpoint
    /// keeps them all), if given.
    pub max_solves: Option<u64>,
}

/// Where a build stands, reported after each solve.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The ply being solved.
    pub ply: usize,
    /// Positions of that ply.
    pub positions: usize,
    /// Of them, those with a score.
    pub done: usize,
    /// Positions solved by this run so far (not read from the checkpoint).
    pub solved: u64,
}

/// How a build ended.
#[derive(Debug)]
pub enum Built {
    /// The whole book.
    Complete(Book),
    /// Stopped after at least `max_solves` new solves; running the build again continues it.
    Stopped {
        /// Positions solved by this run.
        solved: u64,
    },
}

/// Why a book cannot be built.
#[derive(Debug)]
pub enum BuildError {
    /// The options ask for something impossible.
    Options(String),
    /// The checkpoint file cannot be read or written.
    Io(PathBuf, std::io::Error),
    /// The checkpoint file holds something else.
    Checkpoint(PathBuf, String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Options(reason) => write!(f, "{reason}"),
            BuildError::Io(path, error) => write!(f, "{}: {error}", path.display()),
            BuildError::Checkpoint(path, reason) => {
                write!(f, "{}: not a book checkpoint: {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for BuildError {}

type Game64 = ConnectX<Packed<u64>>;

/// Builds the book of `options`, recording every score in the `checkpoint` file (created if
/// absent, continued if present) and calling `progress` after each new score.
pub fn build(
    options: &BuildOptions,
    checkpoint: &Path,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Built, BuildError> {
    check(options)?;
    let board = (options.rows, options.cols, options.k);
    let mut record = Checkpoint::open(checkpoint, board)?;
    let mut solvers: Vec<ConnectSolver<u64>> = (0..options.threads)
        .map(|_| ConnectSolver::new(options.rows, options.cols, options.k, options.hash_mb))
        .collect();
    let mut solved = 0u64;
    let mut book_keys: Vec<u64> = Vec::new();
    let mut layer = vec![Game64::new(options.rows, options.cols, options.k)];
    let mut parents: (Vec<Game64>, Vec<[bool; 2]>) = (Vec::new(), Vec::new());
    // The plies above the depth, whose values come from their children's at the end.
    let mut upper: Vec<Vec<Game64>> = Vec::new();
    for ply in 0..=options.lines {
        let keys: Vec<u64> = layer.iter().map(key).collect();
        if ply < options.depth {
            upper.push(layer.clone());
        } else {
            let stopped = solve_layer(
                ply,
                &layer,
                &keys,
                &mut solvers,
                &mut record,
                options.max_solves,
                &mut solved,
                progress,
            )?;
            if stopped {
                return Ok(Built::Stopped { solved });
            }
        }
        book_keys.extend(&keys);
        if ply == options.lines {
            break;
        }
        // Whether each position is on a line of best play of the first / second side.
        let on_line = if ply <= options.depth {
            vec![[true, true]; layer.len()]
        } else {
            line_flags(&parents.0, &parents.1, &keys, &record.scores)
        };
        let next = children(&layer, &on_line);
        parents = (std::mem::replace(&mut layer, next), on_line);
    }
    for layer in upper.iter().rev() {
        for game in layer {
            let value = best_child(game, &record.scores);
            record.scores.insert(key(game), value);
        }
    }
    let scores = book_keys.iter().map(|&k| (k, record.scores[&k]));
    Ok(Built::Complete(Book::from_scores(
        board,
        options.depth,
        options.lines,
        scores,
    )))
}

fn check(options: &BuildOptions) -> Result<(), BuildError> {
    let (rows, cols, k) = (options.rows, options.cols, options.k);
    crate::connect::spec(rows, cols, k).map_err(|e| BuildError::Options(e.to_string()))?;
    if cols * (rows + 1) > KEY_BITS {
        return Err(BuildError::Options(format!(
            "a {rows}x{cols} board is too large for a book (columns * (rows + 1) must be at \
             most {KEY_BITS})"
        )));
    }
    if options.depth > options.lines || options.lines >= rows * cols {
        return Err(BuildError::Options(format!(
            "the depths must satisfy depth <= lines < {} (the cells of the board)",
            rows * cols
        )));
    }
    if options.threads == 0 || options.hash_mb == 0 {
        return Err(BuildError::Options(
            "threads and hash must be at least 1".to_string(),
        ));
    }
    Ok(())
}

fn key(game: &Game64) -> u64 {
    canonical_key(game) as u64
}

/// The value of `game` from its children's: the best of a win at once, a draw by filling the
/// board, and minus each other child's score in `scores` (which has them all).
fn best_child(game: &Game64, scores: &HashMap<u64, i32>) -> i32 {
    let cells = game.rows() * game.cols();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = game.clone();
            child.play(mv);
            match child.status() {
                Status::Over(Outcome::Draw) => 0,
                Status::Over(_) => ((cells - child.ply()) / 2 + 1) as i32,
                Status::Ongoing => -scores[&key(&child)],
            }
        })
        .max()
        .expect("a position that is not over has a move")
}

/// The children that are not over of the positions on a line, mirror images merged, the
/// first met kept.
fn children(layer: &[Game64], on_line: &[[bool; 2]]) -> Vec<Game64> {
    let mut seen = std::collections::HashSet::new();
    let mut next = Vec::new();
    let mut moves = Vec::new();
    for (parent, _) in layer.iter().zip(on_line).filter(|(_, l)| l[0] || l[1]) {
        parent.legal_moves(&mut moves);
        for &mv in &moves {
            let mut child = parent.clone();
            child.play(mv);
            if !child.status().is_over() && seen.insert(key(&child)) {
                next.push(child);
            }
        }
    }
    next
}

/// For each position of a layer (its `keys`), made of the [`children`] of `parents`, whether
/// it is on a line of best play of the first and of the second side: a child is on side
/// `s`'s line when a parent on it has `s` not to move, or has `s` to move and the child keeps
/// the parent's value.
fn line_flags(
    parents: &[Game64],
    parents_on_line: &[[bool; 2]],
    keys: &[u64],
    scores: &HashMap<u64, i32>,
) -> Vec<[bool; 2]> {
    let index: HashMap<u64, usize> = keys.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    let mut flags = vec![[false, false]; keys.len()];
    let mut moves = Vec::new();
    for (parent, lines) in parents.iter().zip(parents_on_line) {
        let value = scores[&key(parent)];
        let mover = match parent.to_move() {
            Side::First => 0,
            Side::Second => 1,
        };
        parent.legal_moves(&mut moves);
        for &mv in &moves {
            let mut child = parent.clone();
            child.play(mv);
            let Some(&at) = index.get(&key(&child)) else {
                continue; // over
            };
            let best = -scores[&keys[at]] == value;
            for side in 0..2 {
                flags[at][side] |= lines[side] && (side != mover || best);
            }
        }
    }
    flags
}

/// Solves the positions of `layer` without a score in `record`, on one thread per solver;
/// true if stopped by `max_solves`.
#[allow(clippy::too_many_arguments)]
fn solve_layer(
    ply: usize,
    layer: &[Game64],
    keys: &[u64],
    solvers: &mut [ConnectSolver<u64>],
    record: &mut Checkpoint,
    max_solves: Option<u64>,
    solved: &mut u64,
    progress: &mut dyn FnMut(&Progress),
) -> Result<bool, BuildError> {
    let todo: Vec<usize> = (0..layer.len())
        .filter(|&i| !record.scores.contains_key(&keys[i]))
        .collect();
    let mut status = Progress {
        ply,
        positions: layer.len(),
        done: layer.len() - todo.len(),
        solved: *solved,
    };
    progress(&status);
    if todo.is_empty() {
        return Ok(false);
    }
    if max_solves.is_some_and(|max| *solved >= max) {
        return Ok(true);
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(u64, i32)>();
    let result = std::thread::scope(|scope| {
        for solver in solvers.iter_mut() {
            let sender = sender.clone();
            let (next, stop, todo) = (&next, &stop, &todo);
            scope.spawn(move || loop {
                let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                if start >= todo.len() {
                    return;
                }
                for &i in &todo[start..(start + CHUNK).min(todo.len())] {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let score = solver
                        .solve(&layer[i], false)
                        .expect("a position of the layer is of the solver's size and not over");
                    if sender.send((keys[i], score)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        for (key, score) in receiver {
            record.add(key, score)?;
            *solved += 1;
            status.done += 1;
            status.solved = *solved;
            progress(&status);
            if max_solves.is_some_and(|max| *solved >= max) {
                stop.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    });
    result?;
    record.flush()?;
    Ok(status.done < layer.len())
}

/// Largest checkpoint read: 4 GiB (the scores of the largest book, at about 20 bytes each).
const MAX_CHECKPOINT_BYTES: u64 = 4 << 30;
/// Longest checkpoint line read (`KEY SCORE` takes about 20 bytes).
const MAX_CHECKPOINT_LINE_BYTES: u64 = 1 << 10;

/// The checkpoint file and the scores it holds.
struct Checkpoint {
    path: PathBuf,
    scores: HashMap<u64, i32>,
    writer: BufWriter<File>,
    flushed: Instant,
}

impl Checkpoint {
    /// Opens the checkpoint of `board` at `path`, reading its scores, or creates it.
    fn open(path: &Path, board: (usize, usize, usize)) -> Result<Checkpoint, BuildError> {
        let io = |e| BuildError::Io(path.to_path_buf(), e);
        let bad = |reason: String| BuildError::Checkpoint(path.to_path_buf(), reason);
        let header = format!("zerosum-book-solved {}x{}x{}\n", board.0, board.1, board.2);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        let mut scores = HashMap::new();
        let mut lines = CappedLines::new(
            BufReader::new(CappedReader::new(&mut file, MAX_CHECKPOINT_BYTES)),
            MAX_CHECKPOINT_LINE_BYTES,
        );
        let mut valid = 0u64;
        loop {
            let line = match lines.next_line() {
                Ok(Some(line)) if line.ended => line,
                // The end, or a last line cut short.
                Ok(_) => break,
                Err(problem) => return Err(bad(problem.to_string())),
            };
            let number = lines.count();
            let read = line.bytes.len() as u64 + 1;
            let mut line = String::from_utf8_lossy(&line.bytes).into_owned();
            line.push('\n');
            if number == 1 {
                if line != header {
                    return Err(bad(format!(
                        "its first line is not `{}`",
                        header.trim_end()
                    )));
                }
            } else {
                let (key, score) = parse_line(&line)
                    .ok_or_else(|| bad(format!("line {number} is not `KEY SCORE`")))?;
                scores.insert(key, score);
            }
            valid += read;
        }
        drop(lines);
        file.set_len(valid).map_err(io)?;
        file.seek(SeekFrom::End(0)).map_err(io)?;
        let mut writer = BufWriter::new(file);
        if valid == 0 {
            writer.write_all(header.as_bytes()).map_err(io)?;
        }
        Ok(Checkpoint {
            path: path.to_path_buf(),
            scores,
            writer,
            flushed: Instant::now(),
        })
    }

    /// Records a score, flushing now and then.
    fn add(&mut self, key: u64, score: i32) -> Result<(), BuildError> {
        self.scores.insert(key, score);
        writeln!(self.writer, "{key:x} {score}")
            .map_err(|e| BuildError::Io(self.path.clone(), e))?;
        if self.flushed.elapsed() >= FLUSH_EVERY {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), BuildError> {
        self.flushed = Instant::now();
        self.writer
            .flush()
            .map_err(|e| BuildError::Io(self.path.clone(), e))
    }
}

/// `KEY SCORE` (key in hex) of a checkpoint line.
fn parse_line(line: &str) -> Option<(u64, i32)> {
    let (key, score) = line.trim_end().split_once(' ')?;
    let score: i32 = score.parse().ok()?;
    (score.abs() <= i8::MAX as i32).then_some(())?;
    Some((u64::from_str_radix(key, 16).ok()?, score))
}
