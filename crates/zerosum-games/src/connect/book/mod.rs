//! Opening books: the exact solver scores of the positions near the start of a Connect-X game,
//! stored by mirror-canonical key, so that the opening needs no search.
//!
//! A book holds every position of at most [`Book::depth`] stones that is not over (all of
//! them: "full width"), and beyond that, up to [`Book::lines`] stones, the positions met on the
//! lines where one side always plays a best move and the other anything, for each side, with
//! every child of those positions (so that every move of a position on such a line has its
//! value). Scores are the solver's ([`ConnectSolver::solve`](super::ConnectSolver::solve),
//! strong): from the side to move, 0 a draw, a win the more the sooner.
//!
//! Keys are Pons' `current + mask` of the position or of its mirror image (columns reversed),
//! whichever is smaller, so a position and its mirror share one entry.
//!
//! # File format (version 1, little-endian)
//!
//! ```text
//! offset size  field
//!      0    8  magic "ZSBOOK\r\n"
//!      8    2  version (1)
//!     10    1  rows
//!     11    1  columns
//!     12    1  run length k
//!     13    1  depth: every position of at most this many stones that is not over is stored
//!     14    1  lines: the lines of best play (see above) are stored up to this many stones
//!     15    1  0 (reserved)
//!     16    8  number of entries n
//!     24    8  FNV-1a 64 hash of the entries' bytes
//!     32   8n  entries, strictly increasing: key << 8 | (score as i8 as u8)
//! ```
//!
//! The key takes the upper 56 bits of an entry, so a book needs `cols * (rows + 1) <= 56`.
//! Every field is checked on load ([`Book::from_bytes`]): a corrupt or truncated file is a
//! [`BookError`], never a panic.
//!
//! [`build`](self) makes books with the solver, on every core, resumably.

pub mod build;

use std::fmt;
use std::io::Read;
use std::sync::OnceLock;

use zerosum_core::capped_read::size_text;
use zerosum_core::{Game, Outcome, Status};

use super::{Bits, ConnectX, Packed};

/// The book of Connect Four (6 rows, 7 columns, 4 in a row), built by `zerosum book build
/// --depth 0 --lines 8 --out crates/zerosum-games/books/connect4-6x7x4.book`. Its checkpoint
/// (`.book.solved`) beside it keeps every score solved so far, so the same command with a
/// larger `--lines` or `--depth` extends it.
static CONNECT4: &[u8] = include_bytes!("../../../books/connect4-6x7x4.book");

/// Largest book read: 1 GiB (134 million positions).
pub const MAX_BOOK_BYTES: u64 = 1 << 30;

/// First bytes of every book file.
const MAGIC: &[u8; 8] = b"ZSBOOK\r\n";
/// The format version this code reads and writes.
const VERSION: u16 = 1;
/// Bytes before the entries.
const HEADER_BYTES: usize = 32;
/// Most key bits an entry holds.
const KEY_BITS: usize = 56;

/// Why bytes are not a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// Fewer bytes than a header.
    TooShort(usize),
    /// The file does not start with the book magic.
    NotABook,
    /// A version this code does not read.
    Version(u16),
    /// The board in the header is not a valid Connect-X board that fits a book.
    Board {
        /// Rows, columns and run length of the header.
        rows: usize,
        cols: usize,
        k: usize,
    },
    /// The depths of the header are inconsistent (`lines < depth`, beyond the board, or a
    /// reserved byte is set).
    Depths,
    /// The file's length does not match its number of entries.
    Length {
        /// Bytes the header calls for.
        expected: u128,
        /// Bytes there are.
        found: usize,
    },
    /// The entries do not match the header's hash.
    Checksum,
    /// Entry `index` is not strictly after the one before.
    Unsorted(usize),
    /// Entry `index` has a key that is no position of the board, or a score out of range.
    Entry(usize),
    /// The header calls for more bytes than [`MAX_BOOK_BYTES`].
    TooLarge {
        /// Bytes the header calls for.
        expected: u128,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::TooShort(n) => write!(
                f,
                "not a book: {n} bytes, fewer than the {HEADER_BYTES}-byte header"
            ),
            BookError::NotABook => write!(f, "not a book: the file does not start with ZSBOOK"),
            BookError::Version(v) => {
                write!(
                    f,
                    "book version {v} is not supported (this build reads {VERSION})"
                )
            }
            BookError::Board { rows, cols, k } => write!(
                f,
                "corrupt book: its board {rows}x{cols}x{k} is not a Connect-X board with \
                 columns * (rows + 1) <= {KEY_BITS}"
            ),
            BookError::Depths => write!(f, "corrupt book: the depths of its header are invalid"),
            BookError::Length { expected, found } => write!(
                f,
                "corrupt or truncated book: {found} bytes, the header calls for {expected}"
            ),
            BookError::Checksum => write!(f, "corrupt book: the entries do not match its checksum"),
            BookError::Unsorted(i) => write!(f, "corrupt book: entry {i} is out of order"),
            BookError::Entry(i) => write!(f, "corrupt book: entry {i} is not a valid position"),
            BookError::TooLarge { expected } => write!(
                f,
                "the book's header calls for {expected} bytes, more than {}, the limit",
                size_text(MAX_BOOK_BYTES)
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// Why a book cannot be read from a file or stream.
#[derive(Debug)]
pub enum BookReadError {
    /// Reading failed (or went past a cap of the reader's).
    Read(std::io::Error),
    /// The bytes are not a book.
    Book(BookError),
}

impl fmt::Display for BookReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookReadError::Read(error) => write!(f, "{error}"),
            BookReadError::Book(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for BookReadError {}

/// An opening book of one board size (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    rows: usize,
    cols: usize,
    k: usize,
    depth: usize,
    lines: usize,
    /// `key << 8 | score as u8`, strictly increasing.
    entries: Vec<u64>,
}

impl Book {
    /// The book embedded in the binary for `rows` x `cols` boards with runs of `k`, if there
    /// is one (today Connect Four: 6, 7, 4).
    pub fn for_board(rows: usize, cols: usize, k: usize) -> Option<&'static Book> {
        static BOOK: OnceLock<Option<Book>> = OnceLock::new();
        if (rows, cols, k) != (6, 7, 4) {
            return None;
        }
        BOOK.get_or_init(|| Book::from_bytes(CONNECT4).ok())
            .as_ref()
    }

    /// Every position with at most this many stones that is not over is in the book.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The lines of best play are in the book up to this many stones (at least
    /// [`Book::depth`]).
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// Rows, columns and run length of the book's board.
    pub fn board(&self) -> (usize, usize, usize) {
        (self.rows, self.cols, self.k)
    }

    /// Number of positions stored (a position and its mirror image count once).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if the book stores no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The exact solver score of `game` for the side to move (the scale of
    /// [`ConnectSolver::solve`](super::ConnectSolver::solve)), or `None` if the position is
    /// not in the book (or the game is of another size, or over).
    pub fn value<B: Bits>(&self, game: &ConnectX<Packed<B>>) -> Option<i32> {
        if (game.rows(), game.cols(), game.k()) != self.board() {
            return None;
        }
        let key = u64::try_from(canonical_key(game)).ok()?;
        let index = self.entries.binary_search_by_key(&key, |e| e >> 8).ok()?;
        Some(self.entries[index] as u8 as i8 as i32)
    }

    /// The value of each column for the side to move in `game`, as
    /// [`ConnectSolver::analyze`](super::ConnectSolver::analyze) gives it (strong), from the
    /// book: `None` for a full column, the win's score for a winning move, 0 for a move that
    /// fills the board. `None` as a whole when a child that is not over is not in the book (or
    /// the game is over, or of another size).
    pub fn analyze<B: Bits>(&self, game: &ConnectX<Packed<B>>) -> Option<Vec<Option<i32>>> {
        if (game.rows(), game.cols(), game.k()) != self.board() || game.status().is_over() {
            return None;
        }
        let cells = game.rows() * game.cols();
        let mut values = Vec::with_capacity(game.cols());
        for col in 0..game.cols() {
            if game.height(col) == game.rows() {
                values.push(None);
                continue;
            }
            let mut child = game.clone();
            child.play(col as super::Column);
            values.push(Some(match child.status() {
                Status::Over(Outcome::Draw) => 0,
                Status::Over(_) => ((cells - child.ply()) / 2 + 1) as i32,
                Status::Ongoing => -self.value(&child)?,
            }));
        }
        Some(values)
    }

    /// A book of the given entries, `(canonical key, score)` pairs in any order without
    /// repeated keys (the builder's output).
    fn from_scores(
        (rows, cols, k): (usize, usize, usize),
        depth: usize,
        lines: usize,
        scores: impl IntoIterator<Item = (u64, i32)>,
    ) -> Book {
        let mut entries: Vec<u64> = scores
            .into_iter()
            .map(|(key, score)| key << 8 | (score as i8 as u8 as u64))
            .collect();
        entries.sort_unstable();
        Book {
            rows,
            cols,
            k,
            depth,
            lines,
            entries,
        }
    }

    /// The book in the file format of the module documentation.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER_BYTES + 8 * self.entries.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        for field in [self.rows, self.cols, self.k, self.depth, self.lines, 0] {
            bytes.push(field as u8);
        }
        bytes.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
        let body: Vec<u8> = self.entries.iter().flat_map(|e| e.to_le_bytes()).collect();
        bytes.extend_from_slice(&fnv1a(&body).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    }

    /// Reads a book from `input`, its header first: bytes that are no book are refused after
    /// its 32 bytes, and a book is read only as far as its header says, at most
    /// [`MAX_BOOK_BYTES`] (a device such as `/dev/zero` is refused, not read forever).
    pub fn read(input: &mut impl Read) -> Result<Book, BookReadError> {
        let mut bytes = Vec::with_capacity(HEADER_BYTES);
        input
            .take(HEADER_BYTES as u64)
            .read_to_end(&mut bytes)
            .map_err(BookReadError::Read)?;
        let expected = header_length(&bytes).map_err(BookReadError::Book)?;
        // One byte more than the header calls for, to find a file that is too long.
        let rest = u64::try_from(expected).expect("within MAX_BOOK_BYTES") - HEADER_BYTES as u64;
        input
            .take(rest + 1)
            .read_to_end(&mut bytes)
            .map_err(BookReadError::Read)?;
        Book::from_bytes(&bytes).map_err(BookReadError::Book)
    }

    /// Reads a book file, checking every field (see the module documentation).
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let expected = header_length(bytes)?;
        let [rows, cols, k, depth, lines] = [10, 11, 12, 13, 14].map(|i| bytes[i] as usize);
        if expected != bytes.len() as u128 {
            return Err(BookError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let body = &bytes[HEADER_BYTES..];
        if fnv1a(body) != u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes")) {
            return Err(BookError::Checksum);
        }
        let max_score = (rows * cols / 2 + 1) as i32;
        let key_limit = 1u64 << (cols * (rows + 1));
        let entries: Vec<u64> = body
            .chunks_exact(8)
            .map(|e| u64::from_le_bytes(e.try_into().expect("8 bytes")))
            .collect();
        for (i, &entry) in entries.iter().enumerate() {
            if i > 0 && entries[i - 1] >> 8 >= entry >> 8 {
                return Err(BookError::Unsorted(i));
            }
            let score = entry as u8 as i8 as i32;
            if entry >> 8 >= key_limit || score.abs() > max_score {
                return Err(BookError::Entry(i));
            }
        }
        Ok(Book {
            rows,
            cols,
            k,
            depth,
            lines,
            entries,
        })
    }
}

/// The length of the book file whose first bytes are `bytes`, from its header, every field of
/// the header checked.
fn header_length(bytes: &[u8]) -> Result<u128, BookError> {
    if bytes.len() < HEADER_BYTES {
        return Err(BookError::TooShort(bytes.len()));
    }
    if &bytes[..8] != MAGIC {
        return Err(BookError::NotABook);
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(BookError::Version(version));
    }
    let [rows, cols, k, depth, lines, reserved] =
        [10, 11, 12, 13, 14, 15].map(|i| bytes[i] as usize);
    let fits = rows >= 1 && cols >= 1 && cols * (rows + 1) <= KEY_BITS;
    if !fits || crate::connect::spec(rows, cols, k).is_err() {
        return Err(BookError::Board { rows, cols, k });
    }
    if reserved != 0 || depth > lines || lines > rows * cols {
        return Err(BookError::Depths);
    }
    let count = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let expected = HEADER_BYTES as u128 + 8 * count as u128;
    if expected > MAX_BOOK_BYTES as u128 {
        return Err(BookError::TooLarge { expected });
    }
    Ok(expected)
}

/// The key of `game`'s position or of its mirror image, whichever is smaller: Pons'
/// `current + mask`, columns of `rows + 1` bits, the mirror with column `c` moved to
/// `cols - 1 - c`.
pub(crate) fn canonical_key<B: Bits>(game: &ConnectX<Packed<B>>) -> u128 {
    let (current, mask) = game.board().bits();
    let (current, mask) = (current.widen(), mask.widen());
    let (rows, cols) = (game.rows(), game.cols());
    let stride = rows + 1;
    let column = (1u128 << rows) - 1;
    let mirror = |bits: u128| {
        (0..cols).fold(0u128, |acc, c| {
            acc | ((bits >> (c * stride)) & column) << ((cols - 1 - c) * stride)
        })
    };
    (current + mask).min(mirror(current) + mirror(mask))
}

/// FNV-1a, 64 bits: the book's checksum.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}
