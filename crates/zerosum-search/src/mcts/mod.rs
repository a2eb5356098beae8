//! Monte Carlo tree search with a solver, generic over [`Game`] and [`Evaluator`]: the
//! [`Algorithm::Mcts`](crate::Algorithm::Mcts) driver of [`crate::Searcher`].
//!
//! One iteration ([`Worker::iterate`]) walks the tree from the root by UCT ([`select`]),
//! expands the first node it reaches a second time (its children are the evaluator's
//! candidates), proves a new leaf that ends the game, else plays out from it
//! ([`playout`]), and backs the reward up the path, with MCTS-Solver's proofs ([`backup`] of
//! the nodes' [`proof`]s).
//! A node visited often enough ([`Evaluator::analysis_visits`], the root at once) is analysed
//! ([`Worker::analyse`]): every candidate becomes a child, the moves the evaluator proves won or
//! lost are proven, and those it calls inferior are pruned, out of selection and proofs.
//! The tree lives in an arena ([`tree`]) sized by the search's memory (the table size), and
//! is kept from one search to the next: when the next position follows from the last root
//! by moves the tree holds, their subtree becomes the new root.
//!
//! Modules: `tree` (the arena of nodes) holds each node's `proof`; `backup` proves nodes
//! from their children in the tree; `select` (UCT, PUCT) reads the tree; `playout` plays a
//! position out and knows no tree; this module drives them all. A timed search aims to stop at
//! [`TimeBudget::search_aim`](zerosum_core::TimeBudget::search_aim).
//!
//! Threads: root parallelism. Each thread grows a tree of its own (with its own random
//! stream), and the visits of the root's moves are summed at the end. With one thread, a
//! playout limit and a fresh searcher, a search is deterministic: the generator is seeded
//! from the position.

mod backup;
mod playout;
mod proof;
mod select;
mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use zerosum_core::{Evaluator, Game, MoveVerdict, Score, Side, Status, TimeBudget};

use crate::limits::SearchLimits;
use crate::pace::StopLatency;
use crate::result::{SearchInfo, SearchResult, TreeStats};
use backup::{for_mover, update};
use playout::Playouts;
use proof::TreeProof;
use select::{rank_priors, select, select_puct, Choice};
use tree::{Node, NodeId, Tree, ROOT};

/// The limits are polled, and the shared playout count updated, once every this many
/// playouts...
const POLL_INTERVAL: u64 = 16;
/// ...or as soon as the playouts since the last poll have played this many plies.
const POLL_PLIES: u64 = 4_096;
/// Playouts per unit of a depth limit (MCTS has no iterations to count): `depth=D` alone
/// means `D * PLAYOUTS_PER_DEPTH` playouts.
pub const PLAYOUTS_PER_DEPTH: u64 = 1_000;
/// Playouts before the first info line; the next ones come at each doubling.
const FIRST_REPORT: u64 = 1_024;
/// Seed of the playouts' generator, mixed with the position's hash and the thread's index.
const SEED: u64 = 0x5eed_2d0c_a11b_ac4e;
/// A playout value this close to a win or a loss (the first player's chance) calls its leaf
/// decided: the game's static proof ([`Evaluator::proven_winner`]) is asked there only.
const DECIDED: f64 = 0.01;
/// Fewest nodes a tree may hold, whatever the memory.
const MIN_NODES: usize = 1 << 12;
/// With priors, the candidates a node first takes as children (the best-ranked); the others
/// become children as PUCT first needs them, in runs that double the node's children. PUCT
/// chooses as if all were children, in a fraction of the memory: on hex:11 a node has about
/// a hundred candidates, of which a node visited a few times tries only the first few.
const FIRST_CHILDREN: usize = 8;

/// The Monte Carlo searcher: one worker (tree) per thread, kept between searches with the
/// position at their root.
pub(crate) struct Mcts<G: Game, E: Evaluator<G>> {
    evaluator: E,
    workers: Vec<Worker<G::Move>>,
    /// The position at the root of the workers' trees.
    root: Option<G>,
    /// With priors, the candidates a node first takes as children ([`FIRST_CHILDREN`]).
    first_children: usize,
}

/// How a search is told to stop, shared by its threads.
struct Control<'a> {
    deadline: Option<Instant>,
    node_limit: u64,
    stop: Option<&'a AtomicBool>,
    /// Raised by the calling thread when it is done, for the others.
    done: &'a AtomicBool,
    /// Playouts of all threads (each adds its own at every poll).
    playouts: &'a AtomicU64,
}

impl Control<'_> {
    /// Whether a thread that has played `new` playouts since it last asked must stop;
    /// counts them in the shared total.
    fn must_stop(&self, new: u64) -> bool {
        let total = self.playouts.fetch_add(new, Ordering::Relaxed) + new;
        total >= self.node_limit
            || self.done.load(Ordering::Relaxed)
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    pub fn new(evaluator: E) -> Self {
        Mcts {
            evaluator,
            workers: Vec::new(),
            root: None,
            first_children: FIRST_CHILDREN,
        }
    }

    /// Searches `position` within `limits`, with trees of `memory` bytes in all; reports at
    /// 1024 playouts, at every doubling, and at the end through `on_report`. Returns a legal
    /// move whenever the game goes on.
    pub fn search(
        &mut self,
        position: &G,
        limits: &SearchLimits,
        memory: usize,
        mut on_report: impl FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let latency = StopLatency::process();
        let deadline = limits
            .time
            .map(|time| start + TimeBudget::new(time).search_aim(latency.estimate()));
        let mut result = SearchResult::before_search(true);
        if let Status::Over(_) = position.status() {
            result.time = start.elapsed();
            return result;
        }
        let threads = limits.threads.get();
        let capacity = (memory / std::mem::size_of::<Node<G::Move>>() / threads).max(MIN_NODES);
        self.prepare(position, threads, capacity);
        let node_limit = match (limits.nodes, limits.depth) {
            (Some(nodes), _) => nodes,
            (None, Some(depth)) => (depth as u64).saturating_mul(PLAYOUTS_PER_DEPTH),
            (None, None) => u64::MAX,
        };
        let done = AtomicBool::new(false);
        let playouts = AtomicU64::new(0);
        let control = Control {
            deadline,
            node_limit,
            stop: limits.stop.as_deref(),
            done: &done,
            playouts: &playouts,
        };
        let evaluator = &self.evaluator;
        let (main, helpers) = self
            .workers
            .split_first_mut()
            .expect("prepare made a worker per thread");
        let report_start = |info: &mut SearchInfo<G::Move>| info.time = start.elapsed();
        thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .filter_map(|(i, helper)| {
                    let control = &control;
                    // Without a thread to be had, the search goes on with fewer helpers.
                    thread::Builder::new()
                        .name(format!("mcts helper {}", i + 1))
                        .spawn_scoped(scope, move || {
                            helper.run(position, evaluator, control, &mut |_| {})
                        })
                        .ok()
                })
                .collect();
            main.run(position, evaluator, &control, &mut |mut info| {
                report_start(&mut info);
                on_report(&info);
            });
            done.store(true, Ordering::Relaxed);
            for handle in running {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            }
        });
        let mover = position.to_move();
        self.decide(mover, &mut result);
        result.time = start.elapsed();
        if let Some(deadline) = deadline {
            latency.record(Instant::now().saturating_duration_since(deadline));
        }
        on_report(&self.info(mover, &result));
        result
    }

    /// Makes one worker per thread, each with a tree rooted at `position`: the subtree of the
    /// last search's tree where `position` follows from its root by moves the tree holds,
    /// else a fresh root.
    fn prepare(&mut self, position: &G, threads: usize, capacity: usize) {
        let path = self
            .root
            .as_ref()
            .and_then(|root| path_between(root, position));
        if path.is_none() {
            self.workers.clear();
        }
        self.workers.truncate(threads);
        for (index, worker) in self.workers.iter_mut().enumerate() {
            let kept = path.as_deref().and_then(|path| {
                path.iter()
                    .try_fold(ROOT, |node, &mv| worker.tree.child_by_move(node, mv))
            });
            // A node proven by a static test has no children to play: searched afresh.
            let kept = kept.filter(|&node| {
                let node = worker.tree.node(node);
                node.expanded || !node.proof.is_known()
            });
            match kept {
                Some(node) => {
                    worker.tree.reroot(node);
                    // A proof by the analysis of the old parent: proven again from the
                    // children, if they prove it, so that a proven root has a proven move.
                    if worker.tree.node(ROOT).proof.is_known() {
                        update(&mut worker.tree, ROOT, position.to_move());
                    }
                }
                None => worker.tree.reset(position.to_move()),
            }
            worker.tree.set_capacity(capacity);
            worker.reseed(position, index);
        }
        while self.workers.len() < threads {
            let mut worker = Worker::new(position, capacity, self.first_children);
            worker.reseed(position, self.workers.len());
            self.workers.push(worker);
        }
        self.root = Some(position.clone());
    }

    /// The move, value and line of the search: the proven move if a thread proved the root,
    /// else the most visited move of all threads' trees that is not proven lost.
    fn decide(&self, mover: Side, result: &mut SearchResult<G::Move>) {
        result.nodes = self.workers.iter().map(|w| w.playouts).sum();
        result.main_nodes = self.workers[0].playouts;
        let proving = self
            .workers
            .iter()
            .find(|w| w.tree.node(ROOT).proof.is_known());
        if let Some(worker) = proving {
            let tree = &worker.tree;
            let best = proven_choice(tree, ROOT, mover);
            let child = tree.node(best);
            result.best_move = child.mv;
            result.score = for_mover(child, mover)
                .score_one_ply_up()
                .expect("a proven root has a proven best child");
            result.pv = principal_line(tree, best);
            result.solved = true;
        } else {
            // Visits and rewards of the root's moves, summed over the trees.
            let main = &self.workers[0].tree;
            let mut best: Option<(NodeId, u64, f64)> = None;
            for id in main.node(ROOT).child_ids() {
                let child = main.node(id);
                let mv = child.mv.expect("a child has a move");
                let (mut visits, mut reward, mut lost) = (0u64, 0.0, false);
                for worker in &self.workers {
                    let tree = &worker.tree;
                    if let Some(other) = tree.child_by_move(ROOT, mv) {
                        let node = tree.node(other);
                        visits += u64::from(node.visits);
                        reward += if node.side == mover {
                            node.reward
                        } else {
                            f64::from(node.visits) - node.reward
                        };
                        lost |= node.pruned || matches!(for_mover(node, mover), TreeProof::Loss(_));
                    }
                }
                let better = best.is_none_or(|(_, most, most_reward)| {
                    visits > most || visits == most && reward > most_reward
                });
                if !lost && better {
                    best = Some((id, visits, reward));
                }
            }
            // Every move proven lost only where the root is proven: not here. A root never
            // expanded (no room) has no children: the first candidate.
            let (mut best, visits, reward) = best.unwrap_or((main.node(ROOT).first_child, 0, 0.0));
            let mut win_rate = if visits > 0 {
                reward / visits as f64
            } else {
                0.5
            };
            // A proven draw beats a move that has done worse than a draw so far.
            let drawn = main
                .node(ROOT)
                .child_ids()
                .find(|&id| for_mover(main.node(id), mover) == TreeProof::Draw);
            if let Some(drawn) = drawn.filter(|_| win_rate < 0.5) {
                (best, win_rate) = (drawn, 0.5);
            }
            result.best_move = main.node(best).mv.or_else(|| self.workers[0].first_move);
            result.score = score_of(win_rate);
            result.pv = principal_line(main, best);
            if result.pv.is_empty() {
                result.pv.extend(result.best_move);
            }
            result.solved = false;
        }
        result.depth = result.pv.len();
    }

    /// The info line of `result`: the best move's visits and win rate for `mover`.
    fn info(&self, mover: Side, result: &SearchResult<G::Move>) -> SearchInfo<G::Move> {
        let (mut visits, mut reward) = (0u64, 0.0);
        for worker in &self.workers {
            let tree = &worker.tree;
            if let Some(id) = result.best_move.and_then(|mv| tree.child_by_move(ROOT, mv)) {
                let node = tree.node(id);
                visits += u64::from(node.visits);
                reward += if node.side == mover {
                    node.reward
                } else {
                    f64::from(node.visits) - node.reward
                };
            }
        }
        SearchInfo {
            depth: result.depth,
            score: result.score,
            nodes: result.nodes,
            time: result.time,
            pv: result.pv.clone(),
            solved: result.solved,
            tree: Some(TreeStats::new(visits, reward)),
        }
    }
}

/// The moves that lead from `root` to `position` (a later position of the same game), if it
/// is one.
fn path_between<G: Game>(root: &G, position: &G) -> Option<Vec<G::Move>> {
    let path = position.history().strip_prefix(root.history())?;
    let mut game = root.clone();
    for &mv in path {
        game.try_play(mv).ok()?;
    }
    (game == *position).then(|| path.to_vec())
}

/// The score of a win rate for the side to move: its logit in evaluation units (the inverse
/// of the playouts' sigmoid).
fn score_of(win_rate: f64) -> Score {
    let p = win_rate.clamp(1e-4, 1.0 - 1e-4);
    Score::eval((playout::SIGMOID_SCALE * (p / (1.0 - p)).ln()).round() as i32)
}

/// The child of `parent` (proven) that its proof plays: the fastest win, else a draw, else
/// the slowest loss (the most visited among equals).
fn proven_choice<M: Copy>(tree: &Tree<M>, parent: NodeId, mover: Side) -> NodeId {
    let node = tree.node(parent);
    node.child_ids()
        .max_by_key(|&id| {
            let child = tree.node(id);
            let rank = for_mover(child, mover).rank().unwrap_or(i32::MIN);
            (rank, child.visits, std::cmp::Reverse(id))
        })
        .unwrap_or(node.first_child)
}

/// Whether a child is no choice for `mover` while its parent is not proven: proven lost, or
/// pruned.
fn excluded<M>(child: &Node<M>, mover: Side) -> bool {
    child.pruned || matches!(for_mover(child, mover), TreeProof::Loss(_))
}

/// The principal line from the root's child `first`: at each node the proven choice where
/// the node is proven, else the most visited child, while there is one.
fn principal_line<M: Copy>(tree: &Tree<M>, first: NodeId) -> Vec<M> {
    let mut line = Vec::new();
    let mut id = first;
    loop {
        let node = tree.node(id);
        let Some(mv) = node.mv else { break };
        line.push(mv);
        if !node.expanded || node.children == 0 {
            break;
        }
        // The children's mover played none of this node's moves: it is the children's side.
        let mover = tree.node(node.first_child).side;
        id = if node.proof.is_known() {
            proven_choice(tree, id, mover)
        } else {
            let most = node
                .child_ids()
                .filter(|&c| !excluded(tree.node(c), mover))
                .max_by_key(|&c| (tree.node(c).visits, std::cmp::Reverse(c)));
            match most {
                Some(c) if tree.node(c).visits > 0 => c,
                _ => break,
            }
        };
    }
    line
}

/// One thread's tree, generator and buffers.
struct Worker<M> {
    tree: Tree<M>,
    playouts_of: Playouts<M>,
    /// Nodes of the current iteration, from the root.
    path: Vec<NodeId>,
    /// Scratch for the candidates of a node being expanded, best first.
    moves: Vec<M>,
    /// With priors, the prior of each of [`Worker::moves`], and scratch for their weights.
    priors: Vec<f32>,
    weights: Vec<f64>,
    ranked: Vec<(f64, M)>,
    /// Scratch for the verdicts of a node's analysis.
    verdicts: Vec<MoveVerdict>,
    /// With RAVE, scratch of [`Worker::update_amaf`]: for each move id, the side that played
    /// it first in the iteration below the node at hand, and the ids so marked.
    amaf_side: Vec<Option<Side>>,
    amaf_touched: Vec<usize>,
    /// Playouts of the current search.
    playouts: u64,
    /// The root's first candidate: the answer if the tree could not even expand the root.
    first_move: Option<M>,
    /// With priors, the candidates a node first takes as children.
    first_children: usize,
}

impl<M: Copy + Eq> Worker<M> {
    fn new<G: Game<Move = M>>(position: &G, capacity: usize, first_children: usize) -> Self {
        let mut tree = Tree::new(capacity);
        tree.reset(position.to_move());
        Worker {
            tree,
            playouts_of: Playouts::new(position, 0),
            path: Vec::new(),
            moves: Vec::new(),
            priors: Vec::new(),
            weights: Vec::new(),
            ranked: Vec::new(),
            verdicts: Vec::new(),
            amaf_side: Vec::new(),
            amaf_touched: Vec::new(),
            playouts: 0,
            first_move: None,
            first_children,
        }
    }

    /// A generator for a search of `position` by thread `index`.
    fn reseed<G: Game<Move = M>>(&mut self, position: &G, index: usize) {
        let seed = SEED ^ position.hash() ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.playouts_of = Playouts::new(position, seed);
    }

    /// Iterations until the limits are reached or the root is proven. Reports at the
    /// doublings of the playout count.
    fn run<G: Game<Move = M>, E: Evaluator<G>>(
        &mut self,
        position: &G,
        evaluator: &E,
        control: &Control<'_>,
        report: &mut dyn FnMut(SearchInfo<M>),
    ) {
        let mut game = position.clone();
        self.playouts = 0;
        self.first_move = None;
        let mut next_report = FIRST_REPORT;
        // Plies played and playouts counted in the shared total at the last poll.
        let (mut plies, mut polled_plies, mut counted) = (0u64, 0u64, 0u64);
        // The first playout always runs: a search always has a move.
        while !self.tree.node(ROOT).proof.is_known() {
            if self.playouts >= control.node_limit && self.playouts > 0 {
                break;
            }
            // The limits are polled every few playouts, or sooner when playouts are long.
            let due =
                self.playouts - counted >= POLL_INTERVAL || plies - polled_plies >= POLL_PLIES;
            if due {
                let new = self.playouts - counted;
                (counted, polled_plies) = (self.playouts, plies);
                if control.must_stop(new) {
                    break;
                }
            }
            self.iterate(&mut game, evaluator, &mut plies);
            self.playouts += 1;
            if self.playouts == next_report {
                next_report *= 2;
                report(self.progress(game.to_move()));
            }
        }
        control
            .playouts
            .fetch_add(self.playouts - counted, Ordering::Relaxed);
    }

    /// A progress report of this tree alone.
    fn progress(&self, mover: Side) -> SearchInfo<M> {
        let tree = &self.tree;
        let best = tree
            .node(ROOT)
            .child_ids()
            .filter(|&c| !excluded(tree.node(c), mover))
            .max_by_key(|&c| (tree.node(c).visits, std::cmp::Reverse(c)));
        let (pv, visits, reward) = best.map_or((Vec::new(), 0, 0.0), |id| {
            let node = tree.node(id);
            (
                principal_line(tree, id),
                u64::from(node.visits),
                node.mean().map_or(0.0, |mean| {
                    let mean = if node.side == mover { mean } else { 1.0 - mean };
                    mean * f64::from(node.visits)
                }),
            )
        });
        let stats = TreeStats::new(visits, reward);
        SearchInfo {
            depth: pv.len(),
            score: score_of(stats.win_rate()),
            nodes: self.playouts,
            time: Duration::ZERO,
            pv,
            solved: false,
            tree: Some(stats),
        }
    }

    /// One iteration from the root of `game` (its position is restored): selection,
    /// expansion, playout, backup.
    fn iterate<G: Game<Move = M>, E: Evaluator<G>>(
        &mut self,
        game: &mut G,
        evaluator: &E,
        plies: &mut u64,
    ) {
        let rave = evaluator.rave_equivalence();
        // Step 1. Selection down to a node that is proven, or not expanded.
        self.path.clear();
        self.path.push(ROOT);
        let mut id = ROOT;
        // Whether the iteration ends on a leaf reached for the first time.
        let mut fresh = false;
        loop {
            let node = self.tree.node(id);
            if node.proof.is_known() {
                break;
            }
            if !node.expanded {
                if node.visits == 0 && id != ROOT {
                    // A new leaf: proven at once if the game is over.
                    fresh = true;
                    if let Status::Over(outcome) = game.status() {
                        let side = node.side;
                        self.tree.node_mut(id).proof = TreeProof::of_outcome(outcome, side);
                    }
                    break;
                }
                // Step 2. Expansion of a node reached before (or of the root).
                if !self.expand(id, game, evaluator) {
                    break;
                }
                if self.tree.node(id).proof.is_known() {
                    break;
                }
            }
            let node = self.tree.node(id);
            let due = evaluator
                .analysis_visits()
                .is_some_and(|visits| node.visits >= visits || id == ROOT);
            if due && !node.analysed {
                self.analyse(id, game, evaluator);
                if self.tree.node(id).proof.is_known() {
                    break;
                }
            }
            let child = match evaluator.mcts_prior_width() {
                None => select(&self.tree, id, game.to_move()),
                Some(width) => {
                    let mover = game.to_move();
                    match select_puct(&self.tree, id, mover, true, rave) {
                        Some(Choice::Child(child)) => child,
                        Some(Choice::Widen) => match self.widen(id, game, evaluator, width) {
                            Some(child) => child,
                            // No room: among the children, else a playout from here.
                            None => match select_puct(&self.tree, id, mover, false, rave) {
                                Some(Choice::Child(child)) => child,
                                _ => break,
                            },
                        },
                        None => break,
                    }
                }
            };
            game.play(self.tree.node(child).mv.expect("a child has a move"));
            self.path.push(child);
            id = child;
        }
        // Step 3. The value: proven, or a playout's; a new leaf the playout calls decided is
        // proven if the game's static test agrees.
        let leaf = *self.tree.node(id);
        let mut played_out = false;
        let first_wins = match leaf.proof.reward() {
            Some(reward) if leaf.side == Side::First => reward,
            Some(reward) => 1.0 - reward,
            None => {
                played_out = true;
                let value = self.playouts_of.run(game, evaluator, plies);
                let decided = !(DECIDED..=1.0 - DECIDED).contains(&value);
                let winner = if fresh && decided {
                    evaluator.proven_winner(game)
                } else {
                    None
                };
                match winner {
                    Some(winner) => {
                        let plies = game.move_id_bound().saturating_sub(game.ply());
                        self.tree.node_mut(id).proof =
                            TreeProof::of_winner(winner, leaf.side, plies);
                        if winner == Side::First {
                            1.0
                        } else {
                            0.0
                        }
                    }
                    None => value,
                }
            }
        };
        for _ in 1..self.path.len() {
            game.undo();
        }
        if rave.is_some() {
            self.update_amaf(game, first_wins, played_out);
        }
        // Step 4. Backup of the proofs, while they prove their parents...
        for pair in self.path.windows(2).rev() {
            let (parent, child) = (pair[0], pair[1]);
            let Node { proof, side, .. } = *self.tree.node(child);
            if !proof.is_known() || !update(&mut self.tree, parent, side).is_known() {
                break;
            }
        }
        // ...and of the reward, raised to a draw for the mover of a node with a drawn child.
        let mut first_wins = first_wins;
        for (i, &id) in self.path.iter().enumerate().rev() {
            let node = self.tree.node_mut(id);
            node.visits = node.visits.saturating_add(1);
            node.reward += match node.side {
                Side::First => first_wins,
                Side::Second => 1.0 - first_wins,
            };
            let mover = node.side;
            if i > 0 && self.tree.node(self.path[i - 1]).drawn_child {
                first_wins = match mover {
                    Side::First => first_wins.max(0.5),
                    Side::Second => first_wins.min(0.5),
                };
            }
        }
    }

    /// RAVE's backup of an iteration from the root of `game` whose path is `self.path`, of
    /// the value `first_wins` for the first player, through a playout (its moves,
    /// [`Playouts::played`]) if `played_out`: at each node of the path, every child whose
    /// move its side played later in the iteration (the first time the move id was played,
    /// in the tree below or in the playout) counts the playout in its AMAF statistics.
    fn update_amaf<G: Game<Move = M>>(&mut self, game: &G, first_wins: f64, played_out: bool) {
        let bound = game.move_id_bound();
        let mut first_side = std::mem::take(&mut self.amaf_side);
        if first_side.len() != bound {
            first_side.clear();
            first_side.resize(bound, None);
        }
        self.amaf_touched.clear();
        let touched = &mut self.amaf_touched;
        // The side that played move id `id` first from here on is `side`.
        let mut mark = |first_side: &mut [Option<Side>], id: usize, side: Side| {
            if first_side[id].is_none() {
                touched.push(id);
            }
            first_side[id] = Some(side);
        };
        if played_out {
            let leaf = self
                .tree
                .node(*self.path.last().expect("a path has a root"));
            // The playout's first move is by the leaf's mover, the opponent of its side; the
            // moves are marked last first, so that the first play of a move id stands.
            let played = self.playouts_of.played();
            for (ply, &mv) in played.iter().enumerate().rev() {
                let side = if ply % 2 == 0 {
                    leaf.side.opponent()
                } else {
                    leaf.side
                };
                mark(&mut first_side, game.move_id(mv), side);
            }
        }
        for i in (0..self.path.len()).rev() {
            if let Some(&below) = self.path.get(i + 1) {
                let child = self.tree.node(below);
                let id = game.move_id(child.mv.expect("a child has a move"));
                mark(&mut first_side, id, child.side);
            }
            let node = *self.tree.node(self.path[i]);
            for child in node.child_ids() {
                let child = self.tree.node_mut(child);
                let id = game.move_id(child.mv.expect("a child has a move"));
                if first_side[id] == Some(child.side) {
                    child.amaf_visits = child.amaf_visits.saturating_add(1);
                    child.amaf_reward += match child.side {
                        Side::First => first_wins,
                        Side::Second => 1.0 - first_wins,
                    } as f32;
                }
            }
        }
        for &id in self.amaf_touched.iter() {
            first_side[id] = None;
        }
        self.amaf_side = first_side;
    }

    /// Creates the children of `id`, the position of `game` (ongoing). Without priors they
    /// are proven when first reached (every child is tried once before any is tried twice, so
    /// a win in one is proven within as many playouts as there are children), and every
    /// candidate is a child. With priors ([`Evaluator::mcts_prior_width`]) the candidates are
    /// ranked, the playout policy's move first, and weighed by rank (and the evaluator's
    /// weights, [`Evaluator::candidate_weights`]); those that end the game
    /// are proven here, which may prove `id`; only the best few ([`FIRST_CHILDREN`]) become children
    /// (all of them if one ends the game), the others wait as unborn ([`Worker::widen`]).
    /// False if the tree has no room for them.
    fn expand<G: Game<Move = M>, E: Evaluator<G>>(
        &mut self,
        id: NodeId,
        game: &mut G,
        evaluator: &E,
    ) -> bool {
        let width = evaluator.mcts_prior_width();
        self.rank_candidates(game, evaluator, width);
        if id == ROOT && self.first_move.is_none() {
            self.first_move = self.moves.first().copied();
        }
        let count = self.moves.len();
        let born = match width {
            Some(_) if !self.any_ends_game(game) => count.min(self.first_children),
            _ => count,
        };
        if count == 0 || !self.tree.has_room(born) {
            return false;
        }
        self.tree
            .expand(id, &self.moves[..born], game.to_move(), count - born);
        if width.is_some() {
            self.weigh_children(id, game, 0, born);
        }
        true
    }

    /// The evaluator's candidates of `game` in `self.moves`, best first. With priors of
    /// `width`: the playout policy's move (a bridge saved) first, then the candidates in the
    /// order of their priors ([`rank_priors`], with the evaluator's weights), which go to
    /// `self.priors`.
    fn rank_candidates<G: Game<Move = M>, E: Evaluator<G>>(
        &mut self,
        game: &G,
        evaluator: &E,
        width: Option<f64>,
    ) {
        evaluator.candidate_moves(game, &mut self.moves);
        let Some(width) = width else {
            return;
        };
        let urgent = evaluator.playout_move(game);
        if let Some(at) = urgent.and_then(|mv| self.moves.iter().position(|&m| m == mv)) {
            self.moves[..=at].rotate_right(1);
        }
        evaluator.candidate_weights(game, &self.moves, &mut self.weights);
        if self.weights.len() == self.moves.len() {
            // Weighed by rank and weight, then sorted by that (a stable sort: ties by rank).
            self.ranked.clear();
            self.ranked.extend(
                self.moves
                    .iter()
                    .zip(&self.weights)
                    .enumerate()
                    .map(|(rank, (&mv, &weight))| ((-(rank as f64) / width).exp() * weight, mv)),
            );
            self.ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
            self.moves.clear();
            self.moves.extend(self.ranked.iter().map(|&(_, mv)| mv));
            self.weights.clear();
            self.weights
                .extend(self.ranked.iter().map(|&(weight, _)| weight));
        } else {
            self.weights.clear();
        }
        rank_priors(self.moves.len(), width, &self.weights, &mut self.priors);
    }

    /// Whether one of `self.moves` ends `game`.
    fn any_ends_game<G: Game<Move = M>>(&self, game: &mut G) -> bool {
        self.moves.iter().any(|&mv| {
            game.play(mv);
            let over = game.status().is_over();
            game.undo();
            over
        })
    }

    /// Makes the best-ranked unborn candidates of `id` (expanded, the position of `game`)
    /// children: as many as it has children, at least its first number of children
    /// ([`FIRST_CHILDREN`]), at most all.
    /// Returns the first of them, or `None` if the tree has no room.
    fn widen<G: Game<Move = M>, E: Evaluator<G>>(
        &mut self,
        id: NodeId,
        game: &mut G,
        evaluator: &E,
        width: f64,
    ) -> Option<NodeId> {
        let node = *self.tree.node(id);
        let born = node.children as usize;
        self.widen_by(id, game, evaluator, width, born.max(self.first_children))
    }

    /// Makes the `more` best-ranked unborn candidates of `id` (expanded, the position of
    /// `game`) children, or all of them if fewer. Returns the first of them, or `None` if
    /// the tree has no room or none is unborn.
    fn widen_by<G: Game<Move = M>, E: Evaluator<G>>(
        &mut self,
        id: NodeId,
        game: &mut G,
        evaluator: &E,
        width: f64,
        more: usize,
    ) -> Option<NodeId> {
        let node = *self.tree.node(id);
        let (born, count) = (
            node.children as usize,
            (node.children + node.unborn) as usize,
        );
        self.rank_candidates(game, evaluator, Some(width));
        // The ranking is the one of the expansion: its first `born` are the children.
        let more = more.min(count - born);
        if self.moves.len() != count || more == 0 || !self.tree.has_room(born + more) {
            return None;
        }
        self.tree
            .widen(id, &self.moves[born..born + more], game.to_move());
        self.weigh_children(id, game, born, born + more);
        Some(self.tree.node(id).first_child + born as NodeId)
    }

    /// Applies the evaluator's analysis to `id` (expanded, not proven, the position of
    /// `game`), once: every candidate becomes a child (nothing is done without the room), the
    /// moves it proves won or lost are proven (a proof found before stands), those it calls
    /// inferior are pruned, and `id` is proven if its children now prove it. When every move
    /// is inferior or lost, every move loses.
    fn analyse<G: Game<Move = M>, E: Evaluator<G>>(
        &mut self,
        id: NodeId,
        game: &mut G,
        evaluator: &E,
    ) {
        self.tree.node_mut(id).analysed = true;
        let unborn = self.tree.node(id).unborn as usize;
        if unborn > 0 {
            let width = evaluator.mcts_prior_width().unwrap_or(1.0);
            if self.widen_by(id, game, evaluator, width, unborn).is_none() {
                return;
            }
        }
        let node = *self.tree.node(id);
        self.moves.clear();
        self.moves.extend(
            node.child_ids()
                .map(|child| self.tree.node(child).mv.expect("a child has a move")),
        );
        evaluator.analyse(game, &self.moves, &mut self.verdicts);
        if self.verdicts.len() != self.moves.len() {
            return;
        }
        let lost = self
            .verdicts
            .iter()
            .all(|&v| matches!(v, MoveVerdict::Loses | MoveVerdict::Inferior));
        let plies = game.move_id_bound().saturating_sub(game.ply() + 1);
        for (child, &verdict) in node.child_ids().zip(&self.verdicts) {
            let child = self.tree.node_mut(child);
            let proof = match verdict {
                _ if child.proof.is_known() => continue,
                _ if lost => TreeProof::of_winner(child.side.opponent(), child.side, plies),
                MoveVerdict::Open => continue,
                MoveVerdict::Wins => TreeProof::of_winner(child.side, child.side, plies),
                MoveVerdict::Loses => {
                    TreeProof::of_winner(child.side.opponent(), child.side, plies)
                }
                MoveVerdict::Inferior => {
                    child.pruned = true;
                    continue;
                }
            };
            child.proof = proof;
        }
        update(&mut self.tree, id, game.to_move());
    }

    /// Gives the children of `id` (the position of `game`) of ranks `from..to` their priors
    /// (`self.priors`, of the ranking that made them), `id` the prior of the best unborn
    /// candidate after them, and proves those that end the game, then `id` if they decide it.
    fn weigh_children<G: Game<Move = M>>(
        &mut self,
        id: NodeId,
        game: &mut G,
        from: usize,
        to: usize,
    ) {
        self.tree.node_mut(id).unborn_prior = self.priors.get(to).copied().unwrap_or(0.0);
        let node = *self.tree.node(id);
        for (rank, child) in node.child_ids().enumerate().skip(from) {
            let child = self.tree.node_mut(child);
            child.prior = self.priors[rank];
            game.play(child.mv.expect("a child has a move"));
            if let Status::Over(outcome) = game.status() {
                child.proof = TreeProof::of_outcome(outcome, child.side);
            }
            game.undo();
        }
        update(&mut self.tree, id, game.to_move());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_games::hex::{Hex, SwapRule};
    use zerosum_games::{atoll::Atoll, EvaluatedGame};

    /// What a search did: its move, the root's moves that were tried with their visits (in
    /// move order), and the nodes of its tree.
    struct Outcome<M> {
        best_move: Option<M>,
        visits: Vec<(Option<M>, u32)>,
        nodes: usize,
    }

    /// The search of `game` for `playouts` playouts with `first_children` children at first.
    fn search_with<G: EvaluatedGame>(
        game: &G,
        playouts: u64,
        first_children: usize,
    ) -> Outcome<G::Move> {
        let mut mcts = Mcts::new(game.evaluator());
        mcts.first_children = first_children;
        let limits = SearchLimits {
            nodes: Some(playouts),
            ..SearchLimits::default()
        };
        let result = mcts.search(game, &limits, 256 << 20, |_| {});
        let tree = &mcts.workers[0].tree;
        let mut visits: Vec<_> = tree
            .node(ROOT)
            .child_ids()
            .map(|id| (tree.node(id).mv, tree.node(id).visits))
            .filter(|&(_, visits)| visits > 0)
            .collect();
        visits.sort_by_key(|&(mv, _)| game.move_id(mv.expect("a child has a move")));
        Outcome {
            best_move: result.best_move,
            visits,
            nodes: tree.len(),
        }
    }

    /// Children made only as PUCT needs them change nothing it chooses: with a playout limit
    /// (deterministic), every candidate a child at once and the first eight at first give the
    /// same move and the same visits of the root's moves, the second in a fraction of the
    /// nodes.
    #[test]
    fn unborn_candidates_change_no_choice_and_save_nodes() {
        let mut hex = Hex::new(11, 11, Some(SwapRule::Pieces));
        for mv in ["f6", "e7", "g4"] {
            hex.play_text(mv).unwrap();
        }
        let mut atoll = Atoll::new("standard", false).unwrap();
        let mut moves = Vec::new();
        atoll.legal_moves(&mut moves);
        atoll.play(moves[moves.len() / 2]);
        for (all, first_eight) in [
            (
                search_with(&hex, 3_000, usize::MAX),
                search_with(&hex, 3_000, 8),
            ),
            (
                search_with(&atoll, 3_000, usize::MAX),
                search_with(&atoll, 3_000, 8),
            ),
        ] {
            assert_eq!(all.best_move, first_eight.best_move);
            assert_eq!(all.visits, first_eight.visits);
            assert!(
                first_eight.nodes * 3 < all.nodes,
                "{} nodes against {}",
                first_eight.nodes,
                all.nodes
            );
        }
    }
}
