//! mldr 0.4.2 (R): `average_precision`, `coverage`, `one_error`, `ranking_loss`, and the
//! pROC-based `macro_auc`, `example_auc`, `micro_auc`.
//!
//! Ranks come from R's `rank(-scores, ties.method = ties_method)`, default `"last"`, with
//! exact ties. Labels must be 0 or 1. Every row counts in the plain mean.
//!
//! Deliberate difference: with a single label column, mldr's `average_precision` and
//! `coverage` fail with "subscript out of bounds" as soon as a row after the first has a
//! relevant label (an indexing bug, docs/conventions.md); these presets compute the value.

use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::{
    Average, AveragePrecision, Coverage, Direction, Error, LabelDomain, OneError, RankingLoss,
    RankingMetric, RocAuc, Score, TiePolicy, Undefined,
};

/// `average_precision(true_labels, predictions)` with the default `ties_method = "last"`;
/// `.with_ties(...)` for the others. Rows without a relevant label score 1; with tied relevant
/// labels `"min"` and `"average"` can exceed 1, as in mldr.
///
/// # Example
/// ```
/// use rankmetrics::{mldr, RankingMetric, TiePolicy};
/// let (y, s) = ([[1, 1, 1]], [[0.3, 0.3, 0.3]]);
/// assert_eq!(mldr::AVERAGE_PRECISION.evaluate(&y, &s, None).unwrap(), 1.0);
/// assert_eq!(mldr::AVERAGE_PRECISION.with_ties(TiePolicy::Min).evaluate(&y, &s, None).unwrap(), 3.0);
/// ```
pub const AVERAGE_PRECISION: AveragePrecision =
    AveragePrecision::new(TiePolicy::Last).with_label_domain(LabelDomain::Binary);

/// `coverage(true_labels, predictions)`: worst relevant rank − 1, default `ties_method =
/// "last"`; 0 for rows without a relevant label.
///
/// # Example
/// ```
/// use rankmetrics::{mldr, RankingMetric};
/// assert_eq!(mldr::COVERAGE.evaluate(&[[1, 1, 1]], &[[0.3, 0.3, 0.3]], None).unwrap(), 2.0);
/// ```
pub const COVERAGE: Coverage =
    Coverage::new(TiePolicy::Last).with_label_domain(LabelDomain::Binary);

/// `one_error(true_labels, predictions)`: R's `which.max` takes the first maximum, so ties
/// break by column order (`TiePolicy::First`); mldr has no tie parameter here.
///
/// # Example
/// ```
/// use rankmetrics::{mldr, RankingMetric};
/// assert_eq!(mldr::ONE_ERROR.evaluate(&[[0, 1]], &[[0.5, 0.5]], None).unwrap(), 1.0);
/// ```
pub const ONE_ERROR: OneError =
    OneError::new(TiePolicy::First).with_label_domain(LabelDomain::Binary);

/// `ranking_loss(true_labels, predictions)`: on raw scores with `<=`, so a tied pair is an
/// error (`TiePolicy::Max`); degenerate rows score 0.
///
/// # Example
/// ```
/// use rankmetrics::{mldr, RankingMetric};
/// assert_eq!(mldr::RANKING_LOSS.evaluate(&[[0, 1]], &[[0.5, 0.5]], None).unwrap(), 1.0);
/// ```
pub const RANKING_LOSS: RankingLoss =
    RankingLoss::new(TiePolicy::Max).with_label_domain(LabelDomain::Binary);

toolkit_fn! {
    /// `mldr::average_precision(true_labels, predictions, ties_method)`.
    ///
    /// # Errors
    /// Labels other than 0/1, non-finite scores, mismatched shapes, empty input.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{mldr, TiePolicy};
    /// let v = mldr::average_precision(&[[1, 0]], &[[0.5, 0.5]], TiePolicy::Average).unwrap();
    /// assert!((v - 2.0 / 3.0).abs() < 1e-15);
    /// ```
    pub fn average_precision(true_labels: &Y, predictions: &S, ties_method: TiePolicy) {
        AVERAGE_PRECISION
            .with_ties(ties_method)
            .evaluate(true_labels, predictions, None)
    }
}

toolkit_fn! {
    /// `mldr::coverage(true_labels, predictions, ties_method)`.
    ///
    /// # Errors
    /// As [`average_precision`].
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{mldr, TiePolicy};
    /// assert_eq!(mldr::coverage(&[[1, 0]], &[[0.5, 0.5]], TiePolicy::Last).unwrap(), 1.0);
    /// ```
    pub fn coverage(true_labels: &Y, predictions: &S, ties_method: TiePolicy) {
        COVERAGE
            .with_ties(ties_method)
            .evaluate(true_labels, predictions, None)
    }
}

toolkit_fn! {
    /// `mldr::one_error(true_labels, predictions)`.
    ///
    /// # Errors
    /// As [`average_precision`].
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::mldr::one_error(&[[1, 0]], &[[0.5, 0.5]]).unwrap(), 0.0);
    /// ```
    pub fn one_error(true_labels: &Y, predictions: &S) {
        ONE_ERROR.evaluate(true_labels, predictions, None)
    }
}

toolkit_fn! {
    /// `mldr::ranking_loss(true_labels, predictions)`.
    ///
    /// # Errors
    /// As [`average_precision`].
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::mldr::ranking_loss(&[[1, 0]], &[[0.5, 0.5]]).unwrap(), 1.0);
    /// ```
    pub fn ranking_loss(true_labels: &Y, predictions: &S) {
        RANKING_LOSS.evaluate(true_labels, predictions, None)
    }
}

/// `macro_auc(true_labels, predictions)` with the defaults `undefined_value = 0.5, na.rm =
/// FALSE`: each label's `pROC::auc` (direction auto, [`Direction::Auto`]), 0.5 for a label
/// with a single class, NaN (R's `NA`) when no label has both classes. See [`macro_auc`] for
/// the other settings.
///
/// # Example
/// ```
/// use rankmetrics::{mldr, RankingMetric};
/// let (y, s) = ([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]]);
/// // Labels 0 and 2 are inverted, so pROC flips them to 1; label 1 is undefined: 0.5.
/// assert!((mldr::MACRO_AUC.evaluate(&y, &s, None).unwrap() - 2.5 / 3.0).abs() < 1e-15);
/// ```
pub const MACRO_AUC: RocAuc = RocAuc::new(Average::Macro, TiePolicy::Average)
    .with_label_domain(LabelDomain::Binary)
    .with_direction(Direction::Auto)
    .on_undefined(Undefined::Value(0.5))
    .nan_if_none_defined(true);

/// `example_auc(true_labels, predictions)`: [`MACRO_AUC`]'s rules over each row's labels.
///
/// # Example
/// ```
/// use rankmetrics::{mldr, RankingMetric};
/// let (y, s) = ([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]]);
/// assert_eq!(mldr::EXAMPLE_AUC.evaluate(&y, &s, None).unwrap(), 0.75);
/// ```
pub const EXAMPLE_AUC: RocAuc = MACRO_AUC.averaged(Average::Samples);

/// `micro_auc(true_labels, predictions)`: `pROC::auc` of all cells pooled, direction auto;
/// a single-class pool is an error ([`Error::SingleClass`]).
///
/// # Example
/// ```
/// use rankmetrics::{mldr, RankingMetric};
/// let (y, s) = ([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]]);
/// assert_eq!(mldr::MICRO_AUC.evaluate(&y, &s, None).unwrap(), 0.75);
/// assert!(mldr::MICRO_AUC.evaluate(&[[0, 0]], &[[0.1, 0.2]], None).is_err());
/// ```
pub const MICRO_AUC: RocAuc = MACRO_AUC
    .averaged(Average::Micro)
    .on_undefined(Undefined::Reject);

/// mldr's `undefined_value`/`na.rm` pair as an [`Undefined`] rule: a number counts; `NA`
/// (`None`) propagates, or is dropped under `na.rm = TRUE`. `NaN` is `NA`, because R's
/// `mean(na.rm = TRUE)` drops `NaN` as it drops `NA` (`is.na(NaN)` is `TRUE`), and without
/// `na.rm` either one makes the mean missing.
///
/// # Example
/// ```
/// use rankmetrics::{mldr, Undefined};
/// assert_eq!(mldr::undefined_rule(None, true), Undefined::Skip);
/// assert_eq!(mldr::undefined_rule(Some(f64::NAN), true), Undefined::Skip);
/// assert_eq!(mldr::undefined_rule(Some(0.5), false), Undefined::Value(0.5));
/// ```
pub fn undefined_rule(undefined_value: Option<f64>, na_rm: bool) -> Undefined {
    match (undefined_value.filter(|v| !v.is_nan()), na_rm) {
        (Some(v), _) => Undefined::Value(v),
        (None, true) => Undefined::Skip,
        (None, false) => Undefined::Nan,
    }
}

toolkit_fn! {
    /// `mldr::macro_auc(true_labels, predictions, undefined_value, na.rm)`; `None` is R's `NA`,
    /// and so is `Some(f64::NAN)` ([`undefined_rule`]).
    ///
    /// # Errors
    /// As [`average_precision`].
    ///
    /// # Example
    /// ```
    /// use rankmetrics::mldr;
    /// let (y, s) = ([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]]);
    /// assert_eq!(mldr::macro_auc(&y, &s, None, true).unwrap(), 1.0);
    /// assert!(mldr::macro_auc(&y, &s, None, false).unwrap().is_nan());
    /// ```
    pub fn macro_auc(true_labels: &Y, predictions: &S, undefined_value: Option<f64>, na_rm: bool) {
        MACRO_AUC
            .on_undefined(undefined_rule(undefined_value, na_rm))
            .evaluate(true_labels, predictions, None)
    }
}

toolkit_fn! {
    /// `mldr::example_auc(true_labels, predictions, undefined_value, na.rm)`; `None` is R's `NA`,
    /// and so is `Some(f64::NAN)` ([`undefined_rule`]).
    ///
    /// # Errors
    /// As [`average_precision`].
    ///
    /// # Example
    /// ```
    /// use rankmetrics::mldr;
    /// assert!(mldr::example_auc(&[[1, 1]], &[[0.5, 0.2]], Some(0.5), false).unwrap().is_nan());
    /// ```
    pub fn example_auc(true_labels: &Y, predictions: &S, undefined_value: Option<f64>, na_rm: bool) {
        EXAMPLE_AUC
            .on_undefined(undefined_rule(undefined_value, na_rm))
            .evaluate(true_labels, predictions, None)
    }
}

toolkit_fn! {
    /// `mldr::micro_auc(true_labels, predictions)`.
    ///
    /// # Errors
    /// [`Error::SingleClass`] when every cell is 0 or every cell is 1; otherwise as
    /// [`average_precision`].
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::mldr::micro_auc(&[[1, 0]], &[[0.1, 0.9]]).unwrap(), 1.0);
    /// ```
    pub fn micro_auc(true_labels: &Y, predictions: &S) {
        MICRO_AUC.evaluate(true_labels, predictions, None)
    }
}
