//! What the page offers to choose from: the game families with their example specs, the course
//! presets' boards, the built-in players and the external engines the server was configured
//! with; and [`page_player`], which reads a player the page names and refuses any other.
//! Sent to every tab in its `hello` event.

use serde_json::{json, Value};
use zerosum_arena::{EngineList, PlayerKind, PlayerSpec, PRESETS};
use zerosum_games::{families, Family, GameSpec};

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

/// A game spec the page offers, as JSON: `spec` as written, `name` (the game as people name
/// it) and `board_words` (its board in words); see [`Family::game_name`].
fn offered_game(spec: &str) -> Value {
    match spec.parse::<GameSpec>() {
        Ok(parsed) => json!({
            "spec": spec,
            "name": parsed.family().game_name(&parsed),
            "board_words": parsed.family().board_words(&parsed),
        }),
        Err(_) => json!({"spec": spec, "name": spec, "board_words": ""}),
    }
}

/// How the page lists `family`: the names of the games it offers that have one of their own,
/// then the family's title (`Tic-tac-toe, Gomoku, Renju (m,n,k)`, `Chain Reaction (Unstable)`), or
/// the title alone (`Hex`).
pub fn family_label(family: &dyn Family) -> String {
    let mut names: Vec<String> = Vec::new();
    for example in family.examples() {
        if let Ok(spec) = example.parse::<GameSpec>() {
            let name = family.game_name(&spec);
            if name != family.title() && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    match names.is_empty() {
        true => family.title().to_string(),
        false => format!("{} ({})", names.join(", "), family.title()),
    }
}

/// The catalog as JSON: `families` (name, label (see [`family_label`]), forms, rules,
/// notation, examples, and `games`, the examples with their names (see [`offered_game`]);
/// every family registered, see [`zerosum_games::families`]), `presets` (name, description,
/// games, `named_games` (the games with their names), seconds per move, rounds) and `players`
/// (label, spec; the built-in ones, then `engines` by name).
pub fn catalog(engines: &EngineList) -> Value {
    let families: Vec<Value> = families()
        .into_iter()
        .map(|family| {
            json!({
                "name": family.name(),
                "label": family_label(family),
                "forms": family.forms(),
                "rules": family.rules(),
                "notation": family.notation(),
                "examples": family.examples(),
                "games": family.examples().iter().map(|spec| offered_game(spec)).collect::<Vec<_>>(),
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
                "named_games": preset.games().iter().map(|spec| offered_game(spec)).collect::<Vec<_>>(),
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
    fn families_and_games_are_listed_by_the_names_people_use() {
        let catalog = catalog(&EngineList::default());
        let label = |name: &str| {
            catalog["families"]
                .as_array()
                .unwrap()
                .iter()
                .find(|family| family["name"] == name)
                .map(|family| family["label"].clone())
                .unwrap()
        };
        assert_eq!(label("mnk"), "Tic-tac-toe, Gomoku, Renju (m,n,k)");
        assert_eq!(label("connectx"), "Connect Four (Connect-X)");
        assert_eq!(label("hex"), "Hex");
        assert_eq!(label("atoll"), "Atoll");
        assert_eq!(label("unstable"), "Chain Reaction (Unstable)");
        let games = catalog["families"][0]["games"].to_string();
        assert!(
            games.contains(
                r#"{"board_words":"3x3, three in a row","name":"Tic-tac-toe","spec":"tictactoe"}"#
            ),
            "{games}"
        );
        for preset in catalog["presets"].as_array().unwrap() {
            for game in preset["named_games"].as_array().unwrap() {
                assert_ne!(game["board_words"], "", "{game}");
            }
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
