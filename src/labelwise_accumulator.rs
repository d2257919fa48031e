//! Streaming evaluation of label-wise, pooled and per-sample-averaged metrics:
//! [`LabelwiseAccumulator`] keeps the validated rows and evaluates them at once. Row-wise
//! metrics stream through [`RowAccumulator`](crate::RowAccumulator), with the row pass.

use core::ops::Range;

use crate::error::{Error, Incompatibility, Input, LabelDomain};
use crate::matrix::{LabelMatrix, RowMajor, RowReader, ScoreMatrix};
use crate::memory;
use crate::metric::RankingMetric;
use crate::row::rows::Rows;
use crate::row::state::Shape;
use crate::score::Score;
use crate::state_format::StateVersion;
use crate::validate::{check_shapes, check_weights, numbered_from, read_checked_row};

/// A label-wise, pooled or per-sample-averaged metric (ROC AUC, label average precision)
/// evaluated in batches.
///
/// These metrics rank each label's scores across all samples, so an exact merge needs every
/// row: the state keeps the validated rows (16 bytes per cell and 8 per row for weights), in
/// row order, and [`value`](Self::value) evaluates them at once, bitwise as one-shot
/// evaluation of the same rows in row order would.
///
/// Every accumulator knows which rows of the whole data it has seen ([`rows`](Self::rows)):
/// one created with `accumulator_starting_at(r)` numbers its first batch's rows from `r`. A
/// merge places the other's rows among its own by their numbers, so shards merge in any order
/// or grouping to the one-shot value (instance-order tie rules such as MULAN's included); a
/// merge of accumulators that have seen a common row is refused
/// ([`Incompatibility::Overlap`]), and nothing changes. With feature `serde` the state
/// serialises exactly in any format (docs/streaming.md).
///
/// # Example
/// ```
/// use rankmetrics::{Average, RankingMetric, RocAuc, TiePolicy};
/// let auc = RocAuc::new(Average::Macro, TiePolicy::Average);
/// let (y, s) = ([[1, 0], [0, 1], [1, 1], [0, 0]], [[0.9, 0.2], [0.3, 0.8], [0.6, 0.4], [0.1, 0.5]]);
/// let mut first = auc.accumulator();
/// first.update(&y[..2], &s[..2], None).unwrap();
/// let mut second = auc.accumulator_starting_at(2);
/// second.update(&y[2..], &s[2..], None).unwrap();
/// second.merge(&first).unwrap(); // in either order
/// assert_eq!(second.rows(), [0..4]);
/// assert_eq!(second.value().unwrap(), auc.evaluate(&y, &s, None).unwrap());
/// assert!(second.merge(&first).is_err()); // rows 0..2 again
/// ```
///
/// A state read back is checked whole ([`Error::InvalidState`] if it breaks a rule): the label
/// count and weighting against the rows seen, as many cells and weights as rows, each label in
/// the metric's domain, each score finite, each weight finite and not negative.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LabelwiseAccumulator<M> {
    /// The serialised form's format version (first, so that it is read first).
    version: StateVersion,
    metric: M,
    domain: LabelDomain,
    shape: Shape,
    /// The global numbers of the rows kept.
    rows: Rows,
    /// The rows' labels (as gains), scores and weights (empty when unweighted), in row order.
    #[cfg_attr(feature = "serde", serde(with = "crate::state_format::vec_f64_bits"))]
    truth: Vec<f64>,
    #[cfg_attr(feature = "serde", serde(with = "crate::state_format::vec_f64_bits"))]
    scores: Vec<f64>,
    #[cfg_attr(feature = "serde", serde(with = "crate::state_format::vec_f64_bits"))]
    weights: Vec<f64>,
}

impl<M: RankingMetric<f64>> LabelwiseAccumulator<M> {
    /// An empty accumulator for `metric`, whose labels must lie in `domain`, numbering its
    /// first batch's rows from `first_row`.
    pub(crate) fn new(metric: M, domain: LabelDomain, first_row: usize) -> Self {
        LabelwiseAccumulator {
            version: StateVersion,
            metric,
            domain,
            shape: Shape::default(),
            rows: Rows::starting_at(first_row),
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
    pub fn update<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
        &mut self, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    ) -> Result<(), Error> {
        let (n, l) = match check_shapes(y_true, y_score, 1) {
            Err(Error::NoSamples) if sample_weight.map_or(true, <[f64]>::is_empty) => return Ok(()),
            other => other?,
        };
        let mut shape = self.shape;
        shape.agree(l, sample_weight.is_some())?;
        self.rows.check_batch(n)?;
        let first = self.rows.next();
        let weights = sample_weight
            .map(|w| check_weights(w, n).map_err(|e| numbered_from(e, first)))
            .transpose()?;
        let cells = n.saturating_mul(l);
        let (mut truth, mut scores) = (memory::with_room(cells)?, memory::with_room(cells)?);
        let mut labels = RowReader::new(y_true, Input::Labels);
        let mut reader = RowReader::new(y_score, Input::Scores);
        let mut gains = vec![0.0; l];
        for i in 0..n {
            let readers = (&mut labels, &mut reader);
            let (s, _) = read_checked_row(readers, self.domain, (i, first + i), &mut gains)?;
            truth.extend_from_slice(&gains);
            scores.extend(s.iter().map(|x| x.as_f64()));
        }
        memory::reserve(&mut self.truth, cells)?;
        memory::reserve(&mut self.scores, cells)?;
        memory::reserve(&mut self.weights, weights.map_or(0, <[f64]>::len))?;
        self.shape = shape;
        self.truth.extend(truth);
        self.scores.extend(scores);
        self.weights.extend(weights.into_iter().flatten());
        self.rows.take_batch(n);
        Ok(())
    }

    /// Adds the rows of another accumulator of the same metric, placed among this one's by
    /// their row numbers: merges in any order or grouping give the one-shot value of the
    /// union of the rows in row order.
    ///
    /// # Errors
    /// [`Error::Incompatible`] with [`Incompatibility::Overlap`] when both have seen a row,
    /// or when the metrics, label counts or weightings differ. On error nothing is merged.
    pub fn merge(&mut self, other: &Self) -> Result<(), Error>
    where
        M: PartialEq,
    {
        if self.metric != other.metric || self.domain != other.domain {
            return Err(Error::Incompatible(Incompatibility::Metric));
        }
        let mut shape = self.shape;
        shape.agree_with(&other.shape)?;
        let rows = self.rows.union(&other.rows)?;
        let l = shape.labels.unwrap_or(0);
        let (ours, theirs) = (self.rows.ranges(), other.rows.ranges());
        let truth = interleave(ours, &self.truth, theirs, &other.truth, l);
        let scores = interleave(ours, &self.scores, theirs, &other.scores, l);
        let weights = match shape.weighted {
            Some(true) => interleave(ours, &self.weights, theirs, &other.weights, 1),
            _ => Vec::new(),
        };
        self.shape = shape;
        self.rows = rows;
        (self.truth, self.scores, self.weights) = (truth, scores, weights);
        Ok(())
    }

    /// The metric over every row kept so far, in row order.
    ///
    /// # Errors
    /// [`Error::NoSamples`] before any row; otherwise as the metric's one-shot evaluation
    /// (rows named by their global numbers).
    pub fn value(&self) -> Result<f64, Error> {
        let l = self.shape.labels.ok_or(Error::NoSamples)?;
        let n = self.row_count();
        let y_true = RowMajor::new(&self.truth, n, l)?;
        let y_score = RowMajor::new(&self.scores, n, l)?;
        let weights = (self.shape.weighted == Some(true)).then_some(&self.weights[..]);
        self.metric
            .evaluate(&y_true, &y_score, weights)
            .map_err(|e| renumbered(e, &self.rows))
    }

    /// The metric on each label's column of the rows kept, alone, in label order (what
    /// scikit-learn's and torchmetrics' `average=None` give).
    ///
    /// # Errors
    /// [`Error::NoSamples`] before any row; otherwise as the metric's one-shot evaluation of a
    /// column.
    pub(crate) fn per_label(&self) -> Result<Vec<f64>, Error> {
        let l = self.shape.labels.ok_or(Error::NoSamples)?;
        let n = self.row_count();
        let weights = (self.shape.weighted == Some(true)).then_some(&self.weights[..]);
        let (mut y, mut s): (Vec<f64>, Vec<f64>) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let mut values = Vec::with_capacity(l);
        for j in 0..l {
            y.clear();
            s.clear();
            y.extend(self.truth.iter().skip(j).step_by(l));
            s.extend(self.scores.iter().skip(j).step_by(l));
            let (y_true, y_score) = (RowMajor::new(&y, n, 1)?, RowMajor::new(&s, n, 1)?);
            let value = self.metric.evaluate(&y_true, &y_score, weights);
            values.push(value.map_err(|e| renumbered(e, &self.rows))?);
        }
        Ok(values)
    }

    /// The rows kept, as global row numbers: sorted, disjoint ranges (touching ranges
    /// joined).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Average, RocAuc, TiePolicy};
    /// let mut acc = RocAuc::new(Average::Macro, TiePolicy::Average).accumulator_starting_at(5);
    /// acc.update(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None).unwrap();
    /// assert_eq!(acc.rows(), [5..7]);
    /// assert_eq!(acc.row_count(), 2);
    /// ```
    pub fn rows(&self) -> &[Range<usize>] {
        self.rows.ranges()
    }

    /// The number of rows kept.
    pub fn row_count(&self) -> usize {
        self.rows.count()
    }

    /// The metric being accumulated.
    pub fn metric(&self) -> &M {
        &self.metric
    }
}

/// The rows of `a` (at row numbers `a_rows`) and of `b` (at `b_rows`), `width` values per row,
/// in row order. The ranges of each are sorted, and no row is in both.
fn interleave(
    a_rows: &[Range<usize>], a: &[f64], b_rows: &[Range<usize>], b: &[f64], width: usize,
) -> Vec<f64> {
    // Each range with the side it comes from and where its values start.
    let mut pieces: Vec<(usize, &[f64], usize, usize)> = Vec::new();
    for (rows, values) in [(a_rows, a), (b_rows, b)] {
        let mut offset: usize = 0;
        for r in rows {
            // Saturating: deserialised state may hold ranges its values do not fill.
            let len = r.len().saturating_mul(width);
            pieces.push((r.start, values, offset, len));
            offset = offset.saturating_add(len);
        }
    }
    pieces.sort_by_key(|p| p.0);
    let mut out = Vec::with_capacity(a.len() + b.len());
    for (_, values, offset, len) in pieces {
        let end = offset.saturating_add(len).min(values.len());
        out.extend_from_slice(values.get(offset..end).unwrap_or_default());
    }
    out
}

/// A one-shot error over the kept rows with its row named by its global number.
fn renumbered(error: Error, rows: &Rows) -> Error {
    match error {
        Error::InvalidLabel {
            row,
            column,
            value,
            expected,
        } => Error::InvalidLabel {
            row: rows.global(row),
            column,
            value,
            expected,
        },
        Error::NonFiniteScore { row, column, value } => Error::NonFiniteScore {
            row: rows.global(row),
            column,
            value,
        },
        Error::InvalidWeight { row, value } => Error::InvalidWeight {
            row: rows.global(row),
            value,
        },
        Error::DegenerateRow { row, kind } => Error::DegenerateRow {
            row: rows.global(row),
            kind,
        },
        other => other,
    }
}

/// The serialised form, checked when read ([`Error::InvalidState`]) with the checks inputs get:
/// a state that loads evaluates as the rows it holds would. The label-wise layer, which knows
/// the metrics' label domains, reads it (`labelwise/read_back.rs`).
#[cfg(feature = "serde")]
pub(crate) mod wire {
    use super::{Error, LabelDomain, Rows, Shape, StateVersion};
    use crate::error::StateFault;
    use crate::state_format::{check_domain, invalid, refused};
    use crate::validate::{check_scores, check_weights, read_labels};

    #[derive(serde::Deserialize)]
    pub(crate) struct LabelwiseAccumulator<M> {
        version: StateVersion,
        metric: M,
        domain: LabelDomain,
        shape: Shape,
        rows: Rows,
        #[serde(with = "crate::state_format::vec_f64_bits")]
        truth: Vec<f64>,
        #[serde(with = "crate::state_format::vec_f64_bits")]
        scores: Vec<f64>,
        #[serde(with = "crate::state_format::vec_f64_bits")]
        weights: Vec<f64>,
    }

    impl<M> LabelwiseAccumulator<M> {
        /// The accumulator, or the error for the first rule it breaks; `metric_domain`: the
        /// label domain its metric takes.
        pub(crate) fn check(
            self, metric_domain: impl FnOnce(&M) -> LabelDomain,
        ) -> Result<super::LabelwiseAccumulator<M>, Error> {
            check_domain(self.domain, metric_domain(&self.metric))?;
            self.shape.check(&self.rows, 1)?;
            let (n, l) = (self.rows.count(), self.shape.labels.unwrap_or(0));
            let length = |field, expected: Option<usize>, found: usize| match expected {
                Some(expected) if expected == found => Ok(()),
                _ => Err(invalid(
                    field,
                    None,
                    StateFault::Length {
                        expected: (n as u64).saturating_mul(l as u64),
                        found: found as u64,
                    },
                )),
            };
            length("truth", n.checked_mul(l), self.truth.len())?;
            length("scores", n.checked_mul(l), self.scores.len())?;
            if self.shape.weighted == Some(true) {
                let global = |row: usize| self.rows.numbers().nth(row).unwrap_or(row);
                check_weights(&self.weights, n).map_err(|e| match e {
                    Error::InvalidWeight { row, value } => {
                        let e = Error::InvalidWeight {
                            row: global(row),
                            value,
                        };
                        refused("weights", Some(row), e)
                    }
                    e => refused("weights", None, e),
                })?;
            } else if !self.weights.is_empty() {
                let (expected, found) = (0, self.weights.len() as u64);
                return Err(invalid(
                    "weights",
                    None,
                    StateFault::Length { expected, found },
                ));
            }
            // Each cell as evaluation checks it, the error naming the row's global number.
            let cell = |field, i: usize| {
                move |e: Error| match e {
                    Error::NonFiniteScore { column, .. } | Error::InvalidLabel { column, .. } => {
                        refused(field, Some(i * l + column), e)
                    }
                    e => refused(field, None, e),
                }
            };
            let mut gains = vec![0.0; l];
            let cells = self.truth.chunks_exact(l.max(1));
            let rows = self.scores.chunks_exact(l.max(1)).zip(cells);
            for (i, (row, (scores, truth))) in self.rows.numbers().zip(rows).enumerate() {
                check_scores(scores, row).map_err(cell("scores", i))?;
                read_labels(truth, self.domain, row, &mut gains).map_err(cell("truth", i))?;
            }
            Ok(super::LabelwiseAccumulator {
                version: self.version,
                metric: self.metric,
                domain: self.domain,
                shape: self.shape,
                rows: self.rows,
                truth: self.truth,
                scores: self.scores,
                weights: self.weights,
            })
        }
    }
}
