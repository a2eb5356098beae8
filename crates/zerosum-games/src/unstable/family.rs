//! The Unstable family (two-player Chain Reaction) as the rest of zerosum sees it: its specs
//! (`unstable:MxN`, `unstable`, `chain-reaction`) and its facts.

use std::fmt;

use serde_json::Value;
use zerosum_core::{Side, SpecError};

use super::{Unstable, MIN_SIDE};
use crate::family::{board_size_words, invalid, side_problem};
use crate::registry::Builtin;
use crate::{Family, Layout, OpeningSearch, Stones};
use crate::{GameSpec, GameVisitor, SpecText};

/// The parameters of an Unstable spec: `unstable:{rows}x{cols}`. Read them from a spec with
/// [`GameSpec::params`]; build a spec with [`spec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct UnstableSpec {
    pub rows: usize,
    pub cols: usize,
}

impl fmt::Display for UnstableSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unstable:{}x{}", self.rows, self.cols)
    }
}

/// `unstable:{rows}x{cols}`, if a game can be built with these sizes: sides from
/// [`MIN_SIDE`] to 100.
pub fn spec(rows: usize, cols: usize) -> Result<GameSpec, SpecError> {
    let params = UnstableSpec { rows, cols };
    let problem =
        side_problem("rows", rows, MIN_SIDE).or_else(|| side_problem("columns", cols, MIN_SIDE));
    match problem {
        None => Ok(GameSpec::new(&UnstableFamily, params)),
        Some(reason) => Err(invalid(&params.to_string(), reason)),
    }
}

/// Two-player Chain Reaction.
#[derive(Clone, Copy, Debug)]
pub struct UnstableFamily;

impl Family for UnstableFamily {
    fn name(&self) -> &'static str {
        "unstable"
    }

    fn title(&self) -> &'static str {
        "Unstable"
    }

    /// Chain Reaction, as people know the game; `Unstable` is its name in the course.
    fn game_name(&self, _spec: &GameSpec) -> String {
        "Chain Reaction".into()
    }

    /// `Unstable, 10 rows x 6 columns`.
    fn board_words(&self, spec: &GameSpec) -> String {
        let UnstableSpec { rows, cols } = *spec
            .params()
            .expect("the family of a spec builds it with its own parameters");
        format!("{}, {}", self.title(), board_size_words(rows, cols))
    }

    fn forms(&self) -> &'static str {
        "unstable:MxN"
    }

    fn rules(&self) -> &'static str {
        "two-player Chain Reaction, M rows, N columns (2..100)"
    }

    fn notation(&self) -> &'static str {
        "cell: row letters, column from 1 (A1 top-left)"
    }

    fn aliases(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("unstable", "unstable:10x6"),
            ("chain-reaction", "unstable:10x6"),
        ]
    }

    fn examples(&self) -> &'static [&'static str] {
        &["unstable:10x6", "unstable:6x6"]
    }

    fn resized(&self, _spec: &GameSpec, width: usize, height: usize) -> Result<GameSpec, String> {
        self::spec(height, width).map_err(|error| error.to_string())
    }

    fn layout(&self) -> Layout {
        Layout::Atoms
    }

    /// `+` (Black) and `-` (White), the signs of their atom counts.
    fn stones(&self, _board: &Value, side: Side) -> Stones {
        match side {
            Side::First => Stones {
                glyph: '+',
                colour: Some("Black"),
            },
            Side::Second => Stones {
                glyph: '-',
                colour: Some("White"),
            },
        }
    }

    fn win_text(&self, _spec: &GameSpec, loser: &str) -> String {
        format!("{loser} lost all atoms")
    }

    /// Two plies within 5 (random walks score about -14..+17).
    fn opening_search(&self) -> OpeningSearch {
        OpeningSearch {
            depth: 2,
            window: 5,
        }
    }

    fn cells(&self, spec: &GameSpec) -> Option<usize> {
        spec.params::<UnstableSpec>()
            .map(|params| params.rows * params.cols)
    }

    fn parse(&self, text: &SpecText<'_>) -> Result<GameSpec, SpecError> {
        let form = "unstable:MxN (rows x columns)";
        let d = text.dimensions(text.need_args(form)?, 2, form)?;
        text.no_options("unstable")?;
        spec(d[0], d[1])
    }
}

impl Builtin for UnstableFamily {
    type Params = UnstableSpec;

    fn visit<V: GameVisitor>(params: &UnstableSpec, visitor: V) -> Result<V::Output, SpecError> {
        Ok(visitor.visit(Unstable::new(params.rows, params.cols)))
    }
}
