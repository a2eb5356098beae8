//! Renju's forbidden moves of Black, read from the pattern board ([`super::patterns`]).
//!
//! A move of Black that does not make five is forbidden when it makes
//!
//! - an overline (six or more in a row) on some line;
//! - two fours or more: on two lines, or two on one line (`XXX.X.XXX` filled in the middle);
//! - two **true** threes or more. A three (on one line) is true when one more stone of Black
//!   on that line makes a straight four (`.XXXX.`, each end making exactly five) and that
//!   stone is not itself forbidden; the official exception is that a double-three with a
//!   false three is allowed. The check is recursive: whether the stone that would make the
//!   straight four is forbidden is asked with the move played.
//!
//! The pattern tables flag candidates ([`CellThreat::Forbidden`]); overlines and fours are
//! certain from the lines, threes are checked by playing the move on the pattern board.

use super::patterns::{CellThreat, LineThreat, PatternBoard};

/// Black, the first player.
const BLACK: usize = 0;

/// Whether Black's stone on the empty `cell` is a forbidden move under renju (see the module
/// documentation). A move that makes five is never forbidden. `board` must be a renju board;
/// it is left as it was.
pub fn is_forbidden(board: &mut PatternBoard, cell: usize) -> bool {
    debug_assert!(board.is_empty(cell));
    if board.threat(cell, BLACK) != CellThreat::Forbidden {
        return false;
    }
    let mut fours = 0;
    let mut three_directions = [false; 4];
    for (direction, three) in three_directions.iter_mut().enumerate() {
        match board.line_threat(cell, direction, BLACK) {
            LineThreat::Overline | LineThreat::DoubleFour => return true,
            LineThreat::Four | LineThreat::OpenFour => {
                fours += 1;
                if fours >= 2 {
                    return true;
                }
            }
            LineThreat::OpenThree => *three = true,
            _ => {}
        }
    }
    board.place(cell, BLACK);
    let mut true_threes = 0;
    for direction in (0..4).filter(|&direction| three_directions[direction]) {
        if three_is_true(board, cell, direction) {
            true_threes += 1;
            if true_threes >= 2 {
                break;
            }
        }
    }
    board.remove(cell);
    true_threes >= 2
}

/// Whether Black's stone on `cell` (just placed) makes a true three along `direction`: the
/// first empty cell past Black's stones on either side makes a straight four there and is not
/// forbidden. (The stone that makes a straight four with the three lies next to the run of
/// stones through `cell`, so the first empty cell each way is the only candidate.)
fn three_is_true(board: &mut PatternBoard, cell: usize, direction: usize) -> bool {
    for sign in [-1isize, 1] {
        for distance in 1..=4 {
            let Some(next) = board.step(cell, direction, sign * distance) else {
                break;
            };
            match board.mark(next) {
                1 => continue,
                0 => {
                    if board.line_threat(next, direction, BLACK) == LineThreat::OpenFour
                        && !is_forbidden(board, next)
                    {
                        return true;
                    }
                    break;
                }
                _ => break,
            }
        }
    }
    false
}
