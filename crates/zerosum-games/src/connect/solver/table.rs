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
//!
//! After a clear only the first 2^12 buckets are used, and the region in use grows fourfold
//! whenever it has taken in a quarter as many new entries as it has slots: a small search works in
//! memory that stays in the processor's caches, a large one gets the whole table.

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

/// Buckets in use right after a clear: 2^12 buckets, 256 KB for `u64` keys, which stays in
/// the processor's cache while a search is small.
const START_BITS: u32 = 12;

/// The region grows when it has taken in a quarter as many new entries as it has slots,
/// before collisions start to evict.
const GROW_SHIFT: u32 = 2;

/// The size of a huge memory page on x86_64 and aarch64 Linux.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// `count` empty buckets. On Linux the memory is marked for transparent huge pages before it
/// is first written (so the kernel backs it with 2 MB pages where it can): a table of many
/// megabytes is read at random, and with 4 KB pages nearly every probe would also miss the
/// address translation cache. About a sixth less time on the hardest test set.
fn empty_buckets<B: Bits>(count: usize) -> Box<[Bucket<B>]> {
    let mut buckets: Vec<Bucket<B>> = Vec::with_capacity(count);
    #[cfg(target_os = "linux")]
    {
        let start = buckets.as_mut_ptr() as usize;
        let end = start + count * size_of::<Bucket<B>>();
        let (from, to) = (
            start.next_multiple_of(HUGE_PAGE),
            end / HUGE_PAGE * HUGE_PAGE,
        );
        if from < to {
            // SAFETY: `from..to` lies inside the vector's own allocation, and madvise with
            // MADV_HUGEPAGE changes only how the kernel backs those pages, never their
            // contents. Its failure (no transparent huge pages) leaves ordinary pages.
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    buckets.resize(count, Bucket([Entry::EMPTY; WAYS]));
    buckets.into_boxed_slice()
}

/// A table of [`Bounds`] by position key, of a fixed capacity of which only a growing prefix
/// (the region) is in use. Small searches touch only a little memory, which stays in cache;
/// the region grows fourfold each time it has taken a quarter as many new entries as it has slots, the
/// live entries moving to their buckets in the larger region, until it is the whole table.
#[derive(Clone, Debug)]
pub(super) struct Table<B: Bits> {
    buckets: Box<[Bucket<B>]>,
    /// log2 of the number of buckets in use: the hash's top `bits` bits pick the bucket.
    bits: u32,
    /// log2 of the number of buckets.
    max_bits: u32,
    /// The current generation; entries of other generations are empty slots.
    stamp: u16,
    /// Entries put into empty slots since the region last grew.
    inserted: usize,
}

impl<B: Bits> Table<B> {
    /// A table of about `megabytes` MB (the largest power of two of buckets that fits, and at
    /// least one bucket).
    pub fn new(megabytes: usize) -> Self {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let wanted = (bytes / size_of::<Bucket<B>>()).max(1);
        let max_bits = wanted.ilog2();
        Table {
            buckets: empty_buckets(1 << max_bits),
            bits: START_BITS.min(max_bits),
            max_bits,
            stamp: 1,
            inserted: 0,
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
        self.bits = START_BITS.min(self.max_bits);
        self.inserted = 0;
    }

    /// A 64-bit hash of `key` whose top bits are well mixed (Fibonacci hashing: the top bits
    /// of the product depend on every bit of the key).
    #[inline]
    fn hash(key: B) -> u64 {
        let wide = key.widen();
        let folded = (wide as u64) ^ ((wide >> 64) as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        folded.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The bucket of `key` in a region of `2^bits` buckets.
    #[inline]
    fn bucket_in(key: B, bits: u32) -> usize {
        // With a single bucket the shift is 64, and `checked_shr` gives bucket 0.
        Self::hash(key).checked_shr(64 - bits).unwrap_or(0) as usize
    }

    #[inline]
    fn bucket(&self, key: B) -> usize {
        Self::bucket_in(key, self.bits)
    }

    /// Makes the region four times larger (or as large as the table), moving every live entry
    /// to its new bucket. An entry of bucket `i` goes to a bucket of `4i..4i+4`, never below
    /// `i`: going down from the last bucket, each bucket is emptied before anything moves in.
    fn grow(&mut self) {
        let old_bits = self.bits;
        let bits = (old_bits + 2).min(self.max_bits);
        for i in (0..1usize << old_bits).rev() {
            let entries = std::mem::replace(&mut self.buckets[i], Bucket([Entry::EMPTY; WAYS]));
            for entry in entries.0 {
                if entry.stamp == self.stamp {
                    let slots = &mut self.buckets[Self::bucket_in(entry.key, bits)].0;
                    if let Some(slot) = slots.iter_mut().find(|e| e.stamp != self.stamp) {
                        *slot = entry;
                    }
                }
            }
        }
        self.bits = bits;
        self.inserted = 0;
    }

    /// Starts loading the bucket of `key` into the cache, for a [`Table::get`] or
    /// [`Table::put`] soon after.
    #[inline]
    pub fn prefetch(&self, key: B) {
        let bucket: *const Bucket<B> = &self.buckets[self.bucket(key)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault. SSE is part
        // of the x86_64 baseline.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(bucket.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
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
        let fills_empty_slot = bucket[victim].stamp != stamp;
        bucket[victim] = Entry {
            key,
            stamp,
            lower: lower as i8,
            upper: upper as i8,
            best,
            work,
        };
        self.inserted += fills_empty_slot as usize;
        if self.inserted > WAYS << self.bits >> GROW_SHIFT && self.bits < self.max_bits {
            self.grow();
        }
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
    fn the_region_grows_and_keeps_its_entries() {
        let mut table = Table::<u64>::new(64);
        assert_eq!(table.bits, START_BITS);
        let keys: Vec<u64> = (0..100_000u64)
            .map(|i| i.wrapping_mul(0x2545_F491_4F6C_DD1D))
            .collect();
        for (i, &key) in keys.iter().enumerate() {
            table.put(key, -(i as i32 % 20), 20, Some(i % 7), 1 << (i % 40));
        }
        assert!(table.bits > START_BITS);
        let kept = keys.iter().filter(|&&key| table.get(key).is_some()).count();
        assert!(kept > 90_000, "{kept} entries kept");
        for (i, &key) in keys.iter().enumerate() {
            if let Some(bounds) = table.get(key) {
                assert_eq!(bounds.lower, -(i as i32 % 20));
                assert_eq!(bounds.best, Some(i % 7));
            }
        }
        table.clear();
        assert_eq!(table.bits, START_BITS);
        assert!(keys.iter().all(|&key| table.get(key).is_none()));
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
        table.bits = 0;
        table.max_bits = 0;
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
