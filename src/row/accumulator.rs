//! Streaming evaluation of a row-wise metric: [`RowAccumulator`] takes rows in batches and
//! merges with other accumulators, for the exact one-shot value.

use crate::error::{Error, Incompatibility};
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::row::metric::RowMetric;
use crate::row::state::RowState;
use crate::score::Score;

/// A row-wise metric evaluated in batches: [`update`](Self::update) with each batch of rows,
/// [`merge`](Self::merge) accumulators of other shards, and read [`value`](Self::value).
///
/// The state is the metric, a few counters and two compensated sums: constant size whatever the
/// number of rows (with feature `serde` it serialises). Batches added in row order to one
/// accumulator give **bitwise** the one-shot value (`evaluate` is one batch of an accumulator);
/// merged shards give it within 1e-12 relative (their sums are combined, not re-added).
///
/// Rows are numbered globally, in error messages and for `TiePolicy::Random`'s streams: a shard
/// that starts at row `r` of the whole data should be created with
/// [`starting_at`](Self::starting_at)`(metric, r)`.
///
/// # Example
/// ```
/// use rankmetrics::{AveragePrecision, RankingMetric, RowMetric, TiePolicy};
/// let lrap = AveragePrecision::new(TiePolicy::Max);
/// let (y, s) = ([[1, 0, 0], [0, 1, 1], [1, 1, 0]], [[0.5, 0.5, 0.1], [0.9, 0.4, 0.4], [0.2, 0.3, 0.1]]);
/// let one_shot = lrap.evaluate(&y, &s, None).unwrap();
///
/// let mut acc = lrap.accumulator();
/// acc.update(&y[..2], &s[..2], None).unwrap();
/// acc.update(&y[2..], &s[2..], None).unwrap();
/// assert_eq!(acc.value().unwrap(), one_shot); // bitwise
///
/// // Shards evaluated apart, then merged.
/// let (mut a, mut b) = (lrap.accumulator(), rankmetrics::RowAccumulator::starting_at(lrap, 1));
/// a.update(&y[..1], &s[..1], None).unwrap();
/// b.update(&y[1..], &s[1..], None).unwrap();
/// a.merge(&b).unwrap();
/// assert!((a.value().unwrap() - one_shot).abs() <= 1e-12 * one_shot);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RowAccumulator<M> {
    metric: M,
    state: RowState,
}

impl<M: RowMetric> RowAccumulator<M> {
    /// An empty accumulator for `metric`, numbering rows from 0.
    pub fn new(metric: M) -> Self {
        Self::starting_at(metric, 0)
    }

    /// An empty accumulator whose first row is row `first_row` of the whole data.
    pub fn starting_at(metric: M, first_row: usize) -> Self {
        let state = RowState::new(metric.options(), first_row);
        RowAccumulator { metric, state }
    }

    /// Adds a batch of rows (an empty batch is a no-op). On error nothing is added.
    ///
    /// # Errors
    /// As [`RankingMetric::evaluate`](crate::RankingMetric::evaluate), plus
    /// [`Error::Incompatible`] when the batch's label count or weighting differs from earlier
    /// batches.
    pub fn update<T, Y, S>(
        &mut self,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[f64]>,
    ) -> Result<(), Error>
    where
        T: Score,
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        self.state
            .update(&self.metric, y_true, y_score, sample_weight)
    }

    /// [`update`](Self::update) with the rows ranked on the threads of the current rayon pool
    /// (feature `rayon`). Row values are summed in row order, so the state is bitwise what
    /// `update` gives, for any number of threads.
    ///
    /// # Errors
    /// As [`update`](Self::update).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{RankingLoss, RowMetric, TiePolicy};
    /// let (y, s) = ([[1, 0], [0, 1], [1, 1]], [[0.5, 0.5], [0.1, 0.9], [0.3, 0.2]]);
    /// let (mut one, mut two) = (RankingLoss::new(TiePolicy::Max).accumulator(),
    ///     RankingLoss::new(TiePolicy::Max).accumulator());
    /// one.update(&y, &s, None).unwrap();
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// pool.install(|| two.update_parallel(&y, &s, None)).unwrap();
    /// assert_eq!(one.value().unwrap().to_bits(), two.value().unwrap().to_bits());
    /// ```
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn update_parallel<T, Y, S>(
        &mut self,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[f64]>,
    ) -> Result<(), Error>
    where
        M: Sync,
        T: Score,
        Y: LabelMatrix + Sync + ?Sized,
        S: ScoreMatrix<T> + Sync + ?Sized,
    {
        self.state
            .update_parallel(&self.metric, y_true, y_score, sample_weight)
    }

    /// Adds the rows of another accumulator (another shard of the same evaluation).
    ///
    /// # Errors
    /// [`Error::Incompatible`] when the metrics, label counts or weightings differ; on error
    /// nothing is merged.
    pub fn merge(&mut self, other: &Self) -> Result<(), Error>
    where
        M: PartialEq,
    {
        if self.metric != other.metric {
            return Err(Error::Incompatible(Incompatibility::Metric));
        }
        self.state.merge(&other.state)
    }

    /// The metric over every row added so far.
    ///
    /// # Errors
    /// [`Error::NoSamples`] before any batch; [`Error::ZeroTotalWeight`] as in one-shot
    /// evaluation.
    pub fn value(&self) -> Result<f64, Error> {
        self.state.value(self.metric.options())
    }

    /// The metric being accumulated.
    pub fn metric(&self) -> &M {
        &self.metric
    }
}
