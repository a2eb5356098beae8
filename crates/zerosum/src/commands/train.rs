//! `zerosum train`: fits the pattern weights of five in a row, or the pattern gammas of Hex, to
//! our own self-play games (see `zerosum_arena::training`) and writes them as a weights file.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use zerosum_arena::openings::generate::Plies;
use zerosum_arena::players::read_weights;
use zerosum_arena::training::hex_patterns::{train_hex, HexTrainOptions};
use zerosum_arena::training::{
    self, train_board, FitOptions, SelfPlayOptions, TrainOptions, TrainStage,
};
use zerosum_games::hex::HexSpec;
use zerosum_games::mnk::PatternWeights;
use zerosum_games::GameSpec;

use super::bench::cpu_time;
use super::parse_spec;

/// Options of `zerosum train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Game spec: five in a row (gomoku, gomoku:standard, renju; m,n,k with K = 5, at most
    /// 256 cells), or Hex on a square board (hex:N; the games are played without the swap).
    spec: String,
    /// Self-play games (every tenth kept aside to validate the fit).
    #[arg(long)]
    games: usize,
    /// Seed of the openings and budgets: the same options give the same weights.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Each side's nodes (Hex: Monte Carlo playouts) a move, drawn once a game from NODES to
    /// 4 x NODES.
    #[arg(long, default_value_t = 1000)]
    nodes: u64,
    /// Stones of each random opening: N, or a range A-B.
    #[arg(long, default_value = "3-4")]
    plies: Plies,
    /// The openings' stones lie in the central square of this many cells a side (five in a
    /// row, default 7; Hex openings take the whole board).
    #[arg(long)]
    square: Option<usize>,
    /// Threads playing the games (the weights are the same for any number).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Full passes of the fit over the positions (Hex: iterations of
    /// minorization-maximization).
    #[arg(long, default_value_t = FitOptions::default().epochs)]
    epochs: usize,
    /// Pull of the weights towards the starting ones, per squared unit (five in a row; default
    /// 1e-8).
    #[arg(long)]
    l2: Option<f64>,
    /// Hex: candidate cells a pattern needs in the training positions to get a gamma of its
    /// own (the rarer share one).
    #[arg(long)]
    min_count: Option<usize>,
    /// Start from (and play the games with) the weights of this file instead of the
    /// hand-set ones.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Write the weights file here.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// Patterns a Hex gamma needs by default ([`TrainArgs::min_count`]).
const HEX_MIN_COUNT: usize = 20;

/// `zerosum train SPEC --games N --out FILE [--seed S] [--nodes N] ...`.
pub fn train(args: &TrainArgs) -> Result<()> {
    let spec = parse_spec(&args.spec)?;
    if args.games == 0 || args.nodes == 0 || args.square == Some(0) {
        anyhow::bail!("--games, --nodes and --square must be at least 1");
    }
    if args.threads == 0 {
        anyhow::bail!("--threads must be at least 1");
    }
    if let Some(hex) = spec.params::<HexSpec>() {
        return train_hex_gammas(args, &spec, hex);
    }
    let start = train_board(&spec).map_err(anyhow::Error::msg)?;
    if args.min_count.is_some() {
        anyhow::bail!("--min-count is for Hex, not {spec}");
    }
    let square = args.square.unwrap_or(7);
    let l2 = args.l2.unwrap_or(FitOptions::default().l2);
    if !(l2 >= 0.0 && l2.is_finite()) {
        anyhow::bail!("--l2 must be a number of at least 0");
    }
    let prior = match &args.from {
        None => PatternWeights::hand_set(start.rule()),
        Some(path) => {
            let text = read_weights(path).map_err(anyhow::Error::msg)?;
            let weights = PatternWeights::parse(&text)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            if weights.rule != start.rule() {
                anyhow::bail!(
                    "{}: the weights are for the {} rule, the game is played under {}",
                    path.display(),
                    weights.rule.name(),
                    start.rule().name()
                );
            }
            weights
        }
    };
    let options = TrainOptions {
        self_play: SelfPlayOptions {
            games: args.games,
            seed: args.seed,
            nodes: args.nodes,
            plies: args.plies,
            square,
            threads: args.threads,
        },
        fit: FitOptions {
            epochs: args.epochs,
            l2,
            ..FitOptions::default()
        },
        prior,
    };
    let (wall, processor) = (Instant::now(), cpu_time());
    let step = (args.games / 20).max(1);
    let (weights, report) = training::train(&start, &options, |stage| match stage {
        TrainStage::Games(done) if done % step == 0 || done == args.games => {
            errln!(
                "{done} of {} games, {:.0} s",
                args.games,
                wall.elapsed().as_secs_f64()
            )
        }
        TrainStage::Epochs(epoch) if epoch == args.epochs => {
            errln!(
                "fitted: {epoch} epochs, {:.0} s",
                wall.elapsed().as_secs_f64()
            )
        }
        _ => {}
    });
    let mut comments = vec![format!(
        "made by: zerosum train {spec} --games {} --seed {} --nodes {} --plies {} --square {} \
         --epochs {} --l2 {}{}",
        args.games,
        args.seed,
        args.nodes,
        args.plies,
        square,
        args.epochs,
        l2,
        match &args.from {
            Some(path) => format!(" --from {}", path.display()),
            None => String::new(),
        }
    )];
    comments.extend(report.comments());
    let written = Written {
        text: weights.to_text(&comments),
        report: report.comments(),
        data: ("samples", report.data_bytes),
        what: "weights",
    };
    written.save(&args.out, wall, processor)
}

/// A trained file and what its run says of itself, for [`Written::save`].
struct Written {
    text: String,
    /// The trainer's report (also among the file's comments).
    report: Vec<String>,
    /// What the run held in memory, and its size in bytes.
    data: (&'static str, usize),
    /// What the file holds: `weights`, `gammas`.
    what: &'static str,
}

impl Written {
    /// Writes the file to `out`, then prints the report and the run's data size and times
    /// (since `wall`, and the processor time since `processor` where it is known).
    fn save(self, out: &Path, wall: Instant, processor: Option<Duration>) -> Result<()> {
        std::fs::write(out, &self.text)
            .with_context(|| format!("cannot write {}", out.display()))?;
        for line in &self.report {
            errln!("{line}");
        }
        let processor = match (processor, cpu_time()) {
            (Some(before), Some(after)) => {
                format!(", {:.0} s of processor", (after - before).as_secs_f64())
            }
            _ => String::new(),
        };
        errln!(
            "{} {:.1} MB; {:.0} s{processor}; {} in {}",
            self.data.0,
            self.data.1 as f64 / 1e6,
            wall.elapsed().as_secs_f64(),
            self.what,
            out.display()
        );
        Ok(())
    }
}

/// `zerosum train hex:N ...`: the gammas of the radius-2 patterns (see
/// `zerosum_arena::training::hex_patterns`).
fn train_hex_gammas(args: &TrainArgs, spec: &GameSpec, hex: &HexSpec) -> Result<()> {
    if hex.width != hex.height {
        anyhow::bail!("the Hex trainer plays square boards, not {spec}");
    }
    if args.square.is_some() || args.l2.is_some() || args.from.is_some() {
        anyhow::bail!("--square, --l2 and --from are for five in a row, not Hex");
    }
    let min_count = args.min_count.unwrap_or(HEX_MIN_COUNT);
    let options = HexTrainOptions {
        side: hex.width,
        games: args.games,
        seed: args.seed,
        playouts: args.nodes,
        plies: args.plies,
        threads: args.threads,
        iterations: args.epochs,
        min_count,
    };
    let (wall, processor) = (Instant::now(), cpu_time());
    let step = (args.games / 20).max(1);
    let (gammas, report) = train_hex(&options, |stage| match stage {
        TrainStage::Games(done) if done % step == 0 || done == args.games => {
            errln!(
                "{done} of {} games, {:.0} s",
                args.games,
                wall.elapsed().as_secs_f64()
            )
        }
        TrainStage::Epochs(iteration) if iteration == args.epochs => {
            errln!(
                "fitted: {iteration} iterations, {:.0} s",
                wall.elapsed().as_secs_f64()
            )
        }
        _ => {}
    });
    let mut comments = vec![format!(
        "made by: zerosum train hex:{} --games {} --seed {} --nodes {} --plies {} --epochs {} \
         --min-count {min_count}",
        hex.width, args.games, args.seed, args.nodes, args.plies, args.epochs
    )];
    comments.extend(report.comments());
    let written = Written {
        text: gammas.to_text(&comments),
        report: report.comments(),
        data: ("moves", report.data_bytes),
        what: "gammas",
    };
    written.save(&args.out, wall, processor)
}
