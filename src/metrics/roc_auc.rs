//! Area under the ROC curve, label-wise, pooled or per sample.

use crate::kernel::{Block, RankedRow};
use crate::labelwise::medians::{kth_best, median_of, median_of_middles, ClassMedians};
use crate::labelwise::micro::fold::PieceSums;
use crate::labelwise::pairs::{AucSums, MAX_COUNTED_ITEMS};
use crate::labelwise::vector::Vector;
use crate::labelwise::vector_metric::VectorMetric;
use crate::labelwise::{labelwise_builders, Average, LabelwiseOptions, AUTO_DIRECTION_ENDS};
use crate::score::Score;
use crate::ties::TiePolicy;

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

    fn ends_unproven(&self, _items_weighted: bool) -> Option<&'static str> {
        (self.direction == Direction::Auto).then_some(AUTO_DIRECTION_ENDS)
    }

    fn vector_value<T: Score>(&self, v: &Vector<'_, T>, row: &RankedRow<'_>) -> Option<f64> {
        let mut sums = AucSums::for_items(row.n_labels(), v.weights.is_unit());
        sums.add(v, row);
        self.value_of(&sums, || controls_above_cases(v, row))
    }

    fn reads_only_relevant_blocks(&self, weighted: bool, items: usize) -> bool {
        // Unweighted pairs are counted from the relevant blocks alone (`AucSums`); pROC's
        // automatic direction compares class medians, which a counted vector finds by
        // selection and counting among its scores (`controls_above_cases`).
        !weighted && items <= MAX_COUNTED_ITEMS
    }

    fn reads_scores(&self) -> bool {
        // pROC's automatic direction compares the classes' median scores.
        self.direction == Direction::Auto
    }

    fn reads_pieces(&self, _weighted: bool) -> bool {
        // The pair sums add up piece by piece; pROC's automatic direction compares the
        // pool's class medians, which the pieces give too.
        true
    }

    fn piece_sums(&self, items: usize, weighted: bool) -> PieceSums {
        PieceSums::Pairs(AucSums::for_items(items, !weighted))
    }

    fn pieces_value(&self, sums: &PieceSums, medians: Option<ClassMedians>) -> Option<f64> {
        let PieceSums::Pairs(sums) = sums else {
            return None;
        };
        self.value_of(sums, || {
            debug_assert!(
                medians.is_some(),
                "pROC's direction without the class medians"
            );
            medians.is_some_and(|m| m.controls > m.cases)
        })
    }
}

impl RocAuc {
    /// The AUC of `sums`, read the other way round under [`Direction::Auto`] when
    /// `controls_above_cases` says the controls' median is above the cases'.
    fn value_of(&self, sums: &AucSums, controls_above_cases: impl FnOnce() -> bool) -> Option<f64> {
        sums.value(|pairs, credit| match self.direction {
            // Asked only here: the medians cost a selection.
            Direction::Auto if controls_above_cases() => pairs - credit,
            _ => credit,
        })
    }
}

/// pROC's automatic direction: whether the median score of the controls (irrelevant items)
/// is above that of the cases (relevant items), R's `median` for each (the mean of the two
/// middle values for an even count). Read off the ranked order where the row has one. A
/// counted row has none: the cases' median is selected among a copy of their scores (O(r)),
/// and the controls' is placed against it by one count, selected among a copy of theirs (O(n))
/// only where a middle control might equal it. A counted row groups ties exactly, so both give
/// the ranked order's answer: equal scores (or -0.0 beside 0.0) have equal values.
fn controls_above_cases<T: Score>(v: &Vector<'_, T>, row: &RankedRow<'_>) -> bool {
    if !row.order().is_empty() {
        return class_median_by_blocks(v, row, false) > class_median_by_blocks(v, row, true);
    }
    counted_controls_above_cases(v)
}

/// [`controls_above_cases`] without a ranked order.
fn counted_controls_above_cases<T: Score>(v: &Vector<'_, T>) -> bool {
    let cases = class_median_by_selection(v, true);
    match controls_beside(v, cases) {
        Some(above) => above,
        None => class_median_by_selection(v, false) > cases,
    }
}

/// Whether the controls' median is above `cases` (the cases' median), when counting the
/// controls above, at and below it decides: both middle controls strictly above it, or both
/// strictly below. `None` where a middle control may equal it (or a score is NaN).
fn controls_beside<T: Score>(v: &Vector<'_, T>, cases: f64) -> Option<bool> {
    let (mut above, mut equal, mut below, mut count) = (0usize, 0usize, 0usize, 0usize);
    for (&s, &y) in v.scores.iter().zip(v.labels) {
        let control = usize::from(y == 0.0);
        let s = s.as_f64();
        above += control & usize::from(s > cases);
        equal += control & usize::from(s == cases);
        below += control & usize::from(s < cases);
        count += control;
    }
    if count == 0 || cases.is_nan() {
        // A NaN median compares false: pROC keeps the direction.
        return Some(false);
    }
    if above + equal + below != count {
        return None;
    }
    // The middle controls, best first, are the ((count - 1) / 2)-th and the (count / 2)-th.
    match (count / 2 < above, (count - 1) / 2 >= above + equal) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    }
}

/// The median score of the relevant (or irrelevant) items of a counted vector (R's
/// `median`): the class's scores copied, then the middle one(s) selected in O(n), best first
/// as the ranking orders them.
fn class_median_by_selection<T: Score>(v: &Vector<'_, T>, relevant: bool) -> f64 {
    let in_class = |(_, &y): &(&T, &f64)| (y != 0.0) == relevant;
    let mut class: Vec<T> = v
        .scores
        .iter()
        .zip(v.labels)
        .filter(in_class)
        .map(|(&s, _)| s)
        .collect();
    let count = class.len();
    let even = count % 2 == 0;
    match kth_best(&mut class, count.saturating_sub(1) / 2, even) {
        None => f64::NAN,
        Some((lower, upper)) => median_of_middles(lower.as_f64(), upper.map(T::as_f64), even),
    }
}

/// The median score of the relevant (or irrelevant) items of a ranked row (R's `median`). The
/// blocks, read in order, say how many of a class each holds, so only the block holding a
/// middle item is looked into (on a long pooled vector, looking up every item's label would
/// miss the cache at each).
fn class_median_by_blocks<T: Score>(v: &Vector<'_, T>, row: &RankedRow<'_>, relevant: bool) -> f64 {
    let score = |j: u32| v.scores.get(j as usize).map_or(f64::NAN, |s| s.as_f64());
    let of_class = |b: &Block| match relevant {
        true => b.relevant,
        false => b.len - b.relevant,
    };
    let count: usize = row.blocks().iter().map(of_class).sum();
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
    median_of(count, nth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{Ranker, Ranking};
    use crate::labelwise::medians::mean_of_two;
    use crate::labelwise::pairs::tests::draws;
    use crate::labelwise::vector::Weights;
    use crate::ties::TieGrouping;

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
            c if c % 2 == 1 => members[c / 2],
            c => mean_of_two(members[c / 2 - 1], members[c / 2]),
        }
    }

    #[test]
    fn mean_of_two_is_the_correctly_rounded_midpoint() {
        let tiny = f64::from_bits(1);
        let cases = [
            (0.0, tiny, 0.0),
            (tiny, tiny, tiny),
            (-tiny, 0.0, -0.0),
            (f64::MAX, f64::MAX, f64::MAX),
            (f64::MAX, -f64::MAX, 0.0),
            (1.0, 2.0, 1.5),
            (0.1, 0.2, 0.15000000000000002),
        ];
        for (a, b, want) in cases {
            assert_eq!(mean_of_two(a, b).to_bits(), want.to_bits(), "{a:e} {b:e}");
            assert_eq!(mean_of_two(b, a).to_bits(), want.to_bits(), "{a:e} {b:e}");
        }
        // Multiples of the smallest subnormal up to twice the smallest normal: the midpoint
        // (i + j) / 2 in units of 2⁻¹⁰⁷⁴, rounded half to even, in integers.
        let around = |k: u64| {
            [
                k,
                k + 1,
                (1 << 52) - 1 - k,
                (1 << 52) + k,
                (1 << 53) - 1 - k,
            ]
        };
        for i in (0..40).flat_map(around) {
            for j in (0..40).flat_map(around) {
                let (sum, unit) = (i + j, |k: u64| f64::from_bits(k));
                let half = sum / 2 + u64::from(sum % 2 == 1 && (sum / 2) % 2 == 1);
                assert_eq!(mean_of_two(unit(i), unit(j)), unit(half), "{i} {j}");
            }
        }
        // Where both halves are exact, a/2 + b/2 rounds the midpoint once: the reference.
        let mut draw = draws(0xA11CE);
        for _ in 0..20_000 {
            let mut bits = || f64::from_bits((draw(1 << 32) << 32) | draw(1 << 32));
            let (a, b) = (bits(), bits());
            let exact = |x: f64| x.is_finite() && (x * 0.5) * 2.0 == x;
            if exact(a) && exact(b) {
                let (got, want) = (mean_of_two(a, b), a * 0.5 + b * 0.5);
                assert_eq!(got.to_bits(), want.to_bits(), "{a:e} {b:e}");
            }
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
                        class_median_by_blocks(&v, &row, relevant),
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
    fn medians_and_direction_of_a_counted_vector_are_the_ranked_orders() {
        // Ties, -0.0 beside 0.0, subnormals and extremes: the selected median has the value of
        // the ranked order's (-0.0 and 0.0 compare equal, as pROC's `>` compares them).
        let mut draw = draws(0x5E1EC7);
        let edges = [
            0.0,
            -0.0,
            5e-324,
            -5e-324,
            f64::MAX,
            f64::MIN,
            1e308,
            -1e308,
        ];
        let mut decided = 0;
        for case in 0..2000 {
            let len = 1 + draw(30) as usize;
            let scores: Vec<f64> = (0..len)
                .map(|_| match draw(4) {
                    0 => edges[draw(edges.len() as u64) as usize],
                    _ => draw(7) as f64 / 4.0 - 0.75,
                })
                .collect();
            let labels: Vec<f64> = (0..len)
                .map(|_| [0.0, 1.0, -0.0, 2.0][draw(4) as usize])
                .collect();
            let v = Vector {
                scores: &scores,
                labels: &labels,
                weights: Weights::Unit,
            };
            let mut ranker = Ranker::new();
            let row = ranker.rank(&scores, &labels, Ranking::new(TiePolicy::Average), case);
            for relevant in [false, true] {
                let (a, b) = (
                    class_median_by_selection(&v, relevant),
                    median_by_order(&v, &row, relevant),
                );
                assert!(
                    a == b || (a.is_nan() && b.is_nan()),
                    "{scores:?} {labels:?}"
                );
            }
            // The direction by counting the controls against the cases' median (selecting
            // theirs only where that cannot decide) is the ranked order's.
            let ranked = median_by_order(&v, &row, false) > median_by_order(&v, &row, true);
            assert_eq!(
                counted_controls_above_cases(&v),
                ranked,
                "{scores:?} {labels:?}"
            );
            decided +=
                usize::from(controls_beside(&v, class_median_by_selection(&v, true)).is_some());
        }
        // Both ways of deciding were taken.
        assert!((500..1900).contains(&decided), "{decided}");
    }

    #[test]
    fn automatic_direction_counted_equals_sorted_bitwise() {
        use crate::kernel::{set_kernel_path, KernelPath};
        use crate::matrix::RowMajor;
        use crate::metric::RankingMetric;
        use crate::Average;
        // Columns long enough for the one-pass count and short ones counted group by group;
        // labels where the irrelevant class scores higher (pROC flips) and lower; heavy ties.
        let (n, l) = (1500, 12);
        let mut draw = draws(0xD1EC);
        let y: Vec<f64> = (0..n * l).map(|_| (draw(4) == 0) as u8 as f64).collect();
        let s: Vec<f64> = (0..n * l)
            .map(|k| {
                let flipped = (k % l) % 2 == 0;
                let raised = (y[k] != 0.0) != flipped;
                let spread = [3, 40, 1 << 30][(k % l) % 3];
                draw(spread) as f64 / spread as f64 + f64::from(u8::from(raised)) * 0.3
            })
            .collect();
        let (yy, ss) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        let policies = TiePolicy::R_METHODS.into_iter().chain(TiePolicy::ANALYSIS);
        for ties in policies.filter(|t| !matches!(t, TiePolicy::Random(_))) {
            for average in [Average::Macro, Average::Micro] {
                let auc = RocAuc::new(average, ties).with_direction(Direction::Auto);
                let value = |path| {
                    set_kernel_path(path);
                    let v = auc.evaluate(&yy, &ss, None).map(f64::to_bits);
                    set_kernel_path(KernelPath::Auto);
                    v
                };
                let full = value(KernelPath::Full);
                assert_eq!(value(KernelPath::Counting), full, "{ties:?} {average:?}");
                assert_eq!(value(KernelPath::Auto), full, "{ties:?} {average:?}");
            }
        }
    }
}
