//! nDCG at k, as extreme multilabel classification defines it.

use crate::kernel::RankedRow;
use crate::metrics::dcg::discounted;
use crate::metrics::{ideal_binary_dcg, top_k_metric};
use crate::row::metric::RowOptions;

/// nDCG@k as the extreme multilabel classification (XMC) literature defines it (the Extreme
/// Classification Repository; pyxclib's `ndcg`): binary relevance, normalised by the best DCG@k
/// the row's number of relevant labels allows.
///
/// ```text
/// DCG@k  = Σ_{r=1}^{k} y_(r) / log2(r + 1)          (y_(r): 1 if position r holds a relevant label)
/// nDCG@k = DCG@k / Σ_{r=1}^{min(k, |y|)} 1 / log2(r + 1)
/// ```
///
/// Labels are 0 or 1, relevance rather than gains (unlike [`Ndcg`](crate::Ndcg)).
/// Ties are placed as in [`Dcg`](crate::Dcg): `Average` and `Expected` spread a group's
/// relevant labels evenly over its positions (the exact expectation), `Max` and `Min` give
/// every member the discount of the group's worst or best position (0 beyond `k`), ordering
/// policies place the labels one by one.
///
/// **Against scikit-learn.** On 0/1 labels this is `sklearn.metrics.ndcg_score(y_true,
/// y_score, k=k)` (whose ideal DCG@k is the same sum) under `Average`, and with
/// `ignore_ties=True` under `Last`. They differ on graded labels (scikit-learn uses the values
/// as gains) and in the label check (scikit-learn rejects negative labels).
///
/// A row without a relevant label scores 0 and counts in the mean, as in pyxclib (and
/// scikit-learn); `.on_no_relevant(RowRule::Skip)` leaves it out.
///
/// # Example
/// ```
/// use rankmetrics::{NdcgAtK, RankingMetric, TiePolicy};
/// let ndcg = NdcgAtK::new(TiePolicy::Average, 3).unwrap();
/// // Two relevant labels, found at positions 1 and 3: (1 + 1/2) / (1 + 1/log2(3)).
/// let v = ndcg.evaluate(&[[1, 0, 1, 0]], &[[0.9, 0.8, 0.7, 0.1]], None).unwrap();
/// assert!((v - 1.5 / (1.0 + 1.0 / 3f64.log2())).abs() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias("ndcg@k", "nDCG@k"))]
pub struct NdcgAtK {
    options: RowOptions,
    #[cfg_attr(feature = "serde", serde(deserialize_with = "super::checked::top_k"))]
    k: usize,
}

top_k_metric!(NdcgAtK, "nDCG@k");

impl NdcgAtK {
    /// The metric on one ranked row.
    fn top_k_value(&self, row: &RankedRow<'_>) -> f64 {
        if !row.covers_top(self.k) {
            return f64::NAN;
        }
        let dcg = discounted(row, Some(self.k), 2.0, |b| b.relevant as f64);
        dcg / ideal_binary_dcg(row.n_relevant(), self.k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::RankingMetric;
    use crate::metrics::Ndcg;
    use crate::ties::TiePolicy;

    #[test]
    fn equals_sklearn_ndcg_on_binary_labels() {
        let y = [[1, 0, 1, 1, 0, 0], [0, 0, 0, 0, 1, 0]];
        let s = [
            [0.5, 0.5, 0.1, 0.9, 0.5, 0.2],
            [0.3, 0.3, 0.3, 0.3, 0.3, 0.9],
        ];
        for (t, k) in [(TiePolicy::Average, 2), (TiePolicy::Last, 4)] {
            let xmc = NdcgAtK::new(t, k).unwrap().evaluate(&y, &s, None).unwrap();
            let sk = Ndcg::new(t).with_k(Some(k)).unwrap();
            assert_eq!(xmc, sk.evaluate(&y, &s, None).unwrap());
        }
    }

    #[test]
    fn a_perfect_ranking_scores_one() {
        let n = NdcgAtK::new(TiePolicy::Max, 2).unwrap();
        let v = n
            .evaluate(&[[1, 1, 1, 0]], &[[0.9, 0.8, 0.7, 0.1]], None)
            .unwrap();
        assert_eq!(v, 1.0);
    }
}
