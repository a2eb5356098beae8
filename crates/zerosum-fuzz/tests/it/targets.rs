//! Every fuzz target, run for a bounded number of inputs on every `cargo test`: no panic, no
//! hang, and the inputs reach the parser (some are accepted, some refused).

use std::time::Duration;

use zerosum_fuzz::{all_targets, run_target, RunOptions, Target, Verdict};

/// Inputs per target of share 1 (targets that open connections run fewer).
const INPUTS: u64 = 1500;

#[test]
fn every_target_runs_without_panics_or_hangs() {
    let mut failures = Vec::new();
    for target in all_targets() {
        let options = RunOptions {
            inputs: (INPUTS / target.share).max(8),
            seed: 2026,
            hang_limit: Duration::from_secs(5),
        };
        let report = run_target(target, &options);
        println!("{report:?}");
        if report.panics + report.hangs > 0 {
            failures.push(format!(
                "{}: {} panics, {} hangs (inputs printed above)",
                target.name, report.panics, report.hangs
            ));
        }
        if report.inputs != options.inputs {
            failures.push(format!(
                "{}: ran {} of {} inputs",
                target.name, report.inputs, options.inputs
            ));
        }
        if report.accepted == 0 || report.rejected == 0 {
            failures.push(format!(
                "{}: {} accepted, {} refused: the inputs do not exercise the parser",
                target.name, report.accepted, report.rejected
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn targets_have_distinct_names() {
    let mut names: Vec<&str> = all_targets().iter().map(|t| t.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), all_targets().len());
}

/// Panics on inputs with an `x`, sleeps on inputs with a `z`.
static FRAGILE: Target = Target {
    name: "fragile",
    about: "a target that fails on purpose",
    corpus: || vec![b"abc".to_vec(), b"xyz".to_vec(), b"aaa".to_vec()],
    tokens: &["x", "z"],
    share: 1,
    run: |input| {
        if input.contains(&b'z') {
            std::thread::sleep(Duration::from_millis(400));
        }
        assert!(!input.contains(&b'x'), "found an x");
        Verdict::Accepted
    },
};

#[test]
fn panics_and_hangs_are_caught_counted_and_saved() {
    let report = run_target(
        &FRAGILE,
        &RunOptions {
            inputs: 200,
            seed: 1,
            hang_limit: Duration::from_millis(100),
        },
    );
    assert!(report.panics > 0, "{report:?}");
    assert!(report.hangs > 0, "{report:?}");
    let saved = std::fs::read_dir(zerosum_fuzz::FAILURE_DIR)
        .unwrap()
        .filter_map(Result::ok)
        .any(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .starts_with("fragile-panic-")
        });
    assert!(saved, "no saved input in {}", zerosum_fuzz::FAILURE_DIR);
}
