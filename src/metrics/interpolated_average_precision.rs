//! Average interpolated precision of each label at fixed recall levels.

use crate::labelwise::micro::fold::{BlocksFold, FoldedBlocks, PieceSums};
use crate::labelwise::{
    labelwise_builders, LabelwiseOptions, Vector, VectorMetric, INTERPOLATED_EXPECTED,
    WEIGHTED_PRECISION_ENDS,
};
use crate::metrics::label_average_precision::{precision_recall_steps, PrStep};
use crate::{Average, RankedRow, Score, TiePolicy};
use core::cmp::Ordering::Less;

/// The most recall levels accepted: far beyond any use, and it keeps a vector's work bounded.
const MAX_LEVELS: usize = 1 << 20;

/// Average interpolated precision over `levels` recall levels 0, 1/(levels−1), …, 1: at each
/// level, the highest precision at or below the first position whose recall reaches the level
/// (MULAN's `MeanAverageInterpolatedPrecision`, 10 levels in its `Evaluator`).
///
/// ```text
/// AiP = (1/levels) Σ_k max_{t ≥ first t with R(t) ≥ k/(levels−1)} P(t)
/// ```
///
/// Positions are the kernel's blocks (MULAN: [`TiePolicy::First`], tied instances in row
/// order); the levels are summed left to right, as `Utils.mean` does. A vector without a
/// relevant item is undefined. Fewer than 2 levels give [`Error::TooFewRecallLevels`].
///
/// # Example
/// ```
/// use rankmetrics::{Average, InterpolatedAveragePrecision, RankingMetric, TiePolicy};
/// let (y, s) = ([[0], [1]], [[0.9], [0.1]]);
/// let m = InterpolatedAveragePrecision::new(Average::Macro, TiePolicy::First, 2);
/// assert_eq!(m.evaluate(&y, &s, None).unwrap(), 0.5); // both levels: precision 1/2
/// ```
///
/// [`Error::TooFewRecallLevels`]: crate::Error::TooFewRecallLevels
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias(
    "MeanAverageInterpolatedPrecision",
    "MicroAverageInterpolatedPrecision",
    "interpolated_precision"
))]
pub struct InterpolatedAveragePrecision {
    options: LabelwiseOptions,
    levels: usize,
}

impl InterpolatedAveragePrecision {
    /// Interpolated AP over `levels` recall levels, averaged by `average`, ties by `ties`.
    pub const fn new(average: Average, ties: TiePolicy, levels: usize) -> Self {
        InterpolatedAveragePrecision {
            options: LabelwiseOptions::new(average, ties),
            levels,
        }
    }

    /// The number of recall levels.
    ///
    /// ```
    /// use rankmetrics::{Average, InterpolatedAveragePrecision, TiePolicy};
    /// assert_eq!(InterpolatedAveragePrecision::new(Average::Macro, TiePolicy::First, 10).levels(), 10);
    /// ```
    pub const fn levels(&self) -> usize {
        self.levels
    }
}

labelwise_builders!(
    InterpolatedAveragePrecision,
    "Average::Macro, TiePolicy::Max, 10"
);

impl VectorMetric for InterpolatedAveragePrecision {
    fn options(&self) -> LabelwiseOptions {
        self.options
    }

    fn ends_unproven(&self, items_weighted: bool) -> Option<&'static str> {
        items_weighted.then_some(WEIGHTED_PRECISION_ENDS)
    }

    fn expected_missing(&self, _items_weighted: bool) -> Option<&'static str> {
        Some(INTERPOLATED_EXPECTED)
    }

    fn check(&self, _weighted: bool) -> Result<(), crate::Error> {
        if self.levels < 2 {
            return Err(crate::Error::TooFewRecallLevels { found: self.levels });
        }
        if self.levels > MAX_LEVELS {
            return Err(crate::Error::TooManyRecallLevels {
                found: self.levels,
                max: MAX_LEVELS,
            });
        }
        if self.options.ranking.ties == TiePolicy::Expected {
            return Err(crate::Error::UnsupportedPolicy {
                policy: TiePolicy::Expected,
                reason: INTERPOLATED_EXPECTED,
            });
        }
        Ok(())
    }

    fn reads_only_relevant_blocks(&self, weighted: bool, _items: usize) -> bool {
        // Unweighted, the steps alone give the maxima (`vector_value`); weighted, a precision
        // reads the weight of every block above its step.
        !weighted
    }

    fn reads_pieces(&self, weighted: bool) -> bool {
        // As for average precision: the pieces give the relevant blocks placed in the whole
        // ranking, which is all the unweighted value reads.
        !weighted
    }

    fn piece_sums(&self, items: usize, weighted: bool) -> PieceSums {
        // Weighted, a precision reads the weight of every block above: not read in pieces.
        debug_assert!(
            !weighted,
            "weighted interpolated AP folded from relevant blocks"
        );
        let fold = PooledLevels {
            levels: self.levels,
            relevant: 0,
            best: None,
        };
        PieceSums::Folded(FoldedBlocks::new(items, Box::new(fold)))
    }

    fn vector_value<T: Score>(&self, v: &Vector<'_, T>, row: &RankedRow<'_>) -> Option<f64> {
        if row.n_relevant() == 0 {
            return None;
        }
        let slack = recall_slack(v, row);
        // Unweighted, a block without relevant items is never above the suffix maximum: its
        // precision is at most that of the step before it (the same relevant count over a
        // larger rank; 0 before the first step), so the steps alone give the same maxima, and
        // the total is the relevant count (summed as integers: exact): they are folded as they
        // come.
        if v.weights.is_unit() {
            let mut best = LevelMaxima::new(self.levels, row.n_relevant() as f64, slack);
            precision_recall_steps(v, row, true, 0.0).for_each(|s| best.add(s));
            return Some(best.value());
        }
        // Weighted, the total is the last step's: pushed in a fold, not collected (`collect`
        // asks each step of the steps' nested chains, and grows the vector as it goes).
        let mut steps = Vec::with_capacity(row.blocks().len());
        precision_recall_steps(v, row, false, 0.0).for_each(|s| steps.push(s));
        let total = steps.last().map_or(0.0, |s| s.relevant);
        let mut best = LevelMaxima::new(self.levels, total, slack);
        steps.into_iter().for_each(|s| best.add(s));
        Some(best.value())
    }
}

/// The interpolated precision of every recall level, folded over the precision–recall steps
/// in rank order. Level k reads the best precision at or below the first step whose recall
/// reaches it, as a walk from the bottom up takes it (`max`, from NaN): each step's precision
/// is kept as the best of the last level reached at or above it (the levels reached in order,
/// as recall grows), and the best at or below a level is the best of that level's and of every
/// later level's, taken bottom-up at the end. A maximum is exact in any order (precisions are
/// never -0.0); where every precision at or below a level is NaN (0/0: weights of 0), the walk
/// ends on the NaN of the level's first step, which is kept too (a NaN's sign is the build's:
/// `max` between two NaNs returns either). So every level gets the value of the walk over the
/// whole ranking's steps, to the bit, in O(levels) memory.
#[derive(Debug, Clone)]
struct LevelMaxima {
    levels: usize,
    total: f64,
    slack: f64,
    /// The levels reached so far.
    reached: usize,
    /// The recall the next level asks for ([`reach`](Self::reach)).
    next: f64,
    /// Per level, the best precision of the steps since it was the last reached, NaN for none
    /// (`max` passes over NaN: a step of zero weight so far has precision 0/0, and only when
    /// every step is one does the NaN stay; not -inf: found by fuzzing, tests/findings.rs),
    /// and the precision of the first of those steps.
    best: Vec<(f64, Option<f64>)>,
}

impl LevelMaxima {
    fn new(levels: usize, total: f64, slack: f64) -> Self {
        let mut maxima = LevelMaxima {
            levels,
            total,
            slack,
            reached: 0,
            next: 0.0,
            best: vec![(f64::NAN, None); levels],
        };
        maxima.next = maxima.reach(0);
        maxima
    }

    /// Level k's recall, less the rounding slack.
    fn reach(&self, k: usize) -> f64 {
        let level = k as f64 / (self.levels - 1) as f64;
        level * (1.0 - self.slack)
    }

    /// Adds the next step in rank order.
    #[inline]
    fn add(&mut self, s: PrStep) {
        // Recall grows along the steps and the levels grow: one walk serves every level.
        let recall = s.relevant / self.total;
        // Not below, rather than at or above: a NaN recall (a total weight of 0) reaches
        // every level.
        while self.reached < self.levels && recall.partial_cmp(&self.next) != Some(Less) {
            self.reached += 1;
            self.next = self.reach(self.reached);
        }
        let last = self.reached.checked_sub(1);
        if let Some((best, first)) = last.and_then(|k| self.best.get_mut(k)) {
            *best = best.max(s.precision);
            first.get_or_insert(s.precision);
        }
    }

    /// The mean over the levels (left to right) of each level's interpolated precision; NaN
    /// for a level no step reaches.
    fn value(&self) -> f64 {
        // Bottom-up: a level no step came after shares the next level's first step (both
        // reached there), or, above none, reads NaN, as the walk over steps found no step.
        let (mut below, mut next) = (f64::NAN, f64::NAN);
        let mut values: Vec<f64> = self
            .best
            .iter()
            .rev()
            .map(|&(best, first)| {
                below = below.max(best);
                next = match first {
                    None => next,
                    Some(first) if below.is_nan() => first,
                    Some(_) => below,
                };
                next
            })
            .collect();
        values.reverse();
        let sum = values.iter().fold(0.0, |sum, &value| sum + value);
        sum / self.levels as f64
    }
}

/// Unweighted interpolated average precision of a pooled ranking, folded over its relevant
/// blocks piece by piece.
#[derive(Debug, Clone)]
struct PooledLevels {
    levels: usize,
    /// The whole ranking's relevant items (every piece gives it).
    relevant: usize,
    /// The fold, from the first piece (which gives the total).
    best: Option<(LevelMaxima, f64)>,
}

impl BlocksFold for PooledLevels {
    fn add(&mut self, row: &RankedRow<'_>) {
        self.relevant = row.n_relevant();
        let levels = self.levels;
        let (best, relevant) = self
            .best
            .get_or_insert_with(|| (LevelMaxima::new(levels, row.n_relevant() as f64, 0.0), 0.0));
        let unit = Vector::<f64>::unit();
        precision_recall_steps(&unit, row, true, *relevant).for_each(|s| {
            best.add(s);
            *relevant = s.relevant;
        });
    }

    fn value(&self) -> Option<f64> {
        match self.relevant {
            0 => None,
            _ => self.best.as_ref().map(|(best, _)| best.value()),
        }
    }
}

/// How far below a level a computed recall may fall and still count as reaching it: the
/// rounding error of the recall. Unweighted, recall is a ratio of exact integer counts, so 0
/// (the plain comparison, as MULAN makes it). Weighted, the relevant weight above a step and
/// the total are sums of up to n items, each within γₙ₋₁ ≈ (n−1)·u (u = 2⁻⁵³) relative of its
/// exact value, and the division, the level and the threshold add a few roundings more: a
/// computed recall below `level · (1 − 4(n+2)u)` is certainly below the level, and anything
/// higher may be at it. A recall exactly at a level is common (a relevant weight that is half
/// the total, say), and without the slack rounding decided it: scaling every weight by 0.3
/// moved a level to the next step (tests/reliability.rs).
fn recall_slack<T>(v: &Vector<'_, T>, row: &RankedRow<'_>) -> f64 {
    match v.weights.is_unit() {
        true => 0.0,
        // EPSILON is 2u.
        false => (2.0 * (row.n_labels() as f64 + 2.0) * f64::EPSILON).min(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Interpolated AP of collected steps as the walk over them takes it: each step's best
    /// precision at or below it from the bottom up, then the levels walked along the steps.
    fn walked(steps: &[PrStep], levels: usize, total: f64, slack: f64) -> f64 {
        let mut steps = steps.to_vec();
        let mut best = f64::NAN;
        for s in steps.iter_mut().rev() {
            best = best.max(s.precision);
            s.precision = best;
        }
        let (mut sum, mut at) = (0.0, 0);
        for k in 0..levels {
            let reach = k as f64 / (levels - 1) as f64 * (1.0 - slack);
            while steps.get(at).is_some_and(|s| s.relevant / total < reach) {
                at += 1;
            }
            sum += steps.get(at).map_or(f64::NAN, |s| s.precision);
        }
        sum / levels as f64
    }

    #[test]
    fn level_maxima_give_the_walks_bits() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // Both signs of NaN, as 0/0 gives on one machine or another.
        let nans = [f64::NAN, -f64::NAN];
        for case in 0..20_000 {
            let len = (next() % 12) as usize;
            let levels = 2 + (next() % 12) as usize;
            let mut relevant = 0.0;
            let steps: Vec<PrStep> = (0..len)
                .map(|_| {
                    relevant += [0.0, 0.5, 1.0, 3.0][(next() % 4) as usize];
                    let precision = match next() % 5 {
                        0 => nans[(next() % 2) as usize],
                        _ => (next() % 1000) as f64 / 997.0,
                    };
                    PrStep {
                        relevant,
                        precision,
                    }
                })
                .collect();
            // Totals of 0 (a NaN recall), the last step's, or another.
            let total = match next() % 3 {
                0 => 0.0,
                1 => relevant,
                _ => relevant + 1.0,
            };
            let slack = [0.0, 1e-12][(next() % 2) as usize];
            let mut folded = LevelMaxima::new(levels, total, slack);
            steps.iter().for_each(|&s| folded.add(s));
            let (got, want) = (folded.value(), walked(&steps, levels, total, slack));
            // A NaN's sign is not part of the value: `max` between two NaNs returns either,
            // and which one depends on the build (debug and release builds differ).
            let bits = |x: f64| {
                if x.is_nan() {
                    f64::NAN.to_bits()
                } else {
                    x.to_bits()
                }
            };
            assert_eq!(
                bits(got),
                bits(want),
                "case {case}: {steps:?} {levels} {total}"
            );
        }
    }
}
