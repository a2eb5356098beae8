//! A game family in one place: the [`Family`] trait that each family's module implements (in
//! its `family.rs`), the specs of its games ([`GameSpec`]: a family and its own parameters,
//! read by the family from a [`SpecText`]), and the small types of the facts it states.
//!
//! A spec's text is `FAMILY[:ARGUMENTS[:OPTION...]]`, read without regard to case. Parsing
//! (in the registry, [`crate::families`]) expands the aliases of every family, finds the
//! family by name and hands it the rest as a [`SpecText`]; the family checks its sizes and
//! builds the spec from its own parameters ([`GameSpec::new`]).
//!
//! Code outside a family asks its facts through the trait instead of matching on families:
//! the arena (the default search, the judge of openings, the expected length of a game), the
//! protocols and the page (the [`Layout`] of the board, who has which colour), the command line
//! (the words of a win). An adapter for a file format or a protocol that only some families
//! have (SGF for Hex and Atoll, PSQ and Gomocup for m,n,k, the Connect-X solver) reads the
//! family's own parameters with [`GameSpec::params`] instead.

use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde_json::Value;
pub use zerosum_core::MAX_SIDE;
use zerosum_core::{Side, SpecError};

use crate::layout::Layout;
use crate::stones::Stones;

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

    /// The game of `spec` as people name it: `Tic-tac-toe`, `Gomoku`, `Connect Four`, `Hex`,
    /// `Chain Reaction`; a game without a name of its own goes by the family's title
    /// (`m,n,k`, `Connect-X`), which is the default.
    fn game_name(&self, _spec: &GameSpec) -> String {
        self.title().to_string()
    }

    /// The board and rules of `spec` in a few words, shown after its [`Family::game_name`]:
    /// `6 rows x 7 columns, four in a row`, `11x11, swap rule`, `standard board`. By default
    /// the spec itself.
    fn board_words(&self, spec: &GameSpec) -> String {
        spec.to_string()
    }

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

#[derive(Clone)]
pub struct GameSpec {
    family: &'static dyn Family,
    params: Arc<dyn Any + Send + Sync>,
    canonical: Arc<str>,
}

impl GameSpec {
    /// The spec of `family` with `params`, checked by the family, whose `Display` writes the
    /// canonical spec (`mnk:3x3x3`). Only the family calls this, with its own parameter type:
    /// [`GameSpec::params`] gives them back to its code and to the adapters that know it.
    pub fn new<P>(family: &'static dyn Family, params: P) -> GameSpec
    where
        P: Any + Send + Sync + fmt::Display,
    {
        let canonical = params.to_string().into();
        GameSpec {
            family,
            params: Arc::new(params),
            canonical,
        }
    }

    /// The family: its name, facts and rules of the edges.
    pub fn family(&self) -> &'static dyn Family {
        self.family
    }

    /// The family's parameters, if they are a `P` (they are exactly when `P` is the family's
    /// parameter type): `spec.params::<MnkSpec>()` is `Some` for m,n,k specs only.
    pub fn params<P: Any>(&self) -> Option<&P> {
        self.params.downcast_ref()
    }
}

impl PartialEq for GameSpec {
    fn eq(&self, other: &GameSpec) -> bool {
        self.family.name() == other.family.name() && self.canonical == other.canonical
    }
}

impl Eq for GameSpec {}

impl Hash for GameSpec {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.canonical.hash(state);
    }
}

impl fmt::Debug for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameSpec({})", self.canonical)
    }
}

impl fmt::Display for GameSpec {
    /// The canonical spec, which parses back to the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical)
    }
}

/// A spec being parsed, split at its colons after the family's name: `hex:11x9:swap-sides`
/// has the arguments `11x9` and the options `["swap-sides"]` (lower case, aliases expanded).
/// Errors quote the spec as it was written.
#[derive(Clone, Debug)]
pub struct SpecText<'a> {
    written: &'a str,
    args: Option<&'a str>,
    options: Vec<&'a str>,
}

impl<'a> SpecText<'a> {
    /// The spec written `written` (trimmed), its `args` and `options` after the family's name
    /// (lower case, aliases expanded).
    pub(crate) fn new(written: &'a str, args: Option<&'a str>, options: Vec<&'a str>) -> Self {
        SpecText {
            written,
            args,
            options,
        }
    }

    /// The spec as written (trimmed).
    pub fn written(&self) -> &'a str {
        self.written
    }

    /// What follows the family's name and a colon, if anything does.
    pub fn args(&self) -> Option<&'a str> {
        self.args
    }

    /// The parts after the arguments, each after a colon.
    pub fn options(&self) -> &[&'a str] {
        &self.options
    }

    /// The arguments, or an error naming the expected `form`.
    pub fn need_args(&self, form: &str) -> Result<&'a str, SpecError> {
        self.args
            .ok_or_else(|| self.invalid(format!("expected {form}")))
    }

    /// An error unless there are no options (`mnk takes no options`).
    pub fn no_options(&self, family: &str) -> Result<(), SpecError> {
        match self.options.is_empty() {
            true => Ok(()),
            false => Err(self.invalid(format!("{family} takes no options"))),
        }
    }

    /// `text` (`AxBxC...`) as exactly `count` numbers, or an error naming the expected `form`.
    pub fn dimensions(
        &self,
        text: &str,
        count: usize,
        form: &str,
    ) -> Result<Vec<usize>, SpecError> {
        let parts: Vec<&str> = text.split(['x', 'X']).collect();
        if parts.len() != count {
            return Err(self.invalid(format!("expected {form}")));
        }
        parts
            .iter()
            .map(|p| {
                p.trim()
                    .parse::<usize>()
                    .map_err(|_| self.invalid(format!("`{p}` is not a number (expected {form})")))
            })
            .collect()
    }

    /// The error of this spec, for `reason`.
    pub fn invalid(&self, reason: impl Into<String>) -> SpecError {
        invalid(self.written, reason)
    }
}

/// The error of the spec written `spec`, for `reason`.
pub fn invalid(spec: &str, reason: impl Into<String>) -> SpecError {
    SpecError::Invalid {
        spec: spec.to_string(),
        reason: reason.into(),
    }
}

/// Why a side (`what`: `rows`, `width`...) of `value` is refused, if it is: sides are
/// between `min` and [`MAX_SIDE`].
pub fn side_problem(what: &str, value: usize, min: usize) -> Option<String> {
    (!(min..=MAX_SIDE).contains(&value))
        .then(|| format!("{what} must be between {min} and {MAX_SIDE}, not {value}"))
}

/// Why a `rows x cols` board with a run of `k` (called `name`, at most `max_run`) is refused,
/// if it is. K may exceed one side but not both: the course frameworks refuse `K > M && K > N`.
pub(crate) fn run_problem(
    rows: usize,
    cols: usize,
    k: usize,
    name: &str,
    max_run: usize,
) -> Option<String> {
    side_problem("rows", rows, 1)
        .or_else(|| side_problem("columns", cols, 1))
        .or_else(|| {
            (!(1..=max_run).contains(&k))
                .then(|| format!("the run length must be between 1 and {max_run}, not {k}"))
        })
        .or_else(|| {
            (k > rows && k > cols).then(|| {
                format!(
                    "a run of {k} cannot fit on a {rows}x{cols} board \
                     ({name} must not exceed both M and N)"
                )
            })
        })
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
/// A board of `rows` and `cols` in words: `15x15` when square, else `6 rows x 7 columns`.
pub(crate) fn board_size_words(rows: usize, cols: usize) -> String {
    if rows == cols {
        format!("{rows}x{cols}")
    } else {
        format!("{rows} rows x {cols} columns")
    }
}

pub(crate) fn count_word(n: usize) -> String {
    const WORDS: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS.get(n).map_or(n.to_string(), |word| word.to_string())
}
