//! The positions the threads of a solve are searching now, so that a thread leaves a position
//! another thread is searching for after its other moves (Weill's ABDADA): by then the other
//! thread has often stored its value, and the two threads search different subtrees instead of
//! the same one in step.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::connect::Bits;

/// log2 of the number of slots: only positions far from the end are marked, a few thousand at
/// most at any time.
const SLOT_BITS: u32 = 14;

/// Marks of positions being searched, by key hash; shared by the threads of a solve. A slot
/// holds one mark: two positions of one slot overwrite each other's marks, which only makes
/// a thread search a busy position at once or wait with an idle one, never changes a value.
pub(super) struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    /// No position marked.
    pub fn new() -> Self {
        Busy {
            slots: (0..1 << SLOT_BITS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The mark of the position of table key `key` (never 0, the empty slot).
    #[inline]
    pub fn mark_of<B: Bits>(key: B) -> u64 {
        let wide = key.widen();
        let folded = (wide as u64) ^ ((wide >> 64) as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
    }

    #[inline]
    fn slot(&self, mark: u64) -> &AtomicU64 {
        &self.slots[(mark >> (64 - SLOT_BITS)) as usize]
    }

    /// Whether a thread is searching the position of `mark`.
    #[inline]
    pub fn is_busy(&self, mark: u64) -> bool {
        self.slot(mark).load(Relaxed) == mark
    }

    /// A thread starts searching the position of `mark`.
    #[inline]
    pub fn enter(&self, mark: u64) {
        self.slot(mark).store(mark, Relaxed);
    }

    /// A thread is done with the position of `mark` (the slot is emptied unless another
    /// position took it meanwhile).
    #[inline]
    pub fn leave(&self, mark: u64) {
        let _ = self.slot(mark).compare_exchange(mark, 0, Relaxed, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_busy_from_enter_to_leave() {
        let busy = Busy::new();
        let (a, b) = (Busy::mark_of(0b1011u64), Busy::mark_of(0b1101u64));
        assert_ne!(a, b);
        assert!(!busy.is_busy(a));
        busy.enter(a);
        assert!(busy.is_busy(a) && !busy.is_busy(b));
        busy.leave(a);
        assert!(!busy.is_busy(a));
    }
}
