//! What the engine knows for certain, and how it shapes the engine's move: the game's exact
//! oracle (on Connect-X boards the solver fits: the opening book, then the solver) proves the
//! moves before any search, and a proven win or loss that a search found is kept for the
//! moves that follow (see [`ProvenLine`]).
//!
//! The rules: a move that keeps a proven value is played without a search when it is the
//! best there is (a win, the fastest proven; the only draw; the slowest loss); otherwise the
//! search chooses, and [`Verdict::vet`] makes sure it never chooses a move proven to lose when
//! another is not, nor an unproven move when a draw is proven.

use zerosum_games::exact::{ExactLimits, ExactOracle, Verdict};
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
        Some(Verdict::prove(self.oracle.as_mut()?.as_mut(), game, limits))
    }

    /// Keeps the proof of `result`, the search of `game` whose move `played` was chosen; a
    /// search that proved nothing, or whose move was not played, forgets the last proof. (A
    /// kept proof whose line was not followed only points to the table's proven wins, which
    /// are sound whatever was played.)
    pub fn record(&mut self, game: &G, result: &SearchResult<G::Move>, played: G::Move) {
        self.proof = ProvenLine::of_search(game, result).filter(|_| result.pv[0] == played);
    }
}
