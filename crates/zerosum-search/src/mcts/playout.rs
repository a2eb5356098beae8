//! Playouts: from a leaf of the tree, the game is played on by chance to its end, or, on large
//! boards (over 100 cells), the leaf is scored by the evaluator. A game with a playout of its
//! own ([`Evaluator::playout_to_end`]) plays that one, on every board. Otherwise the moves are
//! uniformly random among the legal ones, unless the game's cheap playout policy
//! ([`Evaluator::playout_move`]) names one (an immediate win, a block).
//! The moves of the last playout are kept ([`Playouts::played`], for RAVE).
//!
//! A random move is drawn from all the board's moves and kept if legal (a few tries), which
//! costs a legality check instead of a move generation; when the board is too full for that
//! to succeed quickly, the legal moves are generated and one is drawn from them. Either way
//! every legal move is equally likely. Nothing is allocated once the buffers have grown.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zerosum_core::{Evaluator, Game, Outcome, Side, Status};

/// Random draws among all moves before generating the legal ones.
const TRIES: usize = 4;

/// Boards with more cells (move ids) than this are large: playouts stop after
/// [`LARGE_BOARD_PLIES`] plies and are scored by the evaluator. Measured against the
/// alpha-beta engine at 0.2 s a move (release build, loaded 2-core machine): on hex:11, 5-15
/// in 20 games with the evaluator at the leaves, 0-20 with random playouts to the end
/// (bridge replies included); on gomoku 4-6 against 1-9 in 10 games.
pub(super) const LARGE_BOARD_CELLS: usize = 100;
/// Plies of a playout on a large board before the evaluator scores it: none, the evaluator
/// scores the new leaf itself.
pub(super) const LARGE_BOARD_PLIES: usize = 0;
/// Every playout is scored by the evaluator after this many plies per cell of the board, at
/// the latest (a game that can last long, such as Unstable, must not stall the search).
const PLIES_PER_CELL: usize = 4;
/// Evaluation units per unit of logit: an evaluation of `+SIGMOID_SCALE` for the side to
/// move is scored as a win with probability 1 / (1 + e^-1), about 73%.
pub(super) const SIGMOID_SCALE: f64 = 400.0;

/// The playout machinery of one search thread: its random generator and buffers.
#[derive(Debug)]
pub(super) struct Playouts<M> {
    rng: ChaCha8Rng,
    /// Every move of the board, legal or not.
    all: Vec<M>,
    /// Scratch for the legal moves.
    legal: Vec<M>,
    /// Plies after which a playout is scored by the evaluator.
    cutoff: usize,
    /// The moves of the last playout, in order.
    played: Vec<M>,
}

impl<M: Copy> Playouts<M> {
    /// Playouts on `game`'s board, drawing from a generator seeded with `seed`.
    pub fn new<G: Game<Move = M>>(game: &G, seed: u64) -> Self {
        let mut all = Vec::new();
        game.all_moves(&mut all);
        let cells = game.move_id_bound();
        let cutoff = if cells > LARGE_BOARD_CELLS {
            LARGE_BOARD_PLIES
        } else {
            cells * PLIES_PER_CELL
        };
        Playouts {
            rng: ChaCha8Rng::seed_from_u64(seed),
            all,
            legal: Vec::new(),
            cutoff,
            played: Vec::new(),
        }
    }

    /// The moves of the last playout, in order (the first by the side to move at its start).
    pub fn played(&self) -> &[M] {
        &self.played
    }

    /// Plays `game` (ongoing) on by chance from its position and takes the moves back;
    /// returns the probability that the first player wins (1, 0 or ½ at the end of the game,
    /// the evaluator's sigmoid when cut off). Counts the plies played in `plies`.
    pub fn run<G: Game<Move = M>, E: Evaluator<G>>(
        &mut self,
        game: &mut G,
        evaluator: &E,
        plies: &mut u64,
    ) -> f64 {
        let rng = &mut self.rng;
        let own = evaluator.playout_to_end(game, &mut |n| rng.random_range(0..n), &mut self.played);
        if let Some(outcome) = own {
            *plies += self.played.len() as u64;
            return match outcome {
                Outcome::Win(Side::First) => 1.0,
                Outcome::Win(Side::Second) => 0.0,
                Outcome::Draw => 0.5,
            };
        }
        self.played.clear();
        let start = game.ply();
        let value = loop {
            match game.status() {
                Status::Over(Outcome::Win(Side::First)) => break 1.0,
                Status::Over(Outcome::Win(Side::Second)) => break 0.0,
                Status::Over(Outcome::Draw) => break 0.5,
                Status::Ongoing => {}
            }
            if game.ply() - start >= self.cutoff {
                break first_wins(game, evaluator);
            }
            let mv = match evaluator.playout_move(game) {
                Some(mv) => mv,
                None => self.random_move(game),
            };
            self.played.push(mv);
            game.play(mv);
        };
        *plies += (game.ply() - start) as u64;
        while game.ply() > start {
            game.undo();
        }
        value
    }

    /// A uniformly random legal move of `game` (ongoing).
    fn random_move<G: Game<Move = M>>(&mut self, game: &G) -> M {
        if !self.all.is_empty() {
            for _ in 0..TRIES {
                let mv = self.all[self.rng.random_range(0..self.all.len())];
                if game.illegal_reason(mv).is_none() {
                    return mv;
                }
            }
        }
        game.legal_moves(&mut self.legal);
        self.legal[self.rng.random_range(0..self.legal.len())]
    }
}

/// The evaluator's view of `game` (ongoing) as the probability that the first player wins.
pub(super) fn first_wins<G: Game, E: Evaluator<G>>(game: &G, evaluator: &E) -> f64 {
    let value = f64::from(evaluator.evaluate(game)) / SIGMOID_SCALE;
    let to_move_wins = 1.0 / (1.0 + (-value).exp());
    match game.to_move() {
        Side::First => to_move_wins,
        Side::Second => 1.0 - to_move_wins,
    }
}
