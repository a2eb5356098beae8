use crate::Game;

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

    /// The move a random playout (Monte Carlo search) plays here instead of a random one, when
    /// the game knows a cheap and clearly right one: an immediate win, else a block of the
    /// opponent's immediate win. It runs at every ply of every playout, so it must cost little
    /// more than a move; it must be legal. Default: `None`, the choice is left to chance.
    fn playout_move(&self, _game: &G) -> Option<G::Move> {
        None
    }
}
