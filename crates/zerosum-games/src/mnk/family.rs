//! The m,n,k family as the rest of zerosum sees it: its specs (`mnk:MxNxK[:RULE]`,
//! `tictactoe`, `gomoku`, `gomoku:standard`, `renju`) and its facts.

use std::fmt;

use zerosum_core::SpecError;

use crate::family::{board_size_words, count_word};
use crate::family::{invalid, run_problem};
use crate::registry::Builtin;
use crate::{Family, Layout};
use crate::{GameSpec, GameVisitor, SpecText};

use super::Rule;

/// Longest run length of an m,n,k game (the evaluator reads the `2K - 1` cells around a move
/// as one 128-bit mask).
pub const MAX_RUN: usize = 64;

/// The parameters of an m,n,k spec: `mnk:{rows}x{cols}x{k}`, with `:{rule}` after it when
/// the rule is not freestyle. Read them from a spec with [`GameSpec::params`]; build a spec
/// with [`spec`] or [`spec_with_rule`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct MnkSpec {
    pub rows: usize,
    pub cols: usize,
    pub k: usize,
    pub rule: Rule,
}

impl fmt::Display for MnkSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mnk:{}x{}x{}", self.rows, self.cols, self.k)?;
        match self.rule {
            Rule::Freestyle => Ok(()),
            rule => write!(f, ":{rule}"),
        }
    }
}

/// `mnk:{rows}x{cols}x{k}` (freestyle), if a game can be built with these sizes: sides in
/// 1..=100, a run length from 1 to max(M, N) and at most [`MAX_RUN`].
pub fn spec(rows: usize, cols: usize, k: usize) -> Result<GameSpec, SpecError> {
    spec_with_rule(rows, cols, k, Rule::Freestyle)
}

/// `mnk:{rows}x{cols}x{k}:{rule}`, if a game can be built: the sizes as for [`spec`], and a
/// rule other than freestyle only with K = 5 (they are rules of five in a row).
pub fn spec_with_rule(
    rows: usize,
    cols: usize,
    k: usize,
    rule: Rule,
) -> Result<GameSpec, SpecError> {
    let params = MnkSpec {
        rows,
        cols,
        k,
        rule,
    };
    let problem = run_problem(rows, cols, k, "K", MAX_RUN).or_else(|| {
        (rule != Rule::Freestyle && k != 5)
            .then(|| format!("the {rule} rule is a rule of five in a row (K = 5), not K = {k}"))
    });
    match problem {
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
                rule: Rule::Freestyle,
            } => "Tic-tac-toe".into(),
            MnkSpec {
                rows: 15,
                cols: 15,
                k: 5,
                rule,
            } => match rule {
                // Both are gomoku to its players (the standard rule is the older one); the
                // board words say which.
                Rule::Freestyle | Rule::Standard => "Gomoku".into(),
                Rule::Renju => "Renju".into(),
            },
            _ => self.title().into(),
        }
    }

    /// `3x3, three in a row`, `4 rows x 5 columns, four in a row`, `15x15, exactly five in a
    /// row`, `15x15, five in a row, renju's forbidden moves for Black`.
    fn board_words(&self, spec: &GameSpec) -> String {
        let MnkSpec {
            rows,
            cols,
            k,
            rule,
        } = *params(spec);
        let size = board_size_words(rows, cols);
        match rule {
            Rule::Freestyle => format!("{size}, {} in a row", count_word(k)),
            Rule::Standard => format!("{size}, exactly {} in a row", count_word(k)),
            Rule::Renju => format!(
                "{size}, {} in a row, renju's forbidden moves for Black",
                count_word(k)
            ),
        }
    }

    fn forms(&self) -> &'static str {
        "mnk:MxNxK, mnk:MxNx5:standard, mnk:MxNx5:renju"
    }

    fn rules(&self) -> &'static str {
        "M rows, N columns (1..100); a run of K or more wins (K <= max(M, N), K <= 64); \
         with K = 5, :standard wins with exactly five, :renju forbids Black's double-three, \
         double-four and overline (such a move loses)"
    }

    fn notation(&self) -> &'static str {
        "cell: column letters, row from the top (a1 top-left)"
    }

    fn aliases(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("tictactoe", "mnk:3x3x3"),
            ("gomoku", "mnk:15x15x5"),
            ("gomoku:freestyle", "mnk:15x15x5"),
            ("gomoku:standard", "mnk:15x15x5:standard"),
            ("gomoku:renju", "mnk:15x15x5:renju"),
            ("renju", "mnk:15x15x5:renju"),
        ]
    }

    fn examples(&self) -> &'static [&'static str] {
        &[
            "tictactoe",
            "mnk:4x4x3",
            "mnk:7x7x5",
            "gomoku",
            "gomoku:standard",
            "renju",
        ]
    }

    fn resized(&self, spec: &GameSpec, width: usize, height: usize) -> Result<GameSpec, String> {
        let MnkSpec { k, rule, .. } = *params(spec);
        spec_with_rule(height, width, k, rule).map_err(|error| error.to_string())
    }

    fn layout(&self) -> Layout {
        Layout::Squares
    }

    fn win_text(&self, spec: &GameSpec, loser: &str) -> String {
        let MnkSpec { k, rule, .. } = *params(spec);
        let run = match rule {
            Rule::Freestyle => format!("{} in a row", count_word(k)),
            Rule::Standard | Rule::Renju => format!("exactly {} in a row", count_word(k)),
        };
        match rule {
            Rule::Renju => format!(
                "{run}, framed [ ] on the board, or a forbidden move of Black ({loser} lost)"
            ),
            _ => format!("{run}, framed [ ] on the board"),
        }
    }

    fn cells(&self, spec: &GameSpec) -> Option<usize> {
        let MnkSpec { rows, cols, .. } = *params(spec);
        Some(rows * cols)
    }

    fn parse(&self, text: &SpecText<'_>) -> Result<GameSpec, SpecError> {
        let form = "mnk:MxNxK[:RULE] (rows x columns x run length, rule freestyle, standard or \
                    renju)";
        let d = text.dimensions(text.need_args(form)?, 3, form)?;
        let rule = match text.options() {
            [] => Rule::Freestyle,
            [rule] => rule
                .parse()
                .map_err(|reason: String| text.invalid(reason))?,
            _ => return Err(text.invalid("mnk takes at most one option, its rule")),
        };
        spec_with_rule(d[0], d[1], d[2], rule)
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
        Ok(super::visit(
            params.rows,
            params.cols,
            params.k,
            params.rule,
            visitor,
        ))
    }
}
