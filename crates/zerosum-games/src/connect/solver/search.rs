//! The search: negamax with alpha-beta over exact game values, driven by null-window probes
//! that narrow the value's interval (Pons' "score narrowing").

use std::mem::MaybeUninit;

use super::busy::Busy;
use super::order::MoveList;
use super::position::{Geometry, Position, MAX_COLS};
use super::table::Table;
use super::Limiter;
use crate::connect::Bits;

/// Positions with at least this many empty cells look their children up in the table before
/// searching any (enhanced transposition cutoff); closer to the end of the game the lookups
/// cost more than the searches they save.
const ETC_MIN_EMPTY: u32 = 12;

/// Positions with fewer empty cells than this are neither looked up in the table nor stored:
/// their searches are small, and a table probe, likely a cache miss, costs more than the
/// search it would save. (More nodes, less time: with 10, the empty 7x6 board searches a third
/// more nodes in a fifth less processor time.)
const TABLE_MIN_EMPTY: u32 = 10;

/// Positions with at least this many empty cells try claimeven (see
/// [`Geometry::claimeven_bound`](super::position::Geometry::claimeven_bound)).
const CLAIMEVEN_MIN_EMPTY: u32 = 8;

/// With threads, positions with at least this many empty cells mark themselves busy while
/// searched, and a thread leaves the busy children of such a position for after the others
/// (see [`Busy`]). Must be at least [`ETC_MIN_EMPTY`] (the children's keys are needed).
/// (Measured on a quiet machine, release, 2 threads, Test_L1_R3 first 20: without marks 605
/// ms a position; marks from 12, 16 and 20 empty cells, 535, 490 and 478 ms; one thread 756
/// ms.)
const SPLIT_MIN_EMPTY: u32 = 20;
const _: () = assert!(SPLIT_MIN_EMPTY >= ETC_MIN_EMPTY);

/// The ordering score of a move that gives the side to move the winning cells `own` and
/// leaves the opponent the playable cells `next_possible`, against the opponent's winning cells
/// `threats`: twice the number of useful own winning cells (those not directly above an
/// opponent's, which the opponent would take first), plus three for each that a single stone
/// below will make playable (the opponent may not play under it), plus one for each playable
/// at once (the opponent must block it). (Measured, Test_L1_R3 first 100, one thread: with
/// weights 2, 1 and 0, 16,709,619 nodes a position; 2, 3 and 1, 16,369,385; Steininger's
/// c4 weights, in these terms 3, 12 and 0 and 5 for two stones below, 17,076,585.)
#[inline]
fn order_score<B: Bits>(next_possible: B, own: B, threats: B) -> u32 {
    let useful = own & !(threats << 1);
    2 * useful.count_ones()
        + 3 * (useful & (next_possible << 1)).count_ones()
        + (useful & next_possible).count_ones()
}

/// One thread's search over the shared table. With threads (Lazy SMP), the helpers run the
/// same probe sequence as the main thread but ahead of it (see [`Worker::helper`]), so that
/// the bounds the main thread is about to need are already in the table. (Measured on a quiet
/// machine, release, 2 threads, Test_L1_R3 first 100 and the empty 7x6 board: identical
/// threads ran in step and were slower than one thread, 1.756 s and 20.98 s against 1.353 s
/// and 19.25 s; helpers probing ahead, the losing side first where the sign is open, took
/// 1.163 s and 12.05 s; the winning side first, 1.237 s and 14.07 s.) Far from the end, the
/// threads also mark the positions they are searching, and leave each other's for last
/// ([`Busy`]).
pub(super) struct Worker<'a, B: Bits> {
    geometry: &'a Geometry<B>,
    table: &'a Table<B>,
    /// Positions searched.
    pub nodes: u64,
    limiter: Limiter,
    /// How far ahead of the main thread's probe sequence this worker probes (0 for the main
    /// thread; see [`Worker::helper`]).
    lead: i32,
    /// With threads, the positions being searched (see [`Busy`]).
    busy: Option<&'a Busy>,
}

impl<'a, B: Bits> Worker<'a, B> {
    /// A worker stopped by `limiter`.
    pub fn new(geometry: &'a Geometry<B>, table: &'a Table<B>, limiter: Limiter) -> Self {
        Worker {
            geometry,
            table,
            nodes: 0,
            limiter,
            lead: 0,
            busy: None,
        }
    }

    /// The `index`-th helper (from 1) of a threaded solve: it probes ahead of the main
    /// thread, `(index + 1) / 2` steps further from 0 (on the losing side first where the sign
    /// is open, for odd helpers), so the threads fill the table with the bounds of different
    /// probes instead of searching the same tree in step.
    pub fn helper(
        geometry: &'a Geometry<B>,
        table: &'a Table<B>,
        limiter: Limiter,
        index: usize,
    ) -> Self {
        let steps = index.div_ceil(2) as i32;
        Worker {
            lead: if index % 2 == 1 { -steps } else { steps },
            ..Worker::new(geometry, table, limiter)
        }
    }

    /// This worker, sharing `busy` with the other threads of its solve.
    pub fn sharing(self, busy: &'a Busy) -> Self {
        Worker {
            busy: Some(busy),
            ..self
        }
    }

    /// The exact value of `pos` (its sign only if `weak`), or `None` if the worker's limits
    /// ended the search first. Precondition: the game is not over.
    pub fn solve_position(&mut self, pos: &Position<B>, weak: bool) -> Option<i32> {
        self.nodes = 0;
        let g = self.geometry;
        if g.winning_cells(pos.current, pos.mask) & pos.playable(g) != B::ZERO {
            let score = g.win_score(pos.moves + 1);
            return Some(if weak { score.signum() } else { score });
        }
        if !g.runs_possible() {
            return Some(0);
        }
        // The opponent may win with its next stone; the side to move cannot with this one.
        let mut min = -g.win_score(pos.moves + 2);
        let mut max = g.win_score(pos.moves + 3);
        // Mirror images share table entries only where a position and a mirror image of
        // another can both be reached.
        let mirror = !pos.clashes_with_mirror();
        // Each probe asks "is the value above `probe`?" and moves one end of the interval.
        // First the quick wins and losses: probes halfway to the extreme scores are shallow,
        // and settle the game when it ends early.
        for probe in [max / 2, min / 2] {
            if min < probe && probe < max {
                let value = self.probe(pos, probe, mirror)?;
                if value <= probe {
                    max = value;
                } else {
                    min = value;
                }
            }
        }
        if weak {
            min = min.clamp(-1, 1);
            max = max.clamp(-1, 1);
        }
        // Then the sign, and then one step at a time away from 0: the values left are small,
        // and the probes closest to the value, which it takes anyway, are the costly ones.
        while min < max {
            let probe = if min >= 0 {
                min + self.lead.abs()
            } else if max <= 0 {
                max - 1 - self.lead.abs()
            } else {
                self.lead
            }
            .clamp(min, max - 1);
            let value = self.probe(pos, probe, mirror)?;
            if value <= probe {
                max = value;
            } else {
                min = value;
            }
        }
        Some(if weak { min.signum() } else { min })
    }

    /// Searches `pos` with the null window `(probe, probe + 1)`: the result is above `probe`
    /// (and a lower bound) or not (and an upper bound); `None` if the limits ended it.
    /// `mirror`: see [`Position::clashes_with_mirror`].
    fn probe(&mut self, pos: &Position<B>, probe: i32, mirror: bool) -> Option<i32> {
        let threats = self.geometry.winning_cells(pos.opponent(), pos.mask);
        let (alpha, beta) = (probe, probe + 1);
        let value = if mirror {
            self.negamax::<true>(pos, threats, alpha, beta)
        } else {
            self.negamax::<false>(pos, threats, alpha, beta)
        };
        (!self.limiter.interrupted).then_some(value)
    }

    /// Negamax with alpha-beta, failing soft: the result `v` is the exact value if
    /// `alpha < v < beta`, an upper bound if `v <= alpha`, a lower bound if `v >= beta`.
    ///
    /// Preconditions: `alpha < beta`; the game is not over and the side to move cannot win
    /// with its next stone (the caller played only non-losing moves); `threats` are the
    /// opponent's winning cells, `winning_cells(pos.opponent(), pos.mask)` (the caller has
    /// them from its move ordering).
    ///
    /// When the limits are hit the result is meaningless, `self.limiter.interrupted` is set,
    /// and nothing more is stored in the table: every caller returns at once.
    fn negamax<const MIRROR: bool>(
        &mut self,
        pos: &Position<B>,
        threats: B,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.limiter.check_at && self.limiter.poll(self.nodes) {
            return 0;
        }
        let g = self.geometry;
        let possible = pos.playable(g);
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
        // The opponent's follow-up may cap the value at a draw or a loss: a test without a
        // memory access, before the table's.
        if alpha >= -1 && empty >= CLAIMEVEN_MIN_EMPTY {
            if let Some(bound) = g.claimeven_bound(pos.current, pos.mask, possible, pos.moves) {
                upper = upper.min(bound);
                if upper <= alpha {
                    return upper;
                }
            }
        }
        let key = pos.key();
        let mirrored = MIRROR && pos.mirror_key().widen() < key.widen();
        let table_key = pos.table_key::<MIRROR>();
        let last_col = g.cols as usize - 1;
        let mut best_move = None;
        let tabled = empty >= TABLE_MIN_EMPTY;
        // The children's entries, for the enhanced transposition cutoff: loading starts now,
        // long before they are read, and their keys are kept by column (only those of
        // `candidates` are set).
        let mut child_keys = [const { MaybeUninit::<B>::uninit() }; MAX_COLS];
        if empty >= ETC_MIN_EMPTY {
            for &(col, column) in g.order.iter() {
                let cell = candidates & column;
                if cell != B::ZERO {
                    let child_key = pos.with_stone::<MIRROR>(g, col, cell).table_key::<MIRROR>();
                    self.table.prefetch(child_key);
                    child_keys[col] = MaybeUninit::new(child_key);
                }
            }
        }
        let known = if tabled {
            self.table.get(table_key)
        } else {
            None
        };
        if let Some(bounds) = known {
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
            let cell = candidates & g.column(col);
            let child = pos.with_stone::<MIRROR>(g, col, cell);
            let child_threats = g.winning_cells(pos.current | cell, pos.mask | cell);
            best = -self.negamax::<MIRROR>(&child, child_threats, -beta, -alpha);
            if self.limiter.interrupted {
                return 0;
            }
            best_col = col;
            alpha = alpha.max(best);
        }

        if best < beta {
            let g = self.geometry;
            // A symmetric position needs only the columns up to the centre.
            let symmetric = MIRROR && key == pos.mirror_key();
            let single = candidates.count_ones() == 1;
            let mut moves = MoveList::new();
            // The threats of the side to move after each move give the ordering score, and
            // are the opponent's threats in the child.
            let claimeven_children = beta <= 1 && empty > CLAIMEVEN_MIN_EMPTY;
            for &(col, column) in g.order.iter() {
                let cell = candidates & column;
                if cell == B::ZERO || best_move == Some(col) || (symmetric && col > last_col - col)
                {
                    continue;
                }
                let child = pos.with_stone::<MIRROR>(g, col, cell);
                if empty > TABLE_MIN_EMPTY && empty < ETC_MIN_EMPTY {
                    self.table.prefetch(child.table_key::<MIRROR>());
                }
                let own = g.winning_cells(pos.current | cell, pos.mask | cell);
                // The opponent, who cannot win at once, cannot stop two playable winning
                // cells, and must not play below one: when it has no other move, this move
                // wins with the stone after next, the best this position can do (the test of
                // the child's search, done here).
                let next_possible = (possible ^ cell) | ((cell << 1) & g.board);
                let forced_reply = own & next_possible;
                let replies = if forced_reply == B::ZERO {
                    next_possible
                } else {
                    forced_reply
                };
                if forced_reply.count_ones() > 1 || replies & !(own >> 1) == B::ZERO {
                    if tabled {
                        let stored = if mirrored { last_col - col } else { col };
                        let nodes = self.nodes - nodes_before;
                        self.table.put(table_key, upper, upper, Some(stored), nodes);
                    }
                    return upper;
                }
                // The opponent's follow-up rule in the child: a cutoff without a search.
                if claimeven_children {
                    if let Some(bound) =
                        g.claimeven_bound(child.current, child.mask, next_possible, child.moves)
                    {
                        if -bound >= beta {
                            if tabled {
                                let stored = if mirrored { last_col - col } else { col };
                                let nodes = self.nodes - nodes_before;
                                self.table
                                    .put(table_key, -bound, upper, Some(stored), nodes);
                            }
                            return -bound;
                        }
                    }
                }
                // A lone move needs no ordering score.
                let score = if single {
                    0
                } else {
                    order_score(next_possible, own, threats)
                };
                moves.add(col, score, own);
            }

            // No move wins with the stone after next: the best left is a win with the one
            // after that.
            upper = upper.min(g.win_score(pos.moves + 5));
            if upper <= alpha_in {
                if tabled {
                    let nodes = self.nodes - nodes_before;
                    self.table.put(table_key, lower, upper, None, nodes);
                }
                return upper;
            }
            beta = beta.min(upper);
            if best < beta {
                // Enhanced transposition cutoff: a child already known to be bad enough for the
                // opponent refutes this position without a search.
                if empty >= ETC_MIN_EMPTY {
                    for (col, _) in moves.moves() {
                        // SAFETY: every move of the list is a column of `candidates`, whose
                        // keys were set above (`empty >= ETC_MIN_EMPTY` there too).
                        let child_key = unsafe { child_keys[col].assume_init() };
                        if let Some(bounds) = self.table.get(child_key) {
                            if -bounds.upper >= beta {
                                return -bounds.upper;
                            }
                        }
                    }
                }

                // With threads, a busy child (after the first searched) is left for after
                // the others.
                let busy = self.busy.filter(|_| empty >= SPLIT_MIN_EMPTY);
                let mut deferred = [const { MaybeUninit::<(usize, B)>::uninit() }; MAX_COLS];
                let (mut deferred_len, mut deferred_taken) = (0, 0);
                let mut ordered = moves.moves();
                loop {
                    let (col, child_threats, first_pass) = if let Some((col, t)) = ordered.next() {
                        (col, t, true)
                    } else if deferred_taken < deferred_len {
                        deferred_taken += 1;
                        // SAFETY: entries below `deferred_len` were written.
                        let (col, t) = unsafe { deferred[deferred_taken - 1].assume_init() };
                        (col, t, false)
                    } else {
                        break;
                    };
                    let mark = busy.map(|busy| {
                        // SAFETY: as above (`SPLIT_MIN_EMPTY >= ETC_MIN_EMPTY`).
                        let mark = Busy::mark_of(unsafe { child_keys[col].assume_init() });
                        (busy, mark)
                    });
                    if let Some((busy, mark)) = mark {
                        if first_pass && best > i32::MIN && busy.is_busy(mark) {
                            deferred[deferred_len] = MaybeUninit::new((col, child_threats));
                            deferred_len += 1;
                            continue;
                        }
                        busy.enter(mark);
                    }
                    let g = self.geometry;
                    let child = pos.with_stone::<MIRROR>(g, col, candidates & g.column(col));
                    let score = -self.negamax::<MIRROR>(&child, child_threats, -beta, -alpha);
                    if let Some((busy, mark)) = mark {
                        busy.leave(mark);
                    }
                    if self.limiter.interrupted {
                        return 0;
                    }
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
        }

        debug_assert!(best >= lower, "a bound contradicts another");
        if tabled {
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
        }
        best
    }
}
