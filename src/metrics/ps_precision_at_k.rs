//! Propensity-scored precision at k.

use crate::kernel::RankedRow;
use crate::metrics::ndcg::with_ideal_ranking;
use crate::metrics::{propensity_top_k_metric, top_k_sum};

propensity_top_k_metric! {
    /// Propensity-scored precision@k (Jain, Prabhu & Varma 2016): precision@k in which each hit
    /// counts its label's inverse propensity `1/p_l` (see [`PropensityModel`](crate::PropensityModel)),
    /// so that finding rare labels counts more.
    ///
    /// ```text
    /// PSP@k = (1/k) Σ_{l ∈ top k} y_l / p_l                       (the paper's definition)
    /// ```
    ///
    /// Labels are 0 or 1 by default. Ties at the `k` boundary count as in
    /// [`PrecisionAtK`](crate::PrecisionAtK), with each label weighted by `1/p_l`: `Average` and
    /// `Expected` count a straddling group's weighted hits times (k − o)/m; `Optimistic` and
    /// `Pessimistic` order a group by `y_l/p_l`, so that they are the best and worst orderings.
    ///
    /// **Normalisation.** Papers and pyxclib (`psprecision`) report PSP@k divided by the best
    /// PSP@k any ranking achieves, as a ratio of means over the rows:
    /// `mean_i PSP@k(i) / mean_i best_i`, where `best_i` puts the row's relevant labels with the
    /// largest `1/p_l` first. [`normalised`](Self::normalised) computes that ratio;
    /// [`best_achievable`](Self::best_achievable) gives the denominator's per-row values. A row
    /// without a relevant label scores 0 and counts in both means, as in pyxclib.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{PsPrecisionAtK, RankingMetric, TiePolicy};
    /// let inverse_propensities = vec![1.0, 4.0, 2.0];
    /// let psp = PsPrecisionAtK::new(TiePolicy::Max, 1, inverse_propensities).unwrap();
    /// let (y, s) = ([[1, 1, 0]], [[0.9, 0.1, 0.5]]);
    /// assert_eq!(psp.evaluate(&y, &s, None).unwrap(), 1.0); // label 0 at the top
    /// assert_eq!(psp.normalised(&y, &s, None).unwrap(), 0.25); // label 1 would give 4
    /// ```
    #[doc(alias("psp@k", "PSP@k"))]
    PsPrecisionAtK, "PSP@k", "psprecision"
}

impl PsPrecisionAtK {
    /// The metric on one ranked row.
    fn top_k_value(&self, row: &RankedRow<'_>) -> f64 {
        let k = self.k;
        let hits = |row: &RankedRow<'_>| top_k_sum(row, k, |b| b.gain) / k as f64;
        if self.best {
            with_ideal_ranking(row.gains(), Some(k), hits)
        } else {
            hits(row)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::metric::RankingMetric;
    use crate::ties::TiePolicy;

    #[test]
    fn optimistic_orders_ties_by_weight() {
        // Three tied relevant labels, k = 1: the best puts the weight 5 first.
        let psp = PsPrecisionAtK::new(TiePolicy::Optimistic, 1, vec![2.0, 5.0, 3.0]).unwrap();
        let (y, s) = ([[1, 1, 1]], [[0.5; 3]]);
        assert_eq!(psp.evaluate(&y, &s, None).unwrap(), 5.0);
        let worst = psp.clone().with_ties(TiePolicy::Pessimistic);
        assert_eq!(worst.evaluate(&y, &s, None).unwrap(), 2.0);
        let mean = psp.with_ties(TiePolicy::Expected);
        assert!((mean.evaluate(&y, &s, None).unwrap() - 10.0 / 3.0).abs() < 1e-15);
    }

    #[test]
    fn weights_need_one_per_label() {
        let psp = PsPrecisionAtK::new(TiePolicy::Max, 1, vec![1.0; 3]).unwrap();
        let err = psp.evaluate(&[[1, 0]], &[[0.5, 0.1]], None).unwrap_err();
        assert_eq!(
            err,
            Error::LabelWeightLength {
                expected: 2,
                found: 3
            }
        );
        let bad = PsPrecisionAtK::new(TiePolicy::Max, 1, vec![1.0, 0.0]).unwrap_err();
        assert!(matches!(bad, Error::InvalidLabelWeight { column: 1, .. }));
    }
}
