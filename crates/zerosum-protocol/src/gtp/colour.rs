//! GTP colours, and which player has which colour in each game.

use std::fmt;

use zerosum_core::Side;
use zerosum_games::DynGame;

/// A GTP colour: `b`/`black` or `w`/`white`, in any case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    /// Reads `b`, `black`, `w` or `white`, in any case.
    pub fn parse(text: &str) -> Option<Colour> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Colour::Black),
            "w" | "white" => Some(Colour::White),
            _ => None,
        }
    }

    /// 0 for Black, 1 for White.
    pub fn index(self) -> usize {
        self as usize
    }

    /// `B` or `W`, as in a score.
    pub fn letter(self) -> char {
        match self {
            Colour::Black => 'B',
            Colour::White => 'W',
        }
    }

    /// The colour a player has: the first player has Black, unless a swap that exchanges
    /// colours (Hex `swap-sides`, Atoll `swap`: the family's
    /// [`zerosum_games::Family::swap_exchanges_colours`]) was played as the second move.
    pub fn of(game: &dyn DynGame, side: Side) -> Colour {
        let spec = game.spec();
        let exchanging = spec.family().swap_exchanges_colours(&spec);
        let exchanged = exchanging
            && game
                .history()
                .get(1)
                .is_some_and(|second| second.starts_with("swap"));
        match (side, exchanged) {
            (Side::First, false) | (Side::Second, true) => Colour::Black,
            _ => Colour::White,
        }
    }

    /// The colour of the player to move.
    pub fn to_move(game: &dyn DynGame) -> Colour {
        Colour::of(game, game.to_move())
    }
}

impl fmt::Display for Colour {
    /// `black` or `white`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Black => "black",
            Colour::White => "white",
        })
    }
}
