//! The fuzz driver: runs every target (or the chosen ones) for N inputs each and prints, per
//! target, the inputs run, how many the parser accepted and refused, the panics and the hangs,
//! then a total line. Exits with 1 when anything panicked or hung.
//!
//! Run it in the default (dev) profile: it is optimised here and keeps the overflow checks and
//! debug assertions that `--release` leaves out, and an overflow is a finding.
//!
//! ```sh
//! cargo run -p zerosum-fuzz -- --inputs 1000000 [--target NAME]... [--seed S] [--hang-ms 3000]
//! cargo run -p zerosum-fuzz -- --list
//! cargo run -p zerosum-fuzz -- --replay target/fuzz-failures/FILE --target NAME
//! ```

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use zerosum_core::capped_read::read_file;
use zerosum_fuzz::{all_targets, replay, run_target, Report, RunOptions, Target};

const USAGE: &str =
    "usage: zerosum-fuzz [--inputs N] [--target NAME]... [--seed S] [--hang-ms MS] \
                     | --list | --replay FILE --target NAME";

struct Args {
    options: RunOptions,
    targets: Vec<String>,
    list: bool,
    replay: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        options: RunOptions {
            inputs: 10_000,
            seed: 1,
            hang_limit: Duration::from_secs(3),
        },
        targets: Vec::new(),
        list: false,
        replay: None,
    };
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        let mut value = |name: &str| words.next().ok_or(format!("{name} needs a value"));
        let number = |text: String, name: &str| {
            text.parse::<u64>()
                .map_err(|_| format!("{name} takes a whole number, not `{text}`"))
        };
        match word.as_str() {
            "--inputs" => args.options.inputs = number(value("--inputs")?, "--inputs")?,
            "--seed" => args.options.seed = number(value("--seed")?, "--seed")?,
            "--hang-ms" => {
                args.options.hang_limit =
                    Duration::from_millis(number(value("--hang-ms")?, "--hang-ms")?)
            }
            "--target" => args.targets.push(value("--target")?),
            "--replay" => args.replay = Some(value("--replay")?),
            "--list" => args.list = true,
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    if args.list {
        for target in all_targets() {
            println!("{:<22} {}", target.name, target.about);
        }
        return ExitCode::SUCCESS;
    }
    let chosen: Vec<&'static Target> = if args.targets.is_empty() {
        all_targets().iter().collect()
    } else {
        let mut chosen = Vec::new();
        for name in &args.targets {
            match all_targets().iter().find(|t| t.name == name) {
                Some(target) => chosen.push(target),
                None => {
                    eprintln!("unknown target `{name}` (--list names them)");
                    return ExitCode::FAILURE;
                }
            }
        }
        chosen
    };
    if let Some(file) = &args.replay {
        let [target] = chosen.as_slice() else {
            eprintln!("--replay needs exactly one --target");
            return ExitCode::FAILURE;
        };
        // Inputs are at most about 1 MiB (a long line past the protocols' cap).
        let input = match read_file(Path::new(file), 64 << 20) {
            Ok(input) => input,
            Err(error) => {
                eprintln!("{error}");
                return ExitCode::FAILURE;
            }
        };
        println!("{}: {:?}", target.name, replay(target, &input));
        return ExitCode::SUCCESS;
    }
    let mut total = Report {
        target: "total",
        ..Report::default()
    };
    let started = Instant::now();
    for target in chosen {
        let options = RunOptions {
            inputs: (args.options.inputs / target.share).max(1),
            ..args.options.clone()
        };
        let start = Instant::now();
        let report = run_target(target, &options);
        print_report(&report, start.elapsed());
        total.inputs += report.inputs;
        total.accepted += report.accepted;
        total.rejected += report.rejected;
        total.panics += report.panics;
        total.hangs += report.hangs;
    }
    print_report(&total, started.elapsed());
    if total.panics + total.hangs > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn print_report(report: &Report, elapsed: Duration) {
    println!(
        "{:<22} {:>10} inputs ({} accepted, {} refused), {} panics, {} hangs, {:.1} s",
        report.target,
        report.inputs,
        report.accepted,
        report.rejected,
        report.panics,
        report.hangs,
        elapsed.as_secs_f64()
    );
}
