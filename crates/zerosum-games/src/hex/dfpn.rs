//! A depth-first proof-number solver of Hex positions (Nagai's df-pn with Pawlewicz and Lew's
//! 1 + ε thresholds, as Benzene's solver for 8x8 Hex; Henderson, Arneson and Hayward,
//! "Solving 8x8 Hex", IJCAI 2009), with Hex knowledge at every node:
//!
//! 1. **Fill-in** ([`super::inferior::fill_in`]): dead and captured cells are filled; the
//!    position keeps its value.
//! 2. **Virtual connections** ([`super::vc`]): a side to move with a full or semi connection
//!    between its edges has won; one whose opponent has a full connection has lost.
//! 3. **Mustplay**: only moves inside the intersection of the carriers of the opponent's semi
//!    connections between its edges are tried; none left and the position is lost.
//! 4. **Dominated moves** ([`super::inferior::dominated_moves`]) are not tried.
//! 5. The moves left are ordered by the evaluator's potentials
//!    ([`super::HexEvaluator::order_cells`]) and stored with the node, so each node is
//!    analysed once while it stays in the table.
//!
//! # Proof and disproof numbers
//!
//! Each node stores `(pn, dn)` for "the side to move wins": `pn` is the least number of
//! leaves still to prove it, `dn` to disprove it. A won node is `(0, ∞)`, a lost one
//! `(∞, 0)`. With the children (the opponent to move): `pn = min dn(child)` and
//! `dn = Σ pn(child)`. A new child counts `(1, 1)`. `MID(node, tpn, tdn)` searches below a
//! node until `pn >= tpn` or `dn >= tdn`, always into the child of least `dn`, with the
//! thresholds `tdn(child) = min(tpn, max(dn₂ + 1, ⌈dn₂ (1 + ε)⌉))` (`dn₂`: the second least)
//! and `tpn(child) = tdn - dn + pn(child)`. The 1 + ε (ε = 1/4) keeps the search longer in a
//! subtree before switching to a sibling.
//!
//! Hex cannot repeat a position, so the table needs no cycle handling. It holds at most
//! [`DfpnOptions::table_entries`] nodes; when full, the half that took the least work is
//! forgotten.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use zerosum_core::{zobrist_key, Game};

use super::cells::{other, words_for, Geometry, Position};
use super::inferior::{dominated_moves, fill_in};
use super::vc::{EdgeLink, VcBuilder, VcLimits};
use super::{Hex, HexEvaluator};
use crate::connection::{Stone, StoneMove};

/// A proof or disproof number that stands for infinity.
const INFINITE: u32 = 1 << 30;

/// Expansions between two looks at the clock and the stop flag.
const CLOCK_EVERY: u64 = 16;

/// The Zobrist feature of "White to move".
const WHITE_TO_MOVE: u64 = u64::MAX;

/// What the solver knows and how much it keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DfpnOptions {
    /// Fill in dead and captured cells and skip dominated moves.
    pub inferior: bool,
    /// Read connections between the edges (wins, losses and the mustplay). Without it, a
    /// node is only lost or won on the board.
    pub connections: bool,
    /// The H-search limits.
    pub vc: VcLimits,
    /// The ε of the 1 + ε thresholds.
    pub epsilon: f64,
    /// The most nodes the table keeps.
    pub table_entries: usize,
}

impl DfpnOptions {
    /// Everything on, ε = 1/4, and a table of `table_mb` MB (about 200 bytes a node).
    pub fn with_table_mb(table_mb: usize) -> DfpnOptions {
        DfpnOptions {
            inferior: true,
            connections: true,
            vc: VcLimits::DEFAULT,
            epsilon: 0.25,
            table_entries: (table_mb << 20) / 200,
        }
    }
}

impl Default for DfpnOptions {
    fn default() -> Self {
        DfpnOptions::with_table_mb(64)
    }
}

/// When a solve gives up: after so many expansions, at a deadline, or when a flag is set.
#[derive(Clone, Debug, Default)]
pub struct DfpnLimits {
    pub nodes: Option<u64>,
    pub deadline: Option<Instant>,
    pub stop: Option<Arc<AtomicBool>>,
}

/// The end of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DfpnResult {
    /// Whether the side to move wins; `None` when the limits ended the solve first.
    pub wins: Option<bool>,
    /// A winning move of a won position; for a lost one, the move whose refutation took the
    /// most work (the most stubborn). `None` when unsolved or when no move was searched (the
    /// loss was seen at once).
    pub best: Option<StoneMove>,
    /// Nodes expanded (each with its fill-in, two H-searches and its moves).
    pub nodes: u64,
    pub time: Duration,
}

/// Why the solver cannot take a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DfpnError {
    #[error("the game is over: there is nothing to solve")]
    Over,
    #[error("the swap move is legal now or next: the proof-number solver does not play it")]
    Swap,
    #[error("a {0}x{1} board is too big for the proof-number solver (at most 382 cells)")]
    TooBig(usize, usize),
    #[error("a {0}x{1} board is not this solver's {2}x{3}")]
    OtherSize(usize, usize, usize, usize),
}

/// The proof-number solver for one board size, whichever word count its cells need.
pub struct HexSolver {
    inner: Sized,
    meter: Arc<AtomicU64>,
}

enum Sized {
    One(Box<DfpnSolver<1>>),
    Two(Box<DfpnSolver<2>>),
    Four(Box<DfpnSolver<4>>),
    Six(Box<DfpnSolver<6>>),
}

impl HexSolver {
    /// A solver for `width x height` boards.
    pub fn new(width: usize, height: usize, options: DfpnOptions) -> Result<Self, DfpnError> {
        let meter = Arc::new(AtomicU64::new(0));
        let m = Arc::clone(&meter);
        let inner = match words_for(width * height) {
            Some(1) => Sized::One(Box::new(DfpnSolver::new(width, height, options, m))),
            Some(2) => Sized::Two(Box::new(DfpnSolver::new(width, height, options, m))),
            Some(4) => Sized::Four(Box::new(DfpnSolver::new(width, height, options, m))),
            Some(_) => Sized::Six(Box::new(DfpnSolver::new(width, height, options, m))),
            None => return Err(DfpnError::TooBig(width, height)),
        };
        Ok(HexSolver { inner, meter })
    }

    /// The nodes expanded so far by the solve under way, updated every 16 (for a progress
    /// display on another thread).
    pub fn meter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.meter)
    }

    /// Proves who wins `game` within `limits`. The table is kept from solve to solve.
    pub fn solve(&mut self, game: &Hex, limits: &DfpnLimits) -> Result<DfpnResult, DfpnError> {
        match &mut self.inner {
            Sized::One(solver) => solver.solve(game, limits),
            Sized::Two(solver) => solver.solve(game, limits),
            Sized::Four(solver) => solver.solve(game, limits),
            Sized::Six(solver) => solver.solve(game, limits),
        }
    }
}

/// A hasher for keys that are already Zobrist hashes.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A node of the table.
#[derive(Clone, Debug)]
struct Entry<const W: usize> {
    pn: u32,
    dn: u32,
    /// Expansions spent below this node.
    work: u64,
    /// The position after fill-in, where the moves are played.
    filled: Position<W>,
    /// Its hash, the side to move's included.
    filled_hash: u64,
    /// The moves tried, best first (empty for a node decided at once).
    moves: Box<[u16]>,
}

/// The solver on boards of `64 * W - 2` cells at most.
pub struct DfpnSolver<const W: usize> {
    geometry: Geometry<W>,
    options: DfpnOptions,
    builders: [VcBuilder<W>; 2],
    evaluator: HexEvaluator,
    table: HashMap<u64, Entry<W>, BuildHasherDefault<KeyHasher>>,
    board: Vec<Stone>,
    nodes: u64,
    limits: DfpnLimits,
    stopped: bool,
    meter: Arc<AtomicU64>,
}

/// The hash of a position with `mover` to move.
fn hash_of<const W: usize>(position: &Position<W>, mover: Stone) -> u64 {
    let mut hash = if mover == Stone::White {
        zobrist_key(WHITE_TO_MOVE)
    } else {
        0
    };
    for colour in [Stone::Black, Stone::White] {
        for cell in position.stones(colour).iter() {
            hash ^= zobrist_key(colour.feature(cell));
        }
    }
    hash
}

impl<const W: usize> DfpnSolver<W> {
    /// A solver for `width x height` boards.
    ///
    /// Panics unless the board fits `W` words (see [`words_for`]).
    pub fn new(width: usize, height: usize, options: DfpnOptions, meter: Arc<AtomicU64>) -> Self {
        let geometry = Geometry::new(width, height);
        let builders = [
            VcBuilder::new(&geometry, options.vc),
            VcBuilder::new(&geometry, options.vc),
        ];
        DfpnSolver {
            evaluator: HexEvaluator::new(width, height),
            builders,
            geometry,
            options,
            table: HashMap::default(),
            board: vec![Stone::Empty; width * height],
            nodes: 0,
            limits: DfpnLimits::default(),
            stopped: false,
            meter,
        }
    }

    /// Proves who wins `game` within `limits`.
    pub fn solve(&mut self, game: &Hex, limits: &DfpnLimits) -> Result<DfpnResult, DfpnError> {
        let start = Instant::now();
        let (width, height) = (self.geometry.width(), self.geometry.height());
        if (game.width(), game.height()) != (width, height) {
            return Err(DfpnError::OtherSize(
                game.width(),
                game.height(),
                width,
                height,
            ));
        }
        if game.status().is_over() {
            return Err(DfpnError::Over);
        }
        if game.swap_rule().is_some() && game.ply() <= 1 {
            return Err(DfpnError::Swap);
        }
        self.nodes = 0;
        self.stopped = false;
        self.limits = limits.clone();
        self.meter.store(0, Ordering::Relaxed);
        let position = Position::of(game);
        let mover = game.colour_of(game.to_move());
        let hash = hash_of(&position, mover);
        // The root is expanded without its own connection test, so that a won root names
        // its winning move (a child the opponent has lost).
        // A root met before as a node won by connections (no moves kept) is expanded again.
        let known = self.table.get(&hash);
        if known.is_none_or(|entry| entry.pn == 0 && entry.moves.is_empty()) {
            let entry = self.expand(&position, mover, true);
            self.table.insert(hash, entry);
        }
        let (pn, dn) = self.mid(hash, mover, INFINITE, INFINITE);
        let wins = if pn == 0 {
            Some(true)
        } else if dn == 0 {
            Some(false)
        } else {
            None
        };
        let best = wins.and_then(|wins| self.best_move(hash, mover, wins));
        Ok(DfpnResult {
            wins,
            best: best.map(|cell| StoneMove::Place(cell as u16)),
            nodes: self.nodes,
            time: start.elapsed(),
        })
    }

    /// A winning move of the solved node `hash` (a child lost for the opponent, the one that
    /// took the least work), or for a lost node the move that took the most.
    fn best_move(&self, hash: u64, mover: Stone, wins: bool) -> Option<usize> {
        let entry = self.table.get(&hash)?;
        let children = entry.moves.iter().map(|&cell| {
            let key = entry.filled_hash ^ Self::move_key(mover, cell as usize);
            (cell as usize, self.table.get(&key))
        });
        if wins {
            children
                .filter_map(|(cell, child)| child.filter(|c| c.dn == 0).map(|c| (c.work, cell)))
                .min()
                .map(|(_, cell)| cell)
        } else {
            children
                .map(|(cell, child)| (child.map_or(0, |c| c.work), std::cmp::Reverse(cell)))
                .max()
                .map(|(_, std::cmp::Reverse(cell))| cell)
        }
    }

    /// What a stone of `mover` on `cell` changes in the hash, the turn passing included.
    #[inline]
    fn move_key(mover: Stone, cell: usize) -> u64 {
        zobrist_key(mover.feature(cell)) ^ zobrist_key(WHITE_TO_MOVE)
    }

    /// Whether the limits end the solve; checks the clock every few expansions.
    fn must_stop(&mut self) -> bool {
        if !self.stopped {
            if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
                self.stopped = true;
            } else if self.nodes.is_multiple_of(CLOCK_EVERY) {
                self.meter.store(self.nodes, Ordering::Relaxed);
                self.stopped = self.limits.deadline.is_some_and(|d| Instant::now() >= d)
                    || self
                        .limits
                        .stop
                        .as_ref()
                        .is_some_and(|flag| flag.load(Ordering::Relaxed));
            }
        }
        self.stopped
    }

    /// The analysis of a new node: fill-in, connections, the moves to try (see the module
    /// documentation). `root`: skip the test of the mover's own connection.
    fn expand(&mut self, position: &Position<W>, mover: Stone, root: bool) -> Entry<W> {
        self.nodes += 1;
        let mut filled = *position;
        if self.options.inferior {
            fill_in(&self.geometry, &mut filled);
        }
        let filled_hash = hash_of(&filled, mover);
        let decided = |pn, dn| Entry {
            pn,
            dn,
            work: 1,
            filled,
            filled_hash,
            moves: Box::new([]),
        };
        let opponent = other(mover);
        let empty = filled.empty(&self.geometry);
        if filled.has_won(&self.geometry, opponent) {
            return decided(INFINITE, 0);
        }
        if filled.has_won(&self.geometry, mover) {
            return decided(0, INFINITE);
        }
        let mut candidates = empty;
        if self.options.connections {
            let [own, theirs] = &mut self.builders;
            if !root {
                own.build(&self.geometry, &filled, mover, EdgeLink::Semi);
                if own.edge_link() != EdgeLink::None {
                    return decided(0, INFINITE);
                }
            }
            theirs.build(&self.geometry, &filled, opponent, EdgeLink::Full);
            match theirs.edge_link() {
                EdgeLink::Joined | EdgeLink::Full => return decided(INFINITE, 0),
                EdgeLink::Semi => {
                    let mustplay = theirs.mustplay().unwrap_or(empty);
                    candidates = candidates.intersection(&mustplay);
                }
                EdgeLink::None => {}
            }
        }
        if self.options.inferior {
            let dominated = dominated_moves(&self.geometry, &filled, mover, &candidates);
            candidates = candidates.minus(&dominated);
        }
        if candidates.is_empty() {
            return decided(INFINITE, 0);
        }
        let mut moves: Vec<usize> = candidates.iter().collect();
        for (cell, slot) in self.board.iter_mut().enumerate() {
            *slot = filled.stone(cell);
        }
        self.evaluator.order_cells(&self.board, &mut moves);
        Entry {
            pn: 1,
            dn: 1,
            work: 1,
            filled,
            filled_hash,
            moves: moves.into_iter().map(|cell| cell as u16).collect(),
        }
    }

    /// The bounds of the child `key` (a position after one of the moves), `(1, 1)` when it
    /// is not in the table.
    #[inline]
    fn child_bounds(&self, key: u64) -> (u32, u32) {
        self.table.get(&key).map_or((1, 1), |e| (e.pn, e.dn))
    }

    /// Searches below the node `hash` (in the table, `mover` to move) until its proof number
    /// reaches `tpn` or its disproof number `tdn`; returns its bounds.
    fn mid(&mut self, hash: u64, mover: Stone, tpn: u32, tdn: u32) -> (u32, u32) {
        let Some(entry) = self.table.get(&hash) else {
            return (1, 1);
        };
        if entry.moves.is_empty() || entry.pn == 0 || entry.dn == 0 {
            return (entry.pn, entry.dn);
        }
        let moves = entry.moves.clone();
        let filled = entry.filled;
        let filled_hash = entry.filled_hash;
        let mut work = entry.work;
        let keys: Vec<u64> = moves
            .iter()
            .map(|&cell| filled_hash ^ Self::move_key(mover, cell as usize))
            .collect();
        let (mut pn, mut dn);
        loop {
            // The node's bounds from its children's, and the child of least dn.
            pn = INFINITE;
            let mut sum: u64 = 0;
            let (mut best, mut second) = (0, INFINITE);
            for (index, &key) in keys.iter().enumerate() {
                let (cpn, cdn) = self.child_bounds(key);
                sum += u64::from(cpn);
                if cdn < pn {
                    second = pn;
                    pn = cdn;
                    best = index;
                } else if cdn < second {
                    second = cdn;
                }
            }
            dn = if pn == 0 {
                INFINITE
            } else {
                sum.min(u64::from(INFINITE)) as u32
            };
            if pn >= tpn || dn >= tdn || self.stopped {
                break;
            }
            let key = keys[best];
            let (cpn, _) = self.child_bounds(key);
            let widened = ((f64::from(second) * (1.0 + self.options.epsilon)).ceil() as u64)
                .max(u64::from(second) + 1)
                .min(u64::from(INFINITE)) as u32;
            let child_tdn = tpn.min(widened);
            let child_tpn =
                (u64::from(tdn) - u64::from(dn) + u64::from(cpn)).min(u64::from(INFINITE)) as u32;
            let before = self.nodes;
            if !self.table.contains_key(&key) {
                if self.must_stop() {
                    break;
                }
                let mut child = filled;
                child.add(mover, moves[best] as usize);
                let entry = self.expand(&child, other(mover), false);
                self.store(key, entry);
            }
            self.mid(key, other(mover), child_tpn, child_tdn);
            work += self.nodes - before;
            if self.must_stop() {
                break;
            }
        }
        let entry = Entry {
            pn,
            dn,
            work,
            filled,
            filled_hash,
            moves,
        };
        self.store(hash, entry);
        (pn, dn)
    }

    /// Stores a node, first forgetting the least worked half of the table when it is full.
    fn store(&mut self, hash: u64, entry: Entry<W>) {
        if self.table.len() >= self.options.table_entries.max(16) && !self.table.contains_key(&hash)
        {
            let mut works: Vec<u64> = self.table.values().map(|e| e.work).collect();
            let middle = works.len() / 2;
            let (_, &mut median, _) = works.select_nth_unstable(middle);
            self.table.retain(|_, e| e.work > median);
        }
        self.table.insert(hash, entry);
    }
}
