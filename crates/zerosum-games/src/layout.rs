//! How a family's board is laid out: the drawings the page knows and the points GTP names
//! (see [`crate::Family::layout`]).

/// How a family's board is laid out: what the page draws and how GTP's GUI commands name its
/// points. Every layout's JSON board has `rows`, `cols` and `cells` (rows from the top), and
/// `winning_cells` and `last_move` where there are some. A new family picks one of these and
/// gets the page's board and GTP's points; a new layout is added to the page (`board.js`) and
/// to GTP's grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Square cells holding `X`, `O` or `.`, named by column letters then the row from 1 at
    /// the top (`a1` top-left); a move names a cell (m,n,k).
    Squares,
    /// Square cells holding `X`, `O` or `.`; a move is a column number from 1 and the disc
    /// falls to the lowest empty cell (`heights` in the JSON board) (Connect-X).
    Columns,
    /// Hexagons, each row shifted half a cell right of the one above, holding `B`, `W` or `.`,
    /// named as [`Layout::Squares`]; Black joins top and bottom, White left and right (Hex).
    Hexes,
    /// Hexagons as [`Layout::Hexes`] with islands of fixed stones (`islands`, `b`/`w` cells)
    /// and blank cells off the board (Atoll).
    Islands,
    /// Square cells holding signed atom counts (positive for the first player), named by row
    /// letters then the column from 1 (`A1` top-left); `critical` masses in the JSON board
    /// (Unstable).
    Atoms,
}

impl Layout {
    /// Every layout.
    pub const ALL: [Layout; 5] = [
        Layout::Squares,
        Layout::Columns,
        Layout::Hexes,
        Layout::Islands,
        Layout::Atoms,
    ];

    /// The name the page knows it by: `squares`, `columns`, `hexes`, `islands` or `atoms`.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Squares => "squares",
            Layout::Columns => "columns",
            Layout::Hexes => "hexes",
            Layout::Islands => "islands",
            Layout::Atoms => "atoms",
        }
    }

    /// Whether cells are hexagons.
    pub const fn hexagonal(self) -> bool {
        matches!(self, Layout::Hexes | Layout::Islands)
    }

    /// Whether a move names a column and falls.
    pub const fn gravity(self) -> bool {
        matches!(self, Layout::Columns)
    }

    /// Whether cell names put the row letters first (`B4`: row 2, column 4).
    pub const fn row_letters(self) -> bool {
        matches!(self, Layout::Atoms)
    }
}
