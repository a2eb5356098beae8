//! The messages between the page and the server. The page posts one [`Command`] per request
//! (JSON, tagged by `type`); the server answers on the tab's event stream with JSON events:
//!
//! - `hello`: `session` (the id to post commands with), `catalog` (games, presets, players) and
//!   `watching` (whether the server shows a tournament of `zerosum tournament --serve`);
//! - `state`: after every change, the whole game: `game` (the [`zerosum_games::DynGame`] JSON),
//!   `number` (the game's number in the tab: 0 for the game it opens with, one more for each
//!   new game), `players` (names), `seats` (the players as the page names them in a `new`
//!   command), `humans` (which sides the page plays), `thinking` (the side an engine
//!   is searching for, or null), `used_ms` (time each side has used), `limit_ms` (each side's
//!   time for a move, null when unlimited), `turn_ms` (how long the side to move has had the
//!   turn), `result` (null while the game goes on, else e.g. `first player wins`);
//! - `search`: an engine's line, `live` while it searches (after each iteration), else for
//!   the move it just played: `side`, `move`, `line` ([`SearchLine`]: what it thinks, in the
//!   words of the terminal's `zerosum play`, and its search's measures) or `comment` (its raw
//!   text when it carries no score);
//! - `tournament`: the tournament the tab watches (see [`crate::tournament_feed`]);
//! - `error`: `message`, for a command that could not be carried out; `command` (its `type`)
//!   and `field` (the value of the command it concerns, e.g. `games`) when known, so the page
//!   shows it next to the control that caused it ([`CommandError`]).

use serde::{Deserialize, Serialize};
use zerosum_core::EngineLine;

/// What the page asks for.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// A new game of `spec` between `players` (first, second), each `human` (the page) or a
    /// built-in player spec (`engine:time=0.5`, `quasi`, `random`), from the position after
    /// `moves` (none by default: the start), played in turn and checked: the page reopens the
    /// game of its address this way.
    New {
        spec: String,
        players: [String; 2],
        #[serde(default)]
        moves: Vec<String>,
    },
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

/// An engine's line as the page shows it: its comment read ([`EngineLine`]) and told in the
/// words of the terminal's `zerosum play`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SearchLine {
    /// What the mover thinks, as a sentence: `White thinks it wins in 3 moves`, `Red thinks
    /// you win with your next move`, `Black thinks it is a draw` (see [`EngineLine::opinion`]).
    pub says: String,
    /// The search's measures: `depth 9, 1,200 nodes, 40 k nodes/s, 0.03 s` (see
    /// [`EngineLine::measures`]).
    pub measures: String,
    /// Whether the score is proved, not estimated.
    pub solved: bool,
    /// The principal variation, starting with the move played (or to be played).
    pub pv: Vec<String>,
    /// What the engine added in parentheses (why it chose a drawing move), if anything.
    pub note: Option<String>,
}

impl SearchLine {
    /// The line of an engine whose side is called `mover`, the other side being called
    /// `other` (`you` for the page's one person), from its `comment`; `None` when the comment
    /// carries no score.
    pub fn new(comment: &str, mover: &str, other: &str) -> Option<SearchLine> {
        let line = EngineLine::parse(comment)?;
        Some(SearchLine {
            says: format!("{mover} thinks {}", line.opinion(other)),
            measures: line.measures(),
            solved: line.solved,
            pv: line.pv,
            note: line.note,
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
                players: ["human".into(), "quasi".into()],
                moves: Vec::new(),
            }
        );
        let reopened: Command = serde_json::from_str(
            r#"{"type":"new","spec":"connect4","players":["human","quasi"],"moves":["4","4"]}"#,
        )
        .unwrap();
        assert!(matches!(reopened, Command::New { moves, .. } if moves == ["4", "4"]));
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
    fn search_lines_are_told_in_the_terminals_words() {
        let line = SearchLine::new(
            "depth 9 score win-in-3 nodes 1200 nps 40000 time 0.03 pv b2 a1 c3",
            "White",
            "you",
        )
        .unwrap();
        assert_eq!(line.says, "White thinks it wins with its next move");
        assert_eq!(line.measures, "depth 9, 1,200 nodes, 40 k nodes/s, 0.03 s");
        assert_eq!(line.pv, ["b2", "a1", "c3"]);
        assert!(!line.solved);
        let draw = SearchLine::new(
            "depth 9 score +0 nodes 5 nps 1 time 0.010 pv e5 (draw; e5 sets traps in 40% of the replies)",
            "Red",
            "Yellow",
        )
        .unwrap();
        assert_eq!(draw.says, "Red thinks it is a draw");
        assert!(draw.solved);
        assert_eq!(draw.pv, ["e5"]);
        assert_eq!(
            draw.note.as_deref(),
            Some("draw; e5 sets traps in 40% of the replies")
        );
        let exact = SearchLine::new("exact 4 loss-in-6 proved 7/7 time 0.001", "X", "O").unwrap();
        assert_eq!(exact.says, "X thinks O wins in 3 moves");
        assert_eq!(SearchLine::new("book move", "X", "O"), None);
    }
}
