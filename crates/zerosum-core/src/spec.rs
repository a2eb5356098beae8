use std::fmt;
use std::str::FromStr;

use crate::SpecError;

/// Largest number of rows or columns of any board.
pub const MAX_SIDE: usize = 100;

/// The swap (pie) rule of Hex, played on the second move only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwapRule {
    /// The players exchange colours; the stone stays where it is.
    Sides,
    /// The stone is replaced by one of the other colour, mirrored across the long diagonal.
    Pieces,
}

/// A game and its board configuration, as written on the command line: `mnk:15x15x5`,
/// `connectx:6x7x4`, `hex:11`, `hex:11x9:swap-pieces`, `atoll:standard:pie`, `unstable:10x6`,
/// or an alias from [`ALIASES`].
///
/// M (rows) comes before N (columns) for m,n,k, Connect-X and Unstable; Hex takes
/// `WIDTHxHEIGHT` (columns x rows) or one size for a rhombus.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameSpec {
    /// Free placement, K or more in a row wins.
    Mnk { rows: usize, cols: usize, k: usize },
    /// Placement with gravity, X (`k`) or more in a row wins.
    ConnectX { rows: usize, cols: usize, k: usize },
    /// Hex: first player (Black) joins top and bottom, second (White) left and right.
    Hex {
        width: usize,
        height: usize,
        swap: Option<SwapRule>,
    },
    /// Atoll on a named board; `pie` allows the second player to take the first stone.
    Atoll { board: String, pie: bool },
    /// Two-player Chain Reaction.
    Unstable { rows: usize, cols: usize },
}

/// Short names accepted in place of a full spec, with what they stand for.
pub const ALIASES: &[(&str, &str)] = &[
    ("tictactoe", "mnk:3x3x3"),
    ("gomoku", "mnk:15x15x5"),
    ("connect4", "connectx:6x7x4"),
    ("hex", "hex:11"),
    ("atoll", "atoll:standard"),
    ("unstable", "unstable:10x6"),
    ("chain-reaction", "unstable:10x6"),
];

impl GameSpec {
    /// The family name: `mnk`, `connectx`, `hex`, `atoll` or `unstable`.
    pub fn family(&self) -> &'static str {
        match self {
            GameSpec::Mnk { .. } => "mnk",
            GameSpec::ConnectX { .. } => "connectx",
            GameSpec::Hex { .. } => "hex",
            GameSpec::Atoll { .. } => "atoll",
            GameSpec::Unstable { .. } => "unstable",
        }
    }
}

fn invalid(spec: &str, reason: impl Into<String>) -> SpecError {
    SpecError::Invalid {
        spec: spec.to_string(),
        reason: reason.into(),
    }
}

/// Parses `AxBxC...` into exactly `count` numbers.
fn dimensions(spec: &str, text: &str, count: usize, form: &str) -> Result<Vec<usize>, SpecError> {
    let parts: Vec<&str> = text.split(['x', 'X']).collect();
    if parts.len() != count {
        return Err(invalid(spec, format!("expected {form}")));
    }
    parts
        .iter()
        .map(|p| {
            p.trim()
                .parse::<usize>()
                .map_err(|_| invalid(spec, format!("`{p}` is not a number (expected {form})")))
        })
        .collect()
}

fn check_side(spec: &str, what: &str, value: usize, min: usize) -> Result<(), SpecError> {
    if (min..=MAX_SIDE).contains(&value) {
        Ok(())
    } else {
        Err(invalid(
            spec,
            format!("{what} must be between {min} and {MAX_SIDE}, not {value}"),
        ))
    }
}

fn check_run(spec: &str, rows: usize, cols: usize, k: usize) -> Result<(), SpecError> {
    check_side(spec, "rows", rows, 1)?;
    check_side(spec, "columns", cols, 1)?;
    if k == 0 || k > rows.max(cols) {
        return Err(invalid(
            spec,
            format!(
                "the run length must be between 1 and the longer side ({}), not {k}",
                rows.max(cols)
            ),
        ));
    }
    Ok(())
}

impl FromStr for GameSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let lowered = text.trim().to_ascii_lowercase();
        let expanded = ALIASES
            .iter()
            .find(|(alias, _)| *alias == lowered)
            .map_or(lowered.as_str(), |(_, full)| full);
        let mut parts = expanded.split(':');
        let family = parts.next().unwrap_or_default();
        let args = parts.next();
        let options: Vec<&str> = parts.collect();
        let spec = text.trim();
        let no_options = |family: &str| {
            if options.is_empty() {
                Ok(())
            } else {
                Err(invalid(spec, format!("{family} takes no options")))
            }
        };
        let need_args = |form: &str| args.ok_or_else(|| invalid(spec, format!("expected {form}")));
        match family {
            "mnk" => {
                let form = "mnk:MxNxK (rows x columns x run length)";
                let d = dimensions(spec, need_args(form)?, 3, form)?;
                no_options("mnk")?;
                check_run(spec, d[0], d[1], d[2])?;
                Ok(GameSpec::Mnk {
                    rows: d[0],
                    cols: d[1],
                    k: d[2],
                })
            }
            "connectx" => {
                let form = "connectx:MxNxX (rows x columns x run length)";
                let d = dimensions(spec, need_args(form)?, 3, form)?;
                no_options("connectx")?;
                check_run(spec, d[0], d[1], d[2])?;
                Ok(GameSpec::ConnectX {
                    rows: d[0],
                    cols: d[1],
                    k: d[2],
                })
            }
            "hex" => {
                let form = "hex:N or hex:WxH, optionally followed by :swap-sides or :swap-pieces";
                let args = need_args(form)?;
                let d = if args.contains(['x', 'X']) {
                    dimensions(spec, args, 2, form)?
                } else {
                    let n = dimensions(spec, args, 1, form)?[0];
                    vec![n, n]
                };
                check_side(spec, "width", d[0], 1)?;
                check_side(spec, "height", d[1], 1)?;
                let swap = match options.as_slice() {
                    [] => None,
                    ["swap-sides"] => Some(SwapRule::Sides),
                    ["swap-pieces"] => {
                        if d[0] != d[1] {
                            return Err(invalid(
                                spec,
                                "swap-pieces mirrors across the long diagonal and needs a square board",
                            ));
                        }
                        Some(SwapRule::Pieces)
                    }
                    _ => return Err(invalid(spec, format!("expected {form}"))),
                };
                Ok(GameSpec::Hex {
                    width: d[0],
                    height: d[1],
                    swap,
                })
            }
            "atoll" => {
                let form = "atoll:BOARD, optionally followed by :pie";
                let board = need_args(form)?.trim();
                if board.is_empty() {
                    return Err(invalid(spec, format!("expected {form}")));
                }
                let pie = match options.as_slice() {
                    [] => false,
                    ["pie"] => true,
                    _ => return Err(invalid(spec, format!("expected {form}"))),
                };
                Ok(GameSpec::Atoll {
                    board: board.to_string(),
                    pie,
                })
            }
            "unstable" => {
                let form = "unstable:MxN (rows x columns)";
                let d = dimensions(spec, need_args(form)?, 2, form)?;
                no_options("unstable")?;
                check_side(spec, "rows", d[0], 2)?;
                check_side(spec, "columns", d[1], 2)?;
                Ok(GameSpec::Unstable {
                    rows: d[0],
                    cols: d[1],
                })
            }
            _ => Err(SpecError::UnknownGame(spec.to_string())),
        }
    }
}

impl fmt::Display for GameSpec {
    /// The canonical spec, which parses back to the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSpec::Mnk { rows, cols, k } => write!(f, "mnk:{rows}x{cols}x{k}"),
            GameSpec::ConnectX { rows, cols, k } => write!(f, "connectx:{rows}x{cols}x{k}"),
            GameSpec::Hex {
                width,
                height,
                swap,
            } => {
                if width == height {
                    write!(f, "hex:{width}")?;
                } else {
                    write!(f, "hex:{width}x{height}")?;
                }
                match swap {
                    None => Ok(()),
                    Some(SwapRule::Sides) => f.write_str(":swap-sides"),
                    Some(SwapRule::Pieces) => f.write_str(":swap-pieces"),
                }
            }
            GameSpec::Atoll { board, pie } => {
                write!(f, "atoll:{board}")?;
                if *pie {
                    f.write_str(":pie")?;
                }
                Ok(())
            }
            GameSpec::Unstable { rows, cols } => write!(f, "unstable:{rows}x{cols}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<GameSpec, SpecError> {
        text.parse()
    }

    #[test]
    fn aliases_expand() {
        assert_eq!(
            parse("tictactoe").unwrap(),
            GameSpec::Mnk {
                rows: 3,
                cols: 3,
                k: 3
            }
        );
        assert_eq!(parse("Connect4").unwrap().to_string(), "connectx:6x7x4");
        assert_eq!(parse("gomoku").unwrap().to_string(), "mnk:15x15x5");
        assert_eq!(
            parse("chain-reaction").unwrap().to_string(),
            "unstable:10x6"
        );
        assert_eq!(parse("hex").unwrap().to_string(), "hex:11");
        assert_eq!(parse("atoll").unwrap().to_string(), "atoll:standard");
    }

    #[test]
    fn canonical_forms_round_trip() {
        for text in [
            "mnk:70x70x10",
            "connectx:100x100x30",
            "hex:11",
            "hex:9x7",
            "hex:13:swap-pieces",
            "hex:11x9:swap-sides",
            "atoll:standard:pie",
            "atoll:hexhex6",
            "unstable:10x6",
            "mnk:3x7x5",
        ] {
            assert_eq!(parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn bad_specs_name_the_problem() {
        let cases = [
            ("chess", "unknown game"),
            ("mnk", "expected mnk:MxNxK"),
            ("mnk:3x3", "expected mnk:MxNxK"),
            ("mnk:3xax3", "`a` is not a number"),
            ("mnk:0x3x3", "rows must be between 1 and 100"),
            ("mnk:101x3x3", "rows must be between 1 and 100"),
            (
                "mnk:3x3x4",
                "run length must be between 1 and the longer side (3)",
            ),
            ("connectx:6x7x0", "run length"),
            ("hex:0", "width must be between 1 and 100"),
            ("hex:9x7:swap-pieces", "needs a square board"),
            ("hex:11:swap", "expected hex:N"),
            ("unstable:1x6", "rows must be between 2"),
            ("atoll:", "expected atoll:BOARD"),
            ("mnk:3x3x3:pie", "takes no options"),
            ("mnk:99999999999999999999x3x3", "is not a number"),
        ];
        for (text, message) in cases {
            let err = parse(text).unwrap_err().to_string();
            assert!(err.contains(message), "{text}: {err}");
        }
    }
}
