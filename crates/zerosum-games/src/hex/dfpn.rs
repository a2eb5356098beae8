//! A depth-first proof-number solver of Hex positions (Nagai's df-pn with Pawlewicz and Lew's
//! 1 + ε thresholds, as Benzene's solver for 8x8 Hex; Henderson, Arneson and Hayward,
//! "Solving 8x8 Hex", IJCAI 2009), with Hex knowledge at every node:
//!
//! 1. **Fill-in** ([`super::inferior::fill_in_with_regions`]): dead cells, captured pairs and captured
//!    regions ([`super::regions`]) are filled; the
//!    position keeps its value, and so does each position after a move on a cell left
//!    empty (deadness and capture hold in every position reached), so the moves are
//!    played on the filled position.
//! 2. **Virtual connections** ([`super::vc`]): a side to move with a full or semi connection
//!    between its edges has won; one whose opponent has a full connection has lost. Each
//!    colour's connections are built from those of the parent (Benzene's incremental
//!    H-search, [`VcBuilder::build_from`]): a builder per depth keeps its last build, and a
//!    node starts from the deepest one on a position its own extends, from scratch when none
//!    does ([`DfpnOptions::incremental`]). Measured on `solve hex:7 --moves g5`: 35% less
//!    processor time per position.
//! 3. **Mustplay**: only moves inside the intersection of the carriers of the opponent's semi
//!    connections between its edges are tried; none left and the position is lost.
//! 4. **Dominated moves** ([`super::inferior::dominated_moves_with_reason`]: vulnerable and
//!    capture-dominated cells) are not tried.
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
//! # Proofs and proof pruning
//!
//! A solved node keeps a **proof**: a set `P` of its empty cells such that its winner still
//! wins, with the same side to move, in every position with the winner's stones, `P` empty
//! and anything anywhere else (the loser may have every other empty cell: more stones of
//! the loser never help the winner, so that one position is the test). Built bottom up:
//!
//! - a leaf: the carrier of the winner's connection (none for a chain of stones);
//! - a won node: its winning move and that child's proof (the smallest such);
//! - a lost node: every refuted move and its refutation's proof, the carriers of the
//!   opponent's semis that make the mustplay ([`VcBuilder::mustplay_with_reason`]), the
//!   dominated moves with their dominators;
//! - always the fill-in and the empty cells it read ([`super::inferior::support`]), so the
//!   same fill-in holds in every position the proof speaks of.
//!
//! **Proof pruning** (Henderson, Arneson and Hayward's mustplay shrinking): once a move is
//! refuted with proof `P`, every move outside `P` is refuted by the same strategy (the
//! mover's stone there leaves `P` empty), so it is dropped from the node; the node keeps `P`
//! for its own proof.
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

use super::cells::{other, words_for, CellSet, Geometry, Position};
use super::inferior::{dominated_moves_with_reason, fill_in_with_regions, support};
use super::vc::{EdgeLink, VcBuilder, VcLimits};
use super::{Hex, HexEvaluator};
use crate::connection::{Stone, StoneMove};

/// A proof or disproof number that stands for infinity.
const INFINITE: u32 = 1 << 30;

/// Expansions between two looks at the clock and the stop flag.
const CLOCK_EVERY: u64 = 16;

/// The Zobrist feature of "White to move": the empty slot of cell 0, never a stone's
/// (`zobrist_key(u64::MAX)` is 0: that feature left the side to move out of the hash, and
/// fill-in makes the same stones with either side to move).
const WHITE_TO_MOVE: u64 = 0;

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
    /// Build a node's connections from those of a position below it on the search path
    /// (its parent's, as a rule; [`VcBuilder::build_from`]) rather than from scratch.
    pub incremental: bool,
    /// Drop the moves outside the proof of a sibling's refutation (see the module
    /// documentation).
    pub proof_pruning: bool,
    /// The ε of the 1 + ε thresholds.
    pub epsilon: f64,
    /// Widening (Benzene's): only the first `base + ⌈factor · n⌉` of a node's `n` moves not
    /// yet refuted, in the evaluator's order, are searched into (a node's proof number is the
    /// least disproof number among them); its disproof number still sums all. `None`: every
    /// move.
    pub widening: Option<(u32, f64)>,
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
            incremental: true,
            proof_pruning: true,
            epsilon: 0.25,
            widening: Some((1, 0.25)),
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
    /// For a solved position, the empty cells its winner's win depends on: the winner still
    /// wins when the loser has every other empty cell (see the module documentation).
    pub proof: Option<Vec<usize>>,
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
    #[error("a {0}x{1} board is too big for the proof-number solver (at most 384 cells)")]
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
    /// The cells the fill-in filled (empty in the node's position) and those it read.
    fill: CellSet<W>,
    /// Solved: the proof (empty cells of the node's position, the fill-in's included).
    /// Unsolved: what a loss of the side to move needs besides its children's proofs (the
    /// fill-in, the reason of the mustplay, the dominated moves and their dominators, the
    /// proofs that pruned moves).
    proof: CellSet<W>,
    /// The moves tried, best first (empty for a node decided at once); proof pruning
    /// removes moves from it.
    moves: Box<[u16]>,
}

/// The solver on boards of `64 * W` cells at most.
pub struct DfpnSolver<const W: usize> {
    geometry: Geometry<W>,
    options: DfpnOptions,
    /// Per depth of the search, H-search builders for Black and White, each keeping its
    /// last build: a node's connections are built from those of the deepest of them on a
    /// position its own extends (its parent's, when the parent was the last node expanded at
    /// its depth), as Benzene's incremental builds.
    builders: Vec<[VcBuilder<W>; 2]>,
    evaluator: HexEvaluator,
    table: HashMap<u64, Entry<W>, BuildHasherDefault<KeyHasher>>,
    board: Vec<Stone>,
    nodes: u64,
    limits: DfpnLimits,
    stopped: bool,
    meter: Arc<AtomicU64>,
}

/// The smallest carrier of a connection between the edges of the colour `builder` was last
/// built for: a full one, or with `semis` a full or a semi one (empty when its stones join
/// them); `None` when it has none.
fn smallest_edge_link<const W: usize>(builder: &VcBuilder<W>, semis: bool) -> Option<CellSet<W>> {
    if builder.edge_link() == EdgeLink::Joined {
        return Some(CellSet::EMPTY);
    }
    let semis = if semis { builder.edge_semis() } else { &[] };
    builder
        .edge_fulls()
        .iter()
        .chain(semis)
        .min_by_key(|carrier| carrier.len())
        .copied()
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
        let builders = Vec::new();
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
            let entry = self.expand(&position, mover, 0);
            self.table.insert(hash, entry);
        }
        let (pn, dn) = self.mid(hash, mover, INFINITE, INFINITE, 0);
        let wins = if pn == 0 {
            Some(true)
        } else if dn == 0 {
            Some(false)
        } else {
            None
        };
        let mut best = wins.and_then(|wins| self.best_move(hash, mover, wins));
        if wins == Some(true) && best.is_none() {
            // Won with no move searched: the fill-in joined the mover's edges, whoever
            // moves, so every move wins; one the fill-in gave the mover first.
            let empty = position.empty(&self.geometry);
            best = self.table.get(&hash).and_then(|entry| {
                let given = entry.filled.stones(mover).intersection(&empty);
                given.first().or(empty.first())
            });
        }
        let proof = wins
            .and(self.table.get(&hash))
            .map(|entry| entry.proof.iter().collect());
        Ok(DfpnResult {
            wins,
            best: best.map(|cell| StoneMove::Place(cell as u16)),
            proof,
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

    /// H-search for `colour` on `position` by the builder of `depth`, from the connections of
    /// a builder below it when one seeds it (see [`DfpnOptions::incremental`]).
    fn build(
        &mut self,
        depth: usize,
        position: &Position<W>,
        colour: Stone,
        enough: EdgeLink,
    ) -> &VcBuilder<W> {
        while self.builders.len() <= depth {
            let new = || VcBuilder::new(&self.geometry, self.options.vc);
            self.builders.push([new(), new()]);
        }
        let slot = usize::from(colour == Stone::White);
        let (below, here) = self.builders.split_at_mut(depth);
        let builder = &mut here[0][slot];
        let seed = below
            .iter()
            .rev()
            .map(|builders| &builders[slot])
            .find(|seed| self.options.incremental && seed.seeds(position, colour));
        match seed {
            Some(seed) => builder.build_from(seed, &self.geometry, position, colour, enough),
            None => builder.build(&self.geometry, position, colour, enough),
        }
        builder
    }

    /// The analysis of a new node at `depth` below the root: fill-in, connections, the moves
    /// to try (see the module documentation). At the root, the test of the mover's own
    /// connection is skipped.
    fn expand(&mut self, position: &Position<W>, mover: Stone, depth: usize) -> Entry<W> {
        let root = depth == 0;
        self.nodes += 1;
        let mut filled = *position;
        // The fill-in and the cells it read: part of every proof of the node.
        let fill = if self.options.inferior {
            let fill = fill_in_with_regions(&self.geometry, &mut filled);
            fill.cells().union(&fill.support)
        } else {
            CellSet::EMPTY
        };
        let filled_hash = hash_of(&filled, mover);
        let decided = |pn, dn, proof: CellSet<W>| Entry {
            pn,
            dn,
            work: 1,
            filled,
            filled_hash,
            fill,
            proof: proof.union(&fill),
            moves: Box::new([]),
        };
        let opponent = other(mover);
        let empty = filled.empty(&self.geometry);
        if filled.has_won(&self.geometry, opponent) {
            return decided(INFINITE, 0, CellSet::EMPTY);
        }
        if filled.has_won(&self.geometry, mover) {
            return decided(0, INFINITE, CellSet::EMPTY);
        }
        let mut candidates = empty;
        let mut reason = CellSet::EMPTY;
        // A root whose mover has a connection between its edges is won by a move inside
        // its carrier (a semi's key; any move keeps a full): only those are tried.
        let mut won_inside = None;
        if self.options.connections {
            // The opponent's connections first (a full one: lost; its semis make the
            // mustplay), then the mover's (a semi: won). Both cannot hold; this order builds
            // one side's only at the lost nodes, the commoner leaves.
            if !root {
                let theirs = self.build(depth, &filled, opponent, EdgeLink::Full);
                if let Some(carrier) = smallest_edge_link(theirs, false) {
                    return decided(INFINITE, 0, carrier);
                }
            }
            let own = self.build(depth, &filled, mover, EdgeLink::Semi);
            if let Some(carrier) = smallest_edge_link(own, true) {
                if !root {
                    return decided(0, INFINITE, carrier);
                }
                won_inside = Some(carrier).filter(|c| !c.is_empty());
            }
        }
        if let Some(carrier) = won_inside {
            candidates = carrier;
        } else if self.options.connections {
            if root {
                let theirs = self.build(depth, &filled, opponent, EdgeLink::Full);
                if let Some(carrier) = smallest_edge_link(theirs, false) {
                    return decided(INFINITE, 0, carrier);
                }
            }
            let theirs = &self.builders[depth][usize::from(opponent == Stone::White)];
            if let Some((mustplay, why)) = theirs.mustplay_with_reason() {
                candidates = candidates.intersection(&mustplay);
                reason = why;
            }
        }
        if self.options.inferior && won_inside.is_none() {
            let (dominated, read) =
                dominated_moves_with_reason(&self.geometry, &filled, mover, &candidates, true);
            candidates = candidates.minus(&dominated);
            // The dominated cells, their neighbours, dominators and capture partners, and
            // what the tests read.
            let around = self.geometry.around(&dominated).intersection(&empty);
            reason = reason.union(&support(&self.geometry, &filled, &read.union(&around)));
        }
        if candidates.is_empty() {
            return decided(INFINITE, 0, reason);
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
            fill,
            proof: reason.union(&fill),
            moves: moves.into_iter().map(|cell| cell as u16).collect(),
        }
    }

    /// The bounds of the child `key` (a position after one of the moves), `(1, 1)` when it
    /// is not in the table.
    #[inline]
    fn child_bounds(&self, key: u64) -> (u32, u32) {
        self.table.get(&key).map_or((1, 1), |e| (e.pn, e.dn))
    }

    /// Searches below the node `hash` (in the table, `mover` to move, `depth` below the root)
    /// until its proof number reaches `tpn` or its disproof number `tdn`; returns its bounds.
    fn mid(&mut self, hash: u64, mover: Stone, tpn: u32, tdn: u32, depth: usize) -> (u32, u32) {
        let Some(entry) = self.table.get(&hash) else {
            return (1, 1);
        };
        if entry.moves.is_empty() || entry.pn == 0 || entry.dn == 0 {
            return (entry.pn, entry.dn);
        }
        let mut moves = entry.moves.to_vec();
        let (filled, filled_hash, fill, mut reason) =
            (entry.filled, entry.filled_hash, entry.fill, entry.proof);
        let mut work = entry.work;
        let mut keys: Vec<u64> = moves
            .iter()
            .map(|&cell| filled_hash ^ Self::move_key(mover, cell as usize))
            .collect();
        let (mut pn, mut dn);
        loop {
            // The node's bounds from its children's, and the child of least dn among
            // the first `window` moves not refuted (all of them without widening).
            let window = self.window(&keys);
            pn = INFINITE;
            let mut sum: u64 = 0;
            let (mut best, mut second) = (0, INFINITE);
            let mut live = 0;
            for (index, &key) in keys.iter().enumerate() {
                let (cpn, cdn) = self.child_bounds(key);
                sum += u64::from(cpn);
                if cdn == 0 {
                    pn = 0;
                    best = index;
                    break;
                }
                if cpn != 0 {
                    live += 1;
                    if live > window {
                        continue;
                    }
                }
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
                let entry = self.expand(&child, other(mover), depth + 1);
                self.store(key, entry);
            }
            self.mid(key, other(mover), child_tpn, child_tdn, depth + 1);
            work += self.nodes - before;
            if self.options.proof_pruning {
                // A refuted move: every move outside its refutation's proof loses too, and
                // a loss of the node needs that proof (kept with the node: the refuted move
                // itself may be pruned by a later refutation).
                if let Some(refutation) = self.table.get(&key).filter(|child| child.pn == 0) {
                    let proof = refutation.proof;
                    let played = moves[best];
                    reason = reason.union(&proof);
                    reason.insert(played as usize);
                    let mut kept = 0;
                    for index in 0..moves.len() {
                        let cell = moves[index];
                        if cell == played || proof.contains(cell as usize) {
                            moves[kept] = cell;
                            keys[kept] = keys[index];
                            kept += 1;
                        }
                    }
                    moves.truncate(kept);
                    keys.truncate(kept);
                }
            }
            if self.must_stop() {
                break;
            }
        }
        let proof = if pn == 0 {
            self.won_proof(&moves, &keys).union(&fill)
        } else if dn == 0 {
            // Lost: every move left is refuted; the others are outside the mustplay,
            // dominated or outside a refutation's proof.
            moves.iter().zip(&keys).fold(reason, |proof, (&cell, key)| {
                let child = self.table.get(key).map_or(CellSet::EMPTY, |c| c.proof);
                let mut proof = proof.union(&child);
                proof.insert(cell as usize);
                proof
            })
        } else {
            reason
        };
        let entry = Entry {
            pn,
            dn,
            work,
            filled,
            filled_hash,
            fill,
            proof,
            moves: moves.into_boxed_slice(),
        };
        self.store(hash, entry);
        (pn, dn)
    }

    /// How many of the moves not yet refuted the search may go into (see
    /// [`DfpnOptions::widening`]).
    fn window(&self, keys: &[u64]) -> usize {
        let Some((base, factor)) = self.options.widening else {
            return usize::MAX;
        };
        let live = keys
            .iter()
            .filter(|&&key| self.child_bounds(key).0 != 0)
            .count();
        if live < 2 {
            return usize::MAX;
        }
        base as usize + (live as f64 * factor).ceil() as usize
    }

    /// The proof of a won node without its fill-in: a winning move (a child lost for the
    /// opponent) of the smallest proof, with that proof.
    fn won_proof(&self, moves: &[u16], keys: &[u64]) -> CellSet<W> {
        moves
            .iter()
            .zip(keys)
            .filter_map(|(&cell, key)| {
                let child = self.table.get(key).filter(|child| child.dn == 0)?;
                let mut proof = child.proof;
                proof.insert(cell as usize);
                Some(proof)
            })
            .min_by_key(|proof| proof.len())
            .unwrap_or_default()
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
