//! torchmetrics' retrieval modules (`RetrievalPrecision`, `RetrievalRecall`, `RetrievalMAP`,
//! `RetrievalMRR`, `RetrievalNormalizedDCG`): documents grouped into queries by an `indexes`
//! tensor, as their `compute()` groups them. The documents are sorted by index with torch's
//! CPU `sort` (unstable below 32,768 documents, so a query's documents can reach the metric in
//! another order, which moves tied scores), each query is valued by the metric or by its
//! `empty_target_action` when none of its documents is relevant, and the values, as `float32`,
//! are reduced by the `aggregation`. [`Preset::evaluate_queries`](crate::registry::Preset::evaluate_queries)
//! puts these steps together for a registry preset.

use core::any::TypeId;
use core::fmt;
use core::ops::Range;
use core::str::FromStr;

use super::torch_order::torch_sort_int64;
use crate::error::{Degeneracy, Error};
use crate::names::UnknownName;
use crate::score::Label;
use crate::sum::torch_sum_f32;

/// What a retrieval module does with a query whose target sums to 0 (no relevant document):
/// torchmetrics' `empty_target_action`.
///
/// # Example
/// ```
/// use rankmetrics::torchmetrics::EmptyTargetAction;
/// assert_eq!("skip".parse::<EmptyTargetAction>().unwrap(), EmptyTargetAction::Skip);
/// assert_eq!(EmptyTargetAction::default().to_string(), "neg");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EmptyTargetAction {
    /// The computation fails ([`Error::DegenerateRow`], its row being the query's place among
    /// the queries in ascending index order).
    Error,
    /// The query is left out.
    Skip,
    /// The query scores 0 (torchmetrics' default).
    #[default]
    Neg,
    /// The query scores 1.
    Pos,
}

impl EmptyTargetAction {
    const NAMES: [&'static str; 4] = ["error", "skip", "neg", "pos"];

    /// The action's name, as torchmetrics spells it.
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::torchmetrics::EmptyTargetAction::Pos.name(), "pos");
    /// ```
    pub const fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl fmt::Display for EmptyTargetAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EmptyTargetAction {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let all = [Self::Error, Self::Skip, Self::Neg, Self::Pos];
        all.into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| UnknownName::new("empty target action", s, &Self::NAMES))
    }
}

/// How a retrieval module reduces its queries' `float32` values: torchmetrics' `aggregation`.
///
/// # Example
/// ```
/// use rankmetrics::torchmetrics::QueryAggregation;
/// let values = [0.25, 1.0, 0.5, 0.0];
/// assert_eq!(QueryAggregation::Mean.reduce(&values), 0.4375);
/// assert_eq!(QueryAggregation::Median.reduce(&values), 0.25); // torch's lower median
/// assert_eq!(QueryAggregation::Max.reduce(&values), 1.0);
/// assert_eq!(QueryAggregation::Mean.reduce(&[]), 0.0); // every query skipped
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum QueryAggregation {
    /// torch's `float32` `mean()` (torchmetrics' default).
    #[default]
    Mean,
    /// torch's `median()`: the lower of the two middle values of an even count.
    Median,
    /// The smallest value.
    Min,
    /// The largest value.
    Max,
}

impl QueryAggregation {
    const NAMES: [&'static str; 4] = ["mean", "median", "min", "max"];

    /// The aggregation's name, as torchmetrics spells it.
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::torchmetrics::QueryAggregation::Median.name(), "median");
    /// ```
    pub const fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The reduction of `values` (each rounded to `float32` first, as torchmetrics stacks them
    /// in the preds' `float32`); 0 without values, as torchmetrics returns when every query
    /// was skipped; NaN if any value is NaN, as torch's reductions propagate it.
    pub fn reduce(self, values: &[f64]) -> f64 {
        if values.is_empty() {
            return 0.0;
        }
        let mut v: Vec<f32> = values.iter().map(|&x| x as f32).collect();
        if v.iter().any(|x| x.is_nan()) {
            return f64::NAN;
        }
        let value = match self {
            QueryAggregation::Mean => torch_sum_f32(&v) / v.len() as f32,
            QueryAggregation::Median => {
                v.sort_by(f32::total_cmp);
                v[(v.len() - 1) / 2]
            }
            QueryAggregation::Min => v.iter().copied().fold(f32::INFINITY, f32::min),
            QueryAggregation::Max => v.iter().copied().fold(f32::NEG_INFINITY, f32::max),
        };
        f64::from(value)
    }
}

impl fmt::Display for QueryAggregation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for QueryAggregation {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let all = [Self::Mean, Self::Median, Self::Min, Self::Max];
        all.into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| UnknownName::new("aggregation", s, &Self::NAMES))
    }
}

/// The documents grouped into queries as a module's `compute()` groups them: `order` is
/// torch's `sort` of the indexes, and each range of it one query, in ascending index order.
pub(crate) struct Queries {
    pub(crate) order: Vec<u32>,
    pub(crate) ranges: Vec<Range<usize>>,
}

impl Queries {
    /// The queries of `indexes`.
    ///
    /// # Errors
    /// [`Error::NoSamples`] without documents; [`Error::TooManyItems`] beyond `u32::MAX`.
    pub(crate) fn of(indexes: &[i64]) -> Result<Self, Error> {
        if indexes.is_empty() {
            return Err(Error::NoSamples);
        }
        if u32::try_from(indexes.len()).is_err() {
            return Err(Error::TooManyItems {
                found: indexes.len(),
                max: u32::MAX as usize,
            });
        }
        let mut order = Vec::new();
        torch_sort_int64(indexes, &mut order);
        let mut ranges = Vec::new();
        let mut start = 0;
        for end in 1..=order.len() {
            let boundary = end == order.len()
                || indexes[order[end] as usize] != indexes[order[start] as usize];
            if boundary {
                ranges.push(start..end);
                start = end;
            }
        }
        Ok(Queries { order, ranges })
    }
}

/// Whether a query's targets sum to 0 as torch's `target.sum()` finds it: `float32` targets
/// (torchmetrics keeps floating targets as `float32`) with torch's `float32` sum, in the order
/// given; any other type exactly (up to 2^53).
pub(crate) fn targets_sum_to_zero<L: Label + 'static>(targets: &[L]) -> bool {
    if TypeId::of::<L>() == TypeId::of::<f32>() {
        let values: Vec<f32> = targets.iter().map(|t| t.value() as f32).collect();
        torch_sum_f32(&values) == 0.0
    } else {
        targets.iter().map(|t| t.value()).sum::<f64>() == 0.0
    }
}

/// Each query's value, in ascending index order: `value_of(labels, scores)` on the query's
/// documents in the order torch's sort leaves them, or the `empty` action's value where the
/// query's labels sum to 0 ([`targets_sum_to_zero`]; skipped queries have none).
pub(crate) fn query_values<L: Label + 'static, T: Copy>(
    indexes: &[i64], labels: &[L], scores: &[T], empty: EmptyTargetAction,
    mut value_of: impl FnMut(&[L], &[T]) -> Result<f64, Error>,
) -> Result<Vec<f64>, Error> {
    for other in [labels.len(), scores.len()] {
        if other != indexes.len() {
            return Err(Error::DataLength {
                rows: 1,
                columns: indexes.len(),
                expected: indexes.len(),
                found: other,
            });
        }
    }
    let queries = Queries::of(indexes)?;
    let (mut y, mut s) = (Vec::new(), Vec::new());
    let mut values = Vec::with_capacity(queries.ranges.len());
    for (q, range) in queries.ranges.iter().enumerate() {
        let docs = &queries.order[range.clone()];
        y.clear();
        y.extend(docs.iter().map(|&d| labels[d as usize]));
        if targets_sum_to_zero(&y) {
            match empty {
                EmptyTargetAction::Error => {
                    return Err(Error::DegenerateRow {
                        row: q,
                        kind: Degeneracy::NoRelevant,
                    })
                }
                EmptyTargetAction::Skip => {}
                EmptyTargetAction::Neg => values.push(0.0),
                EmptyTargetAction::Pos => values.push(1.0),
            }
            continue;
        }
        s.clear();
        s.extend(docs.iter().map(|&d| scores[d as usize]));
        values.push(f64::from(value_of(&y, &s)? as f32));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_the_distinct_indexes_in_ascending_order() {
        let q = Queries::of(&[5, -2, 5, 0, -2]).unwrap();
        assert_eq!(q.ranges, [0..2, 2..3, 3..5]);
        let mut docs: Vec<_> = q.order.clone();
        docs[0..2].sort_unstable();
        docs[3..5].sort_unstable();
        assert_eq!(docs, [1, 4, 3, 0, 2]);
        assert!(matches!(Queries::of(&[]), Err(Error::NoSamples)));
    }

    #[test]
    fn large_inputs_keep_each_querys_documents_in_order() {
        // torch's radix sort from 32,768 elements is stable.
        let indexes: Vec<i64> = (0..40_000).map(|i| (i * 7919 % 5) as i64).collect();
        let q = Queries::of(&indexes).unwrap();
        for r in &q.ranges {
            assert!(q.order[r.clone()].windows(2).all(|w| w[0] < w[1]));
        }
    }

    #[test]
    fn empty_queries_follow_the_action() {
        let (indexes, labels, scores) = ([0, 0, 1, 1, 2], [1u8, 0, 0, 0, 1], [0.5f64; 5]);
        let run = |action| {
            query_values(&indexes, &labels, &scores, action, |y, _| {
                Ok(f64::from(y.len() as u8) / 3.0)
            })
        };
        let third = f64::from((2.0f64 / 3.0) as f32);
        assert_eq!(
            run(EmptyTargetAction::Neg).unwrap(),
            [third, 0.0, f64::from(1.0f32 / 3.0)]
        );
        assert_eq!(run(EmptyTargetAction::Pos).unwrap()[1], 1.0);
        assert_eq!(run(EmptyTargetAction::Skip).unwrap().len(), 2);
        assert!(matches!(
            run(EmptyTargetAction::Error),
            Err(Error::DegenerateRow { row: 1, .. })
        ));
        let short = query_values(
            &indexes,
            &labels[..4],
            &scores,
            EmptyTargetAction::Neg,
            |_, _| Ok(0.0),
        );
        assert!(matches!(short, Err(Error::DataLength { found: 4, .. })));
    }

    #[test]
    fn float32_targets_sum_as_torch_sums_them() {
        // torch.tensor([1e8, 1, -1e8]).sum() == 0 in float32; the exact sum is 1.
        assert!(targets_sum_to_zero(&[1e8f32, 1.0, -1e8]));
        assert!(!targets_sum_to_zero(&[1e8f64, 1.0, -1e8]));
        assert!(!targets_sum_to_zero(&[1i64, 0]));
    }

    #[test]
    fn names_round_trip() {
        for a in [
            EmptyTargetAction::Error,
            EmptyTargetAction::Skip,
            EmptyTargetAction::Neg,
            EmptyTargetAction::Pos,
        ] {
            assert_eq!(a.name().parse::<EmptyTargetAction>(), Ok(a));
        }
        for a in [
            QueryAggregation::Mean,
            QueryAggregation::Median,
            QueryAggregation::Min,
            QueryAggregation::Max,
        ] {
            assert_eq!(a.to_string().parse::<QueryAggregation>(), Ok(a));
        }
        assert_eq!(
            "avg".parse::<QueryAggregation>().unwrap_err().valid(),
            QueryAggregation::NAMES
        );
    }

    #[test]
    fn the_mean_is_torchs_float32_mean() {
        // torch.tensor([0.1] * 10).mean().item(): its float32 sum over 10, not 0.1f32.
        assert_eq!(
            QueryAggregation::Mean.reduce(&[0.1; 10]),
            0.10000000894069672
        );
        assert!(QueryAggregation::Min.reduce(&[0.1, f64::NAN]).is_nan());
    }
}
