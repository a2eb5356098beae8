//! Network play with the Unstable game-server protocol, generalised to every game: plain text
//! lines over TCP. The server sends `GAME <spec>` and `TIME <seconds>` (our additions, which
//! clients of the original protocol ignore), then `WELCOME Black` or `WELCOME White`; the
//! player to move gets `YOUR_TURN` and answers `MOVE <move>` in the game's notation; the server
//! answers `VALID_MOVE` or `ILLEGAL_MOVE`, tells the other player `OPPONENT_MOVE <move>`, and
//! ends with `VICTORY`, `DEFEAT` or `TIE`. `MESSAGE <text>` is free text.

mod client;
mod lobby;
mod server;

use std::fmt;

use zerosum_core::Side;

pub use client::{play_client, ClientError, ClientOptions};
pub use lobby::MAX_WAITING;
pub use server::{serve, ServerError, ServerOptions};

/// A line the server sends.
#[derive(Clone, Debug, PartialEq)]
pub enum ServerMessage {
    /// The game spec (ours).
    Game(String),
    /// Seconds per move (ours).
    Time(f64),
    /// The side the client plays: Black moves first.
    Welcome(Side),
    YourTurn,
    ValidMove,
    IllegalMove,
    OpponentMove(String),
    Victory,
    Defeat,
    Tie,
    Message(String),
}

/// The protocol's name of a side.
fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "Black",
        Side::Second => "White",
    }
}

impl fmt::Display for ServerMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerMessage::Game(spec) => write!(f, "GAME {spec}"),
            ServerMessage::Time(seconds) => write!(f, "TIME {seconds}"),
            ServerMessage::Welcome(side) => write!(f, "WELCOME {}", colour(*side)),
            ServerMessage::YourTurn => f.write_str("YOUR_TURN"),
            ServerMessage::ValidMove => f.write_str("VALID_MOVE"),
            ServerMessage::IllegalMove => f.write_str("ILLEGAL_MOVE"),
            ServerMessage::OpponentMove(mv) => write!(f, "OPPONENT_MOVE {mv}"),
            ServerMessage::Victory => f.write_str("VICTORY"),
            ServerMessage::Defeat => f.write_str("DEFEAT"),
            ServerMessage::Tie => f.write_str("TIE"),
            ServerMessage::Message(text) => write!(f, "MESSAGE {text}"),
        }
    }
}

impl ServerMessage {
    /// Reads a server line by its prefix; `None` for a line this protocol does not know (which
    /// a client ignores).
    pub fn parse(line: &str) -> Option<ServerMessage> {
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        Some(match word {
            "GAME" if !rest.is_empty() => ServerMessage::Game(rest.to_string()),
            // A positive time within the arena's limits (a number past them would not make a
            // `Duration`).
            "TIME" => ServerMessage::Time(
                crate::clock::parse_seconds(rest, "TIME")
                    .ok()
                    .filter(|time| !time.is_zero())?
                    .as_secs_f64(),
            ),
            "WELCOME" if rest.eq_ignore_ascii_case("black") => ServerMessage::Welcome(Side::First),
            "WELCOME" if rest.eq_ignore_ascii_case("white") => ServerMessage::Welcome(Side::Second),
            "YOUR_TURN" => ServerMessage::YourTurn,
            "VALID_MOVE" => ServerMessage::ValidMove,
            "ILLEGAL_MOVE" => ServerMessage::IllegalMove,
            "OPPONENT_MOVE" if !rest.is_empty() => ServerMessage::OpponentMove(rest.to_string()),
            "VICTORY" => ServerMessage::Victory,
            "DEFEAT" => ServerMessage::Defeat,
            "TIE" => ServerMessage::Tie,
            "MESSAGE" => ServerMessage::Message(rest.to_string()),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_print_and_read_back() {
        for message in [
            ServerMessage::Game("connectx:6x7x4".into()),
            ServerMessage::Time(2.5),
            ServerMessage::Welcome(Side::First),
            ServerMessage::Welcome(Side::Second),
            ServerMessage::YourTurn,
            ServerMessage::ValidMove,
            ServerMessage::IllegalMove,
            ServerMessage::OpponentMove("J6".into()),
            ServerMessage::Victory,
            ServerMessage::Defeat,
            ServerMessage::Tie,
            ServerMessage::Message("hello there".into()),
        ] {
            assert_eq!(ServerMessage::parse(&message.to_string()), Some(message));
        }
        assert_eq!(ServerMessage::parse("WELCOME Red"), None);
        assert_eq!(ServerMessage::parse("TIME soon"), None);
        // Found by fuzzing: a time past what a `Duration` holds made the client panic.
        assert_eq!(ServerMessage::parse("TIME 18446744073709551615"), None);
        assert_eq!(ServerMessage::parse("TIME 0"), None);
        assert_eq!(ServerMessage::parse("TIME NaN"), None);
        assert_eq!(ServerMessage::parse("HELLO"), None);
    }
}
