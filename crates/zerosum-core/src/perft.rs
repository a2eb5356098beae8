use std::collections::HashSet;

use crate::Game;

/// The number of positions reached after exactly `depth` moves from `game`, where a finished
/// game is never continued (a position where the game ends is counted at its own depth only).
///
/// Leaves are bulk-counted: at depth 1 the legal moves are counted, not played.
/// The position is restored before returning.
pub fn perft<G: Game>(game: &mut G, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::new()).collect();
    perft_inner(game, &mut buffers)
}

fn perft_inner<G: Game>(game: &mut G, buffers: &mut [Vec<G::Move>]) -> u64 {
    let (moves, deeper) = buffers.split_first_mut().expect("depth >= 1");
    game.legal_moves(moves);
    if deeper.is_empty() {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        game.play(mv);
        total += perft_inner(game, deeper);
        game.undo();
    }
    total
}

/// The number of distinct positions reachable from `game` (itself included), never continuing
/// a finished game. Positions are told apart by `key`, which must be exact (no collisions),
/// for example a game's perfect position key. Meant for small boards: it keeps every key.
pub fn count_distinct_positions<G: Game>(game: &mut G, key: impl Fn(&G) -> u128) -> u64 {
    let mut seen = HashSet::new();
    seen.insert(key(game));
    let mut buffers: Vec<Vec<G::Move>> = Vec::new();
    visit(game, &key, &mut seen, &mut buffers, 0);
    seen.len() as u64
}

fn visit<G: Game>(
    game: &mut G,
    key: &impl Fn(&G) -> u128,
    seen: &mut HashSet<u128>,
    buffers: &mut Vec<Vec<G::Move>>,
    ply: usize,
) {
    if buffers.len() <= ply {
        buffers.push(Vec::new());
    }
    let mut moves = std::mem::take(&mut buffers[ply]);
    game.legal_moves(&mut moves);
    for &mv in &moves {
        game.play(mv);
        if seen.insert(key(game)) {
            visit(game, key, seen, buffers, ply + 1);
        }
        game.undo();
    }
    buffers[ply] = moves;
}
