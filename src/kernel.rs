//! The one ranking kernel: sort a row once, group its ties, let the policy assign ranks.
//!
//! Every metric reads a [`RankedRow`]; nothing else in the crate sorts scores or detects ties.

use std::cmp::Ordering;
use std::sync::atomic::{AtomicU8, Ordering as AtomicOrdering};

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
///
/// A row from [`Ranker::rank`] is complete. A row from [`Ranker::rank_relevant`] may hold only
/// the blocks that contain a relevant label, and no order: read it through
/// [`relevant_blocks`](Self::relevant_blocks), which gives the same blocks either way.
#[derive(Debug, Clone, Copy)]
pub struct RankedRow<'a> {
    blocks: &'a [Block],
    order: &'a [u32],
    gains: &'a [f64],
    n_labels: usize,
    n_relevant: usize,
    sharing: Option<RankSharing>,
    /// The indices of the blocks holding a relevant label, when the kernel listed them (a
    /// long vector's metrics then read its few relevant blocks without scanning the others);
    /// `None`: find them by scanning.
    relevant_at: Option<&'a [u32]>,
    /// The positions `0..covered` the blocks partition (or, after counting, whose relevant
    /// blocks they all are): all labels after [`Ranker::rank`], the top of the ranking after
    /// [`Ranker::rank_top`].
    covered: usize,
}

impl<'a> RankedRow<'a> {
    /// The blocks in rank order, best first. In a complete row they partition the positions
    /// `0..n_labels`; in a row from [`Ranker::rank_relevant`] they may be only the blocks
    /// holding a relevant label; after [`Ranker::rank_top`] they cover the top positions
    /// `0..covered()` (see [`covers_top`](Self::covers_top)).
    pub fn blocks(&self) -> &'a [Block] {
        self.blocks
    }

    /// The blocks that hold at least one relevant label, in rank order: the same blocks
    /// whichever path ranked the row. Labels above a block that are irrelevant number
    /// `block.start` minus the relevant labels of the earlier blocks.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Ranker, Ranking, TiePolicy};
    /// let mut ranker = Ranker::new();
    /// let (scores, gains) = ([0.9, 0.5, 0.5, 0.1], [0.0, 1.0, 0.0, 0.0]);
    /// let full: Vec<_> = ranker.rank(&scores, &gains, Ranking::new(TiePolicy::Max), 0)
    ///     .relevant_blocks().copied().collect();
    /// let counted: Vec<_> = ranker.rank_relevant(&scores, &gains, Ranking::new(TiePolicy::Max), 0)
    ///     .relevant_blocks().copied().collect();
    /// assert_eq!(full, counted);
    /// assert_eq!((full[0].start, full[0].len), (1, 2));
    /// ```
    pub fn relevant_blocks(&self) -> impl DoubleEndedIterator<Item = &'a Block> + Clone + 'a {
        let blocks = self.blocks;
        let (listed, scanned) = match self.relevant_at {
            Some(at) => (at, &[][..]),
            None => (&[][..], blocks),
        };
        // One of the two is empty: the listed indices, or a scan of every block.
        let listed = listed.iter().filter_map(move |&i| blocks.get(i as usize));
        listed.chain(scanned.iter().filter(|b| b.relevant > 0))
    }

    /// The columns in rank order (best first); inside a shared block, in column order. Empty
    /// for a row from [`Ranker::rank_relevant`] that was ranked by counting.
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

/// Which end of a row's relevant blocks a formula reads, for
/// [`Ranker::rank_relevant_end`]: the first (best ranked) or the last.
///
/// # Example
/// ```
/// use rankmetrics::{Coverage, RelevantEnd, RowMetric, TiePolicy};
/// assert_eq!(Coverage::new(TiePolicy::Max).reads_one_relevant_block(), Some(RelevantEnd::Last));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelevantEnd {
    /// The best-ranked block holding a relevant label (one-error).
    First,
    /// The worst-ranked block holding a relevant label (coverage).
    Last,
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
    /// The radix sort's second buffer (long rows), or [`sort_few`]'s.
    radix_scratch: Vec<(u64, u32)>,
    /// The gains in sorted order (`assign`).
    sorted_gains: Vec<f64>,
    /// The counting path: for each relevant label of the current run, the labels of its
    /// group in lower columns.
    equal_before: Vec<usize>,
    /// The counting path: the columns of the row's relevant labels, in column order.
    gathered: Vec<u32>,
    /// (start, len) of each tie group in `keys`, best first.
    groups: Vec<(usize, usize)>,
    blocks: Vec<Block>,
    order: Vec<u32>,
    /// One group's members, reordered by an ordering policy.
    members: Vec<u32>,
    /// `assign`: the indices of the blocks holding a relevant label.
    relevant_at: Vec<u32>,
    /// `sort_top`: the labels of the row whose top the keys hold.
    top_of: usize,
    /// The counting path: the tie groups holding relevant labels, counted.
    counted: Vec<CountedGroup>,
    /// The counting path: the row's scores narrowed to f32 ([`Narrowed`]).
    narrowed: Narrowed,
    /// Whether `equal_before` holds the counted groups' places.
    places_known: bool,
    /// What the counted groups were counted for, while they stand.
    counted_for: Option<CountedFor>,
    /// Whether long vectors are sorted on the rayon pool.
    #[cfg(feature = "rayon")]
    parallel_sort: bool,
    /// Set by [`assign`](Ranker::assign) on a sort without ties: its blocks and order serve
    /// every policy ([`reassign`](Ranker::reassign)) until the row is sorted again.
    untied: UntiedAssignment,
}

/// A tie group holding relevant labels, found by counting: its relevant members are
/// `keys[first..first + members]`, `start` labels rank above it, `len` are in it.
#[derive(Debug, Clone, Copy)]
struct CountedGroup {
    first: usize,
    members: usize,
    start: usize,
    len: usize,
}

/// The reach a row's groups were counted for, the positions they cover, its relevant count.
#[derive(Debug, Clone, Copy)]
struct CountedFor {
    reach: Reach,
    covered: usize,
    n_relevant: usize,
}

/// Whether the last assignment serves every policy, and its relevant count.
#[derive(Debug, Default, Clone, Copy)]
struct UntiedAssignment {
    valid: bool,
    n_relevant: usize,
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
        self.sort(&scores[..scores.len().min(gains.len())], ranking.grouping);
        self.assign(gains, ranking.ties, row)
    }

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

    /// Ranks the row last given to [`sort`](Self::sort) under `ties`. `gains[j]` is label j's
    /// value (relevant when non-zero; a missing gain counts as 0); `row` seeds
    /// [`TiePolicy::Random`]. The sorted row is left as it was, for the next policy.
    pub fn assign<'a>(
        &'a mut self,
        gains: &'a [f64],
        ties: TiePolicy,
        row: usize,
    ) -> RankedRow<'a> {
        let sharing = ties.sharing();
        let n = self.keys.len().min(gains.len());
        let Ranker {
            keys,
            groups,
            blocks,
            order,
            members,
            sorted_gains,
            untied,
            relevant_at,
            ..
        } = self;
        blocks.clear();
        order.clear();
        let gain = |j: u32| gains.get(j as usize).copied().unwrap_or(0.0);
        let relevant = |j: u32| usize::from(gain(j) != 0.0);
        let mut rng = match ties {
            TiePolicy::Random(seed) => Some(SplitMix64::for_row(seed, row)),
            _ => None,
        };
        sorted_gains.clear();
        // Without ties every group is one label: its block, one tight loop whose independent
        // loads overlap (a shared block's gain is 0.0 plus the member's, as below).
        let tied_groups = if groups.len() == keys.len() {
            let zero = if sharing.is_some() { 0.0 } else { -0.0 };
            blocks.extend(keys.iter().enumerate().map(|(start, k)| {
                let x = gain(k.1);
                Block {
                    start,
                    len: 1,
                    relevant: usize::from(x != 0.0),
                    gain: zero + x,
                }
            }));
            order.extend(keys.iter().map(|k| k.1));
            &[][..]
        } else {
            // Gathered in one tight loop, whose independent loads overlap: on a long vector
            // each is a cache miss, which the per-group loop below would wait for one by one.
            sorted_gains.extend(keys.iter().map(|k| gain(k.1)));
            &groups[..]
        };
        for &(start, len) in tied_groups {
            let group = &keys[start..start + len];
            if sharing.is_some() {
                let (mut r, mut g) = (0, 0.0);
                for &x in &sorted_gains[start..start + len] {
                    r += usize::from(x != 0.0);
                    g += x;
                }
                blocks.push(Block {
                    start,
                    len,
                    relevant: r,
                    gain: g,
                });
                order.extend(group.iter().map(|k| k.1));
                continue;
            }
            // The policy orders a copy, so the sorted row serves the next policy unchanged.
            members.clear();
            members.extend(group.iter().map(|k| k.1));
            match (ties, rng.as_mut()) {
                (TiePolicy::Last, _) => members.reverse(),
                (_, Some(rng)) => rng.shuffle(members),
                // Stable sorts: equal gains keep column order.
                (TiePolicy::Optimistic, _) => members.sort_by(|&a, &b| gain(b).total_cmp(&gain(a))),
                (TiePolicy::Pessimistic, _) => {
                    members.sort_by(|&a, &b| gain(a).total_cmp(&gain(b)))
                }
                _ => {}
            }
            for (k, &j) in members.iter().enumerate() {
                blocks.push(Block {
                    start: start + k,
                    len: 1,
                    relevant: relevant(j),
                    gain: gain(j),
                });
                order.push(j);
            }
        }
        let n_relevant = blocks.iter().map(|b| b.relevant).sum();
        relevant_at.clear();
        if blocks.len() <= 1 << 12 {
            // Branch-free, as `gather`: every block is written, relevant ones advance the end.
            relevant_at.resize(blocks.len() + 1, 0);
            let mut count = 0;
            for (i, b) in blocks.iter().enumerate() {
                relevant_at[count] = i as u32;
                count += usize::from(b.relevant > 0);
            }
            relevant_at.truncate(count);
        } else {
            // Pushed: a buffer as long as the blocks would have all its pages touched for the
            // few relevant items of a long vector.
            let relevant = blocks.iter().enumerate().filter(|(_, b)| b.relevant > 0);
            relevant_at.extend(relevant.map(|(i, _)| i as u32));
        }
        // A shared block's gain is 0.0 + the member's, which turns -0.0 into 0.0: with such a
        // gain the policies' blocks differ in that bit, so none is reused.
        *untied = UntiedAssignment {
            valid: groups.len() == keys.len()
                && !gains.iter().any(|g| g.to_bits() == (-0.0f64).to_bits()),
            n_relevant,
        };
        RankedRow {
            blocks,
            order,
            gains: &gains[..n],
            n_labels: n,
            n_relevant,
            sharing,
            relevant_at: Some(relevant_at),
            covered: keys.len(),
        }
    }

    /// [`assign`](Self::assign) for a caller that has assigned the current sort already, with
    /// these same gains: without ties every policy gives the same blocks and order (a group of
    /// one has one order and one rank), so that assignment is handed on as it is.
    pub(crate) fn reassign<'a>(
        &'a mut self,
        gains: &'a [f64],
        ties: TiePolicy,
        row: usize,
    ) -> RankedRow<'a> {
        if !self.untied.valid {
            return self.assign(gains, ties, row);
        }
        let n = self.keys.len().min(gains.len());
        RankedRow {
            blocks: &self.blocks,
            order: &self.order,
            gains: &gains[..n],
            n_labels: n,
            n_relevant: self.untied.n_relevant,
            sharing: ties.sharing(),
            relevant_at: Some(&self.relevant_at),
            covered: self.keys.len(),
        }
    }

    /// Ranks one row for a formula that reads only [`RankedRow::relevant_blocks`] (and the
    /// counts, sharing and gains): the blocks holding a relevant label are exactly those
    /// [`rank`](Self::rank) gives, but a row with few relevant labels is ranked without
    /// sorting it, by counting for each relevant score the labels scored above and equal to
    /// it (O(r·L) instead of O(L log L)). Such a row has no [`order`](RankedRow::order) and
    /// may lack the blocks without a relevant label. `Random` and tolerance grouping always
    /// sort.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Ranker, Ranking, TiePolicy};
    /// let mut ranker = Ranker::new();
    /// let row = ranker.rank_relevant(&[0.2f64, 0.7, 0.7, 0.9], &[0.0, 0.0, 1.0, 0.0],
    ///     Ranking::new(TiePolicy::Last), 0);
    /// let b: Vec<_> = row.relevant_blocks().collect();
    /// assert_eq!((b.len(), b[0].start), (1, 1)); // Last: column 2 before column 1
    /// ```
    pub fn rank_relevant<'a, T: Score>(
        &'a mut self,
        scores: &[T],
        gains: &'a [f64],
        ranking: Ranking,
        row: usize,
    ) -> RankedRow<'a> {
        self.gather(gains);
        self.rank_gathered(scores, gains, ranking, row, Reach::All)
    }

    /// Ranks one row for a formula that reads a single relevant block: the first (one-error)
    /// or the last (coverage). The row's [`relevant_blocks`](RankedRow::relevant_blocks)
    /// then yield that block only (or all of them, when the row had to be sorted), exactly
    /// as [`rank`](Self::rank) gives it; the counts and gains describe the whole row. No
    /// sort: the best (worst) relevant score is found among the relevant labels, and one pass
    /// counts the labels above and equal to it, whatever the number of relevant labels.
    /// `Random` and tolerance grouping sort.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Ranker, Ranking, RelevantEnd, TiePolicy};
    /// let mut ranker = Ranker::new();
    /// let (scores, gains) = ([0.2f64, 0.7, 0.7, 0.9], [1.0, 0.0, 1.0, 1.0]);
    /// let ranking = Ranking::new(TiePolicy::Max);
    /// let last = *ranker.rank_relevant_end(&scores, &gains, ranking, 0, RelevantEnd::Last)
    ///     .relevant_blocks().next_back().unwrap();
    /// assert_eq!((last.start, last.len), (3, 1));
    /// let first = ranker.rank_relevant_end(&scores, &gains, ranking, 0, RelevantEnd::First);
    /// assert_eq!((first.relevant_blocks().count(), first.n_relevant()), (1, 3));
    /// ```
    pub fn rank_relevant_end<'a, T: Score>(
        &'a mut self,
        scores: &[T],
        gains: &'a [f64],
        ranking: Ranking,
        row: usize,
        end: RelevantEnd,
    ) -> RankedRow<'a> {
        self.gather(gains);
        self.rank_gathered(scores, gains, ranking, row, Reach::End(end))
    }

    /// Forgets what later policies could reuse (the untied assignment, the counted groups):
    /// the sort, keys or blocks are about to change.
    #[inline]
    fn forget_assignment(&mut self) {
        self.untied.valid = false;
        self.counted_for = None;
    }

    /// Puts the columns of the non-zero gains into the gathered columns, in column order.
    pub(crate) fn gather(&mut self, gains: &[f64]) {
        gather_nonzero(gains, &mut self.gathered);
    }

    /// How many relevant columns [`gather`](Self::gather) found.
    #[inline]
    pub(crate) fn gathered_len(&self) -> usize {
        self.gathered.len()
    }

    /// [`rank_relevant`](Self::rank_relevant) ([`Reach::All`]),
    /// [`rank_relevant_end`](Self::rank_relevant_end) ([`Reach::End`]) or the relevant blocks
    /// of the top k ([`Reach::Top`]), once the relevant columns are gathered.
    pub(crate) fn rank_gathered<'a, T: Score>(
        &'a mut self,
        scores: &[T],
        gains: &'a [f64],
        ranking: Ranking,
        row: usize,
        reach: Reach,
    ) -> RankedRow<'a> {
        self.forget_assignment();
        let n = ranked_len(scores, gains);
        if !counts(ranking, n, self.gathered.len(), reach) {
            return match reach {
                Reach::Top(k) => self.rank_top(scores, gains, ranking, row, k),
                _ => self.rank(scores, gains, ranking, row),
            };
        }
        let (scores, gains) = (&scores[..n], &gains[..n]);
        if let (Reach::End(end), Some(sharing)) = (reach, ranking.ties.sharing()) {
            return self.rank_end_shared(scores, gains, end, sharing);
        }
        self.keys.clear();
        self.keys.extend(
            self.gathered
                .iter()
                .filter_map(|&j| Some((!scores.get(j as usize)?.order_key(), j))),
        );
        let n_relevant = self.keys.len();
        // The best score has the smallest key.
        let extreme = match reach {
            Reach::End(RelevantEnd::First) => self.keys.iter().map(|k| k.0).min(),
            Reach::End(RelevantEnd::Last) => self.keys.iter().map(|k| k.0).max(),
            _ => None,
        };
        match extreme {
            // One tie group's relevant members, gathered in column order: sorted already.
            Some(key) => self.keys.retain(|k| k.0 == key),
            None => sort_few(&mut self.keys, &mut self.radix_scratch, true),
        }
        let top = match reach {
            Reach::Top(k) => k,
            _ => n,
        };
        let covered = self.count_groups(scores, top);
        self.counted_for = Some(CountedFor {
            reach,
            covered,
            n_relevant,
        });
        let ranked = self.place_counted(scores, gains, ranking.ties, covered);
        gathered_row(ranked, reach, n_relevant)
    }

    /// [`rank_gathered`](Self::rank_gathered) for a caller that has ranked this same row (the
    /// same scores, gains and gathered columns) with the same `reach` just before, under
    /// another policy: the counted groups are placed again under the new policy, not counted
    /// again.
    pub(crate) fn rank_gathered_again<'a, T: Score>(
        &'a mut self,
        scores: &[T],
        gains: &'a [f64],
        ranking: Ranking,
        row: usize,
        reach: Reach,
    ) -> RankedRow<'a> {
        let n = ranked_len(scores, gains);
        // One end under a rank-sharing policy is not placed from the groups (`rank_end_shared`).
        let shared_end = matches!(reach, Reach::End(_)) && ranking.ties.sharing().is_some();
        match self.counted_for {
            Some(c)
                if c.reach == reach
                    && !shared_end
                    && counts(ranking, n, self.gathered.len(), reach) =>
            {
                let ranked = self.place_counted(&scores[..n], &gains[..n], ranking.ties, c.covered);
                gathered_row(ranked, reach, c.n_relevant)
            }
            _ => self.rank_gathered(scores, gains, ranking, row, reach),
        }
    }

    /// [`rank_gathered`](Self::rank_gathered) for one end under a rank-sharing policy: the
    /// end's tie group is one block, whose relevant members are the gathered columns scored
    /// as the best (worst) of them.
    fn rank_end_shared<'a, T: Score>(
        &'a mut self,
        scores: &[T],
        gains: &'a [f64],
        end: RelevantEnd,
        sharing: RankSharing,
    ) -> RankedRow<'a> {
        self.forget_assignment();
        self.blocks.clear();
        self.order.clear();
        // Float comparisons: -0.0 and 0.0 are one score, as the keys say.
        let beats = |s: T, t: T| match end {
            RelevantEnd::First => s > t,
            RelevantEnd::Last => s < t,
        };
        let mut relevant_scores = self.gathered.iter().filter_map(|&j| scores.get(j as usize));
        // A select, not a branch: which relevant score wins is unpredictable.
        let extreme = relevant_scores.next().map(|&first| {
            relevant_scores.fold((1, first), |(n, t), &s| {
                (n + 1, if beats(s, t) { s } else { t })
            })
        });
        let n_relevant = extreme.map_or(0, |(n, _)| n);
        if let Some((_, t)) = extreme {
            let (start, len) = count_above_and_equal(scores, t);
            let members = self.gathered.iter().map(|&j| j as usize);
            let member_gains = members
                .filter(|&j| scores.get(j) == Some(&t))
                .map(|j| gains[j]);
            self.blocks.push(shared_block(start, len, member_gains));
        }
        RankedRow {
            blocks: &self.blocks,
            order: &self.order,
            gains,
            n_labels: scores.len(),
            n_relevant,
            sharing: Some(sharing),
            relevant_at: None,
            covered: scores.len(),
        }
    }

    /// The counting path of [`rank_relevant`](Self::rank_relevant), its policy-free half:
    /// `keys` holds the relevant labels, sorted. Each run of equal keys is one tie group's
    /// relevant members; one pass over the row counts the group's labels above (`start`) and in
    /// it (`len`). Stops at the first group that starts at position `top` or below; returns the
    /// positions the groups cover.
    fn count_groups<T: Score>(&mut self, scores: &[T], top: usize) -> usize {
        self.counted.clear();
        self.places_known = false;
        let narrowed = self.narrowed.of(scores, self.keys.len());
        let mut first = 0;
        while let Some(&(key, column)) = self.keys.get(first) {
            let members = self.keys[first..].iter().take_while(|k| k.0 == key).count();
            let group = first;
            first += members;
            let Some(&t) = scores.get(column as usize) else {
                continue;
            };
            let (start, len) = narrowed
                .and_then(|n| self.narrowed.count(n, t, members))
                .unwrap_or_else(|| count_above_and_equal(scores, t));
            if start >= top {
                return start;
            }
            self.counted.push(CountedGroup {
                first: group,
                members,
                start,
                len,
            });
        }
        scores.len()
    }

    /// The members' places in column order among their counted group (`equal_before`, by
    /// key), needed by ordering policies only when irrelevant labels share the group.
    fn count_places<T: Score>(&mut self, scores: &[T]) {
        if self.places_known {
            return;
        }
        let Ranker {
            keys,
            counted,
            equal_before,
            ..
        } = self;
        equal_before.clear();
        equal_before.resize(keys.len(), 0);
        for g in counted.iter() {
            let run = &keys[g.first..g.first + g.members];
            let places = &mut equal_before[g.first..g.first + g.members];
            let t = scores.get(run[0].1 as usize).copied();
            match t.filter(|_| g.len > g.members) {
                Some(t) => {
                    let (mut equal, mut from) = (0, 0);
                    for (m, (&(_, column), place)) in run.iter().zip(places).enumerate() {
                        let segment = scores.get(from..column as usize).unwrap_or(&[]);
                        (equal, from) = (
                            equal + count_above_and_equal(segment, t).1,
                            column as usize + 1,
                        );
                        *place = equal + m;
                    }
                }
                None => places.iter_mut().enumerate().for_each(|(m, p)| *p = m),
            }
        }
        self.places_known = true;
    }

    /// The counting path's other half: the counted groups' blocks under `ties`.
    fn place_counted<'a, T: Score>(
        &'a mut self,
        scores: &[T],
        gains: &'a [f64],
        ties: TiePolicy,
        covered: usize,
    ) -> RankedRow<'a> {
        let sharing = ties.sharing();
        if sharing.is_none() {
            self.count_places(scores);
        }
        let Ranker {
            keys,
            counted,
            equal_before,
            blocks,
            order,
            ..
        } = self;
        blocks.clear();
        order.clear();
        for g in counted.iter() {
            let run = &keys[g.first..g.first + g.members];
            let (start, len) = (g.start, g.len);
            if sharing.is_some() {
                let member_gains = run.iter().map(|k| gains[k.1 as usize]);
                blocks.push(shared_block(start, len, member_gains));
                continue;
            }
            let equal_before = &equal_before[g.first..g.first + g.members];
            let gain = |k: &(u64, u32)| gains[k.1 as usize];
            let irrelevant = len - g.members;
            let group = blocks.len();
            for (m, k) in run.iter().enumerate() {
                let g = gain(k);
                // The place the full path's stable sort by gain gives: members of higher
                // (lower) gain first, then equal gains in column order; irrelevant members
                // have gain 0.
                let placed_by_gain = |better: Ordering, zero_before: bool| {
                    let before = run.iter().enumerate().filter(|&(i, o)| {
                        let c = gain(o).total_cmp(&g);
                        c == better || (c == Ordering::Equal && i < m)
                    });
                    before.count() + if zero_before { irrelevant } else { 0 }
                };
                let place = match ties {
                    TiePolicy::Last => len - 1 - equal_before[m],
                    TiePolicy::Optimistic => placed_by_gain(Ordering::Greater, g < 0.0),
                    TiePolicy::Pessimistic => placed_by_gain(Ordering::Less, g > 0.0),
                    _ => equal_before[m],
                };
                blocks.push(Block {
                    start: start + place,
                    len: 1,
                    relevant: 1,
                    gain: g,
                });
            }
            blocks[group..].sort_unstable_by_key(|b| b.start);
        }
        RankedRow {
            blocks,
            order,
            gains,
            n_labels: scores.len(),
            n_relevant: keys.len(),
            sharing,
            relevant_at: None,
            covered,
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
        &'a mut self,
        gains: &'a [f64],
        ties: TiePolicy,
        row: usize,
        again: bool,
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

    /// Splits the sorted keys into tie groups, best first; members of a group end up in
    /// column order.
    fn group<T: Score>(&mut self, scores: &[T], grouping: TieGrouping) {
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

/// The block of a tie group of `len` labels below `start` others, under a rank-sharing
/// policy, whose relevant members have `member_gains` in column order.
fn shared_block(start: usize, len: usize, member_gains: impl Iterator<Item = f64>) -> Block {
    // In column order, as the full path sums (its zeros change nothing).
    let (relevant, gain) = member_gains.fold((0, 0.0), |(r, g), x| (r + 1, g + x));
    Block {
        start,
        len,
        relevant,
        gain,
    }
}

/// How much of a row [`Ranker::rank_gathered`] ranks: what the metric reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// Every relevant block ([`crate::RowMetric::reads_only_relevant_blocks`]).
    All,
    /// One end's relevant block ([`crate::RowMetric::reads_one_relevant_block`]).
    End(RelevantEnd),
    /// The relevant blocks that start above position k ([`crate::RowMetric::top_k`] of a
    /// metric that reads only relevant blocks).
    Top(usize),
}

/// The vectors [`Ranker::with_parallel_sort`] sorts in parallel: beyond the radix sort's range,
/// where one sort is long enough to share.
#[cfg(feature = "rayon")]
const PARALLEL_SORT_FROM: usize = 1 << 18;

/// A counted row as its reach reads it: the end's block alone for one end; the row's relevant
/// count.
fn gathered_row(mut ranked: RankedRow<'_>, reach: Reach, n_relevant: usize) -> RankedRow<'_> {
    ranked.n_relevant = n_relevant;
    let blocks = ranked.blocks;
    ranked.blocks = match reach {
        Reach::End(RelevantEnd::First) => blocks.get(..1).unwrap_or(blocks),
        Reach::End(RelevantEnd::Last) => &blocks[blocks.len().saturating_sub(1)..],
        _ => blocks,
    };
    ranked
}

/// Whether [`Ranker::rank_top`] selects the top `k` of a row of `n` labels (else it ranks the
/// whole row, as [`Ranker::rank`] does).
pub(crate) fn selects_top(n: usize, k: usize, grouping: TieGrouping) -> bool {
    k < n.min(u32::MAX as usize) && grouping == TieGrouping::Exact
}

/// The labels a row ranks: as many as it has both scores and gains for, at most u32::MAX
/// (columns are stored as u32).
fn ranked_len<T>(scores: &[T], gains: &[f64]) -> usize {
    scores.len().min(gains.len()).min(u32::MAX as usize)
}

/// Whether [`Ranker::rank_gathered`] ranks a row of `n` labels, `relevant` of them relevant,
/// by counting (else it sorts the row, as [`Ranker::rank`] does).
pub(crate) fn counts(ranking: Ranking, n: usize, relevant: usize, reach: Reach) -> bool {
    let countable =
        ranking.grouping == TieGrouping::Exact && !matches!(ranking.ties, TiePolicy::Random(_));
    let most = match (KERNEL_PATH.load(AtomicOrdering::Relaxed), reach) {
        (FORCE_FULL, _) => 0,
        // One relevant tie group is counted, however many relevant labels there are.
        (FORCE_COUNTING, _) | (_, Reach::End(_)) => n,
        _ => counting_limit(n),
    };
    countable && relevant <= most
}

crate::wide::wide! {
    /// How many labels score above `t`, and how many equal it (`==`, so `-0.0` ties with
    /// `0.0`; scores are finite).
    fn count_above_and_equal<T: Score>(scores: &[T], t: T) -> (usize, usize) = count_above_and_equal_body;
}

/// [`count_above_and_equal`]'s loop. Branch-free, so it vectorises; u32 counters (rows have at
/// most u32::MAX labels) keep f32 comparisons four to a register, where u64 ones halve them.
#[inline(always)]
fn count_above_and_equal_body<T: Score>(scores: &[T], t: T) -> (usize, usize) {
    let (mut above, mut equal) = (0u32, 0u32);
    for &s in scores {
        above = above.wrapping_add(u32::from(s > t));
        equal = equal.wrapping_add(u32::from(s == t));
    }
    (above as usize, equal as usize)
}

/// Sorts a few (key, column) pairs with distinct columns (the relevant labels of a counted
/// row, a row's top k): each pair's place is the number of pairs below it, counted without
/// branches, since a comparison sort of a handful of random keys is dominated by mispredicted
/// branches. `in_column_order`: the pairs come in column order, so a tie is broken by position
/// (one comparison per pair instead of two). Longer lists are sorted as usual.
fn sort_few(keys: &mut Vec<(u64, u32)>, scratch: &mut Vec<(u64, u32)>, in_column_order: bool) {
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

crate::wide::wide! {
    /// The columns of the non-zero gains, in column order, into `columns`.
    fn gather_nonzero<>(gains: &[f64], columns: &mut Vec<u32>) -> () = gather_by_masks | gather_by_steps;
}

/// [`gather_nonzero`] with a 4-bit mask per four gains and a table of where each mask's
/// columns go: no branch on relevance (which is unpredictable), a few instructions per four
/// labels where the compiler forms the mask with one vector compare (AVX2).
#[inline(always)]
fn gather_by_masks(gains: &[f64], columns: &mut Vec<u32>) {
    /// For each 4-bit mask, the positions of its set bits, lowest first.
    const PACKED: [[u32; 4]; 16] = {
        let mut table = [[0; 4]; 16];
        let mut mask = 0;
        while mask < 16 {
            let (mut k, mut j) = (0, 0);
            while j < 4 {
                if mask & (1 << j) != 0 {
                    table[mask][k] = j as u32;
                    k += 1;
                }
                j += 1;
            }
            mask += 1;
        }
        table
    };
    columns.resize(gains.len() + 4, 0);
    let mut count = 0;
    let mut fours = gains.chunks_exact(4);
    let mut base = 0u32;
    for four in fours.by_ref() {
        let mask = four
            .iter()
            .enumerate()
            .fold(0, |m, (j, &g)| m | (usize::from(g != 0.0) << j));
        if let Some(slots) = columns.get_mut(count..count + 4) {
            for (slot, &j) in slots.iter_mut().zip(&PACKED[mask]) {
                *slot = base + j;
            }
        }
        count += mask.count_ones() as usize;
        base = base.wrapping_add(4); // rows of over u32::MAX labels are not ranked (`ranked_len`)
    }
    columns.truncate(count);
    gather_by_steps_from(fours.remainder(), base, columns);
}

/// [`gather_nonzero`] one label at a time, branch-free: every label is written, only relevant
/// ones advance the end (faster than a branch per label, and, without a one-instruction mask
/// and population count, than [`gather_by_masks`]).
#[inline(always)]
fn gather_by_steps(gains: &[f64], columns: &mut Vec<u32>) {
    columns.clear();
    gather_by_steps_from(gains, 0, columns);
}

/// Appends `first + j` for each non-zero `gains[j]` to `columns`.
#[inline(always)]
fn gather_by_steps_from(gains: &[f64], first: u32, columns: &mut Vec<u32>) {
    let mut count = columns.len();
    columns.resize(count + gains.len() + 1, 0);
    for (j, &g) in gains.iter().enumerate() {
        if let Some(slot) = columns.get_mut(count) {
            *slot = first.wrapping_add(j as u32);
        }
        count += usize::from(g != 0.0);
    }
    columns.truncate(count);
}

/// A row's f64 scores rounded to f32, for counting four to a vector where f64 goes two: the
/// rounding is monotone (s <= t gives f32(s) <= f32(t)), so a label above (below) a group in
/// f32 is above (below) it exactly. Only labels rounding onto the group's own f32 value are in
/// doubt; when they are just the group's members, the f32 counts are the exact counts, else the
/// group is counted again in f64. Rows where that keeps happening (ties with irrelevant labels)
/// stop being narrowed for a while: the counts are exact either way, only the time differs.
#[derive(Debug, Default, Clone)]
struct Narrowed {
    scores: Vec<f32>,
    /// Rows left before narrowing is tried again after a row where it did not pay.
    rest: u32,
    /// This row's groups counted again in f64, and counted in all.
    recounted: u32,
    counted: u32,
}

impl Narrowed {
    /// How many rows narrowing rests after a row where at least a quarter of its groups had
    /// to be counted again.
    const REST: u32 = 32;

    /// Narrows a row whose `groups` (at most) relevant tie groups are about to be counted,
    /// when that pays: f64 scores, two groups or more, and not resting. Some(row length).
    fn of<T: Score>(&mut self, scores: &[T], groups: usize) -> Option<usize> {
        if self.counted > 0 && 4 * self.recounted >= self.counted {
            self.rest = Self::REST;
        }
        (self.recounted, self.counted) = (0, 0);
        if self.rest > 0 {
            self.rest -= 1;
            return None;
        }
        if core::mem::size_of::<T>() <= 4 || groups < 2 {
            return None;
        }
        narrow_into(scores, &mut self.scores);
        Some(scores.len())
    }

    /// (labels above, labels equal) for the group scored `t` with `members` relevant labels,
    /// when the f32 counts are exact; None when the group must be counted in f64.
    fn count<T: Score>(&mut self, n: usize, t: T, members: usize) -> Option<(usize, usize)> {
        self.counted += 1;
        let (above, equal) = count_above_and_equal(&self.scores[..n], t.as_f64() as f32);
        if equal == members {
            return Some((above, equal));
        }
        self.recounted += 1;
        None
    }
}

crate::wide::wide! {
    /// `scores` rounded to f32, into `out` ([`Narrowed`]).
    fn narrow_into<T: Score>(scores: &[T], out: &mut Vec<f32>) -> () = narrow_into_body;
}

/// [`narrow_into`]'s loop.
#[inline(always)]
fn narrow_into_body<T: Score>(scores: &[T], out: &mut Vec<f32>) {
    out.clear();
    out.extend(scores.iter().map(|&s| s.as_f64() as f32));
}

/// The most relevant labels a row of `n` labels may have for [`Ranker::rank_relevant`] to
/// count rather than sort: counting costs about r·n comparisons, the sort about n·log2(n)
/// steps that each cost several comparisons (measured crossover: docs/performance.md).
fn counting_limit(n: usize) -> usize {
    let log2 = (usize::BITS - n.leading_zeros()) as usize;
    COUNTING_PER_LOG2 * log2
}

/// See [`counting_limit`].
const COUNTING_PER_LOG2: usize = 3;

/// Which path [`Ranker::rank_relevant`] takes: a switch for tests that compare the two.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KernelPath {
    /// By the row's relevant count (the default).
    Auto,
    /// Always sort.
    Full,
    /// Count whenever the policy and grouping allow it.
    Counting,
}

const FORCE_FULL: u8 = 1;
const FORCE_COUNTING: u8 = 2;
static KERNEL_PATH: AtomicU8 = AtomicU8::new(0);

/// Forces a path of [`Ranker::rank_relevant`] for the whole process (tests only: both paths
/// must give bitwise the same values).
#[doc(hidden)]
pub fn set_kernel_path(path: KernelPath) {
    let code = match path {
        KernelPath::Auto => 0,
        KernelPath::Full => FORCE_FULL,
        KernelPath::Counting => FORCE_COUNTING,
    };
    KERNEL_PATH.store(code, AtomicOrdering::Relaxed);
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

    /// Everything a metric reads of a ranked row, bit for bit.
    fn snapshot(row: &RankedRow<'_>) -> String {
        let blocks: Vec<_> = row
            .blocks()
            .iter()
            .map(|b| (b.start, b.len, b.relevant, b.gain.to_bits()))
            .collect();
        format!(
            "{blocks:?} {:?} {} {} {:?} {}",
            row.order(),
            row.n_labels(),
            row.n_relevant(),
            row.sharing(),
            row.covered()
        )
    }

    #[test]
    fn one_sort_ranked_under_every_policy_equals_a_fresh_ranking() {
        // Untied rows hand one assignment on across policies (`reassign`): it must be exactly
        // what a fresh ranking gives, also when a gain is -0.0 and after the counting path used
        // the same kernel; new gains take a new `assign`.
        let policies: Vec<TiePolicy> = TiePolicy::R_METHODS
            .into_iter()
            .chain([TiePolicy::Random(7)])
            .chain(TiePolicy::ANALYSIS)
            .collect();
        let untied = [0.3, 0.9, 0.1, 0.5, 0.7, 0.2];
        let tied = [0.3, 0.9, 0.3, 0.5, 0.9, 0.3];
        let mut shared = Ranker::new();
        for scores in [&untied[..], &tied[..], &[][..]] {
            let n = scores.len();
            let mut gains: Vec<f64> = (0..n).map(|j| [0.0, 1.0, 2.0][j % 3]).collect();
            shared.sort(scores, TieGrouping::Exact);
            for (k, &ties) in policies.iter().enumerate() {
                let new_gains = (k == 3 || k == 6) && n > 0;
                if k == 3 && n > 0 {
                    gains[0] = 1.0 - gains[0]; // same buffer, new content
                }
                if k == 6 && n > 0 {
                    gains[2] = -0.0;
                }
                let fresh = snapshot(&Ranker::new().rank(scores, &gains, Ranking::new(ties), 4));
                let row = match k == 0 || new_gains {
                    true => shared.assign(&gains, ties, 4),
                    false => shared.reassign(&gains, ties, 4),
                };
                assert_eq!(snapshot(&row), fresh, "{ties:?}");
            }
            // The counting path rewrites keys and blocks; a new sort then starts afresh.
            let ranking = Ranking::new(TiePolicy::Last);
            let _ = shared.rank_relevant(scores, &gains, ranking, 0);
            shared.sort(scores, TieGrouping::Exact);
            let fresh = snapshot(&Ranker::new().rank(scores, &gains, ranking, 0));
            assert_eq!(snapshot(&shared.assign(&gains, TiePolicy::Last, 0)), fresh);
        }
    }

    #[test]
    fn an_untied_row_is_one_block_per_label_under_every_policy() {
        let scores = [0.25, 0.75, -0.5, 0.0, 1.5];
        let gains = [1.0, -0.0, 0.0, 2.0, 0.0];
        let order = [4u32, 1, 0, 3, 2];
        for ties in TiePolicy::R_METHODS
            .into_iter()
            .chain(TiePolicy::ANALYSIS)
            .chain([TiePolicy::Random(1)])
        {
            let mut ranker = Ranker::new();
            let row = ranker.rank(&scores, &gains, Ranking::new(ties), 0);
            assert_eq!(row.order(), &order);
            for (i, (b, &j)) in row.blocks().iter().zip(&order).enumerate() {
                let g = gains[j as usize];
                // A shared block sums its members' gains from 0.0: -0.0 becomes 0.0.
                let gain = if ties.sharing().is_some() { 0.0 + g } else { g };
                assert_eq!((b.start, b.len, b.relevant), (i, 1, usize::from(g != 0.0)));
                assert_eq!(b.gain.to_bits(), gain.to_bits(), "{ties:?} block {i}");
            }
            let relevant: Vec<usize> = row.relevant_blocks().map(|b| b.start).collect();
            assert_eq!(relevant, [2, 3]);
        }
    }

    #[test]
    fn counted_groups_placed_again_equal_a_fresh_count() {
        let policies = [
            TiePolicy::Max,
            TiePolicy::First,
            TiePolicy::Last,
            TiePolicy::Optimistic,
            TiePolicy::Pessimistic,
            TiePolicy::Expected,
            TiePolicy::Random(5),
            TiePolicy::Min,
        ];
        let scores = [0.5, 0.9, 0.5, 0.1, 0.5, 0.9, 0.3];
        let gains = [1.0, 0.0, 2.0, 1.0, 0.0, 3.0, 0.0];
        let reaches = [
            Reach::All,
            Reach::Top(2),
            Reach::End(RelevantEnd::First),
            Reach::End(RelevantEnd::Last),
        ];
        for reach in reaches {
            let mut shared = Ranker::new();
            shared.gather(&gains);
            for (k, &ties) in policies.iter().enumerate() {
                let ranking = Ranking::new(ties);
                let mut fresh = Ranker::new();
                fresh.gather(&gains);
                let expected = snapshot(&fresh.rank_gathered(&scores, &gains, ranking, 3, reach));
                let row = match k {
                    0 => shared.rank_gathered(&scores, &gains, ranking, 3, reach),
                    _ => shared.rank_gathered_again(&scores, &gains, ranking, 3, reach),
                };
                assert_eq!(snapshot(&row), expected, "{reach:?} {ties:?}");
            }
        }
    }

    /// The counting path's f32 narrowing: scores that differ in f64 but round to one f32 (or
    /// to infinity, or to zero) are counted again exactly; the relevant blocks are the full
    /// ranking's, and the gathered columns are every non-zero gain's, on both gather paths.
    #[test]
    fn narrowed_counts_equal_the_full_ranking() {
        let near = 0.5 + f64::EPSILON;
        let set = [
            0.5,
            near,
            0.5 - 1e-12,
            1e300,
            2e300,
            -1e300,
            1e-310,
            0.0,
            -0.0,
            3.0,
            0.25,
        ];
        let policies = [
            TiePolicy::Max,
            TiePolicy::Min,
            TiePolicy::First,
            TiePolicy::Last,
        ];
        let (mut narrowed, mut recounted) = (0, 0);
        for row in 0..3000 {
            let mut rng = SplitMix64::for_row(7, row);
            let n = 2 + rng.below(40) as usize;
            let scores: Vec<f64> = (0..n)
                .map(|_| set[rng.below(set.len() as u64) as usize])
                .collect();
            let gains: Vec<f64> = (0..n)
                .map(|_| [0.0, 0.0, 0.0, 0.0, 1.0, 2.0][rng.below(6) as usize])
                .collect();
            let expected: Vec<u32> = (0..n as u32)
                .filter(|&j| gains[j as usize] != 0.0)
                .collect();
            let mut ranker = Ranker::new();
            for by_masks in [true, false] {
                let mut columns = vec![9; 3];
                match by_masks {
                    true => gather_by_masks(&gains, &mut columns),
                    false => gather_by_steps(&gains, &mut columns),
                }
                assert_eq!(columns, expected, "{gains:?}");
            }
            ranker.gather(&gains);
            for ties in policies {
                let ranking = Ranking::new(ties);
                let full = Ranker::new()
                    .rank(&scores, &gains, ranking, row)
                    .blocks()
                    .to_vec();
                let relevant: Vec<_> = full.iter().filter(|b| b.relevant > 0).copied().collect();
                let counted = ranker.rank_gathered(&scores, &gains, ranking, row, Reach::All);
                let counted: Vec<_> = counted.relevant_blocks().copied().collect();
                assert_eq!(counted, relevant, "{scores:?} {gains:?} {ties:?}");
            }
            // The f32 counts themselves, whichever path the row took above (another test may
            // force one, process-wide): exact whenever they are given.
            let mut narrow = Narrowed::default();
            let Some(len) = narrow.of(&scores, 2) else {
                continue;
            };
            for &j in &expected {
                let t = scores[j as usize];
                let members = expected
                    .iter()
                    .filter(|&&o| scores[o as usize] == t)
                    .count();
                match narrow.count(len, t, members) {
                    Some(counts) => {
                        assert_eq!(counts, count_above_and_equal(&scores, t), "{scores:?} {t}");
                        narrowed += 1;
                    }
                    None => recounted += 1,
                }
            }
        }
        // Both outcomes of the f32 count were exercised.
        assert!(
            narrowed > 1000 && recounted > 1000,
            "{narrowed} {recounted}"
        );
    }
}
