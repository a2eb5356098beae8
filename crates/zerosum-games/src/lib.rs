//! The game families of zerosum, one module each, every one with its own fast representation:
//!
//! - [`mnk`]: free placement, K or more in a row wins (tic-tac-toe, gomoku, 70x70x10);
//! - [`connect`]: Connect-X, placement with gravity (Connect Four at any size);
//! - [`hex`]: Hex, with the swap rule in both conventions;
//! - [`atoll`]: Atoll, Hex-like with islands, boards as data;
//! - [`connection`]: what Hex and Atoll share (rollback union-find, hex grid, cell names);
//! - [`unstable`]: two-player Chain Reaction.
//!
//! A [`GameSpec`] builds either face of a game: [`new_game`] gives the object-safe
//! [`DynGame`]; [`visit_game`] hands the concrete [`Game`] to generic code, monomorphised per
//! game and board size.

use zerosum_core::{DynAdapter, DynGame, Game, GameSpec, SpecError};

pub mod atoll;
pub mod connection;
pub mod hex;

/// Generic code to run on the concrete game a spec names (see [`visit_game`]).
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self, game: G) -> Self::Output;
}

/// Builds the concrete game `spec` names, in its starting position, and hands it to `visitor`.
pub fn visit_game<V: GameVisitor>(spec: &GameSpec, visitor: V) -> Result<V::Output, SpecError> {
    match spec {
        GameSpec::Hex {
            width,
            height,
            swap,
        } => Ok(visitor.visit(hex::Hex::new(*width, *height, *swap))),
        GameSpec::Atoll { board, pie } => Ok(visitor.visit(atoll::Atoll::new(board, *pie)?)),
        _ => Err(SpecError::UnknownGame(spec.to_string())),
    }
}

/// Builds the object-safe face of the game `spec` names, in its starting position.
pub fn new_game(spec: &GameSpec) -> Result<Box<dyn DynGame>, SpecError> {
    struct Boxed;
    impl GameVisitor for Boxed {
        type Output = Box<dyn DynGame>;
        fn visit<G: Game>(self, game: G) -> Box<dyn DynGame> {
            Box::new(DynAdapter(game))
        }
    }
    visit_game(spec, Boxed)
}
