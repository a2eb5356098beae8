//! The alpha-beta family: iterative deepening over a root search by PVS with aspiration
//! windows, MTD(f), fail-soft alpha-beta or plain minimax (the reference), in the numbered
//! steps of a classic alpha-beta engine; with several threads, Lazy SMP (see
//! [`AlphaBeta::search`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::{self, ScopedJoinHandle};
use std::time::{Duration, Instant};

use zerosum_core::{Evaluator, Game, Outcome, Score, Status, TimeBudget};

use crate::limits::{Algorithm, SearchLimits};
use crate::pace::StopLatency;
use crate::result::{SearchInfo, SearchResult};
use crate::table::{Bound, TranspositionTable};

/// Depth stored for a subtree searched to its very end (no horizon reached): its value holds
/// at any depth.
const COMPLETE: usize = 255;
/// Deepest iteration of an unlimited search.
const MAX_DEPTH: usize = 250;
/// The clock and stop flag are polled once every this many nodes: reading the clock costs
/// about 25 ns, and a node with a heavy evaluation (gomoku threats, Hex distances) tens of
/// microseconds, so a coarser interval would let a loaded machine overrun the budget.
const POLL_INTERVAL: u64 = 32;
/// First aspiration half-window, in evaluation units.
const ASPIRATION: i32 = 30;
/// The shallowest iteration whose best move the evaluator checks
/// ([`Evaluator::root_move_loses`]): the best moves of shallower ones change too often.
const ROOT_CHECK_DEPTH: usize = 6;

/// Which iterations a helper thread skips, by helper (cycled): helper `i` skips depth `d` when
/// `(d + SKIP_PHASE[i]) / SKIP_SIZE[i]` is odd (Stockfish's Lazy SMP tables), so the helpers
/// spread over the depths around the main thread's and fill the table ahead of it.
const SKIP_SIZE: [usize; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [usize; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether helper `helper` (1 for the first) skips the iteration of `depth` in a search to
/// `max_depth`. The last is never skipped: a helper that ran out of depths would leave the
/// main thread alone on the deepest iteration, where the work is.
fn helper_skips(helper: usize, depth: usize, max_depth: usize) -> bool {
    let i = (helper - 1) % SKIP_SIZE.len();
    depth < max_depth && ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 1
}

/// The values of the iterations a thread completed, which guess the next one's (the centre of
/// PVS's aspiration window, MTD(f)'s first guess).
///
/// The guess for depth `d` is the value of depth `d - 2` when that iteration completed, else the
/// last completed one's (a draw before any): where the side to move at the horizon matters (the
/// evaluation favours it, as in gomoku), values alternate from one depth to the next while those
/// two plies apart agree, so a window around the last value fails again and again (Plaat's
/// odd/even effect for MTD(f)).
#[derive(Default)]
struct Guesses {
    /// `(depth, value)` of the completed iterations, deepest last.
    completed: Vec<(usize, Score)>,
}

impl Guesses {
    /// The guess of the value of the iteration of `depth`.
    fn for_depth(&self, depth: usize) -> Score {
        self.completed
            .iter()
            .rev()
            .find(|&&(d, _)| d + 2 == depth)
            .or(self.completed.last())
            .map_or(Score::DRAW, |&(_, score)| score)
    }

    /// Records the value of the completed iteration of `depth`, forgetting any of the same or
    /// a greater depth (an iteration searched again, the evaluator having dropped its move).
    fn record(&mut self, depth: usize, score: Score) {
        self.completed.retain(|&(d, _)| d < depth);
        self.completed.push((depth, score));
    }
}

/// What a helper thread did: its nodes, and its last completed iteration (time and node counts
/// left at zero) if it completed one with a move.
struct Helped<M> {
    nodes: u64,
    last: Option<SearchResult<M>>,
}

/// A reusable alpha-beta searcher for one game type and evaluator: the [`crate::Searcher`]'s
/// driver for every [`Algorithm`] but [`Algorithm::Mcts`]. Its transposition table is shared
/// (`Arc`) so that several searchers (threads) can use one table; with
/// [`SearchLimits::threads`] above one it runs helper searchers of its own on that table.
pub(crate) struct AlphaBeta<G: Game, E: Evaluator<G>> {
    evaluator: E,
    table: Arc<TranspositionTable>,
    algorithm: Algorithm,
    // Per-search state.
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// When the clock was last read, and the longest gap between two readings: how long the
    /// search lost the processor (timed searches only).
    last_poll: Instant,
    longest_gap: Duration,
    stop_flag: Option<Arc<AtomicBool>>,
    stopped: bool,
    /// With several threads: the nodes of all of them, each adding its own at every poll (the
    /// node limit then holds for the total).
    node_counter: Option<Arc<AtomicU64>>,
    /// Per ply: candidate moves with their ordering scores.
    move_lists: Vec<Vec<(i32, G::Move)>>,
    /// Per ply: the principal variation found below this node.
    pv: Vec<Vec<G::Move>>,
    killers: Vec<[Option<G::Move>; 2]>,
    /// By move id: how often the move caused a cutoff, weighted by depth squared.
    history: Vec<i32>,
    /// Whether the history orders this search's moves ([`Evaluator::orders_by_history`]).
    by_history: bool,
    scratch: Vec<G::Move>,
    /// Best root move of the current iteration whose search completed and raised alpha.
    root_best: Option<(Score, G::Move)>,
    /// Root moves the evaluator has been asked about ([`Evaluator::root_move_loses`]) in this
    /// search (the best of each iteration from [`ROOT_CHECK_DEPTH`] on), and those it found
    /// lost, which the root no longer tries.
    root_checked: Vec<G::Move>,
    root_lost: Vec<G::Move>,
    /// The helper searchers of a search with several threads, kept for the next one.
    helpers: Vec<AlphaBeta<G, E>>,
}

impl<G: Game, E: Evaluator<G>> AlphaBeta<G, E> {
    /// A searcher by `algorithm` on `table` (given a search only when that is not
    /// [`Algorithm::Mcts`]).
    pub fn new(evaluator: E, algorithm: Algorithm, table: Arc<TranspositionTable>) -> Self {
        AlphaBeta {
            evaluator,
            table,
            algorithm,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            last_poll: Instant::now(),
            longest_gap: Duration::ZERO,
            stop_flag: None,
            stopped: false,
            node_counter: None,
            move_lists: Vec::new(),
            pv: Vec::new(),
            killers: Vec::new(),
            history: Vec::new(),
            by_history: true,
            scratch: Vec::new(),
            root_best: None,
            root_checked: Vec::new(),
            root_lost: Vec::new(),
            helpers: Vec::new(),
        }
    }

    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    pub fn set_algorithm(&mut self, algorithm: Algorithm) {
        self.algorithm = algorithm;
    }

    pub fn table(&self) -> &Arc<TranspositionTable> {
        &self.table
    }

    /// Forgets the killers and the history (the table is the caller's to clear).
    pub fn clear(&mut self) {
        self.killers.clear();
        self.history.clear();
    }

    /// Searches `position` within `limits` as [`crate::Searcher::search`] says (Lazy SMP with
    /// several threads), calling `on_iteration` after each completed iteration.
    ///
    /// A timed search aims to stop at [`TimeBudget::search_aim`] and starts no iteration
    /// after [`TimeBudget::deepening_cutoff`] (by default; after the evaluator's
    /// [`Evaluator::deepening_share`] of the aim).
    pub fn search(
        &mut self,
        position: &G,
        limits: &SearchLimits,
        mut on_iteration: impl FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let latency = StopLatency::process();
        let aimed = limits
            .time
            .map(|t| TimeBudget::new(t).search_aim(latency.estimate()));
        let deadline = aimed.map(|aimed| start + aimed);
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.table.new_search();
        let helper_count = match self.algorithm {
            Algorithm::Minimax => 0,
            _ => limits.threads.get() - 1,
        };
        if position.status().is_over() {
            self.start(position, deadline, node_limit, None, None);
            return self.iterate(position, limits, start, aimed, on_iteration).0;
        }
        if helper_count == 0 {
            self.start(position, deadline, node_limit, limits.stop.clone(), None);
            let (result, _) = self.iterate(position, limits, start, aimed, on_iteration);
            self.record_latency(latency);
            return result;
        }
        let counter = Arc::new(AtomicU64::new(0));
        let helpers_stop = Arc::new(AtomicBool::new(false));
        while self.helpers.len() < helper_count {
            let helper = AlphaBeta::new(self.evaluator.clone(), self.algorithm, self.table.clone());
            self.helpers.push(helper);
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut result = thread::scope(|scope| {
            let running: Vec<ScopedJoinHandle<Helped<G::Move>>> = helpers
                .iter_mut()
                .take(helper_count)
                .enumerate()
                .filter_map(|(i, helper)| {
                    helper.algorithm = self.algorithm;
                    let (stop, counter) = (helpers_stop.clone(), counter.clone());
                    helper.start(position, deadline, node_limit, Some(stop), Some(counter));
                    // Without a thread to be had, the search goes on with fewer helpers.
                    thread::Builder::new()
                        .name(format!("search helper {}", i + 1))
                        .spawn_scoped(scope, move || helper.help(position, i + 1, max_depth))
                        .ok()
                })
                .collect();
            self.start(
                position,
                deadline,
                node_limit,
                limits.stop.clone(),
                Some(counter.clone()),
            );
            let (mut result, completed) =
                self.iterate(position, limits, start, aimed, &mut on_iteration);
            helpers_stop.store(true, Ordering::Relaxed);
            for handle in running {
                let helped = handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                result.nodes += helped.nodes;
                // A helper that completed a deeper iteration, or proved the value, knows more
                // (than this thread's last completed iteration, even with a partial one after
                // it at the helper's depth).
                if let Some(deeper) = helped
                    .last
                    .filter(|last| !result.solved && (last.solved || last.depth > completed))
                {
                    result = SearchResult {
                        nodes: result.nodes,
                        main_nodes: result.main_nodes,
                        ..deeper
                    };
                    // Reported, so that the last line is the move the search answers.
                    on_iteration(&SearchInfo {
                        depth: result.depth,
                        score: result.score,
                        nodes: result.nodes,
                        time: start.elapsed(),
                        pv: result.pv.clone(),
                        solved: result.solved,
                        tree: None,
                    });
                }
            }
            result
        });
        self.helpers = helpers;
        self.node_counter = None;
        result.time = start.elapsed();
        self.record_latency(latency);
        result
    }

    /// Resets the per-search state for a search of `position`.
    fn start(
        &mut self,
        position: &G,
        deadline: Option<Instant>,
        node_limit: u64,
        stop_flag: Option<Arc<AtomicBool>>,
        node_counter: Option<Arc<AtomicU64>>,
    ) {
        self.nodes = 0;
        self.node_limit = node_limit;
        self.deadline = deadline;
        self.last_poll = Instant::now();
        self.longest_gap = Duration::ZERO;
        self.stop_flag = stop_flag;
        self.node_counter = node_counter;
        self.stopped = false;
        self.history.clear();
        self.history.resize(position.move_id_bound(), 0);
        self.by_history = self.evaluator.orders_by_history(position);
        self.killers.clear();
    }

    /// Tells the process's [`StopLatency`] how late this timed search stopped, or how long it
    /// lost the processor.
    fn record_latency(&self, latency: &StopLatency) {
        if let Some(deadline) = self.deadline {
            let late = Instant::now().saturating_duration_since(deadline);
            latency.record(late.max(self.longest_gap));
        }
    }

    /// The nodes searched so far, by all threads.
    fn total_nodes(&self) -> u64 {
        self.node_counter
            .as_ref()
            .map_or(self.nodes, |c| c.load(Ordering::Relaxed).max(self.nodes))
    }

    /// Iterative deepening by this thread, which decides the move (see [`AlphaBeta::search`]):
    /// the result, its depth the last reported iteration's, and the deepest completed
    /// iteration (0 before any).
    fn iterate(
        &mut self,
        position: &G,
        limits: &SearchLimits,
        start: Instant,
        aimed: Option<Duration>,
        mut on_iteration: impl FnMut(&SearchInfo<G::Move>),
    ) -> (SearchResult<G::Move>, usize) {
        let mut game = position.clone();
        let mut result = SearchResult::before_search(game.status().is_over());
        if game.status().is_over() {
            return (result, 0);
        }
        // A legal move before any search: the first candidate in static order.
        self.ensure_ply(0);
        self.root_checked.clear();
        self.root_lost.clear();
        self.order_moves(&game, 0, 0, None);
        result.best_move = self.move_lists[0].first().map(|&(_, m)| m);
        let mut root_left = self.move_lists[0].len();

        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        // Stop deepening once half the time is gone (or the evaluator's share of it): the next
        // iteration would not finish.
        let share = self.evaluator.deepening_share(position);
        let soft_limit = aimed.map(|aim| aim.mul_f64(share.clamp(0.0, 1.0)));
        let mut completed = 0;
        let mut depth = 0;
        let mut guesses = Guesses::default();
        while depth < max_depth {
            depth += 1;
            self.root_best = None;
            let (score, complete) = self.iteration(&mut game, depth, guesses.for_depth(depth));
            let root_move = self.pv[0].first().copied();
            if self.stopped {
                // A partial iteration counts if a root move was searched to the end and came
                // out best so far (the previous best move is searched first).
                if let Some((partial_score, mv)) = self.root_best {
                    result.best_move = Some(mv);
                    result.score = partial_score;
                    result.pv = self.pv[0].clone();
                    // The answer is this iteration's, and says so.
                    result.depth = depth;
                    // Reported too, so that the last line is the move the search answers.
                    on_iteration(&SearchInfo {
                        depth,
                        score: partial_score,
                        nodes: self.total_nodes(),
                        time: start.elapsed(),
                        pv: result.pv.clone(),
                        solved: false,
                        tree: None,
                    });
                }
                break;
            }
            let solved = complete || score.distance().is_some_and(|d| d <= depth);
            // The best move, if the evaluator now finds it lost, is dropped and the iteration
            // searched again without it.
            let checked = |mv: &G::Move| self.root_checked.contains(mv);
            if let Some(mv) =
                root_move.filter(|mv| depth >= ROOT_CHECK_DEPTH && !solved && !checked(mv))
            {
                self.root_checked.push(mv);
                if root_left > 1 && self.evaluator.root_move_loses(&game, mv) {
                    self.root_lost.push(mv);
                    root_left -= 1;
                    depth -= 1;
                    if result.best_move == Some(mv) {
                        self.order_moves(&game, 0, 0, None);
                        result.best_move = self.move_lists[0].first().map(|&(_, m)| m);
                    }
                    continue;
                }
            }
            completed = depth;
            guesses.record(depth, score);
            result = SearchResult {
                best_move: root_move.or(result.best_move),
                score,
                depth,
                nodes: self.total_nodes(),
                main_nodes: self.nodes,
                time: start.elapsed(),
                pv: self.pv[0].clone(),
                solved,
            };
            on_iteration(&SearchInfo {
                depth,
                score,
                nodes: result.nodes,
                time: result.time,
                pv: result.pv.clone(),
                solved,
                tree: None,
            });
            if solved || soft_limit.is_some_and(|soft| start.elapsed() >= soft) {
                break;
            }
        }
        result.nodes = self.nodes;
        result.main_nodes = self.nodes;
        result.time = start.elapsed();
        (result, completed)
    }

    /// Iterative deepening by helper `index` (1 for the first) up to `max_depth`, skipping the
    /// depths [`helper_skips`] says, until told to stop or the value is proven.
    fn help(&mut self, position: &G, index: usize, max_depth: usize) -> Helped<G::Move> {
        let mut game = position.clone();
        let mut last: Option<SearchResult<G::Move>> = None;
        let mut guesses = Guesses::default();
        for depth in (1..=max_depth).filter(|&d| !helper_skips(index, d, max_depth)) {
            self.root_best = None;
            let (score, complete) = self.iteration(&mut game, depth, guesses.for_depth(depth));
            if self.stopped {
                break;
            }
            guesses.record(depth, score);
            let solved = complete || score.distance().is_some_and(|d| d <= depth);
            last = self.pv[0].first().map(|&mv| SearchResult {
                best_move: Some(mv),
                score,
                depth,
                nodes: 0,
                main_nodes: 0,
                time: Duration::ZERO,
                pv: self.pv[0].clone(),
                solved,
            });
            if solved {
                break;
            }
        }
        Helped {
            nodes: self.nodes,
            last,
        }
    }

    /// One iteration of iterative deepening: the root searched to `depth` by the algorithm,
    /// `guess` being the guess of its value ([`Guesses`]).
    fn iteration(&mut self, game: &mut G, depth: usize, guess: Score) -> (Score, bool) {
        match self.algorithm {
            Algorithm::Minimax => self.minimax_root(game, depth),
            Algorithm::AlphaBeta => {
                self.negamax(game, depth, 0, -Score::INFINITE, Score::INFINITE, false)
            }
            Algorithm::Pvs => self.aspiration(game, depth, guess),
            Algorithm::Mtdf => self.mtdf(game, depth, guess),
            Algorithm::Mcts => unreachable!("the searcher gives Monte Carlo searches to Mcts"),
        }
    }

    /// PVS at the root with an aspiration window around `guess`, widened on failure until the
    /// value falls inside.
    fn aspiration(&mut self, game: &mut G, depth: usize, guess: Score) -> (Score, bool) {
        if depth < 3 || guess.is_decisive() {
            return self.negamax(game, depth, 0, -Score::INFINITE, Score::INFINITE, true);
        }
        let mut delta = ASPIRATION;
        loop {
            let alpha = Score((guess.0 - delta).max(-Score::INFINITE.0));
            let beta = Score((guess.0 + delta).min(Score::INFINITE.0));
            let (score, complete) = self.negamax(game, depth, 0, alpha, beta, true);
            if self.stopped || (score > alpha && score < beta) {
                return (score, complete);
            }
            if delta > Score::WIN {
                return (score, complete);
            }
            delta = delta.saturating_mul(4);
        }
    }

    /// MTD(f): null-window searches that move a bound towards the value, starting at `guess`.
    fn mtdf(&mut self, game: &mut G, depth: usize, guess: Score) -> (Score, bool) {
        let mut lower = -Score::INFINITE;
        let mut upper = Score::INFINITE;
        let mut value = guess;
        let mut complete = false;
        let mut best_pv: Vec<G::Move> = Vec::new();
        while lower < upper {
            let beta = if value == lower {
                Score(value.0 + 1)
            } else {
                value
            };
            let (score, done) = self.negamax(game, depth, 0, Score(beta.0 - 1), beta, false);
            if self.stopped {
                break;
            }
            value = score;
            complete = done;
            if score < beta {
                upper = score;
            } else {
                lower = score;
                // A fail high has settled a best move at the root; keep its line.
                best_pv.clone_from(&self.pv[0]);
            }
        }
        // The last fail high found the best move; a final fail low leaves no root move.
        if self.pv[0].is_empty() || self.pv[0].first() != best_pv.first() && !best_pv.is_empty() {
            self.pv[0] = best_pv;
        }
        (value, complete)
    }

    fn ensure_ply(&mut self, ply: usize) {
        while self.move_lists.len() <= ply + 1 {
            self.move_lists.push(Vec::new());
            self.pv.push(Vec::new());
            self.killers.push([None, None]);
        }
        if self.killers.len() <= ply + 1 {
            self.killers.resize(ply + 2, [None, None]);
        }
    }

    /// Polls the limits; true once the search must unwind.
    #[inline]
    fn must_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(POLL_INTERVAL) {
            let late = self.deadline.is_some_and(|deadline| {
                let now = Instant::now();
                self.longest_gap = self.longest_gap.max(now - self.last_poll);
                self.last_poll = now;
                now >= deadline
            });
            let told = self
                .stop_flag
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed));
            let spent = self.node_counter.as_ref().is_some_and(|counter| {
                counter.fetch_add(POLL_INTERVAL, Ordering::Relaxed) + POLL_INTERVAL
                    >= self.node_limit
            });
            self.stopped = late || told || spent;
        }
        self.stopped
    }

    /// Value of a finished game at `ply`, from the side to move.
    #[inline]
    fn terminal(game: &G, outcome: Outcome, ply: usize) -> Score {
        match outcome {
            Outcome::Draw => Score::DRAW,
            Outcome::Win(side) if side == game.to_move() => Score::win_in(ply),
            Outcome::Win(_) => Score::loss_in(ply),
        }
    }

    /// Fills `move_lists[ply]` with the candidate moves, best first: the table move, the
    /// killers, then history plus the evaluator's hint (the hint alone if the evaluator says
    /// so, [`Evaluator::orders_by_history`]).
    fn order_moves(&mut self, game: &G, ply: usize, depth: usize, tt_move: Option<usize>) {
        let mut scratch = std::mem::take(&mut self.scratch);
        self.evaluator.candidate_moves(game, &mut scratch);
        if ply == 0 {
            scratch.retain(|mv| !self.root_lost.contains(mv));
        }
        let killers = self.killers[ply];
        let list = &mut self.move_lists[ply];
        list.clear();
        for &mv in &scratch {
            let id = game.move_id(mv);
            let score = if Some(id) == tt_move {
                1 << 30
            } else if Some(mv) == killers[0] {
                1 << 29
            } else if Some(mv) == killers[1] {
                1 << 28
            } else {
                let hint = if depth > 1 || ply == 0 {
                    self.evaluator.move_hint(game, mv)
                } else {
                    0
                };
                if self.by_history {
                    self.history[id].saturating_add(hint)
                } else {
                    hint
                }
            };
            list.push((score, mv));
        }
        // Stable: equal scores keep the generator's order, so searches are reproducible.
        list.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        self.scratch = scratch;
    }

    /// Negamax alpha-beta (fail-soft), PVS when `pv_node` says this node is on the principal
    /// variation of a PVS search. Returns the score from the side to move and whether the
    /// subtree was searched to its end (its value then holds at any depth).
    fn negamax(
        &mut self,
        game: &mut G,
        depth: usize,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        pv_node: bool,
    ) -> (Score, bool) {
        // Step 1. Count the node, poll the limits.
        self.nodes += 1;
        self.ensure_ply(ply);
        self.pv[ply].clear();
        if self.must_stop() {
            return (Score::DRAW, false);
        }
        // Step 2. Finished games and the horizon.
        if let Status::Over(outcome) = game.status() {
            return (Self::terminal(game, outcome, ply), true);
        }
        if depth == 0 {
            return (Score::eval(self.evaluator.evaluate(game)), false);
        }
        // Step 3. Mate distance pruning: no result here beats a win on the next move.
        if ply > 0 {
            alpha = alpha.max(Score::loss_in(ply));
            beta = beta.min(Score::win_in(ply + 1));
            if alpha >= beta {
                return (alpha, true);
            }
        }
        // Step 4. Transposition table.
        let hash = game.hash();
        let entry = self.table.probe(hash);
        if let Some(e) = entry {
            if ply > 0 && (e.depth as usize) >= depth {
                let score = e.score.from_node(ply);
                let complete = e.depth as usize == COMPLETE;
                let cut = match e.bound {
                    Bound::Exact => !pv_node || complete,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return (score, complete);
                }
            }
        }
        // Step 5. Moves, best first.
        let searching_pvs = self.algorithm == Algorithm::Pvs;
        self.order_moves(game, ply, depth, entry.and_then(|e| e.move_id));
        let original_alpha = alpha;
        let mut best = -Score::INFINITE;
        let mut best_move = None;
        let mut complete = true;
        let count = self.move_lists[ply].len();
        for i in 0..count {
            let mv = self.move_lists[ply][i].1;
            // Step 6a. Late move pruning, as the evaluator says, while the best move so far
            // does not lose (a loss reported must be real); the node is then not complete.
            let losing = best.is_decisive() && best < Score::DRAW;
            if searching_pvs
                && i > 0
                && !pv_node
                && !losing
                && self.evaluator.late_move_pruned(game, mv, depth, i, count)
            {
                complete = false;
                continue;
            }
            // Step 6. Search the move: the first with the full window, the others with a null
            // window first under PVS (late ones as shallower as the evaluator says, then again
            // at full depth if they beat alpha), re-searched when they might be better.
            let reduction = if searching_pvs && i > 0 {
                self.evaluator
                    .late_move_reduction(game, mv, depth, i, count)
                    .min(depth - 1)
            } else {
                0
            };
            game.play(mv);
            let (score, done) = if !searching_pvs || i == 0 {
                let (s, d) =
                    self.negamax(game, depth - 1, ply + 1, -beta, -alpha, pv_node && i == 0);
                (-s, d)
            } else {
                let null = Score(-alpha.0 - 1);
                let (mut s, mut d) =
                    self.negamax(game, depth - 1 - reduction, ply + 1, null, -alpha, false);
                if reduction > 0 && -s > alpha && !self.stopped {
                    (s, d) = self.negamax(game, depth - 1, ply + 1, null, -alpha, false);
                }
                if -s > alpha && -s < beta && !self.stopped {
                    let (s, d) = self.negamax(game, depth - 1, ply + 1, -beta, -alpha, pv_node);
                    (-s, d)
                } else {
                    (-s, d)
                }
            };
            game.undo();
            if self.stopped {
                return (best.max(score), false);
            }
            complete &= done;
            // Step 7. New best move, PV update, cutoff.
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if ply == 0 {
                        self.root_best = Some((score, mv));
                    }
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(mv);
                    line.extend_from_slice(&tail[0]);
                    if score >= beta {
                        let killers = &mut self.killers[ply];
                        if killers[0] != Some(mv) {
                            killers[1] = killers[0];
                            killers[0] = Some(mv);
                        }
                        if self.by_history {
                            let id = game.move_id(mv);
                            let bonus = (depth * depth) as i32;
                            self.history[id] = (self.history[id] + bonus).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        // Step 8. Store the result.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_depth = if complete { COMPLETE } else { depth };
        self.table.store(
            hash,
            best.to_node(ply),
            bound,
            stored_depth,
            best_move.map(|m| game.move_id(m)),
        );
        (best, complete)
    }

    /// Plain minimax to `depth` at the root: the reference the other algorithms must agree
    /// with. Records the principal variation.
    fn minimax_root(&mut self, game: &mut G, depth: usize) -> (Score, bool) {
        self.minimax(game, depth, 0)
    }

    fn minimax(&mut self, game: &mut G, depth: usize, ply: usize) -> (Score, bool) {
        self.nodes += 1;
        self.ensure_ply(ply);
        self.pv[ply].clear();
        if self.must_stop() {
            return (Score::DRAW, false);
        }
        if let Status::Over(outcome) = game.status() {
            return (Self::terminal(game, outcome, ply), true);
        }
        if depth == 0 {
            return (Score::eval(self.evaluator.evaluate(game)), false);
        }
        let mut moves = Vec::new();
        self.evaluator.candidate_moves(game, &mut moves);
        let mut best = -Score::INFINITE;
        let mut complete = true;
        for mv in moves {
            game.play(mv);
            let (s, done) = self.minimax(game, depth - 1, ply + 1);
            game.undo();
            if self.stopped {
                return (best, false);
            }
            complete &= done;
            if -s > best {
                best = -s;
                if ply == 0 {
                    self.root_best = Some((best, mv));
                }
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(mv);
                head[ply].extend_from_slice(&tail[0]);
            }
        }
        (best, complete)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_iteration_is_guessed_from_the_one_two_plies_shallower_or_else_the_last() {
        let mut guesses = Guesses::default();
        assert_eq!(guesses.for_depth(1), Score::DRAW);
        guesses.record(1, Score::eval(40));
        // No iteration two plies shallower: the last.
        assert_eq!(guesses.for_depth(2), Score::eval(40));
        guesses.record(2, Score::eval(-90));
        assert_eq!(guesses.for_depth(3), Score::eval(40));
        guesses.record(3, Score::eval(50));
        assert_eq!(guesses.for_depth(4), Score::eval(-90));
        // A helper skipping depth 4 guesses depth 5 from 3, depth 6 from 5 (the last).
        assert_eq!(guesses.for_depth(5), Score::eval(50));
        guesses.record(5, Score::eval(70));
        assert_eq!(guesses.for_depth(6), Score::eval(70));
        // An iteration searched again forgets the deeper ones.
        guesses.record(3, Score::eval(10));
        assert_eq!(guesses.for_depth(4), Score::eval(-90));
        assert_eq!(guesses.for_depth(5), Score::eval(10));
    }
}
