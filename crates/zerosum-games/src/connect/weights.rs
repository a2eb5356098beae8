//! The weights of the Connect-X evaluation ([`ConnectWeights`]) and the tables derived from
//! them for one board ([`BoardTables`]): what the evaluator, the board scans (`windows`) and the
//! threat analysis (`threats`) all read. It imports none of them, so the dependencies of the
//! evaluation point one way: `evaluator -> windows -> threats -> weights`.

use super::packed::Packed;

/// Window values are kept in 1/1024 of an evaluation unit, so that single discs in long windows
/// (`k` up to 100) keep their small values; sums are taken in `i64`.
pub const WINDOW_SCALE: i32 = 1024;

/// The weights of the evaluation terms, in evaluation units (see [`super::ConnectEvaluator`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectWeights {
    /// Value of an open window one disc short of a run (`k - 1` discs of one side, no other).
    pub window: i32,
    /// Value of a disc in the centre column; 0 on the edge columns.
    pub centre: i32,
    /// A side's lowest threat in a column (not above the opponent's lowest) on a row of its
    /// parity: odd rows from the bottom for the first player, even rows for the second (swapped
    /// when `rows * (cols - 1)` is odd: the last column to fill then gives the first player the
    /// even rows).
    pub good_threat: i32,
    /// The same on a row of the other parity.
    pub bad_threat: i32,
    /// Every other threat.
    pub minor_threat: i32,
    /// Two threats of a side directly above each other, not above the opponent's lowest threat
    /// in the column.
    pub stacked_threat: i32,
    /// One side alone has a threat on a good row: it controls the zugzwang.
    pub zugzwang: i32,
    /// Bonus of the side to move.
    pub tempo: i32,
    /// Value of a position decided within two plies; 0 to ignore the verdict and sum the
    /// terms anyway.
    pub decided: i32,
}

impl Default for ConnectWeights {
    /// The weights of [`super::ConnectEvaluator::new`].
    fn default() -> Self {
        ConnectWeights {
            window: 24,
            centre: 3,
            good_threat: 40,
            bad_threat: 15,
            minor_threat: 6,
            stacked_threat: 120,
            zugzwang: 60,
            tempo: 3,
            decided: 10_000,
        }
    }
}

impl ConnectWeights {
    /// Open windows only: the baseline the full evaluation is measured against.
    pub fn windows_only() -> Self {
        ConnectWeights {
            window: 24,
            centre: 0,
            good_threat: 0,
            bad_threat: 0,
            minor_threat: 0,
            stacked_threat: 0,
            zugzwang: 0,
            tempo: 0,
            decided: 0,
        }
    }
}

/// Bit masks of a packed board, in the layout of [`Packed`] (column `c`, height `h` is bit
/// `c * (rows + 1) + h`), widened to `u128`. Empty for boards that do not fit 128 bits.
#[derive(Clone, Debug, Default)]
pub struct PackedTables {
    /// Every cell of the board (no sentinel).
    pub cells: u128,
    /// The bottom cell of every column.
    pub bottom: u128,
    /// The cells of each column.
    pub columns: Vec<u128>,
    /// Every window of `k` cells in a line.
    pub windows: Vec<u128>,
}

impl PackedTables {
    fn new(rows: usize, cols: usize, k: usize) -> PackedTables {
        if !Packed::<u128>::fits(rows, cols) {
            return PackedTables::default();
        }
        let bit = |col: usize, height: usize| 1u128 << (col * (rows + 1) + height);
        let mut tables = PackedTables::default();
        for col in 0..cols {
            tables.bottom |= bit(col, 0);
            let column = (0..rows).fold(0, |mask, height| mask | bit(col, height));
            tables.columns.push(column);
            tables.cells |= column;
        }
        let (rows, cols, k) = (rows as isize, cols as isize, k as isize);
        for (dc, dh) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
            for col in 0..cols {
                for height in 0..rows {
                    let (end_col, end_height) = (col + dc * (k - 1), height + dh * (k - 1));
                    if !(0..cols).contains(&end_col) || !(0..rows).contains(&end_height) {
                        continue;
                    }
                    let window = (0..k).fold(0, |mask, i| {
                        mask | bit((col + dc * i) as usize, (height + dh * i) as usize)
                    });
                    tables.windows.push(window);
                }
            }
        }
        tables
    }
}

/// One board's evaluation tables: its size, the weights and what is derived from them, built
/// once per evaluator.
#[derive(Clone, Debug)]
pub struct BoardTables {
    pub rows: usize,
    pub cols: usize,
    /// The run length that wins.
    pub k: usize,
    pub weights: ConnectWeights,
    /// Value of an open window by its number of discs, in 1/[`WINDOW_SCALE`] units.
    pub window_value: Vec<i32>,
    /// Value of a disc by column.
    pub centre: Vec<i32>,
    pub packed: PackedTables,
}

impl BoardTables {
    /// The tables of a `rows` x `cols` board where `k` in a row wins, for `weights`.
    pub fn new(rows: usize, cols: usize, k: usize, weights: ConnectWeights) -> BoardTables {
        let window_value = (0..=k)
            .map(|discs| {
                if k < 2 || discs == 0 {
                    return 0;
                }
                let fill = discs.min(k - 1) as f64 / (k - 1) as f64;
                let value = weights.window as f64 * fill * fill * 4.0 / k as f64;
                (value * WINDOW_SCALE as f64).round() as i32
            })
            .collect();
        let centre = (0..cols)
            .map(|col| {
                if cols == 1 {
                    return weights.centre;
                }
                let off_centre = (2 * col).abs_diff(cols - 1) as f64 / (cols - 1) as f64;
                (weights.centre as f64 * (1.0 - off_centre)).round() as i32
            })
            .collect();
        BoardTables {
            rows,
            cols,
            k,
            weights,
            window_value,
            centre,
            packed: PackedTables::new(rows, cols, k),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables(rows: usize, cols: usize, k: usize) -> BoardTables {
        BoardTables::new(rows, cols, k, ConnectWeights::default())
    }

    #[test]
    fn window_values_grow_superlinearly() {
        let value = tables(6, 7, 4).window_value;
        assert_eq!(value[0], 0);
        assert!(value[2] > 2 * value[1] && value[3] > value[2] + value[2] - value[1]);
        assert_eq!(value[3], 24 * WINDOW_SCALE);
        // Long runs keep a non-zero value for a single disc.
        assert!(tables(100, 100, 30).window_value[1] > 0);
    }

    #[test]
    fn centre_weights_fall_to_the_edges() {
        assert_eq!(tables(6, 7, 4).centre, [0, 1, 2, 3, 2, 1, 0]);
    }

    #[test]
    fn packed_tables_hold_every_connect_four_window() {
        let packed = tables(6, 7, 4).packed;
        // 24 horizontal, 21 vertical, 12 + 12 diagonal.
        assert_eq!(packed.windows.len(), 69);
        assert_eq!(packed.columns.len(), 7);
    }
}
