//! Integration tests of the zerosum command line, run as a user runs it (the built binary);
//! `own_family` plays a game family the binary does not know, through the libraries it wires.
//!
//! One test binary for the crate (a module per area), so a fresh `cargo test` links one
//! binary here instead of one per file.

mod arena;
mod board_sizes;
mod book;
mod browser;
mod charts;
mod cli;
mod engine_glue;
mod errors;
mod exact_play;
mod examples;
mod external_engines;
mod game_files;
mod input_caps;
mod java_course;
mod known_results;
mod long_commands;
mod mcts;
mod module_cycles;
mod network;
mod openings;
mod own_family;
mod peak_memory;
mod protocol;
mod records;
mod shards;
mod slurm;
mod solver_threads;
mod stopping;
mod support;
mod terminal;
mod threads;
mod time_and_memory;
mod train;
mod web;
mod web_access;
