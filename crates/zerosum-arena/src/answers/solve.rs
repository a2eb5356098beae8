//! Exact values of positions. Connect-X boards that fit a packed bit board go to the
//! Pons-style solver and get its exact score (Connect Four from the embedded opening book when
//! the book has every move's value); Hex positions to the proof-number solver (win or loss,
//! with virtual connections and inferior cells), but for the first two moves under a swap rule;
//! every other game goes to the generic solver, which under a time or node limit deepens a
//! horizon and ends with the best bound it proved.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use zerosum_core::{Game, Score, Side};
use zerosum_games::connect::{
    Bits, Book, Column, ConnectSolver, ConnectSpec, ConnectX, Packed, SolveLimits as PonsLimits,
};
use zerosum_games::hex::dfpn::{DfpnError, DfpnLimits, DfpnOptions, HexSolver};
use zerosum_games::hex::{Hex, HexSpec};
use zerosum_games::{visit_game, EvaluatedGame, GameSpec, GameVisitor};
use zerosum_search::{
    AlphaBetaSolver, ProofMeter, ProvenBounds, SearchLimits, SolverProof, WeakValue,
};

use super::{count, AnswerError};

/// How a solve searches.
#[derive(Clone, Debug)]
pub struct SolveSettings {
    /// Win, draw or loss only.
    pub weak: bool,
    /// The transposition table, in MB.
    pub hash_mb: usize,
    /// Threads of the Connect-X solver (the generic solver has one).
    pub threads: usize,
    /// The budget of each position; `None`: solve to the end.
    pub limits: Option<SolveLimits>,
}

/// A solve's budget: time, nodes, or both.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveLimits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

/// What a solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveAnswer {
    Solved(Solved),
    /// Not solved within the limits: the line saying what was proven.
    Unsolved(String),
}

/// One solved position, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Pons' integer score for Connect-X; `win-in-N`, `draw`, `loss-in-N` otherwise (Hex's
    /// proof numbers: `win` or `loss`); in weak mode `win`, `draw` or `loss` on every game.
    pub score: String,
    /// The value in words (`the side to move wins`).
    pub meaning: String,
    /// The moves that keep the value, in the game's notation.
    pub best_moves: Vec<String>,
}

/// What a solver counts while it works, for a caller's progress display.
pub enum SolveMeter {
    /// The generic solver's horizon and nodes, since `start`; `deepening` when limits make it
    /// deepen a horizon.
    Deepening {
        meter: Arc<ProofMeter>,
        start: Instant,
        deepening: bool,
    },
    /// The proof-number search's nodes.
    Nodes(Arc<AtomicU64>),
    /// Nothing but the time (the Connect-X solver).
    Elapsed,
}

/// What a caller sees of a solve while it runs (all optional; [`Quiet`] sees nothing).
pub trait SolveWatch {
    /// A solver starts on the position.
    fn started(&mut self, _meter: SolveMeter) {}
    /// The generic solver finished a horizon: what is proven (in words), nodes, time.
    fn horizon_done(&mut self, _proven: &str, _nodes: u64, _elapsed: Duration) {}
    /// The solver stopped (before the answer is returned).
    fn finished(&mut self) {}
    /// The proof-number search ended after `nodes` nodes and `time`.
    fn proof_numbers_done(&mut self, _nodes: u64, _time: Duration) {}
}

/// A watcher that sees nothing.
pub struct Quiet;

impl SolveWatch for Quiet {}

/// The solver a spec calls for, kept across positions (its tables stay warm).
pub struct ExactEngine(Exact);

enum Exact {
    Packed64(Box<PonsEngine<u64>>),
    Packed128(Box<PonsEngine<u128>>),
    Hex(Box<HexEngine>),
    Generic {
        spec: GameSpec,
        settings: SolveSettings,
    },
}

struct PonsEngine<B: Bits> {
    start: ConnectX<Packed<B>>,
    solver: ConnectSolver<B>,
    weak: bool,
    limits: Option<SolveLimits>,
}

impl ExactEngine {
    /// The solver of the game `spec` names.
    pub fn new(spec: &GameSpec, settings: &SolveSettings) -> ExactEngine {
        if let Some(&ConnectSpec { rows, cols, k, .. }) = spec.params() {
            if Packed::<u64>::fits(rows, cols) {
                return ExactEngine(Exact::Packed64(Box::new(PonsEngine::new(
                    (rows, cols, k),
                    settings,
                ))));
            }
            if Packed::<u128>::fits(rows, cols) {
                return ExactEngine(Exact::Packed128(Box::new(PonsEngine::new(
                    (rows, cols, k),
                    settings,
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
            if let Ok(solver) =
                HexSolver::new(width, height, DfpnOptions::with_table_mb(settings.hash_mb))
            {
                return ExactEngine(Exact::Hex(Box::new(HexEngine {
                    start: Hex::new(width, height, swap),
                    solver,
                    spec: spec.clone(),
                    settings: settings.clone(),
                })));
            }
        }
        ExactEngine(Exact::Generic {
            spec: spec.clone(),
            settings: settings.clone(),
        })
    }

    /// Solves the position after `moves` (text), telling `watch` how it goes.
    pub fn solve(
        &mut self,
        moves: &str,
        watch: &mut dyn SolveWatch,
    ) -> Result<SolveAnswer, AnswerError> {
        match &mut self.0 {
            Exact::Packed64(engine) => engine.solve(moves, watch),
            Exact::Packed128(engine) => engine.solve(moves, watch),
            Exact::Hex(engine) => engine.solve(moves, watch),
            Exact::Generic { spec, settings } => visit_game(
                spec,
                GenericSolve {
                    moves,
                    settings,
                    watch,
                },
            )?,
        }
    }
}

/// The error of a finished game: nothing to solve.
fn over<G: Game>(game: &G) -> Result<(), AnswerError> {
    let status = game.status();
    if status.is_over() {
        return Err(AnswerError::Over {
            status,
            verb: "solve",
        });
    }
    Ok(())
}

impl<B: Bits> PonsEngine<B> {
    fn new((rows, cols, k): (usize, usize, usize), settings: &SolveSettings) -> Self {
        let mut solver = ConnectSolver::new(rows, cols, k, settings.hash_mb);
        solver.set_threads(settings.threads);
        PonsEngine {
            start: ConnectX::new(rows, cols, k),
            solver,
            weak: settings.weak,
            limits: settings.limits,
        }
    }

    fn solve(
        &mut self,
        moves: &str,
        watch: &mut dyn SolveWatch,
    ) -> Result<SolveAnswer, AnswerError> {
        let mut game = self.start.clone();
        game.play_list(moves)?;
        over(&game)?;
        let (score, best) = match self.book_answer(&game) {
            Some(answer) => answer,
            None => {
                let start = Instant::now();
                let limits = PonsLimits {
                    nodes: self.limits.and_then(|l| l.nodes),
                    deadline: self.limits.and_then(|l| l.time).map(|t| start + t),
                    stop: None,
                };
                watch.started(SolveMeter::Elapsed);
                let solved = self.solver.solve_within(&game, self.weak, &limits);
                let mut nodes = self.solver.nodes();
                let solved = solved.and_then(|score| {
                    let left = PonsLimits {
                        nodes: limits.nodes.map(|n| n.saturating_sub(nodes).max(1)),
                        ..limits.clone()
                    };
                    let best = self.solver.analyze_within(&game, self.weak, &left);
                    nodes += self.solver.nodes();
                    best.map(|values| (score, best_columns(&values)))
                });
                watch.finished();
                match solved {
                    Ok(answer) => answer,
                    Err(zerosum_games::connect::SolveError::Interrupted) => {
                        return Ok(SolveAnswer::Unsolved(format!(
                            "unproved after {:.1} s, {} nodes: the solver did not finish",
                            start.elapsed().as_secs_f64(),
                            count(nodes)
                        )));
                    }
                    Err(error) => return Err(AnswerError::Engine(error.to_string())),
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
        Ok(SolveAnswer::Solved(Solved {
            score,
            meaning: meaning.to_string(),
            best_moves: best.iter().map(|&m| game.format_move(m)).collect(),
        }))
    }

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

/// The columns of the best of `values` (a solver's analysis, `None` for a full column).
fn best_columns(values: &[Option<i32>]) -> Vec<Column> {
    let best = values.iter().flatten().max().copied();
    (0..values.len())
        .filter(|&col| values[col].is_some() && values[col] == best)
        .map(|col| col as Column)
        .collect()
}

/// Hex by proof numbers ([`HexSolver`]); a position where the swap is legal, now or on the
/// next move, goes to the generic solver.
struct HexEngine {
    start: Hex,
    solver: HexSolver,
    spec: GameSpec,
    settings: SolveSettings,
}

impl HexEngine {
    fn solve(
        &mut self,
        moves: &str,
        watch: &mut dyn SolveWatch,
    ) -> Result<SolveAnswer, AnswerError> {
        let mut game = self.start.clone();
        game.play_list(moves)?;
        over(&game)?;
        let start = Instant::now();
        let limits = self.settings.limits;
        let dfpn_limits = DfpnLimits {
            nodes: limits.and_then(|l| l.nodes),
            deadline: limits.and_then(|l| l.time).map(|t| start + t),
            stop: None,
        };
        watch.started(SolveMeter::Nodes(self.solver.meter()));
        let result = match self.solver.solve(&game, &dfpn_limits) {
            Err(DfpnError::Swap) => {
                watch.finished();
                return visit_game(
                    &self.spec,
                    GenericSolve {
                        moves,
                        settings: &self.settings,
                        watch,
                    },
                )?;
            }
            Err(error) => {
                watch.finished();
                return Err(AnswerError::Engine(error.to_string()));
            }
            Ok(result) => result,
        };
        watch.finished();
        watch.proof_numbers_done(result.nodes, result.time);
        let Some(wins) = result.wins else {
            return Ok(SolveAnswer::Unsolved(format!(
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
        Ok(SolveAnswer::Solved(Solved {
            score: weak_word(score).to_string(),
            meaning: meaning.to_string(),
            best_moves: result.best.iter().map(|&m| game.format_move(m)).collect(),
        }))
    }
}

struct GenericSolve<'a> {
    moves: &'a str,
    settings: &'a SolveSettings,
    watch: &'a mut dyn SolveWatch,
}

impl GameVisitor for GenericSolve<'_> {
    type Output = Result<SolveAnswer, AnswerError>;

    fn visit<G: EvaluatedGame>(self, mut game: G) -> Self::Output {
        let GenericSolve {
            moves,
            settings,
            watch,
        } = self;
        game.play_list(moves)?;
        over(&game)?;
        let mut solver = AlphaBetaSolver::try_new(game.evaluator(), settings.hash_mb)
            .map_err(|error| AnswerError::Engine(error.to_string()))?;
        let start = Instant::now();
        watch.started(SolveMeter::Deepening {
            meter: solver.meter(),
            start,
            deepening: settings.limits.is_some(),
        });
        let Some(limits) = settings.limits else {
            // No limit: the plain exact solve, fastest to the end.
            let solution = solver.solve(&game, settings.weak, &SearchLimits::default());
            watch.finished();
            let solution = solution.map_err(|error| AnswerError::Engine(error.to_string()))?;
            return Ok(SolveAnswer::Solved(solved(&game, &solution, settings.weak)));
        };
        let limits = SearchLimits {
            time: limits.time,
            nodes: limits.nodes,
            ..SearchLimits::default()
        };
        let side = game.to_move();
        let proof = solver.prove(&game, settings.weak, &limits, |bounds, nodes, elapsed| {
            watch.horizon_done(&describe_bounds(bounds, side), nodes, elapsed);
        });
        watch.finished();
        Ok(match &proof.solution {
            Some(solution) => SolveAnswer::Solved(solved(&game, solution, settings.weak)),
            None => SolveAnswer::Unsolved(unsolved_line(&proof, game.to_move())),
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
