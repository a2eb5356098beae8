//! Move ordering: a small list of columns sorted by a score, best first.

use super::position::MAX_COLS;

/// Columns with their ordering scores, sorted best first as they are added. Equal scores keep
/// the order of insertion, so adding columns centre first breaks ties towards the centre.
pub(super) struct MoveList {
    /// `score << 8 | column`, sorted by decreasing score.
    items: [u32; MAX_COLS],
    len: usize,
}

impl MoveList {
    #[inline]
    pub fn new() -> Self {
        MoveList {
            items: [0; MAX_COLS],
            len: 0,
        }
    }

    /// Adds `column` (below 256) with `score` (below 2^24); insertion sort.
    #[inline]
    pub fn add(&mut self, column: usize, score: u32) {
        let item = score << 8 | column as u32;
        let mut i = self.len;
        while i > 0 && self.items[i - 1] >> 8 < score {
            self.items[i] = self.items[i - 1];
            i -= 1;
        }
        self.items[i] = item;
        self.len += 1;
    }

    /// The columns, best first.
    #[inline]
    pub fn columns(&self) -> impl Iterator<Item = usize> + '_ {
        self.items[..self.len]
            .iter()
            .map(|&item| (item & 0xFF) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_by_score_then_insertion() {
        let mut list = MoveList::new();
        for (column, score) in [(3, 1), (2, 4), (4, 1), (1, 0), (5, 4)] {
            list.add(column, score);
        }
        assert_eq!(list.columns().collect::<Vec<_>>(), [2, 5, 3, 4, 1]);
    }
}
