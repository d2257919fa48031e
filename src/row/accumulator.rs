//! Streaming evaluation of a row-wise metric: [`RowAccumulator`] takes rows in batches and
//! merges with other accumulators, for the exact one-shot value.

use core::ops::Range;

use crate::error::{Error, Incompatibility};
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::row::metric::RowMetric;
use crate::row::state::RowState;
use crate::score::Score;
use crate::state_format::StateVersion;

/// A row-wise metric evaluated in batches: [`update`](Self::update) with each batch of rows,
/// [`merge`](Self::merge) accumulators of other shards, and read [`value`](Self::value).
///
/// Every accumulator knows which rows of the whole data it has seen ([`rows`](Self::rows)):
/// one created with [`starting_at`](Self::starting_at)`(metric, r)` numbers its first batch's
/// rows from `r` (errors and `TiePolicy::Random`'s streams use these numbers); `new` starts at
/// row 0. The merge contract: the value after any merges, in any order or grouping, is
/// **bitwise** the one-shot value of the union of the rows in row order (`evaluate` is one
/// batch of a fresh accumulator), or the merge is refused with a typed error and nothing
/// changes: [`Incompatibility::Overlap`] when both accumulators have seen a row (merging an
/// accumulator with a copy of itself included), [`Incompatibility::Metric`],
/// [`Labels`](Incompatibility::Labels) or [`Weighting`](Incompatibility::Weighting) when the
/// metrics or the shapes of the rows differ.
///
/// The row values are summed exactly ([`Summation::Exact`](crate::Summation::Exact)), so the
/// state is a few counters and two fixed-size sums (about 1.1 kB) whatever the number of rows.
/// MULAN's presets sum left to right ([`Summation::Sequential`](crate::Summation::Sequential)),
/// which partial sums cannot reproduce: their state keeps each row's value and weight (16
/// bytes per row) and sums them in row order when read. With feature `serde` the state
/// serialises exactly in any format (docs/streaming.md).
///
/// # Example
/// ```
/// use rankmetrics::{AveragePrecision, Error, Incompatibility, RankingMetric, RowAccumulator,
///     RowMetric, TiePolicy};
/// let lrap = AveragePrecision::new(TiePolicy::Max);
/// let (y, s) = ([[1, 0, 0], [0, 1, 1], [1, 1, 0]], [[0.5, 0.5, 0.1], [0.9, 0.4, 0.4], [0.2, 0.3, 0.1]]);
/// let one_shot = lrap.evaluate(&y, &s, None).unwrap();
///
/// let mut acc = lrap.accumulator();
/// acc.update(&y[..2], &s[..2], None).unwrap();
/// acc.update(&y[2..], &s[2..], None).unwrap();
/// assert_eq!(acc.value().unwrap(), one_shot); // bitwise
///
/// // Shards evaluated apart, merged in any order: bitwise too.
/// let (mut a, mut b) = (lrap.accumulator(), RowAccumulator::starting_at(lrap, 1));
/// a.update(&y[..1], &s[..1], None).unwrap();
/// b.update(&y[1..], &s[1..], None).unwrap();
/// assert_eq!(b.rows(), [1..3]);
/// b.merge(&a).unwrap();
/// assert_eq!(b.value().unwrap(), one_shot);
/// assert_eq!(b.rows(), [0..3]);
///
/// // Rows seen twice are refused, and nothing changes.
/// let err = b.merge(&a).unwrap_err();
/// assert_eq!(err, Error::Incompatible(Incompatibility::Overlap { start: 0, end: 1 }));
/// assert_eq!(b.value().unwrap(), one_shot);
/// ```
///
/// A state read back is checked whole ([`Error::InvalidState`] if it breaks a rule): the
/// metric's parameters as its constructor checks them, the label count and weighting against
/// the rows seen, the sums against the summation and the rows seen (no more rows counted than
/// seen; weights finite, not negative, and 1 without sample weights), and scikit-learn's label
/// values.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RowAccumulator<M> {
    /// The serialised form's format version (first, so that it is read first).
    version: StateVersion,
    metric: M,
    state: RowState,
}

impl<M: RowMetric> RowAccumulator<M> {
    /// An empty accumulator for `metric`, numbering rows from 0.
    pub fn new(metric: M) -> Self {
        Self::starting_at(metric, 0)
    }

    /// An empty accumulator whose first batch starts at row `first_row` of the whole data.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, RowAccumulator, TiePolicy};
    /// let mut acc = RowAccumulator::starting_at(Coverage::new(TiePolicy::Max), 100);
    /// acc.update(&[[1, 0], [0, 1]], &[[0.2, 0.9], [0.1, 0.3]], None).unwrap();
    /// assert_eq!(acc.rows(), [100..102]);
    /// ```
    pub fn starting_at(metric: M, first_row: usize) -> Self {
        let state = RowState::new(metric.options(), first_row);
        RowAccumulator {
            version: StateVersion,
            metric,
            state,
        }
    }

    /// Adds a batch of rows (an empty batch is a no-op). On error nothing is added.
    ///
    /// # Errors
    /// As [`RankingMetric::evaluate`](crate::RankingMetric::evaluate), plus
    /// [`Error::Incompatible`] when the batch's label count or weighting differs from earlier
    /// batches.
    pub fn update<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
        &mut self, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    ) -> Result<(), Error> {
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
        &mut self, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
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

    /// Adds the rows of another accumulator (another shard of the same evaluation), in any
    /// order: the value is then bitwise the one-shot value of both shards' rows in row order.
    ///
    /// # Errors
    /// [`Error::Incompatible`] with [`Incompatibility::Overlap`] when both have seen a row,
    /// or when the metrics, label counts or weightings differ; [`Error::InvalidLabel`] when a
    /// scikit-learn preset's labels take more than two distinct values across both (the cell
    /// one-shot evaluation reports). On error nothing is merged.
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

    /// The rows seen, as global row numbers: sorted, disjoint ranges (touching ranges
    /// joined).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, RowMetric, TiePolicy};
    /// let mut acc = Coverage::new(TiePolicy::Max).accumulator();
    /// assert!(acc.rows().is_empty());
    /// acc.update(&[[1, 0]], &[[0.2, 0.9]], None).unwrap();
    /// assert_eq!(acc.rows(), [0..1]);
    /// ```
    pub fn rows(&self) -> &[Range<usize>] {
        self.state.rows().ranges()
    }

    /// The metric being accumulated.
    pub fn metric(&self) -> &M {
        &self.metric
    }
}

#[cfg(feature = "serde")]
mod wire {
    //! The serialised form, checked when read ([`Error::InvalidState`]).
    use super::{RowMetric, RowState, StateVersion};
    use crate::state_format::checked;

    #[derive(serde::Deserialize)]
    struct RowAccumulator<M> {
        version: StateVersion,
        metric: M,
        state: RowState,
    }

    impl<'de, M> serde::Deserialize<'de> for super::RowAccumulator<M>
    where
        M: serde::Deserialize<'de> + RowMetric,
    {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let wire = RowAccumulator::<M>::deserialize(d)?;
            checked::<D, _>(wire.state.check(&wire.metric))?;
            Ok(super::RowAccumulator {
                version: wire.version,
                metric: wire.metric,
                state: wire.state,
            })
        }
    }
}
