//! Choosing the best of a keyed candidate list without sorting all of it.

use std::cell::RefCell;

thread_local! {
    /// The keyed list of [`with_keyed`], a buffer per thread so that ranking candidates
    /// allocates nothing once warm.
    static KEYED: RefCell<Vec<(i32, u16)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `work` on this thread's keyed-list buffer, empty. Not reentrant: `work` must not
/// call it again.
pub(super) fn with_keyed<R>(work: impl FnOnce(&mut Vec<(i32, u16)>) -> R) -> R {
    KEYED.with(|keyed| {
        let mut keyed = keyed.borrow_mut();
        keyed.clear();
        work(&mut keyed)
    })
}

/// Puts the entries of `keyed` that a full sort (smallest first) followed by a cut to the
/// first `keep` would keep, together with every later entry whose key (the first field)
/// equals that of the last kept one, sorted at the front of `keyed`, and returns how many
/// they are. With `keep` 0, or no more than `keep` entries, sorts them all and returns the
/// length.
///
/// The result equals that of `keyed.sort_unstable()` on the returned prefix (the entries are
/// distinct as pairs, so the order is total); the entries after it are left in no order.
pub(super) fn keep_best(keyed: &mut [(i32, u16)], keep: usize) -> usize {
    if keep == 0 || keyed.len() <= keep {
        keyed.sort_unstable();
        return keyed.len();
    }
    keyed.select_nth_unstable(keep - 1);
    let last = keyed[keep - 1].0;
    let mut kept = keep;
    for index in keep..keyed.len() {
        if keyed[index].0 == last {
            keyed.swap(index, kept);
            kept += 1;
        }
    }
    keyed[..kept].sort_unstable();
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_core::conformance::SplitMix;

    /// The full sort and cut, as the contract states it.
    fn by_full_sort(keyed: &[(i32, u16)], keep: usize) -> Vec<(i32, u16)> {
        let mut sorted = keyed.to_vec();
        sorted.sort_unstable();
        if keep == 0 || sorted.len() <= keep {
            return sorted;
        }
        let last = sorted[keep - 1].0;
        let ties = sorted[keep..]
            .iter()
            .take_while(|entry| entry.0 == last)
            .count();
        sorted.truncate(keep + ties);
        sorted
    }

    #[test]
    fn keeps_what_a_full_sort_and_cut_keeps() {
        let mut rng = SplitMix::new(7);
        for _ in 0..2000 {
            let len = rng.below(60);
            let spread = 1 + rng.below(20) as i32;
            let mut cells: Vec<u16> = (0..225).collect();
            let mut keyed: Vec<(i32, u16)> = (0..len)
                .map(|_| {
                    let cell = cells.swap_remove(rng.below(cells.len()));
                    (rng.below(spread as usize) as i32, cell)
                })
                .collect();
            let keep = rng.below(15);
            let expected = by_full_sort(&keyed, keep);
            let kept = keep_best(&mut keyed, keep);
            assert_eq!(&keyed[..kept], &expected[..]);
        }
    }
}
