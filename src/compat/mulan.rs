//! MULAN (`mulan.evaluation.measure`, git 43f6389, with the Weka 3.7.12 it pins): the
//! example-based ranking measures, as values named like MULAN's classes.
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

use crate::{metrics, LabelDomain, RowRule, Summation, TieGrouping, TiePolicy};

/// `AveragePrecision`: rows without a relevant label are skipped (NaN if every row is).
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
        .with_summation(Summation::Sequential);

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
