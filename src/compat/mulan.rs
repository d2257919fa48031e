//! MULAN (`mulan.evaluation.measure`, git 43f6389, with the Weka 3.7.12 it pins): the
//! ranking measures, example-based and label-based, as values named like MULAN's classes.
//!
//! MULAN ranks with Weka's `Utils.stableSort`: ties break by column, the higher column ranking
//! first (`TiePolicy::Last`), and scores less than 1e-6 apart tie ([`TieGrouping::WEKA`]).
//! Weka releases since August 2018 (3.9.x) compare exactly; `.with_grouping(TieGrouping::Exact)`
//! gives that variant. Labels must be 0 or 1. Every measure is `sum / count` over the rows it
//! counts.
//!
//! ```
//! use rankmetrics::{mulan, RankingMetric};
//! let (y, s) = ([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]]);
//! assert_eq!(mulan::Coverage.evaluate(&y, &s, None).unwrap(), 1.5);
//! assert_eq!(mulan::ErrorSetSize.evaluate(&y, &s, None).unwrap(), 1.5);
//! ```
#![allow(non_upper_case_globals)]

use crate::error::LabelDomain;
use crate::labelwise::{Average, Mean, Undefined};
use crate::metrics::{self, LabelAveragePrecision, RocAuc};
use crate::row::metric::RowRule;
use crate::sum::Summation;
use crate::ties::{TieGrouping, TiePolicy};

/// `AveragePrecision`: rows without a relevant label are skipped (NaN if every row is). A row's
/// precisions are added in column order, as MULAN loops over the relevant labels, so the value
/// is MULAN's bit for bit.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// let v = mulan::AveragePrecision.evaluate(&[[0, 0], [1, 0]], &[[0.1, 0.2], [0.1, 0.2]], None);
/// assert_eq!(v.unwrap(), 0.5);
/// ```
pub const AveragePrecision: metrics::AveragePrecision =
    metrics::AveragePrecision::new(TiePolicy::Last)
        .with_grouping(TieGrouping::WEKA)
        .with_label_domain(LabelDomain::Binary)
        .on_no_relevant(RowRule::Skip)
        .with_summation(Summation::Sequential)
        .summed_in_column_order(true);

/// `Coverage`: worst relevant rank − 1; 0 without a relevant label.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// assert_eq!(mulan::Coverage.evaluate(&[[0, 1, 0]], &[[0.5000001, 0.5, 0.1]], None).unwrap(), 0.0);
/// ```
pub const Coverage: metrics::Coverage = metrics::Coverage::new(TiePolicy::Last)
    .with_grouping(TieGrouping::WEKA)
    .with_label_domain(LabelDomain::Binary)
    .with_summation(Summation::Sequential);

/// `OneError`: the top label is the last (highest-column) of the maxima.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// assert_eq!(mulan::OneError.evaluate(&[[0, 1]], &[[0.5, 0.5]], None).unwrap(), 0.0);
/// ```
pub const OneError: metrics::OneError = metrics::OneError::new(TiePolicy::Last)
    .with_grouping(TieGrouping::WEKA)
    .with_label_domain(LabelDomain::Binary)
    .with_summation(Summation::Sequential);

/// `IsError`: 1 if some relevant label ranks below some irrelevant one.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// assert_eq!(mulan::IsError.evaluate(&[[1, 0]], &[[0.5, 0.5]], None).unwrap(), 1.0);
/// ```
pub const IsError: metrics::IsError = metrics::IsError::new(TiePolicy::Last)
    .with_grouping(TieGrouping::WEKA)
    .with_label_domain(LabelDomain::Binary)
    .with_summation(Summation::Sequential);

/// `ErrorSetSize`: the number of mis-ordered pairs, not normalised.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// assert_eq!(mulan::ErrorSetSize.evaluate(&[[1, 0, 0]], &[[0.1, 0.5, 0.5]], None).unwrap(), 2.0);
/// ```
pub const ErrorSetSize: metrics::ErrorSetSize = metrics::ErrorSetSize::new(TiePolicy::Last)
    .with_grouping(TieGrouping::WEKA)
    .with_label_domain(LabelDomain::Binary)
    .with_summation(Summation::Sequential);

/// `RankingLoss`: error set size / (|Y|·|Ȳ|); degenerate rows score 0.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// assert_eq!(mulan::RankingLoss.evaluate(&[[0, 1]], &[[0.5, 0.5]], None).unwrap(), 0.0);
/// ```
pub const RankingLoss: metrics::RankingLoss = metrics::RankingLoss::new(TiePolicy::Last)
    .with_grouping(TieGrouping::WEKA)
    .with_label_domain(LabelDomain::Binary)
    .with_summation(Summation::Sequential);

/// `MacroAUC`: each label's Weka ROC area (Mann–Whitney, ties ½, exact ties, no direction
/// flip), then `Utils.mean`; a single-class label is NaN and makes the result NaN.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// assert_eq!(mulan::MacroAUC.evaluate(&[[1, 0], [0, 1]], &[[0.1, 0.2], [0.9, 0.8]], None).unwrap(), 0.5); // 0 and 1
/// assert!(mulan::MacroAUC.evaluate(&[[1, 0], [1, 1]], &[[0.1, 0.2], [0.9, 0.8]], None).unwrap().is_nan());
/// ```
pub const MacroAUC: RocAuc =
    RocAuc::new(Average::Macro, TiePolicy::Average).with_mean(Mean::Sequential);

/// `MicroAUC`: the ROC area of all cells pooled; NaN if they hold a single class.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// assert_eq!(mulan::MicroAUC.evaluate(&[[1, 0], [0, 1]], &[[0.9, 0.9], [0.1, 0.8]], None).unwrap(), 0.625);
/// ```
pub const MicroAUC: RocAuc = MacroAUC.averaged(Average::Micro);

/// `MeanAveragePrecision`: each label's AP with tied instances in row order
/// (`TiePolicy::First`: a stable sort), labels without a relevant instance left out (NaN if
/// all are).
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// let (y, s) = ([[0, 0], [1, 0]], [[0.5, 0.5], [0.5, 0.1]]);
/// assert_eq!(mulan::MeanAveragePrecision.evaluate(&y, &s, None).unwrap(), 0.5);
/// ```
pub const MeanAveragePrecision: LabelAveragePrecision =
    LabelAveragePrecision::new(Average::Macro, TiePolicy::First)
        .on_undefined(Undefined::Skip)
        .with_mean(Mean::Sequential);

/// `GeometricMeanAveragePrecision`: `(Π AP)^(1/L)` over all labels; a label without a
/// relevant instance makes it NaN.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// let (y, s) = ([[1, 1], [0, 1]], [[0.5, 0.5], [0.5, 0.1]]);
/// assert_eq!(mulan::GeometricMeanAveragePrecision.evaluate(&y, &s, None).unwrap(), 1.0);
/// ```
pub const GeometricMeanAveragePrecision: LabelAveragePrecision =
    LabelAveragePrecision::new(Average::Macro, TiePolicy::First).with_mean(Mean::Geometric);

/// `MeanAverageInterpolatedPrecision` with the `Evaluator`'s 10 recall levels
/// (see [`mean_average_interpolated_precision`] for other counts).
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// let (y, s) = ([[0], [1]], [[0.9], [0.1]]);
/// assert_eq!(mulan::MeanAverageInterpolatedPrecision.evaluate(&y, &s, None).unwrap(), 0.5);
/// ```
pub const MeanAverageInterpolatedPrecision: metrics::InterpolatedAveragePrecision =
    mean_average_interpolated_precision(10);

/// `GeometricMeanAverageInterpolatedPrecision` with 10 recall levels.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// let (y, s) = ([[0, 0], [1, 0]], [[0.9, 0.1], [0.1, 0.2]]);
/// assert!(mulan::GeometricMeanAverageInterpolatedPrecision.evaluate(&y, &s, None).unwrap().is_nan());
/// ```
pub const GeometricMeanAverageInterpolatedPrecision: metrics::InterpolatedAveragePrecision =
    geometric_mean_average_interpolated_precision(10);

/// `MeanAverageInterpolatedPrecision(numLabels, levels)`.
///
/// ```
/// use rankmetrics::mulan;
/// assert_eq!(mulan::mean_average_interpolated_precision(11).levels(), 11);
/// ```
pub const fn mean_average_interpolated_precision(
    levels: usize,
) -> metrics::InterpolatedAveragePrecision {
    metrics::InterpolatedAveragePrecision::new(Average::Macro, TiePolicy::First, levels)
        .on_undefined(Undefined::Skip)
        .with_mean(Mean::Sequential)
}

/// `GeometricMeanAverageInterpolatedPrecision(numLabels, levels)`.
///
/// ```
/// use rankmetrics::mulan;
/// assert_eq!(mulan::geometric_mean_average_interpolated_precision(5).levels(), 5);
/// ```
pub const fn geometric_mean_average_interpolated_precision(
    levels: usize,
) -> metrics::InterpolatedAveragePrecision {
    metrics::InterpolatedAveragePrecision::new(Average::Macro, TiePolicy::First, levels)
        .with_mean(Mean::Geometric)
}

/// `MacroAUCPR`: each label's Weka PR area (a tie group is one threshold, `TiePolicy::Max`),
/// 0 for a label without a relevant instance, then `Utils.mean`.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric};
/// let (y, s) = ([[0, 0], [1, 0]], [[0.5, 0.5], [0.5, 0.1]]);
/// assert_eq!(mulan::MacroAUCPR.evaluate(&y, &s, None).unwrap(), 0.25);
/// ```
pub const MacroAUCPR: LabelAveragePrecision =
    LabelAveragePrecision::new(Average::Macro, TiePolicy::Max)
        .on_undefined(Undefined::Value(0.0))
        .with_mean(Mean::Sequential);
