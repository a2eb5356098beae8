//! Machinery shared by the connection games ([`crate::hex`] and [`crate::atoll`]): stones and
//! moves, the hexagonal grid and its cell names, a rollback union-find that detects a winning
//! connection incrementally, the search for a winning chain, and the slanted text drawing.
//!
//! # The grid
//!
//! Both games use the grid of the Hex tools: cells have a column `c` (letters from `a`, which do
//! not skip `i`) and a row `r` (numbers from 1 at the top). Each row is drawn half a cell to the
//! right of the row above, so a cell has up to six neighbours:
//!
//! ```text
//!          (c,r-1) (c+1,r-1)
//!     (c-1,r)  (c,r)  (c+1,r)
//!        (c-1,r+1) (c,r+1)
//! ```
//!
//! [`potential`] measures how far each colour is from its goal, the evaluation of both games.

pub mod potential;

use std::ops::BitOr;

use zerosum_core::{notation, MarkedLine, MoveError, Side};

/// The six neighbours of a cell as `(column, row)` offsets, in the order left, right, up,
/// up-right, down, down-left (see the module documentation).
pub const HEX_DIRECTIONS: [(isize, isize); 6] =
    [(-1, 0), (1, 0), (0, -1), (1, -1), (0, 1), (-1, 1)];

/// The content of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Stone {
    #[default]
    Empty = 0,
    Black = 1,
    White = 2,
}

impl Stone {
    /// `B`, `W` or `.`: the letter of the stone in drawings and JSON.
    pub const fn glyph(self) -> char {
        match self {
            Stone::Empty => '.',
            Stone::Black => 'B',
            Stone::White => 'W',
        }
    }

    /// `"Black"`, `"White"` or `"Empty"`, for sentences.
    pub const fn title(self) -> &'static str {
        match self {
            Stone::Empty => "Empty",
            Stone::Black => "Black",
            Stone::White => "White",
        }
    }

    /// `"black"`, `"white"` or `"empty"`.
    pub const fn name(self) -> &'static str {
        match self {
            Stone::Empty => "empty",
            Stone::Black => "black",
            Stone::White => "white",
        }
    }

    /// The Zobrist feature number of this stone on `cell`: `cell * 4 + stone` (1 or 2), which
    /// leaves `cell * 4 + 3` free for other features of the position (see [`SWAP_FEATURE`]).
    #[inline]
    pub const fn feature(self, cell: usize) -> u64 {
        (cell as u64) * 4 + self as u64
    }
}

/// The Zobrist feature of "the swap (pie) move was played": slot 3 of cell 0, never a stone.
pub const SWAP_FEATURE: u64 = 3;

/// A move of a connection game: a stone on a cell, or the swap (pie) move on the second turn.
///
/// The cell is an index into the game's cells (`row * width + column` in Hex; the board's cell
/// list in Atoll). Four bytes, `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StoneMove {
    /// Put a stone of the mover's colour on this cell.
    Place(u16),
    /// The swap (pie) move: take over the first stone (see each game for the convention).
    Swap,
}

impl StoneMove {
    /// A dense id on a board of `cells` cells: the cell index, or `cells` for the swap.
    #[inline]
    pub fn id(self, cells: usize) -> usize {
        match self {
            StoneMove::Place(cell) => cell as usize,
            StoneMove::Swap => cells,
        }
    }
}

/// Which colour each player has. Black moves first unless the players exchanged colours with
/// the swap-sides (pie) move.
#[inline]
pub const fn colour_of(side: Side, colours_exchanged: bool) -> Stone {
    match (side, colours_exchanged) {
        (Side::First, false) | (Side::Second, true) => Stone::Black,
        _ => Stone::White,
    }
}

/// The player that owns the stones of `colour` (`Black` or `White`).
#[inline]
pub const fn owner_of(colour: Stone, colours_exchanged: bool) -> Side {
    match (colour, colours_exchanged) {
        (Stone::Black, false) | (Stone::White, true) => Side::First,
        _ => Side::Second,
    }
}

/// The name of a cell: column letters and 1-based row, `a1` at the top left.
pub fn cell_name(column: usize, row: usize) -> String {
    format!("{}{}", notation::letters(column, false), row + 1)
}

/// Reads a cell name into 0-based `(column, row)` on a `columns x rows` grid. `board` describes
/// the board for the off-board error message. Never panics.
pub fn parse_cell(
    text: &str,
    columns: usize,
    rows: usize,
    board: &str,
) -> Result<(usize, usize), MoveError> {
    let (column, row) = notation::parse_column_row(text).ok_or_else(|| MoveError::Syntax {
        text: text.to_string(),
        expected: "a cell such as `c3` (column letters from `a`, then the row from 1 at the top)"
            .to_string(),
    })?;
    if column >= columns || row >= rows {
        return Err(MoveError::OffBoard {
            text: text.to_string(),
            board: board.to_string(),
        });
    }
    Ok((column, row))
}

/// A component label that union-find roots accumulate: a set of bits such as "touches the top
/// edge" or "holds island 3". Merging two components ORs their labels.
pub trait Anchors: Copy + Eq + BitOr<Output = Self> + std::fmt::Debug {}

impl<T: Copy + Eq + BitOr<Output = T> + std::fmt::Debug> Anchors for T {}

/// One union in the log of [`RollbackUnionFind`]: the root that was attached under another
/// root, and the anchors the other root had before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Union<A> {
    attached: u16,
    anchors_before: A,
}

/// Union-find with undo, for connection games.
///
/// Contract:
/// - Nodes are `0..len` (at most 65,536), each starting as its own component carrying the
///   anchors given to [`RollbackUnionFind::new`]; a component's anchors are the OR of its
///   nodes' anchors, kept at its root.
/// - Union by size and **no path compression**: a tree of size `s` has height at most
///   `log2(s)`, so [`RollbackUnionFind::find`] costs O(log n), and every union changes exactly
///   one parent, one size and one anchors word, which the log records.
/// - [`RollbackUnionFind::rollback`] undoes the unions made since the log had a given length,
///   last first, restoring the structure exactly. A game notes [`RollbackUnionFind::log_len`]
///   before each move and rolls back to it on undo.
/// - Unions made before [`RollbackUnionFind::make_permanent`] cannot be rolled back (Atoll's
///   islands are joined that way at construction).
/// - The log is allocated for `len` unions, the most a forest of `len` nodes can take, so
///   `union` never allocates (also in clones, which keep that capacity).
#[derive(Debug, PartialEq, Eq)]
pub struct RollbackUnionFind<A> {
    parent: Vec<u16>,
    size: Vec<u16>,
    anchors: Vec<A>,
    log: Vec<Union<A>>,
}

impl<A: Anchors> RollbackUnionFind<A> {
    /// One singleton component per entry of `anchors`.
    ///
    /// Panics if there are more than 65,536 nodes.
    pub fn new(anchors: Vec<A>) -> Self {
        let len = anchors.len();
        assert!(len <= 1 << 16, "at most 65536 union-find nodes, not {len}");
        RollbackUnionFind {
            parent: (0..len).map(|node| node as u16).collect(),
            size: vec![1; len],
            anchors,
            log: Vec::with_capacity(len),
        }
    }

    /// The root of the component of `node`.
    #[inline]
    pub fn find(&self, node: usize) -> usize {
        let mut node = node;
        loop {
            let parent = self.parent[node] as usize;
            if parent == node {
                return node;
            }
            node = parent;
        }
    }

    /// The anchors of the component whose root is `root` (the OR over its nodes).
    #[inline]
    pub fn root_anchors(&self, root: usize) -> A {
        self.anchors[root]
    }

    /// Joins the components of `a` and `b` and returns the root of the result. Logs the union
    /// if the components differed.
    #[inline]
    pub fn union(&mut self, a: usize, b: usize) -> usize {
        let (mut root, mut attached) = (self.find(a), self.find(b));
        if root == attached {
            return root;
        }
        if self.size[root] < self.size[attached] {
            std::mem::swap(&mut root, &mut attached);
        }
        self.log.push(Union {
            attached: attached as u16,
            anchors_before: self.anchors[root],
        });
        self.parent[attached] = root as u16;
        self.size[root] += self.size[attached];
        self.anchors[root] = self.anchors[root] | self.anchors[attached];
        root
    }

    /// The number of unions that can still be rolled back.
    #[inline]
    pub fn log_len(&self) -> usize {
        self.log.len()
    }

    /// Undoes the unions made since the log had length `len`, newest first.
    #[inline]
    pub fn rollback(&mut self, len: usize) {
        let len = len.min(self.log.len());
        for union in self.log.drain(len..).rev() {
            let attached = union.attached as usize;
            let root = self.parent[attached] as usize;
            self.size[root] -= self.size[attached];
            self.anchors[root] = union.anchors_before;
            self.parent[attached] = attached as u16;
        }
    }

    /// Forgets the log: the unions made so far become part of the starting structure.
    pub fn make_permanent(&mut self) {
        self.log.clear();
    }
}

impl<A: Anchors> Clone for RollbackUnionFind<A> {
    /// A copy whose log keeps the full capacity, so that the copy never allocates either.
    fn clone(&self) -> Self {
        RollbackUnionFind {
            parent: self.parent.clone(),
            size: self.size.clone(),
            anchors: self.anchors.clone(),
            log: clone_with_capacity(&self.log),
        }
    }
}

/// A copy of `items` with the same capacity (a plain `clone` shrinks it to the length), so that
/// stacks sized at construction keep growing without allocating in the copy too.
pub fn clone_with_capacity<T: Clone>(items: &Vec<T>) -> Vec<T> {
    let mut copy = Vec::with_capacity(items.capacity());
    copy.extend_from_slice(items);
    copy
}

/// A shortest chain of cells from a cell where `is_source` holds to one where `is_target` holds,
/// through cells where `passable` holds (sources and targets included), by breadth-first search.
/// `None` if there is none. Allocates: meant for reports such as `winning_cells`, not search.
pub fn shortest_chain<I>(
    cell_count: usize,
    is_source: impl Fn(usize) -> bool,
    is_target: impl Fn(usize) -> bool,
    passable: impl Fn(usize) -> bool,
    neighbours: impl Fn(usize) -> I,
) -> Option<Vec<usize>>
where
    I: IntoIterator<Item = usize>,
{
    const UNSEEN: usize = usize::MAX;
    let mut came_from = vec![UNSEEN; cell_count];
    let mut queue = std::collections::VecDeque::new();
    for (cell, origin) in came_from.iter_mut().enumerate() {
        if is_source(cell) && passable(cell) {
            *origin = cell;
            queue.push_back(cell);
        }
    }
    while let Some(cell) = queue.pop_front() {
        if is_target(cell) {
            let mut chain = vec![cell];
            let mut at = cell;
            while came_from[at] != at {
                at = came_from[at];
                chain.push(at);
            }
            chain.reverse();
            return Some(chain);
        }
        for next in neighbours(cell) {
            if came_from[next] == UNSEEN && passable(next) {
                came_from[next] = cell;
                queue.push_back(next);
            }
        }
    }
    None
}

/// Draws a `columns x rows` hex grid as text, each row shifted half a cell right of the row
/// above, column letters on top and row numbers on the left. `glyph(column, row)` gives each
/// cell's character (a space where the grid has no cell) and whether it is marked (a winning
/// chain: framed as `[B]`, see [`MarkedLine`]). Lines carry no trailing spaces; the text ends
/// with a newline.
///
/// ```text
///   a b c
/// 1 . . .
/// 2  . B .
/// 3   W . .
/// ```
pub fn render_slanted(
    columns: usize,
    rows: usize,
    glyph: impl Fn(usize, usize) -> (char, bool),
) -> String {
    let label_width = notation::letters(columns.saturating_sub(1), false).len();
    let pitch = 2 * label_width;
    let number_width = rows.to_string().len();
    let mut out = String::new();
    let mut line = " ".repeat(number_width + 1);
    for column in 0..columns {
        let label = notation::letters(column, false);
        line.push_str(&format!("{label:<pitch$}"));
    }
    out.push_str(line.trim_end());
    out.push('\n');
    for row in 0..rows {
        let indent = " ".repeat(row * label_width);
        let mut line = MarkedLine::new(&format!("{:>number_width$}{indent}", row + 1));
        for column in 0..columns {
            let (glyph, marked) = glyph(column, row);
            line.cell(if column == 0 { 1 } else { pitch - 1 }, glyph, marked);
        }
        out.push_str(&line.finish());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_find_rolls_back_exactly() {
        let mut links = RollbackUnionFind::new(vec![1u8, 0, 2, 0, 4]);
        let start = links.clone();
        let mark = links.log_len();
        links.union(0, 1);
        links.union(2, 3);
        assert_eq!(links.root_anchors(links.find(3)), 2);
        let root = links.union(1, 3);
        assert_eq!(root, links.find(0));
        assert_eq!(links.root_anchors(root), 3);
        assert_eq!(links.union(0, 2), root, "already joined: no new union");
        assert_eq!(links.log_len(), 3);
        let middle = links.log_len();
        links.union(4, 0);
        assert_eq!(links.root_anchors(links.find(4)), 7);
        links.rollback(middle);
        assert_eq!(links.root_anchors(links.find(4)), 4);
        links.rollback(mark);
        assert_eq!(links, start);
    }

    #[test]
    fn permanent_unions_survive_rollback() {
        let mut links = RollbackUnionFind::new(vec![1u64, 2, 4]);
        links.union(0, 1);
        links.make_permanent();
        links.union(1, 2);
        links.rollback(0);
        assert_eq!(links.find(0), links.find(1));
        assert_ne!(links.find(0), links.find(2));
        assert_eq!(links.root_anchors(links.find(1)), 3);
    }

    #[test]
    fn clones_keep_the_log_capacity() {
        let links = RollbackUnionFind::new(vec![0u8; 50]);
        assert!(links.clone().log.capacity() >= 50);
    }

    #[test]
    fn slanted_drawing() {
        let text = render_slanted(3, 3, |c, r| {
            (if (c, r) == (1, 1) { 'B' } else { '.' }, false)
        });
        assert_eq!(text, "  a b c\n1 . . .\n2  . B .\n3   . . .\n");
        // Marked cells are framed in the spaces around them; the columns stay.
        let text = render_slanted(3, 3, |c, r| match (c, r) {
            (1, 1) | (2, 1) => ('B', true),
            (0, 2) => ('B', true),
            _ => ('.', false),
        });
        assert_eq!(text, "  a b c\n1 . . .\n2  .[B B]\n3  [B]. .\n");
        // Wide boards (two letters a column) too.
        let wide = render_slanted(27, 1, |c, _| ('B', c == 26));
        assert!(wide.lines().nth(1).unwrap().ends_with("B  [B]"), "{wide}");
    }

    #[test]
    fn cell_names_round_trip() {
        assert_eq!(cell_name(0, 0), "a1");
        assert_eq!(cell_name(27, 99), "ab100");
        assert_eq!(parse_cell("AB100", 28, 100, "28x100"), Ok((27, 99)));
        assert!(matches!(
            parse_cell("c1", 2, 2, "2x2"),
            Err(MoveError::OffBoard { .. })
        ));
        assert!(matches!(
            parse_cell("a0", 2, 2, "2x2"),
            Err(MoveError::Syntax { .. })
        ));
    }
}
