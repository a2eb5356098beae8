//! Victory by continuous fours (VCF) on the pattern board ([`super::patterns`]): the threat
//! space search of the pattern evaluation, at the leaves of the main search (a quiescence on
//! fours) and at its root.
//!
//! The attacker plays a four (a cell whose [`CellThreat`] is a four or better); the defender
//! must block its one winning cell, unless it can make five itself, which it cannot when the
//! attacker's move blocked its winning cell (a defender's winning cell at the attacker's turn
//! forces the attacker to block it, with a four, or the search fails; two lose). An open four,
//! two fours at once, or a block the defender may not play (renju: a forbidden point of Black)
//! wins. Every line found is a forced win under the rule; the search is bounded by a number of
//! tried fours and of fours in a line, so it may miss long wins.

use super::forbidden::is_forbidden;
use super::patterns::{CellThreat, PatternBoard};
use super::Rule;

/// The fours of the attacker worth trying, strongest first.
const FOUR_THREATS: [CellThreat; 4] = [
    CellThreat::OpenFour,
    CellThreat::FourThree,
    CellThreat::FourPlus,
    CellThreat::Four,
];

/// Most fours tried at one node.
const MOST_TRIED: usize = 32;

/// A VCF search for `attacker` (0 first player, 1 second) on a scratch pattern board.
pub(crate) struct PatternVcf<'a> {
    board: &'a mut PatternBoard,
    attacker: usize,
    /// Fours tried so far, and the most allowed.
    tries: u32,
    budget: u32,
    max_fours: usize,
}

impl<'a> PatternVcf<'a> {
    /// A search of at most `budget` tried fours and `max_fours` fours in a line.
    pub fn new(
        board: &'a mut PatternBoard,
        attacker: usize,
        budget: u32,
        max_fours: usize,
    ) -> Self {
        PatternVcf {
            board,
            attacker,
            tries: 0,
            budget,
            max_fours,
        }
    }

    /// The first move and length in plies (the completing move counted) of a forced win by
    /// fours for the attacker, who is to move, if one is found. The board is left as it was.
    pub fn run(&mut self) -> Option<(usize, usize)> {
        self.attack(0)
    }

    /// An attacker node after `fours` fours.
    fn attack(&mut self, fours: usize) -> Option<(usize, usize)> {
        let (me, opp) = (self.attacker, 1 - self.attacker);
        if let Some(five) = self.board.cells_with(me, CellThreat::Five).next() {
            return Some((five, 1));
        }
        let mut moves = [0u16; MOST_TRIED];
        let mut count = 0;
        match self.board.threat_count(opp, CellThreat::Five) {
            0 => {
                for threat in FOUR_THREATS {
                    for cell in self.board.cells_with(me, threat) {
                        if count < MOST_TRIED {
                            moves[count] = cell as u16;
                            count += 1;
                        }
                    }
                }
            }
            1 => {
                let block = self
                    .board
                    .cells_with(opp, CellThreat::Five)
                    .next()
                    .expect("one winning cell");
                if !self.board.threat(block, me).is_four() {
                    return None;
                }
                moves[0] = block as u16;
                count = 1;
            }
            _ => return None,
        }
        for &cell in &moves[..count] {
            if self.tries >= self.budget {
                return None;
            }
            if let Some(plies) = self.try_four(cell as usize, fours) {
                return Some((cell as usize, plies));
            }
        }
        None
    }

    /// Plays the attacker's four on `cell`, the defender's block, and searches on; the plies
    /// to the win if it is one. Takes everything back.
    fn try_four(&mut self, cell: usize, fours: usize) -> Option<usize> {
        self.tries += 1;
        let (me, opp) = (self.attacker, 1 - self.attacker);
        if self.board.threat(cell, me) == CellThreat::OpenFour {
            return Some(3);
        }
        self.board.place(cell, me);
        let result = match self.board.threat_count(me, CellThreat::Five) {
            0 => None,
            1 => {
                let block = self
                    .board
                    .cells_with(me, CellThreat::Five)
                    .next()
                    .expect("one winning cell");
                if opp == 0 && self.board.rule() == Rule::Renju && is_forbidden(self.board, block) {
                    // Black may not block: the five comes next.
                    Some(3)
                } else if fours + 1 >= self.max_fours {
                    None
                } else {
                    self.board.place(block, opp);
                    let found = self.attack(fours + 1).map(|(_, plies)| plies + 2);
                    self.board.remove(block);
                    found
                }
            }
            _ => Some(3),
        };
        self.board.remove(cell);
        result
    }
}
