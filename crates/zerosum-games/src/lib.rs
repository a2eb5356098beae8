//! The game families of zerosum, one module each, every one with its own fast representation:
//!
//! - [`mnk`]: free placement, K or more in a row wins (tic-tac-toe, gomoku, 70x70x10);
//! - [`connect`]: Connect-X, placement with gravity (Connect Four at any size);
//! - [`hex`]: Hex, with the swap rule in both conventions;
//! - [`atoll`]: Atoll, Hex-like with islands, boards as data;
//! - [`connection`]: what Hex and Atoll share (rollback union-find, hex grid, cell names);
//! - [`unstable`]: two-player Chain Reaction.
//!
//! [`stones`] tells how each side's stones look on a game's text board, for legends.
//!
//! Each family implements [`Family`] in its module's `family.rs`: its spec forms, aliases and
//! the facts the edges need; the families built in are listed once below
//! (`builtin_families!`), and a program may [`register`] more at run time. A [`GameSpec`] (a
//! family and its parameters) builds either face of a game: [`new_game`] gives the
//! object-safe [`DynGame`]; [`visit_game`] hands the concrete [`Game`] to generic code,
//! monomorphised per game and board size ([`ErasedGame`] for registered families).
//!
//! The modules every family shares, each importing only those below it:
//!
//! ```text
//! registry   the families by name and alias, spec parsing, run-time registration
//! erased     ErasedGame: a registered family's game behind one type
//! dyn_game   DynGame: the object-safe face; stones(), a side's marks in a position
//! family     the Family trait, GameSpec and SpecText, the facts' small types
//! layout     Layout: how a board is drawn and its points named
//! stones     Stones: a side's mark and colour
//! ```
//!
//! Inside a family, dependencies point from the evaluator down to the representation:
//!
//! ```text
//! mnk        evaluator -> vcf -> threats -> lines; evaluator -> pattern_eval -> pattern_vcf,
//!            pattern_weights -> patterns -> rules; both evaluations -> values
//! connect    evaluator -> windows -> threats -> weights -> packed; windows -> wide;
//!            solver (search -> order -> position, table) -> packed; oracle -> book, solver
//! hex        evaluator -> connection::potential; hex, atoll -> connection;
//!            dfpn -> vc, inferior, evaluator -> cells (bit sets of cells)
//! atoll      evaluator -> board -> connection
//! unstable   evaluator -> cells
//! ```
//!
//! No family imports another, except Hex and Atoll sharing [`connection`]. [`exact`] holds
//! what an exact oracle (a family's book or solver) tells an engine.

pub mod atoll;
pub mod connect;
pub mod connection;
mod dyn_game;
mod erased;
pub mod exact;
mod family;
pub mod hex;
mod layout;
pub mod mnk;
pub mod observation;
mod registry;
mod stones;
pub mod unstable;

pub use dyn_game::{stones, DynAdapter, DynGame};
pub use erased::{ErasedEvaluator, ErasedGame, ErasedMove};
pub use family::{
    invalid, side_problem, Family, GameSpec, OpeningSearch, SearchStyle, SpecText, MAX_SIDE,
};
pub use layout::Layout;
pub use registry::{aliases, families, register, RegisterError};
pub use stones::Stones;

use registry::try_visit;
use zerosum_core::{Evaluator, Game, SpecError};

/// The families compiled into zerosum, in the order `zerosum games` lists them: one line each.
/// Generic code visits their games monomorphised ([`visit_game`]).
macro_rules! builtin_families {
    ($($family:expr),* $(,)?) => {
        /// The families compiled into zerosum, in order.
        const BUILTIN_FAMILIES: &[&dyn Family] = &[$(&$family),*];

        /// Hands the game `spec` names to `visitor` if its family is built in; else gives the
        /// visitor back.
        fn visit_builtin<V: GameVisitor>(
            spec: &GameSpec,
            visitor: V,
        ) -> Result<Result<V::Output, SpecError>, V> {
            $(
                let visitor = match try_visit(&$family, spec, visitor) {
                    Ok(output) => return Ok(output),
                    Err(visitor) => visitor,
                };
            )*
            Err(visitor)
        }
    };
}

builtin_families![
    mnk::MnkFamily,
    connect::ConnectFamily,
    hex::HexFamily,
    atoll::AtollFamily,
    unstable::UnstableFamily,
];

/// A game together with its family's evaluator, so that generic code (the command line, the
/// arena's engine player) can search any game a spec names.
pub trait EvaluatedGame: Game {
    /// The family's evaluator.
    type Evaluator: Evaluator<Self>;

    /// The specification this game was built from (canonical form).
    fn spec(&self) -> GameSpec;

    /// An evaluator suited to this board (sizes, run length, geometry).
    fn evaluator(&self) -> Self::Evaluator;

    /// The family's evaluation called `name` (the engine setting `eval=NAME`), or why there is
    /// none; by default a family has only its [`EvaluatedGame::evaluator`], and no name.
    fn evaluator_named(&self, name: &str) -> Result<Self::Evaluator, String> {
        Err(format!(
            "{} has no evaluation named `{name}` (it has only its default one)",
            self.spec()
        ))
    }

    /// The family's evaluation `name` (its default when `None`) with the weights of a weights
    /// file (`text`, the file's contents), or why not: the file's problem, or an evaluation
    /// that takes no weights. By default a family has no weights to load.
    fn evaluator_weighted(
        &self,
        name: Option<&str>,
        text: &str,
    ) -> Result<Self::Evaluator, String> {
        let _ = (name, text);
        Err(format!(
            "{} has no evaluation that loads weights",
            self.spec()
        ))
    }

    /// The family's exact oracle for this board, with tables of about `table_mb` MB, where it
    /// has one (Connect-X boards that fit the packed solver); `None` by default.
    fn oracle(&self, _table_mb: usize) -> Option<Box<dyn exact::ExactOracle<Self>>> {
        None
    }

    /// The most plies a game on this board can last (every cell filled, the swap played;
    /// Unstable's bound), for programs that size buffers by it (OpenSpiel's
    /// `max_game_length`); `None` when the family does not say (the default).
    fn max_plies(&self) -> Option<usize> {
        None
    }

    /// The grid an observation covers, `(rows, cols)` (see [`observation`]): by default the
    /// `rows` and `cols` of the JSON board.
    fn observation_grid(&self) -> (usize, usize) {
        observation::grid_of(&self.board_json())
    }

    /// Writes the position as numbers into `out`, which holds at least
    /// `observation::PLANES * rows * cols` values for the [`EvaluatedGame::observation_grid`]
    /// (the layout: [`observation`]). By default read from the JSON board; the families built
    /// in write it from their own representation, without allocating.
    fn write_observation(&self, out: &mut [f32]) {
        observation::from_board_json(
            self.spec().family(),
            &self.board_json(),
            self.to_move(),
            out,
        );
    }

    /// Whether an engine consults the [`EvaluatedGame::oracle`] unless told (the engine
    /// setting `oracle=on|off`): yes by default; no where the oracle has not yet passed its
    /// strength test (Hex).
    fn oracle_by_default(&self) -> bool {
        true
    }
}

/// Generic code to run on the concrete game a spec names (see [`visit_game`]).
pub trait GameVisitor {
    type Output;
    fn visit<G: EvaluatedGame>(self, game: G) -> Self::Output;
}

/// Builds the concrete game `spec` names, in its starting position, and hands it to `visitor`:
/// the family's own game type for the families built in, an [`ErasedGame`] for a family
/// registered at run time.
pub fn visit_game<V: GameVisitor>(spec: &GameSpec, visitor: V) -> Result<V::Output, SpecError> {
    match visit_builtin(spec, visitor) {
        Ok(output) => output,
        Err(visitor) => registry::start_registered(spec).map(|game| visitor.visit(game)),
    }
}

/// Builds the object-safe face of the game `spec` names, in its starting position.
pub fn new_game(spec: &GameSpec) -> Result<Box<dyn DynGame>, SpecError> {
    struct Boxed;
    impl GameVisitor for Boxed {
        type Output = Box<dyn DynGame>;
        fn visit<G: EvaluatedGame>(self, game: G) -> Box<dyn DynGame> {
            Box::new(DynAdapter(game))
        }
    }
    visit_game(spec, Boxed)
}
