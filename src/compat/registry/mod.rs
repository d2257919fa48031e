//! Presets by name: the toolkit's own metric names and parameter keys, as `rankmetrics eval`
//! takes them.
//!
//! ```
//! use rankmetrics::registry::{Convention, Preset};
//! let params = [("ties_method".to_string(), "first".to_string())];
//! let p = Preset::lookup(Convention::Mldr, "coverage", &params, None).unwrap();
//! let v = p.evaluate(&[[1, 0]], &[[0.5, 0.5]], None::<&[f64]>).unwrap();
//! assert_eq!(v, 0.0);
//! ```
//!
//! The files:
//! * `mod.rs`: the public face of a [`Preset`] (look up, evaluate, accumulate, per-row
//!   values). The conventions ([`Convention`], `src/convention.rs`) and the lookup's error
//!   ([`LookupError`], `src/error.rs`) sit at the foundation and are re-exported here.
//! * `params.rs`: a parameter's effective value ([`ParamValue`]), and the parsing and naming of
//!   the values the presets take (booleans, tie rules, groupings, row rules, `k`, `log_base`).
//! * `plan.rs`: how a preset computes its value: the row-wise and label-wise metric types
//!   chosen at run time and the view of the scores (as given, torchmetrics' logits, `float32`).
//! * `table.rs`: every metric of every convention, one entry each ([`MetricEntry`]: name,
//!   aliases, parameters with their kinds and defaults, default tie policy, how it is built).
//! * `lookup.rs`: from a convention, a metric name and its parameters to a plan through the
//!   metric's entry, the toolkit's defaults filled in; the builders entries share.
//! * `evaluate_all.rs`: many presets on the same data, each row ranked once for all of them
//!   ([`evaluate_all`], and its parallel twin with feature `rayon`).
//! * `accumulator.rs`: a preset evaluated in batches ([`PresetAccumulator`]).
//! * `queries.rs`: a row-wise preset over documents grouped into queries by an index, as
//!   torchmetrics' retrieval modules compute it ([`Preset::evaluate_queries`]).
//! * `tie_analysis.rs`: what a preset's tie-analysis policies guarantee ([`TieAnalysis`]).

mod accumulator;
mod evaluate_all;
mod from_metric;
mod lookup;
mod params;
mod plan;
mod queries;
mod table;
mod tie_analysis;

use crate::compat::torchmetrics::{evaluate_on_logits, through_preds_view, Float32Scores};
use crate::error::{Error, RunsLimit};
use crate::labelwise::runs_limit;
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::metric::RankingMetric;
use crate::row::metric::RowMetric;
use crate::score::Score;
use crate::ties::TiePolicy;
use crate::validate::check_shapes;

pub use self::accumulator::PresetAccumulator;
// Defined below the metrics, so that the crate's Error can hold a LookupError.
pub use self::evaluate_all::evaluate_all;
#[cfg(feature = "rayon")]
pub use self::evaluate_all::evaluate_all_parallel;
pub use self::params::ParamValue;
use self::plan::Plan;
pub use self::table::{MetricEntry, Param, ParamKind};
pub use crate::convention::Convention;
pub use crate::error::LookupError;
pub use crate::ties::TieAnalysis;

/// A metric found by name, with its parameters resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    convention: Convention,
    name: &'static str,
    params: Vec<(&'static str, ParamValue)>,
    plan: Plan,
}

impl Preset {
    /// No parameters, for [`lookup`](Self::lookup): a bare `&[]` leaves the key and value
    /// types open, which the compiler cannot infer.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Mldr, "coverage", Preset::NO_PARAMS, None).unwrap();
    /// assert_eq!(p.params()[0].1.to_string(), "last");
    /// ```
    pub const NO_PARAMS: &'static [(&'static str, &'static str); 0] = &[];

    /// Looks up `metric` of `convention` with `params` (key, value) pairs, of `&str` or
    /// `String`; the last value given for a key counts. `ties` overrides the toolkit's tie
    /// rule and keeps its other rules.
    ///
    /// # Errors
    /// [`LookupError::UnknownMetric`]; [`LookupError::UnknownParam`] for a key the metric
    /// does not take (see [`param_keys`](Self::param_keys)); [`LookupError::InvalidParam`]
    /// for a value the metric cannot take.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, LookupError, Preset};
    /// let p = Preset::lookup(Convention::Sklearn, "ndcg_score", &[("k", "5")], None).unwrap();
    /// assert_eq!(p.name(), "ndcg_score");
    /// let err = Preset::lookup(Convention::Sklearn, "ndcg_score", &[("kk", "5")], None).unwrap_err();
    /// assert!(matches!(err, LookupError::UnknownParam { ref key, .. } if key == "kk"));
    /// assert_eq!(
    ///     err.to_string(),
    ///     "sklearn ndcg_score takes no parameter \"kk\"; it takes: k, ignore_ties"
    /// );
    /// ```
    pub fn lookup<K: AsRef<str>, V: AsRef<str>>(
        convention: Convention, metric: &str, params: &[(K, V)], ties: Option<TiePolicy>,
    ) -> Result<Preset, LookupError> {
        lookup::lookup(convention, metric, params, ties)
    }

    /// The parameter keys `metric` of `convention` takes (besides `--ties`).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// assert_eq!(Preset::param_keys(Convention::Mldr, "coverage"), ["ties_method"]);
    /// assert!(Preset::param_keys(Convention::Mldr, "one_error").is_empty());
    /// assert!(Preset::param_keys(Convention::Mulan, "NoSuchMeasure").is_empty());
    /// ```
    pub fn param_keys(convention: Convention, metric: &str) -> &'static [&'static str] {
        convention.entry(metric).map_or(&[], |e| e.keys)
    }

    /// The convention.
    pub fn convention(&self) -> Convention {
        self.convention
    }

    /// The metric's name, as the toolkit spells it.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The effective parameters, defaults included.
    pub fn params(&self) -> &[(&'static str, ParamValue)] {
        &self.params
    }

    /// Whether the metric scores each row on its own (coverage, LRAP, nDCG, ...): its
    /// [`accumulator`](Self::accumulator) keeps sums (MULAN's, each row's value and weight)
    /// and no column of scores, and [`per_sample`](Self::per_sample) gives a value a row.
    /// False for label-wise and pooled metrics (ROC AUC, label average precision), which rank
    /// each label's scores across the samples.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let lookup = |m| Preset::lookup(Convention::Sklearn, m, Preset::NO_PARAMS, None).unwrap();
    /// assert!(lookup("coverage_error").is_row_wise());
    /// assert!(!lookup("roc_auc_score").is_row_wise());
    /// ```
    pub fn is_row_wise(&self) -> bool {
        !matches!(self.plan, Plan::Labelwise(..))
    }

    /// Whether the value depends on how the rows are split into batches: torchmetrics' sigmoid
    /// under a vector kernel ([`TorchCpu`](crate::torchmetrics::TorchCpu) other than `Scalar`)
    /// places each batch's elements from that batch's start, as torch's `update()` does; one
    /// batch of every row gives the functional's value.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let lookup = |p: &[(&str, &str)]| Preset::lookup(Convention::Torchmetrics, "multilabel_auroc", p, None).unwrap();
    /// assert!(!lookup(&[]).depends_on_batching());
    /// assert!(lookup(&[("sigmoid", "avx512")]).depends_on_batching());
    /// ```
    pub fn depends_on_batching(&self) -> bool {
        let view = match &self.plan {
            Plan::Row { logits, .. } => logits.as_ref(),
            Plan::Labelwise(_, logits) => logits.as_ref(),
            Plan::Float32Row { .. } | Plan::Retrieval { .. } => None,
        };
        view.is_some_and(|v| v.cpu.block(v.dtype) > 0)
    }

    /// Why a runs state ([`runs_accumulator_starting_at`](Self::runs_accumulator_starting_at))
    /// cannot give this preset's value exactly, for batches with sample weights (`weighted`) or
    /// without; `None` where it gives the one-shot value bitwise. Row-wise presets keep sums
    /// and counts, exact either way; a label-wise preset's runs are exact unless its tie policy
    /// orders ties by position, it averages per sample, it reads the scores (pROC's automatic
    /// direction) or its tie grouping groups no tie, and never with sample weights.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// use rankmetrics::{RunsLimit, TiePolicy};
    /// let auc = |t| Preset::lookup(Convention::Rankmetrics, "roc_auc", Preset::NO_PARAMS, t);
    /// assert_eq!(auc(None).unwrap().runs_limit(false), None);
    /// assert_eq!(auc(None).unwrap().runs_limit(true), Some(RunsLimit::SampleWeights));
    /// let first = auc(Some(TiePolicy::First)).unwrap();
    /// assert_eq!(first.runs_limit(false), Some(RunsLimit::OrderPolicy(TiePolicy::First)));
    /// ```
    pub fn runs_limit(&self, weighted: bool) -> Option<RunsLimit> {
        match &self.plan {
            Plan::Labelwise(..) if weighted => Some(RunsLimit::SampleWeights),
            Plan::Labelwise(m, _) => runs_limit(m),
            _ => None,
        }
    }

    /// Evaluates the preset. Weights are applied even where the toolkit has none (a weighted
    /// mean of the same per-row values).
    ///
    /// # Errors
    /// As the preset's metric.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Sklearn, "label_ranking_loss", Preset::NO_PARAMS, None).unwrap();
    /// assert_eq!(p.evaluate(&[[1, 0], [0, 1]], &[[0.5, 0.5], [0.2, 0.8]], Some(&[1.0, 3.0])).unwrap(), 0.25);
    /// ```
    pub fn evaluate<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
        &self, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    ) -> Result<f64, Error> {
        match &self.plan {
            Plan::Row {
                metric,
                logits: Some(view),
            } => evaluate_on_logits(metric, y_score, y_true, sample_weight, *view),
            Plan::Float32Row { metric } => {
                metric.evaluate(y_true, &Float32Scores::new(y_score), sample_weight)
            }
            Plan::Retrieval { metric, view } => {
                view.apply(y_true, y_score, |y, s| metric.evaluate(y, s, sample_weight))
            }
            Plan::Row {
                metric,
                logits: None,
            } => metric.evaluate(y_true, y_score, sample_weight),
            Plan::Labelwise(metric, None) => metric.evaluate(y_true, y_score, sample_weight),
            Plan::Labelwise(metric, Some(view)) => {
                check_shapes(y_true, y_score, 2)?; // torchmetrics' num_labels > 1
                metric.evaluate(y_true, &view.logits(y_score)?, sample_weight)
            }
        }
    }

    /// An empty accumulator for this preset: evaluate in batches, merge shards, read the value.
    ///
    /// Row-wise presets keep sums and counts (constant size); label-wise ones keep the rows
    /// (see [`LabelwiseAccumulator`](crate::LabelwiseAccumulator)). torchmetrics' logit
    /// detection is made per batch, as its own `update()` does.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Sklearn, "label_ranking_loss", Preset::NO_PARAMS, None).unwrap();
    /// let mut acc = p.accumulator();
    /// acc.update(&[[1, 0]], &[[0.5, 0.5]], None::<&[f64]>).unwrap();
    /// acc.update(&[[0, 1]], &[[0.2, 0.8]], None::<&[f64]>).unwrap();
    /// assert_eq!(acc.value().unwrap(), 0.5);
    /// ```
    pub fn accumulator(&self) -> PresetAccumulator {
        PresetAccumulator::new(&self.plan)
    }

    /// Each label's value: the preset's metric on that label's column alone, as scikit-learn's
    /// and torchmetrics' `average=None` give them (torchmetrics' sigmoid decided on the whole
    /// input, as its functions decide it).
    ///
    /// # Errors
    /// [`Error::NotLabelwise`] for a row-wise preset or one averaged over samples; otherwise
    /// as [`evaluate`](Self::evaluate).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Torchmetrics, "multilabel_auroc", Preset::NO_PARAMS, None).unwrap();
    /// let (y, s) = ([[1, 0], [0, 1], [1, 0]], [[0.9, 0.3], [0.2, 0.8], [0.1, 0.5]]);
    /// assert_eq!(p.per_label(&y, &s, None).unwrap(), [0.5, 1.0]);
    /// assert_eq!(p.evaluate(&y, &s, None).unwrap(), 0.75); // their macro mean
    /// ```
    pub fn per_label<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
        &self, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    ) -> Result<Vec<f64>, Error> {
        match &self.plan {
            Plan::Labelwise(_, None) => {}
            // torchmetrics' num_labels > 1, as in `evaluate`.
            Plan::Labelwise(_, Some(_)) => _ = check_shapes(y_true, y_score, 2)?,
            _ => return Err(Error::NotLabelwise),
        }
        let mut acc = self.accumulator();
        acc.update(y_true, y_score, sample_weight)?;
        acc.per_label()
    }

    /// The value of every row (`None` for rows the preset skips).
    ///
    /// # Errors
    /// As the preset's metric; [`Error::NotRowWise`] for a label-wise or pooled metric.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Mulan, "AveragePrecision", Preset::NO_PARAMS, None).unwrap();
    /// assert_eq!(p.per_sample(&[[0, 0], [1, 0]], &[[0.1, 0.2], [0.1, 0.2]]).unwrap(), [None, Some(0.5)]);
    /// ```
    pub fn per_sample<T, Y, S>(&self, y_true: &Y, y_score: &S) -> Result<Vec<Option<f64>>, Error>
    where
        T: Score,
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        match &self.plan {
            Plan::Row {
                metric,
                logits: Some(view),
            } => {
                crate::validate::check_shapes(y_true, y_score, 1)?;
                let logits = &view.logits(y_score)?;
                through_preds_view!(view, logits, |scores| metric.per_sample(y_true, scores))
            }
            Plan::Float32Row { metric } => metric.per_sample(y_true, &Float32Scores::new(y_score)),
            Plan::Retrieval { metric, view } => {
                view.apply(y_true, y_score, |y, s| metric.per_sample(y, s))
            }
            Plan::Row {
                metric,
                logits: None,
            } => metric.per_sample(y_true, y_score),
            Plan::Labelwise(..) => Err(Error::NotRowWise),
        }
    }

    /// [`Preset::per_sample`] with rows spread over the threads of the current rayon pool
    /// (feature `rayon`); the values are the sequential ones, bit for bit. Presets that read
    /// the scores through torchmetrics' logit or float32 views run on one thread.
    ///
    /// # Errors
    /// As [`Preset::per_sample`].
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Sklearn, "label_ranking_loss", Preset::NO_PARAMS, None).unwrap();
    /// let (y, s) = ([[1, 0], [0, 1]], [[0.5, 0.5], [0.1, 0.9]]);
    /// assert_eq!(p.per_sample_parallel(&y, &s).unwrap(), p.per_sample(&y, &s).unwrap());
    /// ```
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn per_sample_parallel<T, Y, S>(
        &self, y_true: &Y, y_score: &S,
    ) -> Result<Vec<Option<f64>>, Error>
    where
        T: Score,
        Y: LabelMatrix + Sync + ?Sized,
        S: ScoreMatrix<T> + Sync + ?Sized,
    {
        match &self.plan {
            Plan::Row {
                metric,
                logits: None,
            } => crate::parallel::per_sample(metric, y_true, y_score),
            _ => self.per_sample(y_true, y_score),
        }
    }
}

/// A preset is a metric like any other: generic code and
/// [`DynRankingMetric`](crate::DynRankingMetric) lists take it.
impl<T: Score> RankingMetric<T> for Preset {
    fn evaluate<Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
        &self, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    ) -> Result<f64, Error> {
        Preset::evaluate(self, y_true, y_score, sample_weight)
    }
}
