//! Unstable: two-player Chain Reaction on an M-row x N-column board (10x6 by default).
//!
//! # Rules
//!
//! Black (the first player) owns positive counts, White (the second player) negative counts. A
//! move adds one atom of the mover's colour to an empty cell or to a cell the mover owns; an
//! opponent's cell is illegal. A cell's *critical mass* is its number of orthogonal neighbours
//! (2 in a corner, 3 on an edge, 4 inside). A cell that reaches its critical mass explodes: it
//! loses that many atoms and adds one to each neighbour, and every neighbour touched becomes the
//! mover's, with all its atoms. Explosions chain. A player wins when the opponent has no atoms
//! left, counted only once both sides have moved, so Black's first move never wins. There are no
//! draws.
//!
//! # Cascade order
//!
//! The order of explosions only matters for where a cascade stops (see below), but it is part of
//! the rules of this implementation, so it is fixed:
//!
//! 1. the cell that received the atom is queued if it reached its critical mass;
//! 2. a FIFO queue holds the cells at or above critical mass, each at most once;
//! 3. the front cell is popped and explodes **once**: it loses its critical mass in atoms, then
//!    its neighbours receive one atom each in increasing cell order (north, west, east, south),
//!    and each neighbour that reaches its critical mass and is not queued yet is queued at the
//!    back; last, the cell itself is queued again if it still holds its critical mass or more;
//! 4. after each explosion, if both sides have moved and the opponent has no atoms left, the
//!    cascade stops at once: the mover has won, and cells still at or above critical mass stay
//!    as they are.
//!
//! Only the mover's cells ever explode. Stopping on the wipe-out also guarantees that a cascade
//! ends: a chip-firing process on a connected graph either stabilises or fires every cell
//! infinitely often, and a cell touched by an explosion belongs to the mover for the rest of the
//! cascade, so the opponent is eventually wiped out.
//!
//! # Length of a game
//!
//! Atoms are conserved, so the board holds exactly as many atoms as moves were played. After a
//! move that does not win, every cell is below its critical mass, so the board holds at most
//! `sum(critical mass - 1)` atoms: a game lasts at most that many plies plus one (the winning
//! move), see [`Unstable::max_plies`]. On a 100x100 board that is 29,601 plies, so no count can
//! overflow an `i16`, even on a cell left above critical mass by a stopped cascade.
//!
//! # Evaluation
//!
//! [`UnstableEvaluator`] is the heuristic evaluator for the generic search.
//!
//! # Notation
//!
//! A cell is its row letter(s) then its 1-based column: `A1` is the top-left cell, `J6` the
//! bottom-right cell of a 10x6 board; rows after `Z` are `AA`, `AB`, ... Parsing ignores case,
//! printing uses capitals. A move is the cell index `row * cols + col`.

mod cells;
mod evaluator;
mod family;

pub use evaluator::{UnstableEvaluator, UnstableWeights};
pub use family::{spec, UnstableFamily, UnstableSpec};

use std::collections::VecDeque;
use std::sync::Arc;

use serde_json::json;
use zerosum_core::notation::{letters, parse_letters};
use zerosum_core::{zobrist_key, Game, MoveError, Outcome, Side, Status};

/// A cell index, `row * cols + col`; also the move type of [`Unstable`].
pub type Cell = u16;

/// Smallest number of rows or columns (a 1-wide board has cells with one neighbour, which would
/// explode at one atom).
pub const MIN_SIDE: usize = 2;

pub use zerosum_core::MAX_SIDE;

/// Slots per cell in the flat neighbour table (the most neighbours a cell can have).
const NEIGHBOUR_SLOTS: usize = 4;

/// The sign of the counts a side owns: `+1` for Black (first), `-1` for White (second).
#[inline]
const fn sign_of(side: Side) -> i16 {
    match side {
        Side::First => 1,
        Side::Second => -1,
    }
}

/// The side owning a non-zero count, as an index into per-side arrays (0: Black, 1: White).
#[inline]
const fn owner_index(count: i16) -> usize {
    (count < 0) as usize
}

/// `1 atom`, `2 atoms`: a count and its noun, plural unless the count is one.
fn counted(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// The colour name of a side: Black moves first.
const fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "Black",
        Side::Second => "White",
    }
}

/// The Zobrist feature of a non-empty cell, unique per (cell, signed count):
///
/// ```text
///  63                 16 15                  0
/// +---------------------+---------------------+
/// |     cell index      |    count as u16     |
/// |                     | (two's complement)  |
/// +---------------------+---------------------+
/// ```
#[inline]
const fn zobrist_feature(cell: usize, count: i16) -> u64 {
    ((cell as u64) << 16) | (count as u16 as u64)
}

/// The fixed shape of a board, shared by every copy of a game (clones share it through an
/// `Arc`): critical masses and the flat neighbour table.
#[derive(Debug, PartialEq, Eq)]
struct Geometry {
    rows: usize,
    cols: usize,
    /// Critical mass of each cell: its number of orthogonal neighbours (2, 3 or 4).
    critical: Vec<i16>,
    /// [`NEIGHBOUR_SLOTS`] entries per cell: the neighbours of cell `c` are
    /// `neighbours[4c .. 4c + critical[c]]`, in increasing cell order (north, west, east, south);
    /// unused slots hold `Cell::MAX`.
    neighbours: Vec<Cell>,
}

impl Geometry {
    fn new(rows: usize, cols: usize) -> Geometry {
        let mut critical = Vec::with_capacity(rows * cols);
        let mut neighbours = Vec::with_capacity(rows * cols * NEIGHBOUR_SLOTS);
        for row in 0..rows {
            for col in 0..cols {
                let cell = row * cols + col;
                let mut slots = [Cell::MAX; NEIGHBOUR_SLOTS];
                let mut found = 0;
                let candidates = [
                    (row > 0, cell.wrapping_sub(cols)),
                    (col > 0, cell.wrapping_sub(1)),
                    (col + 1 < cols, cell + 1),
                    (row + 1 < rows, cell + cols),
                ];
                for (on_board, neighbour) in candidates {
                    if on_board {
                        slots[found] = neighbour as Cell;
                        found += 1;
                    }
                }
                critical.push(found as i16);
                neighbours.extend_from_slice(&slots);
            }
        }
        Geometry {
            rows,
            cols,
            critical,
            neighbours,
        }
    }

    /// `sum(critical mass - 1) + 1`: see [`Unstable::max_plies`].
    fn max_plies(&self) -> usize {
        self.critical
            .iter()
            .map(|&mass| mass as usize - 1)
            .sum::<usize>()
            + 1
    }

    #[inline]
    fn neighbours(&self, cell: usize) -> &[Cell] {
        let start = cell * NEIGHBOUR_SLOTS;
        &self.neighbours[start..start + self.critical[cell] as usize]
    }
}

/// The counts and everything derived from them incrementally: per-side totals and the hash.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Board {
    /// Signed atom count of each cell: positive for Black, negative for White, 0 when empty.
    counts: Vec<i16>,
    /// Atoms per side (index 0: Black, 1: White).
    atoms: [usize; 2],
    /// Non-empty cells per side.
    cells: [usize; 2],
    /// XOR of the Zobrist keys of the non-empty cells (see [`zobrist_feature`]).
    hash: u64,
}

impl Board {
    /// Sets a cell's count, keeping the totals and the hash in step; returns the old count.
    #[inline]
    fn set(&mut self, cell: usize, count: i16) -> i16 {
        let old = self.counts[cell];
        if old != 0 {
            let side = owner_index(old);
            self.atoms[side] -= old.unsigned_abs() as usize;
            self.cells[side] -= 1;
            self.hash ^= zobrist_key(zobrist_feature(cell, old));
        }
        if count != 0 {
            let side = owner_index(count);
            self.atoms[side] += count.unsigned_abs() as usize;
            self.cells[side] += 1;
            self.hash ^= zobrist_key(zobrist_feature(cell, count));
        }
        self.counts[cell] = count;
        old
    }
}

/// One entry of the undo log: a cell and the count it held before one change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Change {
    cell: Cell,
    old: i16,
}

/// The explosion queue, kept between moves so that cascades allocate nothing. Empty, with every
/// flag clear, whenever no move is being played.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cascade {
    /// Cells at or above critical mass waiting to explode, each at most once, so it never holds
    /// more than the number of cells (its preallocated capacity).
    queue: VecDeque<Cell>,
    /// `queued[c]` is true while cell `c` is in the queue.
    queued: Vec<bool>,
}

impl Cascade {
    #[inline]
    fn push(&mut self, cell: usize) {
        if !self.queued[cell] {
            self.queued[cell] = true;
            self.queue.push_back(cell as Cell);
        }
    }

    /// Explodes cells in the order described in the module documentation, starting from `start`
    /// (which holds its critical mass or more), for the side of sign `sign`. Every change goes to
    /// `log`. If `opponent` is given, stops as soon as that side has no cell left.
    fn run(
        &mut self,
        geometry: &Geometry,
        board: &mut Board,
        log: &mut Vec<Change>,
        start: usize,
        sign: i16,
        opponent: Option<usize>,
    ) {
        self.push(start);
        while let Some(cell) = self.queue.pop_front() {
            let cell = cell as usize;
            self.queued[cell] = false;
            let critical = geometry.critical[cell];
            let count = board.counts[cell];
            debug_assert!(count * sign >= critical, "a queued cell is critical");
            let left = count - sign * critical;
            log.push(Change {
                cell: cell as Cell,
                old: board.set(cell, left),
            });
            for &neighbour in geometry.neighbours(cell) {
                let neighbour = neighbour as usize;
                let grown = sign * (board.counts[neighbour].abs() + 1);
                log.push(Change {
                    cell: neighbour as Cell,
                    old: board.set(neighbour, grown),
                });
                if grown.abs() >= geometry.critical[neighbour] {
                    self.push(neighbour);
                }
            }
            if left.abs() >= critical {
                self.push(cell);
            }
            if opponent.is_some_and(|side| board.cells[side] == 0) {
                while let Some(rest) = self.queue.pop_front() {
                    self.queued[rest as usize] = false;
                }
            }
        }
    }
}

/// A game of Unstable (two-player Chain Reaction) in progress. See the module documentation for
/// the rules, the cascade order and the notation.
///
/// `play` and `undo` allocate nothing once the undo log has grown to the size the game needs
/// (it holds one entry per changed cell per explosion, so a rare huge cascade may grow it); the
/// explosion queue never grows past its initial capacity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unstable {
    geometry: Arc<Geometry>,
    board: Board,
    status: Status,
    history: Vec<Cell>,
    /// Every count change made by the moves played, in order: `(cell, count before)`.
    log: Vec<Change>,
    /// `move_starts[i]` is the length of `log` before move `i` was played.
    move_starts: Vec<usize>,
    cascade: Cascade,
}

impl Unstable {
    /// The starting position on a board of `rows` x `cols` (each 2..=100).
    ///
    /// # Panics
    /// Unless [`spec`] accepts the sizes.
    pub fn new(rows: usize, cols: usize) -> Unstable {
        if let Err(error) = spec(rows, cols) {
            panic!("{error}");
        }
        let geometry = Geometry::new(rows, cols);
        let cells = rows * cols;
        let max_plies = geometry.max_plies();
        Unstable {
            geometry: Arc::new(geometry),
            board: Board {
                counts: vec![0; cells],
                atoms: [0; 2],
                cells: [0; 2],
                hash: 0,
            },
            status: Status::Ongoing,
            history: Vec::with_capacity(max_plies),
            log: Vec::with_capacity(max_plies * 2),
            move_starts: Vec::with_capacity(max_plies),
            cascade: Cascade {
                queue: VecDeque::with_capacity(cells),
                queued: vec![false; cells],
            },
        }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.geometry.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.geometry.cols
    }

    /// Number of cells (`rows * cols`); cells are `0..num_cells()`.
    pub fn num_cells(&self) -> usize {
        self.board.counts.len()
    }

    /// The cell at a 0-based row and column (both on the board).
    pub fn cell(&self, row: usize, col: usize) -> Cell {
        debug_assert!(row < self.rows() && col < self.cols());
        (row * self.cols() + col) as Cell
    }

    /// The 0-based row and column of a cell.
    pub fn row_col(&self, cell: Cell) -> (usize, usize) {
        (cell as usize / self.cols(), cell as usize % self.cols())
    }

    /// The signed atom count of a cell: positive for Black, negative for White, 0 when empty.
    #[inline]
    pub fn count(&self, cell: Cell) -> i16 {
        self.board.counts[cell as usize]
    }

    /// Every cell's signed count, indexed by cell.
    #[inline]
    pub fn counts(&self) -> &[i16] {
        &self.board.counts
    }

    /// The side owning a cell, `None` if it is empty.
    #[inline]
    pub fn owner(&self, cell: Cell) -> Option<Side> {
        match self.count(cell) {
            0 => None,
            count if count > 0 => Some(Side::First),
            _ => Some(Side::Second),
        }
    }

    /// The critical mass of a cell: its number of orthogonal neighbours (2, 3 or 4), signed like
    /// counts so that `count(cell).abs() >= critical_mass(cell)` reads directly.
    #[inline]
    pub fn critical_mass(&self, cell: Cell) -> i16 {
        self.geometry.critical[cell as usize]
    }

    /// The orthogonal neighbours of a cell, in increasing cell order.
    #[inline]
    pub fn neighbours(&self, cell: Cell) -> &[Cell] {
        self.geometry.neighbours(cell as usize)
    }

    /// The number of atoms a side has on the board.
    #[inline]
    pub fn atoms(&self, side: Side) -> usize {
        self.board.atoms[side.index()]
    }

    /// The number of cells a side owns.
    #[inline]
    pub fn cells(&self, side: Side) -> usize {
        self.board.cells[side.index()]
    }

    /// The last move played, if any.
    #[inline]
    pub fn last_move(&self) -> Option<Cell> {
        self.history.last().copied()
    }

    /// The most plies a game on this board can last: `sum(critical mass - 1) + 1` (see the
    /// module documentation).
    pub fn max_plies(&self) -> usize {
        self.geometry.max_plies()
    }

    /// The same position with the colours exchanged (every count negated), for symmetry tests
    /// of the evaluator. The side to move is still given by the ply, so it does not change.
    #[cfg(test)]
    fn colours_swapped(&self) -> Unstable {
        let mut swapped = self.clone();
        for cell in 0..self.num_cells() {
            swapped.board.set(cell, -self.board.counts[cell]);
        }
        swapped
    }

    /// The name of a cell, such as `A1`.
    fn cell_name(&self, cell: usize) -> String {
        let (row, col) = (cell / self.cols(), cell % self.cols());
        format!("{}{}", letters(row, true), col + 1)
    }
}

impl Game for Unstable {
    type Move = Cell;

    #[inline]
    fn to_move(&self) -> Side {
        Side::at_ply(self.history.len())
    }

    #[inline]
    fn ply(&self) -> usize {
        self.history.len()
    }

    #[inline]
    fn status(&self) -> Status {
        self.status
    }

    fn legal_moves(&self, moves: &mut Vec<Cell>) {
        moves.clear();
        if self.status.is_over() {
            return;
        }
        let sign = sign_of(self.to_move());
        moves.extend(
            self.board
                .counts
                .iter()
                .enumerate()
                .filter(|&(_, &count)| count * sign >= 0)
                .map(|(cell, _)| cell as Cell),
        );
    }

    fn all_moves(&self, moves: &mut Vec<Cell>) {
        moves.clear();
        moves.extend(0..self.num_cells() as Cell);
    }

    #[inline]
    fn move_id(&self, mv: Cell) -> usize {
        mv as usize
    }

    fn move_id_bound(&self) -> usize {
        self.num_cells()
    }

    fn illegal_reason(&self, mv: Cell) -> Option<&'static str> {
        match self.board.counts.get(mv as usize) {
            None => Some("off the board"),
            Some(&count) if count * sign_of(self.to_move()) < 0 => Some("opponent's cell"),
            Some(_) => None,
        }
    }

    /// Adds an atom of the side to move on `mv` and runs the cascade. Assumes the game goes on
    /// and `mv` is an empty cell or one of the mover's cells.
    fn play(&mut self, mv: Cell) {
        let mover = self.to_move();
        let sign = sign_of(mover);
        let opponent = mover.opponent().index();
        // The opponent's wipe-out counts once both sides have moved, that is from ply 1 on.
        let wipe_out_counts = !self.history.is_empty();
        self.move_starts.push(self.log.len());
        self.history.push(mv);
        let cell = mv as usize;
        let count = self.board.counts[cell] + sign;
        self.log.push(Change {
            cell: mv,
            old: self.board.set(cell, count),
        });
        if count.abs() >= self.geometry.critical[cell] {
            self.cascade.run(
                &self.geometry,
                &mut self.board,
                &mut self.log,
                cell,
                sign,
                wipe_out_counts.then_some(opponent),
            );
        }
        if wipe_out_counts && self.board.cells[opponent] == 0 {
            self.status = Status::Over(Outcome::Win(mover));
        }
    }

    fn undo(&mut self) {
        let start = self
            .move_starts
            .pop()
            .expect("undo needs a move to take back");
        self.history.pop();
        for change in self.log.drain(start..).rev() {
            self.board.set(change.cell as usize, change.old);
        }
        self.status = Status::Ongoing;
    }

    fn history(&self) -> &[Cell] {
        &self.history
    }

    /// The XOR of the keys of the non-empty cells. The side to move needs no key: atoms are
    /// conserved, so the board holds exactly `ply` atoms and its parity names the side to move.
    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash
    }

    fn recompute_hash(&self) -> u64 {
        self.board
            .counts
            .iter()
            .enumerate()
            .filter(|&(_, &count)| count != 0)
            .fold(0, |hash, (cell, &count)| {
                hash ^ zobrist_key(zobrist_feature(cell, count))
            })
    }

    fn parse_move(&self, text: &str) -> Result<Cell, MoveError> {
        let text = text.trim();
        let syntax = || MoveError::Syntax {
            text: text.to_string(),
            expected: "a row letter and a column number, such as A1".to_string(),
        };
        let split = text
            .find(|c: char| !c.is_ascii_alphabetic())
            .ok_or_else(syntax)?;
        let (row_letters, digits) = text.split_at(split);
        if row_letters.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax());
        }
        // Too many letters or digits to fit a number name a place far off the board.
        let row = parse_letters(row_letters).unwrap_or(usize::MAX);
        let col = digits.parse::<usize>().unwrap_or(usize::MAX);
        if row < self.rows() && (1..=self.cols()).contains(&col) {
            Ok((row * self.cols() + col - 1) as Cell)
        } else {
            Err(MoveError::OffBoard {
                text: text.to_string(),
                board: format!(
                    "rows A to {}, columns 1 to {}",
                    letters(self.rows() - 1, true),
                    self.cols()
                ),
            })
        }
    }

    fn format_move(&self, mv: Cell) -> String {
        self.cell_name(mv as usize)
    }

    /// Column numbers on top, row letters on the left; each cell shows its signed count (`+2`
    /// Black, `-1` White, `.` empty), followed by `*` when one more atom makes it explode; then
    /// each colour's atoms and cells.
    fn render(&self) -> String {
        let texts: Vec<String> = self
            .board
            .counts
            .iter()
            .map(|&count| match count {
                0 => ".".to_string(),
                _ => format!("{count:+}"),
            })
            .collect();
        let width = texts
            .iter()
            .map(String::len)
            .chain([2, self.cols().to_string().len()])
            .max()
            .unwrap_or(2);
        let label_width = letters(self.rows() - 1, true).len();
        let mut out = " ".repeat(label_width);
        for col in 1..=self.cols() {
            out.push_str(&format!(" {col:>width$} "));
        }
        let mut lines = vec![out.trim_end().to_string()];
        for row in 0..self.rows() {
            let mut line = format!("{:<label_width$}", letters(row, true));
            for col in 0..self.cols() {
                let cell = row * self.cols() + col;
                let count = self.board.counts[cell];
                let loaded = count.abs() == self.geometry.critical[cell] - 1;
                let mark = if loaded { '*' } else { ' ' };
                line.push_str(&format!(" {:>width$}{mark}", texts[cell]));
            }
            lines.push(line.trim_end().to_string());
        }
        let tally = |side: Side| {
            format!(
                "{} ({}) {} in {}",
                colour(side),
                if side == Side::First { '+' } else { '-' },
                counted(self.atoms(side), "atom"),
                counted(self.cells(side), "cell")
            )
        };
        lines.push(format!(
            "{}, {}; * one atom short of exploding",
            tally(Side::First),
            tally(Side::Second)
        ));
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }

    /// `rows`, `cols`, `cells` (rows of signed counts), `critical` (rows of critical masses),
    /// `last_move`, `winning_cells` (every cell of the winner once the game is won), `atoms` and
    /// `owned_cells` (per side, keyed `first` and `second`).
    fn board_json(&self) -> serde_json::Value {
        let grid = |values: &[i16]| -> Vec<Vec<i16>> {
            values.chunks(self.cols()).map(<[i16]>::to_vec).collect()
        };
        let winning_cells: Vec<String> = match self.status.winner() {
            Some(side) => (0..self.num_cells())
                .filter(|&cell| self.owner(cell as Cell) == Some(side))
                .map(|cell| self.cell_name(cell))
                .collect(),
            None => Vec::new(),
        };
        json!({
            "rows": self.rows(),
            "cols": self.cols(),
            "cells": grid(&self.board.counts),
            "critical": grid(&self.geometry.critical),
            "last_move": self.last_move().map(|mv| self.format_move(mv)),
            "winning_cells": winning_cells,
            "atoms": {
                "first": self.atoms(Side::First),
                "second": self.atoms(Side::Second),
            },
            "owned_cells": {
                "first": self.cells(Side::First),
                "second": self.cells(Side::Second),
            },
        })
    }
}
