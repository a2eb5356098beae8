//! The Connect-X family as the rest of zerosum sees it: its specs (`connectx:MxNxX`,
//! `connect4`) and its facts.

use std::fmt;

use serde_json::Value;
use zerosum_core::{Side, SpecError, MAX_SIDE};

use crate::family::{board_size_words, count_word};
use crate::family::{invalid, run_problem};
use crate::registry::Builtin;
use crate::{Family, Layout};
use crate::{GameSpec, GameVisitor, SpecText};

/// The parameters of a Connect-X spec: `connectx:{rows}x{cols}x{k}`, `k` being X. Read them
/// from a spec with [`GameSpec::params`]; build a spec with [`spec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ConnectSpec {
    pub rows: usize,
    pub cols: usize,
    pub k: usize,
}

impl fmt::Display for ConnectSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "connectx:{}x{}x{}", self.rows, self.cols, self.k)
    }
}

/// `connectx:{rows}x{cols}x{k}`, if a game can be built with these sizes: sides in 1..=100
/// and a run length from 1 to max(M, N).
pub fn spec(rows: usize, cols: usize, k: usize) -> Result<GameSpec, SpecError> {
    let params = ConnectSpec { rows, cols, k };
    match run_problem(rows, cols, k, "X", MAX_SIDE) {
        None => Ok(GameSpec::new(&ConnectFamily, params)),
        Some(reason) => Err(invalid(&params.to_string(), reason)),
    }
}

/// Placement with gravity, X or more in a row wins.
#[derive(Clone, Copy, Debug)]
pub struct ConnectFamily;

impl Family for ConnectFamily {
    fn name(&self) -> &'static str {
        "connectx"
    }

    fn title(&self) -> &'static str {
        "Connect-X"
    }

    fn game_name(&self, spec: &GameSpec) -> String {
        match *params(spec) {
            ConnectSpec {
                rows: 6,
                cols: 7,
                k: 4,
            } => "Connect Four".into(),
            _ => self.title().into(),
        }
    }

    /// `6 rows x 7 columns, four in a row`.
    fn board_words(&self, spec: &GameSpec) -> String {
        let ConnectSpec { rows, cols, k } = *params(spec);
        format!(
            "{}, {} in a row",
            board_size_words(rows, cols),
            count_word(k)
        )
    }

    fn forms(&self) -> &'static str {
        "connectx:MxNxX"
    }

    fn rules(&self) -> &'static str {
        "m,n,k with gravity (1..100); a run of X or more wins (X <= max(M, N))"
    }

    fn notation(&self) -> &'static str {
        "column number from 1; lists like 4453 on up to 9 columns"
    }

    fn aliases(&self) -> &'static [(&'static str, &'static str)] {
        &[("connect4", "connectx:6x7x4")]
    }

    fn examples(&self) -> &'static [&'static str] {
        &["connect4", "connectx:5x4x4", "connectx:7x7x5"]
    }

    fn resized(&self, spec: &GameSpec, width: usize, height: usize) -> Result<GameSpec, String> {
        let k = params(spec).k;
        self::spec(height, width, k).map_err(|error| error.to_string())
    }

    fn layout(&self) -> Layout {
        Layout::Columns
    }

    /// Red and Yellow, as Connect Four's discs.
    fn side_name(&self, _board: &Value, side: Side) -> String {
        match side {
            Side::First => "Red".into(),
            Side::Second => "Yellow".into(),
        }
    }

    fn win_text(&self, spec: &GameSpec, _loser: &str) -> String {
        format!(
            "{} in a row, framed [ ] on the board",
            count_word(params(spec).k)
        )
    }

    fn cells(&self, spec: &GameSpec) -> Option<usize> {
        let ConnectSpec { rows, cols, .. } = *params(spec);
        Some(rows * cols)
    }

    fn parse(&self, text: &SpecText<'_>) -> Result<GameSpec, SpecError> {
        let form = "connectx:MxNxX (rows x columns x run length)";
        let d = text.dimensions(text.need_args(form)?, 3, form)?;
        text.no_options("connectx")?;
        spec(d[0], d[1], d[2])
    }
}

/// The parameters of `spec`, a spec of this family.
fn params(spec: &GameSpec) -> &ConnectSpec {
    spec.params()
        .expect("the family of a spec builds it with its own parameters")
}

impl Builtin for ConnectFamily {
    type Params = ConnectSpec;

    fn visit<V: GameVisitor>(params: &ConnectSpec, visitor: V) -> Result<V::Output, SpecError> {
        Ok(super::visit(params.rows, params.cols, params.k, visitor))
    }
}
