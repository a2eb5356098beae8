//! `zerosum search` (iterative deepening with an info line per iteration, after what the
//! game's exact oracle proves where it has one) and `zerosum analyze` (the value of every
//! legal move).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use zerosum_arena::players::{oracle_limits, WeightsFile};
use zerosum_core::{Game, Outcome, Score, Status};
use zerosum_games::exact::{Proven, Verdict};
use zerosum_games::{visit_game, EvaluatedGame, GameVisitor};
use zerosum_search::{
    check_table_mb, score_word, Algorithm, SearchLimits, SearchResult, Searcher, Threads,
    MAX_TABLE_MB,
};

use super::depth_chart::{self, Iteration};
use super::parse_spec;

/// Checks a `--hash` size: at least 1 MB, and no more than the machine can hold (half of its
/// physical memory, see [`check_table_mb`]).
pub fn check_hash(mb: usize) -> Result<()> {
    if mb == 0 {
        bail!("--hash must be between 1 and {MAX_TABLE_MB} MB, not 0");
    }
    check_table_mb(mb, 1).map_err(|error| anyhow::anyhow!("--hash: {error}"))
}

/// Limits and settings shared by `search` and `analyze`.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    pub time: Option<f64>,
    pub depth: Option<usize>,
    pub nodes: Option<u64>,
    pub hash_mb: usize,
    pub algorithm: Algorithm,
    pub threads: Threads,
    /// The evaluation by name; the game's default when `None`.
    pub eval: Option<String>,
    /// A weights file for the evaluation.
    pub weights: Option<String>,
}

impl EngineOptions {
    /// The evaluator of `game` these options name.
    fn evaluator<G: EvaluatedGame>(&self, game: &G) -> Result<G::Evaluator> {
        match (&self.weights, &self.eval) {
            (Some(path), name) => WeightsFile::read(path)
                .and_then(|weights| weights.evaluator(game, name.as_deref()))
                .map_err(anyhow::Error::msg),
            (None, Some(name)) => game.evaluator_named(name).map_err(anyhow::Error::msg),
            (None, None) => Ok(game.evaluator()),
        }
    }

    /// Checks the options and turns them into search limits; with no limit at all, one
    /// second.
    pub fn limits(&self) -> Result<SearchLimits> {
        check_hash(self.hash_mb)?;
        let time = match self.time {
            Some(t) if !(t.is_finite() && t > 0.0 && t <= 1e6) => {
                bail!("--time must be a positive number of seconds, not {t}")
            }
            Some(t) => Some(Duration::from_secs_f64(t)),
            None if self.depth.is_none() && self.nodes.is_none() => Some(Duration::from_secs(1)),
            None => None,
        };
        if let Some(depth) = self.depth {
            if !(1..=250).contains(&depth) {
                bail!("--depth must be between 1 and 250, not {depth}");
            }
        }
        if self.nodes == Some(0) {
            bail!("--nodes must be at least 1");
        }
        Ok(SearchLimits {
            depth: self.depth,
            nodes: self.nodes,
            time,
            stop: None,
            threads: self.threads,
        })
    }
}

/// `zerosum search SPEC [--moves LIST] [--time S | --depth D | --nodes N] [--hash MB] [--algo A]
/// [--threads N] [--svg FILE]`; with `svg`, the nodes and time of each iteration are drawn
/// there. Prints what the game's exact oracle (Connect-X: the opening book, then the solver)
/// proves within the share of the limits the engine gives it in play, an info line per
/// iteration, and `bestmove M score S depth D nodes N time T`: D the last info line's depth,
/// M and S the proof's where it settles the move or overrules the search's (then the line
/// ends `(exact: ...)`), an unproven evaluation ending `(evaluation, not proven)`.
pub fn search(spec: &str, moves: &str, options: &EngineOptions, svg: Option<&Path>) -> Result<()> {
    let limits = options.limits()?;
    visit_game(
        &parse_spec(spec)?,
        SearchCommand {
            spec: spec.to_string(),
            moves: moves.to_string(),
            options: options.clone(),
            limits,
            svg: svg.map(Path::to_path_buf),
        },
    )?
}

struct SearchCommand {
    spec: String,
    moves: String,
    options: EngineOptions,
    limits: SearchLimits,
    svg: Option<PathBuf>,
}

fn position<G: Game>(mut game: G, moves: &str) -> Result<G> {
    game.play_list(moves)?;
    let status = game.status();
    if status.is_over() {
        bail!("the game is over ({status}): there is nothing to search");
    }
    Ok(game)
}

impl GameVisitor for SearchCommand {
    type Output = Result<()>;

    fn visit<G: EvaluatedGame>(self, game: G) -> Result<()> {
        let game = position(game, &self.moves)?;
        let mut searcher = Searcher::try_new(
            self.options.evaluator(&game)?,
            self.options.algorithm,
            self.options.hash_mb,
        )?;
        let mut oracle = game.oracle(self.options.hash_mb);
        let started = Instant::now();
        let mut out = crate::output::stdout();
        // Step 1. The game's exact oracle (the opening book, then the solver, on the Connect-X
        // boards the solver fits), within the share of the limits an engine gives it in play.
        let verdict = oracle.as_mut().map(|oracle| {
            Verdict::prove(
                oracle.as_mut(),
                &game,
                &oracle_limits(&self.limits, started),
            )
        });
        if let Some(verdict) = &verdict {
            writeln!(out, "{}", verdict.summary(|m| game.format_move(m)))?;
        }
        // Step 2. The search, with the time left, an info line per iteration.
        let mut limits = self.limits.clone();
        limits.time = limits.time.map(|t| t.saturating_sub(started.elapsed()));
        let mut iterations = Vec::new();
        let result = searcher.search(&game, &limits, |info| {
            iterations.push(Iteration {
                depth: info.depth,
                nodes: info.nodes,
                time: info.time,
            });
            let _ = writeln!(out, "{}", info.line(|m| game.format_move(m)));
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
        writeln!(
            out,
            "bestmove {} score {score} depth {} nodes {} time {:.3}{source}",
            game.format_move(best),
            result.depth,
            result.nodes,
            started.elapsed().as_secs_f64()
        )?;
        if let Some(path) = &self.svg {
            let name = match self.moves.as_str() {
                "" => self.spec.clone(),
                moves => format!("{} after {moves}", self.spec),
            };
            depth_chart::write(path, &format!("search {name}"), &[(name, iterations)])?;
        }
        Ok(())
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

/// `zerosum analyze SPEC --moves LIST [limits]`: searches the position after each legal move
/// and prints the moves best first.
pub fn analyze(spec: &str, moves: &str, options: &EngineOptions) -> Result<()> {
    let limits = options.limits()?;
    visit_game(
        &parse_spec(spec)?,
        AnalyzeCommand {
            moves: moves.to_string(),
            options: options.clone(),
            limits,
        },
    )?
}

struct AnalyzeCommand {
    moves: String,
    options: EngineOptions,
    limits: SearchLimits,
}

impl GameVisitor for AnalyzeCommand {
    type Output = Result<()>;

    fn visit<G: EvaluatedGame>(self, game: G) -> Result<()> {
        let mut game = position(game, &self.moves)?;
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        // Share the time budget among the moves.
        let mut limits = self.limits.clone();
        if let Some(time) = limits.time {
            limits.time = Some(time.div_f64(moves.len() as f64));
        }
        let mut searcher = Searcher::try_new(
            self.options.evaluator(&game)?,
            self.options.algorithm,
            self.options.hash_mb,
        )?;
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
        let mut out = crate::output::stdout();
        for (score, solved, mv) in scored {
            writeln!(
                out,
                "{} {}",
                game.format_move(mv),
                score_word(score, solved)
            )?;
        }
        Ok(())
    }
}
