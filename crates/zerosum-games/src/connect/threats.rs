//! Odd/even threat analysis for Connect-X (the zugzwang theory of Connect Four).
//!
//! A *threat* of a side is an empty cell that would complete a run of `k` for it. Rows are
//! counted from the bottom, 1-based. Once the board fills up, the side forced to play under
//! an opponent's threat loses; when only one column is left, with `n` discs on the board, the
//! first player moves whenever `n` is even. On boards where `rows * (cols - 1)` is even (an even
//! number of rows, or an odd number of columns: Connect Four and every square board of odd
//! side), this gives the first player the odd rows and the second player the even rows, so the
//! first player's threats on odd rows and the second player's on even rows are the strong
//! ones. On the other boards (5 rows by 4 columns, say) the parities swap.
//!
//! The analysis works on one column at a time, from each side's threats in that column as a bit
//! set (bit `h` for height `h`, 0 at the bottom). One column of Connect Four, with `F` and `S`
//! the threats of the first and second player and `x` discs:
//!
//! ```text
//!   height 4   S   above F's lowest threat, which comes first: a minor threat
//!   height 3   F   } a stacked pair of F: once the column is filled up to height 2, F wins here
//!   height 2   F   } F's lowest threat, on row 3 (odd): a good row for F
//!   height 1   x
//!   height 0   x
//! ```
//!
//! The side to move wins at once on a playable threat (one whose height is the column's
//! height), and loses on two playable threats of the opponent, or on one with another threat of
//! the opponent right above it.

use zerosum_core::Side;

use super::weights::ConnectWeights;

/// What the threat analysis concludes, from the side to move's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Verdict {
    /// `1` if the side to move wins within one ply (it has a playable threat), `-1` if it loses
    /// within two (two playable threats of the opponent, or one with another right above it),
    /// `0` otherwise.
    pub decided: i32,
    /// The threat balance, in evaluation units (0 when the position is decided).
    pub balance: i32,
}

/// Columns (bit `c` for column `c`) where something happens at once, for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ImmediateColumns {
    /// A disc here completes a run for the side to move.
    pub wins: u128,
    /// A disc of the opponent here would complete a run: the side to move must block.
    pub blocks: u128,
    /// The cell above this column's landing cell is an opponent's threat: playing here hands
    /// the opponent a win.
    pub poisoned: u128,
}

/// Bits `0..=h` (every bit when `h >= 127`).
#[inline]
fn up_to(h: u32) -> u128 {
    if h >= 127 {
        u128::MAX
    } else {
        (1u128 << (h + 1)) - 1
    }
}

/// True if a threat of `side` at height `h` (0 at the bottom) lies on a row that `side` gets
/// when the last column fills up, on a board of `rows` x `cols` (see the module documentation):
/// odd rows (even heights) for the first player and even rows for the second when
/// `rows * (cols - 1)` is even, the other way round otherwise.
#[inline]
pub(super) fn good_row(side: Side, h: u32, rows: usize, cols: usize) -> bool {
    let first_height_parity = (rows * cols.saturating_sub(1)) % 2;
    let first_gets_it = h as usize % 2 == first_height_parity;
    first_gets_it == (side == Side::First)
}

/// Analyses every column. `height(c)` is the number of discs in column `c`; `threats(side, c)`
/// is the set of `side`'s threat heights in column `c` (all of them empty cells, so at or above
/// the column's height).
pub(super) fn assess(
    weights: &ConnectWeights,
    rows: usize,
    cols: usize,
    to_move: Side,
    height: impl Fn(usize) -> usize,
    threats: impl Fn(Side, usize) -> u128,
) -> Verdict {
    let opponent = to_move.opponent();
    let mut mover_wins_now = false;
    let mut opponent_playable = 0;
    let mut opponent_playable_stacked = false;
    // Per side (index 0: first player).
    let mut value = [0i32; 2];
    let mut good_columns = [0u32; 2];
    for col in 0..cols {
        let h = height(col);
        if h >= rows {
            continue;
        }
        let sets = [threats(Side::First, col), threats(Side::Second, col)];
        if sets[0] | sets[1] == 0 {
            continue;
        }
        let landing = 1u128 << h;
        if sets[to_move.index()] & landing != 0 {
            mover_wins_now = true;
        }
        let theirs = sets[opponent.index()];
        if theirs & landing != 0 {
            opponent_playable += 1;
            if theirs & landing << 1 != 0 {
                opponent_playable_stacked = true;
            }
        }
        for side in Side::BOTH {
            let own = sets[side.index()];
            if own == 0 {
                continue;
            }
            let other = sets[side.opponent().index()];
            let lowest = own.trailing_zeros();
            // 128 when the other side has no threat here.
            let other_lowest = other.trailing_zeros();
            let mut total = weights.minor_threat * (own.count_ones() as i32 - 1);
            if lowest <= other_lowest {
                // This side's threat comes first in the column (a shared cell counts for both).
                if good_row(side, lowest, rows, cols) {
                    total += weights.good_threat;
                    good_columns[side.index()] += 1;
                } else {
                    total += weights.bad_threat;
                }
                // A pair of threats one above the other, not above the other side's lowest.
                if own & (own >> 1) & up_to(other_lowest) != 0 {
                    total += weights.stacked_threat;
                }
            } else {
                total += weights.minor_threat;
            }
            value[side.index()] += total;
        }
    }
    if mover_wins_now {
        return Verdict {
            decided: 1,
            balance: 0,
        };
    }
    if opponent_playable >= 2 || opponent_playable_stacked {
        return Verdict {
            decided: -1,
            balance: 0,
        };
    }
    // Zugzwang control: one side alone has threats on its good rows.
    for side in Side::BOTH {
        if good_columns[side.index()] > 0 && good_columns[side.opponent().index()] == 0 {
            value[side.index()] += weights.zugzwang;
        }
    }
    Verdict {
        decided: 0,
        balance: value[to_move.index()] - value[opponent.index()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn balance(value: i32) -> Verdict {
        Verdict {
            decided: 0,
            balance: value,
        }
    }

    fn weights() -> ConnectWeights {
        ConnectWeights::default()
    }

    /// Assesses a 6-row board of `cols` empty-ish columns with the given heights and threats.
    fn run(to_move: Side, heights: &[usize], first: &[u128], second: &[u128]) -> Verdict {
        assess(
            &weights(),
            6,
            heights.len(),
            to_move,
            |c| heights[c],
            |side, c| match side {
                Side::First => first[c],
                Side::Second => second[c],
            },
        )
    }

    #[test]
    fn playable_threat_of_the_mover_decides() {
        let verdict = run(Side::First, &[2, 0], &[1 << 2, 0], &[0, 1 << 0]);
        assert_eq!(
            verdict,
            Verdict {
                decided: 1,
                balance: 0
            }
        );
    }

    #[test]
    fn two_playable_threats_of_the_opponent_decide() {
        let verdict = run(Side::First, &[1, 3], &[0, 0], &[1 << 1, 1 << 3]);
        assert_eq!(
            verdict,
            Verdict {
                decided: -1,
                balance: 0
            }
        );
        // One playable threat with another right above it.
        let verdict = run(Side::First, &[1, 3], &[0, 0], &[0b110, 0]);
        assert_eq!(
            verdict,
            Verdict {
                decided: -1,
                balance: 0
            }
        );
    }

    #[test]
    fn parity_decides_which_threats_are_good() {
        let w = weights();
        // The first player's threat on row 3 (height 2) is good, on row 4 (height 3) bad.
        let odd = run(Side::First, &[0], &[1 << 2], &[0]);
        let even = run(Side::First, &[0], &[1 << 3], &[0]);
        assert_eq!(odd, balance(w.good_threat + w.zugzwang));
        assert_eq!(even, balance(w.bad_threat));
        // And the reverse for the second player, seen from the first.
        let even = run(Side::First, &[0], &[0], &[1 << 3]);
        assert_eq!(even, balance(-(w.good_threat + w.zugzwang)));
    }

    #[test]
    fn parity_follows_the_board_size() {
        // Connect Four: the first player's odd rows (even heights).
        assert!(good_row(Side::First, 0, 6, 7) && good_row(Side::Second, 1, 6, 7));
        assert!(!good_row(Side::First, 1, 6, 7) && !good_row(Side::Second, 2, 6, 7));
        // 5 rows by 7 columns: still (5 * 6 is even).
        assert!(good_row(Side::First, 2, 5, 7));
        // 5 rows by 4 columns: swapped (5 * 3 is odd).
        assert!(good_row(Side::First, 1, 5, 4) && good_row(Side::Second, 0, 5, 4));
    }

    #[test]
    fn a_threat_above_the_opponents_lowest_is_minor() {
        let w = weights();
        let verdict = run(Side::Second, &[0], &[1 << 2], &[1 << 3]);
        assert_eq!(
            verdict,
            balance(w.minor_threat - w.good_threat - w.zugzwang)
        );
    }

    #[test]
    fn stacked_threats_count() {
        let w = weights();
        let verdict = run(Side::First, &[0], &[0b1100], &[0]);
        assert_eq!(
            verdict,
            balance(w.good_threat + w.stacked_threat + w.minor_threat + w.zugzwang)
        );
    }
}
