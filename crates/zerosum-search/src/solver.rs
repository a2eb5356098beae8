//! The exact solver: alpha-beta to the end of the game over every legal move, with the
//! transposition table storing bounds, move ordering by table move, killers, history and the
//! evaluator's hint. No evaluation is ever used for values, so results are proofs.
//!
//! Strong mode finds the exact value with its distance (win in N, loss in N, draw); weak mode
//! only win, draw or loss, by two null-window searches around the draw, much faster.

use std::sync::Arc;
use std::time::{Duration, Instant};

use zerosum_core::{Evaluator, Game, Outcome, Score, Status};

use crate::table::{Bound, TranspositionTable};
use crate::SearchLimits;

/// Depth recorded in the table for solved entries.
const SOLVED: usize = 255;

/// The result of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// Exact value from the side to move (strong), or `win_in(0)`-style sign only (weak:
    /// `Score(1)` win, `Score::DRAW`, `Score(-1)` loss).
    pub score: Score,
    /// Every move that achieves the value (strong), or one such move (weak). Empty when the
    /// game is over.
    pub best_moves: Vec<M>,
    pub nodes: u64,
    pub time: Duration,
}

/// Why a solve did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// A node or time limit, or the stop flag, ended the solve first.
    Interrupted,
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the solve was interrupted by its limits before it finished")
    }
}

impl std::error::Error for SolveError {}

/// A reusable exact solver for one game type.
pub struct Solver<G: Game, E: Evaluator<G>> {
    evaluator: E,
    table: Arc<TranspositionTable>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stop_flag: Option<Arc<std::sync::atomic::AtomicBool>>,
    stopped: bool,
    move_lists: Vec<Vec<(i32, G::Move)>>,
    killers: Vec<Option<G::Move>>,
    history: Vec<i32>,
}

impl<G: Game, E: Evaluator<G>> Solver<G, E> {
    /// A solver with a table of `table_mb` MB; `evaluator` only orders moves. Aborts if
    /// memory runs out; see [`Solver::try_new`].
    pub fn new(evaluator: E, table_mb: usize) -> Self {
        Self::try_new(evaluator, table_mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A solver with a table of `table_mb` MB, or an error if it cannot be allocated.
    pub fn try_new(evaluator: E, table_mb: usize) -> Result<Self, crate::TableTooBig> {
        Ok(Solver {
            evaluator,
            table: Arc::new(TranspositionTable::try_new(table_mb)?),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop_flag: None,
            stopped: false,
            move_lists: Vec::new(),
            killers: Vec::new(),
            history: Vec::new(),
        })
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Solves `position` (strong or weak), within `limits` (node count, time, stop flag; the
    /// depth limit is ignored).
    pub fn solve(
        &mut self,
        position: &G,
        weak: bool,
        limits: &SearchLimits,
    ) -> Result<Solution<G::Move>, SolveError> {
        let start = Instant::now();
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| start + t);
        self.stop_flag = limits.stop.clone();
        self.stopped = false;
        self.history.clear();
        self.history.resize(position.move_id_bound(), 0);
        let mut game = position.clone();
        if game.status().is_over() {
            let score = match game.status() {
                Status::Over(outcome) => terminal(&game, outcome, 0),
                Status::Ongoing => unreachable!("checked above"),
            };
            return Ok(Solution {
                score: if weak { Score(score.0.signum()) } else { score },
                best_moves: Vec::new(),
                nodes: 0,
                time: start.elapsed(),
            });
        }
        let score = if weak {
            // Is it a win? (value > 0) Else is it a loss? (value < 0) Else a draw.
            let above = self.node(&mut game, 0, Score::DRAW, Score(1));
            if above > Score::DRAW {
                Score(1)
            } else {
                let below = self.node(&mut game, 0, Score(-1), Score::DRAW);
                Score(below.0.signum().min(0))
            }
        } else {
            self.node(&mut game, 0, -Score::INFINITE, Score::INFINITE)
        };
        if self.stopped {
            return Err(SolveError::Interrupted);
        }
        let best_moves = self.moves_achieving(&mut game, score, weak);
        if self.stopped {
            return Err(SolveError::Interrupted);
        }
        Ok(Solution {
            score,
            best_moves,
            nodes: self.nodes,
            time: start.elapsed(),
        })
    }

    /// The root moves whose value equals `score` (all of them in strong mode, the first found
    /// in weak mode), by null-window tests of each move.
    fn moves_achieving(&mut self, game: &mut G, score: Score, weak: bool) -> Vec<G::Move> {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut best = Vec::new();
        for mv in moves {
            game.play(mv);
            // The child's value from the root's side must be exactly `score`.
            let achieves = if weak {
                if score > Score::DRAW {
                    // A winning move leaves the opponent a loss: child value < 0.
                    self.node(game, 1, Score(-1), Score::DRAW) < Score::DRAW
                } else if score == Score::DRAW {
                    // A drawing move leaves the opponent no win: child value <= 0.
                    self.node(game, 1, Score::DRAW, Score(1)) <= Score::DRAW
                } else {
                    true
                }
            } else {
                // The child's value from the opponent's side must be exactly `-score`.
                let bound = -score;
                let low = self.node(game, 1, Score(bound.0 - 1), bound);
                let high = self.node(game, 1, bound, Score(bound.0 + 1));
                low >= bound && high <= bound
            };
            game.undo();
            if self.stopped {
                return best;
            }
            if achieves {
                best.push(mv);
                if weak {
                    break;
                }
            }
        }
        best
    }

    #[inline]
    fn must_stop(&mut self) -> bool {
        if !self.stopped {
            if self.nodes >= self.node_limit {
                self.stopped = true;
            } else if self.nodes.is_multiple_of(1024) {
                self.stopped = self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self
                        .stop_flag
                        .as_ref()
                        .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed));
            }
        }
        self.stopped
    }

    /// Fail-soft alpha-beta to the end of the game; the score is root-relative.
    fn node(&mut self, game: &mut G, ply: usize, mut alpha: Score, mut beta: Score) -> Score {
        self.nodes += 1;
        if self.must_stop() {
            return Score::DRAW;
        }
        if let Status::Over(outcome) = game.status() {
            return terminal(game, outcome, ply);
        }
        // Mate distance pruning.
        alpha = alpha.max(Score::loss_in(ply));
        beta = beta.min(Score::win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let hash = game.hash();
        let entry = self.table.probe(hash);
        if let Some(e) = entry {
            let score = e.score.from_node(ply);
            match e.bound {
                Bound::Exact => return score,
                Bound::Lower if score >= beta => return score,
                Bound::Upper if score <= alpha => return score,
                Bound::Lower => alpha = alpha.max(score),
                Bound::Upper => beta = beta.min(score),
            }
            if alpha >= beta {
                return score;
            }
        }
        while self.move_lists.len() <= ply {
            self.move_lists.push(Vec::new());
            self.killers.push(None);
        }
        let mut list = std::mem::take(&mut self.move_lists[ply]);
        self.order(game, ply, entry.and_then(|e| e.move_id), &mut list);
        let original_alpha = alpha;
        let mut best = -Score::INFINITE;
        let mut best_move = None;
        for &(_, mv) in &list {
            game.play(mv);
            let score = -self.node(game, ply + 1, -beta, -alpha);
            game.undo();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        self.killers[ply] = Some(mv);
                        let id = game.move_id(mv);
                        self.history[id] = (self.history[id] + 1).min(1 << 20);
                        break;
                    }
                }
            }
        }
        self.move_lists[ply] = list;
        if self.stopped {
            return Score::DRAW;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(
            hash,
            best.to_node(ply),
            bound,
            SOLVED,
            best_move.map(|m| game.move_id(m)),
        );
        best
    }

    fn order(&self, game: &G, ply: usize, tt_move: Option<usize>, list: &mut Vec<(i32, G::Move)>) {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        list.clear();
        for mv in moves {
            let id = game.move_id(mv);
            let key = if Some(id) == tt_move {
                1 << 30
            } else if Some(mv) == self.killers[ply] {
                1 << 29
            } else {
                self.history[id].saturating_add(self.evaluator.move_hint(game, mv))
            };
            list.push((key, mv));
        }
        list.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
    }
}

fn terminal<G: Game>(game: &G, outcome: Outcome, ply: usize) -> Score {
    match outcome {
        Outcome::Draw => Score::DRAW,
        Outcome::Win(side) if side == game.to_move() => Score::win_in(ply),
        Outcome::Win(_) => Score::loss_in(ply),
    }
}
