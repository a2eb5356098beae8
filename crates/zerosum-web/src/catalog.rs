//! What the page offers to choose from: the game families with their example specs, the course
//! presets' boards, the built-in players and the external engines the server was configured
//! with; and [`page_player`], which reads a player the page names and refuses any other.
//! Sent to every tab in its `hello` event.

use serde_json::{json, Value};
use zerosum_arena::{EngineList, PlayerKind, PlayerSpec, PRESETS};
use zerosum_games::families;

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

/// Reads a player the page names: `human`, a built-in player spec (`engine:time=0.5`, `quasi`,
/// `random`) or the name of one of `engines`. Programs named any other way (`cmd=`, `java:`)
/// are refused, since anyone who can reach the page could name any command.
pub fn page_player(text: &str, engines: &EngineList) -> Result<PlayerSpec, String> {
    let resolved = engines.resolve(text);
    let spec: PlayerSpec = resolved.parse().map_err(|error| format!("{error}"))?;
    let listed = resolved != text;
    match spec.kind {
        PlayerKind::External(_) if listed => Ok(spec),
        PlayerKind::External(_) | PlayerKind::Java(_) => Err(format!(
            "`{text}`: the page plays built-in players and the engines the server was started \
             with (--engines) only"
        )),
        _ => Ok(spec),
    }
}

/// The catalog as JSON: `families` (name, forms, rules, notation, examples; every family
/// registered, see [`zerosum_games::families`]), `presets`
/// (name, description, games, seconds per move, rounds) and `players` (label, spec; the
/// built-in ones, then `engines` by name).
pub fn catalog(engines: &EngineList) -> Value {
    let families: Vec<Value> = families()
        .into_iter()
        .map(|family| {
            json!({
                "name": family.name(),
                "forms": family.forms(),
                "rules": family.rules(),
                "notation": family.notation(),
                "examples": family.examples(),
            })
        })
        .collect();
    let presets: Vec<Value> = PRESETS
        .iter()
        .map(|preset| {
            json!({
                "name": preset.name,
                "description": preset.description,
                "games": preset.games(),
                "seconds_per_move": preset.seconds_per_move,
                "rounds": preset.rounds,
            })
        })
        .collect();
    let players: Vec<Value> = PLAYERS
        .iter()
        .map(|(label, spec)| json!({"label": label, "spec": spec}))
        .chain(
            engines
                .names()
                .map(|name| json!({"label": format!("{name} (external)"), "spec": name})),
        )
        .collect();
    json!({"families": families, "presets": presets, "players": players})
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_games::GameSpec;

    #[test]
    fn every_offer_can_be_played() {
        for family in families() {
            assert!(!family.examples().is_empty(), "{}", family.name());
            for example in family.examples() {
                let spec: GameSpec = example.parse().unwrap();
                assert_eq!(spec.family().name(), family.name(), "{example}");
            }
        }
        for (_, spec) in PLAYERS {
            page_player(spec, &EngineList::default()).unwrap();
        }
    }

    #[test]
    fn only_listed_programs_are_played() {
        let path =
            std::env::temp_dir().join(format!("zerosum-web-engines-{}.json", std::process::id()));
        std::fs::write(
            &path,
            r#"{"engines": [{"name": "mybot", "cmd": "/bin/mybot", "proto": "gtp"}]}"#,
        )
        .unwrap();
        let engines = EngineList::load(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let listed = page_player("mybot", &engines).unwrap();
        assert!(matches!(listed.kind, PlayerKind::External(_)));
        assert!(page_player("cmd=/bin/sh,proto=gtp", &engines).is_err());
        assert!(page_player("java:Foo,cp=/tmp", &engines).is_err());
        assert!(page_player("mybot", &EngineList::default()).is_err());
        let offered = catalog(&engines)["players"].to_string();
        assert!(offered.contains(r#""spec":"mybot""#), "{offered}");
    }
}
