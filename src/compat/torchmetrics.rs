//! torchmetrics 1.9 (`torchmetrics.functional.classification`): coverage, LRAP and ranking
//! loss, evaluated in `f64` (torchmetrics itself returns `float32`; its goldens'
//! `value_f64`); and retrieval NDCG ([`retrieval_normalized_dcg`], one query per row).
//!
//! * Logits: when any score of the whole input lies outside [0, 1], torchmetrics applies a
//!   sigmoid to every score first. This can merge distinct scores into ties where the sigmoid
//!   saturates (40 and 38 both map to 1.0), and these presets do the same.
//! * Targets must be 0 or 1, and there must be at least 2 labels.
//! * Coverage and LRAP equal scikit-learn's; the ranking loss breaks ties by torch's (stable,
//!   CPU) sort order, which is `TiePolicy::Last`.
//! * Deliberate difference: NaN and infinite scores are errors here; torchmetrics has no check.
//!
//! The functions take `(preds, target)` in torchmetrics' order.

use core::ops::Range;

use crate::error::{Error, LabelDomain};
use crate::matrix::{LabelMatrix, Matrix, ScoreMatrix};
use crate::metric::RankingMetric;
use crate::metrics::{AveragePrecision, Coverage, Ndcg, RankingLoss};
use crate::row::metric::RowRule;
use crate::score::Score;
use crate::ties::TiePolicy;
use crate::validate::{check_scores, check_shapes};

/// `multilabel_coverage_error` (on scores already normalised; see [`Logits`]).
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics, RankingMetric};
/// let v = torchmetrics::MULTILABEL_COVERAGE_ERROR.evaluate(&[[1, 0, 0]], &[[0.5, 0.5, 0.1]], None);
/// assert_eq!(v.unwrap(), 2.0);
/// ```
pub const MULTILABEL_COVERAGE_ERROR: Coverage = Coverage::new(TiePolicy::Max)
    .one_based(true)
    .with_label_domain(LabelDomain::Binary)
    .with_min_labels(2);

/// `multilabel_ranking_average_precision` (on scores already normalised; see [`Logits`]).
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics, RankingMetric};
/// let v = torchmetrics::MULTILABEL_RANKING_AVERAGE_PRECISION.evaluate(&[[1, 1]], &[[0.5, 0.1]], None);
/// assert_eq!(v.unwrap(), 1.0);
/// ```
pub const MULTILABEL_RANKING_AVERAGE_PRECISION: AveragePrecision =
    AveragePrecision::new(TiePolicy::Max)
        .on_all_relevant(RowRule::Value(1.0))
        .with_label_domain(LabelDomain::Binary)
        .with_min_labels(2);

/// `multilabel_ranking_loss` (on scores already normalised; see [`Logits`]): a tied pair is
/// an error only when the relevant label has the lower column index.
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics, RankingMetric};
/// let loss = |y| torchmetrics::MULTILABEL_RANKING_LOSS.evaluate(&[y], &[[0.5, 0.5]], None).unwrap();
/// assert_eq!((loss([1, 0]), loss([0, 1])), (1.0, 0.0));
/// ```
pub const MULTILABEL_RANKING_LOSS: RankingLoss = RankingLoss::new(TiePolicy::Last)
    .with_label_domain(LabelDomain::Binary)
    .with_min_labels(2);

/// torchmetrics' score normalisation as a [`Matrix`] view: the sigmoid `1 / (1 + e^-x)` of
/// every score when some score lies outside [0, 1], the scores unchanged otherwise. Computed
/// on the fly; the caller's scores are not copied or modified.
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics::Logits, Matrix};
/// let scores = [[40.0, 38.0, -1.0]];
/// let view = Logits::new(&scores).unwrap();
/// assert!(view.applies_sigmoid());
/// let mut row = Vec::new();
/// view.extend_rows(0..1, &mut row);
/// assert_eq!(row[0], row[1]); // both saturate to 1.0: a new tie
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Logits<'a, S: ?Sized> {
    scores: &'a S,
    sigmoid: bool,
}

impl<'a, T: Score, S: Matrix<Elem = T> + ?Sized> Logits<'a, S> {
    /// Looks at every score once to decide whether the sigmoid applies.
    ///
    /// # Errors
    /// [`Error::NonFiniteScore`] for the first NaN or infinite score, [`Error::RaggedRow`] for
    /// a ragged input.
    pub fn new(scores: &'a S) -> Result<Self, Error> {
        scores.check_shape()?;
        let mut reader = crate::matrix::RowReader::new(scores);
        let mut sigmoid = false;
        for i in 0..scores.nrows() {
            let row = reader.row(i);
            check_scores(row, i)?;
            sigmoid |= row.iter().any(|&s| s < T::zero() || s > T::one());
        }
        Ok(Logits { scores, sigmoid })
    }

    /// Whether the scores go through the sigmoid.
    pub fn applies_sigmoid(&self) -> bool {
        self.sigmoid
    }
}

impl<T: Score, S: Matrix<Elem = T> + ?Sized> Matrix for Logits<'_, S> {
    type Elem = T;
    fn nrows(&self) -> usize {
        self.scores.nrows()
    }
    fn ncols(&self) -> usize {
        self.scores.ncols()
    }
    fn row(&self, i: usize) -> Option<&[T]> {
        if self.sigmoid {
            None
        } else {
            self.scores.row(i)
        }
    }
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        let start = out.len();
        self.scores.extend_rows(rows, out);
        if self.sigmoid {
            for s in &mut out[start..] {
                *s = T::from_f64(1.0 / (1.0 + (-s.as_f64()).exp()));
            }
        }
    }
    fn check_shape(&self) -> Result<(), Error> {
        self.scores.check_shape()
    }
}

/// Evaluates `metric` as torchmetrics does: shapes first, then the logit normalisation.
/// Weights are an extension (torchmetrics has none).
pub(crate) fn evaluate_on_logits<M, T, Y, S>(
    metric: &M,
    preds: &S,
    target: &Y,
    weights: Option<&[f64]>,
) -> Result<f64, Error>
where
    M: RankingMetric<T>,
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    check_shapes(target, preds, 1)?;
    metric.evaluate(target, &Logits::new(preds)?, weights)
}

/// `torchmetrics.functional.classification.multilabel_coverage_error(preds, target, num_labels)`.
///
/// # Errors
/// Targets other than 0/1, fewer than 2 labels, non-finite scores, mismatched shapes.
///
/// # Example
/// ```
/// let v = rankmetrics::torchmetrics::multilabel_coverage_error(&[[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]], &[[1, 0, 0], [0, 0, 1]]);
/// assert_eq!(v.unwrap(), 2.5);
/// ```
pub fn multilabel_coverage_error<T, S, Y>(preds: &S, target: &Y) -> Result<f64, Error>
where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    evaluate_on_logits(&MULTILABEL_COVERAGE_ERROR, preds, target, None)
}

/// `torchmetrics.functional.classification.multilabel_ranking_average_precision(preds, target, num_labels)`.
///
/// # Errors
/// As [`multilabel_coverage_error`].
///
/// # Example
/// ```
/// let v = rankmetrics::torchmetrics::multilabel_ranking_average_precision(&[[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]], &[[1, 0, 0], [0, 0, 1]]);
/// assert!((v.unwrap() - 0.41666666666666663).abs() < 1e-16);
/// ```
pub fn multilabel_ranking_average_precision<T, S, Y>(preds: &S, target: &Y) -> Result<f64, Error>
where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    evaluate_on_logits(&MULTILABEL_RANKING_AVERAGE_PRECISION, preds, target, None)
}

/// `torchmetrics.functional.classification.multilabel_ranking_loss(preds, target, num_labels)`.
///
/// # Errors
/// As [`multilabel_coverage_error`].
///
/// # Example
/// ```
/// // Logits: 40 and 38 saturate to the same probability, so the pair ties (sklearn says 0.5).
/// let v = rankmetrics::torchmetrics::multilabel_ranking_loss(&[[40.0, 38.0, -1.0]], &[[0, 1, 0]]);
/// assert_eq!(v.unwrap(), 0.0);
/// ```
pub fn multilabel_ranking_loss<T, S, Y>(preds: &S, target: &Y) -> Result<f64, Error>
where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    evaluate_on_logits(&MULTILABEL_RANKING_LOSS, preds, target, None)
}

/// `RetrievalNormalizedDCG(top_k=None, empty_target_action="neg")` with one query per row (on
/// scores already cast; see [`Float32Scores`]): tie-averaged gains, any finite gain (negative
/// ones too, unchecked as in torchmetrics), a row of zero gains scores 0, and a single label
/// is enough.
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics, RankingMetric};
/// let v = torchmetrics::RETRIEVAL_NORMALIZED_DCG.evaluate(&[[1], [0]], &[[0.5], [0.5]], None);
/// assert_eq!(v.unwrap(), 0.5);
/// ```
pub const RETRIEVAL_NORMALIZED_DCG: Ndcg =
    Ndcg::new(TiePolicy::Average).with_label_domain(LabelDomain::NonZero);

/// torchmetrics' retrieval cast of `preds` to `float32`, as a [`Matrix`] view: scores closer
/// than `float32` resolution tie, as they do in torchmetrics. Computed on the fly; the caller's
/// scores are not copied or modified.
///
/// The cast of a finite `f64` beyond `f32::MAX` is `±inf` in torch, above (below) every
/// finite `float32` and tied with every other overflow. The view gives it `±f64::MAX`
/// instead, which keeps exactly that order and those ties (every finite `float32` is at most
/// `f32::MAX < f64::MAX`) and keeps the kernel's scores finite. A score that is already NaN or
/// infinite stays so and is rejected as usual ([`Error::NonFiniteScore`]).
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics::Float32Scores, Matrix};
/// let scores = [[0.3, 0.3 + 1e-9, 1e300, 1e299, -1e300]];
/// let mut row = Vec::new();
/// Float32Scores::new(&scores).extend_rows(0..1, &mut row);
/// assert_eq!(row[0], row[1]); // 1e-9 apart: one float32
/// assert_eq!((row[2], row[3], row[4]), (f64::MAX, f64::MAX, -f64::MAX)); // overflows tie
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Float32Scores<'a, S: ?Sized> {
    scores: &'a S,
}

impl<'a, S: ?Sized> Float32Scores<'a, S> {
    /// The view of `scores` cast to `float32`.
    pub fn new(scores: &'a S) -> Self {
        Float32Scores { scores }
    }
}

/// `x as float32`, with an overflow to ±inf given as ±`f64::MAX` (see [`Float32Scores`]).
fn cast_to_f32(x: f64) -> f64 {
    let cast = x as f32;
    if cast.is_infinite() && x.is_finite() {
        f64::MAX.copysign(x)
    } else {
        f64::from(cast)
    }
}

impl<T: Score, S: Matrix<Elem = T> + ?Sized> Matrix for Float32Scores<'_, S> {
    type Elem = T;
    fn nrows(&self) -> usize {
        self.scores.nrows()
    }
    fn ncols(&self) -> usize {
        self.scores.ncols()
    }
    fn row(&self, _: usize) -> Option<&[T]> {
        None // the cast needs a copy
    }
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        let start = out.len();
        self.scores.extend_rows(rows, out);
        for s in &mut out[start..] {
            *s = T::from_f64(cast_to_f32(s.as_f64()));
        }
    }
    fn check_shape(&self) -> Result<(), Error> {
        self.scores.check_shape()
    }
}

/// `torchmetrics.retrieval.RetrievalNormalizedDCG(top_k=top_k, empty_target_action="neg")`
/// updated with `indexes` = the row number: the mean over rows of each row's NDCG, on `preds`
/// cast to `float32` ([`Float32Scores`]). (The functional `retrieval_normalized_dcg` flattens
/// a matrix into one query; this is the per-query form.)
///
/// Equal to scikit-learn's `ndcg_score(k=top_k)` except where the cast merges scores, and it
/// takes 1-label rows and negative targets, where scikit-learn raises. Targets are used in
/// `f64` (torchmetrics casts them to `float32` too, which changes gains that `float32` cannot
/// hold by at most half an ulp of `float32`).
///
/// # Errors
/// `top_k = Some(0)` ([`Error::InvalidK`]), non-finite scores or targets, mismatched shapes.
///
/// # Example
/// ```
/// use rankmetrics::torchmetrics::retrieval_normalized_dcg;
/// // Scores 1e-8 apart tie in float32: the two gains are averaged at position 1.
/// let (preds, target) = ([[0.5 + 1e-8, 0.5]], [[0, 1]]);
/// assert_eq!(retrieval_normalized_dcg(&preds, &target, Some(1)).unwrap(), 0.5);
/// let sklearn = rankmetrics::sklearn::ndcg_score(&target, &preds, Some(1), None, false).unwrap();
/// assert_eq!(sklearn, 0.0);
/// ```
pub fn retrieval_normalized_dcg<T, S, Y>(
    preds: &S,
    target: &Y,
    top_k: Option<usize>,
) -> Result<f64, Error>
where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    RETRIEVAL_NORMALIZED_DCG
        .with_k(top_k)?
        .evaluate(target, &Float32Scores::new(preds), None)
}
