//! Connect-X: M rows, N columns, X (`k`) or more in a row wins; a move names a column and the
//! disc falls to the lowest free cell. Connect Four is `connectx:6x7x4`.
//!
//! Two board representations behind one game type, chosen by size in [`visit`]:
//! [`Packed`] (Pascal Pons' bit board in a `u64` or `u128`, wherever `N * (M + 1) <= 128`) and
//! [`Wide`] (bit sets over words, up to 100x100).
//!
//! [`ConnectEvaluator`] is the heuristic evaluator for the generic search on every size;
//! [`ConnectOracle`] gives an engine exact values (book, solver) on the packed boards.
//!
//! Notation: a move is a 1-based column number. A list of moves is separated by commas or
//! white space; on boards of at most 9 columns a bare digit string (`4453`) is read one column
//! per digit, as in Pons' test files.

pub mod book;
mod evaluator;
mod family;
mod oracle;
mod packed;
mod solver;
mod threats;
mod weights;
mod wide;
mod windows;

pub use book::{Book, BookError, BookReadError, MAX_BOOK_BYTES};
pub use evaluator::ConnectEvaluator;
pub use family::{spec, ConnectFamily, ConnectSpec};
pub use oracle::ConnectOracle;
pub use packed::{Bits, Packed};
pub use solver::{ConnectSolver, SolveError, SolveLimits};
pub use weights::ConnectWeights;
pub use wide::Wide;

use crate::GameVisitor;
use serde_json::json;
use zerosum_core::{
    notation, Game, LegalMovesChange, MarkedLine, MoveError, Outcome, Side, Status,
};

/// A Connect-X move: the 0-based column index.
pub type Column = u8;

/// What placing a disc did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Height of the new disc (0 at the bottom).
    pub height: usize,
    /// The mover now has `k` or more in a row.
    pub wins: bool,
    /// No empty cell is left.
    pub fills_board: bool,
}

/// A Connect-X board representation: stones and column heights, no rules beyond gravity and
/// alignment. Heights count from the bottom.
pub trait ConnectBoard: Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static {
    /// An empty board; the caller has checked the size fits.
    fn new(rows: usize, cols: usize, k: usize) -> Self;
    /// True if `col` (in range) has a free cell.
    fn can_play(&self, col: usize) -> bool;
    /// Number of discs in `col`.
    fn height(&self, col: usize) -> usize;
    /// Drops a disc of `mover` into `col`, which must have a free cell, and tells whether the
    /// mover now has a run of `k` and whether the board is full.
    fn place(&mut self, col: usize, mover: Side) -> Placement;
    /// Removes the top disc of `col`, which must hold one, and which must be the last disc
    /// placed (the board may track the side to move through it). Returns its height.
    fn remove(&mut self, col: usize) -> usize;
    /// Whose disc is at (`col`, `height`), given the side to move now.
    fn owner(&self, col: usize, height: usize, to_move: Side) -> Option<Side>;
    /// True if every cell holds a disc.
    fn is_full(&self) -> bool;
    /// A collision-free key of the position, where the representation has one.
    fn exact_key(&self) -> Option<u128>;
}

/// A Connect-X game over a board representation `B`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectX<B: ConnectBoard> {
    rows: usize,
    cols: usize,
    k: usize,
    board: B,
    history: Vec<Column>,
    hash: u64,
    outcome: Option<Outcome>,
}

/// Connect-X on a packed `u64` board (up to 64 bits, Connect Four included).
pub type ConnectX64 = ConnectX<Packed<u64>>;
/// Connect-X on a packed `u128` board.
pub type ConnectX128 = ConnectX<Packed<u128>>;
/// Connect-X on a multi-word board.
pub type ConnectXWide = ConnectX<Wide>;

/// Builds the empty `rows` x `cols` board with run length `k` in the smallest representation
/// that holds it, and hands it to `visitor`.
pub fn visit<V: GameVisitor>(rows: usize, cols: usize, k: usize, visitor: V) -> V::Output {
    if Packed::<u64>::fits(rows, cols) {
        visitor.visit(ConnectX64::new(rows, cols, k))
    } else if Packed::<u128>::fits(rows, cols) {
        visitor.visit(ConnectX128::new(rows, cols, k))
    } else {
        visitor.visit(ConnectXWide::new(rows, cols, k))
    }
}

/// Zobrist feature of a disc: its cell (column-major, bottom first) and owner.
#[inline]
fn disc_key(rows: usize, col: usize, height: usize, side: Side) -> u64 {
    zerosum_core::zobrist_key(((col * rows + height) * 2 + side.index()) as u64)
}

impl<B: ConnectBoard> ConnectX<B> {
    /// The empty board. Panics unless [`spec`] accepts the sizes; they must also
    /// fit `B`.
    pub fn new(rows: usize, cols: usize, k: usize) -> Self {
        if let Err(error) = spec(rows, cols, k) {
            panic!("{error}");
        }
        ConnectX {
            rows,
            cols,
            k,
            board: B::new(rows, cols, k),
            history: Vec::with_capacity(rows * cols),
            hash: 0,
            outcome: None,
        }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The run length that wins.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The board representation.
    pub fn board(&self) -> &B {
        &self.board
    }

    /// Number of discs in `col` (0-based).
    pub fn height(&self, col: usize) -> usize {
        self.board.height(col)
    }

    /// Whose disc is at `row` (0 at the top, as in the notation) and `col`.
    pub fn owner(&self, row: usize, col: usize) -> Option<Side> {
        self.board.owner(col, self.rows - 1 - row, self.to_move())
    }

    /// A collision-free key of the position (Pons' `current + mask`) on packed boards.
    pub fn exact_key(&self) -> Option<u128> {
        self.board.exact_key()
    }

    /// Name of a cell in m,n,k notation (`a1` top-left), used for winning lines in JSON.
    fn cell_name(&self, row: usize, col: usize) -> String {
        format!("{}{}", notation::letters(col, false), row + 1)
    }

    /// The cells of a run of `k` or more through the last disc, if the game was won, in m,n,k
    /// notation (`a1` top-left), for JSON.
    fn winning_cells(&self) -> Vec<String> {
        self.winning_line()
            .iter()
            .map(|&(r, c)| self.cell_name(r, c))
            .collect()
    }

    /// The `(row, column)` cells (row 0 at the top) of a run of `k` or more through the last
    /// disc when it won the game, in order; empty while the game goes on or after a draw.
    pub fn winning_line(&self) -> Vec<(usize, usize)> {
        let Some(Outcome::Win(side)) = self.outcome else {
            return Vec::new();
        };
        let Some(&last) = self.history.last() else {
            return Vec::new();
        };
        let col = last as usize;
        let row = self.rows - self.height(col);
        let own = |r: isize, c: isize| {
            r >= 0
                && c >= 0
                && (r as usize) < self.rows
                && (c as usize) < self.cols
                && self.owner(r as usize, c as usize) == Some(side)
        };
        for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
            let mut line = vec![(row, col)];
            for sign in [1, -1] {
                let (mut r, mut c) = (row as isize, col as isize);
                while own(r + sign * dr, c + sign * dc) {
                    r += sign * dr;
                    c += sign * dc;
                    line.push((r as usize, c as usize));
                }
            }
            if line.len() >= self.k {
                line.sort_unstable();
                return line;
            }
        }
        Vec::new()
    }

    fn symbol(side: Option<Side>) -> char {
        match side {
            Some(Side::First) => 'X',
            Some(Side::Second) => 'O',
            None => '.',
        }
    }
}

impl<B: ConnectBoard> Game for ConnectX<B> {
    type Move = Column;

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
        match self.outcome {
            None => Status::Ongoing,
            Some(outcome) => Status::Over(outcome),
        }
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Column>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        for col in 0..self.cols {
            if self.board.can_play(col) {
                moves.push(col as Column);
            }
        }
    }

    /// A disc takes its column off the legal moves if it filled it, and changes nothing else,
    /// while the game goes on.
    fn legal_moves_change(&self, played: Column) -> LegalMovesChange {
        if self.outcome.is_some() {
            LegalMovesChange::Unknown
        } else if self.board.can_play(played as usize) {
            LegalMovesChange::Unchanged
        } else {
            LegalMovesChange::PlayedRemoved
        }
    }

    fn all_moves(&self, moves: &mut Vec<Column>) {
        moves.clear();
        moves.extend((0..self.cols).map(|c| c as Column));
    }

    #[inline]
    fn illegal_reason(&self, mv: Column) -> Option<&'static str> {
        if mv as usize >= self.cols {
            Some("no such column")
        } else if !self.board.can_play(mv as usize) {
            Some("column full")
        } else {
            None
        }
    }

    #[inline]
    fn move_id(&self, mv: Column) -> usize {
        mv as usize
    }

    fn move_id_bound(&self) -> usize {
        self.cols
    }

    #[inline]
    fn play(&mut self, mv: Column) {
        let col = mv as usize;
        let mover = self.to_move();
        let placement = self.board.place(col, mover);
        self.hash ^= disc_key(self.rows, col, placement.height, mover);
        self.history.push(mv);
        if placement.wins {
            self.outcome = Some(Outcome::Win(mover));
        } else if placement.fills_board {
            self.outcome = Some(Outcome::Draw);
        }
    }

    #[inline]
    fn undo(&mut self) {
        let Some(mv) = self.history.pop() else {
            return;
        };
        let col = mv as usize;
        let height = self.board.remove(col);
        self.outcome = None;
        self.hash ^= disc_key(self.rows, col, height, self.to_move());
    }

    fn history(&self) -> &[Column] {
        &self.history
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let to_move = self.to_move();
        let mut hash = 0;
        for col in 0..self.cols {
            for height in 0..self.board.height(col) {
                if let Some(side) = self.board.owner(col, height, to_move) {
                    hash ^= disc_key(self.rows, col, height, side);
                }
            }
        }
        hash
    }

    fn parse_move(&self, text: &str) -> Result<Column, MoveError> {
        let text = text.trim();
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoveError::Syntax {
                text: text.to_string(),
                expected: format!("a column number from 1 to {}", self.cols),
            });
        }
        // All digits: only an overflow can fail, and that is off the board too.
        let number: usize = text.parse().unwrap_or(usize::MAX);
        if number == 0 || number > self.cols {
            return Err(MoveError::OffBoard {
                text: text.to_string(),
                board: format!("columns are numbered 1 to {}", self.cols),
            });
        }
        Ok((number - 1) as Column)
    }

    fn format_move(&self, mv: Column) -> String {
        (mv as usize + 1).to_string()
    }

    fn render(&self) -> String {
        let width = if self.cols > 9 { 3 } else { 2 };
        // A won game shows its winning line framed: `[X]` on each row, `[X X X X]` along one.
        let winning = self.winning_line();
        let mut out = String::new();
        for row in 0..self.rows {
            let mut line = MarkedLine::new("");
            for col in 0..self.cols {
                let marked = winning.contains(&(row, col));
                line.cell(width - 1, Self::symbol(self.owner(row, col)), marked);
            }
            out.push_str(&line.finish());
            out.push('\n');
        }
        for col in 0..self.cols {
            out.push_str(&format!("{:>width$}", col + 1));
        }
        out.push('\n');
        out
    }

    fn board_json(&self) -> serde_json::Value {
        let cells: Vec<Vec<String>> = (0..self.rows)
            .map(|row| {
                (0..self.cols)
                    .map(|col| Self::symbol(self.owner(row, col)).to_string())
                    .collect()
            })
            .collect();
        let heights: Vec<usize> = (0..self.cols).map(|c| self.height(c)).collect();
        json!({
            "rows": self.rows,
            "cols": self.cols,
            "k": self.k,
            "cells": cells,
            "heights": heights,
            "last_move": self.history.last().map(|&m| self.format_move(m)),
            "winning_cells": self.winning_cells(),
        })
    }

    /// Commas or white space separate moves; on boards of at most 9 columns a run of digits
    /// is also read one column per digit (`4453` is 4, 4, 5, 3).
    fn split_move_list<'a>(&self, text: &'a str) -> Vec<&'a str> {
        let mut items = Vec::new();
        for token in text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
        {
            if self.cols <= 9 && token.len() > 1 && token.bytes().all(|b| b.is_ascii_digit()) {
                items.extend((0..token.len()).map(|i| &token[i..i + 1]));
            } else {
                items.push(token);
            }
        }
        items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawing_shows_gravity() {
        let mut game = ConnectX64::new(6, 7, 4);
        game.play_list("4453").unwrap();
        let drawing = game.render();
        let lines: Vec<&str> = drawing.lines().collect();
        assert_eq!(lines[5], " . . O X X . .");
        assert_eq!(lines[4], " . . . O . . .");
        assert_eq!(lines[6], " 1 2 3 4 5 6 7");
    }
}
