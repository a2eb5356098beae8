//! Victory by continuous fours (VCF): a small threat-space search, run by the evaluator at the
//! leaves of the main search, that looks for a forced win made of fours only.
//!
//! The attacker (the side to move) plays a four: a stone that leaves a window with K-1 of its
//! stones and one free cell. The defender has exactly one answer, blocking that cell, unless
//! it can win at once itself. The attacker goes on with fours until one of them makes two
//! winning cells at once (an open four, or fours on two lines): the defender blocks one and
//! the attacker completes the other. Because every attacking move threatens to win on the
//! next move, the defender's own fours never help it (the attacker wins first), except a four
//! the defender already has when the attacker is to move: then the attacker's move must
//! block it, and must still be a four. So a line found here is a real forced win.
//!
//! The search is depth-first over the threes (windows with K-2 of the attacker's stones and
//! no other) known from the evaluator's scan plus those made by the attacker's own stones on
//! the way, newest first, deepened one four at a time so that it reports the shortest line it
//! finds. It is bounded by a number of tried fours (shared by the iterations) and of fours in
//! one line, so it may miss long or well-hidden wins, but what it reports is sound.

use super::lines::{low_bits, LineBoard};
use super::threats::{wins_made_on_line, Window};

/// Most threes the search keeps (the scan's plus those made along the current line).
const WINDOW_CAPACITY: usize = 512;
/// Most defender winning cells kept along the current line.
const THREAT_CAPACITY: usize = 64;
/// Most distinct cells tried at one node.
const TRIED_CAPACITY: usize = 64;

/// The search state: the board (stones are placed and taken back in place), the known
/// threes and the defender's winning cells, both as stacks unwound on backtracking.
pub(crate) struct VcfSearch<'a> {
    board: &'a mut LineBoard,
    attacker: usize,
    windows: [Window; WINDOW_CAPACITY],
    window_count: usize,
    threats: [u16; THREAT_CAPACITY],
    threat_count: usize,
    /// Fours tried so far, and the most allowed.
    tries: u32,
    budget: u32,
    /// Most fours in one line (of the current iteration).
    max_fours: usize,
    /// Whether the current iteration stopped a line at `max_fours` (a deeper one may find
    /// more).
    deepened: bool,
}

impl<'a> VcfSearch<'a> {
    /// A search for `attacker` (0 first player, 1 second) on `board`, which must hold no
    /// winning cell of the attacker, starting from its `threes` and the defender's winning
    /// cells `defender_wins` (more than one means no VCF exists). At most `budget` fours are
    /// tried, lines have at most `max_fours` fours.
    pub fn new(
        board: &'a mut LineBoard,
        attacker: usize,
        threes: &[Window],
        defender_wins: impl Iterator<Item = usize>,
        budget: u32,
        max_fours: usize,
    ) -> Self {
        let mut search = VcfSearch {
            board,
            attacker,
            windows: [Window { line: 0, start: 0 }; WINDOW_CAPACITY],
            window_count: threes.len().min(WINDOW_CAPACITY),
            threats: [0; THREAT_CAPACITY],
            threat_count: 0,
            tries: 0,
            budget,
            max_fours,
            deepened: false,
        };
        search.windows[..search.window_count].copy_from_slice(&threes[..search.window_count]);
        for cell in defender_wins {
            search.push_threat(cell);
        }
        search
    }

    /// The length in plies of the shortest forced win by fours found within the budget
    /// (counting the final completing move), if any: iterative deepening on the number of
    /// fours, the budget shared by the iterations. The board is left as it was.
    pub fn run(&mut self) -> Option<usize> {
        if self.board.k < 3 {
            return None;
        }
        let most_fours = self.max_fours;
        for fours in 1..=most_fours {
            self.max_fours = fours;
            let found = self.attack(0);
            if found.is_some() || self.tries >= self.budget || !self.deepened {
                self.max_fours = most_fours;
                return found;
            }
            self.deepened = false;
        }
        self.max_fours = most_fours;
        None
    }

    fn push_threat(&mut self, cell: usize) {
        if self.threat_count < THREAT_CAPACITY {
            self.threats[self.threat_count] = cell as u16;
            self.threat_count += 1;
        }
    }

    /// An attacker node after `fours` fours: tries every four, or only the one that blocks
    /// the defender's winning cell.
    fn attack(&mut self, fours: usize) -> Option<usize> {
        let mut forced = None;
        for &threat in &self.threats[..self.threat_count] {
            let threat = threat as usize;
            if self.board.is_empty(threat) {
                if forced.is_some_and(|cell| cell != threat) {
                    return None;
                }
                forced = Some(threat);
            }
        }
        if let Some(cell) = forced {
            return self.try_four(cell, fours);
        }
        let k = self.board.k;
        let window = low_bits(k);
        let mut tried = [0u16; TRIED_CAPACITY];
        let mut tried_count = 0;
        for index in (0..self.window_count).rev() {
            let Window { line, start } = self.windows[index];
            let stones = self.board.line(line as usize);
            let mask = window << start;
            if stones[1 - self.attacker] & mask != 0
                || (stones[self.attacker] & mask).count_ones() as usize + 2 != k
            {
                continue;
            }
            let mut free = mask & !stones[self.attacker];
            while free != 0 {
                let pos = free.trailing_zeros() as usize;
                free &= free - 1;
                let cell = self.board.cell_at(line as usize, pos);
                if tried[..tried_count].contains(&(cell as u16)) {
                    continue;
                }
                if tried_count < TRIED_CAPACITY {
                    tried[tried_count] = cell as u16;
                    tried_count += 1;
                }
                if let Some(plies) = self.try_four(cell, fours) {
                    return Some(plies);
                }
                if self.tries >= self.budget {
                    return None;
                }
            }
        }
        None
    }

    /// Plays the attacker on the empty `cell`; if that is a four, lets the defender block and
    /// searches on. Takes everything back before returning.
    fn try_four(&mut self, cell: usize, fours: usize) -> Option<usize> {
        if self.tries >= self.budget {
            return None;
        }
        self.tries += 1;
        let attacker = self.attacker;
        self.board.place(cell, attacker);
        let (made, first_win) = self.wins_made(cell);
        let result = if made >= 2 {
            // This move, the defender's block, the completing move.
            Some(2 * fours + 3)
        } else if made == 1 && fours + 1 >= self.max_fours {
            self.deepened = true;
            None
        } else if made == 1 {
            let defender = 1 - attacker;
            let (saved_windows, saved_threats) = (self.window_count, self.threat_count);
            self.board.place(first_win, defender);
            self.push_defender_wins(first_win);
            self.push_threes_through(cell);
            let found = self.attack(fours + 1);
            self.window_count = saved_windows;
            self.threat_count = saved_threats;
            self.board.remove(first_win, defender);
            found
        } else {
            None
        };
        self.board.remove(cell, attacker);
        result
    }

    /// The number of distinct winning cells (0, 1 or 2 meaning two or more) that the
    /// attacker's stone just placed on `cell` made, and the first of them.
    fn wins_made(&self, cell: usize) -> (usize, usize) {
        let mut count = 0;
        let mut first = 0;
        for (line, pos) in self.board.lines_of_cell(cell) {
            let mut stones = self.board.line(line);
            stones[self.attacker] &= !(1 << pos);
            let len = self.board.line_len(line);
            let mut made = wins_made_on_line(self.board, stones, self.attacker, pos, len);
            while made != 0 {
                let win = self.board.cell_at(line, made.trailing_zeros() as usize);
                made &= made - 1;
                if count == 0 {
                    first = win;
                    count = 1;
                } else if win != first {
                    return (2, first);
                }
            }
        }
        (count, first)
    }

    /// Records the defender's winning cells made by its stone on `cell`.
    fn push_defender_wins(&mut self, cell: usize) {
        let defender = 1 - self.attacker;
        for (line, pos) in self.board.lines_of_cell(cell) {
            let mut stones = self.board.line(line);
            stones[defender] &= !(1 << pos);
            let len = self.board.line_len(line);
            let mut made = wins_made_on_line(self.board, stones, defender, pos, len);
            while made != 0 {
                let win = self.board.cell_at(line, made.trailing_zeros() as usize);
                made &= made - 1;
                self.push_threat(win);
            }
        }
    }

    /// Records the attacker's threes through its stone on `cell`.
    fn push_threes_through(&mut self, cell: usize) {
        let k = self.board.k;
        let window = low_bits(k);
        for (line, pos) in self.board.lines_of_cell(cell) {
            let stones = self.board.line(line);
            let len = self.board.line_len(line);
            for start in self.board.windows_through(pos, len) {
                let mask = window << start;
                if stones[1 - self.attacker] & mask == 0
                    && (stones[self.attacker] & mask).count_ones() as usize + 2 == k
                    && self.window_count < WINDOW_CAPACITY
                {
                    self.windows[self.window_count] = Window {
                        line: line as u16,
                        start: start as u8,
                    };
                    self.window_count += 1;
                }
            }
        }
    }
}
