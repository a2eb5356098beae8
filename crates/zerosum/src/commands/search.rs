//! `zerosum search` (iterative deepening with an info line per iteration) and
//! `zerosum analyze` (the value of every legal move).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Result};
use zerosum_arena::players::WeightsFile;
use zerosum_core::{Game, Outcome, Score, Status};
use zerosum_games::{visit_game, EvaluatedGame, GameVisitor};
use zerosum_search::{check_table_mb, Algorithm, SearchLimits, Searcher, Threads, MAX_TABLE_MB};

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
/// there.
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
        let mut out = crate::output::stdout();
        let mut iterations = Vec::new();
        let result = searcher.search(&game, &self.limits, |info| {
            iterations.push(Iteration {
                depth: info.depth,
                nodes: info.nodes,
                time: info.time,
            });
            let _ = writeln!(out, "{}", info.line(|m| game.format_move(m)));
        });
        let best = result
            .best_move
            .expect("an ongoing game always gets a move");
        writeln!(
            out,
            "bestmove {} score {} depth {} nodes {} time {:.3}",
            game.format_move(best),
            result.score.compact(),
            result.depth,
            result.nodes,
            result.time.as_secs_f64()
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
            let score = match game.status() {
                Status::Over(Outcome::Draw) => Score::DRAW,
                Status::Over(Outcome::Win(side)) if side == mover => Score::win_in(1),
                Status::Over(Outcome::Win(_)) => Score::loss_in(1),
                Status::Ongoing => {
                    let reply = searcher.search(&game, &limits, |_| {});
                    // One ply further from the analysed position.
                    let s = reply.score;
                    if s.is_decisive() {
                        Score(-s.0 + s.0.signum())
                    } else {
                        -s
                    }
                }
            };
            game.undo();
            scored.push((score, mv));
        }
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        let mut out = crate::output::stdout();
        for (score, mv) in scored {
            writeln!(out, "{} {}", game.format_move(mv), score.compact())?;
        }
        Ok(())
    }
}
