//! The one ranking kernel: sort a row once, group its ties, let the policy assign ranks.
//!
//! Every metric reads a [`RankedRow`]; nothing else in the crate sorts scores or detects ties.

use crate::{RankSharing, Score, TieGrouping, TiePolicy};

/// What a metric asks of the kernel: the tie policy and which scores count as tied.
///
/// # Example
/// ```
/// use rankmetrics::{Ranking, TieGrouping, TiePolicy};
/// let r = Ranking::new(TiePolicy::Last).with_grouping(TieGrouping::WEKA);
/// assert_eq!(r.ties, TiePolicy::Last);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ranking {
    /// How tie groups are ranked.
    pub ties: TiePolicy,
    /// Which scores form a tie group.
    pub grouping: TieGrouping,
}

impl Ranking {
    /// A ranking with `ties` and exact tie grouping.
    pub const fn new(ties: TiePolicy) -> Self {
        Ranking {
            ties,
            grouping: TieGrouping::Exact,
        }
    }

    /// The same ranking with another tie grouping.
    pub const fn with_grouping(self, grouping: TieGrouping) -> Self {
        Ranking { grouping, ..self }
    }
}

/// A run of consecutive ranks: a whole tie group under a rank-sharing policy, one label under
/// an ordering policy.
///
/// # Example
/// ```
/// use rankmetrics::{Ranker, Ranking, TiePolicy};
/// let mut ranker = Ranker::new();
/// let row = ranker.rank(&[0.5, 0.9, 0.5], &[1.0, 0.0, 0.0], Ranking::new(TiePolicy::Max), 0);
/// let b = row.blocks()[1]; // the group {0.5, 0.5}
/// assert_eq!((b.start, b.len, b.relevant), (1, 2, 1));
/// assert_eq!(row.rank(&b), 3.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Block {
    /// Positions ranked above this block.
    pub start: usize,
    /// The number of labels in the block.
    pub len: usize,
    /// How many of them are relevant (non-zero label).
    pub relevant: usize,
    /// The sum of their labels (gains).
    pub gain: f64,
}

/// One row after ranking: its blocks in rank order (best first) and how ranks are shared.
#[derive(Debug, Clone, Copy)]
pub struct RankedRow<'a> {
    blocks: &'a [Block],
    order: &'a [u32],
    gains: &'a [f64],
    n_labels: usize,
    n_relevant: usize,
    sharing: Option<RankSharing>,
    /// The positions `0..covered` the blocks partition: all labels after [`Ranker::rank`],
    /// the top of the ranking after [`Ranker::rank_top`].
    covered: usize,
}

impl<'a> RankedRow<'a> {
    /// The blocks in rank order, best first. They partition the positions `0..n_labels`, or
    /// after [`Ranker::rank_top`] the top positions `0..covered()` (see
    /// [`covers_top`](Self::covers_top)).
    pub fn blocks(&self) -> &'a [Block] {
        self.blocks
    }

    /// The columns in rank order (best first); inside a shared block, in column order. As
    /// long as the blocks: the top `covered()` positions after [`Ranker::rank_top`].
    pub fn order(&self) -> &'a [u32] {
        self.order
    }

    /// How many positions, from the top, the blocks cover: `n_labels()` for a full ranking.
    pub fn covered(&self) -> usize {
        self.covered
    }

    /// Whether the blocks cover the top `k` positions whole (every tie group reaching into
    /// them included). A metric that reads only the top `k` checks this, so that it never
    /// reads a row truncated above its `k`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Ranker, Ranking, TiePolicy};
    /// let mut ranker = Ranker::new();
    /// let (scores, gains) = ([0.1, 0.9, 0.5, 0.5, 0.2], [0.0; 5]);
    /// let row = ranker.rank_top(&scores, &gains, Ranking::new(TiePolicy::Max), 0, 2);
    /// // The tie {0.5, 0.5} straddles position 2: it is covered whole.
    /// assert_eq!(row.covered(), 3);
    /// assert!(row.covers_top(3) && !row.covers_top(4));
    /// ```
    pub fn covers_top(&self, k: usize) -> bool {
        self.covered >= k.min(self.n_labels)
    }

    /// The gain (label value) of each label, by column: what graded metrics need beyond the
    /// blocks' sums, the ideal ordering of NDCG for one.
    pub fn gains(&self) -> &'a [f64] {
        self.gains
    }

    /// The number of labels in the row.
    pub fn n_labels(&self) -> usize {
        self.n_labels
    }

    /// The number of relevant labels in the row.
    pub fn n_relevant(&self) -> usize {
        self.n_relevant
    }

    /// How ranks are shared inside blocks, or `None` when every block is one label.
    pub fn sharing(&self) -> Option<RankSharing> {
        self.sharing
    }

    /// The 1-based rank every member of `block` gets.
    pub fn rank(&self, block: &Block) -> f64 {
        let (start, len) = (block.start as f64, block.len as f64);
        match self.sharing {
            None | Some(RankSharing::Min) => start + 1.0,
            Some(RankSharing::Max) => start + len,
            Some(RankSharing::Average | RankSharing::Expected) => start + (len + 1.0) / 2.0,
        }
    }

    /// How much a relevant/irrelevant pair inside one block counts as mis-ordered (0 when
    /// blocks are single labels, where no such pair exists).
    pub fn tied_pair_error(&self) -> f64 {
        self.sharing.map_or(0.0, RankSharing::tied_pair_error)
    }
}

/// The reusable scratch space of the ranking kernel: one per thread, no allocation per row once
/// it has grown to the row length.
///
/// # Example
/// ```
/// use rankmetrics::{Ranker, Ranking, TiePolicy};
/// let mut ranker = Ranker::new();
/// // Scores of one row and its labels (non-zero = relevant).
/// let row = ranker.rank(&[0.2f64, 0.7, 0.7], &[1.0, 0.0, 1.0], Ranking::new(TiePolicy::Last), 0);
/// assert_eq!(row.order(), &[2, 1, 0]); // ties: the higher column first
/// assert_eq!(row.blocks().len(), 3);
/// ```
#[derive(Debug, Default, Clone)]
pub struct Ranker {
    /// (descending-order key, column), sorted.
    keys: Vec<(u64, u32)>,
    /// (start, len) of each tie group in `keys`, best first.
    groups: Vec<(usize, usize)>,
    blocks: Vec<Block>,
    order: Vec<u32>,
}

impl Ranker {
    /// An empty kernel.
    pub fn new() -> Self {
        Ranker::default()
    }

    /// Ranks one row. `gains[j]` is label j's value (relevant when non-zero); `row` seeds
    /// [`TiePolicy::Random`]. Scores must be finite and `gains.len() == scores.len()` (the
    /// metrics validate before they call this; other input gives a meaningless ranking, never
    /// a panic).
    pub fn rank<'a, T: Score>(
        &'a mut self,
        scores: &[T],
        gains: &'a [f64],
        ranking: Ranking,
        row: usize,
    ) -> RankedRow<'a> {
        let n = scores.len().min(gains.len()).min(u32::MAX as usize);
        self.keys.clear();
        self.keys.extend(
            scores[..n]
                .iter()
                .enumerate()
                .map(|(j, s)| (!s.order_key(), j as u32)),
        );
        // Keys are unique (the column breaks ties), so the unstable sort is deterministic:
        // descending score, and inside a tie the lower column first.
        self.keys.sort_unstable();
        self.group(scores, ranking.grouping);

        let sharing = self.emit_blocks(gains, ranking, row);
        RankedRow {
            blocks: &self.blocks,
            order: &self.order,
            gains: &gains[..n],
            n_labels: n,
            n_relevant: self.blocks.iter().map(|b| b.relevant).sum(),
            sharing,
            covered: n,
        }
    }

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
        &'a mut self,
        scores: &[T],
        gains: &'a [f64],
        ranking: Ranking,
        row: usize,
        k: usize,
    ) -> RankedRow<'a> {
        let n = scores.len().min(gains.len()).min(u32::MAX as usize);
        if k >= n || ranking.grouping != TieGrouping::Exact {
            return self.rank(scores, gains, ranking, row);
        }
        self.select_top(&scores[..n], k.max(1));
        self.keys.sort_unstable();
        self.group(scores, TieGrouping::Exact);
        let sharing = self.emit_blocks(gains, ranking, row);
        RankedRow {
            blocks: &self.blocks,
            order: &self.order,
            gains: &gains[..n],
            n_labels: n,
            n_relevant: gains[..n].iter().filter(|&&g| g != 0.0).count(),
            sharing,
            covered: self.keys.len(),
        }
    }

    /// Leaves in `keys` (unsorted) the `k` best keys and every key tied with the k-th, in one
    /// pass that keeps only candidates not yet known to rank below the k-th.
    fn select_top<T: Score>(&mut self, scores: &[T], k: usize) {
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

    /// Turns the tie groups of the sorted `keys` into blocks and the order, as the policy
    /// ranks them; returns how ranks are shared.
    fn emit_blocks(&mut self, gains: &[f64], ranking: Ranking, row: usize) -> Option<RankSharing> {
        self.blocks.clear();
        self.order.clear();
        let relevant = |j: u32| usize::from(gains[j as usize] != 0.0);
        let sharing = ranking.ties.sharing();
        let mut rng = match ranking.ties {
            TiePolicy::Random(seed) => Some(SplitMix64::for_row(seed, row)),
            _ => None,
        };
        for &(start, len) in &self.groups {
            let members = &mut self.keys[start..start + len];
            if sharing.is_some() {
                let (mut r, mut g) = (0, 0.0);
                for &(_, j) in members.iter() {
                    r += relevant(j);
                    g += gains[j as usize];
                }
                self.blocks.push(Block {
                    start,
                    len,
                    relevant: r,
                    gain: g,
                });
                self.order.extend(members.iter().map(|k| k.1));
                continue;
            }
            let gain = |k: &(u64, u32)| gains[k.1 as usize];
            match (ranking.ties, rng.as_mut()) {
                (TiePolicy::Last, _) => members.reverse(),
                (_, Some(rng)) => rng.shuffle(members),
                // Stable sorts: equal gains keep column order.
                (TiePolicy::Optimistic, _) => members.sort_by(|a, b| gain(b).total_cmp(&gain(a))),
                (TiePolicy::Pessimistic, _) => members.sort_by(|a, b| gain(a).total_cmp(&gain(b))),
                _ => {}
            }
            for (k, &(_, j)) in members.iter().enumerate() {
                self.blocks.push(Block {
                    start: start + k,
                    len: 1,
                    relevant: relevant(j),
                    gain: gains[j as usize],
                });
                self.order.push(j);
            }
        }
        sharing
    }

    /// Splits the sorted keys into tie groups, best first; members of a group end up in
    /// column order.
    fn group<T: Score>(&mut self, scores: &[T], grouping: TieGrouping) {
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

/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, and good enough to shuffle tie groups.
struct SplitMix64(u64);

impl SplitMix64 {
    fn for_row(seed: u64, row: usize) -> Self {
        let mut s = SplitMix64(seed ^ (row as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
        s.next();
        s
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An unbiased draw from `0..bound` (Lemire's multiply-and-reject), `bound > 0`.
    fn below(&mut self, bound: u64) -> u64 {
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let m = u128::from(self.next()) * u128::from(bound);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// Fisher–Yates.
    fn shuffle<X>(&mut self, items: &mut [X]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(scores: &[f64], ties: TiePolicy, grouping: TieGrouping) -> Vec<u32> {
        let gains = vec![0.0; scores.len()];
        let ranking = Ranking::new(ties).with_grouping(grouping);
        Ranker::new()
            .rank(scores, &gains, ranking, 0)
            .order()
            .to_vec()
    }

    #[test]
    fn negative_zero_ties_with_zero() {
        let mut r = Ranker::new();
        let row = r.rank(&[0.0, -0.0], &[1.0, 0.0], Ranking::new(TiePolicy::Max), 0);
        assert_eq!(row.blocks().len(), 1);
    }

    #[test]
    fn first_and_last_order_ties_by_column() {
        let s = [0.5, 0.9, 0.5, 0.5];
        assert_eq!(
            order(&s, TiePolicy::First, TieGrouping::Exact),
            [1, 0, 2, 3]
        );
        assert_eq!(order(&s, TiePolicy::Last, TieGrouping::Exact), [1, 3, 2, 0]);
    }

    #[test]
    fn weka_grouping_is_anchored_at_the_smallest_score() {
        // {0.5, 0.5000007} tie, 0.5000014 stands alone: the chain is not transitive.
        let s = [0.5000014, 0.5000007, 0.5];
        assert_eq!(order(&s, TiePolicy::Last, TieGrouping::WEKA), [0, 2, 1]);
        assert_eq!(order(&s, TiePolicy::First, TieGrouping::WEKA), [0, 1, 2]);
        assert_eq!(order(&s, TiePolicy::Last, TieGrouping::Exact), [0, 1, 2]);
    }

    #[test]
    fn random_is_a_reproducible_permutation_within_groups() {
        let s = [0.5; 12];
        let a = order(&s, TiePolicy::Random(3), TieGrouping::Exact);
        let b = order(&s, TiePolicy::Random(3), TieGrouping::Exact);
        let c = order(&s, TiePolicy::Random(4), TieGrouping::Exact);
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..12).collect::<Vec<_>>());
    }
}
