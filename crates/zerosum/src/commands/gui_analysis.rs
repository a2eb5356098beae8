//! What `zerosum gtp` answers to the GUI analysis commands: the engine's evaluation and
//! principal variation (iterative deepening, as `zerosum search`) and the exact solver's
//! result (as `zerosum solve`, the generic solver), for any game.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use zerosum_core::{Game, Status};
use zerosum_games::{visit_game, EvaluatedGame, GameSpec, GameVisitor};
use zerosum_protocol::{EngineAnalysis, EngineSolution, Verdict};
use zerosum_search::{Algorithm, AlphaBetaSolver, SearchLimits, Searcher, Threads};

/// Table size, threads and time of the analyses.
#[derive(Clone, Copy, Debug)]
pub struct AnalysisSettings {
    pub hash_mb: usize,
    pub threads: Threads,
    /// Time of an analysis when the protocol gives none.
    pub time: Duration,
}

/// A position to analyse: the game, the moves played, the time, the stop flag.
pub struct Position<'a> {
    pub spec: &'a GameSpec,
    pub moves: &'a [String],
    pub budget: Option<Duration>,
    pub stop: &'a Arc<AtomicBool>,
}

impl Position<'_> {
    fn limits(&self, settings: &AnalysisSettings) -> SearchLimits {
        SearchLimits {
            depth: None,
            nodes: None,
            time: Some(self.budget.unwrap_or(settings.time)),
            stop: Some(Arc::clone(self.stop)),
            threads: settings.threads,
        }
    }
}

/// The engine's score and principal variation, searched within the position's time.
pub fn evaluate(
    position: &Position,
    settings: &AnalysisSettings,
) -> Result<EngineAnalysis, String> {
    let visitor = Evaluate {
        moves: position.moves,
        limits: position.limits(settings),
        hash_mb: settings.hash_mb,
    };
    visit_game(position.spec, visitor).map_err(|error| error.to_string())?
}

/// The exact value and the moves that keep it, if the solver finishes within the position's
/// time.
pub fn solve(position: &Position, settings: &AnalysisSettings) -> Result<EngineSolution, String> {
    let visitor = Solve {
        moves: position.moves,
        limits: position.limits(settings),
        hash_mb: settings.hash_mb,
    };
    visit_game(position.spec, visitor).map_err(|error| error.to_string())?
}

/// The position after `moves`, which must be an ongoing game.
fn replay<G: Game>(mut game: G, moves: &[String]) -> Result<G, String> {
    for mv in moves {
        game.play_text(mv).map_err(|error| error.to_string())?;
    }
    match game.status() {
        Status::Ongoing => Ok(game),
        Status::Over(_) => Err("the game is over".into()),
    }
}

struct Evaluate<'a> {
    moves: &'a [String],
    limits: SearchLimits,
    hash_mb: usize,
}

impl GameVisitor for Evaluate<'_> {
    type Output = Result<EngineAnalysis, String>;

    fn visit<G: EvaluatedGame>(self, game: G) -> Self::Output {
        let game = replay(game, self.moves)?;
        let mut searcher = Searcher::try_new(game.evaluator(), Algorithm::Pvs, self.hash_mb)
            .map_err(|error| error.to_string())?;
        let result = searcher.search(&game, &self.limits, |_| {});
        Ok(EngineAnalysis {
            score: result.score_word(),
            depth: result.depth,
            nodes: result.nodes,
            pv: result.pv.iter().map(|&mv| game.format_move(mv)).collect(),
        })
    }
}

struct Solve<'a> {
    moves: &'a [String],
    limits: SearchLimits,
    hash_mb: usize,
}

impl GameVisitor for Solve<'_> {
    type Output = Result<EngineSolution, String>;

    fn visit<G: EvaluatedGame>(self, game: G) -> Self::Output {
        let game = replay(game, self.moves)?;
        let mut solver = AlphaBetaSolver::try_new(game.evaluator(), self.hash_mb)
            .map_err(|error| error.to_string())?;
        let solution = solver
            .solve(&game, false, &self.limits)
            .map_err(|error| error.to_string())?;
        let verdict = match solution.score.0.signum() {
            1 => Verdict::Win,
            0 => Verdict::Draw,
            _ => Verdict::Loss,
        };
        let text = match verdict {
            Verdict::Draw => "draw".to_string(),
            _ => solution.score.compact(),
        };
        Ok(EngineSolution {
            verdict,
            text,
            best_moves: solution
                .best_moves
                .iter()
                .map(|&mv| game.format_move(mv))
                .collect(),
        })
    }
}
