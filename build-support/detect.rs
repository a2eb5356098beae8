//! Shared by the build scripts of the crates whose integration tests need a program from
//! outside Rust (a JDK, Chromium and chromedriver, tmux, Slurm). It looks for it when the tests
//! are built and sets a `cfg` when it is missing, so that such a test is compiled as
//! `#[ignore = "needs ..."]` and `cargo test` reports it as ignored, with the reason, instead of
//! passing without running. Where `ZEROSUM_REQUIRE_TOOLS` is set (as CI sets it) a missing one
//! is a build error instead: there, nothing may be skipped. (The test data is in the
//! repository, `data/`: nothing is skipped for want of it.)
//!
//! The build script runs again when `PATH`, the override variables or the directories on `PATH`
//! change (installing a JDK or Chromium is seen).

use std::path::{Path, PathBuf};

/// Whether an executable named one of `names` is on `PATH` (or `variable` names one). Watches
/// both, so that installing the program later makes the build script run again.
pub fn program(variable: Option<&str>, names: &[&str]) -> bool {
    println!("cargo::rerun-if-env-changed=PATH");
    if let Some(variable) = variable {
        println!("cargo::rerun-if-env-changed={variable}");
        if let Some(path) = std::env::var_os(variable) {
            return Path::new(&path).is_file();
        }
    }
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    let dirs: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|dir| dir.is_dir())
        .collect();
    for dir in &dirs {
        println!("cargo::rerun-if-changed={}", dir.display());
    }
    dirs.iter()
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .any(|candidate| candidate.is_file())
}

/// Declares `cfg`, sets it when `present` is false, and fails the build when it is missing
/// and the environment variable `required_by` is set. `what` names what is missing and how to
/// get it.
pub fn require(cfg: &str, present: bool, required_by: &str, what: &str) {
    println!("cargo::rustc-check-cfg=cfg({cfg})");
    println!("cargo::rerun-if-env-changed={required_by}");
    if present {
        return;
    }
    println!("cargo::rustc-cfg={cfg}");
    if std::env::var_os(required_by).is_some() {
        eprintln!("{required_by} is set, but {what}: the tests that need it cannot run");
        std::process::exit(1);
    }
    println!("cargo::warning=tests skipped (reported as ignored): {what}");
}
