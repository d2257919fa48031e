//! Precision at k.

use crate::kernel::RankedRow;
use crate::metrics::{top_k_metric, top_k_sum};
use crate::row::metric::RowOptions;

/// Precision@k, as extreme multilabel classification (XMC) reports it: the fraction of the
/// top `k` positions that hold a relevant label (labels are 0 or 1).
///
/// ```text
/// P@k = (1/k) Σ_{l ∈ top k} y_l            (y binary; the divisor is k, whatever |y|)
/// ```
///
/// A tie group reaching into the top `k` (positions `o+1 ..= o+m`, `r` relevant) counts as
/// the tie policy places it:
///
/// * `Average`, `Expected`: its share `r · (k − o)/m` when it straddles `k` (the exact
///   expectation over the orders of the group);
/// * `Max`: wholly when its shared rank `o + m` is at most `k`, not at all otherwise;
/// * `Min`: wholly when `o + 1 ≤ k`, so that P@k can exceed what any ordering gives (above 1
///   even: a group of 3 relevant labels tied at the top gives P@1 = 3);
/// * `First`, `Last`, `Random`, `Optimistic`, `Pessimistic`: label by label in that order.
///
/// A row without a relevant label scores 0 and counts in the mean (pyxclib's `precision`).
/// Rows are ranked only as far as position `k`
/// ([`RowMetric::top_k`](crate::RowMetric::top_k)): one pass over the scores, then a sort of
/// the top.
///
/// # Example
/// ```
/// use rankmetrics::{PrecisionAtK, RankingMetric, TiePolicy};
/// let y_true = [[1, 0, 1, 0], [0, 1, 0, 0]];
/// let y_score = [[0.9, 0.8, 0.7, 0.1], [0.2, 0.5, 0.5, 0.1]];
/// let p2 = PrecisionAtK::new(TiePolicy::Average, 2).unwrap();
/// // Row 0: one hit in the top 2. Row 1: the tie {0.5, 0.5} fills the top 2 and holds a hit.
/// assert_eq!(p2.evaluate(&y_true, &y_score, None).unwrap(), 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias("p@k", "P@k", "precision@k"))]
pub struct PrecisionAtK {
    options: RowOptions,
    #[cfg_attr(feature = "serde", serde(deserialize_with = "super::checked::top_k"))]
    k: usize,
}

top_k_metric!(PrecisionAtK, "Precision@k");

impl PrecisionAtK {
    /// The metric on one ranked row.
    fn top_k_value(&self, row: &RankedRow<'_>) -> f64 {
        top_k_sum(row, self.k, |b| b.relevant as f64) / self.k as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::metric::RankingMetric;
    use crate::ties::TiePolicy;
    use rstest::rstest;

    // One group of 4 tied labels, 2 relevant, behind one relevant label; k = 3.
    #[rstest]
    #[case(TiePolicy::Average, (1.0 + 2.0 * 2.0 / 4.0) / 3.0)]
    #[case(TiePolicy::Expected, (1.0 + 2.0 * 2.0 / 4.0) / 3.0)]
    #[case(TiePolicy::Max, 1.0 / 3.0)]
    #[case(TiePolicy::Min, 1.0)]
    #[case(TiePolicy::First, 2.0 / 3.0)]
    #[case(TiePolicy::Last, 2.0 / 3.0)]
    #[case(TiePolicy::Optimistic, 1.0)]
    #[case(TiePolicy::Pessimistic, 1.0 / 3.0)]
    fn group_straddling_k(#[case] t: TiePolicy, #[case] expected: f64) {
        let y = [[1, 1, 0, 0, 1]];
        let s = [[0.9, 0.5, 0.5, 0.5, 0.5]];
        let v = PrecisionAtK::new(t, 3)
            .unwrap()
            .evaluate(&y, &s, None)
            .unwrap();
        assert!((v - expected).abs() < 1e-15, "{t:?}: {v} vs {expected}");
    }

    #[test]
    fn min_can_exceed_one() {
        let p = PrecisionAtK::new(TiePolicy::Min, 1).unwrap();
        assert_eq!(p.evaluate(&[[1, 1, 1]], &[[0.5; 3]], None).unwrap(), 3.0);
    }

    #[test]
    fn k_beyond_the_labels_divides_by_k() {
        let p = PrecisionAtK::new(TiePolicy::Max, 5).unwrap();
        assert_eq!(p.evaluate(&[[1, 0]], &[[0.5, 0.1]], None).unwrap(), 0.2);
        assert_eq!(
            PrecisionAtK::new(TiePolicy::Max, 0),
            Err(Error::InvalidK { value: 0 })
        );
    }
}
