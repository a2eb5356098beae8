//! The subcommands, one module per concern. Each returns an error for `main` to print as one
//! line.

pub mod arena;
pub mod bench;
pub mod bench_threads;
pub mod bench_time;
pub mod book;
pub mod depth_chart;
pub mod explain_time;
pub mod files;
pub mod game_output;
pub mod gui_analysis;
pub mod merge;
pub mod network;
pub mod openings;
pub mod play;
pub mod protocol;
pub mod report;
pub mod results;
pub mod rules;
pub mod search;
pub mod slurm;
pub mod soak;
pub mod solve;
pub mod solve_progress;
pub mod time_args;
pub mod train;
pub mod under_way;
pub mod web;

use anyhow::Result;
use zerosum_games::GameSpec;

/// Parses a game spec given on the command line.
pub fn parse_spec(text: &str) -> Result<GameSpec> {
    Ok(text.parse::<GameSpec>()?)
}
