//! The top k of a row ranked without sorting the rest: one pass selects the k best labels
//! and those tied with the k-th, and only they are sorted.

use super::sort::sort_few;
use super::{RankedRow, Ranker, Ranking};
use crate::score::Score;
use crate::ties::{TieGrouping, TiePolicy};

impl Ranker {
    /// Ranks the top of one row: the `k` best labels and every label tied with the k-th, so
    /// that the tie group straddling position `k` is whole and its blocks are exact. The blocks
    /// are the first blocks [`rank`](Self::rank) gives (the same order, the same
    /// [`TiePolicy::Random`] draws); [`RankedRow::covered`] says how many positions they cover.
    /// `n_labels`, `n_relevant` and `gains` describe the whole row.
    ///
    /// Costs one pass over the scores plus a sort of the top, O(L + k log k), where
    /// [`rank`](Self::rank) sorts all L. Ranks the whole row when `k >= L`, and under
    /// [`TieGrouping::Within`], whose groups are formed from the bottom of the ranking up.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Ranker, Ranking, TiePolicy};
    /// let mut ranker = Ranker::new();
    /// let scores = [0.3, 0.8, 0.1, 0.9, 0.8];
    /// let gains = [1.0, 0.0, 0.0, 1.0, 1.0];
    /// let top = ranker.rank_top(&scores, &gains, Ranking::new(TiePolicy::First), 0, 2);
    /// assert_eq!(top.order(), &[3, 1, 4]); // 0.8 ties at position 2: both kept
    /// assert_eq!((top.n_labels(), top.n_relevant()), (5, 3));
    /// ```
    pub fn rank_top<'a, T: Score>(
        &'a mut self, scores: &[T], gains: &'a [f64], ranking: Ranking, row: usize, k: usize,
    ) -> RankedRow<'a> {
        if !selects_top(scores.len().min(gains.len()), k, ranking.grouping) {
            return self.rank(scores, gains, ranking, row);
        }
        self.sort_top(scores, gains.len(), k);
        self.assign_top(gains, ranking.ties, row, false)
    }

    /// The policy-free part of [`rank_top`](Self::rank_top) (when [`selects_top`] says it
    /// selects): the top k and its ties, sorted and grouped, for
    /// [`assign_top`](Self::assign_top) to rank under any number of policies.
    pub(crate) fn sort_top<T: Score>(&mut self, scores: &[T], n_gains: usize, k: usize) {
        let n = scores.len().min(n_gains).min(u32::MAX as usize);
        self.select_top(&scores[..n], k.max(1));
        sort_few(&mut self.keys, &mut self.radix_scratch, false);
        self.group(scores, TieGrouping::Exact);
    }

    /// [`rank_top`](Self::rank_top) under `ties` after [`sort_top`](Self::sort_top); `again`:
    /// the caller has assigned this top already, with these gains ([`reassign`](Self::reassign)).
    pub(crate) fn assign_top<'a>(
        &'a mut self, gains: &'a [f64], ties: TiePolicy, row: usize, again: bool,
    ) -> RankedRow<'a> {
        let n = self.top_of.min(gains.len());
        let n_relevant = gains[..n].iter().filter(|&&g| g != 0.0).count();
        let mut top = match again {
            true => self.reassign(gains, ties, row),
            false => self.assign(gains, ties, row),
        };
        // The blocks cover the top; the counts and gains describe the whole row.
        top.gains = &gains[..n];
        top.n_labels = n;
        top.n_relevant = n_relevant;
        top
    }

    /// Leaves in `keys` (unsorted) the `k` best keys and every key tied with the k-th, in one
    /// pass that keeps only candidates not yet known to rank below the k-th.
    fn select_top<T: Score>(&mut self, scores: &[T], k: usize) {
        self.top_of = scores.len();
        self.keys.clear();
        // No score below `bound` can be in the top k (a float comparison: -0.0 == 0.0, as the
        // keys say).
        let mut bound = T::neg_infinity();
        let mut capacity = (4 * k).max(256);
        // Whole chunks are skipped with one branch-free test: most scores fall below the bound.
        const CHUNK: usize = 32;
        for (c, chunk) in scores.chunks(CHUNK).enumerate() {
            if !chunk.iter().fold(false, |any, &s| any | (s >= bound)) {
                continue;
            }
            for (j, &s) in chunk.iter().enumerate() {
                if s >= bound {
                    self.keys.push((!s.order_key(), (c * CHUNK + j) as u32));
                    if self.keys.len() >= capacity {
                        let kth = self.keep_top(k);
                        bound = scores.get(kth as usize).copied().unwrap_or(bound);
                        // Ties can keep many: grow, so that the work stays linear.
                        capacity = capacity.max(2 * self.keys.len());
                    }
                }
            }
        }
        self.keep_top(k);
    }

    /// Keeps the `k` best keys and those tied with the k-th; returns the k-th's column
    /// (`u32::MAX` when there are at most `k`).
    fn keep_top(&mut self, k: usize) -> u32 {
        if self.keys.len() <= k {
            return u32::MAX;
        }
        let kth = *self.keys.select_nth_unstable(k - 1).1;
        self.keys.retain(|key| key.0 <= kth.0);
        kth.1
    }
}

/// Whether [`Ranker::rank_top`] selects the top `k` of a row of `n` labels (else it ranks the
/// whole row, as [`Ranker::rank`] does).
pub(crate) fn selects_top(n: usize, k: usize, grouping: TieGrouping) -> bool {
    k < n.min(u32::MAX as usize) && grouping == TieGrouping::Exact
}
