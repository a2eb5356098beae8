//! Fuzzing on stable Rust: a target for every parser and protocol of zerosum, a seeded
//! mutator that turns each target's corpus of valid inputs into hostile ones, and a runner
//! that catches panics and watches for hangs.
//!
//! A [`Target`] is a function of bytes that drives one parser through its public API (a game
//! spec, a move in each game family, a GTP or Gomocup session, the game-server protocol, an
//! HTTP request, the web page's commands, record lines, engine lists, player specs, time
//! controls, opening-book files) and says whether the input was accepted or refused. The [`Mutator`] generates
//! inputs from the target's seed corpus by byte flips, inserts, deletes, splices, grammar
//! tokens, huge numbers, long lines, invalid UTF-8, NULs and mixed line ends, plus purely
//! random bytes. [`run_target`] runs each input under `catch_unwind` and a watchdog: a panic
//! or an input running longer than the hang limit is printed (target and input, escaped) and
//! saved under `target/fuzz-failures/`.
//!
//! The driver: `cargo run -p zerosum-fuzz -- --inputs 1000000 [--target NAME]
//! [--seed S]`; `--list` names the targets, `--replay FILE --target NAME` runs one saved input.
//!
//! Modules: `runner` runs a target's inputs from `mutate` (the [`Mutator`]); `targets` holds
//! one module per parser family (`spec`, `moves`, `protocols` over the `fake_engine`, `net`,
//! `http`, `web`, `records`, `lists` (which reuses the record targets' settings), `values` and
//! `book`).

mod fake_engine;
mod mutate;
mod runner;
pub mod targets;

pub use mutate::Mutator;
pub use runner::{replay, run_target, Report, RunOptions, FAILURE_DIR};
pub use targets::{all_targets, Target, Verdict};
