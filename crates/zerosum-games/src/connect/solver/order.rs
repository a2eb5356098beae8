//! Move ordering: a small list of columns sorted by a score, best first, each with the
//! winning cells its move gives the side that plays it.

use std::mem::MaybeUninit;

use super::position::MAX_COLS;
use crate::connect::Bits;

/// One move of the list.
#[derive(Clone, Copy)]
struct Item<B> {
    /// `score << 8 | column`.
    key: u32,
    /// The mover's winning cells after the move.
    threats: B,
}

/// Columns with their ordering scores, sorted best first as they are added. Equal scores keep
/// the order of insertion, so adding columns centre first breaks ties towards the centre.
///
/// The storage is left uninitialised (a list is made at every node of the search, and
/// zeroing room for 64 columns cost more than sorting the few real ones): the first `len`
/// items are always initialised, and only those are read.
pub(super) struct MoveList<B> {
    /// Sorted by decreasing score; `items[..len]` initialised.
    items: [MaybeUninit<Item<B>>; MAX_COLS],
    len: usize,
}

impl<B: Bits> MoveList<B> {
    #[inline]
    pub fn new() -> Self {
        MoveList {
            items: [const { MaybeUninit::uninit() }; MAX_COLS],
            len: 0,
        }
    }

    /// Adds `column` (below 256, at most [`MAX_COLS`] columns in all) with `score` (below
    /// 2^24) and the mover's winning cells after the move; insertion sort. Panics past
    /// [`MAX_COLS`] moves.
    #[inline]
    pub fn add(&mut self, column: usize, score: u32, threats: B) {
        let mut i = self.len;
        while i > 0 {
            // SAFETY: `i - 1 < len`, and the first `len` items are initialised.
            let previous = unsafe { self.items[i - 1].assume_init() };
            if previous.key >> 8 >= score {
                break;
            }
            self.items[i] = MaybeUninit::new(previous);
            i -= 1;
        }
        self.items[i] = MaybeUninit::new(Item {
            key: score << 8 | column as u32,
            threats,
        });
        self.len += 1;
    }

    /// The columns with the mover's winning cells after each, best first.
    #[inline]
    pub fn moves(&self) -> impl Iterator<Item = (usize, B)> + '_ {
        self.items[..self.len].iter().map(|item| {
            // SAFETY: only the first `len` items are read, and those are initialised.
            let item = unsafe { item.assume_init() };
            ((item.key & 0xFF) as usize, item.threats)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_by_score_then_insertion() {
        let mut list = MoveList::<u64>::new();
        for (column, score) in [(3, 1), (2, 4), (4, 1), (1, 0), (5, 4)] {
            list.add(column, score, 1 << column);
        }
        assert_eq!(
            list.moves().collect::<Vec<_>>(),
            [(2, 4), (5, 32), (3, 8), (4, 16), (1, 2)]
        );
    }
}
