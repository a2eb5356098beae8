//! `zerosum solve`: exact values. Connect-X boards that fit a packed bit board go to the
//! Pons-style solver and get its exact score (Connect Four from the embedded opening book when
//! the book has every move's value); Hex positions to the proof-number solver (win or loss,
//! with virtual connections and inferior cells), but for the first two moves under a swap rule;
//! every other game goes to the generic solver, which under `--time`/`--nodes` deepens a
//! horizon and ends with the best bound it proved.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use zerosum_core::capped_read::CappedLines;
use zerosum_core::{Game, Score, Side};
use zerosum_games::connect::{
    Bits, Book, Column, ConnectSolver, ConnectSpec, ConnectX, Packed, SolveLimits,
};
use zerosum_games::hex::dfpn::{DfpnError, DfpnLimits, DfpnOptions, HexSolver};
use zerosum_games::hex::{Hex, HexSpec};
use zerosum_games::{visit_game, EvaluatedGame, GameSpec, GameVisitor};
use zerosum_search::{AlphaBetaSolver, ProvenBounds, SearchLimits, SolverProof, WeakValue};

use super::parse_spec;
use super::search::check_hash;
use super::solve_progress::{count, Progress};

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
    fn limits(&self) -> Result<Option<Limits>> {
        let time = match self.time {
            Some(t) if !(t.is_finite() && t > 0.0 && t <= 1e6) => {
                bail!("--time must be a positive number of seconds, not {t}")
            }
            time => time.map(Duration::from_secs_f64),
        };
        if self.nodes == Some(0) {
            bail!("--nodes must be at least 1");
        }
        Ok((time.is_some() || self.nodes.is_some()).then_some(Limits {
            time,
            nodes: self.nodes,
        }))
    }
}

/// A solve's budget.
#[derive(Clone, Copy, Debug)]
struct Limits {
    time: Option<Duration>,
    nodes: Option<u64>,
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
    let mut engine = ExactEngine::new(&spec, options, limits)?;
    let mut out = crate::output::stdout();
    if let Some(moves) = moves {
        match engine.solve(moves, true)? {
            Answer::Solved(answer) => {
                writeln!(out, "score {}", answer.score)?;
                writeln!(out, "value {}", answer.meaning)?;
                writeln!(out, "best {}", answer.best_moves.join(" "))?;
            }
            Answer::Unsolved(line) => writeln!(out, "{line}")?,
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
        let answer = engine
            .solve(position, false)
            .with_context(|| format!("line {}", lines.count()))?;
        match answer {
            Answer::Solved(answer) => writeln!(out, "{position} {}", answer.score)?,
            Answer::Unsolved(_) => writeln!(out, "{position} unproved")?,
        }
    }
    Ok(())
}

/// What a solve found.
enum Answer {
    Solved(Solved),
    /// Not solved within the limits: the line saying what was proven.
    Unsolved(String),
}

/// One solved position, as text.
struct Solved {
    /// Pons' integer score for Connect-X; `win-in-N`, `draw`, `loss-in-N` otherwise; in weak
    /// mode `win`, `draw` or `loss` on every game.
    score: String,
    /// The value in words.
    meaning: String,
    best_moves: Vec<String>,
}

/// The solver a spec calls for.
enum ExactEngine {
    Packed64(Box<PonsEngine<u64>>),
    Packed128(Box<PonsEngine<u128>>),
    Hex(Box<HexEngine>),
    Generic {
        spec: GameSpec,
        weak: bool,
        hash_mb: usize,
        limits: Option<Limits>,
    },
}

struct PonsEngine<B: Bits> {
    start: ConnectX<Packed<B>>,
    solver: ConnectSolver<B>,
    weak: bool,
    limits: Option<Limits>,
}

impl ExactEngine {
    fn new(spec: &GameSpec, options: &SolveOptions, limits: Option<Limits>) -> Result<Self> {
        let SolveOptions { weak, hash_mb, .. } = *options;
        if let Some(&ConnectSpec { rows, cols, k, .. }) = spec.params() {
            if Packed::<u64>::fits(rows, cols) {
                return Ok(ExactEngine::Packed64(Box::new(PonsEngine::new(
                    (rows, cols, k),
                    options,
                    limits,
                ))));
            }
            if Packed::<u128>::fits(rows, cols) {
                return Ok(ExactEngine::Packed128(Box::new(PonsEngine::new(
                    (rows, cols, k),
                    options,
                    limits,
                ))));
            }
        }
        if let Some(&HexSpec {
            width,
            height,
            swap,
            ..
        }) = spec.params()
        {
            if let Ok(solver) = HexSolver::new(width, height, DfpnOptions::with_table_mb(hash_mb)) {
                return Ok(ExactEngine::Hex(Box::new(HexEngine {
                    start: Hex::new(width, height, swap),
                    solver,
                    spec: spec.clone(),
                    options: options.clone(),
                    limits,
                })));
            }
        }
        Ok(ExactEngine::Generic {
            spec: spec.clone(),
            weak,
            hash_mb,
            limits,
        })
    }

    /// Solves the position after `moves`, showing progress if `show_progress`.
    fn solve(&mut self, moves: &str, show_progress: bool) -> Result<Answer> {
        match self {
            ExactEngine::Packed64(engine) => engine.solve(moves, show_progress),
            ExactEngine::Packed128(engine) => engine.solve(moves, show_progress),
            ExactEngine::Hex(engine) => engine.solve(moves, show_progress),
            ExactEngine::Generic {
                spec,
                weak,
                hash_mb,
                limits,
            } => visit_game(
                spec,
                GenericSolve {
                    moves: moves.to_string(),
                    weak: *weak,
                    hash_mb: *hash_mb,
                    limits: *limits,
                    show_progress,
                },
            )?,
        }
    }
}

impl<B: Bits> PonsEngine<B> {
    fn new(
        (rows, cols, k): (usize, usize, usize),
        options: &SolveOptions,
        limits: Option<Limits>,
    ) -> Self {
        let mut solver = ConnectSolver::new(rows, cols, k, options.hash_mb);
        solver.set_threads(options.threads);
        PonsEngine {
            start: ConnectX::new(rows, cols, k),
            solver,
            weak: options.weak,
            limits,
        }
    }

    fn solve(&mut self, moves: &str, show_progress: bool) -> Result<Answer> {
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
            None => {
                let start = Instant::now();
                let limits = SolveLimits {
                    nodes: self.limits.and_then(|l| l.nodes),
                    deadline: self.limits.and_then(|l| l.time).map(|t| start + t),
                    stop: None,
                };
                let progress = show_progress.then(Progress::elapsed_only);
                let solved = self.solver.solve_within(&game, self.weak, &limits);
                let mut nodes = self.solver.nodes();
                let solved = solved.and_then(|score| {
                    let left = SolveLimits {
                        nodes: limits.nodes.map(|n| n.saturating_sub(nodes).max(1)),
                        ..limits.clone()
                    };
                    let best = self.solver.analyze_within(&game, self.weak, &left);
                    nodes += self.solver.nodes();
                    best.map(|values| (score, best_columns(&values)))
                });
                drop(progress);
                match solved {
                    Ok(answer) => answer,
                    Err(zerosum_games::connect::SolveError::Interrupted) => {
                        return Ok(Answer::Unsolved(format!(
                            "unproved after {:.1} s, {} nodes: the solver did not finish",
                            start.elapsed().as_secs_f64(),
                            count(nodes)
                        )));
                    }
                    Err(error) => return Err(error.into()),
                }
            }
        };
        let meaning = match score.cmp(&0) {
            std::cmp::Ordering::Greater => "the side to move wins",
            std::cmp::Ordering::Equal => "draw",
            std::cmp::Ordering::Less => "the side to move loses",
        };
        let score = if self.weak {
            weak_word(WeakValue::of(Score(score))).to_string()
        } else {
            score.to_string()
        };
        Ok(Answer::Solved(Solved {
            score,
            meaning: meaning.to_string(),
            best_moves: best.iter().map(|&m| game.format_move(m)).collect(),
        }))
    }
}

/// The columns of the best of `values` (a solver's analysis, `None` for a full column).
fn best_columns(values: &[Option<i32>]) -> Vec<Column> {
    let best = values.iter().flatten().max().copied();
    (0..values.len())
        .filter(|&col| values[col].is_some() && values[col] == best)
        .map(|col| col as Column)
        .collect()
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
        Some((score, best_columns(&values)))
    }
}

/// Hex by proof numbers ([`HexSolver`]); a position where the swap is legal, now or on the
/// next move, goes to the generic solver.
struct HexEngine {
    start: Hex,
    solver: HexSolver,
    spec: GameSpec,
    options: SolveOptions,
    limits: Option<Limits>,
}

impl HexEngine {
    fn solve(&mut self, moves: &str, show_progress: bool) -> Result<Answer> {
        let mut game = self.start.clone();
        game.play_list(moves)?;
        if game.status().is_over() {
            bail!(
                "the game is over ({}): there is nothing to solve",
                game.status()
            );
        }
        let start = Instant::now();
        let limits = DfpnLimits {
            nodes: self.limits.and_then(|l| l.nodes),
            deadline: self.limits.and_then(|l| l.time).map(|t| start + t),
            stop: None,
        };
        let progress = show_progress.then(|| Progress::counting(self.solver.meter()));
        let result = match self.solver.solve(&game, &limits) {
            Err(DfpnError::Swap) => {
                drop(progress);
                return visit_game(
                    &self.spec,
                    GenericSolve {
                        moves: moves.to_string(),
                        weak: self.options.weak,
                        hash_mb: self.options.hash_mb,
                        limits: self.limits,
                        show_progress,
                    },
                )?;
            }
            result => result?,
        };
        drop(progress);
        if show_progress {
            errln!(
                "[proof-number search: {} nodes, {:.2} s]",
                count(result.nodes),
                result.time.as_secs_f64()
            );
        }
        let Some(wins) = result.wins else {
            return Ok(Answer::Unsolved(format!(
                "unproved after {:.1} s, {} nodes: the proof-number search did not finish",
                result.time.as_secs_f64(),
                count(result.nodes)
            )));
        };
        let (score, meaning) = if wins {
            (WeakValue::Win, "the side to move wins")
        } else {
            (WeakValue::Loss, "the side to move loses")
        };
        Ok(Answer::Solved(Solved {
            score: weak_word(score).to_string(),
            meaning: meaning.to_string(),
            best_moves: result.best.iter().map(|&m| game.format_move(m)).collect(),
        }))
    }
}

struct GenericSolve {
    moves: String,
    weak: bool,
    hash_mb: usize,
    limits: Option<Limits>,
    show_progress: bool,
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
        let mut solver = AlphaBetaSolver::try_new(game.evaluator(), self.hash_mb)?;
        let start = Instant::now();
        let progress = self
            .show_progress
            .then(|| Progress::start(solver.meter(), start, self.limits.is_some()));
        let Some(limits) = self.limits else {
            // No limit: the plain exact solve, fastest to the end.
            let solution = solver.solve(&game, self.weak, &SearchLimits::default())?;
            drop(progress);
            return Ok(Answer::Solved(solved(&game, &solution, self.weak)));
        };
        let limits = SearchLimits {
            time: limits.time,
            nodes: limits.nodes,
            ..SearchLimits::default()
        };
        let proof = solver.prove(&game, self.weak, &limits, |bounds, nodes, elapsed| {
            if let Some(progress) = &progress {
                progress.depth_done(&describe_bounds(bounds, game.to_move()), nodes, elapsed);
            }
        });
        drop(progress);
        Ok(match &proof.solution {
            Some(solution) => Answer::Solved(solved(&game, solution, self.weak)),
            None => Answer::Unsolved(unsolved_line(&proof, game.to_move())),
        })
    }
}

/// The answer of a finished solve of `game`.
fn solved<G: Game>(game: &G, solution: &zerosum_search::Solution<G::Move>, weak: bool) -> Solved {
    let (score, meaning) = describe(solution.score, weak);
    Solved {
        score,
        meaning,
        best_moves: solution
            .best_moves
            .iter()
            .map(|&m| game.format_move(m))
            .collect(),
    }
}

/// `win`, `draw` or `loss`: a weak solve's score, on every game.
fn weak_word(value: WeakValue) -> &'static str {
    match value {
        WeakValue::Win => "win",
        WeakValue::Draw => "draw",
        WeakValue::Loss => "loss",
    }
}

/// What `bounds` prove for `side` (to move at the root), in words: `at least a draw for
/// first`, `a win for second`, or `no forced result within depth 9`.
fn describe_bounds(bounds: &ProvenBounds, side: Side) -> String {
    let player = match side {
        Side::First => "the first player",
        Side::Second => "the second player",
    };
    match (bounds.lower, bounds.upper) {
        (WeakValue::Win, _) => format!("a win for {player}"),
        (WeakValue::Draw, WeakValue::Draw) => "a draw".to_string(),
        (_, WeakValue::Loss) => format!("a loss for {player}"),
        (WeakValue::Draw, _) => format!("at least a draw for {player}"),
        (WeakValue::Loss, WeakValue::Draw) => format!("at most a draw for {player}"),
        (WeakValue::Loss, WeakValue::Win) => {
            format!("no forced result within depth {}", bounds.depth)
        }
    }
}

/// The last line of a solve its limits ended: what it proved, within which depth, after how
/// long and how many nodes.
fn unsolved_line<M>(proof: &SolverProof<M>, side: Side) -> String {
    let bounds = &proof.bounds;
    let spent = format!(
        "{:.1} s, {} nodes",
        proof.time.as_secs_f64(),
        count(proof.nodes)
    );
    let what = describe_bounds(bounds, side);
    if bounds.exact().is_some() {
        format!("proved: {what} (its distance and best moves not found within {spent})")
    } else if bounds.lower == WeakValue::Loss && bounds.upper == WeakValue::Win {
        format!("unproved after {spent}: {what}")
    } else {
        format!(
            "proved: {what} (within depth {}, after {spent})",
            bounds.depth
        )
    }
}

fn describe(score: Score, weak: bool) -> (String, String) {
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
        (weak_word(WeakValue::of(score)).to_string(), meaning)
    } else {
        let text = if score == Score::DRAW {
            "draw".to_string()
        } else {
            score.compact()
        };
        (text, meaning)
    }
}
