//! torchmetrics' retrieval precision, recall, average precision and reciprocal rank at k.

use crate::error::{Error, LabelDomain};
use crate::kernel::{Block, RankedRow};
use crate::metrics::{row_option_builders, top_k_sum};
use crate::row::metric::{RowMetric, RowOptions, RowRule};
use crate::sum::torch_sum_f32;
use crate::ties::{RankSharing, TieAnalysis, TiePolicy};

/// Which of torchmetrics' binary retrieval measures a [`RetrievalAtK`] computes.
///
/// # Example
/// ```
/// use rankmetrics::{RetrievalAtK, RetrievalMeasure, TiePolicy};
/// let m = RetrievalAtK::new(TiePolicy::First, RetrievalMeasure::Recall, Some(3)).unwrap();
/// assert_eq!(m.measure(), RetrievalMeasure::Recall);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum RetrievalMeasure {
    /// `retrieval_precision`: hits in the top k over k (`adaptive_k`: over the number of
    /// documents when k exceeds it; no k: over the number of documents).
    Precision {
        /// Divide by the number of documents where k exceeds it.
        adaptive_k: bool,
    },
    /// `retrieval_recall`: hits in the top k over the relevant documents.
    Recall,
    /// `retrieval_average_precision`: the mean, over the hits in the top k, of the hits up to
    /// each over its position (normalised by the hits inside the top k).
    AveragePrecision,
    /// `retrieval_reciprocal_rank`: one over the position of the first hit in the top k.
    ReciprocalRank,
}

/// Why `Expected` has no closed form for [`RetrievalMeasure::AveragePrecision`].
const AVERAGE_PRECISION_EXPECTED: &str = "the mean over the hits inside the top k divides by \
     a number of hits that varies with the order of a tie group across position k (no \
     expectation of it is computed, with or without k)";

/// Why `Optimistic` and `Pessimistic` are not proven ends for average precision at k.
const AVERAGE_PRECISION_ENDS: &str = "average precision at k divides by the hits inside the \
     top k: a hit that a tie group brings inside k at a low precision can lower the mean, so \
     the orders that rank hits first or last are not proven to bound it";

/// One of torchmetrics' binary retrieval measures at k ([`RetrievalMeasure`]) on rows of *hit
/// labels* ([`LabelDomain::Hits`]): 1 for a relevant document, 0 for an irrelevant one, -1 for
/// a relevant document that never counts as retrieved (torchmetrics' rule for documents scored
/// at most 0, which [`torchmetrics::retrieval_precision`](crate::torchmetrics::retrieval_precision)
/// and its kin apply). 0/1 labels are plain relevance. A row without a relevant document
/// scores 0, as torchmetrics' functions give it. Row values are `float32` quotients (average
/// precision: torchmetrics' `float32` mean of its `float32` quotients), returned as `f64`.
///
/// Ties: under `First`, `Last`, `Random`, `Optimistic` and `Pessimistic` every block is one
/// document. Under `Average` and `Expected` a tie group reaching across position k counts its
/// expected share of hits (precision, recall); `Max` counts a group wholly when its shared
/// rank is at most k, `Min` when its first position is. The reciprocal rank of a group's
/// first hit is one over its shared rank (`Average`, `Max`, `Min`) or its exact expectation
/// (`Expected`); average precision gives each of a group's hits the group's shared rank and
/// the hits up to the group's end (a group straddling k counts whole when its shared rank is
/// at most k), and has no closed form under `Expected` ([`Error::UnsupportedPolicy`]).
///
/// # Example
/// ```
/// use rankmetrics::{RankingMetric, RetrievalAtK, RetrievalMeasure, TiePolicy};
/// // Hits at positions 2 and 4; the document at position 3 is relevant but never retrieved.
/// let (y, s) = ([[0, 1, -1, 1, 0]], [[0.9, 0.8, 0.7, 0.6, 0.5]]);
/// let at = |measure, k| RetrievalAtK::new(TiePolicy::First, measure, k).unwrap();
/// assert_eq!(at(RetrievalMeasure::Precision { adaptive_k: false }, Some(2)).evaluate(&y, &s, None).unwrap(), 0.5);
/// assert_eq!(at(RetrievalMeasure::Recall, None).evaluate(&y, &s, None).unwrap(), f64::from(2.0f32 / 3.0));
/// assert_eq!(at(RetrievalMeasure::AveragePrecision, None).evaluate(&y, &s, None).unwrap(), 0.5);
/// assert_eq!(at(RetrievalMeasure::ReciprocalRank, Some(1)).evaluate(&y, &s, None).unwrap(), 0.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RetrievalAtK {
    options: RowOptions,
    measure: RetrievalMeasure,
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "super::checked::optional_top_k")
    )]
    k: Option<usize>,
}

impl RetrievalAtK {
    /// The measure at `k` (`None`: every document) under tie policy `ties`, hit labels -1, 0
    /// or 1 ([`LabelDomain::Hits`]).
    ///
    /// # Errors
    /// [`Error::InvalidK`] for `Some(0)`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{RetrievalAtK, RetrievalMeasure, TiePolicy};
    /// assert!(RetrievalAtK::new(TiePolicy::First, RetrievalMeasure::Recall, Some(0)).is_err());
    /// ```
    pub const fn new(
        ties: TiePolicy, measure: RetrievalMeasure, k: Option<usize>,
    ) -> Result<Self, Error> {
        if let Some(0) = k {
            return Err(Error::InvalidK { value: 0 });
        }
        let mut options = RowOptions::new(ties, RowRule::Value(0.0), RowRule::Formula);
        options.labels = LabelDomain::Hits;
        Ok(RetrievalAtK {
            options,
            measure,
            k,
        })
    }

    /// The cut-off (`None`: every document).
    ///
    /// ```
    /// use rankmetrics::{RetrievalAtK, RetrievalMeasure, TiePolicy};
    /// let m = RetrievalAtK::new(TiePolicy::First, RetrievalMeasure::Recall, Some(3)).unwrap();
    /// assert_eq!(m.k(), Some(3));
    /// ```
    pub const fn k(&self) -> Option<usize> {
        self.k
    }

    /// What the tie analysis guarantees: every measure's interval ends and expectation are
    /// exact, except average precision's (no `Expected`; with a cut-off, ends unproven).
    ///
    /// ```
    /// use rankmetrics::{RetrievalAtK, RetrievalMeasure, TiePolicy};
    /// let ap = RetrievalAtK::new(TiePolicy::First, RetrievalMeasure::AveragePrecision, Some(3)).unwrap();
    /// assert!(ap.tie_analysis().ends_unproven.is_some() && ap.tie_analysis().expected_missing.is_some());
    /// let rr = RetrievalAtK::new(TiePolicy::First, RetrievalMeasure::ReciprocalRank, Some(3)).unwrap();
    /// assert!(rr.tie_analysis().is_exact());
    /// ```
    pub const fn tie_analysis(&self) -> TieAnalysis {
        match (self.measure, self.k) {
            (RetrievalMeasure::AveragePrecision, k) => TieAnalysis {
                ends_unproven: match k {
                    Some(_) => Some(AVERAGE_PRECISION_ENDS),
                    None => None,
                },
                expected_missing: Some(AVERAGE_PRECISION_EXPECTED),
            },
            _ => TieAnalysis::EXACT,
        }
    }

    /// The measure.
    ///
    /// ```
    /// use rankmetrics::{RetrievalAtK, RetrievalMeasure, TiePolicy};
    /// let m = RetrievalAtK::new(TiePolicy::First, RetrievalMeasure::ReciprocalRank, None).unwrap();
    /// assert_eq!(m.measure(), RetrievalMeasure::ReciprocalRank);
    /// ```
    pub const fn measure(&self) -> RetrievalMeasure {
        self.measure
    }
}

row_option_builders!(
    RetrievalAtK,
    ", rankmetrics::RetrievalMeasure::Recall, None",
    ".unwrap()"
);

/// The hits of a block of hit labels: its 1s, where its -1s count as relevant too.
fn hits(b: &Block) -> f64 {
    (b.gain + b.relevant as f64) / 2.0
}

impl RowMetric for RetrievalAtK {
    fn options(&self) -> RowOptions {
        self.options
    }

    fn check(&self) -> Result<(), Error> {
        match (self.measure, self.options.ranking.ties) {
            (RetrievalMeasure::AveragePrecision, TiePolicy::Expected) => {
                Err(Error::UnsupportedPolicy {
                    policy: TiePolicy::Expected,
                    reason: AVERAGE_PRECISION_EXPECTED,
                })
            }
            _ => Ok(()),
        }
    }

    fn top_k(&self) -> Option<usize> {
        self.k
    }

    fn reads_only_relevant_blocks(&self) -> bool {
        true
    }

    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        let n = row.n_labels();
        let k = self.k.map_or(n, |k| k.min(n));
        let value = match self.measure {
            RetrievalMeasure::Precision { adaptive_k } => {
                let divisor = match self.k {
                    Some(k) if !(adaptive_k && k > n) => k,
                    _ => n,
                };
                f64::from(top_k_sum(row, k, hits) as f32 / divisor as f32)
            }
            RetrievalMeasure::Recall => {
                f64::from(top_k_sum(row, k, hits) as f32 / row.n_relevant() as f32)
            }
            RetrievalMeasure::AveragePrecision => average_precision(row, k),
            RetrievalMeasure::ReciprocalRank => reciprocal_rank(row, k),
        };
        if row.covers_top(k) {
            value
        } else {
            f64::NAN
        }
    }
}

/// torchmetrics' average precision at `k` in `float32`: each hit's (hits so far) / position,
/// their `float32` mean; 0 without a hit in the top `k`.
fn average_precision(row: &RankedRow<'_>, k: usize) -> f64 {
    let mut quotients = Vec::new();
    let mut so_far = 0.0f32;
    for b in row.relevant_blocks() {
        let h = hits(b);
        if h == 0.0 {
            continue;
        }
        match row.sharing() {
            None if b.start < k => {
                so_far += 1.0;
                quotients.push(so_far / (b.start + 1) as f32);
            }
            Some(_) if row.rank(b) <= k as f64 => {
                so_far += h as f32;
                let rank = row.rank(b) as f32;
                quotients.extend((0..h as usize).map(|_| so_far / rank));
            }
            _ => break,
        }
    }
    if quotients.is_empty() {
        0.0
    } else {
        f64::from(torch_sum_f32(&quotients) / quotients.len() as f32)
    }
}

/// One over the position of the first hit within the top `k` (in `float32`), 0 without one.
fn reciprocal_rank(row: &RankedRow<'_>, k: usize) -> f64 {
    let Some(b) = row.relevant_blocks().find(|b| hits(b) > 0.0) else {
        return 0.0;
    };
    let value = match row.sharing() {
        None if b.start < k => 1.0 / (b.start + 1) as f64,
        Some(RankSharing::Expected) => expected_reciprocal_rank(b, hits(b) as usize, k),
        Some(_) if row.rank(b) <= k as f64 => 1.0 / row.rank(b),
        _ => 0.0,
    };
    f64::from(value as f32)
}

/// E[1/p · 1(p ≤ k)] for the position p of the first of `h` hits placed uniformly at random in
/// `b`'s positions: the first hit is the block's j-th member with probability
/// C(len − j, h − 1) / C(len, h).
fn expected_reciprocal_rank(b: &Block, h: usize, k: usize) -> f64 {
    let mut probability = h as f64 / b.len as f64;
    let mut sum = 0.0;
    for j in 1..=b.len.min(k.saturating_sub(b.start)) {
        sum += probability / (b.start + j) as f64;
        // P(j + 1) / P(j) = (len − j − h + 1) / (len − j).
        let (remaining, after) = (b.len - j, (b.len + 1).saturating_sub(j + h));
        probability = if remaining == 0 {
            0.0
        } else {
            probability * after as f64 / remaining as f64
        };
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::RankingMetric;
    use rstest::rstest;

    fn value(
        measure: RetrievalMeasure, k: Option<usize>, ties: TiePolicy, y: &[f64], s: &[f64],
    ) -> f64 {
        let m = RetrievalAtK::new(ties, measure, k).unwrap();
        m.evaluate(&vec![y.to_vec()], &vec![s.to_vec()], None)
            .unwrap()
    }

    // Hit labels: 1 hit, -1 relevant but never retrieved, 0 irrelevant. Scores distinct.
    const Y: [f64; 5] = [0.0, 1.0, -1.0, 1.0, 0.0];
    const S: [f64; 5] = [0.9, 0.8, 0.7, 0.6, 0.5];

    #[rstest]
    #[case(RetrievalMeasure::Precision { adaptive_k: false }, Some(2), 0.5)]
    #[case(RetrievalMeasure::Precision { adaptive_k: false }, Some(8), 0.25)]
    #[case(RetrievalMeasure::Precision { adaptive_k: true }, Some(8), 0.4)]
    #[case(RetrievalMeasure::Precision { adaptive_k: false }, None, 0.4)]
    #[case(RetrievalMeasure::Recall, Some(2), 1.0 / 3.0)]
    #[case(RetrievalMeasure::Recall, None, 2.0 / 3.0)]
    #[case(RetrievalMeasure::AveragePrecision, Some(2), 0.5)]
    #[case(RetrievalMeasure::AveragePrecision, None, (0.5 + 0.5) / 2.0)]
    #[case(RetrievalMeasure::ReciprocalRank, Some(1), 0.0)]
    #[case(RetrievalMeasure::ReciprocalRank, None, 0.5)]
    fn torchmetrics_formulas(
        #[case] m: RetrievalMeasure, #[case] k: Option<usize>, #[case] expected: f64,
    ) {
        let got = value(m, k, TiePolicy::First, &Y, &S);
        assert_eq!(got, f64::from(expected as f32), "{m:?} k={k:?}");
    }

    #[test]
    fn expected_reciprocal_rank_is_the_mean_over_orders() {
        // A tie group of 3 with 1 hit after one irrelevant document: positions 2, 3, 4 alike.
        let (y, s) = ([0.0, 0.0, 1.0, 0.0], [0.9, 0.5, 0.5, 0.5]);
        let got = value(
            RetrievalMeasure::ReciprocalRank,
            None,
            TiePolicy::Expected,
            &y,
            &s,
        );
        let exact = (1.0 / 2.0 + 1.0 / 3.0 + 1.0 / 4.0) / 3.0;
        assert_eq!(got, f64::from(exact as f32));
        // Two hits among the three: the first is at position 2 with probability 2/3.
        let y = [0.0, 1.0, 1.0, 0.0];
        let got = value(
            RetrievalMeasure::ReciprocalRank,
            Some(3),
            TiePolicy::Expected,
            &y,
            &s,
        );
        let exact = 2.0 / 3.0 / 2.0 + 1.0 / 3.0 / 3.0;
        assert_eq!(got, f64::from(exact as f32));
        let optimistic = value(
            RetrievalMeasure::ReciprocalRank,
            None,
            TiePolicy::Optimistic,
            &y,
            &s,
        );
        let pessimistic = value(
            RetrievalMeasure::ReciprocalRank,
            None,
            TiePolicy::Pessimistic,
            &y,
            &s,
        );
        assert_eq!(
            (optimistic, pessimistic),
            (0.5, f64::from((1.0f64 / 3.0) as f32))
        );
    }

    #[test]
    fn labels_other_than_hit_labels_are_refused() {
        let m = RetrievalAtK::new(TiePolicy::First, RetrievalMeasure::Recall, None).unwrap();
        let err = m.evaluate(&[[1.0, 2.0]], &[[0.5, 0.4]], None).unwrap_err();
        assert!(
            matches!(
                err,
                Error::InvalidLabel {
                    column: 1,
                    expected: LabelDomain::Hits,
                    ..
                }
            ),
            "{err}"
        );
    }

    /// A tie group of 4 with 2 hits straddling k = 3, behind one hit: each sharing rule.
    #[rstest]
    #[case(TiePolicy::Average, RetrievalMeasure::Precision { adaptive_k: false }, (1.0 + 2.0 * 2.0 / 4.0) / 3.0)]
    #[case(TiePolicy::Expected, RetrievalMeasure::Precision { adaptive_k: false }, (1.0 + 2.0 * 2.0 / 4.0) / 3.0)]
    #[case(TiePolicy::Max, RetrievalMeasure::Precision { adaptive_k: false }, 1.0 / 3.0)]
    #[case(TiePolicy::Min, RetrievalMeasure::Precision { adaptive_k: false }, 1.0)]
    #[case(TiePolicy::Average, RetrievalMeasure::Recall, (1.0 + 2.0 * 2.0 / 4.0) / 3.0)]
    #[case(TiePolicy::Max, RetrievalMeasure::Recall, 1.0 / 3.0)]
    // Shared rank 3.5 (Average) lies beyond k: only the first hit counts.
    #[case(TiePolicy::Average, RetrievalMeasure::AveragePrecision, 1.0)]
    #[case(TiePolicy::Min, RetrievalMeasure::AveragePrecision, (1.0 + 3.0 / 2.0 + 3.0 / 2.0) / 3.0)]
    #[case(TiePolicy::Average, RetrievalMeasure::ReciprocalRank, 1.0)]
    fn tie_groups_straddling_k(
        #[case] ties: TiePolicy, #[case] m: RetrievalMeasure, #[case] expected: f64,
    ) {
        let (y, s) = ([1.0, 1.0, 0.0, 0.0, 1.0], [0.9, 0.5, 0.5, 0.5, 0.5]);
        let got = value(m, Some(3), ties, &y, &s);
        assert_eq!(got, f64::from(expected as f32), "{ties:?} {m:?}");
    }

    #[test]
    fn expected_average_precision_is_refused() {
        let m = RetrievalAtK::new(
            TiePolicy::Expected,
            RetrievalMeasure::AveragePrecision,
            None,
        )
        .unwrap();
        let err = m.evaluate(&[[1.0, 0.0]], &[[0.5, 0.5]], None).unwrap_err();
        assert!(matches!(err, Error::UnsupportedPolicy { .. }), "{err}");
        assert_eq!(
            RetrievalAtK::new(TiePolicy::First, RetrievalMeasure::Recall, Some(0)),
            Err(Error::InvalidK { value: 0 })
        );
    }

    #[test]
    fn a_row_without_relevant_documents_scores_0() {
        for m in [
            RetrievalMeasure::Precision { adaptive_k: false },
            RetrievalMeasure::Recall,
            RetrievalMeasure::AveragePrecision,
            RetrievalMeasure::ReciprocalRank,
        ] {
            assert_eq!(
                value(m, Some(2), TiePolicy::First, &[0.0; 3], &[0.1, 0.2, 0.3]),
                0.0
            );
            // Relevant documents that are never retrieved count in recall's denominator only.
            assert_eq!(
                value(
                    m,
                    None,
                    TiePolicy::First,
                    &[-1.0, 0.0, 0.0],
                    &[0.3, 0.2, 0.1]
                ),
                0.0
            );
        }
    }
}
