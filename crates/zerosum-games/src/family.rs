//! A game family in one place: the [`Family`] trait that each family's module implements (in
//! its `family.rs`), with the small types of the facts it states.
//!
//! Code outside a family asks its facts through the trait instead of matching on families:
//! the arena (the default search, the judge of openings, the expected length of a game), the
//! protocols and the page (the [`Layout`] of the board, who has which colour), the command line
//! (the words of a win). An adapter for a file format or a protocol that only some families
//! have (SGF for Hex and Atoll, PSQ and Gomocup for m,n,k, the Connect-X solver) reads the
//! family's own parameters with [`GameSpec::params`] instead.

use serde_json::Value;
use zerosum_core::{Side, SpecError};

use crate::{GameSpec, SpecText, Stones};

/// The facts of a game family that code outside its module needs: how its specs are written
/// and read, how people call it, and what the arena, the protocols and the page must know of
/// it. Object safe: the registry ([`crate::families`]) holds `&'static dyn Family`.
///
/// The facts with a default are those most families share; a family states the others. A fact
/// that takes a `spec` is asked with specs of this family only (`spec.family()` is `self`), so
/// `spec.params()` gives the family's own parameters.
pub trait Family: Send + Sync + 'static {
    /// The spec prefix, lower case, unique among the families: `mnk`.
    fn name(&self) -> &'static str;

    /// The family as people name it in a sentence or a heading: `m,n,k`, `Connect-X`, `Atoll`.
    fn title(&self) -> &'static str;

    /// The forms of its specs: `mnk:MxNxK`.
    fn forms(&self) -> &'static str;

    /// One line on the rules.
    fn rules(&self) -> &'static str;

    /// How moves are written.
    fn notation(&self) -> &'static str;

    /// Short names of whole specs, `(alias, spec)`, lower case: `("tictactoe", "mnk:3x3x3")`.
    fn aliases(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// Specs the page offers, the first being the family's default there.
    fn examples(&self) -> &'static [&'static str];

    /// Boards known by name, `(name, description)`, for `zerosum games`; none by default.
    fn named_boards(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// Reads a spec of this family (its name matched; `spec` holds the rest), checking every
    /// size, and builds it with [`GameSpec::new`].
    fn parse(&self, spec: &SpecText<'_>) -> Result<GameSpec, SpecError>;

    /// The spec of the same game on a board `width` columns wide and `height` rows high,
    /// other options kept (GTP's `boardsize`); else why not, after `unacceptable size: `.
    /// By default boards cannot be resized.
    fn resized(&self, _spec: &GameSpec, _width: usize, _height: usize) -> Result<GameSpec, String> {
        Err(format!("{} boards have no size to set", self.title()))
    }

    /// How the board is laid out, for the page's drawing and GTP's points.
    fn layout(&self) -> Layout;

    /// How `side`'s stones look on the text board of the position whose JSON board is
    /// `board` (legends and prompts: `X = you`). By default `X` for the first player and `O`
    /// for the second, no colour.
    fn stones(&self, _board: &Value, side: Side) -> Stones {
        Stones {
            glyph: if side == Side::First { 'X' } else { 'O' },
            colour: None,
        }
    }

    /// What the page calls `side`'s stones (`Red`, `X`, `Black`), in the position whose JSON
    /// board is `board`: by default the colour of its [`Family::stones`], else their mark.
    fn side_name(&self, board: &Value, side: Side) -> String {
        let stones = self.stones(board, side);
        stones
            .colour
            .map_or_else(|| stones.glyph.to_string(), str::to_string)
    }

    /// Whether a swap played as the second move exchanges the players' colours (Hex
    /// `swap-sides`, Atoll's pie rule), for the protocols and files that name colours. False
    /// by default.
    fn swap_exchanges_colours(&self, _spec: &GameSpec) -> bool {
        false
    }

    /// How a game of `spec` was won by its rules, the loser being called `loser`: `four in a
    /// row, framed [ ] on the board`.
    fn win_text(&self, spec: &GameSpec, loser: &str) -> String;

    /// The search an engine uses on this family when its settings name none. Alpha-beta by
    /// default.
    fn default_search(&self) -> SearchStyle {
        SearchStyle::AlphaBeta
    }

    /// The search that judges random openings by default (`zerosum openings --balanced`): a
    /// 4-ply search within 50 evaluation units by default.
    fn opening_search(&self) -> OpeningSearch {
        OpeningSearch {
            depth: 4,
            window: 50,
        }
    }

    /// The cells of a `spec` board, as many moves as a game is expected to take (for
    /// balancing tournament shards); `None` (the default) counts the legal moves of the
    /// starting position instead.
    fn cells(&self, _spec: &GameSpec) -> Option<usize> {
        None
    }
}

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

/// The kind of search an engine uses on a family by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchStyle {
    /// Alpha-beta (PVS) with the family's evaluator.
    AlphaBeta,
    /// Monte Carlo tree search.
    MonteCarlo,
}

/// The search that judges an opening: `depth` plies, kept when the evaluation of the side to
/// move is within `-window..=window` evaluation units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpeningSearch {
    pub depth: usize,
    pub window: i32,
}

/// `four`, or the figures past ten: how many stones a run takes, in words.
pub(crate) fn count_word(n: usize) -> String {
    const WORDS: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS.get(n).map_or(n.to_string(), |word| word.to_string())
}
