//! Integration tests of zerosum-search: agreement with minimax, the solver, play per family, engine
//! matches, proofs kept from move to move.
//!
//! One test binary for the crate (a module per area), so a fresh `cargo test` links one
//! binary here instead of one per file.

mod agreement;
mod common;
mod engine_play;
mod erased;
mod hard_stop;
mod hex_dfpn;
mod mcts;
mod play_atoll;
mod play_connect;
mod play_hex;
mod play_mnk;
mod play_unstable;
mod proof;
mod solver;
mod threads;
