//! The exact solver of any game, [`AlphaBetaSolver`]: alpha-beta to the end of the game over
//! every legal move, with the transposition table storing bounds, move ordering by table move,
//! killers, history and the evaluator's hint. No evaluation is ever used for values, so
//! results are proofs. (Connect-X on packed boards has a much faster solver of its own,
//! `zerosum_games::connect::ConnectSolver`.)
//!
//! Strong mode finds the exact value with its distance (win in N, loss in N, draw); weak mode
//! only win, draw or loss, by two null-window searches around the draw, much faster.
//!
//! [`AlphaBetaSolver::prove`] is for games too big to finish: it deepens a horizon ply by ply
//! and at each depth proves the best bounds it can on the win/draw/loss value (a position at
//! the horizon counted as lost, then as won, for the side to move at the root), so that a
//! limited solve still ends with what it proved.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use zerosum_core::{Evaluator, Game, Outcome, Score, Status};

use crate::limits::SearchLimits;
use crate::table::{Bound, TableTooBig, TranspositionTable};

/// Depth recorded in the table for solved entries.
const SOLVED: usize = 255;

/// Nodes between two looks at the clock and the stop flag (and updates of the meter): a
/// node of a large board orders thousands of moves.
const CLOCK_EVERY: u64 = 64;

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

/// A game value as win, draw or loss for the side to move, ordered loss < draw < win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WeakValue {
    Loss,
    Draw,
    Win,
}

impl WeakValue {
    /// The value a solver score's sign gives.
    pub fn of(score: Score) -> WeakValue {
        match score.0.signum() {
            1 => WeakValue::Win,
            0 => WeakValue::Draw,
            _ => WeakValue::Loss,
        }
    }

    /// The solver's weak score of this value: `Score(1)`, `Score::DRAW` or `Score(-1)`.
    fn score(self) -> Score {
        match self {
            WeakValue::Loss => Score(-1),
            WeakValue::Draw => Score::DRAW,
            WeakValue::Win => Score(1),
        }
    }
}

/// What a depth-limited proof established: the value of the position for its side to move
/// lies between `lower` and `upper` (equal once it is known).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProvenBounds {
    /// The deepest horizon, in plies, at which both bounds were searched to the end: no line
    /// of play of at most this many plies was left unexamined.
    pub depth: usize,
    pub lower: WeakValue,
    pub upper: WeakValue,
}

impl ProvenBounds {
    /// Nothing proven: between a loss and a win, within depth 0.
    pub const NOTHING: ProvenBounds = ProvenBounds {
        depth: 0,
        lower: WeakValue::Loss,
        upper: WeakValue::Win,
    };

    /// The value, once both bounds meet.
    pub fn exact(&self) -> Option<WeakValue> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

/// How far a running [`AlphaBetaSolver::prove`] has come, readable from another thread (a
/// progress display): the horizon being searched and the nodes so far, updated every 64 nodes.
#[derive(Debug, Default)]
pub struct ProofMeter {
    depth: AtomicUsize,
    nodes: AtomicU64,
}

impl ProofMeter {
    /// The horizon being searched (0 before the first).
    pub fn depth(&self) -> usize {
        self.depth.load(Ordering::Relaxed)
    }

    /// Nodes searched so far by the whole proof.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// The end of an [`AlphaBetaSolver::prove`]: the bounds proven, and the full solution when the
/// value was found and the exact solve that follows finished within the limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverProof<M> {
    pub bounds: ProvenBounds,
    pub solution: Option<Solution<M>>,
    /// Nodes of the whole proof, its exact solve included.
    pub nodes: u64,
    pub time: Duration,
}

/// The depth-limited search under way: positions `depth` plies from the root that are not
/// over count as `root_value` for the root's side to move.
#[derive(Clone, Copy, Debug)]
struct Horizon {
    depth: usize,
    root_value: WeakValue,
}

impl Horizon {
    /// The value of a position at the horizon, `ply` plies from the root, for its side to
    /// move (turns alternate, so it is the root's side at even plies).
    fn value_at(self, ply: usize) -> Score {
        let root = self.root_value.score();
        if ply.is_multiple_of(2) {
            root
        } else {
            -root
        }
    }
}

/// A reusable exact solver for one game type, by alpha-beta over every legal move.
pub struct AlphaBetaSolver<G: Game, E: Evaluator<G>> {
    evaluator: E,
    table: Arc<TranspositionTable>,
    horizon: Option<Horizon>,
    meter: Arc<ProofMeter>,
    /// Nodes counted by earlier searches of the proof under way (for the meter and the limit).
    spent: u64,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stop_flag: Option<Arc<std::sync::atomic::AtomicBool>>,
    stopped: bool,
    move_lists: Vec<Vec<(i32, G::Move)>>,
    killers: Vec<Option<G::Move>>,
    history: Vec<i32>,
}

impl<G: Game, E: Evaluator<G>> AlphaBetaSolver<G, E> {
    /// A solver with a table of `table_mb` MB; `evaluator` only orders moves. Aborts if
    /// memory runs out; see [`AlphaBetaSolver::try_new`].
    pub fn new(evaluator: E, table_mb: usize) -> Self {
        Self::try_new(evaluator, table_mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A solver with a table of `table_mb` MB, or an error if it cannot be allocated.
    pub fn try_new(evaluator: E, table_mb: usize) -> Result<Self, TableTooBig> {
        Ok(AlphaBetaSolver {
            evaluator,
            table: Arc::new(TranspositionTable::try_new(table_mb)?),
            horizon: None,
            meter: Arc::new(ProofMeter::default()),
            spent: 0,
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

    /// The meter a running [`AlphaBetaSolver::prove`] of this solver updates.
    pub fn meter(&self) -> Arc<ProofMeter> {
        Arc::clone(&self.meter)
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
        self.spent = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| start + t);
        self.stop_flag = limits.stop.clone();
        self.history.clear();
        self.history.resize(position.move_id_bound(), 0);
        self.solve_started(position, weak, start)
    }

    /// Proves what it can of `position` within `limits` (node count, time, stop flag; the
    /// depth limit caps the horizon): horizons of 1, 2, 3... plies, each giving bounds on the
    /// win/draw/loss value (reported to `on_depth` as each is complete), until the bounds
    /// meet or a limit ends it; then, once they meet, the exact solve (`weak`: win, draw or
    /// loss and one move; else the value with its distance and every best move) with what
    /// is left of the limits, within the horizon for a win or a loss. The table is cleared
    /// before each horizon.
    pub fn prove(
        &mut self,
        position: &G,
        weak: bool,
        limits: &SearchLimits,
        mut on_depth: impl FnMut(&ProvenBounds, u64, Duration),
    ) -> SolverProof<G::Move> {
        let start = Instant::now();
        self.spent = 0;
        self.meter.nodes.store(0, Ordering::Relaxed);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| start + t);
        self.stop_flag = limits.stop.clone();
        self.stopped = false;
        self.history.clear();
        self.history.resize(position.move_id_bound(), 0);
        let mut bounds = ProvenBounds::NOTHING;
        let mut game = position.clone();
        if game.status().is_over() {
            let solution = self.solve_started(position, weak, start).ok();
            let value = solution.as_ref().map(|s| WeakValue::of(s.score));
            if let Some(value) = value {
                bounds.lower = value;
                bounds.upper = value;
            }
            return SolverProof {
                bounds,
                solution,
                nodes: 0,
                time: start.elapsed(),
            };
        }
        let max_depth = limits.depth.unwrap_or(usize::MAX);
        while bounds.exact().is_none() && bounds.depth < max_depth {
            let depth = bounds.depth + 1;
            self.meter.depth.store(depth, Ordering::Relaxed);
            let Some(deeper) = self.bounds_at(&mut game, depth, bounds) else {
                break;
            };
            bounds = deeper;
            on_depth(&bounds, self.spent, start.elapsed());
        }
        // A win or a loss proven within the horizon is forced within it: its exact solve
        // needs look no further (counting the horizon as the other result, which the proof
        // showed is avoided). A draw's best moves may need the whole game.
        self.horizon = match bounds.exact() {
            Some(WeakValue::Win) => Some(Horizon {
                depth: bounds.depth,
                root_value: WeakValue::Loss,
            }),
            Some(WeakValue::Loss) => Some(Horizon {
                depth: bounds.depth,
                root_value: WeakValue::Win,
            }),
            _ => None,
        };
        let solution = if bounds.exact().is_some() && !self.stopped {
            self.table.clear();
            self.solve_started(position, weak, start).ok()
        } else {
            None
        };
        self.horizon = None;
        SolverProof {
            bounds,
            solution,
            nodes: self.spent,
            time: start.elapsed(),
        }
    }

    /// The bounds at horizon `depth`, tightening `known` (those of a shallower horizon, which
    /// still hold), or `None` if a limit stopped the search.
    fn bounds_at(
        &mut self,
        game: &mut G,
        depth: usize,
        known: ProvenBounds,
    ) -> Option<ProvenBounds> {
        let mut bounds = ProvenBounds { depth, ..known };
        // The horizon counted lost: each value this proves the root reaches, it reaches.
        self.horizon = Some(Horizon {
            depth,
            root_value: WeakValue::Loss,
        });
        self.table.clear();
        while bounds.lower < bounds.upper {
            let target = if bounds.lower == WeakValue::Loss {
                WeakValue::Draw
            } else {
                WeakValue::Win
            };
            // Is the value at least `target`?
            let score = target.score();
            let found = self.counted_node(game, Score(score.0 - 1), score);
            if self.stopped {
                return None;
            }
            if found < score {
                break;
            }
            bounds.lower = target;
        }
        // The horizon counted won: each value this proves the root cannot pass, it cannot.
        self.horizon = Some(Horizon {
            depth,
            root_value: WeakValue::Win,
        });
        self.table.clear();
        while bounds.lower < bounds.upper {
            let target = if bounds.upper == WeakValue::Win {
                WeakValue::Draw
            } else {
                WeakValue::Loss
            };
            // Is the value at most `target`?
            let score = target.score();
            let found = self.counted_node(game, score, Score(score.0 + 1));
            if self.stopped {
                return None;
            }
            if found > score {
                break;
            }
            bounds.upper = target;
        }
        Some(bounds)
    }

    /// A search of the root within `alpha..beta`, its nodes added to the proof's.
    fn counted_node(&mut self, game: &mut G, alpha: Score, beta: Score) -> Score {
        self.nodes = 0;
        let score = self.node(game, 0, alpha, beta);
        self.spent += self.nodes;
        score
    }

    /// [`AlphaBetaSolver::solve`] once its limits and history are set up (`start`: when they
    /// began).
    fn solve_started(
        &mut self,
        position: &G,
        weak: bool,
        start: Instant,
    ) -> Result<Solution<G::Move>, SolveError> {
        self.nodes = 0;
        self.stopped = false;
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
        self.spent += self.nodes;
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
            let nodes = self.spent + self.nodes;
            if nodes >= self.node_limit {
                self.stopped = true;
            } else if self.nodes.is_multiple_of(CLOCK_EVERY) {
                self.meter.nodes.store(nodes, Ordering::Relaxed);
                self.stopped = self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self
                        .stop_flag
                        .as_ref()
                        .is_some_and(|f| f.load(Ordering::Relaxed));
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
        // Searched plies left before the horizon (the whole game without one).
        let remaining = match self.horizon {
            Some(horizon) if ply >= horizon.depth => return horizon.value_at(ply),
            Some(horizon) => horizon.depth - ply,
            None => SOLVED,
        };
        // Mate distance pruning.
        alpha = alpha.max(Score::loss_in(ply));
        beta = beta.min(Score::win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let hash = game.hash();
        // An entry of a shallower horizon (of this horizon: the table is cleared before each)
        // orders moves but proves nothing here.
        let entry = self.table.probe(hash);
        if let Some(e) = entry.filter(|e| usize::from(e.depth) >= remaining) {
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
            remaining.min(SOLVED),
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
