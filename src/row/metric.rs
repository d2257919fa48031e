//! What a row-wise metric is to the row pass: its formula ([`RowMetric`]) and its options
//! ([`RowOptions`], [`RowRule`], [`ZeroWeight`]).

use crate::error::{Error, LabelDomain};
use crate::kernel::{RankedRow, Ranking, RelevantEnd};
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::row::accumulator::RowAccumulator;
use crate::row::pass::for_each_row;
use crate::score::Score;
use crate::sum::Summation;
use crate::ties::TiePolicy;
use crate::validate::IndicatorValues;

/// What a row-wise metric does with a degenerate row (no relevant label, or all relevant).
///
/// # Example
/// ```
/// use rankmetrics::{AveragePrecision, RankingMetric, RowRule, TiePolicy};
/// let (y, s) = ([[0, 0], [1, 0]], [[0.1, 0.2], [0.1, 0.2]]);
/// let ap = AveragePrecision::new(TiePolicy::Max);
/// assert_eq!(ap.evaluate(&y, &s, None).unwrap(), 0.75); // (1 + 0.5) / 2
/// let skip = ap.on_no_relevant(RowRule::Skip); // MULAN's rule
/// assert_eq!(skip.evaluate(&y, &s, None).unwrap(), 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RowRule {
    /// Apply the metric's formula (which may give NaN where it divides by zero).
    Formula,
    /// The row takes this value and counts in the mean.
    Value(#[cfg_attr(feature = "serde", serde(with = "crate::state_format::f64_bits"))] f64),
    /// The row is left out of the mean (its weight too). Per-sample output gives `None`.
    Skip,
    /// The row is an error: [`Error::DegenerateRow`].
    Reject,
}

/// What a metric returns when the weights of the rows that count sum to zero.
///
/// # Example
/// ```
/// use rankmetrics::{sklearn, ZeroWeight};
/// let (y, s, w) = ([[1, 0], [0, 1]], [[0.5, 0.2], [0.1, 0.3]], [0.0, 0.0]);
/// assert!(sklearn::label_ranking_average_precision_score(&y, &s, Some(&w)).unwrap().is_nan());
/// assert!(sklearn::coverage_error(&y, &s, Some(&w)).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ZeroWeight {
    /// [`Error::ZeroTotalWeight`].
    Error,
    /// NaN (scikit-learn's LRAP).
    Nan,
}

/// The options every row-wise metric has: ranking, degenerate-row rules, label domain, minimum
/// label count, the zero-weight rule and the summation.
///
/// # Example
/// ```
/// use rankmetrics::{RowOptions, RowRule, TiePolicy};
/// use rankmetrics::LabelDomain;
/// let o = RowOptions::new(TiePolicy::Max, RowRule::Value(0.0), RowRule::Formula);
/// assert_eq!((o.min_labels, o.labels), (1, LabelDomain::Binary));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RowOptions {
    /// The ranking the formula reads.
    pub ranking: Ranking,
    /// The rule for rows with no relevant label.
    pub no_relevant: RowRule,
    /// The rule for rows whose labels are all relevant.
    pub all_relevant: RowRule,
    /// Which label values are accepted: 0 or 1 unless the metric takes gains, or was told
    /// that every non-zero label is relevant ([`LabelDomain::NonZero`]).
    pub labels: LabelDomain,
    /// The fewest labels per row accepted.
    pub min_labels: usize,
    /// What a zero total weight gives.
    pub zero_weight: ZeroWeight,
    /// How row values are summed.
    pub summation: Summation,
}

impl RowOptions {
    /// Options with the given tie policy and degenerate-row rules, exact tie grouping, labels
    /// 0 or 1 ([`LabelDomain::Binary`]: any other value is [`Error::InvalidLabel`]), at least
    /// one label, an error for zero total weight, and exact sums.
    pub const fn new(ties: TiePolicy, no_relevant: RowRule, all_relevant: RowRule) -> Self {
        RowOptions {
            ranking: Ranking::new(ties),
            no_relevant,
            all_relevant,
            labels: LabelDomain::Binary,
            min_labels: 1,
            zero_weight: ZeroWeight::Error,
            summation: Summation::Exact,
        }
    }
}

/// A metric defined by one value per row, averaged over rows.
///
/// Implement [`options`](Self::options) and [`row_value`](Self::row_value) (the formula on one
/// [`RankedRow`]); [`RankingMetric`](crate::RankingMetric) and [`per_sample`](Self::per_sample) follow, with
/// validation and averaging written once for all metrics. `row_value` is called for every
/// row whose degenerate-row rule is [`RowRule::Formula`], and for every non-degenerate row.
///
/// # Example
/// ```
/// use rankmetrics::{RankedRow, RankingMetric, RowMetric, RowOptions, RowRule, TiePolicy};
/// /// Precision@1 with ties broken by column order.
/// struct PrecisionAt1;
/// impl RowMetric for PrecisionAt1 {
///     fn options(&self) -> RowOptions {
///         RowOptions::new(TiePolicy::First, RowRule::Formula, RowRule::Formula)
///     }
///     fn row_value(&self, row: &RankedRow<'_>) -> f64 {
///         row.blocks()[0].relevant as f64
///     }
/// }
/// let v = PrecisionAt1.evaluate(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.5, 0.5]], None).unwrap();
/// assert_eq!(v, 0.5);
/// ```
pub trait RowMetric {
    /// The metric's options.
    fn options(&self) -> RowOptions;
    /// The metric's value on one ranked row.
    fn row_value(&self, row: &RankedRow<'_>) -> f64;

    /// Whether the metric can be computed as configured: `Err` (for instance
    /// [`Error::UnsupportedPolicy`]) refuses every evaluation before any row is read. Default:
    /// `Ok`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, RowMetric, TiePolicy};
    /// assert!(Coverage::new(TiePolicy::Expected).check().is_ok());
    /// ```
    fn check(&self) -> Result<(), Error> {
        Ok(())
    }

    /// The number of top positions the formula reads, if it reads no further. Rows are then
    /// ranked by [`Ranker::rank_top`](crate::Ranker::rank_top) (one pass plus a sort of the top, instead of a sort of
    /// the whole row), or, for a metric that also
    /// [reads only relevant blocks](Self::reads_only_relevant_blocks), counted as by
    /// [`Ranker::rank_relevant`](crate::Ranker::rank_relevant) down to the first relevant block at position k or below; and
    /// `row_value` may read only what [`RankedRow::covers_top`] covers. `None` (the default):
    /// the whole row is ranked.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, PrecisionAtK, RowMetric, TiePolicy};
    /// assert_eq!(Coverage::new(TiePolicy::Max).top_k(), None);
    /// assert_eq!(PrecisionAtK::new(TiePolicy::Average, 5).unwrap().top_k(), Some(5));
    /// ```
    fn top_k(&self) -> Option<usize> {
        None
    }

    /// Per-label factors (one per column) that multiply the labels' gains before the row is
    /// ranked, or `None` (the default). Propensity-scored metrics weight each label by its
    /// inverse propensity this way, so that the blocks' gains and the optimistic and
    /// pessimistic orders take the weights into account.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, RowMetric, TiePolicy};
    /// assert!(Coverage::new(TiePolicy::Max).gain_weights().is_none());
    /// ```
    fn gain_weights(&self) -> Option<&[f64]> {
        None
    }

    /// An empty [`RowAccumulator`] for this metric: evaluate in
    /// batches and merge shards.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, RowMetric, TiePolicy};
    /// let mut acc = Coverage::new(TiePolicy::Max).accumulator();
    /// acc.update(&[[1, 0]], &[[0.2, 0.9]], None).unwrap();
    /// acc.update(&[[0, 1]], &[[0.2, 0.9]], None).unwrap();
    /// assert_eq!(acc.value().unwrap(), 0.5);
    /// ```
    fn accumulator(&self) -> RowAccumulator<Self>
    where
        Self: Sized + Clone,
    {
        RowAccumulator::new(self.clone())
    }

    /// An empty [`RowAccumulator`] for a shard whose first row is row `first_row` of the whole
    /// data.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, RowMetric, TiePolicy};
    /// let mut acc = Coverage::new(TiePolicy::Max).accumulator_starting_at(10);
    /// acc.update(&[[1, 0]], &[[0.2, 0.9]], None).unwrap();
    /// assert_eq!(acc.rows(), [10..11]);
    /// ```
    fn accumulator_starting_at(&self, first_row: usize) -> RowAccumulator<Self>
    where
        Self: Sized + Clone,
    {
        RowAccumulator::starting_at(self.clone(), first_row)
    }

    /// Whether [`row_value`](Self::row_value) reads only [`RankedRow::relevant_blocks`], the
    /// counts, the sharing and the gains (never [`RankedRow::blocks`] or
    /// [`RankedRow::order`]). Then rows with few relevant labels are ranked by counting
    /// instead of sorting ([`Ranker::rank_relevant`](crate::Ranker::rank_relevant)). Default: `false`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{AveragePrecision, RowMetric, TiePolicy};
    /// assert!(AveragePrecision::new(TiePolicy::Max).reads_only_relevant_blocks());
    /// ```
    fn reads_only_relevant_blocks(&self) -> bool {
        false
    }

    /// The one relevant block [`row_value`](Self::row_value) reads, if it reads only one of
    /// [`RankedRow::relevant_blocks`]: the first (one-error) or the last (coverage), besides
    /// the counts, the sharing and the gains. Then rows are ranked by
    /// [`Ranker::rank_relevant_end`](crate::Ranker::rank_relevant_end) (no sort, two passes over the row), and `row_value`
    /// may see only that block. Implies
    /// [`reads_only_relevant_blocks`](Self::reads_only_relevant_blocks). Default: `None`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{AveragePrecision, OneError, RelevantEnd, RowMetric, TiePolicy};
    /// assert_eq!(OneError::new(TiePolicy::Max).reads_one_relevant_block(), Some(RelevantEnd::First));
    /// assert_eq!(AveragePrecision::new(TiePolicy::Max).reads_one_relevant_block(), None);
    /// ```
    fn reads_one_relevant_block(&self) -> Option<RelevantEnd> {
        None
    }

    /// The value of every row, in row order (`None` for skipped rows). Validation is the same
    /// as for [`RankingMetric::evaluate`](crate::RankingMetric::evaluate).
    ///
    /// # Errors
    /// As [`RankingMetric::evaluate`](crate::RankingMetric::evaluate), except for weight errors (no weights are taken).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{RankingLoss, RowMetric, TiePolicy};
    /// let v = RankingLoss::new(TiePolicy::Max)
    ///     .per_sample(&[[1, 0], [0, 1]], &[[0.5, 0.5], [0.1, 0.9]])
    ///     .unwrap();
    /// assert_eq!(v, [Some(1.0), Some(0.0)]);
    /// ```
    fn per_sample<T, Y, S>(&self, y_true: &Y, y_score: &S) -> Result<Vec<Option<f64>>, Error>
    where
        Self: Sized,
        T: Score,
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        // Grown as rows pass the checks: reserving `nrows` first would try to allocate for a
        // declared shape (e.g. 2^40 rows of 0 labels) that the checks then refuse.
        let mut values = Vec::new();
        let mut indicator = IndicatorValues::default();
        for_each_row(self, y_true, y_score, 0, &mut indicator, |_, v| {
            values.push(v)
        })?;
        Ok(values)
    }
}
