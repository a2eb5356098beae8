//! The transposition table: exact keys, both score bounds, the best move, in buckets of four
//! entries, cleared in O(1) by a generation stamp.
//!
//! Every bound the solver computes is a true bound of the game value (the search has no depth
//! limit), so an entry stays valid for as long as the board size does: across windows, across
//! solves, and whatever root it came from. Two bounds for one key are merged by intersection.
//!
//! ```text
//!   bucket (64 bytes for u64 keys, one cache line)
//!   +--------------+--------------+--------------+--------------+
//!   | entry 0      | entry 1      | entry 2      | entry 3      |
//!   +--------------+--------------+--------------+--------------+
//!   entry: key (the whole position key) | stamp u16 | lower i8 | upper i8 | best u8 | work u8
//! ```
//!
//! An entry belongs to the table's contents only if its stamp is the current generation;
//! [`Table::clear`] starts a new generation, and really wipes the memory only when the 16-bit
//! stamp wraps, once every 65535 clears. A full bucket gives up the entry that cost the least
//! search (`work`, the bit length of the number of nodes below it).

use crate::connect::Bits;

/// One position's bounds.
#[derive(Clone, Copy, Debug)]
struct Entry<B: Bits> {
    /// The position key (exact: no two positions share it).
    key: B,
    /// Generation the entry belongs to; 0 never is one.
    stamp: u16,
    /// The value is at least this.
    lower: i8,
    /// The value is at most this.
    upper: i8,
    /// 1 + the column of the best move found, or 0.
    best: u8,
    /// Bit length of the number of nodes searched to find these bounds.
    work: u8,
}

impl<B: Bits> Entry<B> {
    const EMPTY: Self = Entry {
        key: B::ZERO,
        stamp: 0,
        lower: 0,
        upper: 0,
        best: 0,
        work: 0,
    };
}

/// Entries per bucket.
const WAYS: usize = 4;

#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
struct Bucket<B: Bits>([Entry<B>; WAYS]);

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bounds {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// The column of the best move found, if one was stored.
    pub best: Option<usize>,
}

/// A fixed-size table of [`Bounds`] by position key.
#[derive(Clone, Debug)]
pub(super) struct Table<B: Bits> {
    buckets: Box<[Bucket<B>]>,
    /// `64 - log2(number of buckets)`: the hash's top bits pick the bucket.
    shift: u32,
    stamp: u16,
}

impl<B: Bits> Table<B> {
    /// A table of about `megabytes` MB (the largest power of two of buckets that fits, and at
    /// least one bucket).
    pub fn new(megabytes: usize) -> Self {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let wanted = (bytes / size_of::<Bucket<B>>()).max(1);
        let count = 1usize << wanted.ilog2();
        Table {
            buckets: vec![Bucket([Entry::EMPTY; WAYS]); count].into_boxed_slice(),
            shift: 64 - count.ilog2(),
            stamp: 1,
        }
    }

    /// Size of the table in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket<B>>()
    }

    /// Forgets every entry, in O(1) except once every 65535 calls.
    pub fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.buckets.fill(Bucket([Entry::EMPTY; WAYS]));
            self.stamp = 1;
        }
    }

    #[inline]
    fn bucket(&self, key: B) -> usize {
        let wide = key.widen();
        let folded = (wide as u64) ^ ((wide >> 64) as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        // Fibonacci hashing: the top bits of the product depend on every bit of the key.
        // With one bucket the shift is 64, and `checked_shr` gives bucket 0.
        folded
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .checked_shr(self.shift)
            .unwrap_or(0) as usize
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub fn get(&self, key: B) -> Option<Bounds> {
        let bucket = &self.buckets[self.bucket(key)];
        bucket
            .0
            .iter()
            .find(|e| e.key == key && e.stamp == self.stamp)
            .map(|e| Bounds {
                lower: e.lower as i32,
                upper: e.upper as i32,
                best: (e.best as usize).checked_sub(1),
            })
    }

    /// Records that the value of `key` lies in `lower..=upper` (intersected with what is known
    /// already), that `best` is its best move if given, and that `nodes` were searched for it.
    /// Scores must fit an `i8`.
    #[inline]
    pub fn put(&mut self, key: B, lower: i32, upper: i32, best: Option<usize>, nodes: u64) {
        let stamp = self.stamp;
        let work = (64 - nodes.leading_zeros()) as u8;
        let best = best.map_or(0, |c| c as u8 + 1);
        let index = self.bucket(key);
        let bucket = &mut self.buckets[index].0;
        if let Some(e) = bucket.iter_mut().find(|e| e.key == key && e.stamp == stamp) {
            e.lower = e.lower.max(lower as i8);
            e.upper = e.upper.min(upper as i8);
            if best != 0 {
                e.best = best;
            }
            e.work = e.work.max(work);
            return;
        }
        // The first stale entry, or else the cheapest one.
        let mut victim = 0;
        let mut victim_work = u16::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let cost = if e.stamp == stamp { e.work as u16 } else { 0 };
            if cost < victim_work {
                victim = i;
                victim_work = cost;
                if cost == 0 {
                    break;
                }
            }
        }
        bucket[victim] = Entry {
            key,
            stamp,
            lower: lower as i8,
            upper: upper as i8,
            best,
            work,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_merge_and_clear() {
        let mut table = Table::<u64>::new(1);
        assert_eq!(table.bytes(), 1 << 20);
        table.put(12345, -3, 5, None, 10);
        table.put(12345, 1, 7, Some(2), 10);
        assert_eq!(
            table.get(12345),
            Some(Bounds {
                lower: 1,
                upper: 5,
                best: Some(2)
            })
        );
        assert_eq!(table.get(54321), None);
        table.clear();
        assert_eq!(table.get(12345), None);
    }

    #[test]
    fn wrapping_stamp_wipes_the_table() {
        let mut table = Table::<u128>::new(1);
        table.put(1 << 100, 0, 0, None, 1);
        for _ in 0..u16::MAX {
            table.clear();
        }
        assert_eq!(table.stamp, 1);
        assert_eq!(table.get(1 << 100), None);
    }

    #[test]
    fn a_full_bucket_keeps_the_costliest_entries() {
        // One bucket: every key lands in it.
        let mut table = Table::<u64>::new(1);
        table.buckets = vec![Bucket([Entry::EMPTY; WAYS])].into_boxed_slice();
        table.shift = 64;
        for key in 0..WAYS as u64 {
            table.put(key, 0, 0, None, 1000 + key);
        }
        table.put(99, 0, 0, None, 1);
        table.put(100, 0, 0, None, 1);
        assert!(table.get(100).is_some());
        assert!(table.get(99).is_none());
        assert_eq!(
            (0..WAYS as u64).filter(|&k| table.get(k).is_some()).count(),
            WAYS - 1
        );
    }
}
