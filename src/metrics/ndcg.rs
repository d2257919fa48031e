//! Normalised discounted cumulative gain.

use std::cell::RefCell;

use crate::error::{Error, LabelDomain};
use crate::kernel::{RankedRow, Ranker, Ranking};
use crate::metrics::dcg::discounted_gain;
use crate::metrics::{ideal_binary_dcg, row_option_builders};
use crate::row::metric::{RowMetric, RowOptions, RowRule};
use crate::ties::TiePolicy;

/// Normalised DCG: a row's [`Dcg`](crate::Dcg) divided by the DCG of its ideal ordering
/// (IDCG: gains in descending order), both with the same truncation `k` and base 2.
///
/// ```text
/// NDCG = DCG_k / IDCG_k,   0 when IDCG_k = 0
/// ```
///
/// Ties are placed by the tie policy as in [`Dcg`](crate::Dcg) (`Average`: tie-averaged
/// gains, scikit-learn's and torchmetrics' default; `Last`: scikit-learn's
/// `ignore_ties=True`). Ties among the gains of the ideal ordering do not matter. A row
/// without a non-zero gain scores 0 and counts in the mean, as in scikit-learn and
/// torchmetrics (`empty_target_action="neg"`); `.on_no_relevant(RowRule::Skip)` leaves it out
/// instead. Gains must be non-negative by default (scikit-learn's rule);
/// `.with_label_domain(LabelDomain::NonZero)` accepts any finite gain (torchmetrics). The base
/// of the logarithm is fixed: it scales every discount by one factor, which cancels.
///
/// # Example
/// ```
/// use rankmetrics::{Ndcg, RankingMetric, TiePolicy};
/// // scikit-learn's docstring: every score tied, so every label gets the mean discount.
/// let (gains, scores) = ([[10, 0, 0, 1, 5]], [[1.0; 5]]);
/// let v = Ndcg::new(TiePolicy::Average).evaluate(&gains, &scores, None).unwrap();
/// assert!((v - 0.6909785334518438).abs() < 1e-15);
/// // A row ranked by its own gains scores 1; a row of zero gains scores 0.
/// let (gains, scores) = ([[3, 1, 0], [0, 0, 0]], [[3.0, 1.0, 0.0], [1.0, 2.0, 3.0]]);
/// assert_eq!(Ndcg::new(TiePolicy::Average).evaluate(&gains, &scores, None).unwrap(), 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias("ndcg_score", "ndcg", "NDCG", "retrieval_normalized_dcg"))]
pub struct Ndcg {
    options: RowOptions,
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "super::checked::optional_top_k")
    )]
    k: Option<usize>,
}

impl Ndcg {
    /// NDCG with the given tie policy, no truncation, non-negative gains; a row without a
    /// non-zero gain scores 0.
    pub const fn new(ties: TiePolicy) -> Self {
        let mut options = RowOptions::new(ties, RowRule::Value(0.0), RowRule::Formula);
        options.labels = LabelDomain::NonNegative;
        Ndcg { options, k: None }
    }

    /// The same metric counting only the top `k` positions (`None`: all), in the DCG and the
    /// IDCG alike.
    ///
    /// # Errors
    /// [`Error::InvalidK`] for `Some(0)`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Ndcg, RankingMetric, TiePolicy};
    /// let ndcg = Ndcg::new(TiePolicy::Average).with_k(Some(1)).unwrap();
    /// assert_eq!(ndcg.evaluate(&[[2, 1]], &[[0.1, 0.9]], None).unwrap(), 0.5);
    /// assert!(ndcg.with_k(Some(0)).is_err());
    /// ```
    pub const fn with_k(mut self, k: Option<usize>) -> Result<Self, Error> {
        // A const fn cannot drop an Error (Error::Lookup owns text): build it only to return it.
        match k {
            Some(0) => Err(Error::InvalidK { value: 0 }),
            k => {
                self.k = k;
                Ok(self)
            }
        }
    }

    /// The truncation: only positions `1..=k` count (`None`: all).
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::Ndcg::new(rankmetrics::TiePolicy::Average).k(), None);
    /// ```
    pub const fn k(&self) -> Option<usize> {
        self.k
    }
}

row_option_builders!(Ndcg);

impl RowMetric for Ndcg {
    fn options(&self) -> RowOptions {
        self.options
    }

    fn reads_only_relevant_blocks(&self) -> bool {
        true
    }

    fn top_k(&self) -> Option<usize> {
        self.k
    }

    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        let ideal = ideal_dcg(row.gains(), row.n_relevant(), self.k);
        if ideal == 0.0 {
            0.0
        } else {
            discounted_gain(row, self.k, 2.0) / ideal
        }
    }
}

thread_local! {
    /// The kernel scratch that orders gains for ideal rankings, so rows do not allocate.
    static IDEAL: RefCell<Ranker> = RefCell::new(Ranker::new());
}

/// The DCG of the gains ranked by themselves (the kernel's sort, gains as scores), of which
/// `n_relevant` are non-zero.
fn ideal_dcg(gains: &[f64], n_relevant: usize, k: Option<usize>) -> f64 {
    // Binary gains need no ranking: the ideal puts the ones first, each discounted by its
    // position (the sum the ranked ideal adds up, in the same order).
    if gains
        .iter()
        .fold(true, |binary, &g| binary & ((g == 0.0) | (g == 1.0)))
    {
        return match n_relevant {
            0 => 0.0, // an empty sum is -0.0; the ranked ideal adds nothing to 0.0
            n => ideal_binary_dcg(n, k.unwrap_or(usize::MAX)),
        };
    }
    // The DCG reads only the relevant blocks: with at most k of them, counting ranks them
    // all, where a top-k selection would keep every zero gain tied at the k-th place.
    let top = k.filter(|&k| n_relevant > k);
    with_ideal_ranking(gains, top, |row| discounted_gain(row, k, 2.0))
}

/// `f` of the gains ranked by themselves, best first (ties in column order): the ideal
/// ranking. With `top = Some(k)`, only its top `k` positions are ranked
/// ([`Ranker::rank_top`]).
pub(crate) fn with_ideal_ranking(
    gains: &[f64], top: Option<usize>, f: impl FnOnce(&RankedRow<'_>) -> f64,
) -> f64 {
    let ideal = |ranker: &mut Ranker| {
        let first = Ranking::new(TiePolicy::First);
        let row = match top {
            Some(k) => ranker.rank_top(gains, gains, first, 0, k),
            // The ideal DCG reads only the relevant blocks: the counting path serves.
            None => ranker.rank_relevant(gains, gains, first, 0),
        };
        f(&row)
    };
    IDEAL.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut ranker) => ideal(&mut ranker),
        // Only reachable by re-entrance, which nothing here does; stay panic-free anyway.
        Err(_) => ideal(&mut Ranker::new()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::RankingMetric;

    #[test]
    fn sklearn_docstring() {
        let ndcg = Ndcg::new(TiePolicy::Average);
        let gains = [[10, 0, 0, 1, 5]];
        let v = ndcg
            .evaluate(&gains, &[[0.1, 0.2, 0.3, 4.0, 70.0]], None)
            .unwrap();
        assert!((v - 0.695_694_044_381_307_6).abs() < 1e-12, "{v}");
    }

    #[test]
    fn negative_gains_are_rejected_with_their_location() {
        let err = Ndcg::new(TiePolicy::Average)
            .evaluate(&[[1.0, 0.0], [0.0, -1.0]], &[[0.5, 0.1]; 2], None)
            .unwrap_err();
        assert!(matches!(
            err,
            Error::InvalidLabel {
                row: 1,
                column: 1,
                expected: LabelDomain::NonNegative,
                ..
            }
        ));
    }

    #[test]
    fn binary_ideal_equals_the_ranked_ideal_bitwise() {
        let rows: [&[f64]; 4] = [
            &[1.0, 0.0, 1.0, 1.0, 0.0],
            &[0.0, 0.0, 0.0],
            &[1.0; 7],
            &[
                0.0, 1.0, -0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0,
            ],
        ];
        for gains in rows {
            let n_relevant = gains.iter().filter(|&&g| g != 0.0).count();
            for k in [None, Some(1), Some(3), Some(20)] {
                let ranked = with_ideal_ranking(gains, k, |row| discounted_gain(row, k, 2.0));
                let formula = ideal_dcg(gains, n_relevant, k);
                assert_eq!(ranked.to_bits(), formula.to_bits(), "{gains:?} {k:?}");
            }
        }
    }

    #[test]
    fn zero_ideal_scores_zero() {
        // With k = 1 the ideal puts the gain 0 first: IDCG = 0, while DCG = -1.
        let ndcg = Ndcg::new(TiePolicy::Average)
            .with_label_domain(LabelDomain::NonZero)
            .with_k(Some(1))
            .unwrap();
        let v = ndcg.evaluate(&[[0.0, -1.0]], &[[0.1, 0.9]], None).unwrap();
        assert_eq!(v, 0.0);
    }
}
