//! The registry of families: the ones built into zerosum (listed in `lib.rs`,
//! `builtin_families!`) and those a program adds at run time with [`register`]. Spec parsing
//! finds a family here by name or alias; [`crate::visit_game`] builds a registered family's
//! games through the builder it was registered with.

use std::any::Any;
use std::sync::{Arc, PoisonError, RwLock};

use zerosum_core::SpecError;

use crate::{ErasedGame, EvaluatedGame, Family, GameSpec, GameVisitor};

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
