//! Victory by continuous threats (VCT): a threat-space search over fours and open threes, run
//! at the root of a search (see [`super::MnkEvaluator`]'s `root_move_loses`) to find a forced
//! win of the opponent after the move the search is about to play.
//!
//! The attacker plays a threat: a stone that makes a four (a winning cell next move) or an
//! open three (a cell making two winning cells next move, [`ThreatScan::doubles`]). The
//! defender then has only these answers, and every one of them is searched:
//!
//! - against a four, the block of its winning cell;
//! - against an open three, every cell that spoils all of the attacker's doubles (the double
//!   itself or a free cell of a three through it, [`ThreatScan::double_answers`]), and every
//!   four of its own (the attacker must block it; the three is still there afterwards, or
//!   the next node sees it gone).
//!
//! Every other answer loses at once to an open four or a five, so a line found here is a real
//! forced win. The attacker wins when it has a winning cell at its turn, or a double while the
//! defender has no four; it must block a four of the defender (then go on with threats), and
//! while the defender has a double of its own it may only play fours. The search is
//! depth-first, deepened one threat at a time, and bounded by a number of scanned positions:
//! it may miss wins, but every win it reports is proven (when the list of threes of the
//! attacker overflowed, a node counts as not won).

use super::lines::{low_bits, LineBoard};
use super::threats::{bit_cells, set_bit, windows_touching_stones, ThreatScan};

/// The search state: the board (stones are placed and taken back in place) and the budget.
pub(crate) struct VctSearch<'a, const W: usize> {
    board: &'a mut LineBoard,
    attacker: usize,
    weight_by_missing: &'a [i32],
    /// Positions scanned so far, and the most allowed.
    scans: u32,
    budget: u32,
}

impl<'a, const W: usize> VctSearch<'a, W> {
    /// A search for `attacker` (0 first player, 1 second), to move on `board`, scanning at
    /// most `budget` positions (the window weights are the scan's, unused here but for it).
    pub fn new(
        board: &'a mut LineBoard,
        attacker: usize,
        weight_by_missing: &'a [i32],
        budget: u32,
    ) -> Self {
        VctSearch {
            board,
            attacker,
            weight_by_missing,
            scans: 0,
            budget,
        }
    }

    /// Whether the attacker wins by threats of at most `max_threats` threat moves of its own
    /// (forced blocks not counted), found within the budget. `true` is proven.
    pub fn run(&mut self, max_threats: usize) -> bool {
        for depth in 1..=max_threats {
            if self.attack(depth) {
                return true;
            }
            if self.scans >= self.budget {
                return false;
            }
        }
        false
    }

    fn scan(&mut self) -> ThreatScan<W> {
        self.scans += 1;
        ThreatScan::<W>::run(self.board, self.weight_by_missing)
    }

    /// The attacker to move: whether it wins with at most `depth` more threats.
    fn attack(&mut self, depth: usize) -> bool {
        if self.scans >= self.budget {
            return false;
        }
        let (me, opp) = (self.attacker, 1 - self.attacker);
        let scan = self.scan();
        if scan.win_count[me] > 0 {
            return true;
        }
        if scan.win_count[opp] >= 2 {
            return false;
        }
        if scan.win_count[opp] == 1 {
            let block = bit_cells(&scan.wins[opp]).next().expect("one winning cell");
            self.board.place(block, me);
            let won = self.defend(depth);
            self.board.remove(block, me);
            return won;
        }
        if scan.double_count[me] > 0 {
            // An open four or two fours next: the defender blocks one winning cell only.
            return true;
        }
        if depth == 0 {
            return false;
        }
        let mut moves: Vec<u16> = bit_cells(&scan.fours[me]).map(|c| c as u16).collect();
        // Threes too; while the defender has an open three of its own, only those that answer
        // it (it would answer any other with an open four).
        let mut makers = three_makers::<W>(self.board, me);
        if scan.double_count[opp] > 0 {
            let answers = scan.double_answers(self.board, opp).unwrap_or([0; W]);
            for (maker, answer) in makers.iter_mut().zip(answers) {
                *maker &= answer;
            }
        }
        moves.extend(
            bit_cells(&makers)
                .filter(|&cell| !super::threats::test_bit(&scan.fours[me], cell))
                .map(|c| c as u16),
        );
        for mv in moves {
            let cell = mv as usize;
            self.board.place(cell, me);
            let won = self.defend(depth - 1);
            self.board.remove(cell, me);
            if won {
                return true;
            }
            if self.scans >= self.budget {
                return false;
            }
        }
        false
    }

    /// The defender to move, the attacker having `depth` threats left: whether the attacker
    /// wins against every answer.
    fn defend(&mut self, depth: usize) -> bool {
        if self.scans >= self.budget {
            return false;
        }
        let (att, me) = (self.attacker, 1 - self.attacker);
        let scan = self.scan();
        if scan.win_count[me] > 0 {
            return false;
        }
        if scan.win_count[att] >= 2 {
            return true;
        }
        let answers: [u64; W] = if scan.win_count[att] == 1 {
            scan.wins[att]
        } else if scan.double_count[att] > 0 {
            let Some(mut answers) = scan.double_answers(self.board, att) else {
                return false;
            };
            for (answer, four) in answers.iter_mut().zip(scan.fours[me]) {
                *answer |= four;
            }
            answers
        } else {
            // The attacker's last move threatened nothing.
            return false;
        };
        let moves: Vec<usize> = bit_cells(&answers).collect();
        for cell in moves {
            self.board.place(cell, me);
            let won = self.attack(depth);
            self.board.remove(cell, me);
            if !won {
                return false;
            }
        }
        true
    }
}

/// The empty cells where a stone of `side` makes a window of K cells hold K-2 of its stones
/// and none of the other side's (a three, open or not; cells making fours are in the scan).
fn three_makers<const W: usize>(board: &LineBoard, side: usize) -> [u64; W] {
    let k = board.k;
    let window = low_bits(k);
    let mut cells = [0u64; W];
    if k < 3 {
        return cells;
    }
    for line in 0..board.line_count() {
        let stones = board.line(line);
        if stones[side] == 0 {
            continue;
        }
        let len = board.line_len(line);
        let mut makers = 0u128;
        for start in windows_touching_stones(board, stones[side], len) {
            let mask = window << start;
            if stones[1 - side] & mask == 0 && (stones[side] & mask).count_ones() as usize + 3 == k
            {
                makers |= mask & !stones[side];
            }
        }
        while makers != 0 {
            let pos = makers.trailing_zeros() as usize;
            makers &= makers - 1;
            set_bit(&mut cells, board.cell_at(line, pos));
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mnk::Mnk;
    use zerosum_core::conformance::SplitMix;
    use zerosum_core::{Game, Outcome, Status};

    const WEIGHTS: [i32; 100] = [1; 100];

    /// The cells where the side to move would win at once.
    fn winning_cells(game: &mut Mnk<2>) -> Vec<u16> {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves.retain(|&mv| {
            game.play(mv);
            let won = matches!(game.status(), Status::Over(Outcome::Win(_)));
            game.undo();
            won
        });
        moves
    }

    /// Whether `attacker` wins by brute force, every reply of the defender tried (the attacker
    /// only on lines within four cells of its stones, which can only make wins harder to
    /// find), with `depth` free moves of the attacker (forced blocks of a single winning cell
    /// are not counted, nor are the defender's moves).
    fn brute_wins(game: &mut Mnk<2>, attacker: usize, depth: usize) -> bool {
        if game.status().is_over() {
            return matches!(game.status(), Status::Over(Outcome::Win(side)) if side.index() == attacker);
        }
        let mover = game.to_move().index();
        if !winning_cells(game).is_empty() {
            return mover == attacker;
        }
        // The opponent's winning cells: a stone there blocks one.
        let scan = ThreatScan::<2>::run(&LineBoard::new(game), &WEIGHTS);
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let threats: Vec<u16> = moves
            .iter()
            .copied()
            .filter(|&mv| super::super::threats::test_bit(&scan.wins[1 - mover], mv as usize))
            .collect();
        let (forced, candidates) = match threats.len() {
            0 => (false, moves),
            1 => (true, threats),
            _ => return mover != attacker,
        };
        let free_attack = mover == attacker && !forced;
        if free_attack && depth == 0 {
            return false;
        }
        let next = if free_attack { depth - 1 } else { depth };
        let near = |game: &Mnk<2>, mv: u16| {
            let (row, col) = game.row_col(mv);
            [(0isize, 1isize), (1, 0), (1, 1), (1, -1)]
                .iter()
                .any(|&(dr, dc)| {
                    (-4isize..=4).any(|step| {
                        let (r, c) = (row as isize + dr * step, col as isize + dc * step);
                        (0..9).contains(&r)
                            && (0..9).contains(&c)
                            && game.cell_owner(r as usize, c as usize).map(|s| s.index())
                                == Some(attacker)
                    })
                })
        };
        for mv in candidates {
            if free_attack && !near(game, mv) {
                continue;
            }
            game.play(mv);
            let won = brute_wins(game, attacker, next);
            game.undo();
            if mover == attacker && won {
                return true;
            }
            if mover != attacker && !won {
                return false;
            }
        }
        mover != attacker
    }

    /// Every win by one threat (then a double or a four) that the search reports holds
    /// against every defence, by brute force: random positions on 9x9, both sides.
    #[test]
    fn every_short_win_found_holds_against_every_defence() {
        let mut rng = SplitMix::new(0x5c7);
        let (mut claimed, mut refuted) = (0, 0);
        for _ in 0..40 {
            let mut game = Mnk::<2>::new(9, 9, 5);
            let stones = 8 + rng.below(7);
            while game.ply() < stones && !game.status().is_over() {
                let (row, col) = (2 + rng.below(5), 2 + rng.below(5));
                let cell = game.cell(row, col);
                if game.cell_owner(row, col).is_none() {
                    game.play(cell);
                }
            }
            if game.status().is_over() || !winning_cells(&mut game).is_empty() {
                continue;
            }
            let attacker = game.to_move().index();
            let mut board = LineBoard::new(&game);
            let mut search = VctSearch::<2>::new(&mut board, attacker, &WEIGHTS, 1_000_000);
            if search.run(1) {
                claimed += 1;
                if !brute_wins(&mut game, attacker, 2) {
                    refuted += 1;
                }
            }
        }
        assert_eq!(refuted, 0, "{refuted} of {claimed} claimed wins refuted");
        assert!(
            claimed >= 8,
            "only {claimed} wins claimed: the positions test little"
        );
    }
}
