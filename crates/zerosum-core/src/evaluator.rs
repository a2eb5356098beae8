use crate::{Game, Outcome};

/// Game knowledge for a search: a static evaluation, the moves worth searching, and a move
/// ordering hint. Each game family provides its own; search is generic over it.
pub trait Evaluator<G: Game>: Clone + Send + Sync + 'static {
    /// A heuristic value of an ongoing position, from the side to move's point of view, in
    /// evaluation units (positive is good for the side to move). Search clamps it to
    /// `±Score::MAX_EVAL`. Must be deterministic.
    fn evaluate(&self, game: &G) -> i32;

    /// Writes the moves search should consider, a subset of the legal moves that is never
    /// empty when the game goes on (by default, all legal moves). Large boards restrict this to
    /// cells near the stones.
    fn candidate_moves(&self, game: &G, moves: &mut Vec<G::Move>) {
        game.legal_moves(moves);
    }

    /// A static ordering hint: moves with a larger value are searched first (centre first,
    /// near the last moves, threats first). Default: no preference.
    fn move_hint(&self, _game: &G, _mv: G::Move) -> i32 {
        0
    }

    /// How many plies less alpha-beta first searches `mv`, the candidate of rank `rank` (0 the
    /// first, in search order) of the `count` at a node `depth` plies above the horizon (late
    /// move reductions, under PVS only, never the first candidate): a reduced move that beats
    /// alpha is searched again at full depth. Default: 0, every move to full depth.
    fn late_move_reduction(
        &self,
        _game: &G,
        _mv: G::Move,
        _depth: usize,
        _rank: usize,
        _count: usize,
    ) -> usize {
        0
    }

    /// Whether alpha-beta skips `mv`, the candidate of rank `rank` (0 the first, in search
    /// order) of the `count` at a node `depth` plies above the horizon, without searching it
    /// (late move pruning: the quiet tail of a node near the horizon). Asked under PVS only,
    /// never for the first candidate nor at a node on the principal variation, and only while
    /// the node's best move so far does not lose, so that a loss the search reports is real;
    /// a node that skipped a move is not searched to its end. Default: `false`, every
    /// candidate is searched.
    fn late_move_pruned(
        &self,
        _game: &G,
        _mv: G::Move,
        _depth: usize,
        _rank: usize,
        _count: usize,
    ) -> bool {
        false
    }

    /// The share of a timed search's aim ([`crate::TimeBudget::search_aim`]) after which
    /// iterative deepening on `game` starts no more iterations: a narrow (selective) search
    /// whose next iteration costs a few times the last may start it later, and answers from
    /// its finished root moves if it does not end. Must lie in `(0, 1]`. Default: one half
    /// ([`crate::TimeBudget::deepening_cutoff`]).
    fn deepening_share(&self, _game: &G) -> f64 {
        0.5
    }

    /// Whether alpha-beta orders the moves after the table's move and the killers by its
    /// history of cutoffs (per move, over the search) added to [`Evaluator::move_hint`], or
    /// by the hint alone: an evaluator whose hints order `game`'s moves better than the
    /// history does says no. Asked once a search, of the root. Default: `true`.
    fn orders_by_history(&self, _game: &G) -> bool {
        true
    }

    /// The move a random playout (Monte Carlo search) plays here instead of a random one, when
    /// the game knows a cheap and clearly right one: an immediate win, else a block of the
    /// opponent's immediate win. It runs at every ply of every playout, so it must cost little
    /// more than a move; it must be legal. Default: `None`, the choice is left to chance.
    fn playout_move(&self, _game: &G) -> Option<G::Move> {
        None
    }

    /// A whole playout of the game's own, instead of Monte Carlo search's generic one (a
    /// [`Evaluator::playout_move`] or a random move at each ply): plays `game` (ongoing) out by
    /// chance to its end on a scratch copy, writes the moves played to `played` (in order, the
    /// first by the side to move, then alternating), and returns the outcome. `random(n)` must
    /// be given `n > 0` and returns a uniformly random number in `0..n`; the playout must be
    /// deterministic for a given sequence of draws. Default: `None`, the generic playout.
    fn playout_to_end(
        &self,
        _game: &G,
        _random: &mut dyn FnMut(usize) -> usize,
        _played: &mut Vec<G::Move>,
    ) -> Option<Outcome> {
        None
    }

    /// Rapid action value estimation (RAVE, Gelly and Silver) for Monte Carlo search: where a
    /// move id ([`Game::move_id`]) names the same action wherever it is played (the same
    /// cell of a placement game), every node keeps, per child, the all-moves-as-first
    /// statistic of the child's move (the playouts through the node in which the child's side
    /// played that move later), and selection blends it with the child's mean. `Some(k)`:
    /// the equivalence parameter of the blend, the visits at which the mean and the AMAF
    /// value weigh the same. Default: `None`, no RAVE.
    fn rave_equivalence(&self) -> Option<f64> {
        None
    }

    /// How Monte Carlo search spreads its playouts over a node's candidates (in
    /// [`Evaluator::candidate_moves`] order, best first). `None`: every candidate is tried
    /// once before any is tried twice, then UCT. `Some(width)`: the candidate of rank `r` gets
    /// the prior `exp(-r / width)` (normalised) and selection is PUCT, so the tail of a long
    /// list is left alone until the head disappoints; candidates that end the game are found
    /// when the node is expanded. Default: `None`.
    fn mcts_prior_width(&self) -> Option<f64> {
        None
    }

    /// Weights that sharpen Monte Carlo search's priors (with [`Evaluator::mcts_prior_width`]):
    /// `weights` gets one positive finite weight for each of `moves` (candidates of `game`, in
    /// candidate order), and the candidate of rank `r` gets the prior `exp(-r / width)` times
    /// its weight (normalised; the candidates are searched in the order of their priors).
    /// Left empty (the default): the priors of rank alone.
    fn candidate_weights(&self, _game: &G, _moves: &[G::Move], weights: &mut Vec<f64>) {
        weights.clear();
    }

    /// The side that has won `game` (ongoing) already, by a static proof the rules do not see
    /// yet (Hex: a virtual connection of stones and bridges with disjoint carriers), for search
    /// to treat as the end of the game. It must be sound: never a side that could still lose.
    /// Monte Carlo search asks it at new leaves whose playout looks decided (the evaluator's
    /// value, or a playout's result, within 1% of a win or a loss), so it must cost about an
    /// evaluation at most. Default: `None`.
    fn proven_winner(&self, _game: &G) -> Option<crate::Side> {
        None
    }

    /// Playouts through a Monte Carlo node before search asks [`Evaluator::analyse`] about
    /// its position (once); `None`: never. Default: `None`.
    fn analysis_visits(&self) -> Option<u32> {
        None
    }

    /// Knowledge too costly for every node (Hex: virtual connections, the mustplay, inferior
    /// cells): writes to `verdicts` one [`MoveVerdict`] per move of `moves` (candidates of
    /// `game`, ongoing), in order. Every verdict must be sound. Default: every move
    /// [`MoveVerdict::Open`].
    fn analyse(&self, _game: &G, moves: &[G::Move], verdicts: &mut Vec<MoveVerdict>) {
        verdicts.clear();
        verdicts.resize(moves.len(), MoveVerdict::Open);
    }

    /// Whether the candidate `mv` at the root of an alpha-beta search loses by force, by
    /// knowledge too costly for every node (m,n,k: the opponent's victory by continuous
    /// threats after it). Asked once per move and search, for the best move of each completed
    /// iteration from depth 6 on; a move that loses is dropped from the root and the iteration
    /// searched again (unless it is the last candidate left). Must be sound: `true` only for a lost move.
    /// Default: `false`.
    fn root_move_loses(&self, _game: &G, _mv: G::Move) -> bool {
        false
    }
}

/// What [`Evaluator::analyse`] knows of one move, for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveVerdict {
    /// Nothing: search it.
    Open,
    /// It wins.
    Wins,
    /// It loses.
    Loses,
    /// It is never better than the best move of the same analysis that is neither inferior
    /// nor lost, or it loses: search need not try it. When every move is inferior or lost,
    /// every move loses.
    Inferior,
}
