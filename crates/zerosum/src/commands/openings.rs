//! `zerosum openings`: writes an opening suite (see `zerosum_arena::openings::generate`).

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use zerosum_arena::openings::generate::{generate, Judge, JudgeTuning, Plies, SuiteOptions};
use zerosum_arena::players::PlayerSpec;

use super::parse_spec;

/// Options of `zerosum openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// Game spec.
    spec: String,
    /// Moves in each opening: N, or a range A-B (each opening's number drawn from it).
    #[arg(long)]
    plies: Plies,
    /// Draw the moves from the empty cells of the central square of this many cells a side
    /// (boards of named cells: m,n,k, Hex, Atoll) instead of the engine's candidate moves.
    #[arg(long)]
    square: Option<usize>,
    /// Openings wanted.
    #[arg(long)]
    count: usize,
    /// Keep only openings close to even: on Connect-X boards the solver fits, |Pons score| <=
    /// threshold (default 2: a draw or a win in the last moves); elsewhere a fixed-depth
    /// search's evaluation within +/- threshold, no proven result; or by --judge selfplay or
    /// engine.
    #[arg(long)]
    balanced: bool,
    /// Who judges: the game's default (solver or search), or selfplay: the default engine
    /// plays each opening out against itself --games times at --nodes nodes a move (up to
    /// twice that in the last game), kept when the side to move scores within --threshold
    /// half-points of half the points (default 6 games, 5000 nodes, 2: 2 to 4 points of 6);
    /// or engine: the default engine (Monte Carlo on Hex and Atoll) searches --nodes nodes,
    /// kept when its score is an evaluation within +/- threshold (default 20000 nodes, 80: a
    /// Monte Carlo win rate from 0.45 to 0.55).
    #[arg(long, requires = "balanced", value_enum, default_value_t = JudgeKind::Default)]
    judge: JudgeKind,
    /// The judge's threshold (Pons score, evaluation units, or self-play half-points;
    /// defaults per game).
    #[arg(long, requires = "balanced", allow_negative_numbers = true)]
    threshold: Option<i32>,
    /// The judge's search depth (the default judge off the solver's boards; defaults per
    /// game).
    #[arg(long, requires = "balanced")]
    depth: Option<usize>,
    /// Self-play games per opening (--judge selfplay).
    #[arg(long, requires = "balanced")]
    games: Option<usize>,
    /// Self-play nodes a move in the first game (--judge selfplay), or the engine judge's
    /// nodes (--judge engine).
    #[arg(long, requires = "balanced")]
    nodes: Option<u64>,
    /// The self-play judge's player instead of the default engine: any player `match` takes
    /// (`engine:eval=...`, `cmd=PROGRAM,proto=gomocup|gtp,...`), two instances playing each
    /// opening out, each move within --st seconds (the time drawn for each game from --st to
    /// twice that); a game it forfeits ends the run with an error.
    #[arg(long, value_name = "PLAYER", requires = "st")]
    player: Option<String>,
    /// Seconds a move of the judge's --player in its first game.
    #[arg(long, value_name = "SECONDS", requires = "player")]
    st: Option<f64>,
    /// Threads judging the openings, each with a judge of its own (the suite is the same for
    /// any number).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the suite here instead of to standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Who judges a balanced suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum JudgeKind {
    /// The solver on Connect-X boards it fits, else a fixed-depth search.
    Default,
    /// The default engine playing the opening out against itself.
    Selfplay,
    /// The default engine's search of --nodes nodes (Monte Carlo on Hex and Atoll): its score
    /// within the threshold.
    Engine,
}

/// `zerosum openings SPEC --plies N --count C [--balanced [--judge selfplay]] [--seed S]
/// [--out FILE]`.
pub fn openings(args: &OpeningsArgs) -> Result<()> {
    let spec = parse_spec(&args.spec)?;
    if args.threshold.is_some_and(|t| t < 0) {
        anyhow::bail!("--threshold must be at least 0");
    }
    if let Err(e) = zerosum_search::Threads::new(args.threads) {
        anyhow::bail!("--threads: {e}");
    }
    let self_play = args.judge == JudgeKind::Selfplay;
    let engine = args.judge == JudgeKind::Engine;
    if !self_play && args.games.is_some() {
        anyhow::bail!("--games is for --judge selfplay");
    }
    if !(self_play || engine) && args.nodes.is_some() {
        anyhow::bail!("--nodes is for --judge selfplay or engine");
    }
    if (self_play || engine) && args.depth.is_some() {
        anyhow::bail!("--depth is not for --judge selfplay or engine (they search by --nodes)");
    }
    if args.player.is_some() && (!self_play || args.nodes.is_some()) {
        anyhow::bail!("--player is for --judge selfplay, without --nodes (it plays by --st)");
    }
    let players = match (&args.player, args.st) {
        (Some(player), Some(seconds)) => {
            let player: PlayerSpec = player
                .parse()
                .map_err(|e| anyhow::anyhow!("--player: {e}"))?;
            if !(seconds.is_finite() && (0.001..=3600.0).contains(&seconds)) {
                anyhow::bail!("--st must be from 0.001 to 3600 seconds, not {seconds}");
            }
            Some(Judge::players(player, (seconds * 1000.0).round() as u64))
        }
        _ => None,
    };
    let tuning = JudgeTuning {
        threshold: args.threshold,
        depth: args.depth,
        games: args.games,
        nodes: args.nodes,
    };
    let judge = args.balanced.then(|| {
        let judge = match players {
            Some(players) => players,
            None if self_play => Judge::self_play(),
            None if engine => Judge::engine(),
            None => Judge::default_for(&spec),
        };
        judge.with(&tuning)
    });
    let options = SuiteOptions {
        plies: args.plies,
        square: args.square,
        count: args.count,
        seed: args.seed,
        judge,
        threads: args.threads,
    };
    let suite = generate(&spec, &options).map_err(anyhow::Error::msg)?;
    if suite.lines.len() < args.count {
        match suite.available {
            Some(available) => errln!(
                "warning: only {} of {} openings: {spec} has {available} distinct positions \
                 after {} plies{}",
                suite.lines.len(),
                args.count,
                args.plies,
                if options.judge.is_some() {
                    format!(", {} of them judged", suite.judged)
                } else {
                    String::new()
                }
            ),
            None => errln!(
                "warning: only {} of {} openings found ({} distinct positions tried)",
                suite.lines.len(),
                args.count,
                suite.judged
            ),
        }
    }
    match &args.out {
        Some(path) => std::fs::write(path, suite.text())
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => out!("{}", suite.text()),
    }
    errln!(
        "{} openings of {} distinct positions",
        suite.lines.len(),
        suite.judged
    );
    Ok(())
}
