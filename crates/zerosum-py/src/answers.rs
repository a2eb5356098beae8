//! `solve`, `search` and `analyze`: the library's answers (`zerosum_arena::answers`, the
//! command line's), with the GIL released, as Python objects. Only the arguments are checked
//! here, with messages that name them as Python does (`time=`).

use std::time::Duration;

use pyo3::prelude::*;
use zerosum_arena::answers::{
    self, AnswerError, EngineSettings, ExactEngine, Quiet, SearchEvent, SolveAnswer, SolveLimits,
    SolveSettings,
};
use zerosum_search::{check_table_mb, Algorithm, SearchLimits, Threads};

use crate::errors::{error, guarded, move_error, spec_error, value_error};
use crate::state::parse_spec;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySolution>()?;
    m.add_class::<PySearchResult>()?;
    m.add_class::<PyMoveValue>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    Ok(())
}

/// An answer's error as its exception: bad specs and moves as theirs, the rest as
/// `ZerosumError`.
fn answer_error(problem: AnswerError) -> PyErr {
    match problem {
        AnswerError::Spec(problem) => spec_error(problem),
        AnswerError::Move(problem) => move_error(problem),
        other => error(other),
    }
}

/// A time limit in seconds, checked.
fn seconds(time: Option<f64>) -> PyResult<Option<Duration>> {
    match time {
        Some(t) if !(t.is_finite() && t > 0.0 && t <= 1e6) => Err(value_error(format!(
            "time must be a positive number of seconds (at most 1e6), not {t}"
        ))),
        time => Ok(time.map(Duration::from_secs_f64)),
    }
}

fn check_nodes(nodes: Option<u64>) -> PyResult<()> {
    if nodes == Some(0) {
        return Err(value_error("nodes must be at least 1"));
    }
    Ok(())
}

fn check_hash(hash_mb: usize) -> PyResult<()> {
    if hash_mb == 0 {
        return Err(value_error("hash_mb must be at least 1"));
    }
    check_table_mb(hash_mb, 1).map_err(|problem| value_error(format!("hash_mb: {problem}")))
}

fn threads(count: usize) -> PyResult<Threads> {
    Threads::new(count).map_err(|problem| value_error(format!("threads: {problem}")))
}

/// What `solve` found.
#[pyclass(name = "Solution", module = "zerosum", frozen, get_all)]
pub struct PySolution {
    /// Whether the position was solved within the limits.
    solved: bool,
    /// The score (`zerosum solve`'s): Pons' integer score on Connect-X (`"1"`, `"-2"`,
    /// `"0"`), `win-in-N`, `draw` or `loss-in-N` on other games (Hex's proof numbers: `win`
    /// or `loss`), `win`, `draw` or `loss` when weak; `None` if unsolved.
    score: Option<String>,
    /// The value in words (`"the side to move wins"`); `None` if unsolved.
    meaning: Option<String>,
    /// The moves that keep the value; empty if unsolved.
    best_moves: Vec<String>,
    /// What a solve stopped by its limits proved (`"proved: at least a draw for the first
    /// player (within depth 12, ...)"`); `None` if solved.
    proof: Option<String>,
}

#[pymethods]
impl PySolution {
    fn __repr__(&self) -> String {
        match &self.score {
            Some(score) => format!(
                "Solution(score={score:?}, meaning={:?}, best_moves={:?})",
                self.meaning.as_deref().unwrap_or(""),
                self.best_moves
            ),
            None => format!(
                "Solution(unsolved: {:?})",
                self.proof.as_deref().unwrap_or("")
            ),
        }
    }
}

/// `solve(spec, moves="", *, weak=False, time=None, nodes=None, hash_mb=64, threads=1)`: the
/// exact value of the position after `moves` and its best moves, as `zerosum solve` finds them
/// (the Connect-X solver and book, Hex's proof numbers, the generic solver); with `time`
/// (seconds) or `nodes`, a solve that does not finish says what it proved.
#[pyfunction]
#[pyo3(signature = (spec, moves = "", *, weak = false, time = None, nodes = None, hash_mb = 64, threads = 1))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    spec: &str,
    moves: &str,
    weak: bool,
    time: Option<f64>,
    nodes: Option<u64>,
    hash_mb: usize,
    threads: usize,
) -> PyResult<PySolution> {
    let spec = parse_spec(spec)?;
    let time = seconds(time)?;
    check_nodes(nodes)?;
    check_hash(hash_mb)?;
    let settings = SolveSettings {
        weak,
        hash_mb,
        threads: self::threads(threads)?.get(),
        limits: (time.is_some() || nodes.is_some()).then_some(SolveLimits { time, nodes }),
    };
    let answer = py.detach(|| {
        guarded(|| {
            ExactEngine::new(&spec, &settings)
                .solve(moves, &mut Quiet)
                .map_err(answer_error)
        })
    })?;
    Ok(match answer {
        SolveAnswer::Solved(solved) => PySolution {
            solved: true,
            score: Some(solved.score),
            meaning: Some(solved.meaning),
            best_moves: solved.best_moves,
            proof: None,
        },
        SolveAnswer::Unsolved(line) => PySolution {
            solved: false,
            score: None,
            meaning: None,
            best_moves: Vec::new(),
            proof: Some(line),
        },
    })
}

/// What `search` found.
#[pyclass(name = "SearchResult", module = "zerosum", frozen, get_all)]
pub struct PySearchResult {
    /// The move to play.
    #[pyo3(name = "move")]
    best_move: String,
    /// Its score (`"+12"`, `"win-in-5"`, `"draw"`; `"?"` for a move a proof chose without a
    /// value).
    score: String,
    /// Where the score comes from, as `zerosum search` ends its bestmove line (`" (evaluation,
    /// not proven)"`, `" (exact: opening book or solver)"`), or empty.
    source: String,
    /// The principal variation of the search.
    pv: Vec<String>,
    /// The depth of the last iteration.
    depth: usize,
    /// Nodes searched.
    nodes: u64,
    /// Seconds spent.
    time: f64,
    /// What the game's exact oracle proved first (Connect-X), or `None`.
    proof: Option<String>,
    /// The info line of each iteration.
    iterations: Vec<String>,
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(move={:?}, score={:?}, depth={}, nodes={}, pv={:?})",
            self.best_move, self.score, self.depth, self.nodes, self.pv
        )
    }
}

/// The engine settings of `search` and `analyze`, checked; one second when no limit is given.
#[allow(clippy::too_many_arguments)]
fn engine_settings(
    time: Option<f64>,
    depth: Option<usize>,
    nodes: Option<u64>,
    algo: &str,
    hash_mb: usize,
    threads: usize,
    eval: Option<String>,
    weights: Option<String>,
) -> PyResult<EngineSettings> {
    let time = match seconds(time)? {
        None if depth.is_none() && nodes.is_none() => Some(Duration::from_secs(1)),
        time => time,
    };
    if let Some(depth) = depth {
        if !(1..=250).contains(&depth) {
            return Err(value_error(format!(
                "depth must be between 1 and 250, not {depth}"
            )));
        }
    }
    check_nodes(nodes)?;
    check_hash(hash_mb)?;
    let algorithm: Algorithm = algo.parse().map_err(value_error)?;
    Ok(EngineSettings {
        limits: SearchLimits {
            depth,
            nodes,
            time,
            stop: None,
            threads: self::threads(threads)?,
        },
        hash_mb,
        algorithm,
        eval,
        weights,
    })
}

/// `search(spec, moves="", *, time=None, depth=None, nodes=None, algo="pvs", hash_mb=64,
/// threads=1, eval=None, weights=None)`: the engine's move in the position after `moves`, as
/// `zerosum search` finds it (the game's exact oracle first, then iterative deepening); one
/// second when no limit is given. `algo`: pvs, mtdf, alphabeta, minimax or mcts; `weights`:
/// the path of a weights file for the evaluation (as `zerosum search --weights`).
#[pyfunction]
#[pyo3(signature = (spec, moves = "", *, time = None, depth = None, nodes = None, algo = "pvs", hash_mb = 64, threads = 1, eval = None, weights = None))]
#[allow(clippy::too_many_arguments)]
pub fn search(
    py: Python<'_>,
    spec: &str,
    moves: &str,
    time: Option<f64>,
    depth: Option<usize>,
    nodes: Option<u64>,
    algo: &str,
    hash_mb: usize,
    threads: usize,
    eval: Option<String>,
    weights: Option<String>,
) -> PyResult<PySearchResult> {
    let spec = parse_spec(spec)?;
    let settings = engine_settings(time, depth, nodes, algo, hash_mb, threads, eval, weights)?;
    let mut iterations = Vec::new();
    let answer = py.detach(|| {
        guarded(|| {
            answers::search(&spec, moves, &settings, &mut |event| {
                if let SearchEvent::Iteration(iteration) = event {
                    iterations.push(iteration.line.to_string());
                }
            })
            .map_err(answer_error)
        })
    })?;
    Ok(PySearchResult {
        best_move: answer.best_move,
        score: answer.score,
        source: answer.source.to_string(),
        pv: answer.pv,
        depth: answer.depth,
        nodes: answer.nodes,
        time: answer.time.as_secs_f64(),
        proof: answer.proof,
        iterations,
    })
}

/// One move's value, as `analyze` finds it.
#[pyclass(name = "MoveValue", module = "zerosum", frozen, get_all)]
pub struct PyMoveValue {
    /// The move.
    #[pyo3(name = "move")]
    mv: String,
    /// Its score for the side to move (`"+12"`, `"win-in-3"`, `"draw"`).
    score: String,
    /// Whether the score is proven.
    solved: bool,
}

#[pymethods]
impl PyMoveValue {
    fn __repr__(&self) -> String {
        format!(
            "MoveValue(move={:?}, score={:?}, solved={})",
            self.mv,
            self.score,
            if self.solved { "True" } else { "False" }
        )
    }
}

/// `analyze(spec, moves="", *, the options of search)`: every legal move's value, best first,
/// as `zerosum analyze` finds them (the time shared among the moves).
#[pyfunction]
#[pyo3(signature = (spec, moves = "", *, time = None, depth = None, nodes = None, algo = "pvs", hash_mb = 64, threads = 1, eval = None, weights = None))]
#[allow(clippy::too_many_arguments)]
pub fn analyze(
    py: Python<'_>,
    spec: &str,
    moves: &str,
    time: Option<f64>,
    depth: Option<usize>,
    nodes: Option<u64>,
    algo: &str,
    hash_mb: usize,
    threads: usize,
    eval: Option<String>,
    weights: Option<String>,
) -> PyResult<Vec<PyMoveValue>> {
    let spec = parse_spec(spec)?;
    let settings = engine_settings(time, depth, nodes, algo, hash_mb, threads, eval, weights)?;
    let values =
        py.detach(|| guarded(|| answers::analyze(&spec, moves, &settings).map_err(answer_error)))?;
    Ok(values
        .into_iter()
        .map(|value| PyMoveValue {
            mv: value.mv,
            score: value.score,
            solved: value.solved,
        })
        .collect())
}
