use std::fmt;
use std::str::FromStr;

use zerosum_core::SpecError;
pub use zerosum_core::MAX_SIDE;

/// Longest run length of an m,n,k game (the evaluator reads the `2K - 1` cells around a move
/// as one 128-bit mask).
pub const MAX_MNK_RUN: usize = 64;

/// Smallest number of rows or columns of an Unstable board (every cell needs a neighbour).
pub const MIN_UNSTABLE_SIDE: usize = 2;

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
///
/// Every value is valid: a spec is built only by parsing or by the checked constructors
/// ([`GameSpec::mnk`], [`GameSpec::connectx`], [`GameSpec::hex`], [`GameSpec::atoll`],
/// [`GameSpec::unstable`]), which refuse sizes no game can be built with (the variants are
/// `non_exhaustive`, so other crates read them but cannot write them). The limits: sides in
/// 1..=[`MAX_SIDE`] (Unstable from [`MIN_UNSTABLE_SIDE`]); a run length K (X) from 1 to
/// max(M, N), since K may exceed one side but not both (the course frameworks refuse
/// `K > M && K > N`), and for m,n,k at most [`MAX_MNK_RUN`]; Hex `swap-pieces` on a square
/// board only. An Atoll board name is checked when the game is built (the boards live with
/// the game).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameSpec {
    /// Free placement, K or more in a row wins.
    #[non_exhaustive]
    Mnk { rows: usize, cols: usize, k: usize },
    /// Placement with gravity, X (`k`) or more in a row wins.
    #[non_exhaustive]
    ConnectX { rows: usize, cols: usize, k: usize },
    /// Hex: first player (Black) joins top and bottom, second (White) left and right.
    #[non_exhaustive]
    Hex {
        width: usize,
        height: usize,
        swap: Option<SwapRule>,
    },
    /// Atoll on a named board; `pie` allows the second player to take the first stone.
    #[non_exhaustive]
    Atoll { board: String, pie: bool },
    /// Two-player Chain Reaction.
    #[non_exhaustive]
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
    /// `mnk:{rows}x{cols}x{k}`, if a game can be built with these sizes.
    pub fn mnk(rows: usize, cols: usize, k: usize) -> Result<GameSpec, SpecError> {
        GameSpec::Mnk { rows, cols, k }.checked()
    }

    /// `connectx:{rows}x{cols}x{k}`, if a game can be built with these sizes.
    pub fn connectx(rows: usize, cols: usize, k: usize) -> Result<GameSpec, SpecError> {
        GameSpec::ConnectX { rows, cols, k }.checked()
    }

    /// Hex on `width` columns and `height` rows, if a game can be built with these sizes.
    pub fn hex(width: usize, height: usize, swap: Option<SwapRule>) -> Result<GameSpec, SpecError> {
        GameSpec::Hex {
            width,
            height,
            swap,
        }
        .checked()
    }

    /// Atoll on the board named `board` (checked when the game is built).
    pub fn atoll(board: &str, pie: bool) -> Result<GameSpec, SpecError> {
        GameSpec::Atoll {
            board: board.trim().to_string(),
            pie,
        }
        .checked()
    }

    /// `unstable:{rows}x{cols}`, if a game can be built with these sizes.
    pub fn unstable(rows: usize, cols: usize) -> Result<GameSpec, SpecError> {
        GameSpec::Unstable { rows, cols }.checked()
    }

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

    /// The one check of every spec: `self` if a game can be built from it, else why not
    /// (naming the spec and the limit).
    fn checked(self) -> Result<GameSpec, SpecError> {
        let reason = match &self {
            GameSpec::Mnk { rows, cols, k } => run_problem(*rows, *cols, *k, "K", MAX_MNK_RUN),
            GameSpec::ConnectX { rows, cols, k } => run_problem(*rows, *cols, *k, "X", MAX_SIDE),
            GameSpec::Hex {
                width,
                height,
                swap,
            } => side_problem("width", *width, 1)
                .or_else(|| side_problem("height", *height, 1))
                .or_else(|| {
                    (*swap == Some(SwapRule::Pieces) && width != height).then(|| {
                        "swap-pieces mirrors across the long diagonal and needs a square board"
                            .to_string()
                    })
                }),
            GameSpec::Atoll { board, .. } => (board.is_empty() || board.contains(':'))
                .then(|| "expected atoll:BOARD, optionally followed by :pie".to_string()),
            GameSpec::Unstable { rows, cols } => side_problem("rows", *rows, MIN_UNSTABLE_SIDE)
                .or_else(|| side_problem("columns", *cols, MIN_UNSTABLE_SIDE)),
        };
        match reason {
            None => Ok(self),
            Some(reason) => Err(invalid(&self.to_string(), reason)),
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

/// Why a side of `value` is refused, if it is.
fn side_problem(what: &str, value: usize, min: usize) -> Option<String> {
    (!(min..=MAX_SIDE).contains(&value))
        .then(|| format!("{what} must be between {min} and {MAX_SIDE}, not {value}"))
}

/// Why a `rows x cols` board with a run of `k` (called `name`, at most `max_run`) is refused,
/// if it is. K may exceed one side but not both: the course frameworks refuse `K > M && K > N`.
fn run_problem(rows: usize, cols: usize, k: usize, name: &str, max_run: usize) -> Option<String> {
    side_problem("rows", rows, 1)
        .or_else(|| side_problem("columns", cols, 1))
        .or_else(|| {
            (!(1..=max_run).contains(&k))
                .then(|| format!("the run length must be between 1 and {max_run}, not {k}"))
        })
        .or_else(|| {
            (k > rows && k > cols).then(|| {
                format!(
                    "a run of {k} cannot fit on a {rows}x{cols} board \
                     ({name} must not exceed both M and N)"
                )
            })
        })
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
                GameSpec::mnk(d[0], d[1], d[2])
            }
            "connectx" => {
                let form = "connectx:MxNxX (rows x columns x run length)";
                let d = dimensions(spec, need_args(form)?, 3, form)?;
                no_options("connectx")?;
                GameSpec::connectx(d[0], d[1], d[2])
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
                let swap = match options.as_slice() {
                    [] => None,
                    ["swap-sides"] => Some(SwapRule::Sides),
                    ["swap-pieces"] => Some(SwapRule::Pieces),
                    _ => return Err(invalid(spec, format!("expected {form}"))),
                };
                GameSpec::hex(d[0], d[1], swap)
            }
            "atoll" => {
                let form = "atoll:BOARD, optionally followed by :pie";
                let board = need_args(form)?.trim();
                let pie = match options.as_slice() {
                    [] => false,
                    ["pie"] => true,
                    _ => return Err(invalid(spec, format!("expected {form}"))),
                };
                if board.is_empty() {
                    return Err(invalid(spec, format!("expected {form}")));
                }
                GameSpec::atoll(board, pie)
            }
            "unstable" => {
                let form = "unstable:MxN (rows x columns)";
                let d = dimensions(spec, need_args(form)?, 2, form)?;
                no_options("unstable")?;
                GameSpec::unstable(d[0], d[1])
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
            "mnk:1x1x1",
            "mnk:1x100x64",
            "connectx:100x1x100",
            "connectx:3x5x5",
            "hex:1",
            "unstable:2x2",
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
                "mnk:3x3x101",
                "the run length must be between 1 and 64, not 101",
            ),
            (
                "connectx:6x7x0",
                "the run length must be between 1 and 100, not 0",
            ),
            ("hex:0", "width must be between 1 and 100"),
            ("hex:101x5", "width must be between 1 and 100, not 101"),
            ("unstable:1x1", "rows must be between 2 and 100, not 1"),
            (
                "unstable:10x101",
                "columns must be between 2 and 100, not 101",
            ),
            (
                "mnk:3x3x4",
                "bad game spec `mnk:3x3x4`: a run of 4 cannot fit on a 3x3 board \
                 (K must not exceed both M and N)",
            ),
            ("MNK:1x1x2", "a run of 2 cannot fit on a 1x1 board"),
            (
                "connectx:6x7x8",
                "a run of 8 cannot fit on a 6x7 board (X must not exceed both M and N)",
            ),
            (
                "mnk:100x100x65",
                "the run length must be between 1 and 64, not 65",
            ),
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

    #[test]
    fn constructors_refuse_what_parsing_refuses() {
        assert_eq!(
            GameSpec::mnk(3, 3, 3).unwrap(),
            "tictactoe".parse().unwrap()
        );
        let err = GameSpec::mnk(3, 3, 4).unwrap_err().to_string();
        assert_eq!(
            err,
            "bad game spec `mnk:3x3x4`: a run of 4 cannot fit on a 3x3 board \
             (K must not exceed both M and N)"
        );
        assert!(GameSpec::mnk(0, 3, 1).is_err());
        assert!(GameSpec::connectx(4, 4, 5).is_err());
        assert!(GameSpec::connectx(4, 5, 5).is_ok());
        assert!(GameSpec::hex(9, 7, Some(SwapRule::Pieces)).is_err());
        assert!(GameSpec::unstable(1, 5).is_err());
        assert!(GameSpec::atoll("", false).is_err());
        assert!(GameSpec::atoll("standard", true).is_ok());
    }
}
