//! The core trait [`RankingMetric`], and its implementation for every row-wise metric
//! ([`RowMetric`], defined with the row pass in `row/`).

use crate::error::Error;
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::row::metric::RowMetric;
use crate::row::state::RowState;
use crate::score::Score;

/// A multilabel ranking metric over score type `T` (`f32` or `f64`).
///
/// # Contract
/// * `y_true` and `y_score` are n × L matrices (rows = samples, columns = labels). Labels are
///   0 or 1 (1 = relevant; `false`/`true` and `0.0`/`1.0` too) for the crate's own metrics of
///   relevance, and any other value is [`Error::InvalidLabel`]; graded metrics take gains
///   ([`Dcg`](crate::Dcg): any finite number, [`Ndcg`](crate::Ndcg): non-negative). Each
///   metric's `with_label_domain(LabelDomain::NonZero)` counts every non-zero label as
///   relevant instead; the toolkit presets apply their toolkit's own rule.
///   `sample_weight`, when given, has one finite, non-negative `f64` weight per row, whatever
///   the score type.
/// * The result is a pure function of the inputs and the metric's options: evaluating twice
///   gives bitwise the same value; nothing is cached or mutated, the caller's data included.
/// * Ties are ranked by the metric's [`TiePolicy`](crate::TiePolicy), through the crate's one
///   ranking kernel ([`Ranker`](crate::Ranker)).
/// * Bad input returns an [`Error`] that says what and where; no input panics.
/// * Results are `f64` whatever `T` is: sums run in `f64` with compensation.
///
/// Row-wise metrics get this trait from [`RowMetric`], which adds per-sample values.
///
/// # Example
/// ```
/// use rankmetrics::{AveragePrecision, RankingMetric, TiePolicy};
/// let y_true = [[1, 0, 0], [0, 0, 1]];
/// let y_score = [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]];
/// let lrap = AveragePrecision::new(TiePolicy::Max).evaluate(&y_true, &y_score, None).unwrap();
/// assert!((lrap - 5.0 / 12.0).abs() < 1e-15);
/// ```
pub trait RankingMetric<T: Score> {
    /// The metric over all rows: a weighted mean of per-row values unless the metric says
    /// otherwise.
    ///
    /// # Errors
    /// Shape, label, score and weight problems, each as its own [`Error`] variant.
    fn evaluate<Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
        &self, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    ) -> Result<f64, Error>;
}

impl<T: Score, M: RowMetric> RankingMetric<T> for M {
    fn evaluate<Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
        &self, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    ) -> Result<f64, Error> {
        // One batch of a fresh accumulator: streaming and one-shot share every step.
        let mut state = RowState::new(self.options(), 0);
        state.update(self, y_true, y_score, sample_weight)?;
        state.value(self.options())
    }
}
