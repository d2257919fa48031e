//! The one ranking kernel: sort a row once, group its ties, let the policy assign ranks.
//!
//! Every metric reads a [`RankedRow`]; nothing else in the crate sorts scores or detects ties.
//!
//! This file holds what the rest of the crate calls: [`Ranking`], [`Block`], [`RankedRow`],
//! [`RelevantEnd`], the [`Ranker`] and its scratch space, `Reach`. The work is split by idea:
//! * `sort.rs`: a row's scores sorted and split into tie groups (`sort_few` for a handful).
//! * `assign.rs`: the tie groups ranked into blocks under a tie policy (`SplitMix64` draws
//!   [`TiePolicy::Random`]'s order).
//! * `counting.rs`: the counting path, which ranks a row's relevant labels without sorting it.
//! * `scan.rs`: the branch-free passes over a whole row that counting makes (the relevant
//!   columns gathered, the labels above and equal to a score counted).
//! * `intervals.rs`: the counting path for a long vector with many relevant labels: every
//!   relevant group counted in one pass over the vector.
//! * `narrow.rs`: those counts on scores narrowed to f32, where that is exact.
//! * `top.rs`: the top k of a row ranked without sorting the rest.
//! * `runs.rs`: a vector kept as runs (distinct scores with their items counted by class)
//!   ranked into the blocks its items would give.
//! * `path.rs`: whether a row is counted or sorted, and the switch tests use to force either.
//! * `testing.rs` (tests only): helpers the unit tests share.

mod assign;
mod counting;
mod intervals;
mod narrow;
mod path;
mod runs;
mod scan;
mod sort;
#[cfg(test)]
mod testing;
mod top;

pub(crate) use path::{counts, counts_in_one_pass, may_count};
pub use path::{set_kernel_path, KernelPath};
#[cfg(feature = "serde")]
pub(crate) use runs::check_ranked;
pub(crate) use runs::{merge_runs_into, pooled_runs, ScoreRun};
pub(crate) use top::selects_top;

use crate::score::Score;
use crate::ties::{RankSharing, TieGrouping, TiePolicy};
use assign::UntiedAssignment;
use counting::{CountedFor, CountedGroup};
use narrow::Narrowed;

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
    /// After counting (no [`order`](Self::order)): the columns of the relevant labels of the
    /// relevant blocks, block after block (in column order inside a shared block), for
    /// formulas that add their terms in column order.
    member_columns: Option<&'a [u32]>,
    /// The positions `0..covered` the blocks partition (or, after counting, whose relevant
    /// blocks they all are): all labels after [`Ranker::rank`], the top of the ranking after
    /// [`Ranker::rank_top`].
    covered: usize,
}

impl<'a> RankedRow<'a> {
    /// A counted ranking of `n_labels` items made of its relevant blocks alone (in rank order,
    /// `n_relevant` relevant items in all), as counting gives it: a long vector's relevant
    /// blocks gathered piece by piece, read as if the whole had been counted at once.
    pub(crate) fn of_relevant_blocks(
        blocks: &'a [Block], n_labels: usize, n_relevant: usize, sharing: Option<RankSharing>,
    ) -> Self {
        RankedRow {
            blocks,
            order: &[],
            gains: &[],
            n_labels,
            n_relevant,
            sharing,
            relevant_at: None,
            member_columns: None,
            covered: n_labels,
        }
    }

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

    /// After counting, the columns of the relevant labels of
    /// [`relevant_blocks`](Self::relevant_blocks), block after block (each block's
    /// `relevant` of them, in column order inside a block); `None` where the row has an
    /// [`order`](Self::order) to read them from, or after counting one end.
    pub(crate) fn relevant_columns(&self) -> Option<&'a [u32]> {
        self.member_columns
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
    /// The radix sort's second buffer (long rows), or [`sort_few`](sort::sort_few)'s.
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
    /// The counting path: the relevant labels' columns of the counted blocks, block after
    /// block ([`RankedRow::relevant_columns`]).
    member_columns: Vec<u32>,
    /// The counting path: one group's blocks under an ordering policy, with each one's
    /// column, before they are put in rank order.
    placed: Vec<(Block, u32)>,
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
    /// The counting path in one pass: where scores fall among the relevant groups.
    intervals: intervals::Intervals,
    /// What the counted groups were counted for, while they stand.
    counted_for: Option<CountedFor>,
    /// Whether long vectors are sorted on the rayon pool.
    #[cfg(feature = "rayon")]
    parallel_sort: bool,
    /// Set by [`assign`](Ranker::assign) on a sort without ties: its blocks and order serve
    /// every policy ([`reassign`](Ranker::reassign)) until the row is sorted again.
    untied: UntiedAssignment,
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
        &'a mut self, scores: &[T], gains: &'a [f64], ranking: Ranking, row: usize,
    ) -> RankedRow<'a> {
        self.sort(&scores[..scores.len().min(gains.len())], ranking.grouping);
        self.assign(gains, ranking.ties, row)
    }

    /// Forgets what later policies could reuse (the untied assignment, the counted groups):
    /// the sort, keys or blocks are about to change.
    #[inline]
    fn forget_assignment(&mut self) {
        self.untied.valid = false;
        self.counted_for = None;
    }
}

/// How much of a row [`Ranker::rank_gathered`] ranks: what the metric reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// Every relevant block ([`crate::metric::RowMetric::reads_only_relevant_blocks`]).
    All,
    /// One end's relevant block ([`crate::metric::RowMetric::reads_one_relevant_block`]).
    End(RelevantEnd),
    /// The relevant blocks that start above position k ([`crate::metric::RowMetric::top_k`] of a
    /// metric that reads only relevant blocks).
    Top(usize),
}
