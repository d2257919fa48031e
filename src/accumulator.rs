//! Streaming evaluation: [`RowAccumulator`] takes rows in batches and merges with other
//! accumulators, for the exact one-shot value.

use crate::matrix::RowReader;
use crate::metric::{
    check_scores, check_shapes, check_weights, for_each_row, mean_value, read_labels,
    IndicatorValues,
};
use crate::sum::WeightedMean;
use crate::{
    Error, Label, LabelDomain, Matrix, RankingMetric, RowMajor, RowMetric, RowOptions, Score,
};

/// What two accumulators (or an accumulator and a batch) disagree on.
///
/// # Example
/// ```
/// use rankmetrics::{Error, Incompatibility, RankingLoss, RowMetric, TiePolicy};
/// let mut acc = RankingLoss::new(TiePolicy::Max).accumulator();
/// acc.update(&[[1, 0]], &[[0.9, 0.1]], None).unwrap();
/// let err = acc.update(&[[1, 0, 0]], &[[0.9, 0.1, 0.2]], None).unwrap_err();
/// assert_eq!(err, Error::Incompatible(Incompatibility::Labels { expected: 2, found: 3 }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Incompatibility {
    /// The metrics (or their options) differ.
    Metric,
    /// The number of labels differs.
    Labels {
        /// The number the accumulator has seen.
        expected: usize,
        /// The number of the batch (or the other accumulator).
        found: usize,
    },
    /// One side has sample weights and the other has none.
    Weighting,
}

impl core::fmt::Display for Incompatibility {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Incompatibility::Metric => f.write_str("the metrics or their options differ"),
            Incompatibility::Labels { expected, found } => {
                write!(f, "{found} labels where {expected} were seen before")
            }
            Incompatibility::Weighting => f.write_str("weighted and unweighted rows are mixed"),
        }
    }
}

/// What every batch of one stream must agree on: the label count and whether rows are weighted.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Shape {
    /// The number of labels, once a batch has been seen.
    labels: Option<usize>,
    /// Whether the rows came with sample weights, once a batch has been seen.
    weighted: Option<bool>,
}

impl Shape {
    /// Records the shape and weighting of new rows, or says how they disagree.
    fn agree(&mut self, labels: usize, weighted: bool) -> Result<(), Error> {
        if let Some(expected) = self.labels.filter(|&l| l != labels) {
            return Err(Error::Incompatible(Incompatibility::Labels {
                expected,
                found: labels,
            }));
        }
        if self.weighted.is_some_and(|w| w != weighted) {
            return Err(Error::Incompatible(Incompatibility::Weighting));
        }
        self.labels = Some(labels);
        self.weighted = Some(weighted);
        Ok(())
    }

    /// Agrees with another stream's shape, if it has seen rows.
    fn agree_with(&mut self, other: &Shape) -> Result<(), Error> {
        match (other.labels, other.weighted) {
            (Some(labels), Some(weighted)) => self.agree(labels, weighted),
            _ => Ok(()),
        }
    }
}

/// The state of a streaming row-wise evaluation: constant size, whatever the number of rows.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct RowState {
    shape: Shape,
    /// The global index of the next row (errors and `TiePolicy::Random` streams use it).
    next_row: usize,
    /// Σ w·x and Σ w over the rows that count.
    mean: WeightedMean,
    /// scikit-learn's label-type check across batches.
    indicator: IndicatorValues,
}

impl RowState {
    pub(crate) fn new(options: RowOptions, first_row: usize) -> Self {
        RowState {
            shape: Shape::default(),
            next_row: first_row,
            mean: WeightedMean::new(options.summation),
            indicator: IndicatorValues::default(),
        }
    }

    /// Adds a batch; on error the state is left as it was.
    pub(crate) fn update<M, T, Y, S>(
        &mut self,
        metric: &M,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[T]>,
    ) -> Result<(), Error>
    where
        M: RowMetric,
        T: Score,
        Y: Matrix + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + ?Sized,
    {
        self.update_by(y_true, y_score, sample_weight, |first_row, seen, sink| {
            for_each_row(metric, y_true, y_score, first_row, seen, sink)
        })
    }

    /// [`update`](Self::update) with the rows ranked on the threads of the current rayon pool;
    /// the values are summed in row order, so the state is bitwise the same.
    #[cfg(feature = "rayon")]
    pub(crate) fn update_parallel<M, T, Y, S>(
        &mut self,
        metric: &M,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[T]>,
    ) -> Result<(), Error>
    where
        M: RowMetric + Sync,
        T: Score,
        Y: Matrix + Sync + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + Sync + ?Sized,
    {
        self.update_by(y_true, y_score, sample_weight, |first_row, seen, sink| {
            crate::parallel::for_each_row(metric, y_true, y_score, first_row, seen, sink)
        })
    }

    /// Adds a batch whose row values `rows(first_row, indicator, sink)` gives in row order;
    /// on error the state is left as it was.
    fn update_by<T, Y, S>(
        &mut self,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[T]>,
        rows: impl FnOnce(
            usize,
            &mut IndicatorValues,
            &mut dyn FnMut(usize, Option<f64>),
        ) -> Result<(), Error>,
    ) -> Result<(), Error>
    where
        T: Score,
        Y: Matrix + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + ?Sized,
    {
        if y_true.nrows() == 0
            && y_score.nrows() == 0
            && sample_weight.map_or(true, <[T]>::is_empty)
        {
            return Ok(()); // an empty batch adds nothing (NoSamples is for `value`)
        }
        let mut next = *self;
        next.shape.agree(y_true.ncols(), sample_weight.is_some())?;
        let weights = sample_weight
            .map(|w| check_weights(w, y_true.nrows()).map_err(|e| numbered_from(e, self.next_row)))
            .transpose()?;
        let mean = &mut next.mean;
        rows(self.next_row, &mut next.indicator, &mut |i, v| {
            if let Some(v) = v {
                mean.add(v, weights.map_or(1.0, |w| w[i].as_f64()));
            }
        })?;
        next.next_row += y_true.nrows();
        *self = next;
        Ok(())
    }

    pub(crate) fn merge(&mut self, other: &RowState) -> Result<(), Error> {
        let mut next = *self;
        next.shape.agree_with(&other.shape)?;
        for v in other.indicator.iter().flatten() {
            let known = next.indicator.iter().flatten().any(|x| x == v);
            if !known {
                match next.indicator.iter_mut().find(|x| x.is_none()) {
                    Some(slot) => *slot = Some(*v),
                    // A third distinct label value across shards: what one shot would reject.
                    None => {
                        return Err(Error::InvalidLabel {
                            row: other.next_row,
                            column: 0,
                            value: *v,
                            expected: crate::LabelDomain::Indicator,
                        })
                    }
                }
            }
        }
        next.mean.merge(&other.mean);
        next.next_row = next.next_row.max(other.next_row);
        *self = next;
        Ok(())
    }

    pub(crate) fn value(&self, options: RowOptions) -> Result<f64, Error> {
        if self.shape.labels.is_none() {
            return Err(Error::NoSamples);
        }
        mean_value(&self.mean, options.zero_weight)
    }
}

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
        sample_weight: Option<&[T]>,
    ) -> Result<(), Error>
    where
        T: Score,
        Y: Matrix + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + ?Sized,
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
    pub fn update_parallel<T, Y, S>(
        &mut self,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[T]>,
    ) -> Result<(), Error>
    where
        M: Sync,
        T: Score,
        Y: Matrix + Sync + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + Sync + ?Sized,
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

/// A label-wise, pooled or per-sample-averaged metric (ROC AUC, label average precision)
/// evaluated in batches.
///
/// These metrics rank each label's scores across all samples, so an exact merge needs every
/// row: the state keeps the validated rows (16 bytes per cell and 8 per row for weights), and
/// [`value`](Self::value) evaluates them at once, bitwise as one-shot evaluation would. Merge
/// shards in row order (instance-order tie policies such as MULAN's read it).
///
/// # Example
/// ```
/// use rankmetrics::{Average, RankingMetric, RocAuc, TiePolicy};
/// let auc = RocAuc::new(Average::Macro, TiePolicy::Average);
/// let (y, s) = ([[1, 0], [0, 1], [1, 1], [0, 0]], [[0.9, 0.2], [0.3, 0.8], [0.6, 0.4], [0.1, 0.5]]);
/// let mut acc = auc.accumulator();
/// acc.update(&y[..2], &s[..2], None).unwrap();
/// let mut other = auc.accumulator();
/// other.update(&y[2..], &s[2..], None).unwrap();
/// acc.merge(&other).unwrap();
/// assert_eq!(acc.value().unwrap(), auc.evaluate(&y, &s, None).unwrap());
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LabelwiseAccumulator<M> {
    metric: M,
    domain: LabelDomain,
    shape: Shape,
    truth: Vec<f64>,
    scores: Vec<f64>,
    weights: Vec<f64>,
}

impl<M: RankingMetric<f64>> LabelwiseAccumulator<M> {
    /// An empty accumulator for `metric`, whose labels must lie in `domain`.
    pub(crate) fn new(metric: M, domain: LabelDomain) -> Self {
        LabelwiseAccumulator {
            metric,
            domain,
            shape: Shape::default(),
            truth: Vec::new(),
            scores: Vec::new(),
            weights: Vec::new(),
        }
    }

    /// Validates a batch of rows and keeps it (an empty batch is a no-op). On error nothing is
    /// kept.
    ///
    /// # Errors
    /// Non-finite scores, labels outside the metric's domain, weights of the wrong length or
    /// value (rows numbered across batches), and [`Error::Incompatible`] when the label count
    /// or weighting differs from earlier batches.
    pub fn update<T, Y, S>(
        &mut self,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[T]>,
    ) -> Result<(), Error>
    where
        T: Score,
        Y: Matrix + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + ?Sized,
    {
        let (n, l) = match check_shapes(y_true, y_score, 1) {
            Err(Error::NoSamples) if sample_weight.map_or(true, <[T]>::is_empty) => return Ok(()),
            other => other?,
        };
        let mut shape = self.shape;
        shape.agree(l, sample_weight.is_some())?;
        let first = self.rows();
        let weights = sample_weight
            .map(|w| check_weights(w, n).map_err(|e| numbered_from(e, first)))
            .transpose()?;
        let (mut truth, mut scores) = (Vec::with_capacity(n * l), Vec::with_capacity(n * l));
        let (mut labels, mut reader) = (RowReader::new(y_true), RowReader::new(y_score));
        let mut gains = vec![0.0; l];
        for i in 0..n {
            let s = reader.row(i);
            check_scores(s, first + i)?;
            read_labels(labels.row(i), self.domain, first + i, &mut gains)?;
            truth.extend_from_slice(&gains);
            scores.extend(s.iter().map(|x| x.as_f64()));
        }
        self.shape = shape;
        self.truth.extend(truth);
        self.scores.extend(scores);
        self.weights
            .extend(weights.into_iter().flatten().map(|w| w.as_f64()));
        Ok(())
    }

    /// Appends the rows of another accumulator (the next shard, in row order).
    ///
    /// # Errors
    /// [`Error::Incompatible`] when the metrics, label counts or weightings differ.
    pub fn merge(&mut self, other: &Self) -> Result<(), Error>
    where
        M: PartialEq,
    {
        if self.metric != other.metric {
            return Err(Error::Incompatible(Incompatibility::Metric));
        }
        let mut shape = self.shape;
        shape.agree_with(&other.shape)?;
        self.shape = shape;
        self.truth.extend_from_slice(&other.truth);
        self.scores.extend_from_slice(&other.scores);
        self.weights.extend_from_slice(&other.weights);
        Ok(())
    }

    /// The metric over every row kept so far.
    ///
    /// # Errors
    /// [`Error::NoSamples`] before any row; otherwise as the metric's one-shot evaluation.
    pub fn value(&self) -> Result<f64, Error> {
        let l = self.shape.labels.ok_or(Error::NoSamples)?;
        let n = self.rows();
        let y_true = RowMajor::new(&self.truth, n, l)?;
        let y_score = RowMajor::new(&self.scores, n, l)?;
        let weights = (self.shape.weighted == Some(true)).then_some(&self.weights[..]);
        self.metric.evaluate(&y_true, &y_score, weights)
    }

    /// The number of rows kept.
    pub fn rows(&self) -> usize {
        match self.shape.labels {
            Some(l) if l > 0 => self.truth.len() / l,
            _ => 0,
        }
    }

    /// The metric being accumulated.
    pub fn metric(&self) -> &M {
        &self.metric
    }
}

/// A batch's weight error with its row numbered across the whole stream.
fn numbered_from(error: Error, first_row: usize) -> Error {
    match error {
        Error::InvalidWeight { row, value } => Error::InvalidWeight {
            row: first_row + row,
            value,
        },
        other => other,
    }
}
