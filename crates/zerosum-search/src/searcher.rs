//! The front door of the search: [`Searcher`] hands each search to the alpha-beta family
//! ([`crate::alphabeta`]) or to Monte Carlo tree search ([`crate::mcts`]), by its
//! [`Algorithm`], and keeps both between searches.

use std::sync::Arc;

use zerosum_core::{Evaluator, Game};

use crate::alphabeta::AlphaBeta;
use crate::limits::{Algorithm, SearchLimits};
use crate::mcts::Mcts;
use crate::result::{SearchInfo, SearchResult};
use crate::table::{TableTooBig, TranspositionTable};

/// A reusable searcher for one game type and evaluator, by any [`Algorithm`]. Its
/// transposition table is shared (`Arc`) so that several searchers can use one table; with
/// [`SearchLimits::threads`] above one it runs helper threads of its own on that table.
pub struct Searcher<G: Game, E: Evaluator<G>> {
    algorithm: Algorithm,
    /// The alpha-beta family's searcher, which holds the table.
    alphabeta: AlphaBeta<G, E>,
    /// The Monte Carlo searcher ([`Algorithm::Mcts`]), with the tree kept from the last search.
    mcts: Option<Mcts<G, E>>,
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with its own table of `table_mb` MB (aborts if memory runs out; see
    /// [`Searcher::try_new`]).
    pub fn new(evaluator: E, algorithm: Algorithm, table_mb: usize) -> Self {
        Self::with_table(
            evaluator,
            algorithm,
            Arc::new(TranspositionTable::new(table_mb)),
        )
    }

    /// A searcher with its own table of `table_mb` MB, or an error if it cannot be allocated.
    pub fn try_new(
        evaluator: E,
        algorithm: Algorithm,
        table_mb: usize,
    ) -> Result<Self, TableTooBig> {
        let table = TranspositionTable::try_new(table_mb)?;
        Ok(Self::with_table(evaluator, algorithm, Arc::new(table)))
    }

    /// A searcher using a shared table.
    pub fn with_table(evaluator: E, algorithm: Algorithm, table: Arc<TranspositionTable>) -> Self {
        Searcher {
            algorithm,
            alphabeta: AlphaBeta::new(evaluator, algorithm, table),
            mcts: None,
        }
    }

    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    pub fn set_algorithm(&mut self, algorithm: Algorithm) {
        self.algorithm = algorithm;
        self.alphabeta.set_algorithm(algorithm);
    }

    pub fn table(&self) -> &Arc<TranspositionTable> {
        self.alphabeta.table()
    }

    /// Forgets everything learnt: table, killers, history, Monte Carlo tree. A search after
    /// this is reproducible.
    pub fn clear(&mut self) {
        self.mcts = None;
        self.table().clear();
        self.alphabeta.clear();
    }

    /// Searches `position` within `limits`, calling `on_iteration` after each completed
    /// iteration. Returns a legal move whenever the game goes on, however little time it had.
    ///
    /// With [`SearchLimits::threads`] above one (and any algorithm but minimax, which has no
    /// table to share), Lazy SMP: helper threads search the same root by iterative deepening,
    /// each skipping some depths so that they run ahead of this thread, and share nothing but
    /// the transposition table. This thread decides when to stop and reports the iterations;
    /// when it is done it stops the helpers, waits for them, and answers its own last
    /// iteration, or a helper's if that one went deeper or proved the value. Every thread
    /// keeps to the clock and the stop flag; the node limit and the node counts are totals
    /// over the threads. With one thread the search is deterministic under a depth or node
    /// limit.
    ///
    /// With [`Algorithm::Mcts`] the search is a Monte Carlo tree search instead (see
    /// [`Algorithm::Mcts`]): it reports at 1024 playouts, at each doubling and at the end,
    /// and keeps its tree for the next search of a later position of the same game.
    ///
    /// A timed search of either kind aims to stop at [`zerosum_core::TimeBudget::search_aim`].
    pub fn search(
        &mut self,
        position: &G,
        limits: &SearchLimits,
        on_iteration: impl FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        if self.algorithm != Algorithm::Mcts {
            return self.alphabeta.search(position, limits, on_iteration);
        }
        // The tree may take as much memory as the table holds.
        let memory = self.table().bytes();
        let evaluator = self.alphabeta.evaluator();
        self.mcts
            .get_or_insert_with(|| Mcts::new(evaluator.clone()))
            .search(position, limits, memory, on_iteration)
    }
}
