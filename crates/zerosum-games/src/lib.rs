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
//! A [`GameSpec`] builds either face of a game: [`new_game`] gives the object-safe
//! [`DynGame`]; [`visit_game`] hands the concrete [`Game`] to generic code, monomorphised per
//! game and board size.
//!
//! Inside a family, dependencies point from the evaluator down to the representation:
//!
//! ```text
//! mnk        evaluator -> vcf -> threats -> lines
//! connect    evaluator -> windows -> threats -> weights -> packed; windows -> wide;
//!            solver (search -> order -> position, table) -> packed; oracle -> book, solver
//! hex        evaluator -> connection::potential; hex, atoll -> connection
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
pub mod exact;
pub mod hex;
pub mod mnk;
mod spec;
mod stones;
pub mod unstable;

pub use dyn_game::{DynAdapter, DynGame};
pub use spec::{GameSpec, SwapRule, ALIASES, MAX_MNK_RUN, MAX_SIDE, MIN_UNSTABLE_SIDE};
pub use stones::{stones, Stones};

use zerosum_core::{Evaluator, Game, SpecError};

/// A game family as the command line presents it.
#[derive(Clone, Copy, Debug)]
pub struct Family {
    /// The spec prefix, e.g. `mnk`.
    pub name: &'static str,
    /// The forms of its specs.
    pub forms: &'static str,
    /// One line on the rules.
    pub rules: &'static str,
    /// How moves are written.
    pub notation: &'static str,
}

/// Every family, in the order `zerosum games` lists them.
pub const FAMILIES: &[Family] = &[
    Family {
        name: "mnk",
        forms: "mnk:MxNxK",
        rules: "M rows, N columns (1..100); a run of K or more wins (K <= max(M, N), K <= 64)",
        notation: "cell: column letters, row from the top (a1 top-left)",
    },
    Family {
        name: "connectx",
        forms: "connectx:MxNxX",
        rules: "m,n,k with gravity (1..100); a run of X or more wins (X <= max(M, N))",
        notation: "column number from 1; lists like 4453 on up to 9 columns",
    },
    Family {
        name: "hex",
        forms: "hex:N, hex:WxH, suffix :swap-sides or :swap-pieces",
        rules: "first (Black) joins top-bottom, second (White) left-right",
        notation: "cell: column letters, row from the top (a1 top-left); swap",
    },
    Family {
        name: "atoll",
        forms: "atoll:BOARD, suffix :pie",
        rules: "join two of your exactly opposite islands",
        notation: "cell: column letters, row from the top; swap",
    },
    Family {
        name: "unstable",
        forms: "unstable:MxN",
        rules: "two-player Chain Reaction, M rows, N columns (2..100)",
        notation: "cell: row letters, column from 1 (A1 top-left)",
    },
];

/// A game together with its family's evaluator, so that generic code (the command line, the
/// arena's engine player) can search any game a spec names.
pub trait EvaluatedGame: Game {
    /// The specification this game was built from (canonical form).
    fn spec(&self) -> GameSpec;

    /// The family's evaluator.
    type Evaluator: Evaluator<Self>;
    /// An evaluator suited to this board (sizes, run length, geometry).
    fn evaluator(&self) -> Self::Evaluator;

    /// The family's exact oracle for this board, with tables of about `table_mb` MB, where it
    /// has one (Connect-X boards that fit the packed solver); `None` by default.
    fn oracle(&self, _table_mb: usize) -> Option<Box<dyn exact::ExactOracle<Self>>> {
        None
    }
}

/// Generic code to run on the concrete game a spec names (see [`visit_game`]).
pub trait GameVisitor {
    type Output;
    fn visit<G: EvaluatedGame>(self, game: G) -> Self::Output;
}

/// Builds the concrete game `spec` names, in its starting position, and hands it to `visitor`.
pub fn visit_game<V: GameVisitor>(spec: &GameSpec, visitor: V) -> Result<V::Output, SpecError> {
    match spec {
        GameSpec::Mnk { rows, cols, k, .. } => Ok(mnk::visit(*rows, *cols, *k, visitor)),
        GameSpec::ConnectX { rows, cols, k, .. } => Ok(connect::visit(*rows, *cols, *k, visitor)),
        GameSpec::Unstable { rows, cols, .. } => {
            Ok(visitor.visit(unstable::Unstable::new(*rows, *cols)))
        }
        GameSpec::Hex {
            width,
            height,
            swap,
            ..
        } => Ok(visitor.visit(hex::Hex::new(*width, *height, *swap))),
        GameSpec::Atoll { board, pie, .. } => Ok(visitor.visit(atoll::Atoll::new(board, *pie)?)),
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
