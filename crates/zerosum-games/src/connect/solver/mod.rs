//! An exact Connect-X solver for packed boards (`cols * (rows + 1) <= 64` or `128` bits), any
//! run length, after Pascal Pons' Connect Four solver.
//!
//! # Scores
//!
//! Values are from the side to move: 0 for a draw; a win scores, for the winner, one more than
//! half the number of cells left empty after the winning stone, rounded down (sooner wins score
//! higher), and the loser gets the opposite. This is Pons' `(W*H + 1 - moves) / 2`, `moves`
//! counting the stones before the winning one; on boards of an even number of cells it is
//! also `(W*H + 1) / 2 + 1 - n` for a win with the winner's `n`-th stone, and on the 7x6 board
//! 22 minus the winner's stones. A weak solve gives only the sign (-1, 0, 1), and is much
//! faster.
//!
//! # Method
//!
//! Negamax with alpha-beta ([`search`](self)), run as a series of null-window probes that narrow
//! the interval of possible values: first halfway to each extreme (cheap, and enough when the
//! game ends early), then the sign, then one step at a time away from 0. At each node: the
//! opponent's immediate threats force or lose the game, moves just below an opponent's threat
//! are never played, and the number of stones bounds the value. Allis' claimeven (the
//! opponent answering every stone with one on top of it, and a stone that starts a column with
//! an odd number of empty cells by starting another) caps the value at a draw or a loss when
//! the side to move cannot make a run of the cells that leaves it, at the node before the table
//! is read and, as a cutoff without a search, at each child. A transposition table
//! ([`table`](self)) keeps an upper and a lower bound and the best move of each position
//! with at least 10 empty cells (closer to the end, searching is cheaper than a probe); a
//! position and its mirror image share one entry, and a symmetric position searches only half
//! its moves. The table's best move is searched first, before the other moves are generated;
//! while the others are generated, a move after which the opponent cannot stop a win with the
//! stone after next ends the search, and without one the value is at most a win with the stone
//! after that; then, far from the end, every child is looked up (enhanced transposition
//! cutoff; the children's entries start loading as the node is entered), and the children are searched by the useful threats they create (those not right
//! above an opponent's), those a single stone from playable counting most and those playable
//! at once a little extra, centre first among equals.
//!
//! With threads ([`ConnectSolver::set_threads`]), helpers search the same position over the shared
//! table, probing ahead of the main thread, and every thread leaves the children another is
//! searching, far from the end, for after its other moves (ABDADA's deferral).
//!
//! Contract: [`ConnectSolver::solve`] needs a game that is not over (else
//! [`SolveError::GameOver`]); the side to move may be able to win at once.
//! [`ConnectSolver::solve_within`] and [`ConnectSolver::analyze_within`] also stop at the
//! [`SolveLimits`] (nodes, a deadline, a stop flag), with [`SolveError::Interrupted`].

mod busy;
mod order;
mod position;
mod search;
mod table;

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use zerosum_core::Game;

use super::{Bits, Column, ConnectX, Packed};
use busy::Busy;
use position::{Geometry, Position};
use search::Worker;
use table::Table;

/// Why a position cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The game is over: there is nothing to solve.
    GameOver,
    /// The game's board is not the one the solver was made for.
    WrongSize {
        /// The solver's rows, columns and run length.
        solver: (usize, usize, usize),
        /// The game's.
        game: (usize, usize, usize),
    },
    /// A limit of [`SolveLimits`] ended the solve before it had the value. What the table
    /// learnt stays (it holds only true bounds), so solving again later is not wasted.
    Interrupted,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::GameOver => write!(f, "the game is over"),
            SolveError::WrongSize { solver, game } => write!(
                f,
                "the solver is for {}x{}x{} boards, the game is {}x{}x{}",
                solver.0, solver.1, solver.2, game.0, game.1, game.2
            ),
            SolveError::Interrupted => write!(f, "the solve was interrupted by a limit"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Limits that end a solve early with [`SolveError::Interrupted`]; the default has none.
///
/// The time and the flag are checked every few thousand positions, so a solve stops within
/// microseconds of a deadline or a raised flag; the node limit is met exactly (the solve stops
/// at the first position past it, which [`ConnectSolver::nodes`] counts).
#[derive(Clone, Debug, Default)]
pub struct SolveLimits {
    /// Most positions to search (for [`ConnectSolver::analyze_within`], in all its solves).
    pub nodes: Option<u64>,
    /// Time by which to give up.
    pub deadline: Option<Instant>,
    /// Gives up when another thread sets it.
    pub stop: Option<Arc<AtomicBool>>,
}

/// Posts `value` as the solve's value, if no thread did already, and raises `found`.
fn post(posted: &std::sync::Mutex<Option<i32>>, found: &AtomicBool, value: i32) {
    let mut slot = posted.lock().unwrap_or_else(|e| e.into_inner());
    slot.get_or_insert(value);
    found.store(true, Ordering::Relaxed);
}

/// With threads, a solve runs alone for this many nodes (a few milliseconds) before it starts
/// the helpers.
const ALONE_NODES: u64 = 50_000;

/// Positions searched between two checks of the time and the stop flag.
const CHECK_INTERVAL: u64 = 4096;

/// The limits of the solve under way, as the search checks them.
#[derive(Clone, Debug)]
struct Limiter {
    /// The node count at which the limits are next checked.
    check_at: u64,
    /// The solve ends when the node count passes this.
    node_limit: u64,
    deadline: Option<Instant>,
    /// The caller's stop flag, and with threads the flag raised when a thread has the value.
    stops: Vec<Arc<AtomicBool>>,
    /// A limit was hit: the search unwinds without storing anything.
    interrupted: bool,
}

impl Limiter {
    /// The limits of `limits`, after `spent` of its nodes were already searched.
    fn new(limits: &SolveLimits, spent: u64) -> Self {
        let node_limit = limits.nodes.map_or(u64::MAX, |n| n.saturating_sub(spent));
        let mut limiter = Limiter {
            check_at: 0,
            node_limit,
            deadline: limits.deadline,
            stops: limits.stop.iter().cloned().collect(),
            interrupted: false,
        };
        limiter.schedule(0);
        limiter
    }

    /// These limits, and a stop when `stop` is raised.
    fn or_stopped_by(mut self, stop: &Arc<AtomicBool>) -> Self {
        self.stops.push(stop.clone());
        self.schedule(0);
        self
    }

    /// These limits, with at most `nodes` nodes.
    fn capped(mut self, nodes: u64) -> Self {
        self.node_limit = self.node_limit.min(nodes);
        self.schedule(0);
        self
    }

    /// Sets the next check after `nodes` nodes: at the first node past the node limit, and
    /// every [`CHECK_INTERVAL`] nodes if there is a clock or a flag to look at.
    fn schedule(&mut self, nodes: u64) {
        let past_limit = self.node_limit.saturating_add(1);
        self.check_at = if self.deadline.is_some() || !self.stops.is_empty() {
            (nodes + CHECK_INTERVAL).min(past_limit)
        } else {
            past_limit
        };
    }

    /// Called when `nodes` reaches `check_at`: true (and from then on) if a limit is hit,
    /// else the next check is scheduled.
    #[cold]
    fn poll(&mut self, nodes: u64) -> bool {
        if !self.interrupted {
            self.interrupted = nodes > self.node_limit
                || self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.stops.iter().any(|s| s.load(Ordering::Relaxed));
        }
        if !self.interrupted {
            self.schedule(nodes);
        }
        self.interrupted
    }
}

/// An exact solver for one board size, owning its transposition table.
///
/// The table keeps what it learns across calls (every bound in it is a true bound of the game,
/// whatever the root), so solving many positions of one game in a row gets faster; call
/// [`ConnectSolver::reset`] for independent measurements.
#[derive(Clone, Debug)]
pub struct ConnectSolver<B: Bits> {
    geometry: Geometry<B>,
    table: Table<B>,
    /// Search threads (at least 1).
    threads: usize,
    /// Nodes searched by the last call, by every thread.
    nodes: u64,
}

impl<B: Bits> ConnectSolver<B> {
    /// The default size of the transposition table, in MB.
    pub const DEFAULT_TABLE_MB: usize = 64;

    /// A solver for `rows` x `cols` boards with runs of `k`, with a transposition table of
    /// about `table_mb` MB (a power of two of 64-byte buckets at most that size).
    ///
    /// # Panics
    ///
    /// If the board does not fit a packed board of `B` (`cols * (rows + 1) <= B::BITS`) or a
    /// size is 0.
    pub fn new(rows: usize, cols: usize, k: usize, table_mb: usize) -> Self {
        ConnectSolver {
            geometry: Geometry::new(rows, cols, k),
            table: Table::new(table_mb),
            threads: 1,
            nodes: 0,
        }
    }

    /// Searches with `threads` threads from now on (0 counts as 1): the caller's and
    /// `threads - 1` helpers that search the same position over the shared table (Lazy SMP)
    /// and stop when the caller's search ends. The answers are the same; with 1 thread (the
    /// default) the search is the same too, node for node.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Size of the transposition table in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Number of positions searched by the last solve (for [`ConnectSolver::analyze`], by all its
    /// solves), by all the threads. A position counts once per visit, table hits and forced
    /// losses included.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Empties the transposition table, in O(1) (a new generation; the memory is really wiped
    /// once every 65535 resets).
    pub fn reset(&mut self) {
        self.table.clear();
    }

    /// The solver's position of `game`, after checking it is a board of this solver's size and
    /// that the game goes on.
    fn position(&self, game: &ConnectX<Packed<B>>) -> Result<Position<B>, SolveError> {
        let g = &self.geometry;
        let solver = (g.rows as usize, g.cols as usize, g.k as usize);
        let size = (game.rows(), game.cols(), game.k());
        if size != solver {
            return Err(SolveError::WrongSize { solver, game: size });
        }
        if game.status().is_over() {
            return Err(SolveError::GameOver);
        }
        let (current, mask) = game.board().bits();
        Ok(Position::new(g, current, mask, game.ply() as u32))
    }

    /// The value of `game` for the side to move (see the module documentation), or only its
    /// sign if `weak`. The side to move may be able to win at once.
    pub fn solve(&mut self, game: &ConnectX<Packed<B>>, weak: bool) -> Result<i32, SolveError> {
        self.solve_within(game, weak, &SolveLimits::default())
    }

    /// The exact value of `pos` (its sign only if `weak`), or `None` if `limits`, of which
    /// `spent` nodes are already used, end the search first; with the solver's threads.
    /// Precondition: the game is not over.
    fn solve_position(
        &mut self,
        pos: &Position<B>,
        weak: bool,
        limits: &SolveLimits,
        spent: u64,
    ) -> Option<i32> {
        let (geometry, table) = (&self.geometry, &self.table);
        let limiter = Limiter::new(limits, spent);
        if self.threads == 1 {
            let mut main = Worker::new(geometry, table, limiter);
            let value = main.solve_position(pos, weak);
            self.nodes = main.nodes;
            return value;
        }
        // Alone first: most positions need few nodes, fewer than starting threads costs.
        let mut alone = Worker::new(geometry, table, limiter.capped(ALONE_NODES));
        if let Some(value) = alone.solve_position(pos, weak) {
            self.nodes = alone.nodes;
            return Some(value);
        }
        let alone_nodes = alone.nodes;
        // The first thread to find the value posts it and raises `found`, which stops the
        // others; the main thread also stops at the caller's limits.
        let found = Arc::new(AtomicBool::new(false));
        let posted = std::sync::Mutex::new(None);
        let busy = Busy::new();
        let (value, nodes) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..self.threads)
                .map(|index| {
                    let limiter = Limiter::new(limits, u64::MAX).or_stopped_by(&found);
                    let limiter = Limiter {
                        node_limit: u64::MAX,
                        ..limiter
                    };
                    let (pos, found, posted, busy) = (*pos, &found, &posted, &busy);
                    scope.spawn(move || {
                        let mut helper =
                            Worker::helper(geometry, table, limiter, index).sharing(busy);
                        if let Some(value) = helper.solve_position(&pos, weak) {
                            post(posted, found, value);
                        }
                        helper.nodes
                    })
                })
                .collect();
            let limiter = Limiter::new(limits, spent + alone_nodes).or_stopped_by(&found);
            let mut main = Worker::new(geometry, table, limiter).sharing(&busy);
            if let Some(value) = main.solve_position(pos, weak) {
                post(&posted, &found, value);
            }
            found.store(true, Ordering::Relaxed);
            let helper_nodes: u64 = helpers
                .into_iter()
                .map(|helper| {
                    helper
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .sum();
            let value = *posted.lock().unwrap_or_else(|e| e.into_inner());
            (value, main.nodes + helper_nodes)
        });
        self.nodes = alone_nodes + nodes;
        value
    }

    /// [`ConnectSolver::solve`] within `limits`: [`SolveError::Interrupted`] when one is hit first.
    pub fn solve_within(
        &mut self,
        game: &ConnectX<Packed<B>>,
        weak: bool,
        limits: &SolveLimits,
    ) -> Result<i32, SolveError> {
        let pos = self.position(game)?;
        self.solve_position(&pos, weak, limits, 0)
            .ok_or(SolveError::Interrupted)
    }

    /// The exact value, for the side to move in `game`, of each column played (only its sign
    /// if `weak`): `None` if the column is full, the immediate win's score if it wins at once,
    /// 0 if it fills the board. The largest entry is [`ConnectSolver::solve`]'s value.
    pub fn analyze(
        &mut self,
        game: &ConnectX<Packed<B>>,
        weak: bool,
    ) -> Result<Vec<Option<i32>>, SolveError> {
        self.analyze_within(game, weak, &SolveLimits::default())
    }

    /// [`ConnectSolver::analyze`] within `limits` (its node limit counts the nodes of all the
    /// columns): [`SolveError::Interrupted`] when one is hit first.
    pub fn analyze_within(
        &mut self,
        game: &ConnectX<Packed<B>>,
        weak: bool,
        limits: &SolveLimits,
    ) -> Result<Vec<Option<i32>>, SolveError> {
        let pos = self.position(game)?;
        let g = &self.geometry;
        let winning = g.winning_cells(pos.current, pos.mask);
        let possible = pos.playable(g);
        let mut total_nodes = 0;
        let mut values = Vec::with_capacity(g.cols as usize);
        for col in 0..g.cols as usize {
            let g = &self.geometry;
            let cell = possible & g.column(col);
            let value = if cell == B::ZERO {
                None
            } else if cell & winning != B::ZERO {
                let score = g.win_score(pos.moves + 1);
                Some(if weak { score.signum() } else { score })
            } else if pos.moves + 1 == g.cells {
                Some(0)
            } else {
                let child = pos.played(g, col);
                let value = self.solve_position(&child, weak, limits, total_nodes);
                total_nodes += self.nodes;
                let Some(value) = value else {
                    self.nodes = total_nodes;
                    return Err(SolveError::Interrupted);
                };
                Some(-value)
            };
            values.push(value);
        }
        self.nodes = total_nodes;
        Ok(values)
    }

    /// The columns whose value is the best of [`ConnectSolver::analyze`], in increasing order: the
    /// moves that keep the exact value, or with `weak` the win, draw or loss.
    pub fn best_moves(
        &mut self,
        game: &ConnectX<Packed<B>>,
        weak: bool,
    ) -> Result<Vec<Column>, SolveError> {
        let values = self.analyze(game, weak)?;
        let best = values.iter().flatten().max().copied();
        Ok((0..values.len())
            .filter(|&col| values[col].is_some() && values[col] == best)
            .map(|col| col as Column)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// The 7x6 position after `moves` (0-based columns).
    fn position(moves: &[Column]) -> ConnectX<Packed<u64>> {
        let mut game = ConnectX::new(6, 7, 4);
        for &col in moves {
            game.play(col);
        }
        game
    }

    /// Pons' `2531276566711153` (Test_L2_R2, value 2), 0-based.
    const MOVES: [Column; 16] = [1, 4, 2, 0, 1, 6, 5, 4, 5, 5, 6, 0, 0, 0, 4, 2];

    #[test]
    fn no_limits_and_generous_limits_search_the_same_tree() {
        let game = position(&MOVES);
        let mut solver = ConnectSolver::<u64>::new(6, 7, 4, 4);
        let value = solver.solve(&game, false).unwrap();
        let nodes = solver.nodes();
        assert!(
            nodes > 20_000 && value == 2,
            "{nodes} nodes: too easy to interrupt"
        );
        let generous = SolveLimits {
            nodes: Some(nodes),
            deadline: Some(Instant::now() + Duration::from_secs(3600)),
            stop: Some(Arc::new(AtomicBool::new(false))),
        };
        solver.reset();
        assert_eq!(solver.solve_within(&game, false, &generous), Ok(value));
        assert_eq!(solver.nodes(), nodes);
    }

    #[test]
    fn a_node_limit_interrupts_exactly_and_leaves_a_usable_table() {
        let game = position(&MOVES);
        let mut solver = ConnectSolver::<u64>::new(6, 7, 4, 4);
        let value = solver.solve(&game, false).unwrap();
        let nodes = solver.nodes();
        for limit in [0, 1, 1000, nodes / 2, nodes - 1] {
            solver.reset();
            let limits = SolveLimits {
                nodes: Some(limit),
                ..SolveLimits::default()
            };
            assert_eq!(
                solver.solve_within(&game, false, &limits),
                Err(SolveError::Interrupted),
                "limit {limit}"
            );
            // The node that passed the limit counts.
            assert_eq!(solver.nodes(), limit + 1, "limit {limit}");
            // What the interrupted solve stored is true: the full solve still finds the value.
            assert_eq!(solver.solve(&game, false), Ok(value), "limit {limit}");
            assert_eq!(
                solver.solve(&game, true),
                Ok(value.signum()),
                "limit {limit}"
            );
        }
    }

    #[test]
    fn a_raised_stop_flag_or_a_past_deadline_interrupts() {
        let game = position(&MOVES);
        let mut solver = ConnectSolver::<u64>::new(6, 7, 4, 4);
        let stopped = SolveLimits {
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..SolveLimits::default()
        };
        assert_eq!(
            solver.solve_within(&game, false, &stopped),
            Err(SolveError::Interrupted)
        );
        assert_eq!(solver.nodes(), CHECK_INTERVAL);
        let late = SolveLimits {
            deadline: Some(Instant::now()),
            ..SolveLimits::default()
        };
        assert_eq!(
            solver.analyze_within(&game, false, &late),
            Err(SolveError::Interrupted)
        );
        assert_eq!(
            SolveError::Interrupted.to_string(),
            "the solve was interrupted by a limit"
        );
    }

    #[test]
    fn a_stop_flag_raised_by_another_thread_interrupts() {
        // The empty board takes far longer than this test may.
        let game = position(&[]);
        let mut solver = ConnectSolver::<u64>::new(6, 7, 4, 4);
        let stop = Arc::new(AtomicBool::new(false));
        let limits = SolveLimits {
            stop: Some(stop.clone()),
            ..SolveLimits::default()
        };
        let raiser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
        });
        assert_eq!(
            solver.solve_within(&game, false, &limits),
            Err(SolveError::Interrupted)
        );
        raiser.join().unwrap();
    }

    #[test]
    fn analyze_counts_its_node_limit_over_every_column() {
        let game = position(&MOVES);
        let mut solver = ConnectSolver::<u64>::new(6, 7, 4, 4);
        let values = solver.analyze(&game, false).unwrap();
        let nodes = solver.nodes();
        solver.reset();
        let exact = SolveLimits {
            nodes: Some(nodes),
            ..SolveLimits::default()
        };
        assert_eq!(solver.analyze_within(&game, false, &exact), Ok(values));
        solver.reset();
        let short = SolveLimits {
            nodes: Some(nodes - 1),
            ..SolveLimits::default()
        };
        assert_eq!(
            solver.analyze_within(&game, false, &short),
            Err(SolveError::Interrupted)
        );
        assert_eq!(solver.nodes(), nodes);
    }
}
