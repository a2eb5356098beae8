//! Hex on a `width x height` rhombus (columns x rows), with the swap rule in either convention.
//!
//! The first player starts with Black and joins the top and bottom rows; the second starts with
//! White and joins the left and right columns. Cells are named as in the Hex tools: `a1` is the
//! top-left cell, and the cell in column `c`, row `r` touches `(c-1, r)`, `(c+1, r)`,
//! `(c, r-1)`, `(c+1, r-1)`, `(c, r+1)` and `(c-1, r+1)` (see [`crate::connection`]).
//!
//! The swap rule ([`SwapRule`]) is a move of its own, [`StoneMove::Swap`], legal only as the
//! second move of the game:
//! - `swap-sides`: the players exchange colours and the stone stays; the first player, now
//!   White, moves next.
//! - `swap-pieces`: the black stone on `(c, r)` is replaced by a white stone on `(r, c)`, its
//!   mirror image across the long diagonal (square boards only); colours stay, so the first
//!   player, still Black, moves next.
//!
//! Turns alternate between the players in every case, and results name players
//! ([`Side`]), not colours.
//!
//! The evaluator for search is [`HexEvaluator`] (two-distance potentials and a bridge-aware
//! "joined" test, see [`crate::connection::potential`]).
//!
//! Knowledge for solving, on bit sets of cells ([`cells`]): virtual connections by H-search
//! with the mustplay ([`vc`]), inferior cells and fill-in ([`inferior`]), and a proof-number
//! solver using both ([`dfpn`], behind `zerosum solve hex:N`).
//!
//! A win is detected incrementally by a [`RollbackUnionFind`] over the cells whose component
//! labels ("anchors") are the board edges the component touches. A full board always has
//! exactly one winner, so Hex has no draws.

pub mod analysis;
pub mod cells;
pub mod connected;
pub mod dfpn;
mod evaluated;
mod evaluator;
mod family;
pub mod gammas;
pub mod inferior;
pub mod oracle;
pub mod patterns;
pub mod playout;
pub mod regions;
pub mod vc;

pub use evaluated::{BUILT_IN_GAMMAS, PATTERN_PRIORS_MAX_CELLS};
pub use evaluator::HexEvaluator;
pub use family::{spec, HexFamily, HexSpec, SwapRule};

use serde_json::json;
use zerosum_core::{zobrist_key, Game, LegalMovesChange, MoveError, Outcome, Side, Status};

use crate::connection::{
    cell_name, clone_with_capacity, colour_of, owner_of, parse_cell, render_slanted,
    shortest_chain, RollbackUnionFind, Stone, StoneMove, HEX_DIRECTIONS, SWAP_FEATURE,
};

/// A Hex move: [`StoneMove::Place`] with the cell index `row * width + column`, or
/// [`StoneMove::Swap`], written `swap-sides` or `swap-pieces` after the rule in force.
pub type HexMove = StoneMove;

pub use zerosum_core::MAX_SIDE;

/// Edge anchors of the union-find: the bits of the board edges a component touches.
///
/// ```text
/// bit:   3      2     1       0
///      RIGHT  LEFT  BOTTOM  TOP
/// ```
const TOP: u8 = 1;
const BOTTOM: u8 = 2;
const LEFT: u8 = 4;
const RIGHT: u8 = 8;

/// The edges a stone of `colour` must join to win.
const fn goal(colour: Stone) -> u8 {
    match colour {
        Stone::White => LEFT | RIGHT,
        _ => TOP | BOTTOM,
    }
}

/// A game of Hex. See the module documentation for the rules and notation.
#[derive(Debug, PartialEq, Eq)]
pub struct Hex {
    width: usize,
    height: usize,
    swap: Option<SwapRule>,
    /// The cells, row by row: index `row * width + column`.
    stones: Vec<Stone>,
    /// Components of same-coloured stones; anchors are edge bits (`TOP`, ...).
    links: RollbackUnionFind<u8>,
    /// For each move played, the union-find log length before it.
    union_marks: Vec<u32>,
    history: Vec<HexMove>,
    /// True once `swap-sides` was played: the first player has White.
    colours_exchanged: bool,
    hash: u64,
    status: Status,
}

impl Hex {
    /// An empty `width x height` board (columns x rows) with the given swap rule.
    ///
    /// Panics unless [`spec`] accepts the sizes (both sides in `1..=100` and, for
    /// [`SwapRule::Pieces`], a square board).
    pub fn new(width: usize, height: usize, swap: Option<SwapRule>) -> Hex {
        if let Err(error) = spec(width, height, swap) {
            panic!("{error}");
        }
        let cells = width * height;
        let anchors = (0..cells)
            .map(|cell| {
                let (column, row) = (cell % width, cell / width);
                let mut bits = 0;
                if row == 0 {
                    bits |= TOP;
                }
                if row == height - 1 {
                    bits |= BOTTOM;
                }
                if column == 0 {
                    bits |= LEFT;
                }
                if column == width - 1 {
                    bits |= RIGHT;
                }
                bits
            })
            .collect();
        let longest_game = cells + usize::from(swap.is_some());
        Hex {
            width,
            height,
            swap,
            stones: vec![Stone::Empty; cells],
            links: RollbackUnionFind::new(anchors),
            union_marks: Vec::with_capacity(longest_game),
            history: Vec::with_capacity(longest_game),
            colours_exchanged: false,
            hash: 0,
            status: Status::Ongoing,
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The swap rule in force, if any.
    pub fn swap_rule(&self) -> Option<SwapRule> {
        self.swap
    }

    /// The index of the cell in 0-based `column` and `row`.
    pub fn cell(&self, column: usize, row: usize) -> usize {
        row * self.width + column
    }

    /// The 0-based `(column, row)` of a cell index.
    pub fn coordinates(&self, cell: usize) -> (usize, usize) {
        (cell % self.width, cell / self.width)
    }

    /// The stone on a cell.
    pub fn stone(&self, cell: usize) -> Stone {
        self.stones[cell]
    }

    /// Every cell's stone, row by row (index `row * width + column`).
    pub fn stones(&self) -> &[Stone] {
        &self.stones
    }

    /// The colour a player has now (`Black` for the first player unless colours were swapped).
    pub fn colour_of(&self, side: Side) -> Stone {
        colour_of(side, self.colours_exchanged)
    }

    /// The cells next to `cell` on the board.
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> {
        neighbour_cells(self.width, self.height, cell)
    }

    /// A shortest chain of the winner's stones from one of its edges to the other, once the
    /// game is won (cell indices, in order); `None` while the game goes on.
    pub fn winning_chain(&self) -> Option<Vec<usize>> {
        let colour = self.colour_of(self.status.winner()?);
        let (from, to) = match colour {
            Stone::White => (LEFT, RIGHT),
            _ => (TOP, BOTTOM),
        };
        let edges = |cell: usize| {
            let (column, row) = self.coordinates(cell);
            let mut bits = 0;
            if row == 0 {
                bits |= TOP;
            }
            if row + 1 == self.height {
                bits |= BOTTOM;
            }
            if column == 0 {
                bits |= LEFT;
            }
            if column + 1 == self.width {
                bits |= RIGHT;
            }
            bits
        };
        shortest_chain(
            self.stones.len(),
            |cell| edges(cell) & from != 0,
            |cell| edges(cell) & to != 0,
            |cell| self.stones[cell] == colour,
            |cell| self.neighbours(cell),
        )
    }

    /// The cell of the first stone after a swap-pieces move: the mirror of the first move.
    fn mirrored_first_stone(&self) -> usize {
        match self.history.first() {
            Some(&StoneMove::Place(cell)) => {
                let (column, row) = self.coordinates(cell as usize);
                self.cell(row, column)
            }
            _ => 0,
        }
    }

    /// Puts a stone on an empty cell, joins it to its neighbours of the same colour, and ends
    /// the game if that joins the colour's two edges.
    #[inline]
    fn place_stone(&mut self, cell: usize, colour: Stone) {
        self.stones[cell] = colour;
        self.hash ^= zobrist_key(colour.feature(cell));
        let mut root = cell;
        for next in neighbour_cells(self.width, self.height, cell) {
            if self.stones[next] == colour {
                root = self.links.union(root, next);
            }
        }
        if self.links.root_anchors(root) & goal(colour) == goal(colour) {
            self.status = Status::Over(Outcome::Win(owner_of(colour, self.colours_exchanged)));
        }
    }

    /// Takes a stone off a cell (its unions are rolled back by the caller).
    #[inline]
    fn lift_stone(&mut self, cell: usize) {
        self.hash ^= zobrist_key(self.stones[cell].feature(cell));
        self.stones[cell] = Stone::Empty;
    }

    fn swap_name(&self) -> &'static str {
        match self.swap {
            Some(SwapRule::Sides) => "swap-sides",
            Some(SwapRule::Pieces) => "swap-pieces",
            None => "swap",
        }
    }

    fn player_line(&self, side: Side) -> String {
        let colour = self.colour_of(side);
        let edges = match colour {
            Stone::White => "left and right",
            _ => "top and bottom",
        };
        format!("{} ({} player) joins {edges}", colour.title(), side.name())
    }
}

/// The cells next to `cell` on a `width x height` board.
#[inline]
fn neighbour_cells(width: usize, height: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (column, row) = ((cell % width) as isize, (cell / width) as isize);
    HEX_DIRECTIONS.iter().filter_map(move |&(dc, dr)| {
        let (c, r) = (column + dc, row + dr);
        (c >= 0 && r >= 0 && (c as usize) < width && (r as usize) < height)
            .then(|| r as usize * width + c as usize)
    })
}

impl Clone for Hex {
    /// A copy that keeps the move stacks' capacity, so that it never allocates either.
    fn clone(&self) -> Self {
        Hex {
            width: self.width,
            height: self.height,
            swap: self.swap,
            stones: self.stones.clone(),
            links: self.links.clone(),
            union_marks: clone_with_capacity(&self.union_marks),
            history: clone_with_capacity(&self.history),
            colours_exchanged: self.colours_exchanged,
            hash: self.hash,
            status: self.status,
        }
    }
}

impl Game for Hex {
    type Move = HexMove;

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

    fn legal_moves(&self, moves: &mut Vec<HexMove>) {
        moves.clear();
        if self.status.is_over() {
            return;
        }
        // Branch-free: every cell is written, and the count advances past the empty ones (about
        // half of the cells in play, so a branch per cell would be mispredicted half the time).
        moves.resize(self.stones.len(), StoneMove::Swap);
        let mut count = 0;
        for (cell, &stone) in self.stones.iter().enumerate() {
            moves[count] = StoneMove::Place(cell as u16);
            count += usize::from(stone == Stone::Empty);
        }
        moves.truncate(count);
        if self.swap.is_some() && self.history.len() == 1 {
            moves.push(StoneMove::Swap);
        }
    }

    /// A stone placed while the game goes on, past the plies where a swap may come or go,
    /// takes only its own cell off the legal moves.
    fn legal_moves_change(&self, played: HexMove) -> LegalMovesChange {
        let settled = self.swap.is_none() || self.history.len() > 2;
        match played {
            StoneMove::Place(_) if settled && !self.status.is_over() => {
                LegalMovesChange::PlayedRemoved
            }
            _ => LegalMovesChange::Unknown,
        }
    }

    fn all_moves(&self, moves: &mut Vec<HexMove>) {
        moves.clear();
        moves.extend((0..self.stones.len()).map(|cell| StoneMove::Place(cell as u16)));
        if self.swap.is_some() {
            moves.push(StoneMove::Swap);
        }
    }

    #[inline]
    fn move_id(&self, mv: StoneMove) -> usize {
        mv.id(self.width * self.height)
    }

    fn move_id_bound(&self) -> usize {
        self.width * self.height + 1
    }

    fn illegal_reason(&self, mv: HexMove) -> Option<&'static str> {
        match mv {
            StoneMove::Place(cell) => match self.stones.get(cell as usize) {
                None => Some("no such cell"),
                Some(Stone::Empty) => None,
                Some(_) => Some("occupied"),
            },
            StoneMove::Swap if self.swap.is_none() => Some("the swap rule is not in force"),
            StoneMove::Swap if self.history.len() != 1 => Some("swap only as the second move"),
            StoneMove::Swap => None,
        }
    }

    /// Plays a legal move (unchecked, see [`Game::play`]).
    #[inline]
    fn play(&mut self, mv: HexMove) {
        self.union_marks.push(self.links.log_len() as u32);
        let colour = self.colour_of(self.to_move());
        match mv {
            StoneMove::Place(cell) => self.place_stone(cell as usize, colour),
            StoneMove::Swap => {
                self.hash ^= zobrist_key(SWAP_FEATURE);
                match self.swap {
                    Some(SwapRule::Pieces) => {
                        if let Some(&StoneMove::Place(first)) = self.history.first() {
                            self.lift_stone(first as usize);
                        }
                        let mirrored = self.mirrored_first_stone();
                        self.place_stone(mirrored, Stone::White);
                    }
                    _ => self.colours_exchanged = true,
                }
            }
        }
        self.history.push(mv);
    }

    #[inline]
    fn undo(&mut self) {
        let (Some(mv), Some(mark)) = (self.history.pop(), self.union_marks.pop()) else {
            return;
        };
        self.links.rollback(mark as usize);
        self.status = Status::Ongoing;
        match mv {
            StoneMove::Place(cell) => self.lift_stone(cell as usize),
            StoneMove::Swap => {
                self.hash ^= zobrist_key(SWAP_FEATURE);
                match self.swap {
                    Some(SwapRule::Pieces) => {
                        let mirrored = self.mirrored_first_stone();
                        self.lift_stone(mirrored);
                        if let Some(&StoneMove::Place(first)) = self.history.first() {
                            let first = first as usize;
                            self.stones[first] = Stone::Black;
                            self.hash ^= zobrist_key(Stone::Black.feature(first));
                        }
                    }
                    _ => self.colours_exchanged = false,
                }
            }
        }
    }

    fn history(&self) -> &[HexMove] {
        &self.history
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut hash = 0;
        for (cell, &stone) in self.stones.iter().enumerate() {
            if stone != Stone::Empty {
                hash ^= zobrist_key(stone.feature(cell));
            }
        }
        if self.history.get(1) == Some(&StoneMove::Swap) {
            hash ^= zobrist_key(SWAP_FEATURE);
        }
        hash
    }

    /// Reads `c3`-style cell names (either case) and `swap`, `swap-sides` or `swap-pieces`.
    fn parse_move(&self, text: &str) -> Result<HexMove, MoveError> {
        let text = text.trim();
        if ["swap", "swap-sides", "swap-pieces"]
            .iter()
            .any(|spelling| text.eq_ignore_ascii_case(spelling))
        {
            return Ok(StoneMove::Swap);
        }
        let board = format!("{}x{} (columns x rows)", self.width, self.height);
        let (column, row) = parse_cell(text, self.width, self.height, &board)?;
        Ok(StoneMove::Place(self.cell(column, row) as u16))
    }

    fn format_move(&self, mv: HexMove) -> String {
        match mv {
            StoneMove::Place(cell) => {
                let (column, row) = self.coordinates(cell as usize);
                cell_name(column, row)
            }
            StoneMove::Swap => self.swap_name().to_string(),
        }
    }

    /// The slanted board (`B`, `W`, `.`; a won game's winning chain framed, `[B]`), then which
    /// player has which colour.
    fn render(&self) -> String {
        let chain = self.winning_chain().unwrap_or_default();
        let mut text = render_slanted(self.width, self.height, |column, row| {
            let cell = self.cell(column, row);
            (self.stones[cell].glyph(), chain.contains(&cell))
        });
        for side in Side::BOTH {
            text.push_str(&self.player_line(side));
            text.push('\n');
        }
        text
    }

    /// `rows`, `cols`, `cells` (rows of `"B"`, `"W"`, `"."`), `colours` (each player's colour),
    /// `swap` (`null`, `"swap-sides"` or `"swap-pieces"`), `last_move` and `winning_cells`.
    fn board_json(&self) -> serde_json::Value {
        let cells: Vec<Vec<String>> = (0..self.height)
            .map(|row| {
                (0..self.width)
                    .map(|column| self.stones[self.cell(column, row)].glyph().to_string())
                    .collect()
            })
            .collect();
        let winning_cells: Vec<String> = self
            .winning_chain()
            .unwrap_or_default()
            .into_iter()
            .map(|cell| self.format_move(StoneMove::Place(cell as u16)))
            .collect();
        json!({
            "rows": self.height,
            "cols": self.width,
            "cells": cells,
            "colours": {
                "first": self.colour_of(Side::First).name(),
                "second": self.colour_of(Side::Second).name(),
            },
            "swap": self.swap.map(|_| self.swap_name()),
            "last_move": self.history.last().map(|&mv| self.format_move(mv)),
            "winning_cells": winning_cells,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_anchor_the_border_cells() {
        let hex = Hex::new(3, 2, None);
        let anchors: Vec<u8> = (0..6).map(|cell| hex.links.root_anchors(cell)).collect();
        assert_eq!(
            anchors,
            vec![
                TOP | LEFT,
                TOP,
                TOP | RIGHT,
                BOTTOM | LEFT,
                BOTTOM,
                BOTTOM | RIGHT
            ]
        );
    }

    #[test]
    fn render_states_the_colours() {
        let mut hex = Hex::new(3, 3, Some(SwapRule::Sides));
        hex.play_list("b2 swap").unwrap();
        assert_eq!(
            hex.render(),
            "  a b c\n1 . . .\n2  . B .\n3   . . .\n\
             White (first player) joins left and right\n\
             Black (second player) joins top and bottom\n"
        );
    }
}
