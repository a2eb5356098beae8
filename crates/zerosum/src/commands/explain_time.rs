//! `zerosum explain-time`: what a time control buys the built-in engine at each layer of a
//! move, from the referee's limit to the search's last iteration, in a match or tournament
//! and when served over GTP or Gomocup (every number from [`TimeBudget`]).

use std::fmt::Write;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use zerosum_arena::TimeControl;
use zerosum_core::TimeBudget;

use super::time_args::TimeArgs;

/// Options of `zerosum explain-time`.
#[derive(Args, Debug)]
pub struct ExplainTimeArgs {
    #[command(flatten)]
    time: TimeArgs,
    /// The stall to allow for: how long searches have lately lost the processor (measured
    /// while the engine plays; 0 on an idle machine), in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    stall: u64,
}

/// Prints the layers of a move under the time control of `args`.
pub fn explain_time(args: &ExplainTimeArgs) -> Result<()> {
    let control = args.time.control(1.0)?;
    let stall = Duration::from_millis(args.stall);
    if stall > TimeBudget::MAX_STALL {
        bail!(
            "--stall must be at most {} ms (the most a search makes up for), not {}",
            TimeBudget::MAX_STALL.as_millis(),
            args.stall
        );
    }
    out!("{}", explain(&control, stall)?);
    Ok(())
}

/// One layer of the table: its name and its time in a match and when served (`None`: the
/// layer is not on that path).
struct Row {
    name: &'static str,
    arena: Option<Duration>,
    served: Option<Duration>,
}

/// The times of the layers after the player's allotment `allotted`, for a player that thinks
/// `thinking`.
fn engine_rows(thinking: TimeBudget, stall: Duration) -> [Duration; 5] {
    let aim = thinking.search_aim(stall);
    [
        thinking.duration(),
        thinking.hard_stop(stall),
        thinking.duration() - aim,
        aim,
        TimeBudget::deepening_cutoff(aim),
    ]
}

/// The table of what `control` buys a move with `stall`, as text.
fn explain(control: &TimeControl, stall: Duration) -> Result<String> {
    let mut out = String::new();
    // A move that is not the player's first (no grace), with the clock as the game starts.
    let limit = control.move_limit(control.base, false);
    let allotted = TimeBudget::for_move(limit, control.base, control.increment);
    let (Some(limit), Some(allotted)) = (limit, allotted) else {
        bail!("{control}: moves are untimed, so the engine keeps to its own limits");
    };
    let clock = control.base.map_or(String::new(), |base| {
        format!(" with {} s on the clock", base.as_secs_f64())
    });
    let _ = writeln!(
        out,
        "{control}: a move{clock}, a stall of {} ms\n(the stall is measured while the engine \
         plays: 0 on an idle machine, at most {} ms)\n",
        stall.as_millis(),
        TimeBudget::MAX_STALL.as_millis()
    );
    let served = allotted.served();
    let arena_rows = engine_rows(allotted.thinking(), stall);
    let served_rows = engine_rows(served.thinking(), stall);
    let mut rows = vec![
        Row {
            name: "the referee's limit",
            arena: Some(limit),
            served: None,
        },
        Row {
            name: "forfeit after (limit + margin)",
            arena: Some(limit + control.margin),
            served: None,
        },
        Row {
            name: "allotted (limit, or clock/20 + 3/4 inc.)",
            arena: Some(allotted.duration()),
            served: Some(allotted.duration()),
        },
        Row {
            name: "protocol overhead kept back",
            arena: None,
            served: Some(allotted.protocol_overhead()),
        },
        Row {
            name: "answer reserve kept back",
            arena: Some(allotted.answer_reserve()),
            served: Some(served.answer_reserve()),
        },
    ];
    let names = [
        "the player thinks",
        "its answering thread's hard stop",
        "unwind reserve and stall kept back",
        "the search aims to stop",
        "no new iteration (alpha-beta) after",
    ];
    for (i, name) in names.into_iter().enumerate() {
        rows.push(Row {
            name,
            arena: Some(arena_rows[i]),
            served: Some(served_rows[i]),
        });
    }
    let width = rows.iter().map(|row| row.name.len()).max().unwrap_or(0);
    let ms = |time: Option<Duration>| {
        time.map_or("-".to_string(), |t| {
            format!("{:.1} ms", t.as_secs_f64() * 1000.0)
        })
    };
    let _ = writeln!(
        out,
        "{:width$}  {:>14}  {:>14}",
        "layer", "match", "gtp, gomocup"
    );
    for row in rows {
        let _ = writeln!(
            out,
            "{:width$}  {:>14}  {:>14}",
            row.name,
            ms(row.arena),
            ms(row.served)
        );
    }
    out.push_str(
        "\nTimes count from the start of the move's clock; served, the controller allots as much.\n\
         An engine's own time= caps what it thinks; a game's exact oracle may spend half of that\n\
         first and the search gets the rest. Monte Carlo search runs to its aim.\n",
    );
    Ok(out)
}
