//! The Hex family as the rest of zerosum sees it: its specs (`hex:N`, `hex:WxH`, with
//! `:swap-sides` or `:swap-pieces`) and its facts.

use std::fmt;

use serde_json::Value;
use zerosum_core::{Side, SpecError};

use super::Hex;
use crate::family::{board_size_words, invalid, side_problem};
use crate::registry::Builtin;
use crate::stones::coloured_stones;
use crate::{Family, Layout, OpeningSearch, SearchStyle, Stones};
use crate::{GameSpec, GameVisitor, SpecText};

/// The swap (pie) rule of Hex, played on the second move only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwapRule {
    /// The players exchange colours; the stone stays where it is.
    Sides,
    /// The stone is replaced by one of the other colour, mirrored across the long diagonal.
    Pieces,
}

/// The parameters of a Hex spec: `width` columns, `height` rows and the swap rule. Read them
/// from a spec with [`GameSpec::params`]; build a spec with [`spec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct HexSpec {
    pub width: usize,
    pub height: usize,
    pub swap: Option<SwapRule>,
}

impl fmt::Display for HexSpec {
    /// `hex:N` for a square board, `hex:WxH` otherwise, then the swap rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.width == self.height {
            write!(f, "hex:{}", self.width)?;
        } else {
            write!(f, "hex:{}x{}", self.width, self.height)?;
        }
        match self.swap {
            None => Ok(()),
            Some(SwapRule::Sides) => f.write_str(":swap-sides"),
            Some(SwapRule::Pieces) => f.write_str(":swap-pieces"),
        }
    }
}

/// Hex on `width` columns and `height` rows, if a game can be built with these sizes: sides
/// in 1..=100, and `swap-pieces` on a square board only.
pub fn spec(width: usize, height: usize, swap: Option<SwapRule>) -> Result<GameSpec, SpecError> {
    let params = HexSpec {
        width,
        height,
        swap,
    };
    let problem = side_problem("width", width, 1)
        .or_else(|| side_problem("height", height, 1))
        .or_else(|| {
            (swap == Some(SwapRule::Pieces) && width != height).then(|| {
                "swap-pieces mirrors across the long diagonal and needs a square board".to_string()
            })
        });
    match problem {
        None => Ok(GameSpec::new(&HexFamily, params)),
        Some(reason) => Err(invalid(&params.to_string(), reason)),
    }
}

/// Hex: first player (Black) joins top and bottom, second (White) left and right.
#[derive(Clone, Copy, Debug)]
pub struct HexFamily;

impl Family for HexFamily {
    fn name(&self) -> &'static str {
        "hex"
    }

    fn title(&self) -> &'static str {
        "Hex"
    }

    /// `11x11`, `9 rows x 11 columns`, then the swap rule: `11x11, swap rule`.
    fn board_words(&self, spec: &GameSpec) -> String {
        let HexSpec {
            width,
            height,
            swap,
        } = *params(spec);
        let size = board_size_words(height, width);
        match swap {
            None => size,
            Some(SwapRule::Sides) => format!("{size}, swap rule"),
            Some(SwapRule::Pieces) => format!("{size}, swap rule (the stone is mirrored)"),
        }
    }

    fn forms(&self) -> &'static str {
        "hex:N, hex:WxH, suffix :swap-sides or :swap-pieces"
    }

    fn rules(&self) -> &'static str {
        "first (Black) joins top-bottom, second (White) left-right"
    }

    fn notation(&self) -> &'static str {
        "cell: column letters, row from the top (a1 top-left); swap"
    }

    fn aliases(&self) -> &'static [(&'static str, &'static str)] {
        &[("hex", "hex:11")]
    }

    fn examples(&self) -> &'static [&'static str] {
        &["hex:7", "hex:11", "hex:11:swap-sides", "hex:13"]
    }

    fn resized(&self, spec: &GameSpec, width: usize, height: usize) -> Result<GameSpec, String> {
        let swap = params(spec).swap;
        self::spec(width, height, swap).map_err(|error| error.to_string())
    }

    fn layout(&self) -> Layout {
        Layout::Hexes
    }

    /// `B` (Black) and `W` (White), exchanged by a `swap-sides`.
    fn stones(&self, board: &Value, side: Side) -> Stones {
        coloured_stones(board, side)
    }

    fn swap_exchanges_colours(&self, spec: &GameSpec) -> bool {
        params(spec).swap == Some(SwapRule::Sides)
    }

    fn win_text(&self, _spec: &GameSpec, _loser: &str) -> String {
        "a chain joins the two edges, framed [ ] on the board".into()
    }

    /// Monte Carlo tree search: it won SPRTs against alpha-beta on Hex (`docs/strength.md`).
    fn default_search(&self) -> SearchStyle {
        SearchStyle::MonteCarlo
    }

    /// Two plies within 50: scores come in steps of about 100, so this keeps the level ones.
    fn opening_search(&self) -> OpeningSearch {
        OpeningSearch {
            depth: 2,
            window: 50,
        }
    }

    fn cells(&self, spec: &GameSpec) -> Option<usize> {
        let HexSpec { width, height, .. } = *params(spec);
        Some(width * height)
    }

    fn parse(&self, text: &SpecText<'_>) -> Result<GameSpec, SpecError> {
        let form = "hex:N or hex:WxH, optionally followed by :swap-sides or :swap-pieces";
        let args = text.need_args(form)?;
        let d = if args.contains(['x', 'X']) {
            text.dimensions(args, 2, form)?
        } else {
            let n = text.dimensions(args, 1, form)?[0];
            vec![n, n]
        };
        let swap = match text.options() {
            [] => None,
            ["swap-sides"] => Some(SwapRule::Sides),
            ["swap-pieces"] => Some(SwapRule::Pieces),
            _ => return Err(text.invalid(format!("expected {form}"))),
        };
        spec(d[0], d[1], swap)
    }
}

/// The parameters of `spec`, a spec of this family.
fn params(spec: &GameSpec) -> &HexSpec {
    spec.params()
        .expect("the family of a spec builds it with its own parameters")
}

impl Builtin for HexFamily {
    type Params = HexSpec;

    fn visit<V: GameVisitor>(params: &HexSpec, visitor: V) -> Result<V::Output, SpecError> {
        Ok(visitor.visit(Hex::new(params.width, params.height, params.swap)))
    }
}
