//! The m,n,k family as the rest of zerosum sees it: its specs (`mnk:MxNxK`, `tictactoe`,
//! `gomoku`) and its facts.

use std::fmt;

use zerosum_core::SpecError;

use crate::family::{board_size_words, count_word};
use crate::family::{invalid, run_problem};
use crate::registry::Builtin;
use crate::{Family, Layout};
use crate::{GameSpec, GameVisitor, SpecText};

/// Longest run length of an m,n,k game (the evaluator reads the `2K - 1` cells around a move
/// as one 128-bit mask).
pub const MAX_RUN: usize = 64;

/// The parameters of an m,n,k spec: `mnk:{rows}x{cols}x{k}`. Read them from a spec with
/// [`GameSpec::params`]; build a spec with [`spec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct MnkSpec {
    pub rows: usize,
    pub cols: usize,
    pub k: usize,
}

impl fmt::Display for MnkSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mnk:{}x{}x{}", self.rows, self.cols, self.k)
    }
}

/// `mnk:{rows}x{cols}x{k}`, if a game can be built with these sizes: sides in 1..=100, a run
/// length from 1 to max(M, N) and at most [`MAX_RUN`].
pub fn spec(rows: usize, cols: usize, k: usize) -> Result<GameSpec, SpecError> {
    let params = MnkSpec { rows, cols, k };
    match run_problem(rows, cols, k, "K", MAX_RUN) {
        None => Ok(GameSpec::new(&MnkFamily, params)),
        Some(reason) => Err(invalid(&params.to_string(), reason)),
    }
}

/// Free placement, K or more in a row wins.
#[derive(Clone, Copy, Debug)]
pub struct MnkFamily;

impl Family for MnkFamily {
    fn name(&self) -> &'static str {
        "mnk"
    }

    fn title(&self) -> &'static str {
        "m,n,k"
    }

    fn game_name(&self, spec: &GameSpec) -> String {
        match *params(spec) {
            MnkSpec {
                rows: 3,
                cols: 3,
                k: 3,
            } => "Tic-tac-toe".into(),
            MnkSpec {
                rows: 15,
                cols: 15,
                k: 5,
            } => "Gomoku".into(),
            _ => self.title().into(),
        }
    }

    /// `3x3, three in a row`, `4 rows x 5 columns, four in a row`.
    fn board_words(&self, spec: &GameSpec) -> String {
        let MnkSpec { rows, cols, k } = *params(spec);
        format!(
            "{}, {} in a row",
            board_size_words(rows, cols),
            count_word(k)
        )
    }

    fn forms(&self) -> &'static str {
        "mnk:MxNxK"
    }

    fn rules(&self) -> &'static str {
        "M rows, N columns (1..100); a run of K or more wins (K <= max(M, N), K <= 64)"
    }

    fn notation(&self) -> &'static str {
        "cell: column letters, row from the top (a1 top-left)"
    }

    fn aliases(&self) -> &'static [(&'static str, &'static str)] {
        &[("tictactoe", "mnk:3x3x3"), ("gomoku", "mnk:15x15x5")]
    }

    fn examples(&self) -> &'static [&'static str] {
        &["tictactoe", "mnk:4x4x3", "mnk:7x7x5", "gomoku"]
    }

    fn resized(&self, spec: &GameSpec, width: usize, height: usize) -> Result<GameSpec, String> {
        let k = params(spec).k;
        self::spec(height, width, k).map_err(|error| error.to_string())
    }

    fn layout(&self) -> Layout {
        Layout::Squares
    }

    fn win_text(&self, spec: &GameSpec, _loser: &str) -> String {
        format!(
            "{} in a row, framed [ ] on the board",
            count_word(params(spec).k)
        )
    }

    fn cells(&self, spec: &GameSpec) -> Option<usize> {
        let MnkSpec { rows, cols, .. } = *params(spec);
        Some(rows * cols)
    }

    fn parse(&self, text: &SpecText<'_>) -> Result<GameSpec, SpecError> {
        let form = "mnk:MxNxK (rows x columns x run length)";
        let d = text.dimensions(text.need_args(form)?, 3, form)?;
        text.no_options("mnk")?;
        spec(d[0], d[1], d[2])
    }
}

/// The parameters of `spec`, a spec of this family.
fn params(spec: &GameSpec) -> &MnkSpec {
    spec.params()
        .expect("the family of a spec builds it with its own parameters")
}

impl Builtin for MnkFamily {
    type Params = MnkSpec;

    fn visit<V: GameVisitor>(params: &MnkSpec, visitor: V) -> Result<V::Output, SpecError> {
        Ok(super::visit(params.rows, params.cols, params.k, visitor))
    }
}
