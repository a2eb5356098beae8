//! How each side's stones look on a game's text board, for legends and prompts at the edges
//! (`X = you, O = engine`; `B = you (Black)`).

use std::fmt;

use crate::connection::colour_of;
use serde_json::Value;
use zerosum_core::Side;

/// A side's mark on the text board and the colour the game calls it by, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stones {
    /// The character on the board: `X`/`O` (m,n,k, Connect-X), `B`/`W` (Hex, Atoll), `+`/`-`
    /// (Unstable's counts).
    pub glyph: char,
    /// `Black` or `White` where the game names colours (Hex, Atoll, Unstable).
    pub colour: Option<&'static str>,
}

impl fmt::Display for Stones {
    /// `X`, or `B (Black)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.colour {
            Some(colour) => write!(f, "{} ({colour})", self.glyph),
            None => write!(f, "{}", self.glyph),
        }
    }
}

/// The stones of `side` in a Hex or Atoll position whose JSON board is `board`, which says who
/// has which colour; a board without the entry (none today) is read as not swapped.
pub(crate) fn coloured_stones(board: &Value, side: Side) -> Stones {
    let exchanged = board["colours"]["first"] == "white";
    let colour = colour_of(side, exchanged);
    Stones {
        glyph: colour.glyph(),
        colour: Some(colour.title()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{new_game, stones};

    fn stones_of(spec: &str, moves: &str) -> [String; 2] {
        let mut game = new_game(&spec.parse().unwrap()).unwrap();
        game.play_list(moves).unwrap();
        Side::BOTH.map(|side| stones(&*game, side).to_string())
    }

    #[test]
    fn every_family_names_its_stones() {
        assert_eq!(stones_of("connect4", ""), ["X", "O"]);
        assert_eq!(stones_of("tictactoe", ""), ["X", "O"]);
        assert_eq!(stones_of("hex:5", ""), ["B (Black)", "W (White)"]);
        assert_eq!(stones_of("atoll:standard", ""), ["B (Black)", "W (White)"]);
        assert_eq!(stones_of("unstable:3x3", ""), ["+ (Black)", "- (White)"]);
    }

    #[test]
    fn the_swap_move_exchanges_the_colours() {
        assert_eq!(
            stones_of("hex:5:swap-sides", "b2 swap"),
            ["W (White)", "B (Black)"]
        );
        assert_eq!(
            stones_of("hex:5:swap-pieces", "b2 swap"),
            ["B (Black)", "W (White)"]
        );
    }
}
