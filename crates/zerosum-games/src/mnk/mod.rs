//! m,n,k games: M rows, N columns, K to align. The players alternately mark one free cell; a run
//! of K **or more** of one's own marks in a row, column, diagonal or anti-diagonal wins. The win
//! is tested before the draw (a last move that fills the board and makes K wins); a full board
//! without a run is a draw. K may exceed min(M, N), and then only the longer direction can win.
//! Tic-tac-toe is `mnk:3x3x3`, freestyle gomoku `mnk:15x15x5`.
//!
//! # Cells and notation
//!
//! A move is a cell index `row * cols + col` ([`Cell`]), row 0 at the top, column 0 at the left.
//! Its name is the column letters (`a`..`z`, `aa`, `ab`, ...) followed by the 1-based row number
//! counted from the top: `a1` is the top-left cell, `c3` the bottom-right cell of tic-tac-toe.
//! Names are read in either case and written in lower case.
//!
//! # Representation
//!
//! One bit set per side, `[u64; WORDS]`, where `WORDS` is a const chosen from the board size by
//! [`visit`] among a few sizes, so that tic-tac-toe lives in one word and 100x100 in 157:
//!
//! ```text
//!   cell = row * cols + col                       e.g. 3x3 (tic-tac-toe):
//!   word = cell / 64, bit = cell % 64                  a  b  c
//!                                                  1   0  1  2      cell 4 (b2) is
//!   word 0: bit 63 ......................... bit 0  2   3  4  5      bit 4 of word 0
//!           cell 63                      cell 0    3   6  7  8
//!   word 1: cell 127 ....................... cell 64
//!   ...
//! ```
//!
//! Bits at or beyond `rows * cols` are always 0, and no cell is set in both sets.
//!
//! # Rules of five
//!
//! With K = 5 the game may be played under Gomocup's standard (exactly five) or renju rules
//! instead of freestyle ([`Rule`], module `rules`); renju's forbidden moves of Black are told
//! by `forbidden`.
//!
//! # Patterns
//!
//! On K = 5 boards the position can keep pattern codes ([`PatternBoard`], module `patterns`):
//! per empty cell and direction what each side's stone there would make (five, open four,
//! four, open three, ...), updated incrementally by `play` and `undo`. The pattern board is
//! built on first use ([`Mnk::patterns`]; at once under renju, whose forbidden moves need it)
//! and kept from then on, so that a search that never asks for it pays nothing.
//!
//! # Evaluation
//!
//! [`MnkEvaluator`] (the [`crate::EvaluatedGame`] evaluator of every `Mnk<WORDS>`) works on a
//! line-major copy of the position (`lines`), finds the threats of every window of K cells
//! (`threats`) and searches victories by continuous fours at the leaves (`vcf`). For 3 <= K <= 8
//! on boards of at most 1,024 cells the position keeps its window counts ([`WindowBoard`],
//! module `window_board`; built on first use like the pattern board, then updated by `play`
//! and `undo`), from which the threats and move hints are read without a scan of the board. On K = 5
//! boards it can evaluate by pattern codes instead (`pattern_eval`, with its VCF in
//! `pattern_vcf`): the default under the standard and renju rules, an option (`eval=patterns`)
//! under freestyle.

mod evaluator;
mod family;
pub mod forbidden;
mod lines;
mod pattern_eval;
mod pattern_follower;
mod pattern_vcf;
mod pattern_weights;
pub mod patterns;
mod ranking;
mod rules;
mod threats;
mod values;
mod vcf;
mod vct;
mod window_board;

pub use evaluator::{MnkEvaluator, PATTERN_CANDIDATES, SMALL_BOARD_CELLS};
pub use family::{spec, spec_with_rule, MnkFamily, MnkSpec, MAX_RUN};
pub use pattern_eval::static_terms;
pub use pattern_weights::{PatternWeights, WeightsError, MAX_WEIGHT, WEIGHTS_HEADER};
pub use patterns::PatternBoard;
pub use rules::Rule;
pub use values::{LOSS_NEXT, STATIC_LIMIT, VCF_WIN, WIN_NEXT};
pub use window_board::WindowBoard;

use std::sync::OnceLock;

use crate::GameVisitor;
use serde_json::json;
use zerosum_core::notation;
use zerosum_core::{
    zobrist_key, Game, LegalMovesChange, MarkedLine, MoveError, Outcome, Side, Status,
};

/// A move: the index `row * cols + col` of the cell to mark (row 0 at the top).
pub type Cell = u16;

/// Builds the starting position of `mnk:{rows}x{cols}x{k}` under `rule` and hands it to
/// `visitor`, with the
/// smallest of these word counts that holds the board: 1 (up to 64 cells: tic-tac-toe to 8x8),
/// 2 (128), 4 (256: gomoku 15x15), 16 (1024: 32x32), 40 (2560: 50x50), 157 (10000: 70x70 and
/// 100x100). Each count is one monomorphised copy of the game and of the visitor's code.
///
/// The sizes and rule must be those of a valid m,n,k spec (see [`spec_with_rule`]);
/// [`Mnk::with_rule`] panics otherwise.
pub fn visit<V: GameVisitor>(
    rows: usize,
    cols: usize,
    k: usize,
    rule: Rule,
    visitor: V,
) -> V::Output {
    match rows * cols {
        0..=64 => visitor.visit(Mnk::<1>::with_rule(rows, cols, k, rule)),
        65..=128 => visitor.visit(Mnk::<2>::with_rule(rows, cols, k, rule)),
        129..=256 => visitor.visit(Mnk::<4>::with_rule(rows, cols, k, rule)),
        257..=1024 => visitor.visit(Mnk::<16>::with_rule(rows, cols, k, rule)),
        1025..=2560 => visitor.visit(Mnk::<40>::with_rule(rows, cols, k, rule)),
        _ => visitor.visit(Mnk::<157>::with_rule(rows, cols, k, rule)),
    }
}

/// An m,n,k position on a board of at most `64 * WORDS` cells (see the module documentation
/// for the bit layout), with its move stack, stored status and incremental Zobrist hash.
///
/// The hash is the XOR of `zobrist_key(cell * 2 + side)` over the stones on the board (side 0
/// for the first player, 1 for the second); the empty board hashes to 0. There is no
/// side-to-move key: turns strictly alternate, so the side to move follows from the number of
/// stones, and two positions with the same stones always have the same side to move.
///
/// Two positions are equal when their rule, stones, moves and status are; whether the pattern
/// board has been built yet does not matter.
#[derive(Debug)]
pub struct Mnk<const WORDS: usize> {
    rows: usize,
    cols: usize,
    k: usize,
    rule: Rule,
    /// `rows * cols`.
    cells: usize,
    /// Number of words that hold cells: `ceil(cells / 64)`.
    used_words: usize,
    /// The valid cells of the last used word (all ones if the board fills it exactly).
    last_word_mask: u64,
    /// The stones of each side, indexed by [`Side::index`].
    stones: [[u64; WORDS]; 2],
    /// The cells played, in order; capacity `cells` from construction on.
    moves: Vec<Cell>,
    status: Status,
    hash: u64,
    /// The pattern board of a K = 5 game, once built (see the module documentation).
    patterns: OnceLock<Box<PatternBoard>>,
    /// The window counts, once built (see [`Mnk::window_board`]).
    windows: OnceLock<Box<WindowBoard>>,
}

impl<const WORDS: usize> PartialEq for Mnk<WORDS> {
    fn eq(&self, other: &Self) -> bool {
        (self.rows, self.cols, self.k, self.rule) == (other.rows, other.cols, other.k, other.rule)
            && self.stones == other.stones
            && self.moves == other.moves
            && self.status == other.status
            && self.hash == other.hash
    }
}

impl<const WORDS: usize> Eq for Mnk<WORDS> {}

impl<const WORDS: usize> Clone for Mnk<WORDS> {
    /// A copy whose move stack keeps the full capacity, so that playing on it never allocates.
    fn clone(&self) -> Self {
        let mut moves = Vec::with_capacity(self.cells);
        moves.extend_from_slice(&self.moves);
        Mnk {
            rows: self.rows,
            cols: self.cols,
            k: self.k,
            rule: self.rule,
            cells: self.cells,
            used_words: self.used_words,
            last_word_mask: self.last_word_mask,
            stones: self.stones,
            moves,
            status: self.status,
            hash: self.hash,
            patterns: self.patterns.clone(),
            windows: self.windows.clone(),
        }
    }
}

/// Whether `cell` is set in the bit set `bits`.
#[inline]
fn has(bits: &[u64], cell: usize) -> bool {
    bits[cell >> 6] >> (cell & 63) & 1 != 0
}

/// The number of consecutive cells of `bits` after `cell` going `step` cells forward at a time,
/// counting at most `limit` (the caller keeps `cell + limit * step` on the line and board).
#[inline]
fn run_forward(bits: &[u64], cell: usize, step: usize, limit: usize) -> usize {
    let mut count = 0;
    let mut at = cell;
    while count < limit {
        at += step;
        if !has(bits, at) {
            break;
        }
        count += 1;
    }
    count
}

/// Like [`run_forward`], going backward (`cell - limit * step` stays on the line and board).
#[inline]
fn run_backward(bits: &[u64], cell: usize, step: usize, limit: usize) -> usize {
    let mut count = 0;
    let mut at = cell;
    while count < limit {
        at -= step;
        if !has(bits, at) {
            break;
        }
        count += 1;
    }
    count
}

impl<const WORDS: usize> Mnk<WORDS> {
    /// The empty board of `rows` x `cols` cells with run length `k` under the freestyle rule
    /// (K or more wins), first player to move.
    ///
    /// Panics unless [`spec`] accepts the sizes and the board fits:
    /// `rows * cols <= 64 * WORDS`.
    pub fn new(rows: usize, cols: usize, k: usize) -> Self {
        Self::with_rule(rows, cols, k, Rule::Freestyle)
    }

    /// The empty board of `rows` x `cols` cells with run length `k` under `rule`, first player
    /// to move.
    ///
    /// Panics unless [`spec_with_rule`] accepts the sizes and rule and the board fits:
    /// `rows * cols <= 64 * WORDS`.
    pub fn with_rule(rows: usize, cols: usize, k: usize, rule: Rule) -> Self {
        if let Err(error) = spec_with_rule(rows, cols, k, rule) {
            panic!("{error}");
        }
        let cells = rows * cols;
        assert!(
            cells <= 64 * WORDS,
            "{rows}x{cols} board needs more than {WORDS} words"
        );
        let used_words = cells.div_ceil(64);
        let tail = cells % 64;
        let game = Mnk {
            rows,
            cols,
            k,
            rule,
            cells,
            used_words,
            last_word_mask: if tail == 0 { !0 } else { (1u64 << tail) - 1 },
            stones: [[0; WORDS]; 2],
            moves: Vec::with_capacity(cells),
            status: Status::Ongoing,
            hash: 0,
            patterns: OnceLock::new(),
            windows: OnceLock::new(),
        };
        if rule == Rule::Renju {
            // Every move of Black asks for it.
            game.patterns();
        }
        game
    }

    /// The winning and forbidden-move rule.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The pattern board of a K = 5 game (`None` for other K), built from the stones on first
    /// use and kept up to date by `play` and `undo` from then on.
    #[inline]
    pub fn patterns(&self) -> Option<&PatternBoard> {
        if self.k != 5 {
            return None;
        }
        Some(self.patterns.get_or_init(|| {
            let cells =
                |side: usize| (0..self.cells).filter(move |&cell| has(&self.stones[side], cell));
            Box::new(PatternBoard::with_stones(
                self.rows,
                self.cols,
                self.rule,
                cells(0),
                cells(1),
            ))
        }))
    }

    /// The window counts of the position (module `window_board`) if it is kept incrementally
    /// ([`WindowBoard::supports`]; `None` otherwise): built from the stones on first use and
    /// kept up to date by `play` and `undo` from then on.
    #[inline]
    pub fn window_board(&self) -> Option<&WindowBoard> {
        if !WindowBoard::supports(self.cells, self.k) {
            return None;
        }
        Some(
            self.windows
                .get_or_init(|| Box::new(WindowBoard::new(lines::LineBoard::new(self)))),
        )
    }

    /// Number of rows (M).
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns (N).
    #[inline]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The run length that wins (K).
    #[inline]
    pub fn k(&self) -> usize {
        self.k
    }

    /// The cell index of (`row`, `col`), 0-based, row 0 at the top. Precondition: on the board.
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> Cell {
        debug_assert!(row < self.rows && col < self.cols);
        (row * self.cols + col) as Cell
    }

    /// The 0-based (row, column) of a cell index.
    #[inline]
    pub fn row_col(&self, cell: Cell) -> (usize, usize) {
        (cell as usize / self.cols, cell as usize % self.cols)
    }

    /// Who has marked (`row`, `col`), if anyone. Precondition: the cell is on the board.
    #[inline]
    pub fn cell_owner(&self, row: usize, col: usize) -> Option<Side> {
        debug_assert!(row < self.rows && col < self.cols);
        let cell = row * self.cols + col;
        if has(&self.stones[0], cell) {
            Some(Side::First)
        } else if has(&self.stones[1], cell) {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// The bit set of `side`'s stones (layout in the module documentation).
    #[inline]
    pub fn stones(&self, side: Side) -> &[u64; WORDS] {
        &self.stones[side.index()]
    }

    /// The cell played last, if any.
    #[inline]
    pub fn last_move(&self) -> Option<Cell> {
        self.moves.last().copied()
    }

    /// The four lines through `cell` as (step between neighbouring cells, free room forward,
    /// free room backward): horizontal, vertical, diagonal (down-right), anti-diagonal
    /// (down-left). Forward means a larger cell index.
    #[inline]
    fn lines_through(&self, cell: usize) -> [(usize, usize, usize); 4] {
        let (row, col) = (cell / self.cols, cell % self.cols);
        let (up, down) = (row, self.rows - 1 - row);
        let (left, right) = (col, self.cols - 1 - col);
        [
            (1, right, left),
            (self.cols, down, up),
            (self.cols + 1, down.min(right), up.min(left)),
            (self.cols - 1, down.min(left), up.min(right)),
        ]
    }

    /// Whether the stone of `side` on `cell` lies on a run of K or more of `side`'s stones.
    /// Counts from `cell` both ways along each line and stops as soon as K is reached.
    #[inline]
    fn completes_run(&self, side: Side, cell: usize) -> bool {
        let needed = self.k - 1;
        if needed == 0 {
            return true;
        }
        let own = &self.stones[side.index()];
        for (step, forward_room, backward_room) in self.lines_through(cell) {
            if forward_room + backward_room < needed {
                continue;
            }
            let forward = run_forward(own, cell, step, forward_room.min(needed));
            if forward == needed
                || forward + run_backward(own, cell, step, backward_room.min(needed - forward))
                    == needed
            {
                return true;
            }
        }
        false
    }

    /// Whether the stone of `side` on `cell` lies on a run of exactly K of `side`'s stones
    /// (the win of the standard rule, and of renju's Black).
    #[inline]
    fn completes_exact_run(&self, side: Side, cell: usize) -> bool {
        let own = &self.stones[side.index()];
        self.lines_through(cell)
            .into_iter()
            .any(|(step, forward_room, backward_room)| {
                forward_room + backward_room + 1 >= self.k
                    && run_forward(own, cell, step, forward_room.min(self.k))
                        + run_backward(own, cell, step, backward_room.min(self.k))
                        + 1
                        == self.k
            })
    }

    /// Whether the stone of `side` just placed on `cell` wins by the rule's runs.
    #[inline]
    fn makes_winning_run(&self, side: Side, cell: usize) -> bool {
        if self.rule.overline_wins(side == Side::First) {
            self.completes_run(side, cell)
        } else {
            self.completes_exact_run(side, cell)
        }
    }

    /// The cells of every winning run through the last move when it won the game (runs of K or
    /// more, or of exactly K where an overline does not win), in cell order; empty while the
    /// game goes on, after a draw, and after a forbidden move of renju's Black. Not for the
    /// hot path.
    pub fn winning_cells(&self) -> Vec<Cell> {
        let (Some(winner), Some(last)) = (self.status.winner(), self.last_move()) else {
            return Vec::new();
        };
        if Side::at_ply(self.moves.len() - 1) != winner {
            return Vec::new();
        }
        let own = &self.stones[winner.index()];
        let cell = last as usize;
        let exact = !self.rule.overline_wins(winner == Side::First);
        let mut run_cells = Vec::new();
        for (step, forward_room, backward_room) in self.lines_through(cell) {
            let forward = run_forward(own, cell, step, forward_room);
            let backward = run_backward(own, cell, step, backward_room);
            let length = forward + backward + 1;
            if length == self.k || (length > self.k && !exact) {
                run_cells.extend(
                    (0..=forward + backward).map(|i| (cell - backward * step + i * step) as Cell),
                );
            }
        }
        run_cells.sort_unstable();
        run_cells.dedup();
        run_cells
    }

    /// The name of a cell index (`a1` top-left).
    fn cell_name(&self, cell: usize) -> String {
        let (row, col) = (cell / self.cols, cell % self.cols);
        format!("{}{}", notation::letters(col, false), row + 1)
    }

    /// The board size and cell range, for error messages.
    fn board_description(&self) -> String {
        format!(
            "{} rows x {} columns: a1 to {}",
            self.rows,
            self.cols,
            self.cell_name(self.cells - 1)
        )
    }

    /// The text of a cell's mark: `X` (first player), `O` (second) or `.` (empty).
    fn mark(&self, cell: usize) -> &'static str {
        if has(&self.stones[0], cell) {
            "X"
        } else if has(&self.stones[1], cell) {
            "O"
        } else {
            "."
        }
    }
}

impl<const WORDS: usize> Game for Mnk<WORDS> {
    type Move = Cell;

    #[inline]
    fn to_move(&self) -> Side {
        Side::at_ply(self.moves.len())
    }

    #[inline]
    fn ply(&self) -> usize {
        self.moves.len()
    }

    #[inline]
    fn status(&self) -> Status {
        self.status
    }

    /// The empty cells in increasing cell order, none once the game is over.
    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Cell>) {
        moves.clear();
        if self.status.is_over() {
            return;
        }
        for word in 0..self.used_words {
            let valid = if word + 1 == self.used_words {
                self.last_word_mask
            } else {
                !0
            };
            let mut empty = !(self.stones[0][word] | self.stones[1][word]) & valid;
            while empty != 0 {
                moves.push((word * 64) as Cell + empty.trailing_zeros() as Cell);
                empty &= empty - 1;
            }
        }
    }

    /// A stone takes only its own cell off the legal moves while the game goes on.
    fn legal_moves_change(&self, _played: Cell) -> LegalMovesChange {
        if self.status.is_over() {
            LegalMovesChange::Unknown
        } else {
            LegalMovesChange::PlayedRemoved
        }
    }

    /// Every cell of the board, in cell order.
    fn all_moves(&self, moves: &mut Vec<Cell>) {
        moves.clear();
        moves.extend(0..self.cells as Cell);
    }

    /// `"occupied"` for a marked cell, `"off the board"` for an index past the last cell.
    #[inline]
    fn move_id(&self, mv: Cell) -> usize {
        mv as usize
    }

    fn move_id_bound(&self) -> usize {
        self.rows * self.cols
    }

    fn illegal_reason(&self, mv: Cell) -> Option<&'static str> {
        let cell = mv as usize;
        if cell >= self.cells {
            Some("off the board")
        } else if has(&self.stones[0], cell) || has(&self.stones[1], cell) {
            Some("occupied")
        } else {
            None
        }
    }

    /// Marks `mv` for the side to move, then stores the outcome: a win if the new stone makes
    /// a winning run (K or more; exactly K where the rule says so), else under renju a loss
    /// if it is a forbidden move of Black, else a draw if the board is full. Assumes `mv` is
    /// an empty cell of this board and the game is not over.
    #[inline]
    fn play(&mut self, mv: Cell) {
        let cell = mv as usize;
        let side = self.to_move();
        debug_assert!(cell < self.cells && self.illegal_reason(mv).is_none());
        self.stones[side.index()][cell >> 6] |= 1 << (cell & 63);
        self.hash ^= zobrist_key((cell * 2 + side.index()) as u64);
        self.moves.push(mv);
        let won = self.makes_winning_run(side, cell);
        let mut patterns = self.patterns.get_mut();
        let forbidden = !won
            && self.rule == Rule::Renju
            && side == Side::First
            && patterns
                .as_deref_mut()
                .is_some_and(|board| forbidden::is_forbidden(board, cell));
        if let Some(board) = patterns {
            board.place(cell, side.index());
        }
        if let Some(board) = self.windows.get_mut() {
            board.place(cell, side.index());
        }
        if won {
            self.status = Status::Over(Outcome::Win(side));
        } else if forbidden {
            self.status = Status::Over(Outcome::Win(Side::Second));
        } else if self.moves.len() == self.cells {
            self.status = Status::Over(Outcome::Draw);
        }
    }

    /// Removes the last stone. The position before any move was ongoing (finished games are
    /// not continued), so the status goes back to ongoing.
    #[inline]
    fn undo(&mut self) {
        let cell = self.moves.pop().expect("undo needs a move to take back") as usize;
        let side = self.to_move();
        self.stones[side.index()][cell >> 6] &= !(1 << (cell & 63));
        self.hash ^= zobrist_key((cell * 2 + side.index()) as u64);
        self.status = Status::Ongoing;
        if let Some(board) = self.patterns.get_mut() {
            board.remove(cell);
        }
        if let Some(board) = self.windows.get_mut() {
            board.remove(cell, side.index());
        }
    }

    fn history(&self) -> &[Cell] {
        &self.moves
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        let mut hash = 0;
        for side in Side::BOTH {
            for cell in 0..self.cells {
                if has(&self.stones[side.index()], cell) {
                    hash ^= zobrist_key((cell * 2 + side.index()) as u64);
                }
            }
        }
        hash
    }

    /// Reads a cell name: column letters then the 1-based row from the top (`a1`, `C3`,
    /// `aa12`). Leading and trailing white space is ignored. Text of another shape is a
    /// [`MoveError::Syntax`]; a well-formed name outside the board (row 0 included) is
    /// [`MoveError::OffBoard`].
    fn parse_move(&self, text: &str) -> Result<Cell, MoveError> {
        let trimmed = text.trim();
        let letter_count = trimmed.bytes().take_while(u8::is_ascii_alphabetic).count();
        let (letters, digits) = trimmed.split_at(letter_count);
        if letters.is_empty() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoveError::Syntax {
                text: text.to_string(),
                expected: "a cell: column letters then the row number counted from 1 at the \
                           top, like a1 or c3"
                    .to_string(),
            });
        }
        let off_board = || MoveError::OffBoard {
            text: text.to_string(),
            board: self.board_description(),
        };
        // Both fail only on absurdly long (so off-board) letters or numbers.
        let col = notation::parse_letters(letters).ok_or_else(off_board)?;
        let row_number: usize = digits.parse().map_err(|_| off_board())?;
        if col >= self.cols || row_number == 0 || row_number > self.rows {
            return Err(off_board());
        }
        Ok(((row_number - 1) * self.cols + col) as Cell)
    }

    fn format_move(&self, mv: Cell) -> String {
        self.cell_name(mv as usize)
    }

    /// The board with column letters on top (stacked vertically past column `z`, so cells
    /// stay two characters wide) and row numbers on the left; `X` first player, `O` second,
    /// `.` empty.
    ///
    /// ```text
    ///   a b c
    /// 1 X . .
    /// 2 . O .
    /// 3 . . X
    /// ```
    fn render(&self) -> String {
        let number_width = self.rows.to_string().len();
        let labels: Vec<String> = (0..self.cols)
            .map(|col| notation::letters(col, false))
            .collect();
        let label_height = labels.iter().map(String::len).max().unwrap_or(1);
        let mut out = String::new();
        for line in 0..label_height {
            let mut text = " ".repeat(number_width);
            for label in &labels {
                // Labels are bottom-aligned: the last letter sits on the last header line.
                let skip = label_height - label.len();
                text.push(' ');
                text.push(if line < skip {
                    ' '
                } else {
                    label.as_bytes()[line - skip] as char
                });
            }
            out.push_str(text.trim_end());
            out.push('\n');
        }
        // A won game shows its winning line framed: `[X X X]`.
        let winning = self.winning_cells();
        for row in 0..self.rows {
            let mut line = MarkedLine::new(&format!("{:>number_width$}", row + 1));
            for col in 0..self.cols {
                let cell = row * self.cols + col;
                line.cell(1, self.mark(cell), winning.contains(&(cell as Cell)));
            }
            out.push_str(&line.finish());
            out.push('\n');
        }
        out
    }

    /// `{"rows", "cols", "k", "cells": [["X", "O", "."], ...] (rows from the top),
    /// "last_move": "b2" or null, "winning_cells": ["a1", "b2", "c3"] or []}`.
    fn board_json(&self) -> serde_json::Value {
        let cells: Vec<Vec<&str>> = (0..self.rows)
            .map(|row| {
                (0..self.cols)
                    .map(|col| self.mark(row * self.cols + col))
                    .collect()
            })
            .collect();
        let winning: Vec<String> = self
            .winning_cells()
            .into_iter()
            .map(|cell| self.cell_name(cell as usize))
            .collect();
        json!({
            "rows": self.rows,
            "cols": self.cols,
            "k": self.k,
            "cells": cells,
            "last_move": self.last_move().map(|cell| self.cell_name(cell as usize)),
            "winning_cells": winning,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_word_mask_covers_exactly_the_board() {
        assert_eq!(Mnk::<1>::new(3, 3, 3).last_word_mask, 0x1ff);
        assert_eq!(Mnk::<1>::new(8, 8, 5).last_word_mask, !0);
        let big = Mnk::<157>::new(100, 100, 10);
        assert_eq!(big.used_words, 157);
        assert_eq!(big.last_word_mask, (1 << 16) - 1);
    }
}
