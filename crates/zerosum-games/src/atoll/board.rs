//! Atoll boards as data: cells on the hexagonal grid of [`crate::connection`], their
//! neighbours, the islands of pre-placed stones, and which islands are exactly opposite.
//!
//! Boards shipped (see [`BOARDS`]):
//!
//! - `rhombusN` (N in 2..=98) and `standard` (= `rhombus9`): an N x N rhombus of playable
//!   cells, as in Hex, framed by a rim one cell wide: row 1 and row N+2, column `a` and column
//!   N+2. The four corner cells of the frame are water (no cell), so that no cell belongs to
//!   two sides. Each side of the rim is split into two islands, 8 in all, alternating in colour
//!   clockwise from the top-left corner, with h = N/2 (rounded down) and k = N - h:
//!
//!   ```text
//!   island  where                         colour  cells   opposite
//!     0     top row,    columns 2..h+1     Black    h        4
//!     1     top row,    columns h+2..N+1   White    k        5
//!     2     right side, rows 2..k+1        Black    k        6
//!     3     right side, rows k+2..N+1      White    h        7
//!     4     bottom row, columns k+2..N+1   Black    h        0
//!     5     bottom row, columns 2..k+1     White    k        1
//!     6     left side,  rows h+2..N+1      Black    k        2
//!     7     left side,  rows 2..h+1        White    h        3
//!   ```
//!
//!   (columns and rows counted from 1, as in cell names). Opposite islands are images of each
//!   other under the half turn about the centre, `(c, r) -> (N+1-c, N+1-r)` in 0-based grid
//!   coordinates, and so have the same colour and size. Mirroring across the long diagonal,
//!   `(c, r) -> (r, c)`, maps the board onto itself with the colours exchanged, so neither
//!   colour has the better islands. `standard` is 11 x 11 on the grid (`a1` to `k11`): 81
//!   playable cells `b2`..`j10`, 36 island cells (black islands of 4, 5, 4, 5 cells).
//!
//!   ```text
//!      a b c d e f g h i j k
//!    1   b b b b w w w w w
//!    2  w . . . . . . . . . b
//!    3   w . . . . . . . . . b
//!    4    w . . . . . . . . . b
//!    5     w . . . . . . . . . b
//!    6      b . . . . . . . . . b
//!    7       b . . . . . . . . . w
//!    8        b . . . . . . . . . w
//!    9         b . . . . . . . . . w
//!   10          b . . . . . . . . . w
//!   11             w w w w w b b b b
//!   ```
//!
//! - `hexhexR` (R even, 2..=20): a hexagon of radius R on the grid of `2R+1` columns and rows,
//!   where the cell in column `c`, row `r` (0-based) exists when `R <= c + r <= 3R`. Its 6R rim
//!   cells, walked clockwise from the top-left corner (column R+1, row 1), form 12 islands of
//!   R/2 consecutive cells, alternating in colour (island 0 Black); island i is opposite island
//!   i + 6 (same colour, the image under the half turn). The 3R(R-1)+1 inner cells are the
//!   moves.
//!
//! With 8 islands a full board always has exactly one winner, as in Hex. With 12 islands it
//! may have none: Black can link its islands in three separate pairs of neighbours (0-2, 4-6,
//! 8-10), cutting off White's islands 1, 5 and 9, while White's islands 3, 7 and 11 join but
//! hold no opposite pair. The game is then a draw (see [`super::Atoll`]).

use zerosum_core::SpecError;

use crate::connection::{cell_name, Stone, HEX_DIRECTIONS};

/// The boards [`AtollBoard::named`] knows: name (or name pattern) and a one-line description.
pub const BOARDS: &[(&str, &str)] = &[
    (
        "standard",
        "9x9 rhombus of playable cells in a rim of 8 islands, 4 per colour (= rhombus9)",
    ),
    (
        "rhombusN",
        "NxN rhombus (N from 2 to 98) in a rim of 8 islands, two per side, e.g. rhombus13",
    ),
    (
        "hexhexR",
        "hexagon of radius R (R even, 2 to 20) whose rim is 12 islands of R/2 cells, e.g. hexhex6",
    ),
];

/// Marks "no cell" in the grid and the neighbour lists.
const NO_CELL: u16 = u16::MAX;

/// Marks "not an island cell".
const NO_ISLAND: u8 = u8::MAX;

/// A group of pre-placed stones on the rim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Island {
    /// `Black` or `White`: the player with this colour owns the island.
    pub colour: Stone,
    /// The island's cells (indices into the board's cells), in order along the rim.
    pub cells: Vec<u16>,
    /// The island exactly opposite this one (same colour), if any.
    pub opposite: Option<usize>,
}

/// The geometry of an Atoll board. Built once per game; games share it through an `Arc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtollBoard {
    name: String,
    columns: usize,
    rows: usize,
    /// Grid position `row * columns + column` -> cell index, or `NO_CELL` (water).
    grid: Vec<u16>,
    /// Cell -> 0-based `(column, row)` on the grid.
    coordinates: Vec<(u16, u16)>,
    /// Cell -> its neighbour cells, padded with `NO_CELL`.
    neighbours: Vec<[u16; 6]>,
    /// Cell -> its island, or `NO_ISLAND`.
    island_of: Vec<u8>,
    islands: Vec<Island>,
    /// Island -> its union-find anchor bit (see [`AtollBoard::island_anchor`]).
    island_anchors: Vec<u64>,
    /// The cells that are not island cells: the moves, in index order.
    playable: Vec<u16>,
}

/// Every even bit: the low bit of each pair slot (see [`AtollBoard::island_anchor`]).
const PAIR_LOW_BITS: u64 = 0x5555_5555_5555_5555;

impl AtollBoard {
    /// The board called `name` (case-insensitive): `standard`, `rhombusN` or `hexhexR`
    /// (see [`BOARDS`]). An unknown name or an unsupported size is an error naming the known
    /// boards.
    pub fn named(name: &str) -> Result<AtollBoard, SpecError> {
        let lowered = name.trim().to_ascii_lowercase();
        let size = |prefix: &str| {
            lowered
                .strip_prefix(prefix)
                .filter(|digits| !digits.is_empty() && digits.len() <= 3)
                .filter(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
                // One spelling per board: `hexhex06` would name `hexhex6` under another name.
                .filter(|digits| *digits == "0" || !digits.starts_with('0'))
                .and_then(|digits| digits.parse::<usize>().ok())
        };
        let invalid = |reason: String| SpecError::Invalid {
            spec: format!("atoll:{name}"),
            reason,
        };
        if lowered == "standard" {
            Ok(AtollBoard::rhombus("standard".to_string(), 9))
        } else if let Some(side) = size("rhombus") {
            if !(2..=98).contains(&side) {
                return Err(invalid(format!(
                    "a rhombus board needs a side from 2 to 98, not {side}"
                )));
            }
            Ok(AtollBoard::rhombus(format!("rhombus{side}"), side))
        } else if let Some(radius) = size("hexhex") {
            if !(2..=20).contains(&radius) || radius % 2 != 0 {
                return Err(invalid(format!(
                    "a hexhex board needs an even radius from 2 to 20, not {radius}"
                )));
            }
            Ok(AtollBoard::hexhex(radius))
        } else {
            let known: Vec<String> = BOARDS
                .iter()
                .map(|(board, description)| format!("{board} ({description})"))
                .collect();
            Err(invalid(format!(
                "unknown Atoll board `{name}`; known boards: {}",
                known.join("; ")
            )))
        }
    }

    /// An N x N rhombus of playable cells in a rim of 8 islands (module documentation).
    fn rhombus(name: String, side: usize) -> AtollBoard {
        let grid = side + 2;
        let last = grid - 1;
        let (h, k) = (side / 2, side - side / 2);
        let top = |columns: std::ops::RangeInclusive<usize>| columns.map(|c| (c, 0)).collect();
        let bottom =
            |columns: std::ops::RangeInclusive<usize>| columns.rev().map(|c| (c, last)).collect();
        let right = |rows: std::ops::RangeInclusive<usize>| rows.map(|r| (last, r)).collect();
        let left = |rows: std::ops::RangeInclusive<usize>| rows.rev().map(|r| (0, r)).collect();
        let islands = vec![
            (Stone::Black, top(1..=h)),
            (Stone::White, top(h + 1..=side)),
            (Stone::Black, right(1..=k)),
            (Stone::White, right(k + 1..=side)),
            (Stone::Black, bottom(k + 1..=side)),
            (Stone::White, bottom(1..=k)),
            (Stone::Black, left(h + 1..=side)),
            (Stone::White, left(1..=h)),
        ];
        let is_corner = |c: usize, r: usize| (c == 0 || c == last) && (r == 0 || r == last);
        AtollBoard::from_grid(
            name,
            grid,
            grid,
            |c, r| !is_corner(c, r),
            islands,
            &[(0, 4), (1, 5), (2, 6), (3, 7)],
        )
    }

    /// A hexagon of radius `radius` whose rim is 12 islands (module documentation).
    fn hexhex(radius: usize) -> AtollBoard {
        let grid = 2 * radius + 1;
        // Clockwise on the drawing: right, down-right, down-left, left, up-left, up-right.
        let clockwise: [(isize, isize); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
        let mut rim = Vec::with_capacity(6 * radius);
        let (mut c, mut r) = (radius as isize, 0isize);
        for (dc, dr) in clockwise {
            for _ in 0..radius {
                rim.push((c as usize, r as usize));
                c += dc;
                r += dr;
            }
        }
        let per_island = radius / 2;
        let islands = rim
            .chunks(per_island)
            .enumerate()
            .map(|(i, cells)| {
                let colour = if i % 2 == 0 {
                    Stone::Black
                } else {
                    Stone::White
                };
                (colour, cells.to_vec())
            })
            .collect();
        let opposites: Vec<(usize, usize)> = (0..6).map(|i| (i, i + 6)).collect();
        AtollBoard::from_grid(
            format!("hexhex{radius}"),
            grid,
            grid,
            |c, r| (radius..=3 * radius).contains(&(c + r)),
            islands,
            &opposites,
        )
    }

    /// Builds a board from a `columns x rows` grid, the cells that exist on it, the islands
    /// (colour and grid cells, in order along the rim) and the opposite island pairs.
    ///
    /// The built-in boards satisfy, and their tests check: island cells exist and belong to
    /// one island; opposite islands have the same colour; at most 32 pairs.
    fn from_grid(
        name: String,
        columns: usize,
        rows: usize,
        exists: impl Fn(usize, usize) -> bool,
        islands: Vec<(Stone, Vec<(usize, usize)>)>,
        opposites: &[(usize, usize)],
    ) -> AtollBoard {
        let mut grid = vec![NO_CELL; columns * rows];
        let mut coordinates = Vec::new();
        for r in 0..rows {
            for c in 0..columns {
                if exists(c, r) {
                    grid[r * columns + c] = coordinates.len() as u16;
                    coordinates.push((c as u16, r as u16));
                }
            }
        }
        let neighbours = coordinates
            .iter()
            .map(|&(c, r)| {
                let mut list = [NO_CELL; 6];
                let mut count = 0;
                for (dc, dr) in HEX_DIRECTIONS {
                    let (nc, nr) = (c as isize + dc, r as isize + dr);
                    if nc >= 0 && nr >= 0 && (nc as usize) < columns && (nr as usize) < rows {
                        let next = grid[nr as usize * columns + nc as usize];
                        if next != NO_CELL {
                            list[count] = next;
                            count += 1;
                        }
                    }
                }
                list
            })
            .collect();
        let mut island_of = vec![NO_ISLAND; coordinates.len()];
        let islands: Vec<Island> = islands
            .into_iter()
            .enumerate()
            .map(|(index, (colour, cells))| {
                let cells = cells
                    .into_iter()
                    .map(|(c, r)| {
                        let cell = grid[r * columns + c];
                        island_of[cell as usize] = index as u8;
                        cell
                    })
                    .collect();
                let opposite = opposites.iter().find_map(|&(a, b)| {
                    (a == index)
                        .then_some(b)
                        .or_else(|| (b == index).then_some(a))
                });
                Island {
                    colour,
                    cells,
                    opposite,
                }
            })
            .collect();
        let mut island_anchors = vec![0u64; islands.len()];
        let mut slot = 0;
        for index in 0..islands.len() {
            if island_anchors[index] != 0 {
                continue;
            }
            island_anchors[index] = 1 << (2 * slot);
            if let Some(opposite) = islands[index].opposite {
                island_anchors[opposite] = 1 << (2 * slot + 1);
            }
            slot += 1;
        }
        let playable = (0..coordinates.len() as u16)
            .filter(|&cell| island_of[cell as usize] == NO_ISLAND)
            .collect();
        AtollBoard {
            name,
            columns,
            rows,
            grid,
            coordinates,
            neighbours,
            island_of,
            islands,
            island_anchors,
            playable,
        }
    }

    /// The canonical name (`standard`, `rhombus13`, `hexhex6`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Columns of the grid the board is drawn on.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Rows of the grid the board is drawn on.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of cells, island cells included.
    pub fn cell_count(&self) -> usize {
        self.coordinates.len()
    }

    /// The cell at 0-based `column` and `row` of the grid, if there is one.
    pub fn cell_at(&self, column: usize, row: usize) -> Option<usize> {
        if column >= self.columns || row >= self.rows {
            return None;
        }
        let cell = self.grid[row * self.columns + column];
        (cell != NO_CELL).then_some(cell as usize)
    }

    /// The 0-based `(column, row)` of a cell on the grid.
    pub fn coordinates(&self, cell: usize) -> (usize, usize) {
        let (column, row) = self.coordinates[cell];
        (column as usize, row as usize)
    }

    /// The name of a cell (`c3`).
    pub fn cell_name(&self, cell: usize) -> String {
        let (column, row) = self.coordinates(cell);
        cell_name(column, row)
    }

    /// The cells next to `cell`.
    #[inline]
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbours[cell]
            .iter()
            .take_while(|&&next| next != NO_CELL)
            .map(|&next| next as usize)
    }

    /// The island a cell belongs to, if it is an island cell.
    #[inline]
    pub fn island_of(&self, cell: usize) -> Option<usize> {
        let island = self.island_of[cell];
        (island != NO_ISLAND).then_some(island as usize)
    }

    /// The islands, in order around the rim.
    pub fn islands(&self) -> &[Island] {
        &self.islands
    }

    /// The cells that are not island cells, in index order: the moves of the game.
    pub fn playable(&self) -> &[u16] {
        &self.playable
    }

    /// The union-find anchor bit of an island. Islands are numbered into pair slots: the two
    /// islands of opposite pair `k` get bits `2k` and `2k + 1`; an island without an opposite
    /// gets bit `2k` of a slot of its own.
    ///
    /// ```text
    /// bit:  ... 5 4   3 2   1 0
    ///          [pair2][pair1][pair0]      each pair: [second island | first island]
    /// ```
    pub fn island_anchor(&self, island: usize) -> u64 {
        self.island_anchors[island]
    }

    /// True if a set of island anchor bits (a component's) holds both islands of some opposite
    /// pair: `anchors & (anchors >> 1)` has the low bit of a pair slot set.
    #[inline]
    pub fn joins_opposites(anchors: u64) -> bool {
        anchors & (anchors >> 1) & PAIR_LOW_BITS != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_test_boards() -> Vec<AtollBoard> {
        let mut names = vec!["standard".to_string()];
        names.extend((2..=12).map(|n| format!("rhombus{n}")));
        names.extend((1..=10).map(|r| format!("hexhex{}", 2 * r)));
        names
            .iter()
            .map(|name| AtollBoard::named(name).unwrap())
            .collect()
    }

    #[test]
    fn islands_are_contiguous_disjoint_and_paired_by_colour() {
        for board in all_test_boards() {
            let name = board.name();
            let count = board.islands().len();
            assert!(count % 4 == 0 && count <= 48, "{name}: {count} islands");
            for (index, island) in board.islands().iter().enumerate() {
                assert!(!island.cells.is_empty(), "{name}: island {index} empty");
                for pair in island.cells.windows(2) {
                    let touching = board
                        .neighbours(pair[0] as usize)
                        .any(|n| n == pair[1] as usize);
                    assert!(touching, "{name}: island {index} is not contiguous");
                }
                for &cell in &island.cells {
                    assert_eq!(board.island_of(cell as usize), Some(index), "{name}");
                }
                let expected = if index % 2 == 0 {
                    Stone::Black
                } else {
                    Stone::White
                };
                assert_eq!(island.colour, expected, "{name}: colours alternate");
                let opposite = island.opposite.expect("every island has an opposite");
                assert_eq!(opposite, (index + count / 2) % count, "{name}");
                assert_eq!(board.islands()[opposite].colour, island.colour, "{name}");
                assert_eq!(board.islands()[opposite].opposite, Some(index), "{name}");
                assert_eq!(
                    board.islands()[opposite].cells.len(),
                    island.cells.len(),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn islands_are_point_symmetric() {
        for board in all_test_boards() {
            let (columns, rows) = (board.columns(), board.rows());
            let half_turn = |cell: usize| {
                let (c, r) = board.coordinates(cell);
                board.cell_at(columns - 1 - c, rows - 1 - r).unwrap()
            };
            for island in board.islands() {
                let opposite = &board.islands()[island.opposite.unwrap()];
                for &cell in &island.cells {
                    let image = half_turn(cell as usize) as u16;
                    assert!(opposite.cells.contains(&image), "{}", board.name());
                }
            }
        }
    }

    #[test]
    fn same_coloured_islands_never_touch() {
        for board in all_test_boards() {
            for cell in 0..board.cell_count() {
                let Some(island) = board.island_of(cell) else {
                    continue;
                };
                for next in board.neighbours(cell) {
                    if let Some(other) = board.island_of(next) {
                        let same = board.islands()[island].colour == board.islands()[other].colour;
                        assert!(!same || island == other, "{}: {cell}", board.name());
                    }
                }
            }
        }
    }

    #[test]
    fn neighbours_are_symmetric_and_on_the_grid() {
        for board in all_test_boards() {
            for cell in 0..board.cell_count() {
                let (c, r) = board.coordinates(cell);
                assert_eq!(board.cell_at(c, r), Some(cell));
                for next in board.neighbours(cell) {
                    assert!(board.neighbours(next).any(|back| back == cell));
                }
            }
        }
    }

    #[test]
    fn sizes_and_counts() {
        let standard = AtollBoard::named("standard").unwrap();
        assert_eq!((standard.columns(), standard.rows()), (11, 11));
        assert_eq!(standard.cell_count(), 117);
        assert_eq!(standard.playable().len(), 81);
        let sizes: Vec<usize> = standard.islands().iter().map(|i| i.cells.len()).collect();
        assert_eq!(sizes, vec![4, 5, 5, 4, 4, 5, 5, 4]);
        for radius in [2, 4, 6, 20] {
            let board = AtollBoard::named(&format!("hexhex{radius}")).unwrap();
            assert_eq!(board.cell_count(), 3 * radius * (radius + 1) + 1);
            assert_eq!(board.playable().len(), 3 * radius * (radius - 1) + 1);
            assert_eq!(board.islands().len(), 12);
        }
        assert_eq!(AtollBoard::named("Rhombus13").unwrap().name(), "rhombus13");
    }

    #[test]
    fn anchors_pair_opposite_islands() {
        let board = AtollBoard::named("hexhex4").unwrap();
        for island in 0..12 {
            let opposite = board.islands()[island].opposite.unwrap();
            let pair = board.island_anchor(island) | board.island_anchor(opposite);
            assert!(AtollBoard::joins_opposites(pair));
            let next = (island + 2) % 12;
            let neighbours = board.island_anchor(island) | board.island_anchor(next);
            assert!(!AtollBoard::joins_opposites(neighbours));
        }
    }

    #[test]
    fn bad_names_are_errors() {
        for name in [
            "hexhex3",
            "hexhex22",
            "hexhex0",
            "rhombus1",
            "rhombus99",
            "hexhex+4",
            // Found by fuzzing: a second spelling of a board, whose game named another spec.
            "hexhex06",
            "rhombus09",
        ] {
            assert!(AtollBoard::named(name).is_err(), "{name}");
        }
        let err = AtollBoard::named("moon").unwrap_err().to_string();
        assert!(err.contains("unknown Atoll board `moon`"), "{err}");
        assert!(err.contains("standard") && err.contains("hexhexR"), "{err}");
    }
}
