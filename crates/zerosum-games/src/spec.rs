//! Game specifications: a family and its board, as written on the command line (`mnk:15x15x5`,
//! `connectx:6x7x4`, `hex:11x9:swap-pieces`, `atoll:standard:pie`, `unstable:10x6`) or as an
//! alias (`tictactoe`, `connect4`, `gomoku`).
//!
//! A spec's text is `FAMILY[:ARGUMENTS[:OPTION...]]`, read without regard to case. Parsing
//! expands the aliases of every family, finds the family by name in the registry
//! ([`crate::families`]) and hands it the rest as a [`SpecText`]; the family checks its
//! sizes and builds the spec from its own parameters ([`GameSpec::new`]).

use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::Arc;

use zerosum_core::SpecError;
pub use zerosum_core::MAX_SIDE;

use crate::{registry, Family};

/// A game and its board configuration: a family and the family's own parameters (an
/// [`crate::mnk::MnkSpec`], a [`crate::hex::HexSpec`], ...).
///
/// Every value is valid: a spec is built only by parsing or by a family's checked
/// constructors ([`crate::mnk::spec`], [`crate::connect::spec`], [`crate::hex::spec`],
/// [`crate::atoll::spec`], [`crate::unstable::spec`]), which refuse sizes no game can be
/// built with. Two specs are equal when they are of the same family and write the same
/// canonical text; the canonical text parses back to an equal spec.
#[derive(Clone)]
pub struct GameSpec {
    family: &'static dyn Family,
    params: Arc<dyn Any + Send + Sync>,
    canonical: Arc<str>,
}

impl GameSpec {
    /// The spec of `family` with `params`, checked by the family, whose `Display` writes the
    /// canonical spec (`mnk:3x3x3`). Only the family calls this, with its own parameter type:
    /// [`GameSpec::params`] gives them back to its code and to the adapters that know it.
    pub fn new<P>(family: &'static dyn Family, params: P) -> GameSpec
    where
        P: Any + Send + Sync + fmt::Display,
    {
        let canonical = params.to_string().into();
        GameSpec {
            family,
            params: Arc::new(params),
            canonical,
        }
    }

    /// The family: its name, facts and rules of the edges.
    pub fn family(&self) -> &'static dyn Family {
        self.family
    }

    /// The family's parameters, if they are a `P` (they are exactly when `P` is the family's
    /// parameter type): `spec.params::<MnkSpec>()` is `Some` for m,n,k specs only.
    pub fn params<P: Any>(&self) -> Option<&P> {
        self.params.downcast_ref()
    }
}

impl PartialEq for GameSpec {
    fn eq(&self, other: &GameSpec) -> bool {
        self.family.name() == other.family.name() && self.canonical == other.canonical
    }
}

impl Eq for GameSpec {}

impl Hash for GameSpec {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.canonical.hash(state);
    }
}

impl fmt::Debug for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameSpec({})", self.canonical)
    }
}

impl fmt::Display for GameSpec {
    /// The canonical spec, which parses back to the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical)
    }
}

impl FromStr for GameSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let written = text.trim();
        let lowered = written.to_ascii_lowercase();
        let expanded = registry::expand_alias(&lowered).unwrap_or(&lowered);
        let mut parts = expanded.split(':');
        let name = parts.next().unwrap_or_default();
        let family = registry::named(name).ok_or_else(|| SpecError::UnknownGame(written.into()))?;
        let spec = SpecText {
            written,
            args: parts.next(),
            options: parts.collect(),
        };
        family.parse(&spec)
    }
}

/// A spec being parsed, split at its colons after the family's name: `hex:11x9:swap-sides`
/// has the arguments `11x9` and the options `["swap-sides"]` (lower case, aliases expanded).
/// Errors quote the spec as it was written.
#[derive(Clone, Debug)]
pub struct SpecText<'a> {
    written: &'a str,
    args: Option<&'a str>,
    options: Vec<&'a str>,
}

impl<'a> SpecText<'a> {
    /// The spec as written (trimmed).
    pub fn written(&self) -> &'a str {
        self.written
    }

    /// What follows the family's name and a colon, if anything does.
    pub fn args(&self) -> Option<&'a str> {
        self.args
    }

    /// The parts after the arguments, each after a colon.
    pub fn options(&self) -> &[&'a str] {
        &self.options
    }

    /// The arguments, or an error naming the expected `form`.
    pub fn need_args(&self, form: &str) -> Result<&'a str, SpecError> {
        self.args
            .ok_or_else(|| self.invalid(format!("expected {form}")))
    }

    /// An error unless there are no options (`mnk takes no options`).
    pub fn no_options(&self, family: &str) -> Result<(), SpecError> {
        match self.options.is_empty() {
            true => Ok(()),
            false => Err(self.invalid(format!("{family} takes no options"))),
        }
    }

    /// `text` (`AxBxC...`) as exactly `count` numbers, or an error naming the expected `form`.
    pub fn dimensions(
        &self,
        text: &str,
        count: usize,
        form: &str,
    ) -> Result<Vec<usize>, SpecError> {
        let parts: Vec<&str> = text.split(['x', 'X']).collect();
        if parts.len() != count {
            return Err(self.invalid(format!("expected {form}")));
        }
        parts
            .iter()
            .map(|p| {
                p.trim()
                    .parse::<usize>()
                    .map_err(|_| self.invalid(format!("`{p}` is not a number (expected {form})")))
            })
            .collect()
    }

    /// The error of this spec, for `reason`.
    pub fn invalid(&self, reason: impl Into<String>) -> SpecError {
        invalid(self.written, reason)
    }
}

/// The error of the spec written `spec`, for `reason`.
pub fn invalid(spec: &str, reason: impl Into<String>) -> SpecError {
    SpecError::Invalid {
        spec: spec.to_string(),
        reason: reason.into(),
    }
}

/// Why a side (`what`: `rows`, `width`...) of `value` is refused, if it is: sides are
/// between `min` and [`MAX_SIDE`].
pub fn side_problem(what: &str, value: usize, min: usize) -> Option<String> {
    (!(min..=MAX_SIDE).contains(&value))
        .then(|| format!("{what} must be between {min} and {MAX_SIDE}, not {value}"))
}

/// Why a `rows x cols` board with a run of `k` (called `name`, at most `max_run`) is refused,
/// if it is. K may exceed one side but not both: the course frameworks refuse `K > M && K > N`.
pub(crate) fn run_problem(
    rows: usize,
    cols: usize,
    k: usize,
    name: &str,
    max_run: usize,
) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::SwapRule;
    use crate::{atoll, connect, hex, mnk, unstable};

    fn parse(text: &str) -> Result<GameSpec, SpecError> {
        text.parse()
    }

    #[test]
    fn aliases_expand() {
        assert_eq!(parse("tictactoe").unwrap(), mnk::spec(3, 3, 3).unwrap());
        assert_eq!(
            parse("tictactoe").unwrap().params::<mnk::MnkSpec>(),
            mnk::spec(3, 3, 3).unwrap().params::<mnk::MnkSpec>()
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
            let spec = parse(text).unwrap();
            assert_eq!(spec.to_string(), text);
            assert_eq!(parse(&spec.to_string()).unwrap(), spec);
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
        assert_eq!(mnk::spec(3, 3, 3).unwrap(), "tictactoe".parse().unwrap());
        let err = mnk::spec(3, 3, 4).unwrap_err().to_string();
        assert_eq!(
            err,
            "bad game spec `mnk:3x3x4`: a run of 4 cannot fit on a 3x3 board \
             (K must not exceed both M and N)"
        );
        assert!(mnk::spec(0, 3, 1).is_err());
        assert!(connect::spec(4, 4, 5).is_err());
        assert!(connect::spec(4, 5, 5).is_ok());
        assert!(hex::spec(9, 7, Some(SwapRule::Pieces)).is_err());
        assert!(unstable::spec(1, 5).is_err());
        assert!(atoll::spec("", false).is_err());
        assert!(atoll::spec("standard", true).is_ok());
    }

    #[test]
    fn a_spec_gives_its_family_and_parameters() {
        let spec = parse("connect4").unwrap();
        assert_eq!(spec.family().name(), "connectx");
        let params = spec.params::<connect::ConnectSpec>().unwrap();
        assert_eq!((params.rows, params.cols, params.k), (6, 7, 4));
        assert!(spec.params::<mnk::MnkSpec>().is_none());
        assert_ne!(parse("mnk:6x7x4").unwrap(), spec);
    }
}
