//! `zerosum`: the command line. It parses arguments and wires the crates together; rules live
//! in `zerosum-games`, vocabulary in `zerosum-core`.

mod commands;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
        /// Moves to play first, separated by commas (e.g. `a1,b2,c3`; `4453` on Connect Four).
        #[arg(long, allow_hyphen_values = true, default_value = "")]
        moves: String,
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
        /// Moves to play before counting.
        #[arg(long, allow_hyphen_values = true, default_value = "")]
        moves: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Games => commands::games(),
        Command::Show { spec, moves, json } => commands::show(&spec, &moves, json),
        Command::Perft { spec, depth, moves } => commands::perft(&spec, depth, &moves),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
