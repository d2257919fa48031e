//! Sorting a row: (key, column) pairs in descending score order, split into tie groups.

use super::Ranker;
use crate::score::Score;
use crate::ties::TieGrouping;

impl Ranker {
    /// Sorts one row and groups its ties, for [`assign`](Self::assign) to rank under any number
    /// of tie policies: sort once, score many. [`rank`](Self::rank) is `sort` then `assign`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Ranker, TieGrouping, TiePolicy};
    /// let mut ranker = Ranker::new();
    /// let (scores, gains) = ([0.5, 0.9, 0.5], [1.0, 0.0, 0.0]);
    /// ranker.sort(&scores, TieGrouping::Exact);
    /// assert_eq!(ranker.assign(&gains, TiePolicy::First, 0).order(), &[1, 0, 2]);
    /// assert_eq!(ranker.assign(&gains, TiePolicy::Last, 0).order(), &[1, 2, 0]);
    /// assert_eq!(ranker.assign(&gains, TiePolicy::Max, 0).blocks().len(), 2);
    /// ```
    pub fn sort<T: Score>(&mut self, scores: &[T], grouping: TieGrouping) {
        let n = scores.len().min(u32::MAX as usize);
        self.keys.clear();
        self.keys.extend(
            scores[..n]
                .iter()
                .enumerate()
                .map(|(j, s)| (!s.order_key(), j as u32)),
        );
        // Keys are unique (the column breaks ties), so any sort gives one order: descending
        // score, and inside a tie the lower column first.
        #[cfg(feature = "rayon")]
        if self.parallel_sort && self.keys.len() > PARALLEL_SORT_FROM {
            use rayon::slice::ParallelSliceMut;
            self.keys.par_sort_unstable();
            self.group(scores, grouping);
            return;
        }
        crate::radix::sort_pairs(&mut self.keys, &mut self.radix_scratch);
        self.group(scores, grouping);
    }

    /// A kernel that sorts long vectors on the threads of the current rayon pool (feature
    /// `rayon`): the same order, as the keys are unique.
    #[cfg(feature = "rayon")]
    pub(crate) fn with_parallel_sort(mut self) -> Self {
        self.parallel_sort = true;
        self
    }

    /// Splits the sorted keys into tie groups, best first; members of a group end up in
    /// column order.
    pub(super) fn group<T: Score>(&mut self, scores: &[T], grouping: TieGrouping) {
        self.forget_assignment();
        self.groups.clear();
        let keys = &mut self.keys;
        match grouping {
            TieGrouping::Exact => {
                let mut start = 0;
                while start < keys.len() {
                    let key = keys[start].0;
                    let len = keys[start..].iter().take_while(|k| k.0 == key).count();
                    self.groups.push((start, len));
                    start += len;
                }
            }
            TieGrouping::Within(eps) => {
                // Weka walks ascending scores, anchoring each group at its smallest score.
                let value = |k: &(u64, u32)| scores[k.1 as usize].as_f64();
                let mut end = keys.len();
                while end > 0 {
                    let anchor = value(&keys[end - 1]);
                    let mut start = end - 1;
                    while start > 0 && value(&keys[start - 1]) - anchor < eps {
                        start -= 1;
                    }
                    keys[start..end].sort_unstable_by_key(|k| k.1);
                    self.groups.push((start, end - start));
                    end = start;
                }
                self.groups.reverse();
            }
        }
    }
}

/// The vectors [`Ranker::with_parallel_sort`] sorts in parallel: beyond the radix sort's range,
/// where one sort is long enough to share.
#[cfg(feature = "rayon")]
const PARALLEL_SORT_FROM: usize = 1 << 18;

/// Sorts a few (key, column) pairs with distinct columns (the relevant labels of a counted
/// row, a row's top k): each pair's place is the number of pairs below it, counted without
/// branches, since a comparison sort of a handful of random keys is dominated by mispredicted
/// branches. `in_column_order`: the pairs come in column order, so a tie is broken by position
/// (one comparison per pair instead of two). Longer lists are sorted as usual.
pub(super) fn sort_few(
    keys: &mut Vec<(u64, u32)>, scratch: &mut Vec<(u64, u32)>, in_column_order: bool,
) {
    const FEW: usize = 16;
    if keys.len() > FEW {
        keys.sort_unstable();
        return;
    }
    scratch.clear();
    scratch.resize(keys.len(), (0, 0));
    for (i, &k) in keys.iter().enumerate() {
        let below = if in_column_order {
            let (before, after) = keys.split_at(i);
            before
                .iter()
                .map(|o| usize::from(o.0 <= k.0))
                .sum::<usize>()
                + after.iter().map(|o| usize::from(o.0 < k.0)).sum::<usize>()
        } else {
            keys.iter().map(|&o| usize::from(o < k)).sum::<usize>()
        };
        if let Some(slot) = scratch.get_mut(below) {
            *slot = k;
        }
    }
    core::mem::swap(keys, scratch);
}

#[cfg(test)]
mod tests {
    use crate::kernel::testing::order;
    use crate::kernel::{Ranker, Ranking};
    use crate::ties::{TieGrouping, TiePolicy};

    #[test]
    fn negative_zero_ties_with_zero() {
        let mut r = Ranker::new();
        let row = r.rank(&[0.0, -0.0], &[1.0, 0.0], Ranking::new(TiePolicy::Max), 0);
        assert_eq!(row.blocks().len(), 1);
    }

    #[test]
    fn weka_grouping_is_anchored_at_the_smallest_score() {
        // {0.5, 0.5000007} tie, 0.5000014 stands alone: the chain is not transitive.
        let s = [0.5000014, 0.5000007, 0.5];
        assert_eq!(order(&s, TiePolicy::Last, TieGrouping::WEKA), [0, 2, 1]);
        assert_eq!(order(&s, TiePolicy::First, TieGrouping::WEKA), [0, 1, 2]);
        assert_eq!(order(&s, TiePolicy::Last, TieGrouping::Exact), [0, 1, 2]);
    }
}
