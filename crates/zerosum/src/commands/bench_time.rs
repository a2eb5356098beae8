//! `zerosum bench time`: does our engine ever lose on time? It plays the engine against the
//! quasi-random player on every game family, colours alternating, a fixed time a move, several
//! games at once (one per core by default), optionally with a busy thread on every core, until
//! the engine has made the moves asked for; then prints the engine's forfeits and how late its
//! answers came (the referee's measure less the limit: negative is early). With
//! `--first-moves`, every game ends after the engine's first move, so that all the moves
//! measured are first moves of a new engine (its set-up, its first search), without grace.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use clap::Args;
use zerosum_arena::{
    play_game, PlayerSpec, RefereeEvent, RefereeOptions, Termination, TimeControl,
};
use zerosum_core::{Outcome, Side};
use zerosum_games::GameSpec;

/// One board of each game family: the games played unless `--specs` names others.
const FAMILIES: [&str; 6] = [
    "tictactoe",
    "gomoku",
    "connect4",
    "hex",
    "atoll",
    "unstable",
];

/// Options of `zerosum bench time`.
#[derive(Args, Debug)]
pub struct TimeBenchArgs {
    /// Engine moves to play in all.
    #[arg(long, default_value_t = 10_000)]
    moves: usize,
    /// Seconds a move.
    #[arg(long, default_value_t = 0.1)]
    st: f64,
    /// Games at once (default: the number of cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Keep every core busy with a spinning thread during the run.
    #[arg(long)]
    hog: bool,
    /// The games to play, comma-separated specs (default: one board of each family).
    #[arg(long, value_delimiter = ',')]
    specs: Vec<GameSpec>,
    /// End every game after the engine's first move: measure first moves only.
    #[arg(long)]
    first_moves: bool,
}

/// What one family's games showed.
#[derive(Default)]
struct Tally {
    games: usize,
    /// The engine's answers: lateness past the limit in microseconds (negative: early).
    lateness_us: Vec<i64>,
    forfeits: Vec<String>,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.games += other.games;
        self.lateness_us.extend(other.lateness_us);
        self.forfeits.extend(other.forfeits);
    }

    /// `moves forfeits worst p99`, lateness in ms.
    fn row(&mut self) -> String {
        self.lateness_us.sort_unstable();
        let moves = self.lateness_us.len();
        let quantile = |q: f64| -> String {
            if moves == 0 {
                return "-".into();
            }
            let index = ((moves as f64 * q).ceil() as usize).clamp(1, moves) - 1;
            format!("{:+.1}", self.lateness_us[index] as f64 / 1000.0)
        };
        format!(
            "{:>6} {:>7} {:>9} {:>10} {:>10}",
            self.games,
            moves,
            self.forfeits.len(),
            quantile(1.0),
            quantile(0.99)
        )
    }
}

/// `zerosum bench time [--moves N] [--st S] [--concurrency N] [--hog] [--specs LIST]
/// [--first-moves]`.
pub fn bench_time(args: &TimeBenchArgs) -> Result<()> {
    if !(args.st.is_finite() && args.st > 0.0 && args.st <= 60.0) {
        bail!(
            "--st must be a number of seconds above 0 and at most 60, not {}",
            args.st
        );
    }
    if args.moves == 0 {
        bail!("--moves must be at least 1");
    }
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    let concurrency = args.concurrency.unwrap_or(cores);
    if !(1..=1024).contains(&concurrency) {
        bail!("--concurrency must be between 1 and 1024, not {concurrency}");
    }
    let limit = Duration::from_secs_f64(args.st);
    let options = RefereeOptions {
        time: TimeControl::per_move(args.st),
        max_moves: None,
        adjudicate_nodes: None,
    };
    let specs: Vec<GameSpec> = if args.specs.is_empty() {
        FAMILIES
            .iter()
            .map(|name| name.parse())
            .collect::<Result<_, _>>()?
    } else {
        args.specs.clone()
    };
    // The rows are named as the games were asked for.
    let names: Vec<String> = if args.specs.is_empty() {
        FAMILIES.iter().map(|name| name.to_string()).collect()
    } else {
        specs.iter().map(GameSpec::to_string).collect()
    };
    let engine: PlayerSpec = "engine".parse()?;
    let reference: PlayerSpec = "quasi".parse()?;
    errln!(
        "time bench: {} engine {}moves at {} s a move, {concurrency} games at once, {}",
        args.moves,
        if args.first_moves { "first " } else { "" },
        args.st,
        if args.hog {
            format!("{cores} busy threads")
        } else {
            "no hog".into()
        }
    );

    let hog_stop = AtomicBool::new(false);
    let next_game = AtomicUsize::new(0);
    let engine_moves = AtomicUsize::new(0);
    let tallies: Mutex<Vec<Tally>> = Mutex::new(specs.iter().map(|_| Tally::default()).collect());
    let started = Instant::now();
    thread::scope(|scope| {
        if args.hog {
            for _ in 0..cores {
                scope.spawn(|| spin(&hog_stop));
            }
        }
        let workers: Vec<_> = (0..concurrency)
            .map(|_| {
                scope.spawn(|| {
                    while engine_moves.load(Ordering::Relaxed) < args.moves {
                        let index = next_game.fetch_add(1, Ordering::Relaxed);
                        let family = index % specs.len();
                        // Both colours for each game in turn.
                        let engine_side = if (index / specs.len()).is_multiple_of(2) {
                            Side::First
                        } else {
                            Side::Second
                        };
                        let options = RefereeOptions {
                            // The engine's first move is the first or second of the game.
                            max_moves: args.first_moves.then_some(engine_side.index() + 1),
                            ..options
                        };
                        let tally = play_one(
                            &specs[family],
                            [&engine, &reference],
                            engine_side,
                            &options,
                            limit,
                            index as u64,
                        );
                        engine_moves.fetch_add(tally.lateness_us.len(), Ordering::Relaxed);
                        tallies.lock().unwrap_or_else(|e| e.into_inner())[family].add(tally);
                    }
                })
            })
            .collect();
        for worker in workers {
            let _ = worker.join();
        }
        hog_stop.store(true, Ordering::Relaxed);
    });
    let took = started.elapsed();

    let mut tallies = tallies.into_inner().unwrap_or_else(|e| e.into_inner());
    let width = names.iter().map(String::len).max().unwrap_or(0).max(10);
    outln!(
        "{:<width$} {:>6} {:>7} {:>9} {:>10} {:>10}",
        "game",
        "games",
        "moves",
        "forfeits",
        "worst ms",
        "p99 ms"
    );
    let mut all = Tally::default();
    for (name, tally) in names.iter().zip(&mut tallies) {
        outln!("{name:<width$} {}", tally.row());
        all.add(std::mem::take(tally));
    }
    outln!("{:<width$} {}", "all", all.row());
    for reason in all.forfeits.iter().take(10) {
        outln!("forfeit: {reason}");
    }
    let moves = all.lateness_us.len();
    outln!(
        "{moves} engine moves, {} forfeits ({:.2}%), {:.0} s; answering threads {}",
        all.forfeits.len(),
        all.forfeits.len() as f64 * 100.0 / moves.max(1) as f64,
        took.as_secs_f64(),
        if zerosum_arena::prompt::prompt_allowed() {
            "real-time"
        } else {
            "ordinary (the real-time policy was refused: see the README)"
        }
    );
    Ok(())
}

/// Plays one game of `spec` between `players` (engine, reference), the engine on
/// `engine_side`, and tallies the engine's answers.
fn play_one(
    spec: &GameSpec,
    [engine, reference]: [&PlayerSpec; 2],
    engine_side: Side,
    options: &RefereeOptions,
    limit: Duration,
    seed: u64,
) -> Tally {
    let players = match engine_side {
        Side::First => [engine.build(), reference.build()],
        Side::Second => [reference.build(), engine.build()],
    };
    let late = |elapsed: Duration| elapsed.as_micros() as i64 - limit.as_micros() as i64;
    let mut tally = Tally {
        games: 1,
        ..Tally::default()
    };
    let played = play_game(spec, players, options, seed, &mut |event| {
        if let RefereeEvent::Moved { side, elapsed, .. } = event {
            if side == engine_side {
                tally.lateness_us.push(late(elapsed));
            }
        }
    });
    let forfeit = matches!(
        played.termination,
        Termination::Timeout | Termination::Stalled | Termination::Crash | Termination::IllegalMove
    );
    if forfeit && played.outcome == Outcome::Win(!engine_side) {
        // The lost turn is the record's last time (in ms), one more than the moves.
        if let Some(&ms) = played.move_ms.get(played.moves.len()) {
            tally
                .lateness_us
                .push(ms as i64 * 1000 - limit.as_micros() as i64);
        }
        tally.forfeits.push(format!("{spec}: {}", played.reason));
    }
    tally
}

/// Keeps a core busy until `stop`.
fn spin(stop: &AtomicBool) {
    let mut x = 1u64;
    while !stop.load(Ordering::Relaxed) {
        for _ in 0..10_000 {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
        }
    }
}
