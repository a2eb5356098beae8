/// The Zobrist key of a feature (a piece on a cell, a side to move, ...), given as an integer
/// the game chooses, typically `cell * pieces + piece`.
///
/// Keys are computed, not looked up: a SplitMix64-style finaliser of the feature number. It is a
/// bijection on `u64`, so distinct features never share a key, it needs no table (a game on a
/// 100x100 board carries no 160 KB of keys into every clone), and it costs a few instructions.
/// Hash code must combine keys with `^` only, so that updates are their own inverse.
#[inline]
pub const fn zobrist_key(feature: u64) -> u64 {
    let mut z = feature.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_well_spread() {
        let keys: HashSet<u64> = (0..100_000).map(zobrist_key).collect();
        assert_eq!(keys.len(), 100_000);
        // Every bit is set in roughly half of the keys.
        for bit in 0..64 {
            let ones = (0..10_000)
                .filter(|&i| zobrist_key(i) >> bit & 1 == 1)
                .count();
            assert!((4_500..5_500).contains(&ones), "bit {bit}: {ones} ones");
        }
    }
}
