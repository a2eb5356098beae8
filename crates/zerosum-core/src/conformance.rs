//! Checks that every [`Game`] implementation must pass, run over random playouts. Game crates
//! call these from their tests; a failure names the move sequence that broke the contract.

use std::collections::HashSet;

use crate::{Game, Status};

/// A small deterministic generator (SplitMix64), so that checks need no dependency and
/// replay exactly from a seed.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        crate::zobrist_key(self.0)
    }

    /// Uniform-enough index below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// What the playouts saw, for family-specific assertions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    pub games: usize,
    pub first_wins: usize,
    pub second_wins: usize,
    pub draws: usize,
    pub total_plies: usize,
    pub longest: usize,
}

/// How thorough [`check_playouts`] is.
#[derive(Clone, Copy, Debug)]
pub struct Checks {
    /// Number of random games.
    pub games: usize,
    /// Seed of the move choices.
    pub seed: u64,
    /// A game longer than this fails the check ("the game always ends").
    pub max_plies: usize,
    /// Try every move of [`Game::all_moves`] against `try_play` at every this many plies
    /// (1: every position). Costly on big boards.
    pub all_moves_every: usize,
}

/// Plays `checks.games` random games from `start` and checks at every position:
/// - (once) `move_id` is below `move_id_bound` and distinct over `all_moves`;
/// - `legal_moves` is empty exactly when the game is over, has no duplicates, and
///   `illegal_reason` accepts each of its moves;
/// - every legal move is accepted by `try_play`, and every other move of `all_moves` is refused
///   without changing the position (at the positions chosen by `all_moves_every`);
/// - every move's text parses back to the same move;
/// - `play` then `undo` restores the position bit for bit (`==` on the whole state);
/// - the incremental hash equals the recomputed hash; the ply count and side to move advance;
/// - `invariant` holds (family-specific rules: atoms conserved, one winner on a full board...);
/// - the game ends within `max_plies`.
///
/// Returns what happened, or a message naming the first violation and the moves leading to it.
pub fn check_playouts<G: Game>(
    start: &G,
    checks: Checks,
    mut invariant: impl FnMut(&G) -> Result<(), String>,
) -> Result<PlayoutStats, String> {
    let mut rng = SplitMix::new(checks.seed);
    let mut stats = PlayoutStats::default();
    let mut moves = Vec::new();
    let mut universe = Vec::new();
    let mut distinct = HashSet::new();
    start.all_moves(&mut universe);
    let mut ids: Vec<usize> = universe.iter().map(|&m| start.move_id(m)).collect();
    if let Some(&bad) = ids.iter().find(|&&id| id >= start.move_id_bound()) {
        return Err(format!(
            "move id {bad} is not below move_id_bound {}",
            start.move_id_bound()
        ));
    }
    ids.sort_unstable();
    ids.dedup();
    if ids.len() != universe.len() {
        return Err("two moves of all_moves share a move id".into());
    }
    for _ in 0..checks.games {
        let mut game = start.clone();
        let fail = |game: &G, what: String| {
            let line: Vec<String> = game
                .history()
                .iter()
                .map(|&m| game.format_move(m))
                .collect();
            Err(format!("{what} (after moves: {})", line.join(",")))
        };
        loop {
            if game.hash() != game.recompute_hash() {
                return fail(
                    &game,
                    "incremental hash differs from recomputed hash".into(),
                );
            }
            if let Err(e) = invariant(&game) {
                return fail(&game, e);
            }
            game.legal_moves(&mut moves);
            let status = game.status();
            if status.is_over() != moves.is_empty() {
                return fail(
                    &game,
                    format!("status {status:?} but {} legal moves", moves.len()),
                );
            }
            distinct.clear();
            distinct.extend(moves.iter().copied());
            if distinct.len() != moves.len() {
                return fail(&game, "legal_moves lists a move twice".into());
            }
            for &mv in &moves {
                let text = game.format_move(mv);
                match game.parse_move(&text) {
                    Ok(back) if back == mv => {}
                    other => {
                        return fail(&game, format!("`{text}` parses back as {other:?}"));
                    }
                }
                if let Some(reason) = game.illegal_reason(mv) {
                    return fail(&game, format!("generated move {text} refused: {reason}"));
                }
            }
            if game.ply().is_multiple_of(checks.all_moves_every.max(1)) {
                for &mv in &universe {
                    let mut copy = game.clone();
                    let accepted = copy.try_play(mv).is_ok();
                    if accepted != moves.contains(&mv) {
                        return fail(
                            &game,
                            format!(
                                "try_play({}) {} but legal_moves {}",
                                game.format_move(mv),
                                if accepted { "accepted" } else { "refused" },
                                if accepted { "omits it" } else { "lists it" }
                            ),
                        );
                    }
                    if !accepted && copy != game {
                        return fail(&game, "a refused move changed the position".into());
                    }
                }
            }
            if status.is_over() {
                break;
            }
            if game.ply() >= checks.max_plies {
                return fail(&game, format!("no end after {} plies", checks.max_plies));
            }
            let mv = moves[rng.below(moves.len())];
            let before = game.clone();
            game.play(mv);
            if game.ply() != before.ply() + 1 || game.history().last() != Some(&mv) {
                return fail(&game, "play did not advance the ply and history".into());
            }
            let mut undone = game.clone();
            undone.undo();
            if undone != before {
                return fail(
                    &before,
                    format!(
                        "undo after {} does not restore the position",
                        before.format_move(mv)
                    ),
                );
            }
        }
        stats.games += 1;
        stats.total_plies += game.ply();
        stats.longest = stats.longest.max(game.ply());
        match game.status() {
            Status::Over(crate::Outcome::Win(crate::Side::First)) => stats.first_wins += 1,
            Status::Over(crate::Outcome::Win(crate::Side::Second)) => stats.second_wins += 1,
            _ => stats.draws += 1,
        }
    }
    Ok(stats)
}
