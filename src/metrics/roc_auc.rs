//! Area under the ROC curve, label-wise, pooled or per sample.

use crate::labelwise::{labelwise_builders, LabelwiseOptions, Vector, VectorMetric};
use crate::{Average, Block, RankedRow, Score, TiePolicy};

/// Which way round the AUC is read.
///
/// # Example
/// ```
/// use rankmetrics::{Average, Direction, RocAuc, RankingMetric, TiePolicy};
/// let (y, s) = ([[1], [1], [0], [0]], [[0.1], [0.2], [0.8], [0.9]]);
/// let auc = RocAuc::new(Average::Macro, TiePolicy::Average);
/// assert_eq!(auc.evaluate(&y, &s, None).unwrap(), 0.0);
/// assert_eq!(auc.with_direction(Direction::Auto).evaluate(&y, &s, None).unwrap(), 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Direction {
    /// Relevant labels should score higher (scikit-learn, MULAN).
    Fixed,
    /// pROC's `direction = "auto"` (mldr): when the median score of the irrelevant items
    /// exceeds that of the relevant ones, the AUC is read the other way round,
    /// P(irrelevant > relevant) + ½·P(tie).
    Auto,
}

/// ROC AUC as the (weighted) Mann–Whitney statistic of each vector:
///
/// ```text
/// AUC = Σ_{i relevant, j irrelevant} wᵢ wⱼ [1(i ranked above j) + c·1(i tied with j)] / (W₊ W₋)
/// ```
///
/// with c = ½ under [`TiePolicy::Average`] (every toolkit), 0 under `Max` (pessimistic), 1
/// under `Min` (optimistic); under `First`/`Last`/`Random` no pair ties and the kernel's order
/// (row order inside a column) decides. A vector with a single class is undefined
/// ([`Undefined`](crate::Undefined)).
///
/// # Example
/// ```
/// use rankmetrics::{Average, RocAuc, RankingMetric, TiePolicy};
/// let (y, s) = ([[1, 0], [0, 1], [1, 1], [0, 0]], [[0.8, 0.5], [0.8, 0.9], [0.3, 0.5], [0.1, 0.2]]);
/// let auc = RocAuc::new(Average::Macro, TiePolicy::Average);
/// // Column 0: pairs (0.8 vs 0.8) tie, 0.8 > 0.1, 0.3 < 0.8, 0.3 > 0.1 -> 2.5/4.
/// // Column 1: 0.9 and 0.5 against 0.5 and 0.2 -> 3.5/4.
/// assert_eq!(auc.evaluate(&y, &s, None).unwrap(), 0.75);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias(
    "roc_auc_score",
    "auc",
    "AUC",
    "macro_auc",
    "micro_auc",
    "example_auc",
    "MacroAUC",
    "MicroAUC"
))]
pub struct RocAuc {
    options: LabelwiseOptions,
    direction: Direction,
}

impl RocAuc {
    /// ROC AUC averaged by `average`, ties ranked by `ties`, fixed direction.
    pub const fn new(average: Average, ties: TiePolicy) -> Self {
        RocAuc {
            options: LabelwiseOptions::new(average, ties),
            direction: Direction::Fixed,
        }
    }

    /// The same metric read in another direction.
    ///
    /// ```
    /// use rankmetrics::{Average, Direction, RocAuc, TiePolicy};
    /// let m = RocAuc::new(Average::Macro, TiePolicy::Average).with_direction(Direction::Auto);
    /// assert_eq!(m.direction(), Direction::Auto);
    /// ```
    pub const fn with_direction(mut self, direction: Direction) -> Self {
        self.direction = direction;
        self
    }

    /// The direction.
    ///
    /// ```
    /// use rankmetrics::{Average, Direction, RocAuc, TiePolicy};
    /// assert_eq!(RocAuc::new(Average::Macro, TiePolicy::Average).direction(), Direction::Fixed);
    /// ```
    pub const fn direction(&self) -> Direction {
        self.direction
    }
}

labelwise_builders!(RocAuc);

impl VectorMetric for RocAuc {
    fn options(&self) -> LabelwiseOptions {
        self.options
    }

    fn vector_value<T: Score>(&self, v: &Vector<'_, T>, row: &RankedRow<'_>) -> Option<f64> {
        let mut sums = AucSums::for_items(row.n_labels(), v.weights.is_unit());
        sums.add(v, row);
        let flip = |pairs: f64, credit: f64| match self.direction {
            Direction::Auto if class_median(v, row, false) > class_median(v, row, true) => {
                pairs - credit
            }
            _ => credit,
        };
        sums.value(flip)
    }

    fn reads_pieces(&self) -> bool {
        // pROC's automatic direction compares class medians: it needs the whole ranking.
        self.direction == Direction::Fixed
    }

    fn add_piece<T: Score>(&self, sums: &mut AucSums, v: &Vector<'_, T>, row: &RankedRow<'_>) {
        sums.add(v, row);
    }

    fn pieces_value(&self, sums: &AucSums) -> Option<f64> {
        sums.value(|_, credit| credit)
    }
}

/// The Mann–Whitney sums of a ranking read block by block in rank order, in one piece or in
/// consecutive pieces (a long pooled vector is ranked a piece at a time).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct AucSums {
    /// Σ over relevant/irrelevant pairs of the pair's credit (weighted).
    credit: f64,
    relevant_weight: f64,
    irrelevant_weight: f64,
    relevant: usize,
    items: usize,
    /// Unweighted rankings of few enough items are counted exactly instead ([`PairCounts`]).
    counts: Option<PairCounts>,
}

/// The pairs of an unweighted ranking, counted in integers from its relevant blocks alone:
/// each relevant block's relevant items times the irrelevant items above it and inside it.
/// With at most 2^26 items every term and partial sum of the block-by-block float sums is an
/// integer or a half-integer below 2^51, hence exact: the counts give the same bits, without
/// visiting the irrelevant blocks.
#[derive(Debug, Clone, Copy, Default)]
struct PairCounts {
    /// Σ over relevant blocks of relevant × (irrelevant above + irrelevant inside).
    above_or_inside: u128,
    /// Σ over relevant blocks of relevant × irrelevant inside.
    inside: u128,
    relevant: u128,
    irrelevant: u128,
    /// 1 − the tied-pair error: 1, ½ or 0.
    tie_credit: f64,
}

/// The most items [`PairCounts`] counts exactly.
const MAX_COUNTED_ITEMS: usize = 1 << 26;

impl AucSums {
    /// Sums for a ranking of `items` items, counted exactly when `unweighted` and few enough.
    pub(crate) fn for_items(items: usize, unweighted: bool) -> AucSums {
        AucSums {
            counts: (unweighted && items <= MAX_COUNTED_ITEMS).then(PairCounts::default),
            ..AucSums::default()
        }
    }

    /// Adds the blocks of `row`, which follow every block added before. Sums made by
    /// [`for_items`](Self::for_items) to count exactly take unweighted vectors only: the
    /// choice is made once, there, so that no ranking is summed half one way, half the other.
    fn add<T>(&mut self, v: &Vector<'_, T>, row: &RankedRow<'_>) {
        let tie_credit = 1.0 - row.tied_pair_error();
        self.relevant += row.n_relevant();
        self.items += row.n_labels();
        if let Some(counts) = self.counts.as_mut() {
            debug_assert!(
                v.weights.is_unit(),
                "exact pair counts of a weighted vector"
            );
            counts.tie_credit = tie_credit;
            let mut relevant_above = 0;
            for b in row.relevant_blocks() {
                let inside = (b.len - b.relevant) as u128;
                let above = counts.irrelevant + b.start.saturating_sub(relevant_above) as u128;
                counts.above_or_inside += b.relevant as u128 * (above + inside);
                counts.inside += b.relevant as u128 * inside;
                relevant_above += b.relevant;
            }
            counts.relevant += row.n_relevant() as u128;
            counts.irrelevant += row.n_labels().saturating_sub(row.n_relevant()) as u128;
            return;
        }
        for b in row.blocks() {
            let (p, n) = v.class_weights(row, b);
            self.credit += n * self.relevant_weight + tie_credit * p * n;
            self.relevant_weight += p;
            self.irrelevant_weight += n;
        }
    }

    /// The (credit, relevant weight, irrelevant weight) of the ranking added.
    fn totals(&self) -> (f64, f64, f64) {
        match self.counts {
            Some(c) => {
                // Pairs with the irrelevant item below, then the tied pairs' credit.
                let below = c.relevant * c.irrelevant - c.above_or_inside;
                let credit = below as f64 + c.tie_credit * c.inside as f64;
                (credit, c.relevant as f64, c.irrelevant as f64)
            }
            None => (self.credit, self.relevant_weight, self.irrelevant_weight),
        }
    }

    /// The AUC, `None` for a single-class vector; `direction(pairs, credit)` gives the credit
    /// read in the metric's direction.
    fn value(&self, direction: impl FnOnce(f64, f64) -> f64) -> Option<f64> {
        if self.relevant == 0 || self.relevant == self.items {
            return None;
        }
        let (credit, relevant_weight, irrelevant_weight) = self.totals();
        let pairs = relevant_weight * irrelevant_weight;
        Some(direction(pairs, credit) / pairs)
    }
}

/// The median score of the relevant (or irrelevant) items, read off the ranked order (R's
/// `median`: the mean of the two middle values for an even count). The blocks, read in order,
/// say how many of a class each holds, so only the block holding a middle item is looked into
/// (on a long pooled vector, looking up every item's label would miss the cache at each).
fn class_median<T: Score>(v: &Vector<'_, T>, row: &RankedRow<'_>, relevant: bool) -> f64 {
    let score = |j: u32| v.scores.get(j as usize).map_or(f64::NAN, |s| s.as_f64());
    let of_class = |b: &Block| match relevant {
        true => b.relevant,
        false => b.len - b.relevant,
    };
    let count: usize = row.blocks().iter().map(of_class).sum();
    if count == 0 {
        return f64::NAN;
    }
    // The class's k-th item (from 0) in ranked order.
    let nth = |k: usize| {
        let mut before = 0;
        for b in row.blocks() {
            let here = of_class(b);
            if k < before + here {
                let members = row.order().get(b.start..b.start + b.len).unwrap_or(&[]);
                let mut in_class = members
                    .iter()
                    .filter(|&&j| v.labels.get(j as usize).is_some_and(|&y| y != 0.0) == relevant);
                return in_class.nth(k - before).map_or(f64::NAN, |&j| score(j));
            }
            before += here;
        }
        f64::NAN
    };
    let lower = nth((count - 1) / 2);
    let upper = if count % 2 == 0 {
        nth(count / 2)
    } else {
        lower
    };
    // Halving first cannot overflow at ±1e308; each half is exact.
    lower * 0.5 + upper * 0.5
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labelwise::Weights;
    use crate::{Ranker, Ranking, TieGrouping};

    /// Reproducible draws from `0..n` (a linear congruential generator).
    fn draws(mut state: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        }
    }

    /// The median read straight off the ranked order: every item's label looked up.
    fn median_by_order(v: &Vector<'_, f64>, row: &RankedRow<'_>, relevant: bool) -> f64 {
        let members: Vec<f64> = row
            .order()
            .iter()
            .filter(|&&j| (v.labels[j as usize] != 0.0) == relevant)
            .map(|&j| v.scores[j as usize])
            .collect();
        match members.len() {
            0 => f64::NAN,
            c => members[(c - 1) / 2] * 0.5 + members[c / 2] * 0.5,
        }
    }

    #[test]
    fn class_median_by_blocks_is_the_median_of_the_ranked_order() {
        let mut draw = draws(0x5EED);
        let groupings = [TieGrouping::Exact, TieGrouping::Within(0.3)];
        for case in 0..400 {
            let len = 1 + draw(12) as usize;
            let scores: Vec<f64> = (0..len).map(|_| draw(5) as f64 / 4.0).collect();
            let labels: Vec<f64> = (0..len).map(|_| draw(3) as f64 / 2.0).collect();
            let v = Vector {
                scores: &scores,
                labels: &labels,
                weights: Weights::Unit,
            };
            for ties in TiePolicy::R_METHODS.into_iter().chain(TiePolicy::ANALYSIS) {
                let ranking = Ranking::new(ties).with_grouping(groupings[case % 2]);
                let mut ranker = Ranker::new();
                let row = ranker.rank(&scores, &labels, ranking, case);
                for relevant in [false, true] {
                    let (a, b) = (
                        class_median(&v, &row, relevant),
                        median_by_order(&v, &row, relevant),
                    );
                    assert!(
                        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                        "{scores:?} {labels:?} {ties:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn exact_pair_counts_equal_the_block_by_block_sums() {
        let mut draw = draws(0xC0FFEE);
        for case in 0..300 {
            // Two pieces: every score of the first above every score of the second.
            let pieces: Vec<(Vec<f64>, Vec<f64>)> = (0..2)
                .map(|piece| {
                    let len = draw(15) as usize;
                    let scores = (0..len)
                        .map(|_| (draw(4) + 10 * (1 - piece)) as f64)
                        .collect();
                    let labels = (0..len).map(|_| draw(3) as f64).collect();
                    (scores, labels)
                })
                .collect();
            for ties in TiePolicy::R_METHODS.into_iter().chain(TiePolicy::ANALYSIS) {
                let ranking = Ranking::new(ties);
                let items = pieces.iter().map(|p| p.0.len()).sum();
                let (mut counted, mut summed) =
                    (AucSums::for_items(items, true), AucSums::default());
                for (scores, labels) in &pieces {
                    let v = Vector {
                        scores,
                        labels,
                        weights: Weights::Unit,
                    };
                    let mut ranker = Ranker::new();
                    let row = ranker.rank(scores, labels, ranking, case);
                    counted.add(&v, &row);
                    summed.add(&v, &row);
                }
                let bits = |s: &AucSums| s.value(|pairs, credit| pairs - credit).map(f64::to_bits);
                assert_eq!(bits(&counted), bits(&summed), "{pieces:?} {ties:?}");
                assert_eq!(counted.totals().0.to_bits(), summed.totals().0.to_bits());
            }
        }
    }
}
