//! The Atoll family as the rest of zerosum sees it: its specs (`atoll:BOARD`, with `:pie`)
//! and its facts.

use std::fmt;

use serde_json::Value;
use zerosum_core::{Side, SpecError};

use super::{Atoll, BOARDS};
use crate::family::invalid;
use crate::registry::Builtin;
use crate::stones::coloured_stones;
use crate::{Family, Layout, OpeningSearch, SearchStyle, Stones};
use crate::{GameSpec, GameVisitor, SpecText};

/// The parameters of an Atoll spec: the board's name and whether the pie rule is on. Read
/// them from a spec with [`GameSpec::params`]; build a spec with [`spec`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct AtollSpec {
    pub board: String,
    pub pie: bool,
}

impl fmt::Display for AtollSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "atoll:{}", self.board)?;
        if self.pie {
            f.write_str(":pie")?;
        }
        Ok(())
    }
}

/// Atoll on the board named `board`, if it can name one (the name itself is checked when the
/// game is built: the boards live with the game).
pub fn spec(board: &str, pie: bool) -> Result<GameSpec, SpecError> {
    let params = AtollSpec {
        board: board.trim().to_string(),
        pie,
    };
    if params.board.is_empty() || params.board.contains(':') {
        return Err(invalid(
            &params.to_string(),
            "expected atoll:BOARD, optionally followed by :pie",
        ));
    }
    Ok(GameSpec::new(&AtollFamily, params))
}

/// Atoll on a named board; `pie` allows the second player to take the first stone.
#[derive(Clone, Copy, Debug)]
pub struct AtollFamily;

impl Family for AtollFamily {
    fn name(&self) -> &'static str {
        "atoll"
    }

    fn title(&self) -> &'static str {
        "Atoll"
    }

    /// `standard board`, `standard board, pie rule`.
    fn board_words(&self, spec: &GameSpec) -> String {
        let AtollSpec { board, pie } = spec
            .params()
            .expect("the family of a spec builds it with its own parameters");
        match pie {
            true => format!("{board} board, pie rule"),
            false => format!("{board} board"),
        }
    }

    fn forms(&self) -> &'static str {
        "atoll:BOARD, suffix :pie"
    }

    fn rules(&self) -> &'static str {
        "join two of your exactly opposite islands"
    }

    fn notation(&self) -> &'static str {
        "cell: column letters, row from the top; swap"
    }

    fn aliases(&self) -> &'static [(&'static str, &'static str)] {
        &[("atoll", "atoll:standard")]
    }

    fn examples(&self) -> &'static [&'static str] {
        &["atoll:standard", "atoll:standard:pie"]
    }

    fn named_boards(&self) -> &'static [(&'static str, &'static str)] {
        BOARDS
    }

    fn resized(&self, _spec: &GameSpec, _width: usize, _height: usize) -> Result<GameSpec, String> {
        Err("Atoll boards are named (zerosum-game atoll:BOARD)".into())
    }

    fn layout(&self) -> Layout {
        Layout::Islands
    }

    /// `B` (Black) and `W` (White), exchanged by a `swap`.
    fn stones(&self, board: &Value, side: Side) -> Stones {
        coloured_stones(board, side)
    }

    fn swap_exchanges_colours(&self, spec: &GameSpec) -> bool {
        spec.params::<AtollSpec>().is_some_and(|params| params.pie)
    }

    fn win_text(&self, _spec: &GameSpec, _loser: &str) -> String {
        "a chain joins two opposite islands, framed [ ] on the board".into()
    }

    /// Monte Carlo tree search: it won SPRTs against alpha-beta on Atoll
    /// (`docs/strength.md`).
    fn default_search(&self) -> SearchStyle {
        SearchStyle::MonteCarlo
    }

    /// Two plies within 50, as Hex.
    fn opening_search(&self) -> OpeningSearch {
        OpeningSearch {
            depth: 2,
            window: 50,
        }
    }

    fn parse(&self, text: &SpecText<'_>) -> Result<GameSpec, SpecError> {
        let form = "atoll:BOARD, optionally followed by :pie";
        let board = text.need_args(form)?.trim();
        let pie = match text.options() {
            [] => false,
            ["pie"] => true,
            _ => return Err(text.invalid(format!("expected {form}"))),
        };
        if board.is_empty() {
            return Err(text.invalid(format!("expected {form}")));
        }
        spec(board, pie)
    }
}

impl Builtin for AtollFamily {
    type Params = AtollSpec;

    fn visit<V: GameVisitor>(params: &AtollSpec, visitor: V) -> Result<V::Output, SpecError> {
        Ok(visitor.visit(Atoll::new(&params.board, params.pie)?))
    }
}
