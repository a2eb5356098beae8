//! What the page offers to choose from: the game families with example specs, the course
//! presets' boards and the built-in players. Sent to every tab in its `hello` event.

use serde_json::{json, Value};
use zerosum_arena::PRESETS;
use zerosum_games::FAMILIES;

/// Example specs per family, the first being the family's default on the page.
const EXAMPLES: &[(&str, &[&str])] = &[
    ("mnk", &["tictactoe", "mnk:4x4x3", "mnk:7x7x5", "gomoku"]),
    (
        "connectx",
        &["connect4", "connectx:5x4x4", "connectx:7x7x5"],
    ),
    ("hex", &["hex:7", "hex:11", "hex:11:swap-sides", "hex:13"]),
    ("atoll", &["atoll:standard", "atoll:standard:pie"]),
    ("unstable", &["unstable:10x6", "unstable:6x6"]),
];

/// The players a side may have, as `[label, spec]` pairs.
const PLAYERS: &[(&str, &str)] = &[
    ("Human (you)", "human"),
    ("Engine, 0.1 s a move", "engine:time=0.1"),
    ("Engine, 0.5 s a move", "engine:time=0.5"),
    ("Engine, 2 s a move", "engine:time=2"),
    ("Engine, depth 4", "engine:depth=4"),
    ("Quasi-random (R4nd0m++ / L1)", "quasi"),
    ("Random (R4nd0m / L0)", "random"),
];

/// The catalog as JSON: `families` (name, forms, rules, notation, examples), `presets`
/// (name, description, games) and `players` (label, spec).
pub fn catalog() -> Value {
    let families: Vec<Value> = FAMILIES
        .iter()
        .map(|family| {
            let examples = EXAMPLES
                .iter()
                .find(|(name, _)| *name == family.name)
                .map_or(&[][..], |(_, examples)| examples);
            json!({
                "name": family.name,
                "forms": family.forms,
                "rules": family.rules,
                "notation": family.notation,
                "examples": examples,
            })
        })
        .collect();
    let presets: Vec<Value> = PRESETS
        .iter()
        .map(|preset| {
            json!({
                "name": preset.name,
                "description": preset.description,
                "games": preset.games,
            })
        })
        .collect();
    let players: Vec<Value> = PLAYERS
        .iter()
        .map(|(label, spec)| json!({"label": label, "spec": spec}))
        .collect();
    json!({"families": families, "presets": presets, "players": players})
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_arena::PlayerSpec;
    use zerosum_core::GameSpec;

    #[test]
    fn every_offer_can_be_played() {
        for (family, examples) in EXAMPLES {
            assert!(FAMILIES.iter().any(|f| f.name == *family));
            for example in *examples {
                let spec: GameSpec = example.parse().unwrap();
                assert_eq!(spec.family(), *family, "{example}");
            }
        }
        assert_eq!(EXAMPLES.len(), FAMILIES.len());
        for (_, spec) in PLAYERS {
            spec.parse::<PlayerSpec>().unwrap();
        }
    }
}
