//! Sets of cells of a Hex board as bit sets, and the board seen through them: the neighbours
//! of every cell, the cells along each edge, and a position as two sets of stones. The
//! virtual-connection builder ([`super::vc`]), the inferior-cell analysis
//! ([`super::inferior`]) and the proof-number solver ([`super::dfpn`]) all work on these.
//!
//! A [`CellSet<W>`] holds `64 * W` bits, bit `i` standing for cell `i` (index
//! `row * width + column`, as in [`super::Hex`]), so a board needs `W` with
//! `cells <= 64 * W` ([`words_for`]). The builder also numbers the two edges of a colour as
//! points `cells` and `cells + 1`: sets of points are [`PointSet`]s.

use super::Hex;
use crate::connection::{Stone, HEX_DIRECTIONS};

/// A set of cells (or points) as `W` words of bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CellSet<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for CellSet<W> {
    fn default() -> Self {
        CellSet::EMPTY
    }
}

impl<const W: usize> CellSet<W> {
    /// No cell.
    pub const EMPTY: CellSet<W> = CellSet([0; W]);
    /// How many cells a set can hold.
    pub const CAPACITY: usize = 64 * W;

    /// The set of one cell.
    #[inline]
    pub fn single(cell: usize) -> Self {
        let mut set = Self::EMPTY;
        set.insert(cell);
        set
    }

    #[inline]
    pub fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    #[inline]
    pub fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }

    #[inline]
    pub fn contains(&self, cell: usize) -> bool {
        self.0[cell / 64] >> (cell % 64) & 1 == 1
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&word| word == 0)
    }

    /// The number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|word| word.count_ones() as usize).sum()
    }

    #[inline]
    pub fn union(&self, other: &Self) -> Self {
        CellSet(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    #[inline]
    pub fn intersection(&self, other: &Self) -> Self {
        CellSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// The cells of `self` not in `other`.
    #[inline]
    pub fn minus(&self, other: &Self) -> Self {
        CellSet(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// Whether the two sets share a cell.
    #[inline]
    pub fn meets(&self, other: &Self) -> bool {
        (0..W).any(|i| self.0[i] & other.0[i] != 0)
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    pub fn is_subset(&self, other: &Self) -> bool {
        (0..W).all(|i| self.0[i] & !other.0[i] == 0)
    }

    /// The lowest cell, if any.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        (0..W)
            .find(|&i| self.0[i] != 0)
            .map(|i| i * 64 + self.0[i].trailing_zeros() as usize)
    }

    /// The cells in increasing order.
    #[inline]
    pub fn iter(&self) -> Cells<W> {
        Cells {
            words: self.0,
            word: 0,
        }
    }
}

/// The cells of a [`CellSet`], in increasing order.
pub struct Cells<const W: usize> {
    words: [u64; W],
    word: usize,
}

impl<const W: usize> Iterator for Cells<W> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < W {
            let bits = self.words[self.word];
            if bits != 0 {
                self.words[self.word] = bits & (bits - 1);
                return Some(self.word * 64 + bits.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

/// The number of words a board of `cells` cells needs: the smallest `W` of 1, 2, 4 or 6 with
/// `cells <= 64 * W`, or `None` beyond 19x19-sized boards.
pub fn words_for(cells: usize) -> Option<usize> {
    [1, 2, 4, 6].into_iter().find(|&w| cells <= 64 * w)
}

/// A set of points of one colour's graph on a board of `cells` cells: cells (points `0` to
/// `cells - 1`) and the colour's two edges (points `cells` and `cells + 1`), as
/// [`super::vc`] and [`super::regions`] number them. The methods that take a point take the
/// board's `cells` with it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PointSet<const W: usize> {
    /// The cells.
    pub cells: CellSet<W>,
    /// Bit `i`: the edge point `cells + i`.
    edges: u8,
}

impl<const W: usize> PointSet<W> {
    /// No point.
    pub const EMPTY: PointSet<W> = PointSet {
        cells: CellSet::EMPTY,
        edges: 0,
    };

    /// The points of `set`, cells only.
    #[inline]
    pub fn of_cells(set: CellSet<W>) -> Self {
        PointSet {
            cells: set,
            edges: 0,
        }
    }

    #[inline]
    pub fn insert(&mut self, point: usize, cells: usize) {
        if point < cells {
            self.cells.insert(point);
        } else {
            self.edges |= 1 << (point - cells);
        }
    }

    #[inline]
    pub fn union(&self, other: &Self) -> Self {
        PointSet {
            cells: self.cells.union(&other.cells),
            edges: self.edges | other.edges,
        }
    }

    #[inline]
    pub fn minus(&self, other: &Self) -> Self {
        PointSet {
            cells: self.cells.minus(&other.cells),
            edges: self.edges & !other.edges,
        }
    }

    /// The points of `self` but the cells of `cells`.
    #[inline]
    pub fn minus_cells(&self, cells: &CellSet<W>) -> Self {
        PointSet {
            cells: self.cells.minus(cells),
            edges: self.edges,
        }
    }

    /// Whether every point of `self` is in `other`.
    #[inline]
    pub fn is_subset(&self, other: &Self) -> bool {
        self.cells.is_subset(&other.cells) && self.edges & !other.edges == 0
    }

    /// The lowest point, if any.
    #[inline]
    pub fn first(&self, cells: usize) -> Option<usize> {
        self.cells
            .first()
            .or_else(|| (self.edges != 0).then(|| cells + self.edges.trailing_zeros() as usize))
    }

    /// The points in increasing order.
    #[inline]
    pub fn iter(&self, cells: usize) -> Points<W> {
        Points {
            cells: self.cells.iter(),
            edges: self.edges,
            first_edge: cells,
        }
    }
}

/// The points of a [`PointSet`], in increasing order.
pub struct Points<const W: usize> {
    cells: Cells<W>,
    edges: u8,
    first_edge: usize,
}

impl<const W: usize> Iterator for Points<W> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if let Some(cell) = self.cells.next() {
            return Some(cell);
        }
        if self.edges == 0 {
            return None;
        }
        let edge = self.edges.trailing_zeros() as usize;
        self.edges &= self.edges - 1;
        Some(self.first_edge + edge)
    }
}

/// The opposite colour (Black for White, White for anything else).
#[inline]
pub fn other(colour: Stone) -> Stone {
    match colour {
        Stone::White => Stone::Black,
        _ => Stone::White,
    }
}

/// The cells of a `width x height` Hex board as sets: every cell's neighbours and the cells
/// along each colour's two edges.
#[derive(Clone, Debug)]
pub struct Geometry<const W: usize> {
    width: usize,
    height: usize,
    neighbours: Vec<CellSet<W>>,
    all: CellSet<W>,
    /// Black's edges (top row, bottom row), then White's (left column, right column).
    edges: [[CellSet<W>; 2]; 2],
}

impl<const W: usize> Geometry<W> {
    /// The geometry of `width x height` boards (columns x rows).
    ///
    /// Panics unless `width * height <= 64 * W`.
    pub fn new(width: usize, height: usize) -> Self {
        let cells = width * height;
        assert!(
            cells <= CellSet::<W>::CAPACITY,
            "a {width}x{height} board does not fit {W} words"
        );
        let neighbours = (0..cells)
            .map(|cell| {
                let (c, r) = ((cell % width) as isize, (cell / width) as isize);
                let mut set = CellSet::EMPTY;
                for (dc, dr) in HEX_DIRECTIONS {
                    let (nc, nr) = (c + dc, r + dr);
                    if nc >= 0 && nr >= 0 && (nc as usize) < width && (nr as usize) < height {
                        set.insert(nr as usize * width + nc as usize);
                    }
                }
                set
            })
            .collect();
        let mut all = CellSet::EMPTY;
        let mut edges = [[CellSet::EMPTY; 2]; 2];
        for cell in 0..cells {
            all.insert(cell);
            let (c, r) = (cell % width, cell / width);
            if r == 0 {
                edges[0][0].insert(cell);
            }
            if r + 1 == height {
                edges[0][1].insert(cell);
            }
            if c == 0 {
                edges[1][0].insert(cell);
            }
            if c + 1 == width {
                edges[1][1].insert(cell);
            }
        }
        Geometry {
            width,
            height,
            neighbours,
            all,
            edges,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Every cell of the board.
    pub fn all(&self) -> CellSet<W> {
        self.all
    }

    /// The cells next to `cell`.
    #[inline]
    pub fn neighbours(&self, cell: usize) -> &CellSet<W> {
        &self.neighbours[cell]
    }

    /// The cells along the two edges `colour` joins (Black: top row, bottom row; White: left
    /// column, right column).
    #[inline]
    pub fn edges(&self, colour: Stone) -> &[CellSet<W>; 2] {
        &self.edges[usize::from(colour == Stone::White)]
    }

    /// The cells next to some cell of `set` and not in it.
    pub fn around(&self, set: &CellSet<W>) -> CellSet<W> {
        let mut out = CellSet::EMPTY;
        for cell in set.iter() {
            out = out.union(&self.neighbours[cell]);
        }
        out.minus(set)
    }

    /// The cells of `within` joined to `from` by chains of cells of `within` (`from`
    /// included where it lies in `within`).
    pub fn flood(&self, from: &CellSet<W>, within: &CellSet<W>) -> CellSet<W> {
        let mut reached = from.intersection(within);
        let mut frontier = reached;
        while !frontier.is_empty() {
            let next = self.around(&frontier).intersection(within).minus(&reached);
            reached = reached.union(&next);
            frontier = next;
        }
        reached
    }
}

/// A Hex position as sets: each colour's stones.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Position<const W: usize> {
    pub black: CellSet<W>,
    pub white: CellSet<W>,
}

impl<const W: usize> Position<W> {
    /// The stones of a game (its board only: who is to move is not part of a position).
    ///
    /// Panics if the board does not fit `W` words.
    pub fn of(game: &Hex) -> Self {
        let mut position = Position::default();
        for (cell, &stone) in game.stones().iter().enumerate() {
            position.add(stone, cell);
        }
        position
    }

    /// The stones of `colour` (none for `Empty`).
    #[inline]
    pub fn stones(&self, colour: Stone) -> CellSet<W> {
        match colour {
            Stone::Black => self.black,
            Stone::White => self.white,
            Stone::Empty => CellSet::EMPTY,
        }
    }

    /// Puts a stone of `colour` on `cell` (nothing for `Empty`).
    #[inline]
    pub fn add(&mut self, colour: Stone, cell: usize) {
        match colour {
            Stone::Black => self.black.insert(cell),
            Stone::White => self.white.insert(cell),
            Stone::Empty => {}
        }
    }

    /// Puts stones of `colour` on every cell of `cells`.
    #[inline]
    pub fn fill(&mut self, colour: Stone, cells: &CellSet<W>) {
        match colour {
            Stone::Black => self.black = self.black.union(cells),
            Stone::White => self.white = self.white.union(cells),
            Stone::Empty => {}
        }
    }

    /// The stone on `cell`.
    #[inline]
    pub fn stone(&self, cell: usize) -> Stone {
        if self.black.contains(cell) {
            Stone::Black
        } else if self.white.contains(cell) {
            Stone::White
        } else {
            Stone::Empty
        }
    }

    /// The empty cells of the board of `geometry`.
    #[inline]
    pub fn empty(&self, geometry: &Geometry<W>) -> CellSet<W> {
        geometry.all().minus(&self.black.union(&self.white))
    }

    /// Whether `colour`'s stones join its two edges.
    pub fn has_won(&self, geometry: &Geometry<W>, colour: Stone) -> bool {
        let stones = self.stones(colour);
        let [from, to] = geometry.edges(colour);
        geometry.flood(from, &stones).meets(to)
    }
}
