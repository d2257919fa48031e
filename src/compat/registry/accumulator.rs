//! A preset evaluated in batches: row-wise presets keep sums and counts, label-wise ones the
//! rows.

use super::plan::{AnyLabelwise, AnyRow, Plan, ScoreView};
use crate::accumulator::LabelwiseAccumulator;
use crate::compat::torchmetrics::{Float32Scores, Logits};
use crate::error::Error;
use crate::error::Incompatibility;
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::row::accumulator::RowAccumulator;
use crate::score::Score;

/// A preset evaluated in batches; see [`Preset::accumulator`](super::Preset::accumulator).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PresetAccumulator(Streaming);

/// The state behind a [`PresetAccumulator`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
enum Streaming {
    Row {
        acc: RowAccumulator<AnyRow>,
        view: ScoreView,
    },
    Labelwise(LabelwiseAccumulator<AnyLabelwise>),
}

/// A batch through the score view of a row-wise preset, to its accumulator's `$update`
/// (sequential or parallel); a label-wise preset stores the rows.
macro_rules! feed_batch {
    ($acc:expr, $update:ident, $y_true:expr, $y_score:expr, $weights:expr) => {
        match &mut $acc.0 {
            Streaming::Row {
                acc,
                view: view @ (ScoreView::Logits | ScoreView::Float32Logits),
            } if $y_score.nrows() > 0 => {
                crate::validate::check_shapes($y_true, $y_score, 1)?;
                let float32 = *view == ScoreView::Float32Logits;
                acc.$update($y_true, &Logits::with_float32($y_score, float32)?, $weights)
            }
            // An empty batch is a no-op, with or without the logit view.
            Streaming::Row {
                acc,
                view: ScoreView::AsIs | ScoreView::Logits | ScoreView::Float32Logits,
            } => acc.$update($y_true, $y_score, $weights),
            Streaming::Row {
                acc,
                view: ScoreView::Float32,
            } => acc.$update($y_true, &Float32Scores::new($y_score), $weights),
            Streaming::Labelwise(acc) => acc.update($y_true, $y_score, $weights),
        }
    };
}

impl PresetAccumulator {
    /// An empty accumulator for `plan`.
    pub(super) fn new(plan: &Plan) -> Self {
        PresetAccumulator(match plan {
            Plan::Row { metric, logits } => Streaming::Row {
                acc: RowAccumulator::new(*metric),
                view: if *logits {
                    ScoreView::Logits
                } else {
                    ScoreView::AsIs
                },
            },
            Plan::Float32Row { metric } => Streaming::Row {
                acc: RowAccumulator::new(*metric),
                view: ScoreView::Float32,
            },
            Plan::Float32Logits { metric } => Streaming::Row {
                acc: RowAccumulator::new(*metric),
                view: ScoreView::Float32Logits,
            },
            Plan::Labelwise(m) => {
                Streaming::Labelwise(LabelwiseAccumulator::new(*m, m.label_domain()))
            }
        })
    }

    /// Adds a batch of rows; on error nothing is added.
    ///
    /// # Errors
    /// As [`Preset::evaluate`](super::Preset::evaluate), plus [`Error::Incompatible`] when the
    /// batch's label count or weighting differs from earlier batches.
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
        feed_batch!(self, update, y_true, y_score, sample_weight)
    }

    /// [`update`](Self::update) with the rows of a row-wise preset ranked on the threads of the
    /// current rayon pool (feature `rayon`); bitwise what `update` gives. A label-wise preset
    /// only stores the rows, as `update` does.
    ///
    /// # Errors
    /// As [`update`](Self::update).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Sklearn, "label_ranking_loss", Preset::NO_PARAMS, None).unwrap();
    /// let (y, s) = ([[1, 0], [0, 1]], [[0.5, 0.5], [0.1, 0.9]]);
    /// let mut acc = p.accumulator();
    /// acc.update_parallel(&y, &s, None).unwrap();
    /// assert_eq!(acc.value().unwrap(), p.evaluate(&y, &s, None).unwrap());
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
        T: Score,
        Y: LabelMatrix + Sync + ?Sized,
        S: ScoreMatrix<T> + Sync + ?Sized,
    {
        feed_batch!(self, update_parallel, y_true, y_score, sample_weight)
    }

    /// Adds the rows of another accumulator of the same preset (the next shard, in row order).
    ///
    /// # Errors
    /// [`Error::Incompatible`] when the presets, label counts or weightings differ.
    pub fn merge(&mut self, other: &Self) -> Result<(), Error> {
        match (&mut self.0, &other.0) {
            (Streaming::Row { acc, view }, Streaming::Row { acc: b, view: v }) if view == v => {
                acc.merge(b)
            }
            (Streaming::Labelwise(acc), Streaming::Labelwise(b)) => acc.merge(b),
            _ => Err(Error::Incompatible(Incompatibility::Metric)),
        }
    }

    /// The preset's value over every row added so far.
    ///
    /// # Errors
    /// [`Error::NoSamples`] before any row; otherwise as
    /// [`Preset::evaluate`](super::Preset::evaluate).
    pub fn value(&self) -> Result<f64, Error> {
        match &self.0 {
            Streaming::Row { acc, .. } => acc.value(),
            Streaming::Labelwise(acc) => acc.value(),
        }
    }
}
