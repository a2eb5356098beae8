//! A small JSON file naming external engines, so that matches and tournaments can say
//! `mybot` instead of `cmd=/path/to/mybot --fast,proto=gtp`:
//!
//! ```json
//! { "engines": [ { "name": "mybot", "cmd": "/path/to/mybot --fast", "proto": "gtp" },
//!                { "name": "mohex", "cmd": "/opt/mohex --config 'my dir/a,b'", "proto": "gtp",
//!                  "init": ["param_mohex max_time 0.9"], "margin": 200 } ] }
//! ```
//!
//! `cmd` is a command line, split into words shell-like (quotes group, see
//! [`crate::players`]); `init` lists the engine's setup commands and `margin` its own time
//! margin in milliseconds, as `init=` and `margin=` do in a spec.

use std::path::Path;
use std::time::Duration;

use serde::Deserialize;
use thiserror::Error;
use zerosum_core::capped_read;

use crate::players::{
    ExternalEngine, PlayerKind, PlayerSpec, Protocol, INIT_SEPARATOR, MAX_MARGIN_MS,
};

/// Why an engine list cannot be used.
#[derive(Debug, Error)]
pub enum EngineListError {
    #[error("{path}: {reason}")]
    Unreadable { path: String, reason: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineEntry {
    name: String,
    cmd: String,
    proto: String,
    #[serde(default)]
    init: Vec<String>,
    /// Milliseconds.
    margin: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineFile {
    engines: Vec<EngineEntry>,
}

/// Named external engines.
#[derive(Clone, Debug, Default)]
pub struct EngineList {
    /// Each name with its player spec (`cmd=...,proto=...,name=...`).
    entries: Vec<(String, String)>,
}

/// Largest engine list read: 1 MiB (thousands of engines).
pub const MAX_ENGINE_LIST_BYTES: u64 = 1 << 20;

impl EngineList {
    /// Reads and checks an engine list (at most [`MAX_ENGINE_LIST_BYTES`]).
    pub fn load(path: &Path) -> Result<EngineList, EngineListError> {
        let unreadable = |reason: String| EngineListError::Unreadable {
            path: path.display().to_string(),
            reason,
        };
        let text = capped_read::read_text_file(path, MAX_ENGINE_LIST_BYTES)
            .map_err(|e| unreadable(e.problem.to_string()))?;
        let file: EngineFile =
            serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))?;
        let mut entries: Vec<(String, String)> = Vec::new();
        for entry in file.engines {
            // A name is looked up trimmed (see `resolve`): white space around it would make
            // the engine unreachable.
            if entry.name.trim().is_empty()
                || entry.name.trim() != entry.name
                || entry.name.contains([',', '='])
            {
                return Err(unreadable(format!(
                    "engine name `{}` must be non-empty, without white space around it, `,` or `=`",
                    entry.name.escape_debug()
                )));
            }
            if entries.iter().any(|(name, _)| *name == entry.name) {
                return Err(unreadable(format!(
                    "engine `{}` is listed twice",
                    entry.name
                )));
            }
            let bad = |why: String| unreadable(format!("engine `{}`: {why}", entry.name));
            let protocol = entry.proto.parse::<Protocol>().map_err(bad)?;
            let command = crate::players::split_command_line(&entry.cmd).map_err(bad)?;
            if command.is_empty() {
                return Err(bad("empty cmd".into()));
            }
            if let Some(command) = entry
                .init
                .iter()
                .find(|c| c.trim().is_empty() || c.contains(['\n', '\r', INIT_SEPARATOR]))
            {
                return Err(bad(format!(
                    "init command `{}` must be one non-empty line without `{INIT_SEPARATOR}`",
                    command.escape_debug()
                )));
            }
            if entry.margin.is_some_and(|ms| ms > MAX_MARGIN_MS) {
                return Err(bad(format!("margin must be at most {MAX_MARGIN_MS} ms")));
            }
            let spec = PlayerSpec {
                kind: PlayerKind::External(ExternalEngine {
                    command,
                    protocol,
                    init: entry.init.iter().map(|c| c.trim().to_string()).collect(),
                    margin: entry.margin.map(Duration::from_millis),
                }),
                name: Some(entry.name.clone()),
            };
            // The spec in words that read back to the same engine.
            let text = spec.to_string();
            if text.parse::<PlayerSpec>().ok().as_ref() != Some(&spec) {
                return Err(bad(format!("cannot be written as a player spec: `{text}`")));
            }
            entries.push((entry.name, text));
        }
        Ok(EngineList { entries })
    }

    /// The names of the listed engines, in the file's order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(name, _)| name.as_str())
    }

    /// The player spec for `player`: a listed engine's spec for its name, else `player` as is.
    pub fn resolve(&self, player: &str) -> String {
        self.entries
            .iter()
            .find(|(name, _)| name == player.trim())
            .map_or_else(|| player.to_string(), |(_, spec)| spec.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("zerosum-{name}-{}.json", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn listed_engines_resolve_to_their_specs_and_others_stay() {
        let path = write(
            "engines-ok",
            r#"{"engines": [{"name": "mybot", "cmd": "/bin/mybot --fast", "proto": "gtp"}]}"#,
        );
        let list = EngineList::load(&path).unwrap();
        assert_eq!(
            list.resolve("mybot"),
            "cmd=/bin/mybot --fast,proto=gtp,name=mybot"
        );
        assert_eq!(list.resolve("quasi"), "quasi");
        assert_eq!(list.names().collect::<Vec<_>>(), ["mybot"]);
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn listed_engines_take_commas_quotes_init_commands_and_a_margin() {
        let path = write(
            "engines-init",
            r#"{"engines": [{"name": "mohex", "cmd": "/opt/mohex --config 'my dir/a,b'",
                "proto": "gtp", "init": ["param_mohex max_time 0.9", "param_mohex x 1"],
                "margin": 200}]}"#,
        );
        let list = EngineList::load(&path).unwrap();
        let spec: PlayerSpec = list.resolve("mohex").parse().unwrap();
        let PlayerKind::External(engine) = spec.kind else {
            panic!("{spec:?}")
        };
        assert_eq!(engine.command, ["/opt/mohex", "--config", "my dir/a,b"]);
        assert_eq!(engine.init, ["param_mohex max_time 0.9", "param_mohex x 1"]);
        assert_eq!(engine.margin, Some(Duration::from_millis(200)));
        assert_eq!(spec.name.as_deref(), Some("mohex"));
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn bad_lists_name_the_problem() {
        for (text, words) in [
            (
                r#"{"engines": [{"name": "a", "cmd": "x", "proto": "uci"}]}"#,
                "unknown protocol",
            ),
            (r#"{"engines": [{"name": "a", "cmd": "x"}]}"#, "proto"),
            (
                r#"{"engines": [{"name": "a", "cmd": "x", "proto": "gtp"},
                               {"name": "a", "cmd": "y", "proto": "gtp"}]}"#,
                "twice",
            ),
            ("not json", "expected"),
            (
                r#"{"engines": [{"name": "a", "cmd": "x 'open", "proto": "gtp"}]}"#,
                "unclosed quote",
            ),
            (
                r#"{"engines": [{"name": "a", "cmd": "x", "proto": "gtp", "init": ["a;b"]}]}"#,
                "must be one non-empty line without `;`",
            ),
            (
                r#"{"engines": [{"name": "a", "cmd": "x", "proto": "gtp", "margin": 70000}]}"#,
                "margin must be at most 60000 ms",
            ),
            // Found by fuzzing: a listed name that no lookup could reach.
            (
                r#"{"engines": [{"name": "mybot\t", "cmd": "x", "proto": "gtp"}]}"#,
                "engine name `mybot\\t` must be non-empty, without white space around it",
            ),
        ] {
            let path = write("engines-bad", text);
            let error = EngineList::load(&path).unwrap_err().to_string();
            assert!(error.contains(words), "{text}: {error}");
            std::fs::remove_file(path).unwrap();
        }
    }
}
