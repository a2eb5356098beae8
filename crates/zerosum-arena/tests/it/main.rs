//! Integration tests of zerosum-arena: the engine against the reference players, its exact play, external engines, Java course
//! players, misbehaving players, the game server.
//!
//! One test binary for the crate (a module per area), so a fresh `cargo test` links one
//! binary here instead of one per file.

mod answers;
mod engine_clock;
mod engine_play;
mod exact_play;
mod external;
mod game_server;
mod guest_seats;
mod java_course;
mod misbehaving;
mod shipped_openings;
mod take_back;
mod training;
