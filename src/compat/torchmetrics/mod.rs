//! torchmetrics 1.9 (`torchmetrics.functional.classification`): coverage, LRAP and ranking
//! loss (torchmetrics itself returns `float32`; these return the same value in `f64`, LRAP
//! computed in torchmetrics' `float32` arithmetic, so its very value), multilabel AUROC and
//! average precision; and retrieval NDCG ([`retrieval_normalized_dcg`], one query per row).
//!
//! * Logits: when any score of the whole input lies outside [0, 1], torchmetrics applies a
//!   sigmoid to every score first, in the preds' dtype: `f32` scores go through torch's
//!   `float32` sigmoid ([`sigmoid_f32`], saturating above about 16.6), `f64` scores through the
//!   `f64` one (saturating above about 36.7); see [`Logits`]. Both can merge distinct scores
//!   into ties, and these presets do the same. torch's vector kernels compute most of a dense
//!   tensor's sigmoids with another `exp` ([`TorchCpu`]); the presets follow the kernel named
//!   by the registry's `sigmoid` parameter, the one-element formula by default.
//! * Targets must be 0 or 1, and there must be at least 2 labels.
//! * Coverage and LRAP equal scikit-learn's (the named LRAP function in `float32`); the ranking
//!   loss breaks ties by the order of torch's CPU argsort, which is `TiePolicy::Last` for rows
//!   of up to 16 labels and, above, the order its introsort leaves; [`multilabel_ranking_loss`]
//!   and the registry's preset follow that order (docs/conventions.md).
//!   [`MULTILABEL_RANKING_LOSS`] alone is the `Last` rule.
//! * Deliberate difference: NaN and infinite scores are errors here; torchmetrics has no check.
//!
//! The functions take `(preds, target)` in torchmetrics' order.

use core::ops::Range;

use crate::error::{Error, LabelDomain};
use crate::labelwise::{Average, Undefined};
use crate::matrix::{LabelMatrix, Matrix, ScoreMatrix};
use crate::metric::RankingMetric;
use crate::metrics::{
    AveragePrecision, Coverage, LabelAveragePrecision, Ndcg, RankingLoss, RetrievalMeasure, RocAuc,
};
use crate::row::metric::RowRule;
use crate::score::Score;
use crate::sum::Summation;
use crate::ties::TiePolicy;
use crate::validate::check_shapes;

/// Inside `impl Matrix` of a view that computes its rows of `$elem` from its field `scores`:
/// that matrix's shape and its check, and no borrowed row (each row is computed).
macro_rules! computed_rows_of_scores {
    ($elem:ty) => {
        type Elem = $elem;
        fn nrows(&self) -> usize {
            self.scores.nrows()
        }
        fn ncols(&self) -> usize {
            self.scores.ncols()
        }
        fn row(&self, _: usize) -> Option<&[$elem]> {
            None
        }
        fn check_shape(&self) -> Result<(), $crate::error::Error> {
            self.scores.check_shape()
        }
    };
}

mod dtype;
mod logits;
mod queries;
mod retrieval;
mod sleef;
mod torch_order;
pub use dtype::{sigmoid_f32, PredsDtype, UnknownDtype};
pub use logits::{Logits, MemoryOrder, TorchCpu};
pub(crate) use queries::query_values;
pub use queries::{EmptyTargetAction, QueryAggregation};
pub(crate) use retrieval::{retrieval_preset, RetrievalView};
pub(crate) use torch_order::TorchOrder;

/// How torchmetrics reads a preds tensor before its formula: the dtype its sigmoid computes in,
/// the CPU kernel and threads that compute it, and whether the formula ranks by torch's CPU
/// `argsort` (the ranking loss), which places tied scores as that sort does ([`TorchOrder`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct PredsView {
    pub(crate) dtype: PredsDtype,
    pub(crate) argsort: bool,
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) cpu: TorchCpu,
    #[cfg_attr(feature = "serde", serde(default = "one_thread"))]
    pub(crate) threads: usize,
    /// How the preds tensor lies in memory (the vector sigmoid's order).
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) order: MemoryOrder,
}

/// States written before the kernel was recorded computed on one thread.
#[cfg(feature = "serde")]
fn one_thread() -> usize {
    1
}

impl PredsView {
    /// The view of preds of `dtype`, ranked by the formula's own tie rule, the sigmoid by the
    /// one-element formula.
    pub(crate) const fn of(dtype: PredsDtype) -> Self {
        PredsView {
            dtype,
            argsort: false,
            cpu: TorchCpu::Scalar,
            threads: 1,
            order: MemoryOrder::RowMajor,
        }
    }

    /// The same view of a tensor in `order`, if given.
    pub(crate) fn in_order(self, order: Option<MemoryOrder>) -> Self {
        PredsView {
            order: order.unwrap_or(self.order),
            ..self
        }
    }

    /// The logit view of `scores` that this view describes.
    pub(crate) fn logits<'a, T: Score, S: Matrix<Elem = T> + ?Sized>(
        &self, scores: &'a S,
    ) -> Result<Logits<'a, S>, Error> {
        let logits = Logits::with_dtype(scores, self.dtype)?.on_cpu(self.cpu, self.threads);
        Ok(logits.in_memory_order(self.order))
    }
}

/// `$body` with `$scores` bound to the logit view `$logits` as `$view` has the formula read it:
/// as it is, or in torch's argsort order.
macro_rules! through_preds_view {
    ($view:expr, $logits:expr, |$scores:ident| $body:expr) => {
        if $view.argsort {
            let $scores = &$crate::compat::torchmetrics::TorchOrder::new($logits);
            $body
        } else {
            let $scores = $logits;
            $body
        }
    };
}
pub(crate) use through_preds_view;

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

/// [`MULTILABEL_RANKING_AVERAGE_PRECISION`] in torchmetrics' `float32` arithmetic, to the bit:
/// each row's mean by torch's `float32` sum ([`AveragePrecision::in_float32`]), the rows
/// added into a `float32` running total ([`Summation::Float32`]). Where the exact mean is
/// 1/3 over 10,000 rows, torchmetrics gives 0.33331194519996643, and so does this.
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics, RankingMetric};
/// let (y, s) = ([[0, 0, 1]], [[0.9, 0.5, 0.1]]);
/// let v = torchmetrics::MULTILABEL_RANKING_AVERAGE_PRECISION_F32.evaluate(&y, &s, None);
/// assert_eq!(v.unwrap(), f64::from(1.0f32 / 3.0));
/// ```
pub const MULTILABEL_RANKING_AVERAGE_PRECISION_F32: AveragePrecision =
    MULTILABEL_RANKING_AVERAGE_PRECISION
        .in_float32(true)
        .with_summation(Summation::Float32);

/// `multilabel_ranking_loss`'s formula (on scores already normalised; see [`Logits`]): a tied
/// pair is an error only when the relevant label has the lower column index, which is torch's
/// argsort order on rows of up to 16 labels ([`multilabel_ranking_loss`] follows it on longer
/// rows too).
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

/// `multilabel_auroc(preds, target, num_labels, average="macro", thresholds=None)` (on scores
/// already normalised; see [`Logits`]): each label's exact ROC curve, tied scores one
/// threshold (the trapezoid counts a tied pair as half), and **0.0** for a label without
/// positives or without negatives, which counts in the macro mean (scikit-learn gives NaN).
/// `.averaged(Average::Micro)` pools every cell, `Average::Weighted` weighs labels by their
/// positives (0.0 when no label has one). torchmetrics has no `samples` average.
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics, RankingMetric};
/// // Label 1 has no positive: 0.0, in the mean.
/// let (y, s) = ([[1, 0], [0, 0]], [[0.9, 0.2], [0.1, 0.8]]);
/// assert_eq!(torchmetrics::MULTILABEL_AUROC.evaluate(&y, &s, None).unwrap(), 0.5);
/// ```
pub const MULTILABEL_AUROC: RocAuc = RocAuc::new(Average::Macro, TiePolicy::Average)
    .on_undefined(Undefined::Value(0.0))
    .with_label_domain(LabelDomain::Binary);

/// `multilabel_average_precision(preds, target, num_labels, average="macro", thresholds=None)`
/// (on scores already normalised; see [`Logits`]): each label's step-wise AP, tied scores one
/// threshold (`TiePolicy::Max`), 0 for a label without positives (torchmetrics' `-0.0`),
/// counted in the macro mean; averages as [`MULTILABEL_AUROC`]'s.
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics, RankingMetric};
/// let (y, s) = ([[1, 0], [0, 0]], [[0.9, 0.2], [0.1, 0.8]]);
/// assert_eq!(torchmetrics::MULTILABEL_AVERAGE_PRECISION.evaluate(&y, &s, None).unwrap(), 0.5);
/// ```
pub const MULTILABEL_AVERAGE_PRECISION: LabelAveragePrecision =
    LabelAveragePrecision::new(Average::Macro, TiePolicy::Max)
        .on_undefined(Undefined::Value(0.0))
        .with_label_domain(LabelDomain::Binary);

/// The scores' own dtype (`float32` for `f32` scores, `float64` for `f64`).
const NATIVE: PredsView = PredsView::of(PredsDtype::Float64);

/// As [`NATIVE`], ranked in torch's argsort order (the ranking loss).
const IN_ARGSORT_ORDER: PredsView = PredsView {
    argsort: true,
    ..NATIVE
};

/// Evaluates `metric` as torchmetrics does: shapes first, then the logit normalisation in the
/// view's dtype (at least `float32` for `f32` scores), then, for the ranking loss, torch's
/// argsort order. Weights are an extension (torchmetrics has none).
pub(crate) fn evaluate_on_logits<M, T, Y, S>(
    metric: &M, preds: &S, target: &Y, weights: Option<&[f64]>, view: PredsView,
) -> Result<f64, Error>
where
    M: RankingMetric<T>,
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    check_shapes(target, preds, 1)?;
    let logits = &view.logits(preds)?;
    through_preds_view!(view, logits, |scores| metric
        .evaluate(target, scores, weights))
}

toolkit_fn! {
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
    pub fn multilabel_coverage_error(preds: &S, target: &Y) {
        evaluate_on_logits(&MULTILABEL_COVERAGE_ERROR, preds, target, None, NATIVE)
    }
}

toolkit_fn! {
    /// `torchmetrics.functional.classification.multilabel_ranking_average_precision(preds, target, num_labels)`,
    /// in its `float32` arithmetic ([`MULTILABEL_RANKING_AVERAGE_PRECISION_F32`]).
    ///
    /// # Errors
    /// As [`multilabel_coverage_error`].
    ///
    /// # Example
    /// ```
    /// let v = rankmetrics::torchmetrics::multilabel_ranking_average_precision(&[[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]], &[[1, 0, 0], [0, 0, 1]]);
    /// assert_eq!(v.unwrap(), 0.4166666865348816); // torchmetrics' float32 value of 5/12
    /// ```
    pub fn multilabel_ranking_average_precision(preds: &S, target: &Y) {
        evaluate_on_logits(
            &MULTILABEL_RANKING_AVERAGE_PRECISION_F32,
            preds,
            target,
            None,
            NATIVE,
        )
    }
}

toolkit_fn! {
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
    pub fn multilabel_ranking_loss(preds: &S, target: &Y) {
        evaluate_on_logits(&MULTILABEL_RANKING_LOSS, preds, target, None, IN_ARGSORT_ORDER)
    }
}

/// `RetrievalNormalizedDCG(top_k=None, empty_target_action="neg")` with one query per row (on
/// scores already cast; see [`Float32Scores`]): tie-averaged gains, any finite gain (negative
/// ones too, unchecked as in torchmetrics), a row of zero gains scores 0, and a single label
/// is enough; the exact mean of each row's `f64` NDCG ([`RETRIEVAL_NORMALIZED_DCG_F32`] is
/// torchmetrics' `float32` arithmetic).
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics, RankingMetric};
/// let v = torchmetrics::RETRIEVAL_NORMALIZED_DCG.evaluate(&[[1], [0]], &[[0.5], [0.5]], None);
/// assert_eq!(v.unwrap(), 0.5);
/// ```
pub const RETRIEVAL_NORMALIZED_DCG: Ndcg =
    Ndcg::new(TiePolicy::Average).with_label_domain(LabelDomain::NonZero);

/// [`RETRIEVAL_NORMALIZED_DCG`] in torchmetrics' `float32` arithmetic, to the bit: each row's
/// NDCG as `retrieval_normalized_dcg` computes it ([`Ndcg::in_float32`]) and their mean as
/// `RetrievalNormalizedDCG`'s `compute()` takes it ([`Summation::TorchMean`]).
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics, RankingMetric};
/// // torchmetrics: retrieval_normalized_dcg(torch.linspace(1, 0, 11), [0]*10 + [1]).
/// let scores = [[1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0]];
/// let mut target = [[0; 11]];
/// target[0][10] = 1;
/// let v = torchmetrics::RETRIEVAL_NORMALIZED_DCG_F32.evaluate(&target, &scores, None);
/// assert_eq!(v.unwrap(), 0.2789425849914551);
/// ```
pub const RETRIEVAL_NORMALIZED_DCG_F32: Ndcg = RETRIEVAL_NORMALIZED_DCG
    .in_float32(true)
    .with_summation(Summation::TorchMean);

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
    computed_rows_of_scores!(T); // the cast needs a copy
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        let start = out.len();
        self.scores.extend_rows(rows, out);
        for s in &mut out[start..] {
            *s = T::from_f64(cast_to_f32(s.as_f64()));
        }
    }
}

toolkit_fn! {
    /// `torchmetrics.retrieval.RetrievalNormalizedDCG(top_k=top_k, empty_target_action="neg")`
    /// updated with `indexes` = the row number: the mean over rows of each row's NDCG, on `preds`
    /// cast to `float32` ([`Float32Scores`]), in torchmetrics' `float32` arithmetic
    /// ([`RETRIEVAL_NORMALIZED_DCG_F32`]). (The functional `retrieval_normalized_dcg` flattens
    /// a matrix into one query; this is the per-query form, and on one row the same value.)
    ///
    /// scikit-learn's `ndcg_score(k=top_k)` rounded to `float32` arithmetic, except where the
    /// cast merges scores; it takes 1-label rows and negative targets, where scikit-learn
    /// raises.
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
    pub fn retrieval_normalized_dcg(preds: &S, target: &Y, top_k: Option<usize>) {
        RETRIEVAL_NORMALIZED_DCG_F32
            .with_k(top_k)?
            .evaluate(target, &Float32Scores::new(preds), None)
    }
}

/// torchmetrics' `measure` at `top_k`, one query per row (see [`retrieval_precision`]).
fn retrieval<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    measure: RetrievalMeasure, preds: &S, target: &Y, top_k: Option<usize>,
) -> Result<f64, Error> {
    let (metric, view) = retrieval_preset(measure, top_k, true)?;
    view.apply(target, preds, |y, s| metric.evaluate(y, s, None))
}

toolkit_fn! {
    /// `torchmetrics.functional.retrieval_precision(preds[i], target[i], top_k, adaptive_k)`
    /// of each row `i`, and their `float32` mean (the module `RetrievalPrecision` with
    /// `indexes` = the row number and `empty_target_action="neg"`, its documents in column
    /// order): the relevant documents among `topk(min(top_k, n))` of the scores cast to
    /// `float32`, torch's CPU order deciding which tied documents are in, a document scored at
    /// most 0 never counted, over `top_k` (`None`, or `adaptive_k` with `top_k > n`: over `n`).
    /// A row without a relevant document scores 0. Targets must be 0 or 1.
    ///
    /// # Errors
    /// `top_k = Some(0)` ([`Error::InvalidK`]), non-finite scores, targets other than 0 and 1,
    /// mismatched shapes.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::torchmetrics::retrieval_precision;
    /// // torch.tensor([.5, .5, .9, .1, .5]).topk(2) takes documents 2 and 4.
    /// let (preds, target) = ([[0.5, 0.5, 0.9, 0.1, 0.5]], [[1, 0, 0, 0, 1]]);
    /// assert_eq!(retrieval_precision(&preds, &target, Some(2), false).unwrap(), 0.5);
    /// // A relevant document scored at most 0 never counts.
    /// assert_eq!(retrieval_precision(&[[-0.5, 0.1]], &[[1, 0]], Some(1), false).unwrap(), 0.0);
    /// ```
    pub fn retrieval_precision(preds: &S, target: &Y, top_k: Option<usize>, adaptive_k: bool) {
        retrieval(RetrievalMeasure::Precision { adaptive_k }, preds, target, top_k)
    }
}

toolkit_fn! {
    /// `torchmetrics.functional.retrieval_recall(preds[i], target[i], top_k)` of each row and
    /// their `float32` mean: the relevant documents among the first `top_k` of torch's
    /// descending CPU `argsort` of the scores cast to `float32` (a document scored at most 0
    /// never counted), over the relevant documents. See [`retrieval_precision`].
    ///
    /// # Errors
    /// As [`retrieval_precision`].
    ///
    /// # Example
    /// ```
    /// use rankmetrics::torchmetrics::retrieval_recall;
    /// let (preds, target) = ([[0.9, 0.8, -0.2]], [[1, 0, 1]]);
    /// assert_eq!(retrieval_recall(&preds, &target, None).unwrap(), 0.5);
    /// ```
    pub fn retrieval_recall(preds: &S, target: &Y, top_k: Option<usize>) {
        retrieval(RetrievalMeasure::Recall, preds, target, top_k)
    }
}

toolkit_fn! {
    /// `torchmetrics.functional.retrieval_average_precision(preds[i], target[i], top_k)` of
    /// each row and their `float32` mean: over the relevant documents among torch's
    /// `topk(min(top_k, n))` (a document scored at most 0 never counted), the mean of the
    /// relevant documents up to each over its position, in `float32`; 0 without one. See
    /// [`retrieval_precision`]. (torchmetrics takes `top_k=0` for every document, which here
    /// is `None`.)
    ///
    /// # Errors
    /// As [`retrieval_precision`].
    ///
    /// # Example
    /// ```
    /// use rankmetrics::torchmetrics::retrieval_average_precision;
    /// // Relevant documents at positions 1 and 3: (1/1 + 2/3) / 2.
    /// let (preds, target) = ([[0.9, 0.8, 0.7]], [[1, 0, 1]]);
    /// let ap = retrieval_average_precision(&preds, &target, None).unwrap();
    /// assert_eq!(ap, f64::from((1.0f32 + 2.0 / 3.0) / 2.0));
    /// ```
    pub fn retrieval_average_precision(preds: &S, target: &Y, top_k: Option<usize>) {
        retrieval(RetrievalMeasure::AveragePrecision, preds, target, top_k)
    }
}

toolkit_fn! {
    /// `torchmetrics.functional.retrieval_reciprocal_rank(preds[i], target[i], top_k)` of each
    /// row and their `float32` mean: one over the position of the first relevant document in
    /// torch's `topk(min(top_k, n))` (a document scored at most 0 never counted); 0 without
    /// one. See [`retrieval_average_precision`].
    ///
    /// # Errors
    /// As [`retrieval_precision`].
    ///
    /// # Example
    /// ```
    /// use rankmetrics::torchmetrics::retrieval_reciprocal_rank;
    /// let (preds, target) = ([[0.9, 0.8, 0.7]], [[0, 1, 1]]);
    /// assert_eq!(retrieval_reciprocal_rank(&preds, &target, None).unwrap(), 0.5);
    /// assert_eq!(retrieval_reciprocal_rank(&preds, &target, Some(1)).unwrap(), 0.0);
    /// ```
    pub fn retrieval_reciprocal_rank(preds: &S, target: &Y, top_k: Option<usize>) {
        retrieval(RetrievalMeasure::ReciprocalRank, preds, target, top_k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The float32 formula with `exp(-x)` correctly rounded to f32 (through f64), each step
    /// rounded to f32: an f32 `+` or `/` of f32 operands is the f64 result rounded once.
    fn by_f64_steps(x: f32) -> f32 {
        let e = (-f64::from(x)).exp() as f32;
        let denominator = (1.0 + f64::from(e)) as f32;
        (1.0 / f64::from(denominator)) as f32
    }

    proptest! {
        #[test]
        fn sigmoid_f32_is_the_float32_formula(x in -120.0f32..120.0) {
            let y = sigmoid_f32(x);
            // libm's expf is within an ulp of the correctly rounded exp, an error that 1 + e
            // and the division carry on: a scan of every f32 in this range found at most 4
            // ulps between the two (2 or more for about 20,000 of them).
            prop_assert!((y.to_bits() as i64 - by_f64_steps(x).to_bits() as i64).abs() <= 4, "{x}");
            // Saturation and underflow, as torch.
            if x > 16.7 {
                prop_assert_eq!(y, 1.0);
            }
            if x < -88.73 {
                prop_assert_eq!(y, 0.0);
            }
            prop_assert!((0.0..=1.0).contains(&y));
        }

        #[test]
        fn sigmoid_f32_is_monotone(a in -100.0f32..100.0, b in -100.0f32..100.0) {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            prop_assert!(sigmoid_f32(lo) <= sigmoid_f32(hi));
        }

        /// The f32 and f64 paths rank alike wherever the float32 values have no ties the f64
        /// ones lack (and the reverse): the metric values then agree.
        #[test]
        fn f32_and_f64_paths_agree_without_new_ties(
            logits in proptest::collection::vec(-30.0f32..30.0, 6),
            labels in proptest::collection::vec(0u8..2, 6),
        ) {
            let f64_scores: Vec<f64> = logits.iter().map(|&x| f64::from(x)).collect();
            let (s32, s64) = (
                crate::RowMajor::new(&logits, 2, 3).unwrap(),
                crate::RowMajor::new(&f64_scores, 2, 3).unwrap(),
            );
            let y = crate::RowMajor::new(&labels, 2, 3).unwrap();
            let mut a = Vec::new();
            Logits::new(&s32).unwrap().extend_rows(0..2, &mut a);
            let mut b = Vec::new();
            Logits::new(&s64).unwrap().extend_rows(0..2, &mut b);
            let ties = |v: &[f64]| -> Vec<bool> {
                v.chunks(3).flat_map(|r| {
                    [(0, 1), (0, 2), (1, 2)].map(|(i, j)| r[i] == r[j])
                }).collect()
            };
            let a: Vec<f64> = a.iter().map(|&x| f64::from(x)).collect();
            prop_assume!(ties(&a) == ties(&b));
            let v32 = MULTILABEL_RANKING_LOSS.evaluate(&y, &Logits::new(&s32).unwrap(), None);
            let v64 = MULTILABEL_RANKING_LOSS.evaluate(&y, &Logits::new(&s64).unwrap(), None);
            prop_assert_eq!(v32.unwrap(), v64.unwrap());
            let v32 = MULTILABEL_COVERAGE_ERROR.evaluate(&y, &Logits::new(&s32).unwrap(), None);
            let v64 = MULTILABEL_COVERAGE_ERROR.evaluate(&y, &Logits::new(&s64).unwrap(), None);
            prop_assert_eq!(v32.unwrap(), v64.unwrap());
            let v32 = MULTILABEL_RANKING_AVERAGE_PRECISION
                .evaluate(&y, &Logits::new(&s32).unwrap(), None);
            let v64 = MULTILABEL_RANKING_AVERAGE_PRECISION
                .evaluate(&y, &Logits::new(&s64).unwrap(), None);
            prop_assert_eq!(v32.unwrap(), v64.unwrap());
        }
    }

    #[test]
    fn saturation_and_underflow_examples() {
        let y = [[1, 0]];
        for s in [[20.0f32, 18.0], [-90.0, -100.0]] {
            assert_eq!(multilabel_coverage_error(&[s], &y).unwrap(), 2.0);
            assert_eq!(multilabel_ranking_average_precision(&[s], &y).unwrap(), 0.5);
            assert_eq!(multilabel_ranking_loss(&[s], &y).unwrap(), 1.0);
            // float64 preds keep the pair apart.
            let s64 = s.map(f64::from);
            assert_eq!(multilabel_coverage_error(&[s64], &y).unwrap(), 1.0);
            assert_eq!(multilabel_ranking_loss(&[s64], &y).unwrap(), 0.0);
        }
    }
}
