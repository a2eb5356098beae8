//! The bridge from the referee's text moves to a built-in player's concrete game: the player
//! keeps its own `G` in step with the move list and decides on it at full speed.

use zerosum_core::Game;
use zerosum_games::{visit_game, EvaluatedGame, GameSpec, GameVisitor};

use crate::player::{MoveAnswer, MoveRequest, PlayerError};

/// A built-in player's decision on the concrete game.
pub(crate) trait Strategy<G: Game>: Send {
    /// A legal move for `game` (ongoing, this player to move) and an optional comment. `game`
    /// may be played on and must be left as it was found.
    fn decide(&mut self, game: &mut G, request: &MoveRequest) -> (G::Move, Option<String>);
}

/// What a built-in player holds during a game, with the game type erased.
pub(crate) trait TypedSession: Send {
    /// Brings the game up to `request.moves` and decides.
    fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError>;
}

/// A concrete game kept in step with the referee's move list, and the strategy that plays it.
struct Synced<G: Game, S> {
    start: G,
    game: G,
    strategy: S,
}

impl<G: Game, S: Strategy<G>> Synced<G, S> {
    /// Plays the moves of `moves` this game has not seen. Usually that is the opponent's last
    /// move; after anything unexpected (a take-back, another game), it replays from the start.
    fn catch_up(&mut self, moves: &[String]) -> Result<(), PlayerError> {
        let played = self.game.ply();
        let in_step = played <= moves.len()
            && (played == 0 || {
                let last = self.game.history()[played - 1];
                self.game.format_move(last) == moves[played - 1]
            });
        if !in_step {
            self.game = self.start.clone();
        }
        for text in &moves[self.game.ply()..] {
            self.game
                .play_text(text)
                .map_err(|error| PlayerError::Failed(format!("cannot follow the game: {error}")))?;
        }
        Ok(())
    }
}

impl<G: Game, S: Strategy<G>> TypedSession for Synced<G, S> {
    fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        self.catch_up(&request.moves)?;
        if self.game.status().is_over() {
            return Err(PlayerError::Failed(
                "asked for a move in a finished game".into(),
            ));
        }
        let (mv, comment) = self.strategy.decide(&mut self.game, request);
        Ok(MoveAnswer {
            text: self.game.format_move(mv),
            comment,
            elapsed: None,
        })
    }
}

/// Builds a strategy for whichever concrete game a spec names.
pub(crate) trait StrategyFactory {
    /// The strategy for game `G` in its start position, or why there is none (an engine's
    /// table that cannot be allocated).
    fn strategy<G: EvaluatedGame>(
        self,
        game: &G,
    ) -> Result<impl Strategy<G> + 'static, PlayerError>;
}

struct SessionBuilder<F>(F);

impl<F: StrategyFactory> GameVisitor for SessionBuilder<F> {
    type Output = Result<Box<dyn TypedSession>, PlayerError>;

    fn visit<G: EvaluatedGame>(self, game: G) -> Self::Output {
        let strategy = self.0.strategy(&game)?;
        Ok(Box::new(Synced {
            start: game.clone(),
            game,
            strategy,
        }))
    }
}

/// A session of the strategy `factory` builds, on the game `spec` names.
pub(crate) fn session<F: StrategyFactory>(
    spec: &GameSpec,
    factory: F,
) -> Result<Box<dyn TypedSession>, PlayerError> {
    visit_game(spec, SessionBuilder(factory)).map_err(|error| PlayerError::Unsupported {
        spec: spec.to_string(),
        reason: error.to_string(),
    })?
}
