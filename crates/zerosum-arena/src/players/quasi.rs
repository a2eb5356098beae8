//! The quasi-random reference players of the courses: R4nd0m++ for free-placement games (win in
//! one, else block the opponent's win in one, else random) and L1 for Connect-X (win in one,
//! else a random move that does not allow a win in one).

use std::time::Instant;

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Game, Outcome, Status};
use zerosum_games::EvaluatedGame;

use super::typed::{Strategy, StrategyFactory};
use crate::player::{MoveRequest, PlayerError};

/// Moves examined between two looks at the clock.
const CLOCK_INTERVAL: usize = 64;
/// Share of the thinking time after which the player stops looking and plays its random move.
const TIME_SHARE: f64 = 0.99;

/// Builds the quasi-random strategy: L1 when `gravity` (Connect-X), R4nd0m++ otherwise.
pub(crate) struct QuasiFactory {
    pub seed: u64,
    pub gravity: bool,
}

impl StrategyFactory for QuasiFactory {
    fn strategy<G: EvaluatedGame>(
        self,
        _game: &G,
    ) -> Result<impl Strategy<G> + 'static, PlayerError> {
        Ok(QuasiMoves {
            rng: SplitMix::new(self.seed),
            gravity: self.gravity,
            moves: Vec::new(),
            replies: Vec::new(),
        })
    }
}

struct QuasiMoves<M> {
    rng: SplitMix,
    gravity: bool,
    moves: Vec<M>,
    replies: Vec<M>,
}

/// True when `mv` wins at once for the side to move.
fn wins<G: Game>(game: &mut G, mv: G::Move) -> bool {
    let mover = game.to_move();
    game.play(mv);
    let won = game.status() == Status::Over(Outcome::Win(mover));
    game.undo();
    won
}

/// The first move in `replies` (the opponent's legal moves) that wins for the side to move.
fn winning_reply<G: Game>(game: &mut G, replies: &mut Vec<G::Move>) -> Option<G::Move> {
    if game.status().is_over() {
        return None;
    }
    game.legal_moves(replies);
    replies.iter().copied().find(|&reply| wins(game, reply))
}

impl<M: Copy> QuasiMoves<M> {
    fn pick(&mut self, moves: &[M]) -> M {
        moves[self.rng.below(moves.len())]
    }
}

impl<G: Game> Strategy<G> for QuasiMoves<G::Move> {
    fn decide(&mut self, game: &mut G, request: &MoveRequest) -> (G::Move, Option<String>) {
        let started = Instant::now();
        let deadline = request.thinking_time().map(|t| t.mul_f64(TIME_SHARE));
        let out_of_time = |examined: usize| {
            examined.is_multiple_of(CLOCK_INTERVAL)
                && (request.stopped() || deadline.is_some_and(|d| started.elapsed() >= d))
        };
        game.legal_moves(&mut self.moves);
        let moves = std::mem::take(&mut self.moves);
        let fallback = self.pick(&moves);
        let chosen = 'choice: {
            // 1. A win in one, the first found from a random starting point.
            let offset = self.rng.below(moves.len());
            for i in 0..moves.len() {
                if out_of_time(i + 1) {
                    break 'choice fallback;
                }
                let mv = moves[(offset + i) % moves.len()];
                if wins(game, mv) {
                    break 'choice mv;
                }
            }
            if self.gravity {
                // 2 (L1). A random move after which the opponent cannot win at once.
                let mut safe = Vec::with_capacity(moves.len());
                for (i, &mv) in moves.iter().enumerate() {
                    if out_of_time(i + 1) {
                        break 'choice fallback;
                    }
                    game.play(mv);
                    let threatened = winning_reply(game, &mut self.replies).is_some();
                    game.undo();
                    if !threatened {
                        safe.push(mv);
                    }
                }
                if safe.is_empty() {
                    fallback
                } else {
                    self.pick(&safe)
                }
            } else {
                // 2 (R4nd0m++). Play the random move in thought; if the opponent could then
                // win at a cell, take that cell instead (when it is ours to take).
                game.play(fallback);
                let threat = winning_reply(game, &mut self.replies);
                game.undo();
                match threat {
                    Some(cell) if game.is_legal(cell) => cell,
                    _ => fallback,
                }
            }
        };
        self.moves = moves;
        (chosen, None)
    }
}
