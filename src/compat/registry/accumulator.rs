//! A preset evaluated in batches: row-wise presets keep sums and counts, label-wise ones the
//! rows or, where that is exact, each label's runs.

use core::ops::Range;

use super::plan::{AnyLabelwise, AnyRow, Plan, ScoreView};
use super::Preset;
use crate::compat::torchmetrics::{
    through_preds_view, Float32Scores, Logits, MemoryOrder, PredsView,
};
use crate::error::Error;
use crate::error::Incompatibility;
use crate::labelwise::{Average, LabelRunsAccumulator, VectorMetric};
use crate::labelwise_accumulator::LabelwiseAccumulator;
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::row::accumulator::RowAccumulator;
use crate::score::Score;
use crate::state_format::StateVersion;

/// A preset evaluated in batches; see [`Preset::accumulator`] and
/// [`Preset::accumulator_starting_at`].
///
/// It keeps what its metric's accumulator keeps ([`RowAccumulator`](crate::RowAccumulator) for
/// row-wise presets, [`LabelwiseAccumulator`](crate::LabelwiseAccumulator) for label-wise
/// ones) and follows the same merge contract: merged in any order or grouping, shards give
/// bitwise the one-shot value of their rows in row order, or the merge is refused with a typed
/// error ([`Incompatibility::Overlap`] when both have seen a row) and nothing changes.
///
/// # Example
/// ```
/// use rankmetrics::registry::{Convention, Preset};
/// let p = Preset::lookup(Convention::Mulan, "AveragePrecision", Preset::NO_PARAMS, None).unwrap();
/// let (y, s) = ([[1, 0, 1], [0, 1, 0], [1, 1, 0]], [[0.5, 0.5, 0.1], [0.2, 0.9, 0.4], [0.3, 0.3, 0.3]]);
/// let (mut a, mut b) = (p.accumulator(), p.accumulator_starting_at(1));
/// a.update(&y[..1], &s[..1], None::<&[f64]>).unwrap();
/// b.update(&y[1..], &s[1..], None::<&[f64]>).unwrap();
/// b.merge(&a).unwrap(); // MULAN's left-to-right sum, in row order all the same
/// assert_eq!(b.rows(), [0..3]);
/// assert_eq!(b.value().unwrap().to_bits(), p.evaluate(&y, &s, None::<&[f64]>).unwrap().to_bits());
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PresetAccumulator {
    /// The serialised form's format version (first, so that it is read first).
    version: StateVersion,
    /// Checked when read, as its accumulator's state is.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "checked_streaming"))]
    state: Streaming,
    /// Under torchmetrics' logit views, whether each batch decides its own sigmoid (its
    /// modules' `update`) instead of all rows agreeing on one (its functions).
    #[cfg_attr(feature = "serde", serde(default))]
    sigmoid_per_batch: bool,
}

/// A [`Streaming`] read back, its accumulator checked as its own type checks it, and the
/// sigmoid decision known exactly when rows were seen through a logit view.
#[cfg(feature = "serde")]
fn checked_streaming<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Streaming, D::Error> {
    use crate::error::StateFault;
    use crate::state_format::{checked, invalid};
    let state = <Streaming as serde::Deserialize>::deserialize(d)?;
    let decided = match &state {
        Streaming::Row { acc, view, sigmoid } => Some((
            sigmoid.is_some(),
            matches!(view, ScoreView::Logits(_)) && !acc.rows().is_empty(),
        )),
        Streaming::LabelwiseOnLogits { acc, sigmoid, .. } => {
            Some((sigmoid.is_some(), !acc.rows().is_empty()))
        }
        Streaming::RunsOnLogits { acc, sigmoid, .. } => {
            Some((sigmoid.is_some(), !acc.rows().is_empty()))
        }
        _ => None,
    };
    if let Some((decided, seen)) = decided {
        if decided != seen {
            let expected = "a decision once rows were seen through a logit view, none else";
            return checked::<D, _>(Err(invalid(
                "sigmoid",
                None,
                StateFault::Value { expected },
            )));
        }
    }
    Ok(state)
}

/// The state behind a [`PresetAccumulator`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
enum Streaming {
    Row {
        acc: RowAccumulator<AnyRow>,
        view: ScoreView,
        /// Under torchmetrics' logit views, whether the batches so far called for the sigmoid
        /// (`None` before the first non-empty batch): torchmetrics decides once for the whole
        /// input, so a batch or shard that decides otherwise is refused.
        #[cfg_attr(feature = "serde", serde(default))]
        sigmoid: Option<bool>,
    },
    Labelwise(LabelwiseAccumulator<AnyLabelwise>),
    /// A label-wise preset on torchmetrics' logit view in preds of `dtype`: the rows kept are
    /// the normalised scores; `sigmoid` as for `Row`.
    LabelwiseOnLogits {
        acc: LabelwiseAccumulator<AnyLabelwise>,
        view: PredsView,
        #[cfg_attr(feature = "serde", serde(default))]
        sigmoid: Option<bool>,
    },
    /// A label-wise preset keeping each label's runs ([`Preset::runs_accumulator_starting_at`]).
    Runs(LabelRunsAccumulator<AnyLabelwise>),
    /// As `Runs`, of the scores normalised by torchmetrics' logit view (`sigmoid` as for
    /// `Row`).
    RunsOnLogits {
        acc: LabelRunsAccumulator<AnyLabelwise>,
        view: PredsView,
        #[cfg_attr(feature = "serde", serde(default))]
        sigmoid: Option<bool>,
    },
}

impl Preset {
    /// An empty accumulator for a shard whose first row is row `first_row` of the whole data:
    /// its rows are numbered from there (in errors, for `TiePolicy::Random`'s streams, and for
    /// merges, which place rows in row order and refuse rows seen twice).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Sklearn, "roc_auc_score", Preset::NO_PARAMS, None).unwrap();
    /// let mut acc = p.accumulator_starting_at(100);
    /// acc.update(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None::<&[f64]>).unwrap();
    /// assert_eq!(acc.rows(), [100..102]);
    /// ```
    pub fn accumulator_starting_at(&self, first_row: usize) -> PresetAccumulator {
        PresetAccumulator::starting_at(&self.plan, first_row)
    }

    /// [`accumulator_starting_at`](Self::accumulator_starting_at), except that a label-wise
    /// preset keeps each label's runs (distinct scores counted by class) instead of the rows:
    /// O(labels × distinct scores) memory, the same value bitwise
    /// ([`LabelRunsAccumulator`]). Row-wise presets keep sums
    /// and counts either way.
    ///
    /// # Errors
    /// [`Error::NotExactInRuns`] for a label-wise preset whose value runs cannot give (a tie
    /// policy that orders ties by position, the `samples` average, pROC's automatic
    /// direction); its batches refuse sample weights.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Sklearn, "roc_auc_score", Preset::NO_PARAMS, None).unwrap();
    /// let (y, s) = ([[1, 0], [0, 1], [1, 1]], [[0.9, 0.5], [0.5, 0.5], [0.9, 0.1]]);
    /// let mut acc = p.runs_accumulator_starting_at(0).unwrap();
    /// acc.update(&y, &s, None::<&[f64]>).unwrap();
    /// assert_eq!(acc.value().unwrap(), p.evaluate(&y, &s, None::<&[f64]>).unwrap());
    /// let mldr = Preset::lookup(Convention::Mldr, "macro_auc", Preset::NO_PARAMS, None).unwrap();
    /// assert!(mldr.runs_accumulator_starting_at(0).is_err()); // pROC's automatic direction
    /// ```
    pub fn runs_accumulator_starting_at(
        &self, first_row: usize,
    ) -> Result<PresetAccumulator, Error> {
        let state = match &self.plan {
            Plan::Labelwise(m, None) => {
                Streaming::Runs(LabelRunsAccumulator::new(*m, m.label_domain(), first_row)?)
            }
            // The runs of the scores as normalised.
            Plan::Labelwise(m, Some(view)) => Streaming::RunsOnLogits {
                acc: LabelRunsAccumulator::new(*m, m.label_domain(), first_row)?,
                view: *view,
                sigmoid: None,
            },
            _ => return Ok(self.accumulator_starting_at(first_row)),
        };
        Ok(PresetAccumulator {
            version: StateVersion,
            state,
            sigmoid_per_batch: false,
        })
    }
}

/// A batch through the score view of a row-wise preset, to its accumulator's `$update`
/// (sequential or parallel); a label-wise preset stores the rows.
macro_rules! feed_batch {
    ($acc:expr, $update:ident, $y_true:expr, $y_score:expr, $weights:expr) => {
        feed_batch!($acc, $update, $y_true, $y_score, $weights, None)
    };
    ($acc:expr, $update:ident, $y_true:expr, $y_score:expr, $weights:expr, $order:expr) => {{
        let per_batch = $acc.sigmoid_per_batch;
        match &mut $acc.state {
            Streaming::Row {
                acc,
                view: ScoreView::Logits(view),
                sigmoid,
            } if $y_score.nrows() > 0 => {
                let view = &view.in_order($order);
                update_on_logits(sigmoid, per_batch, view, $y_true, $y_score, 1, |logits| {
                    through_preds_view!(view, logits, |scores| acc
                        .$update($y_true, scores, $weights))
                })
            }
            Streaming::Row {
                acc,
                view: ScoreView::Retrieval(view),
                ..
            } if $y_score.nrows() > 0 => {
                view.apply($y_true, $y_score, |y, s| acc.$update(y, s, $weights))
            }
            // An empty batch is a no-op, with or without a view.
            Streaming::Row {
                acc,
                view: ScoreView::AsIs | ScoreView::Logits(_) | ScoreView::Retrieval(_),
                ..
            } => acc.$update($y_true, $y_score, $weights),
            Streaming::Row {
                acc,
                view: ScoreView::Float32,
                ..
            } => acc.$update($y_true, &Float32Scores::new($y_score), $weights),
            Streaming::Labelwise(acc) => acc.update($y_true, $y_score, $weights),
            // torchmetrics' num_labels > 1.
            Streaming::LabelwiseOnLogits { acc, view, sigmoid } if $y_score.nrows() > 0 => {
                let view = &view.in_order($order);
                update_on_logits(sigmoid, per_batch, view, $y_true, $y_score, 2, |logits| {
                    acc.update($y_true, logits, $weights)
                })
            }
            Streaming::LabelwiseOnLogits { acc, .. } => acc.update($y_true, $y_score, $weights),
            Streaming::Runs(acc) => acc.update($y_true, $y_score, $weights),
            Streaming::RunsOnLogits { acc, view, sigmoid } if $y_score.nrows() > 0 => {
                let view = &view.in_order($order);
                update_on_logits(sigmoid, per_batch, view, $y_true, $y_score, 2, |logits| {
                    acc.update($y_true, logits, $weights)
                })
            }
            Streaming::RunsOnLogits { acc, .. } => acc.update($y_true, $y_score, $weights),
        }
    }};
}

impl PresetAccumulator {
    /// The same accumulator, its batches each deciding torchmetrics' sigmoid on their own
    /// scores, as torchmetrics' modules decide it at each `update()` (`true`); by default
    /// (`false`) every row must agree, as in one call of torchmetrics' function on all of them,
    /// and a batch or shard that decides otherwise is refused. Accumulators merge only with
    /// accumulators of the same choice.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Torchmetrics, "multilabel_coverage_error", Preset::NO_PARAMS, None).unwrap();
    /// let (logits, probabilities) = ([[20.0f32, 18.0]], [[0.9f32, 0.8]]);
    /// let mut acc = p.accumulator().deciding_sigmoid_per_batch(true);
    /// acc.update(&[[1, 0]], &logits, None::<&[f64]>).unwrap(); // sigmoid: 1.0 and 1.0, tied
    /// acc.update(&[[1, 0]], &probabilities, None::<&[f64]>).unwrap();
    /// assert_eq!(acc.value().unwrap(), 1.5);
    /// let mut one_call = p.accumulator();
    /// one_call.update(&[[1, 0]], &logits, None::<&[f64]>).unwrap();
    /// assert!(one_call.update(&[[1, 0]], &probabilities, None::<&[f64]>).is_err());
    /// ```
    pub fn deciding_sigmoid_per_batch(mut self, per_batch: bool) -> Self {
        self.sigmoid_per_batch = per_batch;
        self
    }

    /// An empty accumulator for `plan`, numbering rows from 0.
    pub(super) fn new(plan: &Plan) -> Self {
        Self::starting_at(plan, 0)
    }

    /// An empty accumulator for `plan`, numbering its first batch's rows from `first_row`.
    fn starting_at(plan: &Plan, first_row: usize) -> Self {
        let row = |metric: AnyRow, view| Streaming::Row {
            acc: RowAccumulator::starting_at(metric, first_row),
            view,
            sigmoid: None,
        };
        let state = match plan {
            Plan::Row { metric, logits } => row(
                metric.clone(),
                logits.map_or(ScoreView::AsIs, ScoreView::Logits),
            ),
            Plan::Float32Row { metric } => row(metric.clone(), ScoreView::Float32),
            Plan::Retrieval { metric, view } => row(metric.clone(), ScoreView::Retrieval(*view)),
            Plan::Labelwise(m, None) => {
                Streaming::Labelwise(LabelwiseAccumulator::new(*m, m.label_domain(), first_row))
            }
            Plan::Labelwise(m, Some(view)) => Streaming::LabelwiseOnLogits {
                acc: LabelwiseAccumulator::new(*m, m.label_domain(), first_row),
                view: *view,
                sigmoid: None,
            },
        };
        PresetAccumulator {
            version: StateVersion,
            state,
            sigmoid_per_batch: false,
        }
    }

    /// Adds a batch of rows; on error nothing is added.
    ///
    /// # Errors
    /// As [`Preset::evaluate`](super::Preset::evaluate), plus [`Error::Incompatible`] when the
    /// batch's label count or weighting differs from earlier batches.
    pub fn update<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
        &mut self, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    ) -> Result<(), Error> {
        feed_batch!(self, update, y_true, y_score, sample_weight)
    }

    /// [`update`](Self::update) with a batch that lies in memory in `order` (under a
    /// torchmetrics logit view with a vector sigmoid kernel, the order its sigmoid meets the
    /// elements in; each batch of torchmetrics' modules is a tensor of its own), instead of the
    /// preset's `memory_order`.
    ///
    /// # Errors
    /// As [`update`](Self::update).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// use rankmetrics::torchmetrics::MemoryOrder;
    /// let params = [("sigmoid", "avx512")];
    /// let p = Preset::lookup(Convention::Torchmetrics, "multilabel_coverage_error", &params, None).unwrap();
    /// // Two logits one float32 step apart, the second relevant, in a 16 x 2 batch of -5.
    /// let mut s = [[-5.0f32; 2]; 16];
    /// s[0] = [-1.040_839_2, -1.040_839_1];
    /// let mut y = [[0, 0]; 16];
    /// y[0] = [0, 1];
    /// y[1] = [1, 0];
    /// let mut strided = p.accumulator().deciding_sigmoid_per_batch(true);
    /// strided.update_in_memory_order(MemoryOrder::Strided, &y, &s, None).unwrap();
    /// let mut dense = p.accumulator().deciding_sigmoid_per_batch(true);
    /// dense.update(&y, &s, None).unwrap();
    /// assert!(strided.value().unwrap() < dense.value().unwrap()); // one tie fewer
    /// ```
    pub fn update_in_memory_order<T, Y, S>(
        &mut self, order: MemoryOrder, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    ) -> Result<(), Error>
    where
        T: Score,
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        feed_batch!(self, update, y_true, y_score, sample_weight, Some(order))
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
        &mut self, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    ) -> Result<(), Error>
    where
        T: Score,
        Y: LabelMatrix + Sync + ?Sized,
        S: ScoreMatrix<T> + Sync + ?Sized,
    {
        feed_batch!(self, update_parallel, y_true, y_score, sample_weight)
    }

    /// Adds the rows of another accumulator of the same preset, in any order: the value is
    /// then bitwise the one-shot value of both shards' rows in row order.
    ///
    /// # Errors
    /// [`Error::Incompatible`] with [`Incompatibility::Overlap`] when both have seen a row,
    /// or when the presets, label counts or weightings differ; [`Error::InvalidLabel`] when a
    /// scikit-learn preset's labels take more than two distinct values across both. On error
    /// nothing is merged.
    pub fn merge(&mut self, other: &Self) -> Result<(), Error> {
        if self.sigmoid_per_batch != other.sigmoid_per_batch {
            return Err(Error::Incompatible(Incompatibility::Metric));
        }
        // Batches that decide on their own need not agree.
        let agree = !self.sigmoid_per_batch;
        match (&mut self.state, &other.state) {
            (
                Streaming::Row { acc, view, sigmoid },
                Streaming::Row {
                    acc: b,
                    view: v,
                    sigmoid: theirs,
                },
            ) if view == v => merge_on_logits(sigmoid, *theirs, agree, || acc.merge(b)),
            (Streaming::Labelwise(acc), Streaming::Labelwise(b)) => acc.merge(b),
            (
                Streaming::LabelwiseOnLogits { acc, view, sigmoid },
                Streaming::LabelwiseOnLogits {
                    acc: b,
                    view: v,
                    sigmoid: theirs,
                },
            ) if view == v => merge_on_logits(sigmoid, *theirs, agree, || acc.merge(b)),
            (Streaming::Runs(acc), Streaming::Runs(b)) => acc.merge(b),
            (
                Streaming::RunsOnLogits { acc, view, sigmoid },
                Streaming::RunsOnLogits {
                    acc: b,
                    view: v,
                    sigmoid: theirs,
                },
            ) if view == v => merge_on_logits(sigmoid, *theirs, agree, || acc.merge(b)),
            _ => Err(Error::Incompatible(Incompatibility::Metric)),
        }
    }

    /// The preset's value over every row added so far.
    ///
    /// # Errors
    /// [`Error::NoSamples`] before any row; otherwise as
    /// [`Preset::evaluate`](super::Preset::evaluate).
    pub fn value(&self) -> Result<f64, Error> {
        match &self.state {
            Streaming::Row { acc, .. } => acc.value(),
            Streaming::Labelwise(acc) | Streaming::LabelwiseOnLogits { acc, .. } => acc.value(),
            Streaming::Runs(acc) | Streaming::RunsOnLogits { acc, .. } => acc.value(),
        }
    }

    /// Each label's value over every row added so far: the preset's metric on that label's
    /// column alone (scikit-learn's and torchmetrics' `average=None`), for a label-wise preset
    /// that keeps its rows and does not average over samples.
    ///
    /// # Errors
    /// [`Error::NotLabelwise`] for a row-wise or samples-averaged preset, or a state of
    /// per-label runs; [`Error::NoSamples`] before any row; otherwise as
    /// [`value`](Self::value).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Torchmetrics, "multilabel_auroc", Preset::NO_PARAMS, None).unwrap();
    /// let mut acc = p.accumulator();
    /// acc.update(&[[1, 0], [0, 1]], &[[0.9, 0.3], [0.2, 0.8]], None::<&[f64]>).unwrap();
    /// acc.update(&[[1, 0]], &[[0.1, 0.5]], None::<&[f64]>).unwrap();
    /// assert_eq!(acc.per_label().unwrap(), [0.5, 1.0]);
    /// ```
    pub fn per_label(&self) -> Result<Vec<f64>, Error> {
        match &self.state {
            Streaming::Labelwise(acc) | Streaming::LabelwiseOnLogits { acc, .. }
                if acc.metric().options().average != Average::Samples =>
            {
                acc.per_label()
            }
            _ => Err(Error::NotLabelwise),
        }
    }

    /// The rows seen, as global row numbers: sorted, disjoint ranges (touching ranges
    /// joined).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Mldr, "coverage", Preset::NO_PARAMS, None).unwrap();
    /// let mut acc = p.accumulator();
    /// acc.update(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None::<&[f64]>).unwrap();
    /// assert_eq!(acc.rows(), [0..2]);
    /// ```
    pub fn rows(&self) -> &[Range<usize>] {
        match &self.state {
            Streaming::Row { acc, .. } => acc.rows(),
            Streaming::Labelwise(acc) | Streaming::LabelwiseOnLogits { acc, .. } => acc.rows(),
            Streaming::Runs(acc) | Streaming::RunsOnLogits { acc, .. } => acc.rows(),
        }
    }

    /// The runs a label-wise preset keeps when made by
    /// [`Preset::runs_accumulator_starting_at`]: their number over every label (distinct
    /// label–score pairs); `None` for an accumulator that keeps sums or rows.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Sklearn, "roc_auc_score", Preset::NO_PARAMS, None).unwrap();
    /// let (y, s) = ([[1, 0], [0, 1], [1, 1]], [[0.9, 0.5], [0.5, 0.5], [0.9, 0.1]]);
    /// let mut acc = p.runs_accumulator_starting_at(0).unwrap();
    /// acc.update(&y, &s, None::<&[f64]>).unwrap();
    /// assert_eq!(acc.run_count(), Some(4)); // label 0: 0.9, 0.5; label 1: 0.5, 0.1
    /// assert_eq!(p.accumulator().run_count(), None);
    /// ```
    pub fn run_count(&self) -> Option<usize> {
        match &self.state {
            Streaming::Runs(acc) | Streaming::RunsOnLogits { acc, .. } => Some(acc.run_count()),
            Streaming::Row { .. }
            | Streaming::Labelwise(_)
            | Streaming::LabelwiseOnLogits { .. } => None,
        }
    }

    /// Each label's runs, as [`run_count`](Self::run_count) counts them over every label;
    /// `None` for an accumulator that keeps sums or rows.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Sklearn, "roc_auc_score", Preset::NO_PARAMS, None).unwrap();
    /// let (y, s) = ([[1, 0], [0, 1], [1, 1]], [[0.9, 0.5], [0.5, 0.5], [0.9, 0.1]]);
    /// let mut acc = p.runs_accumulator_starting_at(0).unwrap();
    /// acc.update(&y, &s, None::<&[f64]>).unwrap();
    /// assert_eq!(acc.label_run_counts(), Some(vec![2, 2]));
    /// assert_eq!(p.accumulator().label_run_counts(), None);
    /// ```
    pub fn label_run_counts(&self) -> Option<Vec<usize>> {
        match &self.state {
            Streaming::Runs(acc) | Streaming::RunsOnLogits { acc, .. } => {
                Some(acc.label_run_counts())
            }
            Streaming::Row { .. }
            | Streaming::Labelwise(_)
            | Streaming::LabelwiseOnLogits { .. } => None,
        }
    }
}

/// A non-empty batch through torchmetrics' logit view `view` (at least `min_labels` labels),
/// given to `update`: its sigmoid decision must agree with the rows' seen before
/// (`sigmoid`) unless each batch decides its own (`per_batch`), and is recorded once the
/// batch is added.
fn update_on_logits<T, Y, S>(
    sigmoid: &mut Option<bool>, per_batch: bool, view: &PredsView, y_true: &Y, y_score: &S,
    min_labels: usize, update: impl FnOnce(&Logits<'_, S>) -> Result<(), Error>,
) -> Result<(), Error>
where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    crate::validate::check_shapes(y_true, y_score, min_labels)?;
    let logits = view.logits(y_score)?;
    let applies = logits.applies_sigmoid();
    if !per_batch {
        agree_on_sigmoid(*sigmoid, Some(applies))?;
    }
    update(&logits)?;
    *sigmoid = Some(applies);
    Ok(())
}

/// Merges another shard's rows (`merge`) under the same logit view, refusing (where the rows
/// must `agree`) a sigmoid decision (`theirs`) that differs from this one's.
fn merge_on_logits(
    sigmoid: &mut Option<bool>, theirs: Option<bool>, agree: bool,
    merge: impl FnOnce() -> Result<(), Error>,
) -> Result<(), Error> {
    if agree {
        agree_on_sigmoid(*sigmoid, theirs)?;
    }
    merge()?;
    *sigmoid = sigmoid.or(theirs);
    Ok(())
}

/// Refuses rows whose sigmoid decision (`theirs`) differs from the rows' seen before.
fn agree_on_sigmoid(seen: Option<bool>, theirs: Option<bool>) -> Result<(), Error> {
    match (seen, theirs) {
        (Some(seen), Some(theirs)) if seen != theirs => {
            Err(Error::Incompatible(Incompatibility::Sigmoid { seen }))
        }
        _ => Ok(()),
    }
}
