//! What the engine knows for certain, and how it shapes the engine's move: the game's exact
//! oracle (on Connect-X boards the solver fits: the opening book, then the solver) proves the
//! moves before any search, and a proven win or loss that a search found is kept for the
//! moves that follow (see [`ProvenLine`]).
//!
//! The rules: a move that keeps a proven value is played without a search when it is the
//! best there is (a win, the fastest proven; the only draw; the slowest loss); otherwise the
//! search chooses, and [`Verdict::vet`] makes sure it never chooses a move proven to lose when
//! another is not, nor an unproven move when a draw is proven.

use std::time::Instant;

use zerosum_games::exact::{ExactLimits, ExactOracle, Proven};
use zerosum_games::EvaluatedGame;
use zerosum_search::{ProvenLine, SearchResult, TranspositionTable};

/// The oracle of the game, if it has one, and the last proof a search found.
pub(crate) struct Knowledge<G: EvaluatedGame> {
    oracle: Option<Box<dyn ExactOracle<G>>>,
    proof: Option<ProvenLine<G::Move>>,
}

impl<G: EvaluatedGame> Knowledge<G> {
    /// Knowledge of a new game: the game's oracle, with a table of `table_mb` MB.
    pub fn new(game: &G, table_mb: usize) -> Self {
        Knowledge {
            oracle: game.oracle(table_mb),
            proof: None,
        }
    }

    /// A move the kept proof prescribes in `game` (at once, without a search), with the line
    /// that says so.
    pub fn proven_move(
        &self,
        game: &mut G,
        table: &TranspositionTable,
    ) -> Option<(G::Move, String)> {
        let proven = self.proof.as_ref()?.next_move(game, table)?;
        let line = format!(
            "proven {} pv {} (kept from an earlier search)",
            proven.score.compact(),
            game.format_move(proven.mv)
        );
        Some((proven.mv, line))
    }

    /// What the oracle proves of the moves of `game` within `limits`; `None` without an
    /// oracle.
    pub fn consult(&mut self, game: &G, limits: &ExactLimits) -> Option<Verdict<G::Move>> {
        let started = Instant::now();
        let moves = self.oracle.as_mut()?.prove(game, limits);
        Some(Verdict {
            moves,
            time: started.elapsed().as_secs_f64(),
        })
    }

    /// Keeps the proof of `result`, the search of `game` whose move `played` was chosen; a
    /// search that proved nothing, or whose move was not played, forgets the last proof. (A
    /// kept proof whose line was not followed only points to the table's proven wins, which
    /// are sound whatever was played.)
    pub fn record(&mut self, game: &G, result: &SearchResult<G::Move>, played: G::Move) {
        self.proof = ProvenLine::of_search(game, result).filter(|_| result.pv[0] == played);
    }
}

/// What an oracle proved of a position's moves.
pub(crate) struct Verdict<M> {
    /// Every legal move, the likeliest best first, with what is proven of it.
    moves: Vec<(M, Proven)>,
    /// Seconds the proof took.
    time: f64,
}

impl<M: Copy + Eq> Verdict<M> {
    /// The best proven result (the first move of the list that has it), if any move is
    /// proven.
    fn best(&self) -> Option<(M, Proven)> {
        let mut best: Option<(M, Proven)> = None;
        for &(mv, value) in &self.moves {
            if value.rank().is_some() && best.is_none_or(|(_, b)| value.rank() > b.rank()) {
                best = Some((mv, value));
            }
        }
        best
    }

    fn value_of(&self, mv: M) -> Proven {
        self.moves
            .iter()
            .find(|&&(m, _)| m == mv)
            .map_or(Proven::Unknown, |&(_, value)| value)
    }

    /// True when every move is proven.
    fn complete(&self) -> bool {
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
}
