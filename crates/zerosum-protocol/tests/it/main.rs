//! Integration tests of zerosum-protocol: the GTP and Gomocup servers against a fake engine.
//!
//! One test binary for the crate (a module per area), so a fresh `cargo test` links one
//! binary here instead of one per file.

mod gomocup;
mod gtp;
mod gui;
mod support;
