//! scikit-learn 1.9 (`sklearn.metrics`): coverage, LRAP, ranking loss; DCG and NDCG; and the
//! multilabel `roc_auc_score` and `average_precision_score`.
//!
//! Coverage, LRAP and ranking loss: ties take the worst rank (`TiePolicy::Max`) and a tied
//! relevant/irrelevant pair is mis-ordered. Labels must form a "multilabel-indicator" matrix
//! (integral, at most two distinct values; non-zero = relevant).
//!
//! DCG and NDCG: tied scores share their mean gain (`TiePolicy::Average`); `ignore_ties=True`
//! is `TiePolicy::Last` (see [`dcg_score`]). Gains are any finite numbers (non-negative for
//! NDCG), and at least 2 labels are needed.
//!
//! Weighted means are `Σ w·x / Σ w`. Deliberate difference: negative weights, which
//! scikit-learn silently accepts, are rejected here.

use crate::error::{Error, LabelDomain};
use crate::labelwise::{Average, Undefined};
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::metric::RankingMetric;
use crate::metrics::{
    AveragePrecision, Coverage, Dcg, LabelAveragePrecision, Ndcg, RankingLoss, RocAuc,
};
use crate::row::metric::{RowRule, ZeroWeight};
use crate::score::Score;
use crate::ties::TiePolicy;

/// `coverage_error`: the worst rank of a relevant label, ties at their worst rank, without
/// Tsoumakas' − 1; 0 for rows without a relevant label. Needs at least 2 labels.
///
/// # Example
/// ```
/// use rankmetrics::{sklearn, RankingMetric};
/// let v = sklearn::COVERAGE_ERROR.evaluate(&[[1, 0, 0], [0, 0, 1]], &[[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]], None);
/// assert_eq!(v.unwrap(), 2.5);
/// ```
pub const COVERAGE_ERROR: Coverage = Coverage::new(TiePolicy::Max)
    .one_based(true)
    .with_label_domain(LabelDomain::Indicator)
    .with_min_labels(2);

/// `label_ranking_average_precision_score`: average precision with max ranks; rows with no or
/// only relevant labels score 1; zero total weight gives NaN. Accepts a single label column.
///
/// # Example
/// ```
/// use rankmetrics::{sklearn, RankingMetric};
/// let v = sklearn::LABEL_RANKING_AVERAGE_PRECISION_SCORE.evaluate(&[[1, 1, 0]], &[[0.5, 0.5, 0.5]], None);
/// assert!((v.unwrap() - 2.0 / 3.0).abs() < 1e-15);
/// ```
pub const LABEL_RANKING_AVERAGE_PRECISION_SCORE: AveragePrecision =
    AveragePrecision::new(TiePolicy::Max)
        .on_all_relevant(RowRule::Value(1.0))
        .with_label_domain(LabelDomain::Indicator)
        .on_zero_weight(ZeroWeight::Nan);

/// `label_ranking_loss`: tied pairs are errors; degenerate rows score 0. Needs at least 2
/// labels.
///
/// # Example
/// ```
/// use rankmetrics::{sklearn, RankingMetric};
/// let v = sklearn::LABEL_RANKING_LOSS.evaluate(&[[0, 1]], &[[0.5, 0.5]], None);
/// assert_eq!(v.unwrap(), 1.0);
/// ```
pub const LABEL_RANKING_LOSS: RankingLoss = RankingLoss::new(TiePolicy::Max)
    .with_label_domain(LabelDomain::Indicator)
    .with_min_labels(2);

toolkit_fn! {
    /// `sklearn.metrics.coverage_error(y_true, y_score, sample_weight=...)`; see [`COVERAGE_ERROR`].
    ///
    /// # Errors
    /// As scikit-learn raises: one label column ([`Error::TooFewLabels`]), labels that are not a
    /// multilabel indicator, non-finite scores, mismatched shapes, zero total weight.
    ///
    /// # Example
    /// ```
    /// let v = rankmetrics::sklearn::coverage_error(&[[1, 0, 0], [0, 0, 1]], &[[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]], None);
    /// assert_eq!(v.unwrap(), 2.5);
    /// ```
    pub fn coverage_error(y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>) {
        COVERAGE_ERROR.evaluate(y_true, y_score, sample_weight)
    }
}

toolkit_fn! {
    /// `sklearn.metrics.label_ranking_average_precision_score(...)`; see
    /// [`LABEL_RANKING_AVERAGE_PRECISION_SCORE`].
    ///
    /// # Errors
    /// Labels that are not a multilabel indicator, non-finite scores, mismatched shapes, invalid
    /// weights. Zero total weight gives NaN, as in scikit-learn.
    ///
    /// # Example
    /// ```
    /// let v = rankmetrics::sklearn::label_ranking_average_precision_score(&[[1, 0, 0], [0, 0, 1]], &[[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]], None);
    /// assert!((v.unwrap() - 0.41666666666666663).abs() < 1e-16);
    /// ```
    pub fn label_ranking_average_precision_score(y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>) {
        LABEL_RANKING_AVERAGE_PRECISION_SCORE.evaluate(y_true, y_score, sample_weight)
    }
}

toolkit_fn! {
    /// `sklearn.metrics.label_ranking_loss(...)`; see [`LABEL_RANKING_LOSS`].
    ///
    /// # Errors
    /// As [`coverage_error`].
    ///
    /// # Example
    /// ```
    /// let v = rankmetrics::sklearn::label_ranking_loss(&[[1, 0, 0], [0, 0, 1]], &[[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]], None);
    /// assert_eq!(v.unwrap(), 0.75);
    /// ```
    pub fn label_ranking_loss(y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>) {
        LABEL_RANKING_LOSS.evaluate(y_true, y_score, sample_weight)
    }
}

/// `dcg_score` with its defaults (`k=None`, `log_base=2`, `ignore_ties=False`): tie-averaged
/// gains, any finite gain (negative ones too), at least 2 labels.
///
/// # Example
/// ```
/// use rankmetrics::{sklearn, RankingMetric};
/// let v = sklearn::DCG_SCORE.evaluate(&[[10, 0, 0, 1, 5]], &[[0.1, 0.2, 0.3, 4.0, 70.0]], None);
/// assert!((v.unwrap() - 9.499457825916874).abs() < 1e-12);
/// ```
pub const DCG_SCORE: Dcg = Dcg::new(TiePolicy::Average)
    .with_min_labels(2)
    .with_label_domain(LabelDomain::NonZero);

/// `ndcg_score` with its defaults (`k=None`, `ignore_ties=False`): tie-averaged gains,
/// non-negative gains, at least 2 labels; a row of zero gains scores 0 and counts.
///
/// # Example
/// ```
/// use rankmetrics::{sklearn, RankingMetric};
/// let v = sklearn::NDCG_SCORE.evaluate(&[[10, 0, 0, 1, 5]], &[[0.1, 0.2, 0.3, 4.0, 70.0]], None);
/// assert!((v.unwrap() - 0.6956940443813076).abs() < 1e-12);
/// ```
pub const NDCG_SCORE: Ndcg = Ndcg::new(TiePolicy::Average)
    .with_min_labels(2)
    .with_label_domain(LabelDomain::NonNegative);

/// scikit-learn's `ignore_ties`: `False` averages tied gains; `True` ranks by `np.argsort`
/// reversed, whose order among ties NumPy leaves unspecified. With a stable argsort, reversed,
/// the higher column comes first among ties: `TiePolicy::Last`, the deterministic choice made
/// here.
pub(crate) const fn ignore_ties_policy(ignore_ties: bool) -> TiePolicy {
    if ignore_ties {
        TiePolicy::Last
    } else {
        TiePolicy::Average
    }
}

toolkit_fn! {
    /// `sklearn.metrics.dcg_score(y_true, y_score, k=k, log_base=log_base,
    /// sample_weight=sample_weight, ignore_ties=ignore_ties)`; see [`DCG_SCORE`].
    ///
    /// With `ignore_ties = true` and tied scores, scikit-learn's result depends on NumPy's
    /// unspecified argsort order (on x86 it differs from a stable sort even for 4 elements); this
    /// function uses the stable order (`TiePolicy::Last`), which lies within the range of every
    /// order scikit-learn can produce.
    ///
    /// # Errors
    /// As scikit-learn raises: `k = Some(0)` ([`Error::InvalidK`]); a single label column
    /// ([`Error::TooFewLabels`]); non-finite gains or scores; mismatched shapes; zero total weight.
    /// Deliberate difference: `log_base` in (0, 1], which scikit-learn accepts (all discounts 0 or
    /// negative), is [`Error::InvalidLogBase`].
    ///
    /// # Example
    /// ```
    /// use rankmetrics::sklearn::dcg_score;
    /// let (y, s) = ([[10, 0, 0, 1, 5]], [[1.0, 0.0, 0.0, 0.0, 1.0]]);
    /// assert_eq!(dcg_score(&y, &s, Some(1), 2.0, None, false).unwrap(), 7.5); // (10 + 5) / 2
    /// assert_eq!(dcg_score(&y, &s, Some(1), 2.0, None, true).unwrap(), 5.0); // column 4 first
    /// ```
    pub fn dcg_score(y_true: &Y, y_score: &S, k: Option<usize>, log_base: f64, sample_weight: Option<&[f64]>, ignore_ties: bool) {
        DCG_SCORE
            .with_ties(ignore_ties_policy(ignore_ties))
            .with_k(k)?
            .with_log_base(log_base)?
            .evaluate(y_true, y_score, sample_weight)
    }
}

toolkit_fn! {
    /// `sklearn.metrics.ndcg_score(y_true, y_score, k=k, sample_weight=sample_weight,
    /// ignore_ties=ignore_ties)`; see [`NDCG_SCORE`], and [`dcg_score`] for `ignore_ties`.
    ///
    /// # Errors
    /// As scikit-learn raises: `k = Some(0)`; a negative gain ([`Error::InvalidLabel`] with its
    /// row and column); a single label column ([`Error::TooFewLabels`]); non-finite gains or
    /// scores; mismatched shapes; zero total weight.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::sklearn::ndcg_score;
    /// // The all-zero second row scores 0 and counts: the mean is 0.5, not 1.
    /// let (y, s) = ([[3, 1, 0], [0, 0, 0]], [[0.9, 0.5, 0.1], [0.1, 0.2, 0.3]]);
    /// assert_eq!(ndcg_score(&y, &s, None, None::<&[f64]>, false).unwrap(), 0.5);
    /// assert!(ndcg_score(&[[1], [2]], &[[0.5], [0.1]], None, None::<&[f64]>, false).is_err());
    /// ```
    pub fn ndcg_score(y_true: &Y, y_score: &S, k: Option<usize>, sample_weight: Option<&[f64]>, ignore_ties: bool) {
        NDCG_SCORE
            .with_ties(ignore_ties_policy(ignore_ties))
            .with_k(k)?
            .evaluate(y_true, y_score, sample_weight)
    }
}

/// `roc_auc_score(average="macro")` on a multilabel indicator matrix: each column's
/// Mann–Whitney AUC with sample weights (a tied pair counts ½), NaN for a single-class column
/// (propagating to the mean); `.averaged(...)` for `micro`, `weighted`, `samples`. One column
/// is scikit-learn's plain binary path (`average` ignored). Labels must be 0 or 1 (scikit-learn
/// also reads {-1, 1}; this preset rejects it).
///
/// # Example
/// ```
/// use rankmetrics::{sklearn, Average, RankingMetric};
/// let (y, s) = ([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]]);
/// assert_eq!(sklearn::ROC_AUC_SCORE.averaged(Average::Micro).evaluate(&y, &s, None).unwrap(), 0.25);
/// assert!(sklearn::ROC_AUC_SCORE.evaluate(&y, &s, None).unwrap().is_nan());
/// ```
pub const ROC_AUC_SCORE: RocAuc = RocAuc::new(Average::Macro, TiePolicy::Average)
    .with_label_domain(LabelDomain::Binary)
    .one_column_binary(true);

/// `average_precision_score(average="macro")` on a multilabel indicator matrix: each column's
/// step-wise AP with a tie group as one threshold (`TiePolicy::Max`), 0 for a column without
/// a relevant label; `.averaged(...)` for the other averages. One column is the binary path.
///
/// # Example
/// ```
/// use rankmetrics::{sklearn, RankingMetric};
/// let (y, s) = ([[0, 0], [0, 1]], [[0.5, 0.5], [0.5, 0.5]]);
/// assert_eq!(sklearn::AVERAGE_PRECISION_SCORE.evaluate(&y, &s, None).unwrap(), 0.25);
/// ```
pub const AVERAGE_PRECISION_SCORE: LabelAveragePrecision =
    LabelAveragePrecision::new(Average::Macro, TiePolicy::Max)
        .on_undefined(Undefined::Value(0.0))
        .with_label_domain(LabelDomain::Binary)
        .one_column_binary(true);

toolkit_fn! {
    /// `sklearn.metrics.roc_auc_score(y_true, y_score, average=..., sample_weight=...)` for
    /// multilabel input; see [`ROC_AUC_SCORE`].
    ///
    /// # Errors
    /// Labels other than 0/1, non-finite scores, mismatched shapes, invalid weights; zero total
    /// weight under `samples`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{sklearn, Average};
    /// let v = sklearn::roc_auc_score(&[[1, 0], [0, 1]], &[[0.9, 0.3], [0.2, 0.8]], Average::Macro, None);
    /// assert_eq!(v.unwrap(), 1.0);
    /// ```
    pub fn roc_auc_score(y_true: &Y, y_score: &S, average: Average, sample_weight: Option<&[f64]>) {
        ROC_AUC_SCORE
            .averaged(average)
            .evaluate(y_true, y_score, sample_weight)
    }
}

toolkit_fn! {
    /// `sklearn.metrics.average_precision_score(y_true, y_score, average=..., sample_weight=...)`
    /// for multilabel input; see [`AVERAGE_PRECISION_SCORE`].
    ///
    /// # Errors
    /// As [`roc_auc_score`].
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{sklearn, Average};
    /// let v = sklearn::average_precision_score(&[[1, 0], [0, 1]], &[[0.9, 0.3], [0.2, 0.8]], Average::Micro, None);
    /// assert_eq!(v.unwrap(), 1.0);
    /// ```
    pub fn average_precision_score(y_true: &Y, y_score: &S, average: Average, sample_weight: Option<&[f64]>) {
        AVERAGE_PRECISION_SCORE
            .averaged(average)
            .evaluate(y_true, y_score, sample_weight)
    }
}
