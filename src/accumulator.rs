//! Streaming evaluation of label-wise, pooled and per-sample-averaged metrics:
//! [`LabelwiseAccumulator`] keeps the validated rows and evaluates them at once. Row-wise
//! metrics stream through [`RowAccumulator`](crate::RowAccumulator), with the row pass.

use crate::error::{Error, Incompatibility, Input, LabelDomain};
use crate::matrix::{LabelMatrix, RowMajor, RowReader, ScoreMatrix};
use crate::metric::RankingMetric;
use crate::row::state::Shape;
use crate::score::Score;
use crate::validate::{check_scores, check_shapes, check_weights, numbered_from, read_labels};

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
        sample_weight: Option<&[f64]>,
    ) -> Result<(), Error>
    where
        T: Score,
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        let (n, l) = match check_shapes(y_true, y_score, 1) {
            Err(Error::NoSamples) if sample_weight.map_or(true, <[f64]>::is_empty) => return Ok(()),
            other => other?,
        };
        let mut shape = self.shape;
        shape.agree(l, sample_weight.is_some())?;
        let first = self.rows();
        let weights = sample_weight
            .map(|w| check_weights(w, n).map_err(|e| numbered_from(e, first)))
            .transpose()?;
        let (mut truth, mut scores) = (Vec::with_capacity(n * l), Vec::with_capacity(n * l));
        let mut labels = RowReader::new(y_true, Input::Labels);
        let mut reader = RowReader::new(y_score, Input::Scores);
        let mut gains = vec![0.0; l];
        for i in 0..n {
            let s = reader.row(i)?;
            check_scores(s, first + i)?;
            read_labels(labels.row(i)?, self.domain, first + i, &mut gains)?;
            truth.extend_from_slice(&gains);
            scores.extend(s.iter().map(|x| x.as_f64()));
        }
        self.shape = shape;
        self.truth.extend(truth);
        self.scores.extend(scores);
        self.weights.extend(weights.into_iter().flatten());
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
