//! Atoll (Mark Steere, 2008): Hex-like, on a board whose rim carries islands of pre-placed
//! stones alternating in colour. A player wins by joining two of their islands that are
//! exactly opposite with a contiguous chain of their stones, island stones included; joining
//! two islands that are not opposite does not win, but a chain through a third island (two
//! of them opposite) does.
//!
//! Boards are data ([`AtollBoard`], [`BOARDS`]); cells are named as in Hex (column letters,
//! row from 1 at the top, on the grid the board is drawn on). Island cells hold fixed stones
//! and are not moves.
//!
//! With the pie rule (`atoll:BOARD:pie`), the second player's first move may be
//! [`StoneMove::Swap`] (written `swap`, also read as `pie`): the players exchange colours, the
//! black stone stays, and the first player, now White, moves next.
//!
//! The evaluator for search is [`AtollEvaluator`] (two-distance potentials between opposite
//! islands and a bridge-aware "joined" test, see [`crate::connection::potential`]).
//!
//! Wins are detected incrementally by a [`RollbackUnionFind`] over all cells, island cells
//! joined at construction; a component's anchors are the bits of the islands it holds, laid
//! out so that one mask test tells whether it holds an opposite pair
//! ([`AtollBoard::island_anchor`]). On the 8-island boards a full board has exactly one
//! winner; on the 12-island boards it may have none, and a full board without a winner is a
//! draw (see the [`board`] module).

pub mod board;
mod evaluator;
mod family;

use std::sync::Arc;

use serde_json::json;
use zerosum_core::{zobrist_key, Game, MoveError, Outcome, Side, SpecError, Status};

pub use board::{AtollBoard, Island, BOARDS};
pub use evaluator::AtollEvaluator;
pub use family::{spec, AtollFamily, AtollSpec};

use crate::connection::{
    clone_with_capacity, colour_of, owner_of, parse_cell, render_slanted, shortest_chain,
    RollbackUnionFind, Stone, StoneMove, SWAP_FEATURE,
};

/// An Atoll move: [`StoneMove::Place`] with an index into the board's cells (never an island
/// cell when legal), or [`StoneMove::Swap`], the pie move, written `swap`.
pub type AtollMove = StoneMove;

/// A game of Atoll. See the module documentation for the rules and notation.
#[derive(Debug, PartialEq, Eq)]
pub struct Atoll {
    board: Arc<AtollBoard>,
    pie: bool,
    /// Cell contents, island stones included.
    stones: Vec<Stone>,
    /// Components of same-coloured stones; anchors are island bits.
    links: RollbackUnionFind<u64>,
    /// For each move played, the union-find log length before it.
    union_marks: Vec<u32>,
    history: Vec<AtollMove>,
    /// True once the pie move was played: the first player has White.
    colours_exchanged: bool,
    /// Zobrist hash of the played stones (island stones are constant and left out).
    hash: u64,
    status: Status,
}

impl Atoll {
    /// A new game on the board called `board_name` (see [`BOARDS`]), with or without the pie
    /// rule. An unknown board is an error listing the known ones.
    pub fn new(board_name: &str, pie: bool) -> Result<Atoll, SpecError> {
        let board = Arc::new(AtollBoard::named(board_name)?);
        let mut stones = vec![Stone::Empty; board.cell_count()];
        let mut anchors = vec![0u64; board.cell_count()];
        for (index, island) in board.islands().iter().enumerate() {
            for &cell in &island.cells {
                stones[cell as usize] = island.colour;
                anchors[cell as usize] = board.island_anchor(index);
            }
        }
        let mut links = RollbackUnionFind::new(anchors);
        for island in board.islands() {
            for pair in island.cells.windows(2) {
                links.union(pair[0] as usize, pair[1] as usize);
            }
        }
        links.make_permanent();
        let longest_game = board.playable().len() + usize::from(pie);
        Ok(Atoll {
            board,
            pie,
            stones,
            links,
            union_marks: Vec::with_capacity(longest_game),
            history: Vec::with_capacity(longest_game),
            colours_exchanged: false,
            hash: 0,
            status: Status::Ongoing,
        })
    }

    /// The board geometry.
    pub fn board(&self) -> &AtollBoard {
        &self.board
    }

    /// Whether the pie rule is in force.
    pub fn pie_rule(&self) -> bool {
        self.pie
    }

    /// The stone on a cell (island cells hold their island's colour).
    pub fn stone(&self, cell: usize) -> Stone {
        self.stones[cell]
    }

    /// Every cell's stone, in the board's cell order, island stones included.
    pub fn stones(&self) -> &[Stone] {
        &self.stones
    }

    /// The colour a player has now (`Black` for the first player unless the pie move was made).
    pub fn colour_of(&self, side: Side) -> Stone {
        colour_of(side, self.colours_exchanged)
    }

    /// A shortest chain of the winner's stones between two opposite islands of its colour,
    /// once the game is won (cell indices, island cells at both ends); `None` otherwise.
    pub fn winning_chain(&self) -> Option<Vec<usize>> {
        let colour = self.colour_of(self.status.winner()?);
        let islands = self.board.islands();
        islands
            .iter()
            .enumerate()
            .filter_map(|(index, island)| {
                let opposite = island.opposite.filter(|&other| other > index)?;
                if island.colour != colour {
                    return None;
                }
                shortest_chain(
                    self.stones.len(),
                    |cell| self.board.island_of(cell) == Some(index),
                    |cell| self.board.island_of(cell) == Some(opposite),
                    |cell| self.stones[cell] == colour,
                    |cell| self.board.neighbours(cell),
                )
            })
            .min_by_key(Vec::len)
    }

    fn player_line(&self, side: Side) -> String {
        let colour = self.colour_of(side);
        format!(
            "{} ({} player) joins two opposite {} islands",
            colour.title(),
            side.name(),
            colour.glyph().to_ascii_lowercase()
        )
    }

    /// The drawing and JSON letter of a cell: `B`/`W`/`.` for playable cells, `b`/`w` for
    /// island stones.
    fn glyph(&self, cell: usize) -> char {
        let glyph = self.stones[cell].glyph();
        if self.board.island_of(cell).is_some() {
            glyph.to_ascii_lowercase()
        } else {
            glyph
        }
    }
}

impl Clone for Atoll {
    /// A copy that keeps the move stacks' capacity, so that it never allocates either. The
    /// board is shared.
    fn clone(&self) -> Self {
        Atoll {
            board: Arc::clone(&self.board),
            pie: self.pie,
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

impl Game for Atoll {
    type Move = AtollMove;

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

    fn legal_moves(&self, moves: &mut Vec<AtollMove>) {
        moves.clear();
        if self.status.is_over() {
            return;
        }
        for &cell in self.board.playable() {
            if self.stones[cell as usize] == Stone::Empty {
                moves.push(StoneMove::Place(cell));
            }
        }
        if self.pie && self.history.len() == 1 {
            moves.push(StoneMove::Swap);
        }
    }

    fn all_moves(&self, moves: &mut Vec<AtollMove>) {
        moves.clear();
        moves.extend(
            self.board
                .playable()
                .iter()
                .map(|&cell| StoneMove::Place(cell)),
        );
        if self.pie {
            moves.push(StoneMove::Swap);
        }
    }

    #[inline]
    fn move_id(&self, mv: StoneMove) -> usize {
        mv.id(self.board.cell_count())
    }

    fn move_id_bound(&self) -> usize {
        self.board.cell_count() + 1
    }

    fn illegal_reason(&self, mv: AtollMove) -> Option<&'static str> {
        match mv {
            StoneMove::Place(cell) => {
                let cell = cell as usize;
                if cell >= self.stones.len() {
                    Some("no such cell")
                } else if self.board.island_of(cell).is_some() {
                    Some("island cells hold fixed stones")
                } else if self.stones[cell] != Stone::Empty {
                    Some("occupied")
                } else {
                    None
                }
            }
            StoneMove::Swap if !self.pie => Some("the pie rule is not in force"),
            StoneMove::Swap if self.history.len() != 1 => {
                Some("the pie rule applies only to the second move")
            }
            StoneMove::Swap => None,
        }
    }

    /// Plays a legal move (unchecked, see [`Game::play`]).
    #[inline]
    fn play(&mut self, mv: AtollMove) {
        self.union_marks.push(self.links.log_len() as u32);
        match mv {
            StoneMove::Place(cell) => {
                let cell = cell as usize;
                let colour = self.colour_of(self.to_move());
                self.stones[cell] = colour;
                self.hash ^= zobrist_key(colour.feature(cell));
                let mut root = cell;
                for next in self.board.neighbours(cell) {
                    if self.stones[next] == colour {
                        root = self.links.union(root, next);
                    }
                }
                let stones_played = self.history.len() + 1 - usize::from(self.colours_exchanged);
                if AtollBoard::joins_opposites(self.links.root_anchors(root)) {
                    let winner = owner_of(colour, self.colours_exchanged);
                    self.status = Status::Over(Outcome::Win(winner));
                } else if stones_played == self.board.playable().len() {
                    self.status = Status::Over(Outcome::Draw);
                }
            }
            StoneMove::Swap => {
                self.hash ^= zobrist_key(SWAP_FEATURE);
                self.colours_exchanged = true;
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
            StoneMove::Place(cell) => {
                let cell = cell as usize;
                self.hash ^= zobrist_key(self.stones[cell].feature(cell));
                self.stones[cell] = Stone::Empty;
            }
            StoneMove::Swap => {
                self.hash ^= zobrist_key(SWAP_FEATURE);
                self.colours_exchanged = false;
            }
        }
    }

    fn history(&self) -> &[AtollMove] {
        &self.history
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut hash = 0;
        for &cell in self.board.playable() {
            let stone = self.stones[cell as usize];
            if stone != Stone::Empty {
                hash ^= zobrist_key(stone.feature(cell as usize));
            }
        }
        if self.colours_exchanged {
            hash ^= zobrist_key(SWAP_FEATURE);
        }
        hash
    }

    /// Reads `c3`-style cell names (either case), and `swap` or `pie`. Island cells parse (they
    /// are on the board) but are never legal.
    fn parse_move(&self, text: &str) -> Result<AtollMove, MoveError> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("swap") || text.eq_ignore_ascii_case("pie") {
            return Ok(StoneMove::Swap);
        }
        let board = format!("Atoll board `{}`", self.board.name());
        let (column, row) = parse_cell(text, self.board.columns(), self.board.rows(), &board)?;
        let cell = self
            .board
            .cell_at(column, row)
            .ok_or_else(|| MoveError::OffBoard {
                text: text.to_string(),
                board: format!("{board}, which has no cell there"),
            })?;
        Ok(StoneMove::Place(cell as u16))
    }

    /// Cell names and `swap`. A cell index beyond the board, which this game never produces,
    /// prints as `cell<index>` (which does not parse).
    fn format_move(&self, mv: AtollMove) -> String {
        match mv {
            StoneMove::Place(cell) if (cell as usize) < self.board.cell_count() => {
                self.board.cell_name(cell as usize)
            }
            StoneMove::Place(cell) => format!("cell{cell}"),
            StoneMove::Swap => "swap".to_string(),
        }
    }

    /// The slanted board: `B`, `W`, `.` for playable cells, `b`, `w` for island stones, blank
    /// where the grid has no cell (a won game's winning chain framed, `[B]`); then who plays
    /// which colour.
    fn render(&self) -> String {
        let board = &self.board;
        let chain = self.winning_chain().unwrap_or_default();
        let mut text = render_slanted(board.columns(), board.rows(), |column, row| {
            board.cell_at(column, row).map_or((' ', false), |cell| {
                (self.glyph(cell), chain.contains(&cell))
            })
        });
        for side in Side::BOTH {
            text.push_str(&self.player_line(side));
            text.push('\n');
        }
        text
    }

    /// `rows`, `cols` (of the grid), `cells` (rows of `"B"`, `"W"`, `"."` for playable cells,
    /// `"b"`, `"w"` for island stones, `" "` where the grid has no cell), `colours` (each
    /// player's colour), `pie`, `islands` (each with `colour`, `cells` and `opposite`, the
    /// index of the opposite island), `last_move` and `winning_cells`.
    fn board_json(&self) -> serde_json::Value {
        let board = &self.board;
        let cells: Vec<Vec<String>> = (0..board.rows())
            .map(|row| {
                (0..board.columns())
                    .map(|column| {
                        board
                            .cell_at(column, row)
                            .map_or(' ', |cell| self.glyph(cell))
                            .to_string()
                    })
                    .collect()
            })
            .collect();
        let islands: Vec<serde_json::Value> = board
            .islands()
            .iter()
            .map(|island| {
                let cells: Vec<String> = island
                    .cells
                    .iter()
                    .map(|&cell| board.cell_name(cell as usize))
                    .collect();
                json!({
                    "colour": island.colour.name(),
                    "cells": cells,
                    "opposite": island.opposite,
                })
            })
            .collect();
        let winning_cells: Vec<String> = self
            .winning_chain()
            .unwrap_or_default()
            .into_iter()
            .map(|cell| board.cell_name(cell))
            .collect();
        json!({
            "rows": board.rows(),
            "cols": board.columns(),
            "board": board.name(),
            "cells": cells,
            "colours": {
                "first": self.colour_of(Side::First).name(),
                "second": self.colour_of(Side::Second).name(),
            },
            "pie": self.pie,
            "islands": islands,
            "last_move": self.history.last().map(|&mv| self.format_move(mv)),
            "winning_cells": winning_cells,
        })
    }
}
