//! The transposition table: a fixed-size array of 32-byte clusters, each holding four 8-byte
//! entries stored as relaxed atomics, so that several search threads can share it without
//! locks (a torn read is impossible: an entry is one `u64`).
//!
//! An entry packs, from the low bits up:
//!
//! ```text
//!  0..16  verification key  (16 bits of the Zobrist hash not used for the index)
//! 16..32  score             (i16, relative to the node: see `Score::to_node`)
//! 32..48  move id + 1       (0: no move)
//! 48..56  depth             (remaining depth of the search that stored it)
//! 56..58  bound             (0: empty, 1: upper, 2: lower, 3: exact)
//! 58..64  generation        (6 bits, the search that stored it)
//! ```
//!
//! The cluster is chosen by the high bits of the hash (multiply-high), the verification key is
//! its low 16 bits, so the two are independent. Replacement keeps, within a cluster, the entry
//! of the same position if any, else evicts the entry of least value: depth minus eight times
//! its age in searches.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use zerosum_core::Score;

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (the search failed low).
    Upper = 1,
    /// The true value is at least the score (the search failed high).
    Lower = 2,
    /// The score is the true value.
    Exact = 3,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Score relative to the node (convert with `Score::from_node`).
    pub score: Score,
    pub bound: Bound,
    /// Remaining depth of the search that stored it.
    pub depth: u8,
    /// The best or refuting move's id, if any.
    pub move_id: Option<usize>,
}

const ENTRIES_PER_CLUSTER: usize = 4;
/// Clusters in a 4 KB memory page.
const CLUSTERS_PER_PAGE: usize = 4096 / std::mem::size_of::<Cluster>();

#[repr(align(32))]
struct Cluster([AtomicU64; ENTRIES_PER_CLUSTER]);

/// A shared transposition table of fixed size.
pub struct TranspositionTable {
    clusters: Box<[Cluster]>,
    generation: AtomicU8,
}

/// The table could not be allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableTooBig {
    pub megabytes: usize,
}

impl std::fmt::Display for TableTooBig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate a {} MB transposition table: not that much memory is available",
            self.megabytes
        )
    }
}

impl std::error::Error for TableTooBig {}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one cluster). Aborts if memory runs out;
    /// see [`TranspositionTable::try_new`].
    pub fn new(megabytes: usize) -> Self {
        Self::try_new(megabytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `megabytes` MB (at least one cluster), or an error if the memory
    /// cannot be had (more than the machine has available now). Every page is touched here,
    /// so the cost of mapping the memory (about 1.7 s per GB) is paid by whoever creates the
    /// table (before a game), never by the first search (inside a move's time).
    pub fn try_new(megabytes: usize) -> Result<Self, TableTooBig> {
        let count = Self::clusters_for(megabytes);
        let available = crate::memory::PhysicalMemory::read().map(|m| m.available_mb);
        if available.is_some_and(|mb| megabytes as u64 > mb) {
            return Err(TableTooBig { megabytes });
        }
        let layout =
            std::alloc::Layout::array::<Cluster>(count).map_err(|_| TableTooBig { megabytes })?;
        // SAFETY: the layout has a non-zero size (count >= 1). An all-zero `Cluster` is valid:
        // `AtomicU64` has the same in-memory representation as `u64`, and 0 is an empty entry.
        // The pointer comes from the global allocator with this exact layout, as
        // `Box<[Cluster]>` requires to free it.
        let clusters = unsafe {
            let pointer = std::alloc::alloc_zeroed(layout).cast::<Cluster>();
            if pointer.is_null() {
                return Err(TableTooBig { megabytes });
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(pointer, count))
        };
        for cluster in clusters.iter().step_by(CLUSTERS_PER_PAGE) {
            cluster.0[0].store(0, Ordering::Relaxed);
        }
        Ok(TranspositionTable {
            clusters,
            generation: AtomicU8::new(0),
        })
    }

    fn clusters_for(megabytes: usize) -> usize {
        (megabytes.saturating_mul(1 << 20) / std::mem::size_of::<Cluster>()).max(1)
    }

    /// Size in bytes of a table of `megabytes` MB.
    pub fn bytes_for(megabytes: usize) -> usize {
        Self::clusters_for(megabytes) * std::mem::size_of::<Cluster>()
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>()
    }

    /// Empties every entry.
    pub fn clear(&self) {
        for cluster in self.clusters.iter() {
            for entry in &cluster.0 {
                entry.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of older searches become cheaper to replace.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & 63;
        self.generation.store(next, Ordering::Relaxed);
    }

    #[inline]
    fn cluster(&self, hash: u64) -> &Cluster {
        let index = ((hash as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[index]
    }

    /// The entry stored for `hash`, if any.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let check = hash & 0xFFFF;
        self.cluster(hash)
            .0
            .iter()
            .map(|e| e.load(Ordering::Relaxed))
            .find(|&data| data & 0xFFFF == check && (data >> 56) & 3 != 0)
            .map(unpack)
    }

    /// Stores a search result for `hash`. `score` is relative to the node.
    #[inline]
    pub fn store(
        &self,
        hash: u64,
        score: Score,
        bound: Bound,
        depth: usize,
        move_id: Option<usize>,
    ) {
        let check = hash & 0xFFFF;
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let cluster = self.cluster(hash);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, slot) in cluster.0.iter().enumerate() {
            let data = slot.load(Ordering::Relaxed);
            if (data >> 56) & 3 == 0 || data & 0xFFFF == check {
                victim = i;
                // Keep the old move when the new result has none.
                if data & 0xFFFF == check && move_id.is_none() && (data >> 56) & 3 != 0 {
                    let kept = (data >> 32) & 0xFFFF;
                    let packed = pack(check, score, bound, depth, kept, generation);
                    slot.store(packed, Ordering::Relaxed);
                    return;
                }
                break;
            }
            let age = (generation + 64 - (data >> 58)) & 63;
            let value = ((data >> 48) & 0xFF) as i32 - 8 * age as i32;
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let mv = move_id.map_or(0, |m| m as u64 + 1);
        cluster.0[victim].store(
            pack(check, score, bound, depth, mv, generation),
            Ordering::Relaxed,
        );
    }

    /// Permille of a sample of entries filled by the current search (as UCI's `hashfull`).
    pub fn permille_full(&self) -> usize {
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let sample = self.clusters.len().min(250);
        let used: usize = self.clusters[..sample]
            .iter()
            .flat_map(|c| c.0.iter())
            .filter(|e| {
                let data = e.load(Ordering::Relaxed);
                (data >> 56) & 3 != 0 && data >> 58 == generation
            })
            .count();
        used * 1000 / (sample * ENTRIES_PER_CLUSTER)
    }
}

#[inline]
fn pack(check: u64, score: Score, bound: Bound, depth: usize, mv: u64, generation: u64) -> u64 {
    check
        | ((score.0 as i16 as u16 as u64) << 16)
        | (mv & 0xFFFF) << 32
        | (depth.min(255) as u64) << 48
        | (bound as u64) << 56
        | generation << 58
}

#[inline]
fn unpack(data: u64) -> Entry {
    let mv = (data >> 32) & 0xFFFF;
    Entry {
        score: Score((data >> 16) as u16 as i16 as i32),
        bound: match (data >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        },
        depth: (data >> 48) as u8,
        move_id: (mv != 0).then(|| mv as usize - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let table = TranspositionTable::new(1);
        assert_eq!(table.bytes(), 1 << 20);
        let hash = 0x1234_5678_9ABC_DEF0;
        assert_eq!(table.probe(hash), None);
        table.store(hash, Score(-1234), Bound::Lower, 7, Some(42));
        let entry = table.probe(hash).unwrap();
        assert_eq!(entry.score, Score(-1234));
        assert_eq!(entry.bound, Bound::Lower);
        assert_eq!(entry.depth, 7);
        assert_eq!(entry.move_id, Some(42));
        // A result without a move keeps the stored move.
        table.store(hash, Score::win_in(3), Bound::Exact, 9, None);
        let entry = table.probe(hash).unwrap();
        assert_eq!((entry.score, entry.move_id), (Score::win_in(3), Some(42)));
        // A different verification key is a miss.
        assert_eq!(table.probe(hash ^ 1), None);
        table.clear();
        assert_eq!(table.probe(hash), None);
    }

    #[test]
    fn replacement_prefers_shallow_and_old_entries() {
        let table = TranspositionTable::new(0); // one cluster: every hash shares it
        for (i, depth) in [(1u64, 9), (2, 3), (3, 8), (4, 7)] {
            table.store(i, Score(0), Bound::Exact, depth, None);
        }
        table.store(5, Score(0), Bound::Exact, 1, None);
        assert!(table.probe(2).is_none(), "the shallowest entry goes");
        assert!(table.probe(5).is_some());
        table.new_search();
        table.new_search();
        table.store(6, Score(0), Bound::Exact, 1, None);
        assert!(
            table.probe(5).is_none(),
            "among equally old entries, the shallowest goes"
        );
        assert!(table.probe(1).is_some());
    }
}
