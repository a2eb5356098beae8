//! The uniformly random player (the course's R4nd0m and L0).

use zerosum_core::conformance::SplitMix;
use zerosum_core::Game;
use zerosum_games::EvaluatedGame;

use super::typed::{Strategy, StrategyFactory};
use crate::player::{MoveRequest, PlayerError};

/// Builds the random strategy, seeded with the game's seed.
pub(crate) struct RandomFactory {
    pub seed: u64,
}

impl StrategyFactory for RandomFactory {
    fn strategy<G: EvaluatedGame>(
        self,
        _game: &G,
    ) -> Result<impl Strategy<G> + 'static, PlayerError> {
        Ok(RandomMoves {
            rng: SplitMix::new(self.seed),
            moves: Vec::new(),
        })
    }
}

/// Plays a legal move chosen uniformly at random.
struct RandomMoves<M> {
    rng: SplitMix,
    moves: Vec<M>,
}

impl<G: Game> Strategy<G> for RandomMoves<G::Move> {
    fn decide(&mut self, game: &mut G, _request: &MoveRequest) -> (G::Move, Option<String>) {
        game.legal_moves(&mut self.moves);
        (self.moves[self.rng.below(self.moves.len())], None)
    }
}
