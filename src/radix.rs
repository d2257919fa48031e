//! LSD radix sort of the kernel's (key, index) pairs, for the long vectors of label-wise metrics
//! (a column has one item per sample). The kernel alone calls it: it is how
//! [`Ranker::sort`](crate::Ranker::sort) orders a long vector, nothing more.

/// Bits per digit: 2^11 counters fit the L1 cache, and 64-bit keys take 6 passes.
const DIGIT_BITS: u32 = 11;
const RADIX: usize = 1 << DIGIT_BITS;
const PASSES: usize = 64usize.div_ceil(DIGIT_BITS as usize);

/// Lengths at which the radix sort beats `sort_unstable` (measured on the project's 2-core
/// machine, docs/performance.md): below, the counters cost more than the comparisons; above,
/// every pass scatters over more memory than the caches hold.
pub(crate) const RADIX_LENGTHS: core::ops::RangeInclusive<usize> = 2048..=(1 << 18);

/// Sorts `items` into ascending (key, index) order, the order `sort_unstable` gives, when pairs
/// of equal key arrive in ascending index order (the kernel builds them so: index = position).
/// Long inputs are radix-sorted by key alone, which keeps equal keys in arrival order;
/// `scratch` is the second buffer the passes alternate with.
pub(crate) fn sort_pairs(items: &mut Vec<(u64, u32)>, scratch: &mut Vec<(u64, u32)>) {
    if !RADIX_LENGTHS.contains(&items.len()) {
        items.sort_unstable();
        return;
    }
    let digit =
        |key: u64, pass: usize| (key >> (DIGIT_BITS as usize * pass)) as usize & (RADIX - 1);
    let mut counts = vec![[0usize; RADIX]; PASSES];
    for &(key, _) in items.iter() {
        for (pass, c) in counts.iter_mut().enumerate() {
            c[digit(key, pass)] += 1;
        }
    }
    scratch.clear();
    scratch.resize(items.len(), (0, 0));
    let first = items.first().map_or(0, |p| p.0);
    let mut offsets = vec![0usize; RADIX];
    for (pass, c) in counts.iter().enumerate() {
        // Every key has this digit: the pass would copy the input unchanged.
        if c[digit(first, pass)] == items.len() {
            continue;
        }
        let mut sum = 0;
        for (offset, &count) in offsets.iter_mut().zip(c) {
            *offset = sum;
            sum += count;
        }
        for &item in items.iter() {
            let slot = &mut offsets[digit(item.0, pass)];
            scratch[*slot] = item;
            *slot += 1;
        }
        core::mem::swap(items, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn radix_sorted(keys: &[u64]) -> Vec<(u64, u32)> {
        let mut items: Vec<(u64, u32)> = keys.iter().zip(0..).map(|(&k, j)| (k, j)).collect();
        sort_pairs(&mut items, &mut Vec::new());
        items
    }

    fn reference(keys: &[u64]) -> Vec<(u64, u32)> {
        let mut items: Vec<(u64, u32)> = keys.iter().zip(0..).map(|(&k, j)| (k, j)).collect();
        items.sort_unstable();
        items
    }

    #[test]
    fn long_input_with_ties_and_constant_digits_sorts_by_key_then_index() {
        // Keys differ only in digits 0 and 5; many repeat.
        let keys: Vec<u64> = (0..5000u64)
            .map(|i| (i * 7919 % 13) | ((i % 3) << 60))
            .collect();
        assert!(RADIX_LENGTHS.contains(&keys.len()));
        assert_eq!(radix_sorted(&keys), reference(&keys));
    }

    #[test]
    fn all_equal_keys_keep_index_order() {
        let keys = vec![42u64; 3000];
        let sorted = radix_sorted(&keys);
        assert!(sorted.iter().zip(0..).all(|(p, j)| p.1 == j));
    }

    #[test]
    fn keys_of_edge_scores_sort_as_the_scores_compare() {
        use crate::score::Score;
        // ±0.0 (one key), subnormals, infinities, the extremes, many equal keys.
        let edges = [
            0.0,
            -0.0,
            5e-324,
            -5e-324,
            f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN,
            0.5,
        ];
        let scores: Vec<f64> = (0..4000).map(|i| edges[(i * 7) % edges.len()]).collect();
        let keys: Vec<u64> = scores.iter().map(|s| !s.order_key()).collect();
        let sorted = radix_sorted(&keys);
        assert_eq!(sorted, reference(&keys));
        // Descending scores; equal scores (-0.0 == 0.0) in index order.
        for pair in sorted.windows(2) {
            let (a, b) = (scores[pair[0].1 as usize], scores[pair[1].1 as usize]);
            assert!(a > b || (a == b && pair[0].1 < pair[1].1), "{a} {b}");
        }
    }

    proptest! {
        #[test]
        fn agrees_with_sort_unstable(
            keys in prop::collection::vec(
                prop_oneof![any::<u64>(), 0u64..8, (0u64..4).prop_map(|k| k << 62)],
                2048..6000,
            )
        ) {
            prop_assert_eq!(radix_sorted(&keys), reference(&keys));
        }
    }
}
