//! Integration tests of zerosum-games: rules, perft, hashing and notation of every family; the Connect-X solver.
//!
//! One test binary for the crate (a module per area), so a fresh `cargo test` links one
//! binary here instead of one per file.

mod atoll;
mod connect;
mod connect_book;
mod connect_solver;
mod connect_solver_threads;
mod families;
mod gomoku_rules;
mod hex;
mod hex_analysis;
mod hex_gammas;
mod hex_knowledge;
mod hex_playout;
mod mnk;
mod observation;
mod pattern_weights;
mod unstable;
mod winning_lines;
