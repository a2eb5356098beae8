//! The registry of families: the ones built into zerosum (listed in `lib.rs`,
//! `builtin_families!`) and those a program adds at run time with [`register`]. Spec parsing
//! finds a family here by name or alias; [`crate::visit_game`] builds a registered family's
//! games through the builder it was registered with.

use std::any::Any;
use std::str::FromStr;
use std::sync::{Arc, PoisonError, RwLock};

use zerosum_core::SpecError;

use crate::erased::ErasedGame;
use crate::family::{Family, GameSpec, SpecText};
use crate::{EvaluatedGame, GameVisitor};

/// A family compiled into zerosum: generic code visits its games monomorphised.
pub(crate) trait Builtin: Family {
    /// The parameters its specs hold.
    type Params: Any;

    /// Builds the game of `params` in its starting position and hands it to `visitor`.
    fn visit<V: GameVisitor>(params: &Self::Params, visitor: V) -> Result<V::Output, SpecError>;
}

/// Hands the game `spec` names to `visitor` if `spec` is of the built-in `family`; else gives
/// the visitor back.
pub(crate) fn try_visit<F: Builtin, V: GameVisitor>(
    _family: &F,
    spec: &GameSpec,
    visitor: V,
) -> Result<Result<V::Output, SpecError>, V> {
    match spec.params::<F::Params>() {
        Some(params) => Ok(F::visit(params, visitor)),
        None => Err(visitor),
    }
}

/// Builds the type-erased game of a registered family.
type Start = Arc<dyn Fn(&GameSpec) -> Result<ErasedGame, SpecError> + Send + Sync>;

/// A family added at run time, with the builder of its games.
struct Registered {
    family: &'static dyn Family,
    start: Start,
}

/// The families added with [`register`], in order.
static REGISTERED: RwLock<Vec<Registered>> = RwLock::new(Vec::new());

/// Why a family could not be registered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegisterError {
    /// Another family has the name, or a family has the alias.
    #[error("a family named `{0}` (or with that alias) is already registered")]
    Taken(String),
    /// The name is not a spec prefix: lower case letters, digits and `-` only.
    #[error("`{0}` cannot name a family: use lower case letters, digits and `-`")]
    BadName(String),
}

/// Adds `family` to the registry: its specs parse, and `start` builds its games in their
/// starting position, for every edge of zerosum ([`crate::new_game`], [`crate::visit_game`],
/// hence search, solver, perft, the arena's players, the protocols and the page). Generic code
/// sees its games as [`ErasedGame`] (dynamic dispatch: correct everywhere, slower than a
/// family built into zerosum). A name or alias already taken is refused.
pub fn register<G, F>(family: &'static dyn Family, start: F) -> Result<(), RegisterError>
where
    G: EvaluatedGame,
    F: Fn(&GameSpec) -> Result<G, SpecError> + Send + Sync + 'static,
{
    let name = family.name();
    let valid = |text: &str| {
        !text.is_empty()
            && text
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    if let Some(bad) = std::iter::once(name)
        .chain(family.aliases().iter().map(|(alias, _)| *alias))
        .find(|text| !valid(text))
    {
        return Err(RegisterError::BadName(bad.into()));
    }
    let mut registered = REGISTERED.write().unwrap_or_else(PoisonError::into_inner);
    let taken = |text: &str| {
        builtin_and(&registered).any(|other| {
            other.name() == text || other.aliases().iter().any(|(alias, _)| *alias == text)
        })
    };
    if let Some(clash) = std::iter::once(name)
        .chain(family.aliases().iter().map(|(alias, _)| *alias))
        .find(|text| taken(text))
    {
        return Err(RegisterError::Taken(clash.into()));
    }
    registered.push(Registered {
        family,
        start: Arc::new(move |spec| start(spec).map(ErasedGame::new)),
    });
    Ok(())
}

/// The built-in families, then the registered ones.
fn builtin_and(registered: &[Registered]) -> impl Iterator<Item = &'static dyn Family> + '_ {
    crate::BUILTIN_FAMILIES
        .iter()
        .copied()
        .chain(registered.iter().map(|entry| entry.family))
}

/// Every family: the built-in ones in the order `zerosum games` lists them, then those
/// registered, in order.
pub fn families() -> Vec<&'static dyn Family> {
    let registered = REGISTERED.read().unwrap_or_else(PoisonError::into_inner);
    builtin_and(&registered).collect()
}

/// Every alias of every family, `(alias, spec)`, in the order of [`families`].
pub fn aliases() -> Vec<(&'static str, &'static str)> {
    families()
        .into_iter()
        .flat_map(|family| family.aliases().iter().copied())
        .collect()
}

/// The family named `name` (lower case), if there is one.
pub(crate) fn named(name: &str) -> Option<&'static dyn Family> {
    let registered = REGISTERED.read().unwrap_or_else(PoisonError::into_inner);
    let found = builtin_and(&registered).find(|family| family.name() == name);
    found
}

/// The spec `alias` (lower case) stands for, if it is an alias.
pub(crate) fn expand_alias(alias: &str) -> Option<&'static str> {
    let registered = REGISTERED.read().unwrap_or_else(PoisonError::into_inner);
    let found = builtin_and(&registered)
        .flat_map(|family| family.aliases().iter())
        .find(|(name, _)| *name == alias)
        .map(|(_, spec)| *spec);
    found
}

/// The game `spec` names, of a registered family, type-erased; an error if the spec's family
/// is not registered (a built-in family, visited directly).
pub(crate) fn start_registered(spec: &GameSpec) -> Result<ErasedGame, SpecError> {
    let name = spec.family().name();
    let start = REGISTERED
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .find(|entry| entry.family.name() == name)
        .map(|entry| Arc::clone(&entry.start))
        .ok_or_else(|| SpecError::UnknownGame(spec.to_string()))?;
    // Called without the lock: the builder may parse specs.
    start(spec)
}

/// Reads a spec, `FAMILY[:ARGUMENTS[:OPTION...]]` in any case: every family's aliases are
/// expanded, the family is found by name and reads the rest ([`Family::parse`]).
impl FromStr for GameSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let written = text.trim();
        let lowered = written.to_ascii_lowercase();
        let expanded = expand_alias(&lowered).unwrap_or(&lowered);
        let mut parts = expanded.split(':');
        let name = parts.next().unwrap_or_default();
        let family = named(name).ok_or_else(|| SpecError::UnknownGame(written.into()))?;
        let spec = SpecText::new(written, parts.next(), parts.collect());
        family.parse(&spec)
    }
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
            ("mnk:3x3x3:pie", "unknown rule `pie`"),
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
