//! `zerosum solve`: exact values. Connect-X boards that fit a packed bit board go to the
//! Pons-style solver and get its exact score (Connect Four from the embedded opening book when
//! the book has every move's value); every other game goes to the generic solver.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{bail, Context, Result};
use zerosum_core::{Game, GameSpec, Score};
use zerosum_games::connect::{Bits, Book, Column, ConnectX, Packed, Solver as PonsSolver};
use zerosum_games::{visit_game, EvaluatedGame, GameVisitor};
use zerosum_search::{SearchLimits, Solver};

use super::parse_spec;
use super::search::check_hash;

/// Most solver threads per logical core.
const THREADS_PER_CORE: usize = 4;

/// A `--threads` count: between 1 and four per logical core.
pub fn parse_threads(text: &str) -> std::result::Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max = THREADS_PER_CORE * cores;
    match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{text}` is not a thread count from 1 to {max} (four per core)"
        )),
    }
}

/// `zerosum solve SPEC [--moves LIST] [--weak] [--hash MB] [--threads N]`; with `moves` absent (`--stdin`),
/// one position per line from standard input (the first word of a line is its move list; the
/// rest, such as an expected score, is ignored), printing `position score` per line and
/// stopping at the first line that is not a position. `threads` searches in parallel on
/// Connect-X boards (the generic solver has one thread).
pub fn solve(
    spec: &str,
    moves: Option<&str>,
    weak: bool,
    hash_mb: usize,
    threads: usize,
) -> Result<()> {
    check_hash(hash_mb)?;
    let spec = parse_spec(spec)?;
    let mut engine = ExactEngine::new(&spec, weak, hash_mb, threads)?;
    let mut out = std::io::stdout().lock();
    if let Some(moves) = moves {
        let answer = engine.solve(moves)?;
        writeln!(out, "score {}", answer.score)?;
        writeln!(out, "value {}", answer.meaning)?;
        writeln!(out, "best {}", answer.best_moves.join(" "))?;
        return Ok(());
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!("reading positions, one per line (end with Ctrl-D)");
    }
    for (number, line) in stdin.lock().lines().enumerate() {
        let line = line.context("cannot read standard input")?;
        let Some(position) = line.split_whitespace().next() else {
            continue;
        };
        let answer = engine
            .solve(position)
            .with_context(|| format!("line {}", number + 1))?;
        writeln!(out, "{position} {}", answer.score)?;
    }
    Ok(())
}

/// One solved position, as text.
struct Answer {
    /// Pons' integer score for Connect-X; `win-in-N`, `draw`, `loss-in-N` (or `win`, `loss`
    /// in weak mode) otherwise.
    score: String,
    /// The value in words.
    meaning: String,
    best_moves: Vec<String>,
}

/// The solver a spec calls for.
enum ExactEngine {
    Packed64(Box<PonsEngine<u64>>),
    Packed128(Box<PonsEngine<u128>>),
    Generic {
        spec: GameSpec,
        weak: bool,
        hash_mb: usize,
    },
}

struct PonsEngine<B: Bits> {
    start: ConnectX<Packed<B>>,
    solver: PonsSolver<B>,
    weak: bool,
}

impl ExactEngine {
    fn new(spec: &GameSpec, weak: bool, hash_mb: usize, threads: usize) -> Result<Self> {
        if let GameSpec::ConnectX { rows, cols, k, .. } = *spec {
            if Packed::<u64>::fits(rows, cols) {
                return Ok(ExactEngine::Packed64(Box::new(PonsEngine::new(
                    rows, cols, k, weak, hash_mb, threads,
                ))));
            }
            if Packed::<u128>::fits(rows, cols) {
                return Ok(ExactEngine::Packed128(Box::new(PonsEngine::new(
                    rows, cols, k, weak, hash_mb, threads,
                ))));
            }
        }
        Ok(ExactEngine::Generic {
            spec: spec.clone(),
            weak,
            hash_mb,
        })
    }

    fn solve(&mut self, moves: &str) -> Result<Answer> {
        match self {
            ExactEngine::Packed64(engine) => engine.solve(moves),
            ExactEngine::Packed128(engine) => engine.solve(moves),
            ExactEngine::Generic {
                spec,
                weak,
                hash_mb,
            } => visit_game(
                spec,
                GenericSolve {
                    moves: moves.to_string(),
                    weak: *weak,
                    hash_mb: *hash_mb,
                },
            )?,
        }
    }
}

impl<B: Bits> PonsEngine<B> {
    fn new(rows: usize, cols: usize, k: usize, weak: bool, hash_mb: usize, threads: usize) -> Self {
        let mut solver = PonsSolver::new(rows, cols, k, hash_mb);
        solver.set_threads(threads);
        PonsEngine {
            start: ConnectX::new(rows, cols, k),
            solver,
            weak,
        }
    }

    fn solve(&mut self, moves: &str) -> Result<Answer> {
        let mut game = self.start.clone();
        game.play_list(moves)?;
        if game.status().is_over() {
            bail!(
                "the game is over ({}): there is nothing to solve",
                game.status()
            );
        }
        let (score, best) = match self.book_answer(&game) {
            Some(answer) => answer,
            None => (
                self.solver.solve(&game, self.weak)?,
                self.solver.best_moves(&game, self.weak)?,
            ),
        };
        let meaning = match score.cmp(&0) {
            std::cmp::Ordering::Greater => "the side to move wins",
            std::cmp::Ordering::Equal => "draw",
            std::cmp::Ordering::Less => "the side to move loses",
        };
        Ok(Answer {
            score: score.to_string(),
            meaning: meaning.to_string(),
            best_moves: best.iter().map(|&m| game.format_move(m)).collect(),
        })
    }
}

impl<B: Bits> PonsEngine<B> {
    /// The score and best moves of `game` from the embedded book, when it has the values of
    /// every move (the position's own value being the best of them).
    fn book_answer(&self, game: &ConnectX<Packed<B>>) -> Option<(i32, Vec<Column>)> {
        let book = Book::for_board(game.rows(), game.cols(), game.k())?;
        let values: Vec<Option<i32>> = book
            .analyze(game)?
            .into_iter()
            .map(|v| v.map(|v| if self.weak { v.signum() } else { v }))
            .collect();
        let score = values.iter().flatten().max().copied()?;
        let best = (0..values.len())
            .filter(|&col| values[col] == Some(score))
            .map(|col| col as Column)
            .collect();
        Some((score, best))
    }
}

struct GenericSolve {
    moves: String,
    weak: bool,
    hash_mb: usize,
}

impl GameVisitor for GenericSolve {
    type Output = Result<Answer>;

    fn visit<G: EvaluatedGame>(self, mut game: G) -> Result<Answer> {
        game.play_list(&self.moves)?;
        if game.status().is_over() {
            bail!(
                "the game is over ({}): there is nothing to solve",
                game.status()
            );
        }
        let mut solver = Solver::try_new(game.evaluator(), self.hash_mb)?;
        let solution = solver.solve(&game, self.weak, &SearchLimits::default())?;
        let (score, meaning) = describe(solution.score, self.weak);
        Ok(Answer {
            score,
            meaning,
            best_moves: solution
                .best_moves
                .iter()
                .map(|&m| game.format_move(m))
                .collect(),
        })
    }
}

fn describe(score: Score, weak: bool) -> (String, String) {
    let word = match score.0.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    };
    let meaning = match score.distance() {
        Some(n) if !weak => format!(
            "the side to move {}s in {n} plies",
            if score.0 > 0 { "win" } else { "lose" }
        ),
        _ if score.0 > 0 => "the side to move wins".to_string(),
        _ if score.0 < 0 => "the side to move loses".to_string(),
        _ => "draw".to_string(),
    };
    if weak {
        (word.to_string(), meaning)
    } else {
        let text = if score == Score::DRAW {
            "draw".to_string()
        } else {
            score.compact()
        };
        (text, meaning)
    }
}
