//! The messages between the page and the server. The page posts one [`Command`] per request
//! (JSON, tagged by `type`); the server answers on the tab's event stream with JSON events:
//!
//! - `hello`: `session` (the id to post commands with), `catalog` (games, presets, players) and
//!   `watching` (whether the server shows a tournament of `zerosum tournament --serve`);
//! - `state`: after every change, the whole game: `game` (the [`zerosum_games::DynGame`] JSON),
//!   `players` (names), `humans` (which sides the page plays), `thinking` (the side an engine
//!   is searching for, or null), `used_ms` (time each side has used), `limit_ms` (each side's
//!   time for a move, null when unlimited), `turn_ms` (how long the side to move has had the
//!   turn), `result` (null while the game goes on, else e.g. `first player wins`);
//! - `search`: an engine's line for the move it just played: `side`, `move`, `line`
//!   ([`SearchLine`]) or `comment` (its raw text when it is no search line);
//! - `tournament`: the tournament the tab watches (see [`crate::tournament_feed`]);
//! - `error`: `message`, for a command that could not be carried out; `command` (its `type`)
//!   and `field` (the value of the command it concerns, e.g. `games`) when known, so the page
//!   shows it next to the control that caused it ([`CommandError`]).

use serde::{Deserialize, Serialize};

/// What the page asks for.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// A new game of `spec` between `players` (first, second), each `human` (the page) or a
    /// built-in player spec (`engine:time=0.5`, `quasi`, `random`).
    New { spec: String, players: [String; 2] },
    /// The page's move, in the game's notation.
    Move {
        #[serde(rename = "move")]
        text: String,
    },
    /// Take back the last move, and the engine replies before it, until a human is to move.
    Undo,
    /// The players exchange sides; the game goes on from the same position.
    Swap,
    /// Start a round robin of `players` (built-in player specs or configured engine names) over
    /// `games` (game specs), `rounds` times, `seconds` per move; the tab then watches it.
    Tournament {
        players: Vec<String>,
        games: Vec<String>,
        seconds: f64,
        rounds: usize,
    },
}

impl Command {
    /// The command's `type`, as the page sends it.
    pub fn name(&self) -> &'static str {
        match self {
            Command::New { .. } => "new",
            Command::Move { .. } => "move",
            Command::Undo => "undo",
            Command::Swap => "swap",
            Command::Tournament { .. } => "tournament",
        }
    }
}

/// Why a command (or an engine's move) was not carried out: the message, the command's
/// [`Command::name`] and the field of the command the message concerns, when known.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandError {
    pub message: String,
    pub command: Option<&'static str>,
    pub field: Option<&'static str>,
}

impl CommandError {
    /// An error about the value `field` of a command.
    pub fn in_field(field: &'static str, message: impl Into<String>) -> CommandError {
        CommandError {
            message: message.into(),
            command: None,
            field: Some(field),
        }
    }

    /// This error, as the answer to the command named `command`.
    pub fn of_command(self, command: &'static str) -> CommandError {
        CommandError {
            command: Some(command),
            ..self
        }
    }

    /// The `error` event.
    pub fn event(&self) -> serde_json::Value {
        serde_json::json!({
            "type": "error",
            "message": self.message,
            "command": self.command,
            "field": self.field,
        })
    }
}

impl From<String> for CommandError {
    /// An error about the command as a whole.
    fn from(message: String) -> CommandError {
        CommandError {
            message,
            command: None,
            field: None,
        }
    }
}

/// An engine's report on the move it played, read from its comment
/// (`depth D score S nodes N nps X time T pv M...`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SearchLine {
    pub depth: u32,
    /// `win in N`, `loss in N` or a signed evaluation, from the engine's side.
    pub score: String,
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Seconds searched.
    pub seconds: f64,
    /// The principal variation, starting with the move played.
    pub pv: Vec<String>,
    /// What the engine added in parentheses (why it chose a drawing move), if anything.
    pub note: Option<String>,
}

impl SearchLine {
    /// Reads an engine comment; `None` when it lacks depth, score or nodes. Compact scores
    /// (`win-in-3`) are spelt out (`win in 3`).
    pub fn parse(comment: &str) -> Option<SearchLine> {
        const KEYS: [&str; 6] = ["depth", "score", "nodes", "nps", "time", "pv"];
        let (line, note) = match comment.split_once('(') {
            Some((line, note)) => (line, Some(note.trim_end_matches(')').trim().to_string())),
            None => (comment, None),
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let value_of = |key: &str| -> Option<Vec<&str>> {
            let start = words.iter().position(|word| *word == key)? + 1;
            let end = words[start..]
                .iter()
                .position(|word| KEYS.contains(word))
                .map_or(words.len(), |offset| start + offset);
            Some(words[start..end].to_vec())
        };
        let number =
            |key: &str| -> Option<String> { value_of(key)?.first().map(|w| w.to_string()) };
        Some(SearchLine {
            depth: number("depth")?.parse().ok()?,
            score: value_of("score")
                .map(|words| words.join(" "))?
                .replace("-in-", " in "),
            nodes: number("nodes")?.parse().ok()?,
            nps: number("nps").and_then(|nps| nps.parse().ok()).unwrap_or(0),
            seconds: number("time")
                .and_then(|time| time.trim_end_matches('s').parse().ok())
                .unwrap_or(0.0),
            pv: value_of("pv")
                .unwrap_or_default()
                .into_iter()
                .map(String::from)
                .collect(),
            note,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_from_json() {
        let new: Command =
            serde_json::from_str(r#"{"type":"new","spec":"connect4","players":["human","quasi"]}"#)
                .unwrap();
        assert_eq!(
            new,
            Command::New {
                spec: "connect4".into(),
                players: ["human".into(), "quasi".into()]
            }
        );
        let played: Command = serde_json::from_str(r#"{"type":"move","move":"b2"}"#).unwrap();
        assert_eq!(played, Command::Move { text: "b2".into() });
        assert!(serde_json::from_str::<Command>(r#"{"type":"resign"}"#).is_err());
        let tournament: Command = serde_json::from_str(
            r#"{"type":"tournament","players":["quasi","random"],"games":["tictactoe"],"seconds":0.1,"rounds":2}"#,
        )
        .unwrap();
        assert!(matches!(tournament, Command::Tournament { rounds: 2, .. }));
        assert!(serde_json::from_str::<Command>(r#"{"type":"move","move":"b2","x":1}"#).is_err());
    }

    #[test]
    fn search_lines_keep_multi_word_scores() {
        let line =
            SearchLine::parse("depth 9 score win in 3 nodes 1200 nps 40000 time 0.03 pv b2 a1 c3")
                .unwrap();
        assert_eq!(line.depth, 9);
        assert_eq!(line.score, "win in 3");
        assert_eq!(line.nodes, 1200);
        assert_eq!(line.nps, 40000);
        assert_eq!(line.pv, ["b2", "a1", "c3"]);
        let short = SearchLine::parse("depth 2 score -35 nodes 10").unwrap();
        assert_eq!(short.score, "-35");
        assert!(short.pv.is_empty());
        assert_eq!(SearchLine::parse("book move"), None);
        let compact = SearchLine::parse(
            "depth 9 score +0 nodes 5 nps 1 time 0.010 pv e5 (draw; e5 sets traps in 40% of the replies)",
        )
        .unwrap();
        assert_eq!(compact.pv, ["e5"]);
        assert_eq!(
            compact.note.as_deref(),
            Some("draw; e5 sets traps in 40% of the replies")
        );
        let win = SearchLine::parse("depth 3 score win-in-3 nodes 5").unwrap();
        assert_eq!(win.score, "win in 3");
    }
}
