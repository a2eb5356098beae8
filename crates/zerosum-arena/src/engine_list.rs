//! A small JSON file naming external engines, so that matches and tournaments can say
//! `mybot` instead of `cmd=/path/to/mybot --fast,proto=gtp`:
//!
//! ```json
//! { "engines": [ { "name": "mybot", "cmd": "/path/to/mybot --fast", "proto": "gtp" } ] }
//! ```

use std::path::Path;

use serde::Deserialize;
use thiserror::Error;

use crate::players::{PlayerSpec, Protocol};

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

impl EngineList {
    /// Reads and checks an engine list.
    pub fn load(path: &Path) -> Result<EngineList, EngineListError> {
        let unreadable = |reason: String| EngineListError::Unreadable {
            path: path.display().to_string(),
            reason,
        };
        let text = std::fs::read_to_string(path).map_err(|e| unreadable(e.to_string()))?;
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
            entry
                .proto
                .parse::<Protocol>()
                .map_err(|e| unreadable(format!("engine `{}`: {e}", entry.name)))?;
            if entry.cmd.contains(',') {
                return Err(unreadable(format!(
                    "engine `{}`: the command may not contain `,`",
                    entry.name
                )));
            }
            let spec = format!(
                "cmd={},proto={},name={}",
                entry.cmd, entry.proto, entry.name
            );
            spec.parse::<PlayerSpec>()
                .map_err(|e| unreadable(format!("engine `{}`: {e}", entry.name)))?;
            entries.push((entry.name, spec));
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
