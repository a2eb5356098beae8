//! `zerosum`: the command line. It parses arguments and wires the crates together; rules live
//! in `zerosum-games`, search in `zerosum-search`, vocabulary in `zerosum-core`.
//!
//! Modules: `main` parses and dispatches to `commands::*`, one module per group of
//! subcommands: `rules` (games, show, perft), `search` (search, analyze: the engine options),
//! `solve` and `bench` (which use `search`), `protocol` (gtp, gomocup), `web` (serve),
//! `arena` (match, tournament; uses `web` for `--serve`), `play` (a game at the terminal; uses
//! `arena`), `openings` (opening suites), `report` (charts of a record), `depth_chart` (`--svg`
//! of search and bench), `merge` and `slurm` (shards: merged as one run, run on Slurm; use
//! `arena` and `results`, what a run prints at its end),
//! `network` (server, client; uses `arena`), `soak` (bench soak: kills and resumes
//! tournaments of this binary) and `explain_time` (what a time control buys; uses `arena`'s
//! time options). Beside them: `output` (every command prints through it, never through std's
//! macros, which the lints below refuse) and `stopping` (how any command stops on a signal or
//! a closed output), and `errors` (the one error line).

#![deny(clippy::print_stdout, clippy::print_stderr)]

#[macro_use]
mod output;
mod commands;
mod errors;
mod stopping;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use zerosum_search::{Algorithm, Threads};

use commands::bench::SolverBench;
use commands::search::EngineOptions;
use stopping::ClosedOutput;

/// An engine and arena for two-player, zero-sum, perfect-information board games.
#[derive(Parser)]
#[command(name = "zerosum", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games, their spec forms and aliases.
    Games,
    /// Print a position: board, side to move, status and legal moves.
    Show {
        /// Game spec, e.g. connect4, mnk:15x15x5, hex:11, atoll:standard, unstable:10x6.
        spec: String,
        #[command(flatten)]
        position: Position,
        /// Start from the end of the game in this file (.sgf, .psq or .pgn, as `zerosum
        /// export` writes them; HexGui's SGF, Piskvork's PSQ); --moves are played after it.
        #[arg(long, value_name = "FILE")]
        file: Option<std::path::PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Count the positions reached after 1..=DEPTH moves (a finished game is not continued),
    /// with the speed of each count.
    Perft {
        /// Game spec.
        spec: String,
        /// Deepest count.
        depth: usize,
        #[command(flatten)]
        position: Position,
    },
    /// Search a position by iterative deepening: one info line per iteration, then the best
    /// move (on Connect-X, what the opening book and the solver prove first).
    Search {
        /// Game spec.
        spec: String,
        #[command(flatten)]
        position: Position,
        #[command(flatten)]
        engine: Engine,
        /// Also draw the nodes and time of each iteration in this SVG file (log scales).
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
    },
    /// The value of every legal move, best first.
    Analyze {
        /// Game spec.
        spec: String,
        #[command(flatten)]
        position: Position,
        #[command(flatten)]
        engine: Engine,
    },
    /// The exact value of a position and the moves that keep it; with --stdin, of one
    /// position per line (`moves [anything]`), printing `position score` per line.
    Solve {
        /// Game spec.
        spec: String,
        #[command(flatten)]
        position: Position,
        /// Read positions from standard input, one per line, instead of --moves.
        #[arg(long, conflicts_with = "moves")]
        stdin: bool,
        /// Win, draw or loss only (faster).
        #[arg(long)]
        weak: bool,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Threads of the Connect-X solver (Lazy SMP, same answers); 1 searches as before.
        #[arg(long, default_value_t = Threads::ONE)]
        threads: Threads,
        /// Seconds to give up after, printing the best bound proved (no limit by default).
        #[arg(long, allow_negative_numbers = true)]
        time: Option<f64>,
        /// Nodes to give up after, printing the best bound proved.
        #[arg(long)]
        nodes: Option<u64>,
    },
    /// Connect-X opening books: build one with the solver, probe a position, show a book.
    Book {
        #[command(subcommand)]
        command: commands::book::BookCommand,
    },
    /// What a time control (--st, --tc) buys the engine at each layer of a move: the
    /// referee's limit, the reserves kept back, when the search aims to stop.
    ExplainTime(commands::explain_time::ExplainTimeArgs),
    /// Play one game at the terminal (a human against the engine by default); the board is
    /// drawn after every move.
    Play(commands::play::PlayArgs),
    /// A match of two players on one game, colours alternating.
    Match(commands::arena::MatchArgs),
    /// A round robin of players over game configurations, both colours, with standings,
    /// crosstable and Elo; with no arguments, the quick preset.
    Tournament(commands::arena::TournamentArgs),
    /// Read the records of a tournament's shards (--shard K/N) as one: checks they are one
    /// tournament's, names missing games, prints standings, crosstable, Elo and SPRT as one run.
    Merge(commands::merge::MergeArgs),
    /// Run a tournament or match as a Slurm job array of N shards and a job that merges them.
    Slurm(commands::slurm::SlurmArgs),
    /// Write an opening suite: distinct random move lists from the start, one a line, with
    /// --balanced only those the solver or a fixed-depth search finds close to even.
    Openings(commands::openings::OpeningsArgs),
    /// Fit the pattern weights of five in a row to our own self-play games (logistic
    /// regression on the games' results) and write them as a weights file.
    Train(commands::train::TrainArgs),
    /// Referee one game between two network clients (the Unstable game-server protocol, for
    /// every game).
    Server(commands::network::ServerArgs),
    /// Play one game on a game server.
    Client(commands::network::ClientArgs),
    /// Write the games of a record as game files: SGF (Hex, Atoll), PSQ (m,n,k) or a
    /// PGN-style text (every game).
    Export(commands::files::ExportArgs),
    /// The standings of a record and its charts as SVG files: standings with Elo error bars,
    /// Elo against games played, the score of each pair, time used per move.
    Report(commands::report::ReportArgs),
    /// Serve the engine over GTP v2 on standard input and output (every game; Hex tools).
    Gtp(commands::protocol::GtpArgs),
    /// Serve the engine over the Gomocup (pbrain) protocol on standard input and output
    /// (m,n,k games).
    Gomocup(commands::protocol::GomocupArgs),
    /// Serve the browser page: play and watch every game (prints the address).
    Serve(commands::web::ServeArgs),
    /// Benchmark: fixed positions searched to fixed depths; the last line is the node
    /// signature. With --threads N, the time to depth of N threads against one.
    #[command(args_conflicts_with_subcommands = true)]
    Bench {
        #[command(subcommand)]
        suite: Option<BenchSuite>,
        #[command(flatten)]
        threads: commands::bench_threads::ThreadBenchArgs,
        /// Also draw the nodes and time of each iteration of every position in this SVG file
        /// (log scales).
        #[arg(long, value_name = "FILE", conflicts_with = "threads")]
        svg: Option<std::path::PathBuf>,
    },
}

#[derive(Subcommand)]
enum BenchSuite {
    /// Kill a tournament with SIGKILL at random (seeded) moments, resume it each time, and
    /// check that its record ends with exactly the scheduled games and the standings of an
    /// uninterrupted run.
    Soak(commands::soak::SoakArgs),
    /// Engine against the quasi-random player on every game family at a fixed time a move,
    /// several games at once: the engine's forfeits and how late its answers came.
    Time(commands::bench_time::TimeBenchArgs),
    /// Solve test sets of `moves score` lines, the table cleared before each position, and
    /// the empty board with --empty; prints mean wall-clock and processor time per position.
    Connect4 {
        /// Test set files (e.g. data/connect4/pons/Test_L3_R1).
        #[arg(required_unless_present = "empty")]
        files: Vec<String>,
        /// Also solve the empty board (after the files).
        #[arg(long)]
        empty: bool,
        /// Board of the files.
        #[arg(long, default_value = "connect4")]
        spec: String,
        /// Moves are 0-based digits (as in the 9x5 sets), not 1-based.
        #[arg(long)]
        zero_based: bool,
        /// Only the first N positions of each file.
        #[arg(long)]
        limit: Option<usize>,
        /// Win, draw or loss only.
        #[arg(long)]
        weak: bool,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Solver threads (Lazy SMP); the nodes are those of every thread.
        #[arg(long, default_value_t = Threads::ONE)]
        threads: Threads,
        /// One JSON object per file.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
struct Position {
    /// Moves to play first, separated by commas (e.g. `a1,b2,c3`; `4453` on Connect Four).
    #[arg(long, allow_hyphen_values = true, default_value = "")]
    moves: String,
}

#[derive(Args)]
struct Engine {
    /// Seconds for the whole search (default 1 when no limit is given).
    #[arg(long, allow_negative_numbers = true)]
    time: Option<f64>,
    /// Deepest iteration.
    #[arg(long)]
    depth: Option<usize>,
    /// Node budget.
    #[arg(long)]
    nodes: Option<u64>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search algorithm: pvs, mtdf, alphabeta, minimax or mcts (Monte Carlo tree search).
    #[arg(long, default_value = "pvs")]
    algo: Algorithm,
    /// Threads searching together (Lazy SMP); 1 is deterministic.
    #[arg(long, default_value_t = Threads::ONE)]
    threads: Threads,
    /// The evaluation by name, where the game has several (m,n,k with K = 5: windows or
    /// patterns); the game's default when not given.
    #[arg(long)]
    eval: Option<String>,
    /// A weights file for the evaluation (m,n,k with K = 5: the pattern weights, as `zerosum
    /// train` writes them).
    #[arg(long, value_name = "FILE")]
    weights: Option<String>,
}

impl Engine {
    fn options(&self) -> EngineOptions {
        EngineOptions {
            time: self.time,
            depth: self.depth,
            nodes: self.nodes,
            hash_mb: self.hash,
            algorithm: self.algo,
            threads: self.threads,
            eval: self.eval.clone(),
            weights: self.weights.clone(),
        }
    }
}

impl Command {
    /// What a closed output means for the command: the commands that play, serve or build
    /// something stop unfinished (a failure), those that read and print just end.
    fn closed_output(&self) -> ClosedOutput {
        match self {
            Command::Play(_)
            | Command::Match(_)
            | Command::Tournament(_)
            | Command::Slurm(_)
            | Command::Server(_)
            | Command::Client(_)
            | Command::Gtp(_)
            | Command::Gomocup(_)
            | Command::Serve(_)
            | Command::Book {
                command: commands::book::BookCommand::Build(_),
            }
            | Command::Bench {
                suite: Some(BenchSuite::Soak(_) | BenchSuite::Time(_)),
                ..
            } => ClosedOutput::CutsShort,
            Command::Games
            | Command::Show { .. }
            | Command::Perft { .. }
            | Command::Search { .. }
            | Command::Analyze { .. }
            | Command::Solve { .. }
            | Command::Book { .. }
            | Command::Merge(_)
            | Command::Openings(_)
            | Command::Train(_)
            | Command::Export(_)
            | Command::Report(_)
            | Command::ExplainTime(_)
            | Command::Bench { .. } => ClosedOutput::Ends,
        }
    }
}

fn main() -> ExitCode {
    let cli = match errors::parse_arguments::<Cli>() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    stopping::install(cli.command.closed_output());
    let result = match cli.command {
        Command::Games => commands::rules::games(),
        Command::Show {
            spec,
            position,
            file,
            json,
        } => commands::rules::show(&spec, &position.moves, json, file.as_deref()),
        Command::Perft {
            spec,
            depth,
            position,
        } => commands::rules::perft(&spec, depth, &position.moves),
        Command::Search {
            spec,
            position,
            engine,
            svg,
        } => commands::search::search(&spec, &position.moves, &engine.options(), svg.as_deref()),
        Command::Analyze {
            spec,
            position,
            engine,
        } => commands::search::analyze(&spec, &position.moves, &engine.options()),
        Command::Solve {
            spec,
            position,
            stdin,
            weak,
            hash,
            threads,
            time,
            nodes,
        } => {
            let moves = (!stdin).then_some(position.moves.as_str());
            let options = commands::solve::SolveOptions {
                weak,
                hash_mb: hash,
                threads: threads.get(),
                time,
                nodes,
            };
            commands::solve::solve(&spec, moves, &options)
        }
        Command::Book { command } => commands::book::book(&command),
        Command::ExplainTime(args) => commands::explain_time::explain_time(&args),
        Command::Play(args) => commands::play::play(&args),
        Command::Match(args) => commands::arena::play_match(&args),
        Command::Tournament(args) => commands::arena::tournament(&args),
        Command::Merge(args) => commands::merge::merge(&args),
        Command::Slurm(args) => commands::slurm::slurm(&args),
        Command::Openings(args) => commands::openings::openings(&args),
        Command::Train(args) => commands::train::train(&args),
        Command::Server(args) => commands::network::server(&args),
        Command::Client(args) => commands::network::client(&args),
        Command::Export(args) => commands::files::export(&args),
        Command::Report(args) => commands::report::report(&args),
        Command::Gtp(args) => commands::protocol::gtp(&args),
        Command::Gomocup(args) => commands::protocol::gomocup(&args),
        Command::Serve(args) => commands::web::serve(&args),
        Command::Bench {
            suite: None,
            threads,
            svg,
        } => match threads.threads() {
            Some(n) => commands::bench_threads::bench_threads(&threads, n),
            None => commands::bench::bench(svg.as_deref()),
        },
        Command::Bench {
            suite: Some(BenchSuite::Soak(args)),
            ..
        } => commands::soak::soak(&args),
        Command::Bench {
            suite: Some(BenchSuite::Time(args)),
            ..
        } => commands::bench_time::bench_time(&args),
        Command::Bench {
            suite:
                Some(BenchSuite::Connect4 {
                    files,
                    empty,
                    spec,
                    zero_based,
                    limit,
                    weak,
                    hash,
                    threads,
                    json,
                }),
            ..
        } => commands::bench::bench_solver(&SolverBench {
            files,
            empty,
            spec,
            zero_based,
            limit,
            weak,
            hash_mb: hash,
            threads: threads.get(),
            json,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => errors::fail(&format!("{err:#}")),
    }
}
