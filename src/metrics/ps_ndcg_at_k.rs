//! Propensity-scored nDCG at k.

use crate::kernel::RankedRow;
use crate::metrics::dcg::discounted;
use crate::metrics::ndcg::with_ideal_ranking;
use crate::metrics::{ideal_binary_dcg, propensity_top_k_metric};

propensity_top_k_metric! {
    /// Propensity-scored nDCG@k (Jain, Prabhu & Varma 2016): the XMC [`NdcgAtK`](crate::NdcgAtK)
    /// in which each hit counts its label's inverse propensity `1/p_l` (see
    /// [`PropensityModel`](crate::PropensityModel)).
    ///
    /// ```text
    /// PSDCG@k  = Σ_{r=1}^{k} y_(r) / (p_(r) · log2(r + 1))
    /// PSnDCG@k = PSDCG@k / Σ_{r=1}^{min(k, |y|)} 1 / log2(r + 1)      (the paper's definition)
    /// ```
    ///
    /// Labels are 0 or 1 by default. Ties are placed as in [`NdcgAtK`](crate::NdcgAtK), each
    /// label weighted by `1/p_l`; `Optimistic` and `Pessimistic` order a tie group by `y_l/p_l`.
    ///
    /// **Normalisation.** As for [`PsPrecisionAtK`](crate::PsPrecisionAtK): pyxclib's `psndcg`
    /// and the papers that use it report `mean_i PSnDCG@k(i) / mean_i best_i`, the best being the
    /// row's relevant labels ranked by decreasing `1/p_l` ([`normalised`](Self::normalised);
    /// [`best_achievable`](Self::best_achievable) for the per-row denominators). A row without a
    /// relevant label scores 0 and counts in both means.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{PsNdcgAtK, RankingMetric, TiePolicy};
    /// let psndcg = PsNdcgAtK::new(TiePolicy::Max, 2, vec![1.0, 3.0, 1.0]).unwrap();
    /// // One relevant label (weight 3) at position 2: 3 / log2(3), over the ideal DCG of 1 label.
    /// let v = psndcg.evaluate(&[[0, 1, 0]], &[[0.9, 0.5, 0.1]], None).unwrap();
    /// assert!((v - 3.0 / 3f64.log2()).abs() < 1e-15);
    /// ```
    #[doc(alias("psndcg@k", "PSnDCG@k"))]
    PsNdcgAtK, "PSnDCG@k", "psndcg"
}

impl PsNdcgAtK {
    /// The metric on one ranked row.
    fn top_k_value(&self, row: &RankedRow<'_>) -> f64 {
        let k = self.k;
        let dcg = |row: &RankedRow<'_>| {
            if row.covers_top(k) {
                discounted(row, Some(k), 2.0, |b| b.gain)
            } else {
                f64::NAN
            }
        };
        let value = if self.best {
            with_ideal_ranking(row.gains(), Some(k), dcg)
        } else {
            dcg(row)
        };
        value / ideal_binary_dcg(row.n_relevant(), k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::RankingMetric;
    use crate::ties::TiePolicy;

    #[test]
    fn with_unit_weights_it_is_ndcg_at_k() {
        let y = [[1, 0, 1, 1, 0], [0, 1, 0, 0, 0]];
        let s = [[0.5, 0.5, 0.1, 0.9, 0.5], [0.3, 0.3, 0.3, 0.9, 0.3]];
        for t in [TiePolicy::Average, TiePolicy::Min, TiePolicy::Last] {
            let ps = PsNdcgAtK::new(t, 3, vec![1.0; 5]).unwrap();
            let plain = crate::metrics::NdcgAtK::new(t, 3).unwrap();
            assert_eq!(
                ps.evaluate(&y, &s, None).unwrap(),
                plain.evaluate(&y, &s, None).unwrap()
            );
        }
    }
}
