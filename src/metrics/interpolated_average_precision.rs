//! Average interpolated precision of each label at fixed recall levels.

use crate::labelwise::{labelwise_builders, LabelwiseOptions, Vector, VectorMetric};
use crate::metrics::label_average_precision::precision_recall_steps;
use crate::{Average, RankedRow, Score, TiePolicy};

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
        // The running maximum of interpolation has no closed-form mean over orderings.
        if self.options.ranking.ties == TiePolicy::Expected {
            return Err(crate::Error::UnsupportedPolicy {
                policy: TiePolicy::Expected,
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

    fn vector_value<T: Score>(&self, v: &Vector<'_, T>, row: &RankedRow<'_>) -> Option<f64> {
        if row.n_relevant() == 0 {
            return None;
        }
        // Unweighted, a block without relevant items is never above the suffix maximum: its
        // precision is at most that of the step before it (the same relevant count over a
        // larger rank; 0 before the first step), so the steps alone give the same maxima.
        let steps_only = v.weights.is_unit();
        let most = match steps_only {
            true => row.n_relevant(),
            false => row.blocks().len(),
        };
        // Pushed in a fold, not collected: `collect` asks each step of the steps' nested
        // chains, and grows the vector as it goes.
        let mut steps = Vec::with_capacity(most);
        precision_recall_steps(v, row, steps_only).for_each(|s| steps.push(s));
        let total = steps.last().map_or(0.0, |s| s.relevant);
        // From the bottom up: each precision becomes the best precision at or below it. A step
        // of zero weight so far has precision 0/0: `max` passes over it, and only when every
        // step is one does the NaN stay (not -inf: found by fuzzing, tests/findings.rs).
        let mut best = f64::NAN;
        for s in steps.iter_mut().rev() {
            best = best.max(s.precision);
            s.precision = best;
        }
        let slack = recall_slack(v, row);
        // Recall grows along the steps and the levels grow: one walk serves every level.
        let (mut sum, mut at) = (0.0, 0);
        for k in 0..self.levels {
            let level = k as f64 / (self.levels - 1) as f64;
            let reach = level * (1.0 - slack);
            while steps.get(at).is_some_and(|s| s.relevant / total < reach) {
                at += 1;
            }
            sum += steps.get(at).map_or(f64::NAN, |s| s.precision);
        }
        Some(sum / self.levels as f64)
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
