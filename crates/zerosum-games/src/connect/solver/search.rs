//! The search: negamax with alpha-beta over exact game values, driven by null-window probes
//! that narrow the value's interval (Pons' "score narrowing").

use super::order::MoveList;
use super::position::Position;
use super::Solver;
use crate::connect::Bits;

/// Positions with at least this many empty cells look their children up in the table before
/// searching them (enhanced transposition cutoff).
fn etc_min_empty() -> u32 { tune(1, 100) }
pub(super) fn tune(i: usize, default: u32) -> u32 {
    static T: std::sync::OnceLock<Vec<Option<u32>>> = std::sync::OnceLock::new();
    T.get_or_init(|| std::env::var("TUNE").unwrap_or_default().split(',').map(|x| x.parse().ok()).collect())
        .get(i).copied().flatten().unwrap_or(default)
}

impl<B: Bits> Solver<B> {
    /// The exact value of `pos` (its sign only if `weak`). Precondition: the game is not over.
    pub(super) fn solve_position(&mut self, pos: &Position<B>, weak: bool) -> i32 {
        self.nodes = 0;
        let g = &self.geometry;
        if g.winning_cells(pos.current, pos.mask) & pos.playable(g) != B::ZERO {
            let score = g.win_score(pos.moves + 1);
            return if weak { score.signum() } else { score };
        }
        if !g.runs_possible() {
            return 0;
        }
        // The opponent may win with its next stone; the side to move cannot with this one.
        let mut min = -g.win_score(pos.moves + 2);
        let mut max = g.win_score(pos.moves + 3);
        if weak {
            min = min.max(-1);
            max = max.min(1);
        }
        // Each probe asks "is the value above `probe`?" and moves one end of the interval.
        // Probes start near 0 (the sign is the cheapest question) and halve the interval.
        while min < max {
            let mut probe = min + (max - min) / 2;
            if probe <= 0 && min / 2 < probe {
                probe = min / 2;
            } else if probe >= 0 && max / 2 > probe {
                probe = max / 2;
            }
            let before = self.nodes;
            let value = self.negamax(pos, probe, probe + 1);
            if tune(8, 0) == 1 {
                eprintln!("probe {probe} -> {value} nodes {}", self.nodes - before);
            }
            if value <= probe {
                max = value;
            } else {
                min = value;
            }
        }
        if weak {
            min.signum()
        } else {
            min
        }
    }

    /// Negamax with alpha-beta, failing soft: the result `v` is the exact value if
    /// `alpha < v < beta`, an upper bound if `v <= alpha`, a lower bound if `v >= beta`.
    ///
    /// Preconditions: `alpha < beta`; the game is not over and the side to move cannot win
    /// with its next stone (the caller played only non-losing moves).
    fn negamax(&mut self, pos: &Position<B>, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let g = &self.geometry;
        let possible = pos.playable(g);
        let threats = g.winning_cells(pos.opponent(), pos.mask);
        // A threat the opponent could take at once must be blocked; two cannot be.
        let forced = possible & threats;
        let candidates = if forced == B::ZERO {
            possible
        } else if forced.count_ones() > 1 {
            return -g.win_score(pos.moves + 2);
        } else {
            forced
        };
        // Never play just below an opponent's threat.
        let candidates = candidates & !(threats >> 1);
        if candidates == B::ZERO {
            return -g.win_score(pos.moves + 2);
        }
        // Two cells left: neither side can win (the opponent's last cell is not a threat).
        if pos.moves + 2 >= g.cells {
            return 0;
        }

        // Neither side wins with its next stone.
        let mut lower = -g.win_score(pos.moves + 4);
        let mut upper = g.win_score(pos.moves + 3);
        if lower >= beta {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        let empty = g.cells - pos.moves;
        if tune(10, 1) == 1 {
            if alpha >= 0 && g.open_lines(pos.opponent()) == B::ZERO {
                return 0;
            }
            if beta <= 0 && g.open_lines(pos.current) == B::ZERO {
                return 0;
            }
        }
        let key = pos.key();
        let mirror_key = pos.mirror_key();
        let mirrored = mirror_key.widen() < key.widen();
        let table_key = if mirrored { mirror_key } else { key };
        let last_col = g.cols as usize - 1;
        let mut best_move = None;
        if let Some(bounds) = self.table.get(table_key) {
            lower = lower.max(bounds.lower);
            upper = upper.min(bounds.upper);
            if lower >= beta {
                return lower;
            }
            if upper <= alpha || lower == upper {
                return upper;
            }
            best_move = bounds
                .best
                .map(|c| if mirrored { last_col - c } else { c })
                .filter(|&c| candidates & g.column(c) != B::ZERO);
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let alpha_in = alpha;
        let nodes_before = self.nodes;
        let mut best = i32::MIN;
        let mut best_col = 0;

        // The table's best move first, before the others are even generated: it often
        // refutes the position at once.
        if let Some(col) = best_move {
            let child = pos.played(g, col);
            best = -self.negamax(&child, -beta, -alpha);
            best_col = col;
            alpha = alpha.max(best);
        }

        if best < beta {
            // A symmetric position needs only the columns up to the centre.
            let g = &self.geometry;
            let symmetric = key == mirror_key;
            let mut moves = MoveList::new();
            for &col in g.order.iter() {
                let col = col as usize;
                let cell = candidates & g.column(col);
                if cell == B::ZERO
                    || (symmetric && col > last_col - col)
                    || best_move == Some(col)
                {
                    continue;
                }
                self.table.prefetch(pos.played(g, col).table_key());
                let threats = g.winning_cells(pos.current | cell, pos.mask | cell);
                moves.add(col, threats.count_ones());
            }

            // Enhanced transposition cutoff: a child already known to be bad enough for the
            // opponent refutes this position without a search.
            if empty >= etc_min_empty() {
                for col in moves.columns() {
                    let child = pos.played(g, col);
                    if let Some(bounds) = self.table.get(child.table_key()) {
                        if -bounds.upper >= beta {
                            return -bounds.upper;
                        }
                    }
                }
            }

            for col in moves.columns() {
                let child = pos.played(&self.geometry, col);
                let score = -self.negamax(&child, -beta, -alpha);
                if score > best {
                    best = score;
                    best_col = col;
                    if score >= beta {
                        break;
                    }
                    alpha = alpha.max(score);
                }
            }
        }
        let stored_col = if mirrored {
            last_col - best_col
        } else {
            best_col
        };
        let nodes = self.nodes - nodes_before;
        if best >= beta {
            self.table
                .put(table_key, best, upper, Some(stored_col), nodes);
        } else if best > alpha_in {
            self.table
                .put(table_key, best, best, Some(stored_col), nodes);
        } else {
            self.table.put(table_key, lower, best, None, nodes);
        }
        best
    }
}
