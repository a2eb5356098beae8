//! Exact knowledge a game family may offer beyond search: an [`ExactOracle`] proves the value
//! of moves (from an opening book, an exact solver) within limits, so that an engine playing
//! the game never gives away a won or drawn position it could have proven.
//!
//! [`Verdict`] is what an oracle proved of a position's moves, and the rules an engine follows
//! with it: which move the proof settles, and which search move it overrules.
//!
//! An oracle is optional: [`EvaluatedGame::oracle`](crate::EvaluatedGame::oracle) gives one
//! where the family has it (Connect-X boards that fit the packed solver), `None` elsewhere.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use zerosum_core::{Game, Score};

/// What an oracle may spend on one question. The default has no limit.
#[derive(Clone, Debug, Default)]
pub struct ExactLimits {
    /// Stop after about this many positions (the solver's nodes), all proofs of the question
    /// together.
    pub nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Raised by another thread to stop at once.
    pub stop: Option<Arc<AtomicBool>>,
    /// Threads the oracle may search with (0 counts as 1; with more than one, the node limit
    /// counts the first thread's nodes).
    pub threads: usize,
}

impl ExactLimits {
    /// True once the deadline has passed or the stop flag is raised (the node limit is the
    /// solver's to count).
    pub fn expired(&self) -> bool {
        self.deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
            || self
                .stop
                .as_ref()
                .is_some_and(|stop| stop.load(Ordering::Relaxed))
    }
}

/// What is proven about one move, for the side that plays it. `plies` counts the moves from
/// the position the move is played in to the end of the game, this move included (a move that
/// wins at once wins in 1); `None` when only the result is proven, not its distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    /// Nothing was proven in the limits.
    Unknown,
    /// The mover wins against any defence.
    Win { plies: Option<usize> },
    /// Both sides can hold the draw.
    Draw,
    /// The mover loses against best play.
    Loss { plies: Option<usize> },
}

impl Proven {
    /// Orders proven values from the mover's point of view: any win above a draw above any
    /// loss; among wins the faster, among losses the slower first; a result without its
    /// distance ranks below the same result with one (a win of unknown distance may be the
    /// slowest, a loss of unknown distance the fastest). `None` for [`Proven::Unknown`].
    pub fn rank(self) -> Option<i64> {
        // Distances are below 2^20 (a 100x100 board has 10^4 cells).
        const SPAN: i64 = 1 << 21;
        match self {
            Proven::Unknown => None,
            Proven::Win { plies } => Some(2 * SPAN - plies.map_or(SPAN - 1, |p| p as i64)),
            Proven::Draw => Some(0),
            Proven::Loss { plies } => Some(-2 * SPAN + plies.map_or(1, |p| p as i64 + 1)),
        }
    }

    /// -1, 0 or 1: the result without its distance; `None` for [`Proven::Unknown`].
    pub fn sign(self) -> Option<i32> {
        match self {
            Proven::Unknown => None,
            Proven::Win { .. } => Some(1),
            Proven::Draw => Some(0),
            Proven::Loss { .. } => Some(-1),
        }
    }

    /// What a search proved of its best move, whose score is `score`: nothing unless `solved`
    /// (the search proved it), else its result with the distance of a win or a loss.
    pub fn of_search(score: Score, solved: bool) -> Proven {
        if !solved {
            return Proven::Unknown;
        }
        let plies = score.distance();
        match score.0.signum() {
            1 => Proven::Win { plies },
            0 => Proven::Draw,
            _ => Proven::Loss { plies },
        }
    }

    /// A short word for engine lines: `win-in-7`, `win`, `draw`, `loss-in-4`, `loss`, `?`.
    pub fn compact(self) -> String {
        match self {
            Proven::Unknown => "?".into(),
            Proven::Win { plies: Some(p) } => format!("win-in-{p}"),
            Proven::Win { plies: None } => "win".into(),
            Proven::Draw => "draw".into(),
            Proven::Loss { plies: Some(p) } => format!("loss-in-{p}"),
            Proven::Loss { plies: None } => "loss".into(),
        }
    }
}

/// An exact oracle for the positions of one board: it owns whatever it needs (a solver's
/// table, a book) and learns across the questions of a game.
pub trait ExactOracle<G: Game>: Send {
    /// The legal moves of `game` (ongoing) with what could be proven of each within `limits`.
    /// Every move's result is sought first (cheaply), then the distances of the moves that keep
    /// the best result. A move that wins at once ends the search: the other moves may then stay
    /// [`Proven::Unknown`].
    fn prove(&mut self, game: &G, limits: &ExactLimits) -> Vec<(G::Move, Proven)>;
}

/// What an oracle proved of a position's moves.
pub struct Verdict<M> {
    /// Every legal move, the likeliest best first, with what is proven of it.
    moves: Vec<(M, Proven)>,
    /// Seconds the proof took.
    time: f64,
}

impl<M: Copy + Eq> Verdict<M> {
    /// What `oracle` proves of the moves of `game` (ongoing) within `limits`, timed.
    pub fn prove<G: Game<Move = M>>(
        oracle: &mut dyn ExactOracle<G>,
        game: &G,
        limits: &ExactLimits,
    ) -> Verdict<M> {
        let started = Instant::now();
        let moves = oracle.prove(game, limits);
        Verdict {
            moves,
            time: started.elapsed().as_secs_f64(),
        }
    }

    /// The best proven result (the first move of the list that has it), if any move is
    /// proven.
    pub fn best(&self) -> Option<(M, Proven)> {
        let mut best: Option<(M, Proven)> = None;
        for &(mv, value) in &self.moves {
            if value.rank().is_some() && best.is_none_or(|(_, b)| value.rank() > b.rank()) {
                best = Some((mv, value));
            }
        }
        best
    }

    /// What is proven of `mv` ([`Proven::Unknown`] for a move not in the list).
    pub fn value_of(&self, mv: M) -> Proven {
        self.moves
            .iter()
            .find(|&&(m, _)| m == mv)
            .map_or(Proven::Unknown, |&(_, value)| value)
    }

    /// True when every move is proven.
    pub fn complete(&self) -> bool {
        self.moves
            .iter()
            .all(|(_, value)| *value != Proven::Unknown)
    }

    /// The move to play without a search, when the proof settles it: a proven win (the
    /// fastest proven), or with every move proven, the only draw or the slowest loss (when the
    /// distances of the losses are unknown, the search chooses among them: its evaluation
    /// resists longer than an arbitrary losing move).
    pub fn decided(&self) -> Option<(M, Proven)> {
        let (mv, best) = self.best()?;
        if best.sign() == Some(1) {
            return Some((mv, best));
        }
        if !self.complete() || best == (Proven::Loss { plies: None }) {
            return None;
        }
        let equals = self.moves.iter().filter(|(_, v)| *v == best).count();
        (best.sign() == Some(-1) || equals == 1).then_some((mv, best))
    }

    /// The move to play instead of the search's `chosen`, of which the search proved
    /// `searched` ([`Proven::Unknown`] when nothing): `chosen` itself unless the proof shows it
    /// worse than another move (it loses while another move is not proven to; or it is
    /// unproven while a draw is proven).
    pub fn vet(&self, chosen: M, searched: Proven) -> M {
        let Some((best_move, best)) = self.best() else {
            return chosen;
        };
        let value = match self.value_of(chosen) {
            Proven::Unknown => searched,
            known => known,
        };
        let keeps = match value {
            Proven::Unknown => best.sign() == Some(-1),
            // A loss only when no move might be better.
            Proven::Loss { .. } => best.sign() == Some(-1) && self.complete(),
            _ => value.sign() >= best.sign(),
        };
        if keeps {
            return chosen;
        }
        // The best proven move, unless it loses and some move is not proven to.
        if best.sign() == Some(-1) {
            if let Some(&(open, _)) = self.moves.iter().find(|(_, v)| *v == Proven::Unknown) {
                return open;
            }
        }
        best_move
    }

    /// The line that reports the proof: `exact 4 win-in-37 proved 7/7 time 0.012`.
    pub fn line(&self, mv: M, format: impl Fn(M) -> String) -> String {
        let proven = self
            .moves
            .iter()
            .filter(|(_, v)| *v != Proven::Unknown)
            .count();
        format!(
            "exact {} {} proved {}/{} time {:.3}",
            format(mv),
            self.value_of(mv).compact(),
            proven,
            self.moves.len(),
            self.time
        )
    }

    /// The line that reports the proof of the best proven move ([`Verdict::line`]), or
    /// `exact none proved 0/7 time 0.500` when no move is proven.
    pub fn summary(&self, format: impl Fn(M) -> String) -> String {
        match self.best() {
            Some((mv, _)) => self.line(mv, format),
            None => format!(
                "exact none proved 0/{} time {:.3}",
                self.moves.len(),
                self.time
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(moves: &[(u8, Proven)]) -> Verdict<u8> {
        Verdict {
            moves: moves.to_vec(),
            time: 0.0,
        }
    }

    const WIN: Proven = Proven::Win { plies: None };
    const LOSS: Proven = Proven::Loss { plies: None };

    #[test]
    fn a_proven_win_is_played_at_once_and_the_fastest_first() {
        let v = verdict(&[
            (3, Proven::Unknown),
            (2, Proven::Win { plies: Some(9) }),
            (4, Proven::Win { plies: Some(5) }),
        ]);
        assert_eq!(v.decided(), Some((4, Proven::Win { plies: Some(5) })));
    }

    #[test]
    fn draws_are_left_to_the_search_but_never_lost() {
        let v = verdict(&[(3, Proven::Draw), (2, Proven::Draw), (4, LOSS)]);
        assert_eq!(v.decided(), None);
        assert_eq!(v.vet(2, Proven::Unknown), 2);
        assert_eq!(v.vet(4, Proven::Unknown), 3);
        let partial = verdict(&[(3, Proven::Draw), (2, Proven::Unknown), (4, LOSS)]);
        assert_eq!(
            partial.vet(2, Proven::Unknown),
            3,
            "an unproven move risks the draw"
        );
        assert_eq!(partial.vet(2, WIN), 2, "unless the search proved it wins");
        assert_eq!(partial.vet(2, Proven::Draw), 2, "or draws");
    }

    #[test]
    fn in_a_lost_position_an_unproven_move_beats_a_proven_loss() {
        let v = verdict(&[(3, LOSS), (2, Proven::Unknown), (4, LOSS)]);
        assert_eq!(v.decided(), None);
        assert_eq!(v.vet(3, Proven::Unknown), 2);
        assert_eq!(v.vet(2, Proven::Unknown), 2);
        let lost = verdict(&[
            (3, Proven::Loss { plies: Some(4) }),
            (2, Proven::Loss { plies: Some(8) }),
        ]);
        assert_eq!(lost.decided(), Some((2, Proven::Loss { plies: Some(8) })));
        let blind = verdict(&[(3, LOSS), (2, LOSS)]);
        assert_eq!(
            blind.decided(),
            None,
            "the search picks among unmeasured losses"
        );
        assert_eq!(blind.vet(2, Proven::Unknown), 2);
        assert_eq!(
            verdict(&[(3, WIN), (2, LOSS)]).decided(),
            Some((3, WIN)),
            "a win of unknown distance is still a win"
        );
    }

    #[test]
    fn proven_values_rank_from_the_movers_point_of_view() {
        let order = [
            Proven::Win { plies: Some(1) },
            Proven::Win { plies: Some(9) },
            Proven::Win { plies: None },
            Proven::Draw,
            Proven::Loss { plies: None },
            Proven::Loss { plies: Some(2) },
        ];
        // Best first, except the loss of unknown distance, which ranks as the fastest loss.
        let ranks: Vec<i64> = order.iter().map(|p| p.rank().unwrap()).collect();
        assert!(ranks[0] > ranks[1] && ranks[1] > ranks[2] && ranks[2] > ranks[3]);
        assert!(ranks[3] > ranks[5] && ranks[5] > ranks[4]);
        assert_eq!(Proven::Unknown.rank(), None);
    }
}
