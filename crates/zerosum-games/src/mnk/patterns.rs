//! Pattern codes of five in a row (K = 5), kept incrementally: for every cell and each of the
//! four directions, what a stone of each side on that cell would make on that line, read from
//! a table indexed by the stones around it; the four directions combined into one code per
//! cell and side, which rates moves and feeds the evaluation.
//!
//! # Line keys
//!
//! The key of a cell in one direction holds the five cells on each side of it, two bits each
//! (0 empty, 1 first player, 2 second player, 3 off the board), the cell itself left out:
//!
//! ```text
//!   offsets  -5 -4 -3 -2 -1  [cell]  +1 +2 +3 +4 +5
//!   slots     0  1  2  3  4           5  6  7  8  9      key bits 2*slot, 2*slot + 1
//! ```
//!
//! A stone placed on a cell changes the keys of the (at most 40) cells within five steps of it
//! on its four lines, and only theirs: play and undo update those keys and their codes.
//!
//! # Line threats
//!
//! A key is classified once, into a [`LineThreat`] per side: what that side's stone on the
//! cell makes on the line (a five, an open four, a four, an open three, ...). Freestyle looks
//! four cells each way (a five needs no more; the table has 2^16 entries and stays in cache);
//! standard and renju five, to see overlines (2^20 entries). The classification is recursive:
//! a line is an open four when two empty cells of it would make fives, a four with one, an
//! open three when an empty cell would make an open four, a three when one would make a four,
//! and so on down to a single stone; cells beyond the window count as blocked. Overlines do
//! not win under standard rules (either side) and renju (Black): a stone that makes six or
//! more there is an [`LineThreat::Overline`]. For renju's Black, two fives made on one line
//! less than five cells apart (`XXX.X.XXX` filled in the middle) are two fours, which is
//! forbidden: [`LineThreat::DoubleFour`].
//!
//! # Cell codes
//!
//! The four line threats of a cell for one side, as a multiset, are one of [`CELL_CODES`]
//! codes (the directions' order does not matter); the code gives the cell's [`CellThreat`]
//! (five, open four or two fours, four and open three, ..., forbidden for renju's Black) and
//! is what evaluation weights are indexed by. The board counts, over the empty cells, how many
//! have each code and each threat, per side, so that an evaluation is a dot product and
//! "does the opponent have a four" one load.

use std::sync::OnceLock;

use super::rules::Rule;

/// Cells looked at on each side of a cell by standard and renju (freestyle looks at four).
pub const HALF_LINE: usize = 5;
/// Slot value of an empty cell, of the players' stones and of a cell off the board.
const EMPTY: u32 = 0;
const WALL: u32 = 3;

/// What a stone of one side on an empty cell makes on one line, from nothing to a five.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LineThreat {
    /// Nothing: no five can ever be made on this line through the cell.
    None,
    /// Six or more in a row where that does not win (standard; renju's Black).
    Overline,
    /// Renju's Black: two fours on one line, forbidden.
    DoubleFour,
    /// One stone that can still grow into a closed two.
    One,
    /// One stone that can grow into an open two.
    OpenOne,
    /// A two that can become a closed three.
    Two,
    /// A two that can become an open three.
    OpenTwo,
    /// A closed three: one more stone makes a four.
    Three,
    /// An open three: one more stone makes an open four.
    OpenThree,
    /// A four: one empty cell makes five.
    Four,
    /// An open four: two empty cells make five.
    OpenFour,
    /// Five in a row (a win under the rule).
    Five,
}

/// Number of [`LineThreat`] values.
pub const LINE_THREATS: usize = 12;

impl LineThreat {
    /// Every value, in order.
    pub const ALL: [LineThreat; LINE_THREATS] = [
        LineThreat::None,
        LineThreat::Overline,
        LineThreat::DoubleFour,
        LineThreat::One,
        LineThreat::OpenOne,
        LineThreat::Two,
        LineThreat::OpenTwo,
        LineThreat::Three,
        LineThreat::OpenThree,
        LineThreat::Four,
        LineThreat::OpenFour,
        LineThreat::Five,
    ];

    #[inline]
    fn from_index(index: u8) -> LineThreat {
        LineThreat::ALL[index as usize]
    }

    /// The threat's name in weights files: `none`, `overline`, `double-four`, `one`,
    /// `open-one`, `two`, `open-two`, `three`, `open-three`, `four`, `open-four`, `five`.
    pub fn name(self) -> &'static str {
        match self {
            LineThreat::None => "none",
            LineThreat::Overline => "overline",
            LineThreat::DoubleFour => "double-four",
            LineThreat::One => "one",
            LineThreat::OpenOne => "open-one",
            LineThreat::Two => "two",
            LineThreat::OpenTwo => "open-two",
            LineThreat::Three => "three",
            LineThreat::OpenThree => "open-three",
            LineThreat::Four => "four",
            LineThreat::OpenFour => "open-four",
            LineThreat::Five => "five",
        }
    }

    /// The threat named `name` ([`LineThreat::name`]).
    pub fn named(name: &str) -> Option<LineThreat> {
        LineThreat::ALL
            .into_iter()
            .find(|threat| threat.name() == name)
    }
}

/// What a stone of one side on an empty cell makes on its four lines together, weakest first.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CellThreat {
    /// Less than an open two.
    None,
    /// A renju point Black may not play, by its lines (an overline, two fours, two open
    /// threes); two open threes may still be allowed ([`super::forbidden`] decides).
    Forbidden,
    /// An open two.
    OpenTwo,
    /// A closed three.
    Three,
    /// Two open twos.
    DoubleTwo,
    /// A closed three with another closed three or an open two.
    ThreeTwo,
    /// An open three.
    OpenThree,
    /// An open three with a closed three or an open two.
    ThreePlus,
    /// Two open threes (a win unless the opponent has fours).
    DoubleThree,
    /// A four.
    Four,
    /// A four with a closed three or an open two.
    FourPlus,
    /// A four and an open three (wins unless answered with fours).
    FourThree,
    /// An open four, or two fours: wins on the next move.
    OpenFour,
    /// Five in a row: wins now.
    Five,
}

/// Number of [`CellThreat`] values.
pub const CELL_THREATS: usize = 14;

impl CellThreat {
    /// Every value, in order.
    pub const ALL: [CellThreat; CELL_THREATS] = [
        CellThreat::None,
        CellThreat::Forbidden,
        CellThreat::OpenTwo,
        CellThreat::Three,
        CellThreat::DoubleTwo,
        CellThreat::ThreeTwo,
        CellThreat::OpenThree,
        CellThreat::ThreePlus,
        CellThreat::DoubleThree,
        CellThreat::Four,
        CellThreat::FourPlus,
        CellThreat::FourThree,
        CellThreat::OpenFour,
        CellThreat::Five,
    ];

    /// Whether the cell makes a four or better (a five, an open four, a four).
    #[inline]
    pub fn is_four(self) -> bool {
        self >= CellThreat::Four
    }

    /// The threat's name in weights files: `none`, `forbidden`, `open-two`, `three`,
    /// `double-two`, `three-two`, `open-three`, `three-plus`, `double-three`, `four`,
    /// `four-plus`, `four-three`, `open-four`, `five`.
    pub fn name(self) -> &'static str {
        match self {
            CellThreat::None => "none",
            CellThreat::Forbidden => "forbidden",
            CellThreat::OpenTwo => "open-two",
            CellThreat::Three => "three",
            CellThreat::DoubleTwo => "double-two",
            CellThreat::ThreeTwo => "three-two",
            CellThreat::OpenThree => "open-three",
            CellThreat::ThreePlus => "three-plus",
            CellThreat::DoubleThree => "double-three",
            CellThreat::Four => "four",
            CellThreat::FourPlus => "four-plus",
            CellThreat::FourThree => "four-three",
            CellThreat::OpenFour => "open-four",
            CellThreat::Five => "five",
        }
    }

    /// The threat named `name` ([`CellThreat::name`]).
    pub fn named(name: &str) -> Option<CellThreat> {
        CellThreat::ALL
            .into_iter()
            .find(|threat| threat.name() == name)
    }
}

/// Number of cell codes: multisets of four line threats, `C(12 + 3, 4)`.
pub const CELL_CODES: usize = 1365;

/// The cell code of four line threats, and back.
struct CodeTables {
    /// Indexed by `((a * 12 + b) * 12 + c) * 12 + d`.
    code: Vec<u16>,
    /// The four line threats of each code, in increasing order.
    threats: Vec<[LineThreat; 4]>,
    /// The cell threat of each code: ordinary, and for renju's Black (forbidden shapes).
    cell: [Vec<CellThreat>; 2],
}

fn code_tables() -> &'static CodeTables {
    static TABLES: OnceLock<CodeTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let n = LINE_THREATS;
        let mut threats = Vec::with_capacity(CELL_CODES);
        for a in 0..n {
            for b in a..n {
                for c in b..n {
                    for d in c..n {
                        threats.push([a, b, c, d].map(|i| LineThreat::ALL[i]));
                    }
                }
            }
        }
        debug_assert_eq!(threats.len(), CELL_CODES);
        let mut code = vec![0u16; n * n * n * n];
        for (index, slot) in code.iter_mut().enumerate() {
            let mut four = [
                index / (n * n * n),
                index / (n * n) % n,
                index / n % n,
                index % n,
            ];
            four.sort_unstable();
            let sorted = four.map(|i| LineThreat::ALL[i]);
            *slot = threats
                .iter()
                .position(|t| *t == sorted)
                .expect("every sorted tuple has a code") as u16;
        }
        let cell = [false, true].map(|forbid| {
            threats
                .iter()
                .map(|&four| combined_threat(four, forbid))
                .collect::<Vec<_>>()
        });
        CodeTables {
            code,
            threats,
            cell,
        }
    })
}

/// The cell threat of four line threats; `forbid` for renju's Black (overlines, two fours and
/// two open threes are [`CellThreat::Forbidden`]).
pub fn combined_threat(lines: [LineThreat; 4], forbid: bool) -> CellThreat {
    let count = |threat: LineThreat| lines.iter().filter(|&&t| t == threat).count();
    let (fives, open_fours, fours) = (
        count(LineThreat::Five),
        count(LineThreat::OpenFour),
        count(LineThreat::Four),
    );
    let (open_threes, threes, open_twos) = (
        count(LineThreat::OpenThree),
        count(LineThreat::Three),
        count(LineThreat::OpenTwo),
    );
    if fives > 0 {
        return CellThreat::Five;
    }
    if forbid
        && (count(LineThreat::Overline) + count(LineThreat::DoubleFour) > 0
            || open_fours + fours >= 2
            || open_threes >= 2)
    {
        return CellThreat::Forbidden;
    }
    if open_fours > 0 || fours >= 2 {
        CellThreat::OpenFour
    } else if fours == 1 {
        if open_threes > 0 {
            CellThreat::FourThree
        } else if threes + open_twos > 0 {
            CellThreat::FourPlus
        } else {
            CellThreat::Four
        }
    } else if open_threes >= 2 {
        CellThreat::DoubleThree
    } else if open_threes == 1 {
        if threes + open_twos > 0 {
            CellThreat::ThreePlus
        } else {
            CellThreat::OpenThree
        }
    } else if threes >= 2 || threes == 1 && open_twos > 0 {
        CellThreat::ThreeTwo
    } else if open_twos >= 2 {
        CellThreat::DoubleTwo
    } else if threes == 1 {
        CellThreat::Three
    } else if open_twos == 1 {
        CellThreat::OpenTwo
    } else {
        CellThreat::None
    }
}

/// The four line threats of a cell code, in increasing order.
pub fn code_threats(code: u16) -> [LineThreat; 4] {
    code_tables().threats[code as usize]
}

/// The cell code of four line threats, in any order.
pub fn code_of(lines: [LineThreat; 4]) -> u16 {
    let [a, b, c, d] = lines.map(|threat| threat as usize);
    code_tables().code[((a * LINE_THREATS + b) * LINE_THREATS + c) * LINE_THREATS + d]
}

/// A cell's mark on a line seen from one side.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Own = 0,
    Other = 1,
    Empty = 2,
}

/// How one side's lines are classified under a rule.
#[derive(Clone, Copy)]
struct Classing {
    /// Cells each side of the centre.
    half: usize,
    /// Whether six or more in a row is a five.
    overline_wins: bool,
    /// Whether two fours on one line are told apart from an open four (renju's Black).
    double_four: bool,
}

/// The line threat of `line` (`2 * half + 1` marks, the centre the side's own stone), memoised
/// by the line's base-3 value in `memo` (255: not known yet).
fn classify(line: &[Mark], how: Classing, memo: &mut [u8]) -> LineThreat {
    let centre = how.half;
    let len = 2 * how.half + 1;
    let index = line[..len]
        .iter()
        .fold(0usize, |acc, &mark| acc * 3 + mark as usize);
    if memo[index] != u8::MAX {
        return LineThreat::from_index(memo[index]);
    }
    let mut run = 1;
    let mut start = centre;
    let mut counting = true;
    for i in (0..centre).rev() {
        match line[i] {
            Mark::Other => break,
            Mark::Own => run += counting as usize,
            Mark::Empty => counting = false,
        }
        start = i;
    }
    let mut end = centre;
    counting = true;
    for (i, &mark) in line.iter().enumerate().take(len).skip(centre + 1) {
        match mark {
            Mark::Other => break,
            Mark::Own => run += counting as usize,
            Mark::Empty => counting = false,
        }
        end = i;
    }
    let threat = if run >= 6 {
        if how.overline_wins {
            LineThreat::Five
        } else {
            LineThreat::Overline
        }
    } else if run == 5 {
        LineThreat::Five
    } else if end - start + 1 < 5 {
        LineThreat::None
    } else {
        let mut counts = [0usize; LINE_THREATS];
        let mut five_at = [0usize; 2];
        let mut shifted = [Mark::Other; 2 * HALF_LINE + 1];
        for i in start..=end {
            if line[i] != Mark::Empty {
                continue;
            }
            for (j, slot) in shifted.iter_mut().enumerate().take(len) {
                let from = (j + i).checked_sub(centre).filter(|&from| from < len);
                *slot = from.map_or(Mark::Other, |from| line[from]);
            }
            shifted[centre] = Mark::Own;
            let made = classify(&shifted, how, memo);
            if made == LineThreat::Five && counts[LineThreat::Five as usize] < 2 {
                five_at[counts[LineThreat::Five as usize]] = i;
            }
            counts[made as usize] += 1;
        }
        let n = |threat: LineThreat| counts[threat as usize];
        if n(LineThreat::Five) >= 2 {
            if how.double_four && five_at[1] - five_at[0] < 5 {
                LineThreat::DoubleFour
            } else {
                LineThreat::OpenFour
            }
        } else if n(LineThreat::Five) == 1 {
            LineThreat::Four
        } else if n(LineThreat::OpenFour) > 0 {
            LineThreat::OpenThree
        } else if n(LineThreat::Four) > 0 {
            LineThreat::Three
        } else if n(LineThreat::OpenThree) > 0 {
            LineThreat::OpenTwo
        } else if n(LineThreat::Three) > 0 {
            LineThreat::Two
        } else if n(LineThreat::OpenTwo) > 0 {
            LineThreat::OpenOne
        } else if n(LineThreat::Two) > 0 {
            LineThreat::One
        } else {
            LineThreat::None
        }
    };
    memo[index] = threat as u8;
    threat
}

/// The line table of a rule: per key, the line threat of the first player (low four bits) and
/// of the second (high four bits).
struct LineTable {
    /// Cells each side of the centre: 4 (freestyle) or 5.
    half: usize,
    entries: Vec<u8>,
}

/// The table of `rule`, built on first use (2^16 entries for freestyle, 2^20 otherwise).
fn line_table(rule: Rule) -> &'static LineTable {
    static TABLES: [OnceLock<LineTable>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let index = Rule::ALL.iter().position(|&r| r == rule).unwrap_or(0);
    TABLES[index].get_or_init(|| build_line_table(rule))
}

fn build_line_table(rule: Rule) -> LineTable {
    let half = if rule == Rule::Freestyle {
        4
    } else {
        HALF_LINE
    };
    let len = 2 * half + 1;
    let sides = [true, false].map(|first| Classing {
        half,
        overline_wins: rule.overline_wins(first),
        double_four: rule == Rule::Renju && first,
    });
    let mut memos = [
        vec![u8::MAX; 3usize.pow(len as u32)],
        vec![u8::MAX; 3usize.pow(len as u32)],
    ];
    let keys = 1usize << (4 * half);
    let mut entries = vec![0u8; keys];
    let mut line = [Mark::Other; 2 * HALF_LINE + 1];
    for (key, entry) in entries.iter_mut().enumerate() {
        for side in 0..2 {
            for (position, mark) in line.iter_mut().enumerate().take(len) {
                if position == half {
                    *mark = Mark::Own;
                    continue;
                }
                let slot = if position < half {
                    position
                } else {
                    position - 1
                };
                *mark = match (key >> (2 * slot)) & 3 {
                    0 => Mark::Empty,
                    1 if side == 0 => Mark::Own,
                    2 if side == 1 => Mark::Own,
                    _ => Mark::Other,
                };
            }
            let threat = classify(&line, sides[side], &mut memos[side]);
            *entry |= (threat as u8) << (4 * side);
        }
    }
    LineTable { half, entries }
}

impl LineTable {
    /// The line threats (first player, second player) of a full ten-slot key.
    #[inline]
    fn lookup(&self, key: u32) -> u8 {
        let index = if self.half == 4 {
            (key >> 2) & 0xffff
        } else {
            key
        };
        self.entries[index as usize]
    }
}

/// The line threat of a key for a side (0 first player, 1 second), under `rule`: what that
/// side's stone on the key's centre makes on the line. For tests and tools; the board reads
/// its codes incrementally.
pub fn classify_key(rule: Rule, key: u32, side: usize) -> LineThreat {
    LineThreat::from_index(line_table(rule).lookup(key) >> (4 * side) & 15)
}

/// Cell steps (row, column) of the four directions: horizontal, vertical, diagonal
/// (down-right), anti-diagonal (down-left).
pub(crate) const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// The slot of the cell `offset` steps away (offset in -5..=5, not 0) in a key.
#[inline]
const fn slot(offset: isize) -> u32 {
    if offset < 0 {
        (offset + HALF_LINE as isize) as u32
    } else {
        (offset + HALF_LINE as isize - 1) as u32
    }
}

/// The pattern state of a K = 5 position (see the module documentation): line keys, line
/// threats and cell codes of every cell, and the counts of codes and threats over the empty
/// cells, per side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternBoard {
    rule: Rule,
    rows: usize,
    cols: usize,
    /// Per cell: 0 empty, 1 first player, 2 second player.
    marks: Vec<u8>,
    /// Per cell and direction: the line key.
    keys: Vec<[u32; 4]>,
    /// Per cell and direction: the line threats (first player low four bits).
    lines: Vec<[u8; 4]>,
    /// Per cell and side: the cell code (kept for occupied cells too, as of their last update).
    codes: Vec<[u16; 2]>,
    /// Per side: how many empty cells have each code.
    code_counts: Box<[[u16; CELL_CODES]; 2]>,
    /// Per side: how many empty cells have each cell threat.
    threat_counts: [[u16; CELL_THREATS]; 2],
    /// Number of stones.
    stones: usize,
}

impl PatternBoard {
    /// The empty `rows` x `cols` board under `rule`.
    pub fn new(rows: usize, cols: usize, rule: Rule) -> Self {
        let cells = rows * cols;
        let mut keys = vec![[0u32; 4]; cells];
        for (cell, cell_keys) in keys.iter_mut().enumerate() {
            let (row, col) = ((cell / cols) as isize, (cell % cols) as isize);
            for (direction, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
                for offset in -(HALF_LINE as isize)..=HALF_LINE as isize {
                    let (r, c) = (row + dr * offset, col + dc * offset);
                    if offset != 0 && (r < 0 || r >= rows as isize || c < 0 || c >= cols as isize) {
                        cell_keys[direction] |= WALL << (2 * slot(offset));
                    }
                }
            }
        }
        let mut board = PatternBoard {
            rule,
            rows,
            cols,
            marks: vec![0; cells],
            keys,
            lines: vec![[0; 4]; cells],
            codes: vec![[0; 2]; cells],
            code_counts: Box::new([[0; CELL_CODES]; 2]),
            threat_counts: [[0; CELL_THREATS]; 2],
            stones: 0,
        };
        for cell in 0..cells {
            board.refresh(cell);
            board.count(cell, 1);
        }
        board
    }

    /// The board of the stones `first` and `second` (cell lists) under `rule`.
    pub fn with_stones(
        rows: usize,
        cols: usize,
        rule: Rule,
        first: impl IntoIterator<Item = usize>,
        second: impl IntoIterator<Item = usize>,
    ) -> Self {
        let mut board = PatternBoard::new(rows, cols, rule);
        for cell in first {
            board.place(cell, 0);
        }
        for cell in second {
            board.place(cell, 1);
        }
        board
    }

    /// Makes this board a copy of `other` (of the same size), reusing its memory.
    pub fn copy_from(&mut self, other: &PatternBoard) {
        self.rule = other.rule;
        self.rows = other.rows;
        self.cols = other.cols;
        self.marks.clone_from(&other.marks);
        self.keys.clone_from(&other.keys);
        self.lines.clone_from(&other.lines);
        self.codes.clone_from(&other.codes);
        *self.code_counts = *other.code_counts;
        self.threat_counts = other.threat_counts;
        self.stones = other.stones;
    }

    /// The rule the codes are read under.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    #[inline]
    pub fn rows(&self) -> usize {
        self.rows
    }

    #[inline]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of stones on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.stones
    }

    /// Whether `cell` holds no stone.
    #[inline]
    pub fn is_empty(&self, cell: usize) -> bool {
        self.marks[cell] == 0
    }

    /// The stone on `cell`: 0 none, 1 first player, 2 second player.
    #[inline]
    pub fn mark(&self, cell: usize) -> u8 {
        self.marks[cell]
    }

    /// The line key of `cell` in `direction` (slots in the module documentation).
    #[inline]
    pub fn key(&self, cell: usize, direction: usize) -> u32 {
        self.keys[cell][direction]
    }

    /// What `side`'s stone on the empty `cell` makes on its line in `direction`.
    #[inline]
    pub fn line_threat(&self, cell: usize, direction: usize, side: usize) -> LineThreat {
        LineThreat::from_index(self.lines[cell][direction] >> (4 * side) & 15)
    }

    /// The cell code of the empty `cell` for `side`.
    #[inline]
    pub fn code(&self, cell: usize, side: usize) -> u16 {
        self.codes[cell][side]
    }

    /// The cell threat of the empty `cell` for `side` (by its lines; a renju double-three may
    /// still be allowed, see [`super::forbidden`]).
    #[inline]
    pub fn threat(&self, cell: usize, side: usize) -> CellThreat {
        self.threat_of_code(self.codes[cell][side], side)
    }

    #[inline]
    fn threat_of_code(&self, code: u16, side: usize) -> CellThreat {
        let forbid = self.rule == Rule::Renju && side == 0;
        code_tables().cell[forbid as usize][code as usize]
    }

    /// How many empty cells have cell code `code` for `side`.
    #[inline]
    pub fn code_counts(&self, side: usize) -> &[u16; CELL_CODES] {
        &self.code_counts[side]
    }

    /// How many empty cells have the cell threat `threat` for `side`.
    #[inline]
    pub fn threat_count(&self, side: usize, threat: CellThreat) -> u16 {
        self.threat_counts[side][threat as usize]
    }

    /// The empty cells whose threat for `side` is `threat`, in cell order.
    pub fn cells_with(&self, side: usize, threat: CellThreat) -> impl Iterator<Item = usize> + '_ {
        let wanted = self.threat_count(side, threat) as usize;
        (0..self.marks.len())
            .filter(move |&cell| self.marks[cell] == 0 && self.threat(cell, side) == threat)
            .take(wanted)
    }

    /// The cells `offset` steps (±1..=±5) from `cell` along `direction`, if on the board.
    #[inline]
    pub fn step(&self, cell: usize, direction: usize, offset: isize) -> Option<usize> {
        let (dr, dc) = DIRECTIONS[direction];
        let row = (cell / self.cols) as isize + dr * offset;
        let col = (cell % self.cols) as isize + dc * offset;
        (row >= 0 && row < self.rows as isize && col >= 0 && col < self.cols as isize)
            .then(|| row as usize * self.cols + col as usize)
    }

    /// Adds (`sign` 1) or removes (-1) the empty `cell`'s codes and threats from the counts.
    #[inline]
    fn count(&mut self, cell: usize, sign: i32) {
        for side in 0..2 {
            let code = self.codes[cell][side];
            let threat = self.threat_of_code(code, side);
            let count = &mut self.code_counts[side][code as usize];
            *count = (*count as i32 + sign) as u16;
            let count = &mut self.threat_counts[side][threat as usize];
            *count = (*count as i32 + sign) as u16;
        }
    }

    /// Recomputes the line threats and codes of `cell` from its keys.
    #[inline]
    fn refresh(&mut self, cell: usize) {
        let table = line_table(self.rule);
        let lines = self.keys[cell].map(|key| table.lookup(key));
        self.lines[cell] = lines;
        let codes = &code_tables().code;
        let n = LINE_THREATS;
        for side in 0..2 {
            let t = lines.map(|byte| (byte >> (4 * side) & 15) as usize);
            self.codes[cell][side] = codes[((t[0] * n + t[1]) * n + t[2]) * n + t[3]];
        }
    }

    /// Puts a stone of `side` (0 first player, 1 second) on the empty `cell`.
    pub fn place(&mut self, cell: usize, side: usize) {
        debug_assert_eq!(self.marks[cell], 0);
        self.count(cell, -1);
        self.marks[cell] = side as u8 + 1;
        self.stones += 1;
        self.update_around(cell, side as u32 + 1);
    }

    /// Takes the stone off `cell` (the reverse of [`PatternBoard::place`]).
    pub fn remove(&mut self, cell: usize) {
        debug_assert_ne!(self.marks[cell], 0);
        self.marks[cell] = 0;
        self.stones -= 1;
        self.update_around(cell, EMPTY);
        self.refresh(cell);
        self.count(cell, 1);
    }

    /// Writes `value` into the slot of `cell` in the keys of the cells around it, and
    /// recomputes those cells' codes (counted again if empty).
    #[inline]
    fn update_around(&mut self, cell: usize, value: u32) {
        let table = line_table(self.rule);
        let codes = &code_tables().code;
        let forbid = self.rule == Rule::Renju;
        let cell_tables = &code_tables().cell;
        let (row, col) = ((cell / self.cols) as isize, (cell % self.cols) as isize);
        let (rows, cols) = (self.rows as isize, self.cols as isize);
        for (direction, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
            for offset in -(HALF_LINE as isize)..=HALF_LINE as isize {
                if offset == 0 {
                    continue;
                }
                let (r, c) = (row + dr * offset, col + dc * offset);
                if r < 0 || r >= rows || c < 0 || c >= cols {
                    continue;
                }
                let other = (r * cols + c) as usize;
                let shift = 2 * slot(-offset);
                let key = &mut self.keys[other][direction];
                *key = (*key & !(3 << shift)) | value << shift;
                if self.marks[other] != 0 {
                    continue;
                }
                let byte = table.lookup(*key);
                if self.lines[other][direction] == byte {
                    // The line threats, and so the codes, are as they were.
                    continue;
                }
                self.lines[other][direction] = byte;
                let lines = self.lines[other];
                for side in 0..2 {
                    let t = lines.map(|byte| (byte >> (4 * side) & 15) as usize);
                    let n = LINE_THREATS;
                    let new = codes[((t[0] * n + t[1]) * n + t[2]) * n + t[3]];
                    let old = std::mem::replace(&mut self.codes[other][side], new);
                    if old != new {
                        let table = &cell_tables[(forbid && side == 0) as usize];
                        self.code_counts[side][old as usize] -= 1;
                        self.code_counts[side][new as usize] += 1;
                        self.threat_counts[side][table[old as usize] as usize] -= 1;
                        self.threat_counts[side][table[new as usize] as usize] += 1;
                    }
                }
            }
        }
    }
}
