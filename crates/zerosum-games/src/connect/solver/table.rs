//! The transposition table: exact keys, both score bounds, the best move, in buckets of four
//! entries, cleared in O(1) by a generation stamp, shared by the search threads without locks.
//!
//! Every bound the solver computes is a true bound of the game value (the search has no depth
//! limit), so an entry stays valid for as long as the board size does: across windows, across
//! solves, across threads, and whatever root it came from. Two bounds for one key are merged by
//! intersection.
//!
//! ```text
//!   bucket (64 bytes for u64 keys, one cache line; 128 bytes for u128 keys)
//!   +--------------+--------------+--------------+--------------+
//!   | entry 0      | entry 1      | entry 2      | entry 3      |
//!   +--------------+--------------+--------------+--------------+
//!   entry (atomic 64-bit words): key ^ data (one word per 64 bits of key) | data
//!   data: check u16 | work u8 | best u8 | upper i8 | lower i8 | stamp u16   (high to low)
//! ```
//!
//! Threads read and write the words with relaxed atomic loads and stores (plain moves on
//! x86_64 and aarch64), so there is no data race; an entry is not written as a whole, though,
//! and a reader may see the key words of one write and the data of another. The key is stored
//! xored with the data, so such a torn entry decodes to a key that is neither of the two
//! written (and is missed) unless the two data words are equal (and then the entry is right),
//! save for keys that differ from a written one exactly by the xor of two data words and have
//! the second write's `check` (16 bits of the key's hash): in practice never.
//!
//! An entry belongs to the table's contents only if its stamp is the current generation;
//! [`Table::clear`] starts a new generation, and really wipes the memory only when the 16-bit
//! stamp wraps, once every 65535 clears. A full bucket gives up the entry that cost the least
//! search (`work`, the bit length of the number of nodes below it).
//!
//! After a clear only the first 2^12 buckets are used, and the region in use grows fourfold
//! whenever it has taken in a quarter as many new entries as it has slots: a small search works in
//! memory that stays in the processor's caches, a large one gets the whole table. Growing while
//! other threads read and write only loses entries (a miss is always correct).

use std::fmt;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

use crate::connect::Bits;

/// One position's bounds, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// 16 bits of the key's hash (see the module documentation).
    check: u16,
}

impl<B: Bits> Entry<B> {
    /// The data word.
    #[inline]
    fn data(&self) -> u64 {
        self.stamp as u64
            | (self.lower as u8 as u64) << 16
            | (self.upper as u8 as u64) << 24
            | (self.best as u64) << 32
            | (self.work as u64) << 40
            | (self.check as u64) << 48
    }
}

/// The stamp of a data word.
#[inline]
fn stamp_of(data: u64) -> u16 {
    data as u16
}

/// Entries per bucket.
const WAYS: usize = 4;

/// Eight words, aligned to a cache line.
#[repr(align(64))]
struct Line([AtomicU64; 8]);

impl Line {
    const EMPTY: fn() -> Line = || Line([const { AtomicU64::new(0) }; 8]);
}

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

/// Inserts into empty slots are counted by sampling: one in `2^COUNT_SHIFT` (picked by hash
/// bits that choose neither the bucket nor the check) adds `2^COUNT_SHIFT`. Threads then
/// rarely write the shared counter, whose every write takes its cache line away from the other
/// cores. (Counting every insert made each of two threads a quarter slower than one alone.)
const COUNT_SHIFT: u32 = 6;

/// The count of inserts, alone on its cache lines: the table's other fields are read by every
/// probe of every thread, and must not share a line with a counter that threads write.
#[derive(Debug, Default)]
#[repr(align(128))]
struct InsertCount(AtomicUsize);

/// The size of a huge memory page on x86_64 and aarch64 Linux.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// `count` zeroed lines (every entry empty: stamp 0). On Linux the memory is marked for
/// transparent huge pages before it is first written (so the kernel backs it with 2 MB pages
/// where it can): a table of many megabytes is read at random, and with 4 KB pages nearly
/// every probe would also miss the address translation cache. About a sixth less time on the
/// hardest test set.
fn empty_lines(count: usize) -> Box<[Line]> {
    let mut lines: Vec<Line> = Vec::with_capacity(count);
    #[cfg(target_os = "linux")]
    {
        let start = lines.as_mut_ptr() as usize;
        let end = start + count * size_of::<Line>();
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
    lines.resize_with(count, Line::EMPTY);
    lines.into_boxed_slice()
}

/// A table of [`Bounds`] by position key, of a fixed capacity of which only a growing prefix
/// (the region) is in use. Small searches touch only a little memory, which stays in cache;
/// the region grows fourfold each time it has taken a quarter as many new entries as it has
/// slots, the live entries moving to their buckets in the larger region, until it is the whole
/// table. Shared by reference between the threads of a solve.
pub(super) struct Table<B: Bits> {
    lines: Box<[Line]>,
    /// log2 of the number of buckets in use: the hash's top `bits` bits pick the bucket.
    bits: AtomicU32,
    /// log2 of the number of buckets.
    max_bits: u32,
    /// The current generation; entries of other generations are empty slots.
    stamp: u16,
    /// Entries put into empty slots since the region last grew, sampled (see
    /// [`COUNT_SHIFT`]; counted without atomic read-modify-write: threads may lose a few
    /// counts, which only delays growing).
    inserted: InsertCount,
    _key: PhantomData<B>,
}

impl<B: Bits> fmt::Debug for Table<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("bytes", &self.bytes())
            .field("bits", &self.bits.load(Relaxed))
            .field("stamp", &self.stamp)
            .finish()
    }
}

impl<B: Bits> Clone for Table<B> {
    fn clone(&self) -> Self {
        let lines = empty_lines(self.lines.len());
        for (to, from) in lines.iter().zip(self.lines.iter()) {
            for (t, f) in to.0.iter().zip(from.0.iter()) {
                t.store(f.load(Relaxed), Relaxed);
            }
        }
        Table {
            lines,
            bits: AtomicU32::new(self.bits.load(Relaxed)),
            max_bits: self.max_bits,
            stamp: self.stamp,
            inserted: InsertCount(AtomicUsize::new(self.inserted.0.load(Relaxed))),
            _key: PhantomData,
        }
    }
}

impl<B: Bits> Table<B> {
    /// 64-bit words of a key.
    const KEY_WORDS: usize = (B::BITS as usize).div_ceil(64);
    /// Words of an entry: the key words and the data word, padded to a power of two.
    const ENTRY_WORDS: usize = (Self::KEY_WORDS + 1).next_power_of_two();
    /// Lines of a bucket.
    const BUCKET_LINES: usize = (WAYS * Self::ENTRY_WORDS).div_ceil(8);

    /// A table of about `megabytes` MB (the largest power of two of buckets that fits, and at
    /// least one bucket).
    pub fn new(megabytes: usize) -> Self {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let bucket_bytes = Self::BUCKET_LINES * size_of::<Line>();
        let wanted = (bytes / bucket_bytes).max(1);
        let max_bits = wanted.ilog2();
        Table {
            lines: empty_lines(Self::BUCKET_LINES << max_bits),
            bits: AtomicU32::new(START_BITS.min(max_bits)),
            max_bits,
            stamp: 1,
            inserted: InsertCount::default(),
            _key: PhantomData,
        }
    }

    /// Size of the table in bytes.
    pub fn bytes(&self) -> usize {
        self.lines.len() * size_of::<Line>()
    }

    /// Forgets every entry, in O(1) except once every 65535 calls.
    pub fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            for line in self.lines.iter_mut() {
                for word in line.0.iter_mut() {
                    *word.get_mut() = 0;
                }
            }
            self.stamp = 1;
        }
        *self.bits.get_mut() = START_BITS.min(self.max_bits);
        *self.inserted.0.get_mut() = 0;
    }

    /// A 64-bit hash of `key` whose top bits are well mixed (Fibonacci hashing: the top bits
    /// of the product depend on every bit of the key).
    #[inline]
    fn hash(key: B) -> u64 {
        let wide = key.widen();
        let folded = (wide as u64) ^ ((wide >> 64) as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        folded.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The `check` of a key of hash `hash`.
    #[inline]
    fn check(hash: u64) -> u16 {
        (hash >> 16) as u16
    }

    /// The bucket of hash `hash` in a region of `2^bits` buckets.
    #[inline]
    fn bucket_in(hash: u64, bits: u32) -> usize {
        // With a single bucket the shift is 64, and `checked_shr` gives bucket 0.
        hash.checked_shr(64 - bits).unwrap_or(0) as usize
    }

    #[inline]
    fn bucket(&self, hash: u64) -> usize {
        Self::bucket_in(hash, self.bits.load(Relaxed))
    }

    /// The lines of bucket `bucket`.
    #[inline]
    fn lines_of(&self, bucket: usize) -> &[Line] {
        let first = bucket * Self::BUCKET_LINES;
        &self.lines[first..first + Self::BUCKET_LINES]
    }

    /// Word `word` of entry `way` of a bucket's `lines`.
    #[inline]
    fn word(lines: &[Line], way: usize, word: usize) -> &AtomicU64 {
        let index = way * Self::ENTRY_WORDS + word;
        &lines[index / 8].0[index % 8]
    }

    /// The data word of an entry.
    #[inline]
    fn data_word(lines: &[Line], way: usize) -> u64 {
        Self::word(lines, way, Self::KEY_WORDS).load(Relaxed)
    }

    /// The key an entry decodes to with data word `data`.
    #[inline]
    fn key_of(lines: &[Line], way: usize, data: u64) -> B {
        let low = Self::word(lines, way, 0).load(Relaxed) ^ data;
        if Self::KEY_WORDS == 1 {
            B::truncate(low as u128)
        } else {
            let high = Self::word(lines, way, 1).load(Relaxed) ^ data;
            B::truncate((high as u128) << 64 | low as u128)
        }
    }

    /// The entry of data word `data` at `way`.
    #[inline]
    fn decode(lines: &[Line], way: usize, data: u64) -> Entry<B> {
        Entry {
            key: Self::key_of(lines, way, data),
            stamp: stamp_of(data),
            lower: (data >> 16) as u8 as i8,
            upper: (data >> 24) as u8 as i8,
            best: (data >> 32) as u8,
            work: (data >> 40) as u8,
            check: (data >> 48) as u16,
        }
    }

    /// The entry of the current generation at `way`, if any.
    #[inline]
    fn read(&self, lines: &[Line], way: usize) -> Option<Entry<B>> {
        let data = Self::data_word(lines, way);
        (stamp_of(data) == self.stamp).then(|| Self::decode(lines, way, data))
    }

    /// Writes `entry` at `way`.
    #[inline]
    fn write(lines: &[Line], way: usize, entry: &Entry<B>) {
        let data = entry.data();
        let wide = entry.key.widen();
        Self::word(lines, way, 0).store(wide as u64 ^ data, Relaxed);
        if Self::KEY_WORDS > 1 {
            Self::word(lines, way, 1).store((wide >> 64) as u64 ^ data, Relaxed);
        }
        Self::word(lines, way, Self::KEY_WORDS).store(data, Relaxed);
    }

    /// The way of a bucket's `lines` holding `key`, of hash `hash`, in this generation, with
    /// the entry.
    #[inline]
    fn find(&self, lines: &[Line], key: B, hash: u64) -> Option<(usize, Entry<B>)> {
        // The stamp and the check, compared at once.
        const TAG: u64 = 0xFFFF_0000_0000_FFFF;
        let tag = self.stamp as u64 | (Self::check(hash) as u64) << 48;
        for way in 0..WAYS {
            let data = Self::data_word(lines, way);
            if data & TAG == tag && Self::key_of(lines, way, data) == key {
                return Some((way, Self::decode(lines, way, data)));
            }
        }
        None
    }

    /// Makes the region four times larger (or as large as the table), moving every live entry
    /// to its new bucket, unless another thread is already growing it. An entry of bucket `i`
    /// goes to a bucket of `4i..4i+4`, never below `i`: going down from the last bucket, each
    /// bucket is emptied before anything moves in.
    #[cold]
    fn grow(&self, old_bits: u32) {
        let bits = (old_bits + 2).min(self.max_bits);
        if self
            .bits
            .compare_exchange(old_bits, bits, Relaxed, Relaxed)
            .is_err()
        {
            return;
        }
        self.inserted.0.store(0, Relaxed);
        for i in (0..1usize << old_bits).rev() {
            let from = self.lines_of(i);
            let entries: [Option<Entry<B>>; WAYS] = std::array::from_fn(|way| self.read(from, way));
            for way in 0..WAYS {
                Self::word(from, way, Self::KEY_WORDS).store(0, Relaxed);
            }
            for entry in entries.into_iter().flatten() {
                let to = self.lines_of(Self::bucket_in(Self::hash(entry.key), bits));
                if let Some(way) = (0..WAYS).find(|&way| self.read(to, way).is_none()) {
                    Self::write(to, way, &entry);
                }
            }
        }
    }

    /// Starts loading the bucket of `key` into the cache, for a [`Table::get`] or
    /// [`Table::put`] soon after.
    #[inline]
    pub fn prefetch(&self, key: B) {
        let line: *const Line = &self.lines[self.bucket(Self::hash(key)) * Self::BUCKET_LINES];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault. SSE is part
        // of the x86_64 baseline.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(line.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = line;
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub fn get(&self, key: B) -> Option<Bounds> {
        let hash = Self::hash(key);
        self.find(self.lines_of(self.bucket(hash)), key, hash)
            .map(|(_, e)| Bounds {
                lower: e.lower as i32,
                upper: e.upper as i32,
                best: (e.best as usize).checked_sub(1),
            })
    }

    /// Records that the value of `key` lies in `lower..=upper` (intersected with what is known
    /// already), that `best` is its best move if given, and that `nodes` were searched for it.
    /// Scores must fit an `i8`.
    #[inline]
    pub fn put(&self, key: B, lower: i32, upper: i32, best: Option<usize>, nodes: u64) {
        let stamp = self.stamp;
        let work = (64 - nodes.leading_zeros()) as u8;
        let best = best.map_or(0, |c| c as u8 + 1);
        let hash = Self::hash(key);
        let check = Self::check(hash);
        let bits = self.bits.load(Relaxed);
        let lines = self.lines_of(Self::bucket_in(hash, bits));
        if let Some((way, mut e)) = self.find(lines, key, hash) {
            e.lower = e.lower.max(lower as i8);
            e.upper = e.upper.min(upper as i8);
            if best != 0 {
                e.best = best;
            }
            e.work = e.work.max(work);
            Self::write(lines, way, &e);
            return;
        }
        // The first stale entry, or else the cheapest one.
        let mut victim = 0;
        let mut victim_work = u16::MAX;
        for way in 0..WAYS {
            let data = Self::data_word(lines, way);
            let cost = if stamp_of(data) == stamp {
                (data >> 40) as u8 as u16
            } else {
                0
            };
            if cost < victim_work {
                victim = way;
                victim_work = cost;
                if cost == 0 {
                    break;
                }
            }
        }
        let fills_empty_slot = stamp_of(Self::data_word(lines, victim)) != stamp;
        Self::write(
            lines,
            victim,
            &Entry {
                key,
                stamp,
                lower: lower as i8,
                upper: upper as i8,
                best,
                work,
                check,
            },
        );
        let sampled = (hash >> 32) & ((1 << COUNT_SHIFT) - 1) == 0;
        if fills_empty_slot && sampled && bits < self.max_bits {
            let inserted = self.inserted.0.load(Relaxed) + (1 << COUNT_SHIFT);
            self.inserted.0.store(inserted, Relaxed);
            if inserted > WAYS << bits >> GROW_SHIFT {
                self.grow(bits);
            }
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
        assert_eq!(Table::<u128>::new(1).bytes(), 1 << 20);
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
        assert_eq!(*table.bits.get_mut(), START_BITS);
        let keys: Vec<u64> = (0..100_000u64)
            .map(|i| i.wrapping_mul(0x2545_F491_4F6C_DD1D))
            .collect();
        for (i, &key) in keys.iter().enumerate() {
            table.put(key, -(i as i32 % 20), 20, Some(i % 7), 1 << (i % 40));
        }
        assert!(*table.bits.get_mut() > START_BITS);
        let kept = keys.iter().filter(|&&key| table.get(key).is_some()).count();
        assert!(kept > 90_000, "{kept} entries kept");
        for (i, &key) in keys.iter().enumerate() {
            if let Some(bounds) = table.get(key) {
                assert_eq!(bounds.lower, -(i as i32 % 20));
                assert_eq!(bounds.best, Some(i % 7));
            }
        }
        table.clear();
        assert_eq!(*table.bits.get_mut(), START_BITS);
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
        table.lines = empty_lines(1);
        *table.bits.get_mut() = 0;
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
