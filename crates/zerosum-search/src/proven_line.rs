//! Proofs kept from move to move. Once a search has proven a win or a loss, the game's later
//! positions are known as well as the proof went: an engine that searched anew at every move,
//! with less time or a table that has since lost entries, might not see as deep and drift
//! away from a won game. [`ProvenLine`] keeps the proof's line and, where play left it, reads
//! the proven entries of the transposition table.

use zerosum_core::{Game, Outcome, Score, Status};

use crate::result::SearchResult;
use crate::table::{Bound, TranspositionTable};

/// A proven win or loss of a position of a game, with the line of best play that proves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvenLine<M> {
    /// The moves from the start of the game to the proven position.
    root: Vec<M>,
    /// The proven value at the root, for its side to move.
    score: Score,
    /// Best play from the root (at least the root move).
    line: Vec<M>,
}

/// A move that a kept proof prescribes, with its proven value for the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProvenMove<M> {
    pub mv: M,
    pub score: Score,
}

impl<M: Copy + Eq> ProvenLine<M> {
    /// The proof `result` gives of `game` (the position searched): `Some` when the search
    /// proved a win or a loss, with its principal variation.
    pub fn of_search<G: Game<Move = M>>(game: &G, result: &SearchResult<M>) -> Option<Self> {
        if !(result.solved && result.score.is_decisive()) || result.pv.is_empty() {
            return None;
        }
        Some(ProvenLine {
            root: game.history().to_vec(),
            score: result.score,
            line: result.pv.clone(),
        })
    }

    /// The proven value at the root of the proof.
    pub fn score(&self) -> Score {
        self.score
    }

    /// The move this proof prescribes in `game`, a later position of the same game with the
    /// same side to move as at the root, in which the engine has played only moves this proof
    /// prescribed; `None` when it prescribes none:
    ///
    /// - while play has followed the proof's line, the line's next move (best play, proven:
    ///   the fastest win or the slowest loss against best defence);
    /// - once the opponent has left the line of a proven win, the fastest move that the table
    ///   proves winning (the proof refuted every reply, and its entries may survive).
    pub fn next_move<G: Game<Move = M>>(
        &self,
        game: &mut G,
        table: &TranspositionTable,
    ) -> Option<ProvenMove<M>> {
        let played = game.history().strip_prefix(self.root.as_slice())?;
        if played.is_empty() || !played.len().is_multiple_of(2) || game.status().is_over() {
            return None;
        }
        if self.line.len() > played.len() && self.line.starts_with(played) {
            // Each move played brings the end one ply nearer.
            let nearer = played.len() as i32;
            let score = if self.score > Score::DRAW {
                Score(self.score.0 + nearer)
            } else {
                Score(self.score.0 - nearer)
            };
            return Some(ProvenMove {
                mv: self.line[played.len()],
                score,
            });
        }
        if self.score > Score::DRAW {
            return proven_win(game, table);
        }
        None
    }
}

/// The fastest move of `game` (ongoing) that wins at once or that the table proves winning,
/// with its value.
pub fn proven_win<G: Game>(
    game: &mut G,
    table: &TranspositionTable,
) -> Option<ProvenMove<G::Move>> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mover = game.to_move();
    let mut best: Option<ProvenMove<G::Move>> = None;
    for mv in moves {
        game.play(mv);
        let score = match game.status() {
            Status::Over(outcome) => (outcome == Outcome::Win(mover)).then_some(Score::win_in(1)),
            Status::Ongoing => table
                .probe(game.hash())
                .filter(|entry| matches!(entry.bound, Bound::Upper | Bound::Exact))
                .map(|entry| -entry.score.from_node(1))
                .filter(|&score| score.is_decisive() && score > Score::DRAW),
        };
        game.undo();
        if let Some(score) = score {
            if best.is_none_or(|b| score > b.score) {
                best = Some(ProvenMove { mv, score });
            }
        }
    }
    best
}
