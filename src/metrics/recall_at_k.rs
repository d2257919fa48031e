//! Recall at k.

use crate::kernel::RankedRow;
use crate::metrics::{top_k_metric, top_k_sum};
use crate::row::metric::RowOptions;

/// Recall@k: the fraction of a row's relevant labels (labels are 0 or 1) found in its top `k`
/// positions.
///
/// ```text
/// R@k = (1/|y|) Σ_{l ∈ top k} y_l            (y binary, |y| the number of relevant labels)
/// ```
///
/// Ties at the `k` boundary count as in [`PrecisionAtK`](crate::PrecisionAtK) (the same
/// numerator; only the divisor differs). A row without a relevant label scores 0 and counts
/// in the mean (pyxclib's `recall` divides by max(|y|, 1)); `.on_no_relevant(RowRule::Skip)`
/// leaves it out.
///
/// # Example
/// ```
/// use rankmetrics::{RankingMetric, RecallAtK, TiePolicy};
/// let y_true = [[1, 0, 1, 0]];
/// let y_score = [[0.9, 0.8, 0.7, 0.1]];
/// let r2 = RecallAtK::new(TiePolicy::Max, 2).unwrap();
/// assert_eq!(r2.evaluate(&y_true, &y_score, None).unwrap(), 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias("r@k", "R@k", "recall@k"))]
pub struct RecallAtK {
    options: RowOptions,
    #[cfg_attr(feature = "serde", serde(deserialize_with = "super::checked::top_k"))]
    k: usize,
}

top_k_metric!(RecallAtK, "Recall@k");

impl RecallAtK {
    /// The metric on one ranked row.
    fn top_k_value(&self, row: &RankedRow<'_>) -> f64 {
        top_k_sum(row, self.k, |b| b.relevant as f64) / row.n_relevant() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::RankingMetric;
    use crate::row::metric::{RowMetric, RowRule};
    use crate::ties::TiePolicy;

    #[test]
    fn rows_without_relevant_labels_score_zero_or_skip() {
        let (y, s) = ([[0, 0], [1, 1]], [[0.1, 0.2], [0.1, 0.2]]);
        let r = RecallAtK::new(TiePolicy::First, 1).unwrap();
        assert_eq!(r.evaluate(&y, &s, None).unwrap(), 0.25);
        let skip = r.on_no_relevant(RowRule::Skip);
        assert_eq!(skip.evaluate(&y, &s, None).unwrap(), 0.5);
    }

    /// The row pass ranks a row only as far as the metric's `top_k`: recall@k reads k
    /// positions, and a full ranking (`None`) would give the same values, only slower.
    #[test]
    fn rows_are_ranked_only_to_k() {
        assert_eq!(
            RecallAtK::new(TiePolicy::Average, 3).unwrap().top_k(),
            Some(3)
        );
    }
}
