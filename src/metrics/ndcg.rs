//! Normalised discounted cumulative gain.

use std::cell::RefCell;

use crate::error::{Error, LabelDomain};
use crate::kernel::{RankedRow, Ranker, Ranking};
use crate::metrics::dcg::discounted_gain;
use crate::metrics::{ideal_binary_dcg, row_option_builders};
use crate::row::metric::{RowMetric, RowOptions, RowRule};
use crate::sum::torch_sum_f32;
use crate::ties::{RankSharing, TiePolicy};

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
    /// Compute a row's value in torchmetrics' `float32` arithmetic.
    float32: bool,
}

impl Ndcg {
    /// NDCG with the given tie policy, no truncation, non-negative gains; a row without a
    /// non-zero gain scores 0.
    pub const fn new(ties: TiePolicy) -> Self {
        let mut options = RowOptions::new(ties, RowRule::Value(0.0), RowRule::Formula);
        options.labels = LabelDomain::NonNegative;
        Ndcg {
            options,
            k: None,
            float32: false,
        }
    }

    /// The same metric computing each row's value as torchmetrics'
    /// `retrieval_normalized_dcg` does in `float32` (`true`): gains and discounts
    /// `1/log2(i + 2)` in `float32`, the discounts' running total accumulated in `f64` and
    /// rounded at each position (torch's `cumsum`), each tie group's mean gain times its share
    /// of that total, the groups' and the ideal ordering's products summed as torch's
    /// `float32` `sum()` sums, and their quotient in `float32`. It applies under the tie
    /// policies that keep tie groups whole with mean gains (`Average`) or make every group
    /// one label (`First`, `Last`, `Random`, `Optimistic`, `Pessimistic`); under the others
    /// the value is the `f64` one. The whole row is ranked, as torch's sum depends on the
    /// number of groups. Rows of more than 73,418 labels can differ from torch in the last
    /// bit: its vectorised `log2` is not correctly rounded at a few positions from there on.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Ndcg, RankingMetric, TiePolicy};
    /// // torchmetrics' retrieval_normalized_dcg(torch.linspace(1, 0, 11), [0]*10 + [1]).
    /// let scores = [[1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0]];
    /// let mut target = [[0; 11]];
    /// target[0][10] = 1;
    /// let ndcg = Ndcg::new(TiePolicy::Average);
    /// assert_eq!(ndcg.in_float32(true).evaluate(&target, &scores, None).unwrap(), 0.2789425849914551);
    /// assert_eq!(ndcg.evaluate(&target, &scores, None).unwrap(), 0.2789429456511298);
    /// ```
    pub const fn in_float32(mut self, float32: bool) -> Self {
        self.float32 = float32;
        self
    }

    /// Whether a row's value is computed in `float32` ([`in_float32`](Self::in_float32)).
    ///
    /// ```
    /// use rankmetrics::{Ndcg, TiePolicy};
    /// assert!(!Ndcg::new(TiePolicy::Average).computes_in_float32());
    /// ```
    pub const fn computes_in_float32(&self) -> bool {
        self.float32
    }

    /// Whether this row's value is computed in `float32`: asked for, under a tie policy whose
    /// groups `float32_ndcg` computes.
    fn float32_for(&self, sharing: Option<RankSharing>) -> bool {
        self.float32 && matches!(sharing, None | Some(RankSharing::Average))
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
        !self.float32
    }

    fn top_k(&self) -> Option<usize> {
        // torch's float32 sum adds every group: the row is ranked in full.
        self.k.filter(|_| !self.float32)
    }

    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        if self.float32_for(row.sharing()) {
            return float32_ndcg(row, self.k);
        }
        let ideal = ideal_dcg(row.gains(), row.n_relevant(), self.k);
        if ideal == 0.0 {
            0.0
        } else {
            discounted_gain(row, self.k, 2.0) / ideal
        }
    }
}

/// torchmetrics' `float32` NDCG of one fully ranked row, truncated at `k` (see
/// [`Ndcg::in_float32`]).
fn float32_ndcg(row: &RankedRow<'_>, k: Option<usize>) -> f64 {
    let (gains, n) = (row.gains(), row.n_labels());
    let k = k.map_or(n, |k| k.min(n));
    // torch's discount: float32 1 / (float32 log2), zero from position k. The log2 here is
    // correctly rounded; torch's vectorised log2 differs from it by an ulp at a few positions
    // from 73,419 on (25 below 10^6), where this discount can differ from torch's.
    let discount = |i: usize| {
        if i < k {
            1.0 / ((i + 2) as f64).log2() as f32
        } else {
            0.0
        }
    };
    // Each group's mean gain times its share of the discounts' running total (torch's cumsum
    // accumulates in f64 and rounds each position), the gains added in column order (torch's
    // scatter_add).
    let (mut terms, mut members) = (Vec::with_capacity(row.blocks().len()), Vec::new());
    let (mut total, mut position, mut previous) = (0.0f64, 0, 0.0f32);
    for b in row.blocks() {
        let end = b.start + b.len;
        while position < end {
            total += f64::from(discount(position));
            position += 1;
        }
        let running = total as f32;
        let share = running - previous;
        previous = running;
        members.clear();
        members.extend_from_slice(row.order().get(b.start..end).unwrap_or(&[]));
        members.sort_unstable();
        let sum = members.iter().fold(0.0f32, |s, &j| {
            s + gains.get(j as usize).map_or(0.0, |&g| g as f32)
        });
        terms.push(sum / b.len as f32 * share);
    }
    let dcg = torch_sum_f32(&terms);
    let mut ideal: Vec<f32> = gains.iter().map(|&g| g as f32).collect();
    ideal.sort_unstable_by(|a, b| b.total_cmp(a));
    for (i, g) in ideal.iter_mut().enumerate() {
        *g *= discount(i);
    }
    let ideal = torch_sum_f32(&ideal);
    if ideal == 0.0 {
        0.0
    } else {
        f64::from(dcg / ideal)
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
