//! The engine's answer for a position (`search`): what the game's exact oracle proves (the
//! Connect-X book and solver) within the share of the limits an engine gives it in play, then
//! iterative deepening with the time left; the move and score the proof settles or overrules,
//! else the search's. And the value of every legal move (`analyze`).

use std::time::{Duration, Instant};

use zerosum_core::{Game, Outcome, Score, Status};
use zerosum_games::exact::{Proven, Verdict};
use zerosum_games::{visit_game, EvaluatedGame, GameSpec, GameVisitor};
use zerosum_search::{score_word, Algorithm, SearchLimits, SearchResult, Searcher};

use super::AnswerError;
use crate::players::{oracle_limits, WeightsFile};

/// The engine's settings for `search` and `analyze` (the limits are checked by the caller).
#[derive(Clone, Debug)]
pub struct EngineSettings {
    pub limits: SearchLimits,
    pub hash_mb: usize,
    pub algorithm: Algorithm,
    /// The evaluation by name; the game's default when `None`.
    pub eval: Option<String>,
    /// The path of a weights file for the evaluation ([`WeightsFile`]); the built-in weights
    /// when `None`.
    pub weights: Option<String>,
}

impl EngineSettings {
    /// The evaluator of `game` these settings name.
    fn evaluator<G: EvaluatedGame>(&self, game: &G) -> Result<G::Evaluator, AnswerError> {
        match (&self.weights, &self.eval) {
            (Some(path), name) => WeightsFile::read(path)
                .and_then(|weights| weights.evaluator(game, name.as_deref()))
                .map_err(AnswerError::Engine),
            (None, Some(name)) => game.evaluator_named(name).map_err(AnswerError::Engine),
            (None, None) => Ok(game.evaluator()),
        }
    }

    fn searcher<G: EvaluatedGame>(
        &self,
        game: &G,
    ) -> Result<Searcher<G, G::Evaluator>, AnswerError> {
        Searcher::try_new(self.evaluator(game)?, self.algorithm, self.hash_mb)
            .map_err(|error| AnswerError::Engine(error.to_string()))
    }
}

/// What `search` found, as text in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchAnswer {
    /// What the game's exact oracle proved before the search, if it has one (a line).
    pub proof: Option<String>,
    /// The move to play.
    pub best_move: String,
    /// Its score: the proof's where it settles the move, else the search's (`+12`,
    /// `win-in-5`, `draw`; `?` for a move the proof chose without a value).
    pub score: String,
    /// Where the score comes from, in words, or empty for a search's proven score:
    /// ` (exact: opening book or solver)`, ` (evaluation, not proven)`...
    pub source: &'static str,
    /// The search's principal variation (of its own move).
    pub pv: Vec<String>,
    /// The depth of the last iteration.
    pub depth: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent, oracle included.
    pub time: Duration,
}

/// One finished iteration of a search, as it happens.
#[derive(Clone, Copy, Debug)]
pub struct Iteration<'a> {
    /// The info line `depth D score S nodes N nps X time T pv M...`.
    pub line: &'a str,
    pub depth: usize,
    pub nodes: u64,
    pub time: Duration,
}

/// The position after `moves` in the game `spec` names, ongoing.
fn position<G: Game>(mut game: G, moves: &str, verb: &'static str) -> Result<G, AnswerError> {
    game.play_list(moves)?;
    let status = game.status();
    if status.is_over() {
        return Err(AnswerError::Over { status, verb });
    }
    Ok(game)
}

/// What a search tells as it goes.
#[derive(Clone, Copy, Debug)]
pub enum SearchEvent<'a> {
    /// What the game's exact oracle proved, before the search (a line).
    Proof(&'a str),
    /// An iteration finished.
    Iteration(Iteration<'a>),
}

/// Searches the position after `moves`; `report` hears the oracle's proof, then each
/// iteration (its `depth 5 score +12 nodes ...` line, the GTP/UCI info line).
pub fn search(
    spec: &GameSpec,
    moves: &str,
    settings: &EngineSettings,
    report: &mut dyn FnMut(SearchEvent<'_>),
) -> Result<SearchAnswer, AnswerError> {
    visit_game(
        spec,
        SearchVisit {
            moves,
            settings,
            report,
        },
    )?
}

struct SearchVisit<'a> {
    moves: &'a str,
    settings: &'a EngineSettings,
    report: &'a mut dyn FnMut(SearchEvent<'_>),
}

impl GameVisitor for SearchVisit<'_> {
    type Output = Result<SearchAnswer, AnswerError>;

    fn visit<G: EvaluatedGame>(self, game: G) -> Self::Output {
        let game = position(game, self.moves, "search")?;
        let mut searcher = self.settings.searcher(&game)?;
        let mut oracle = game
            .oracle_by_default()
            .then(|| game.oracle(self.settings.hash_mb))
            .flatten();
        let started = Instant::now();
        let limits = &self.settings.limits;
        // Step 1. The game's exact oracle (the opening book, then the solver, on the Connect-X
        // boards the solver fits), within the share of the limits an engine gives it in play.
        let verdict = oracle
            .as_mut()
            .map(|oracle| Verdict::prove(oracle.as_mut(), &game, &oracle_limits(limits, started)));
        let proof = verdict
            .as_ref()
            .map(|verdict| verdict.summary(|m| game.format_move(m)));
        let report = self.report;
        if let Some(proof) = &proof {
            report(SearchEvent::Proof(proof));
        }
        // Step 2. The search, with the time left, an info line per iteration.
        let mut limits = limits.clone();
        limits.time = limits.time.map(|t| t.saturating_sub(started.elapsed()));
        let result = searcher.search(&game, &limits, |iteration| {
            report(SearchEvent::Iteration(Iteration {
                line: &iteration.line(|m| game.format_move(m)),
                depth: iteration.depth,
                nodes: iteration.nodes,
                time: iteration.time,
            }));
        });
        let searched = result
            .best_move
            .expect("an ongoing game always gets a move");
        // Step 3. The move and its score: the proof's where it settles the move or overrules
        // the search's (as the engine plays), else the search's.
        let (best, score, source) = match &verdict {
            Some(verdict) => {
                let best = verdict.decided().map_or_else(
                    || verdict.vet(searched, Proven::of_search(result.score, result.solved)),
                    |(mv, _)| mv,
                );
                match verdict.value_of(best) {
                    Proven::Unknown if best == searched => {
                        (best, result.score_word(), evaluated(&result))
                    }
                    Proven::Unknown => (
                        best,
                        "?".to_string(),
                        " (exact: the search's move loses, this one is not proven to)",
                    ),
                    proven => (best, proven.compact(), " (exact: opening book or solver)"),
                }
            }
            None => (searched, result.score_word(), evaluated(&result)),
        };
        Ok(SearchAnswer {
            proof,
            best_move: game.format_move(best),
            score,
            source,
            pv: result.pv.iter().map(|&m| game.format_move(m)).collect(),
            depth: result.depth,
            nodes: result.nodes,
            time: started.elapsed(),
        })
    }
}

/// What the bestmove line of a search says of its score when nothing proves it: an
/// evaluation is labelled as one.
fn evaluated<M>(result: &SearchResult<M>) -> &'static str {
    if result.solved || result.score.is_decisive() {
        ""
    } else {
        " (evaluation, not proven)"
    }
}

/// One legal move's value, as `analyze` finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move, in the game's notation.
    pub mv: String,
    /// Its score for the side to move (`+12`, `win-in-3`, `draw`).
    pub score: String,
    /// The score as a number (see [`Score`]), for sorting.
    pub value: i32,
    /// Whether the score is proven.
    pub solved: bool,
}

/// Searches the position after each legal move of the position after `moves` (the time
/// shared among the moves); the moves best first.
pub fn analyze(
    spec: &GameSpec,
    moves: &str,
    settings: &EngineSettings,
) -> Result<Vec<MoveValue>, AnswerError> {
    visit_game(spec, AnalyzeVisit { moves, settings })?
}

struct AnalyzeVisit<'a> {
    moves: &'a str,
    settings: &'a EngineSettings,
}

impl GameVisitor for AnalyzeVisit<'_> {
    type Output = Result<Vec<MoveValue>, AnswerError>;

    fn visit<G: EvaluatedGame>(self, game: G) -> Self::Output {
        let mut game = position(game, self.moves, "search")?;
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        // Share the time budget among the moves.
        let mut limits = self.settings.limits.clone();
        if let Some(time) = limits.time {
            limits.time = Some(time.div_f64(moves.len() as f64));
        }
        let mut searcher = self.settings.searcher(&game)?;
        let mut scored = Vec::with_capacity(moves.len());
        let mover = game.to_move();
        for mv in moves {
            game.play(mv);
            // The move's score, and whether it is proven.
            let (score, solved) = match game.status() {
                Status::Over(Outcome::Draw) => (Score::DRAW, true),
                Status::Over(Outcome::Win(side)) if side == mover => (Score::win_in(1), true),
                Status::Over(Outcome::Win(_)) => (Score::loss_in(1), true),
                Status::Ongoing => {
                    let reply = searcher.search(&game, &limits, |_| {});
                    // One ply further from the analysed position.
                    let s = reply.score;
                    let score = if s.is_decisive() {
                        Score(-s.0 + s.0.signum())
                    } else {
                        -s
                    };
                    (score, reply.solved)
                }
            };
            game.undo();
            scored.push((score, solved, mv));
        }
        scored.sort_by_key(|&(score, _, _)| std::cmp::Reverse(score));
        Ok(scored
            .into_iter()
            .map(|(score, solved, mv)| MoveValue {
                mv: game.format_move(mv),
                score: score_word(score, solved),
                value: score.0,
                solved,
            })
            .collect())
    }
}
