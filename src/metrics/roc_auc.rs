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
        let sums = AucSums::counted(v, row).unwrap_or_else(|| {
            let mut sums = AucSums::default();
            sums.add(v, row);
            sums
        });
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
}

impl AucSums {
    /// Adds the blocks of `row`, which follow every block added before.
    fn add<T>(&mut self, v: &Vector<'_, T>, row: &RankedRow<'_>) {
        let tie_credit = 1.0 - row.tied_pair_error();
        for b in row.blocks() {
            let (p, n) = v.class_weights(row, b);
            self.credit += n * self.relevant_weight + tie_credit * p * n;
            self.relevant_weight += p;
            self.irrelevant_weight += n;
        }
        self.relevant += row.n_relevant();
        self.items += row.n_labels();
    }

    /// The sums of one unweighted, complete ranking from its relevant blocks alone: each
    /// relevant block's pairs with the irrelevant labels below it and inside it. Every term
    /// and partial sum of [`add`](Self::add) is then an integer or a half-integer below 2^52,
    /// hence exact, so this exact count has the same bits. `None` where that does not hold
    /// (weights, a partial ranking, too many pairs).
    fn counted<T>(v: &Vector<'_, T>, row: &RankedRow<'_>) -> Option<AucSums> {
        let tie_credit = 1.0 - row.tied_pair_error();
        let (relevant, items) = (row.n_relevant(), row.n_labels());
        let irrelevant = items.checked_sub(relevant)?;
        let exact = (relevant as f64) * (irrelevant as f64) < 2f64.powi(51);
        if !v.weights.is_unit()
            || !row.complete_with_relevant_list()
            || !exact
            || ![0.0, 0.5, 1.0].contains(&tie_credit)
        {
            return None;
        }
        // Pairs with an irrelevant label below, and pairs inside a block.
        let (mut below, mut inside, mut relevant_above) = (0u64, 0u64, 0usize);
        for b in row.relevant_blocks() {
            let irrelevant_in = (b.len - b.relevant) as u64;
            let irrelevant_above = b.start.checked_sub(relevant_above)? as u64;
            let irrelevant_below =
                (irrelevant as u64).checked_sub(irrelevant_above + irrelevant_in)?;
            below += b.relevant as u64 * irrelevant_below;
            inside += b.relevant as u64 * irrelevant_in;
            relevant_above += b.relevant;
        }
        Some(AucSums {
            credit: below as f64 + tie_credit * inside as f64,
            relevant_weight: relevant as f64,
            irrelevant_weight: irrelevant as f64,
            relevant,
            items,
        })
    }

    /// The AUC, `None` for a single-class vector; `direction(pairs, credit)` gives the credit
    /// read in the metric's direction.
    fn value(&self, direction: impl FnOnce(f64, f64) -> f64) -> Option<f64> {
        if self.relevant == 0 || self.relevant == self.items {
            return None;
        }
        let pairs = self.relevant_weight * self.irrelevant_weight;
        Some(direction(pairs, self.credit) / pairs)
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
        let mut state = 0x5EED_u64;
        let mut draw = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
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
}
