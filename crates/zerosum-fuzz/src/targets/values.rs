//! The command line's values that the library crates parse: player specs, time controls,
//! SPRT parameters, scoring schemes, presets.

use std::time::Duration;

use zerosum_arena::clock::{parse_clock, parse_seconds};
use zerosum_arena::{preset, Pentanomial, PlayerSpec, Scoring, SprtParams, TimeControl};

use super::{corpus_of, text, Target, Verdict};

pub const PLAYER_SPEC: Target = Target {
    name: "player-spec",
    about:
        "player specs (PlayerSpec: engine:time=..,depth=.., cmd=...,proto=gtp, java:CLASS,cp=..)",
    corpus: || {
        corpus_of(&[
            "engine",
            "engine:time=0.5,depth=12,nodes=100000,hash=64,algo=mtdf",
            "engine:threads=2,name=fast",
            "quasi",
            "random:name=R",
            "human",
            "cmd=/bin/mybot --fast,proto=gtp,name=mybot",
            "cmd=pbrain-x,proto=gomocup",
            r#"cmd="mohex --config 'a b,c'",proto=gtp,init="param_mohex max_time 0.9;x",margin=200"#,
            "java:PnDb,cp=players",
            "engine:algo=mcts,time=0.1",
        ])
    },
    tokens: &[
        "engine",
        "quasi",
        "random",
        "human",
        "cmd=",
        "proto=",
        "gtp",
        "gomocup",
        "java:",
        "cp=",
        "name=",
        "time=",
        "depth=",
        "nodes=",
        "hash=",
        "threads=",
        "algo=",
        "mtdf",
        "pvs",
        "alphabeta",
        "minimax",
        "mcts",
        ",",
        "=",
        ":",
    ],
    share: 1,
    run: |input| {
        let spec = text(input).parse::<PlayerSpec>();
        if let Ok(spec) = &spec {
            let _ = spec.display_name();
        }
        Verdict::of(&spec)
    },
};

pub const TIME: Target = Target {
    name: "time-control",
    about: "time values (--st seconds, --tc BASE+INC) and the time control they make",
    corpus: || {
        corpus_of(&[
            "0.1", "1", "60+0.5", "300", "0", "604800", "1e-9", " 2.5 ", "+1",
        ])
    },
    tokens: &["+", ".", "e", "-", "inf", "NaN", "604800", "604801"],
    share: 1,
    run: |input| {
        let text = text(input);
        let seconds = parse_seconds(&text, "--st");
        let clock = parse_clock(&text);
        if let (&Ok(seconds), &Ok(clock)) = (&seconds, &clock) {
            let (base, increment) = (clock.base, clock.increment);
            let control = TimeControl {
                per_move: Some(seconds),
                base: Some(base),
                increment,
                moves_per_period: clock.moves,
                first_move_grace: seconds,
                ..TimeControl::default()
            };
            let _ = control.validate();
            let _ = control.to_string();
            let _ = control.move_limit(Some(base + increment), true);
            let _ = TimeControl::per_move(seconds.as_secs_f64()).move_limit(None, false);
        }
        let accepted = seconds.is_ok() || clock.is_ok();
        if let Ok(seconds) = &seconds {
            assert!(
                *seconds <= Duration::from_secs(7 * 24 * 3600),
                "`{text}` is {seconds:?}"
            );
        }
        if accepted {
            Verdict::Accepted
        } else {
            Verdict::Rejected
        }
    },
};

pub const SETTINGS: Target = Target {
    name: "settings",
    about: "SPRT parameters (--sprt), scoring schemes (--scoring) and presets (--preset)",
    corpus: || {
        corpus_of(&[
            "elo0=0,elo1=5,alpha=0.05,beta=0.05",
            "elo0=0 elo1=20 alpha=0.1 beta=0.1",
            "cx",
            "mnk",
            "cx-course",
            "mnk-course",
        ])
    },
    tokens: &[
        "elo0=", "elo1=", "alpha=", "beta=", "cx", "mnk", "-course", ",", "0.05",
    ],
    share: 1,
    run: |input| {
        let text = text(input);
        let sprt = text.parse::<SprtParams>();
        if let Ok(sprt) = &sprt {
            // The LLR of every parameter set the parser accepts, on pair counts from the
            // input's bytes (none, a few, and up to 2^24 each: a schedule holds at most 10
            // million games, 5 million pairs).
            let mut counts = [0u32; 5];
            for (index, &byte) in input.iter().enumerate() {
                let count = &mut counts[index % 5];
                *count = count.wrapping_mul(31).wrapping_add(byte.into()) % (1 << 24);
            }
            for pairs in [Pentanomial::default(), Pentanomial { counts }] {
                let status = sprt.status(&pairs);
                assert!(status.llr.is_finite(), "LLR {} for {pairs}", status.llr);
                let _ = status.verdict();
            }
        }
        let scoring = text.parse::<Scoring>();
        let preset = preset(&text);
        if let Some(preset) = preset {
            let _ = preset.games();
        }
        if sprt.is_ok() || scoring.is_ok() || preset.is_some() {
            Verdict::Accepted
        } else {
            Verdict::Rejected
        }
    },
};
