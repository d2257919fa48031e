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

use core::fmt;

use crate::compat::torchmetrics::{evaluate_on_logits, Float32Scores, Logits};
use crate::compat::{mldr, mulan, sklearn, torchmetrics};
use crate::{
    metrics, Average, Error, Label, LabelwiseAccumulator, Matrix, RankedRow, RankingMetric,
    RelevantEnd, RowAccumulator, RowMetric, RowOptions, RowRule, Score, TieGrouping, TiePolicy,
};

/// A family of presets: this crate's own metrics, or one toolkit's.
///
/// # Example
/// ```
/// use rankmetrics::registry::Convention;
/// assert_eq!(Convention::parse("mulan"), Some(Convention::Mulan));
/// assert!(Convention::Sklearn.metric_names().contains(&"coverage_error"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Convention {
    /// rankmetrics' own metrics, every option a parameter (tie policy: `--ties`, default max).
    Rankmetrics,
    /// scikit-learn 1.9.
    Sklearn,
    /// torchmetrics 1.9 (values in `f64`).
    Torchmetrics,
    /// mldr 0.4.2.
    Mldr,
    /// MULAN with Weka 3.7.
    Mulan,
}

impl Convention {
    /// Every convention.
    pub const ALL: [Convention; 5] = [
        Convention::Rankmetrics,
        Convention::Sklearn,
        Convention::Torchmetrics,
        Convention::Mldr,
        Convention::Mulan,
    ];

    /// The name used on the command line and in JSON output.
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::registry::Convention::Sklearn.name(), "sklearn");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Convention::Rankmetrics => "rankmetrics",
            Convention::Sklearn => "sklearn",
            Convention::Torchmetrics => "torchmetrics",
            Convention::Mldr => "mldr",
            Convention::Mulan => "mulan",
        }
    }

    /// The convention called `name`.
    ///
    /// # Example
    /// ```
    /// assert!(rankmetrics::registry::Convention::parse("weka").is_none());
    /// ```
    pub fn parse(name: &str) -> Option<Convention> {
        Convention::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The metrics of this convention, named as the toolkit names them.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::Convention;
    /// assert_eq!(Convention::Mulan.metric_names()[0], "AveragePrecision");
    /// ```
    pub fn metric_names(self) -> &'static [&'static str] {
        match self {
            Convention::Rankmetrics => &[
                "coverage",
                "average_precision",
                "ranking_loss",
                "one_error",
                "is_error",
                "error_set_size",
                "dcg",
                "ndcg",
                "precision_at_k",
                "recall_at_k",
                "ndcg_at_k",
            ],
            Convention::Sklearn => &[
                "coverage_error",
                "label_ranking_average_precision_score",
                "label_ranking_loss",
                "dcg_score",
                "ndcg_score",
                "roc_auc_score",
                "average_precision_score",
            ],
            Convention::Torchmetrics => &[
                "multilabel_coverage_error",
                "multilabel_ranking_average_precision",
                "multilabel_ranking_loss",
                "retrieval_normalized_dcg",
            ],
            Convention::Mldr => &[
                "average_precision",
                "coverage",
                "one_error",
                "ranking_loss",
                "macro_auc",
                "example_auc",
                "micro_auc",
            ],
            Convention::Mulan => &[
                "AveragePrecision",
                "Coverage",
                "OneError",
                "IsError",
                "ErrorSetSize",
                "RankingLoss",
                "MacroAUC",
                "MicroAUC",
                "MeanAveragePrecision",
                "GeometricMeanAveragePrecision",
                "MeanAverageInterpolatedPrecision",
                "GeometricMeanAverageInterpolatedPrecision",
                "MacroAUCPR",
            ],
        }
    }

    /// Whether the toolkit's own functions take sample weights (only scikit-learn's do; the
    /// others' presets apply weights as an extension).
    ///
    /// # Example
    /// ```
    /// assert!(rankmetrics::registry::Convention::Sklearn.takes_weights());
    /// ```
    pub fn takes_weights(self) -> bool {
        matches!(self, Convention::Sklearn | Convention::Rankmetrics)
    }
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A parameter's effective value, as echoed in the output.
///
/// # Example
/// ```
/// use rankmetrics::registry::ParamValue;
/// assert_eq!(ParamValue::Str("last".into()).to_string(), "last");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A name.
    Str(String),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Number(x) => write!(f, "{x}"),
            ParamValue::Str(s) => f.write_str(s),
        }
    }
}

/// Why a preset could not be looked up.
///
/// # Example
/// ```
/// use rankmetrics::registry::{Convention, LookupError, Preset};
/// let err = Preset::lookup(Convention::Sklearn, "ndcg", &[], None).unwrap_err();
/// assert!(matches!(err, LookupError::UnknownMetric { .. }));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LookupError {
    /// The convention has no metric of that name.
    #[error("{convention} has no metric {metric:?}; it has: {}", convention.metric_names().join(", "))]
    UnknownMetric {
        /// The convention.
        convention: Convention,
        /// The name asked for.
        metric: String,
    },
    /// A parameter's value is not one the metric takes.
    #[error("parameter {key}={value:?}: expected {expected}")]
    InvalidParam {
        /// The parameter.
        key: String,
        /// The value given.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
}

/// One of the row-wise metric types, chosen at run time.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
enum AnyRow {
    Coverage(metrics::Coverage),
    AveragePrecision(metrics::AveragePrecision),
    RankingLoss(metrics::RankingLoss),
    OneError(metrics::OneError),
    IsError(metrics::IsError),
    ErrorSetSize(metrics::ErrorSetSize),
    Dcg(metrics::Dcg),
    Ndcg(metrics::Ndcg),
    PrecisionAtK(metrics::PrecisionAtK),
    RecallAtK(metrics::RecallAtK),
    NdcgAtK(metrics::NdcgAtK),
}

/// Applies `$body` to the metric inside any `AnyRow` variant.
macro_rules! each_row {
    ($value:expr, $m:ident => $body:expr) => {
        match $value {
            AnyRow::Coverage($m) => $body,
            AnyRow::AveragePrecision($m) => $body,
            AnyRow::RankingLoss($m) => $body,
            AnyRow::OneError($m) => $body,
            AnyRow::IsError($m) => $body,
            AnyRow::ErrorSetSize($m) => $body,
            AnyRow::Dcg($m) => $body,
            AnyRow::Ndcg($m) => $body,
            AnyRow::PrecisionAtK($m) => $body,
            AnyRow::RecallAtK($m) => $body,
            AnyRow::NdcgAtK($m) => $body,
        }
    };
}

impl AnyRow {
    fn with_ties(self, ties: TiePolicy) -> Self {
        each_row!(self, m => AnyRow::from(m.with_ties(ties)))
    }
}

macro_rules! any_row_from {
    ($($variant:ident),*) => {$(
        impl From<metrics::$variant> for AnyRow {
            fn from(m: metrics::$variant) -> Self {
                AnyRow::$variant(m)
            }
        }
    )*};
}
any_row_from!(
    Coverage,
    AveragePrecision,
    RankingLoss,
    OneError,
    IsError,
    ErrorSetSize,
    Dcg,
    Ndcg,
    PrecisionAtK,
    RecallAtK,
    NdcgAtK
);

impl RowMetric for AnyRow {
    fn options(&self) -> RowOptions {
        each_row!(self, m => m.options())
    }
    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        each_row!(self, m => m.row_value(row))
    }
    fn reads_only_relevant_blocks(&self) -> bool {
        each_row!(self, m => m.reads_only_relevant_blocks())
    }
    fn reads_one_relevant_block(&self) -> Option<RelevantEnd> {
        each_row!(self, m => m.reads_one_relevant_block())
    }

    fn top_k(&self) -> Option<usize> {
        each_row!(self, m => m.top_k())
    }
}

/// A metric found by name, with its parameters resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    convention: Convention,
    name: &'static str,
    params: Vec<(&'static str, ParamValue)>,
    plan: Plan,
}

/// How a preset computes its value.
#[derive(Debug, Clone, PartialEq)]
enum Plan {
    /// A row-wise metric; `logits`: torchmetrics' sigmoid normalisation applies first.
    Row { metric: AnyRow, logits: bool },
    /// A row-wise metric on scores cast to `float32` (torchmetrics' retrieval metrics).
    Float32Row { metric: AnyRow },
    /// A label-wise, pooled or per-sample-averaged binary metric.
    Labelwise(AnyLabelwise),
}

/// One of the label-wise metric types, chosen at run time.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
enum AnyLabelwise {
    RocAuc(metrics::RocAuc),
    AveragePrecision(metrics::LabelAveragePrecision),
    Interpolated(metrics::InterpolatedAveragePrecision),
}

impl AnyLabelwise {
    fn with_ties(self, t: TiePolicy) -> Self {
        match self {
            AnyLabelwise::RocAuc(m) => AnyLabelwise::RocAuc(m.with_ties(t)),
            AnyLabelwise::AveragePrecision(m) => AnyLabelwise::AveragePrecision(m.with_ties(t)),
            AnyLabelwise::Interpolated(m) => AnyLabelwise::Interpolated(m.with_ties(t)),
        }
    }

    /// The labels the metric accepts.
    fn label_domain(&self) -> crate::LabelDomain {
        match self {
            AnyLabelwise::RocAuc(m) => m.options().labels,
            AnyLabelwise::AveragePrecision(m) => m.options().labels,
            AnyLabelwise::Interpolated(m) => m.options().labels,
        }
    }
}

impl crate::labelwise::VectorMetric for AnyLabelwise {
    fn options(&self) -> crate::LabelwiseOptions {
        match self {
            AnyLabelwise::RocAuc(m) => m.options(),
            AnyLabelwise::AveragePrecision(m) => m.options(),
            AnyLabelwise::Interpolated(m) => m.options(),
        }
    }

    fn check(&self, weighted: bool) -> Result<(), Error> {
        match self {
            AnyLabelwise::RocAuc(m) => m.check(weighted),
            AnyLabelwise::AveragePrecision(m) => m.check(weighted),
            AnyLabelwise::Interpolated(m) => m.check(weighted),
        }
    }

    fn vector_value<T: Score>(
        &self,
        v: &crate::labelwise::Vector<'_, T>,
        row: &RankedRow<'_>,
    ) -> Option<f64> {
        match self {
            AnyLabelwise::RocAuc(m) => m.vector_value(v, row),
            AnyLabelwise::AveragePrecision(m) => m.vector_value(v, row),
            AnyLabelwise::Interpolated(m) => m.vector_value(v, row),
        }
    }

    fn reads_only_relevant_blocks(&self, weighted: bool) -> bool {
        match self {
            AnyLabelwise::RocAuc(m) => m.reads_only_relevant_blocks(weighted),
            AnyLabelwise::AveragePrecision(m) => m.reads_only_relevant_blocks(weighted),
            AnyLabelwise::Interpolated(m) => m.reads_only_relevant_blocks(weighted),
        }
    }

    fn reads_pieces(&self) -> bool {
        match self {
            AnyLabelwise::RocAuc(m) => m.reads_pieces(),
            AnyLabelwise::AveragePrecision(m) => m.reads_pieces(),
            AnyLabelwise::Interpolated(m) => m.reads_pieces(),
        }
    }

    fn add_piece<T: Score>(
        &self,
        sums: &mut crate::metrics::roc_auc::AucSums,
        v: &crate::labelwise::Vector<'_, T>,
        row: &RankedRow<'_>,
    ) {
        match self {
            AnyLabelwise::RocAuc(m) => m.add_piece(sums, v, row),
            AnyLabelwise::AveragePrecision(m) => m.add_piece(sums, v, row),
            AnyLabelwise::Interpolated(m) => m.add_piece(sums, v, row),
        }
    }

    fn pieces_value(&self, sums: &crate::metrics::roc_auc::AucSums) -> Option<f64> {
        match self {
            AnyLabelwise::RocAuc(m) => m.pieces_value(sums),
            AnyLabelwise::AveragePrecision(m) => m.pieces_value(sums),
            AnyLabelwise::Interpolated(m) => m.pieces_value(sums),
        }
    }
}

impl<T: Score> RankingMetric<T> for AnyLabelwise {
    fn evaluate<Y, S>(&self, y_true: &Y, y_score: &S, w: Option<&[T]>) -> Result<f64, Error>
    where
        Y: Matrix + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + ?Sized,
    {
        match self {
            AnyLabelwise::RocAuc(m) => m.evaluate(y_true, y_score, w),
            AnyLabelwise::AveragePrecision(m) => m.evaluate(y_true, y_score, w),
            AnyLabelwise::Interpolated(m) => m.evaluate(y_true, y_score, w),
        }
    }
}

/// The label-wise presets: `None` when `name` is not one of them.
fn labelwise_preset<'p>(
    convention: Convention,
    name: &str,
    get: impl Fn(&str) -> Option<&'p str>,
    echo: &mut Vec<(&'static str, ParamValue)>,
) -> Result<Option<AnyLabelwise>, LookupError> {
    use AnyLabelwise::{AveragePrecision as Ap, Interpolated, RocAuc as Auc};
    let metric = match (convention, name) {
        (Convention::Sklearn, "roc_auc_score" | "average_precision_score") => {
            let average = get("average").unwrap_or("macro");
            let parsed = match average {
                "micro" => Average::Micro,
                "macro" => Average::Macro,
                "weighted" => Average::Weighted,
                "samples" => Average::Samples,
                _ => {
                    return Err(invalid(
                        "average",
                        average,
                        "micro, macro, weighted or samples",
                    ))
                }
            };
            echo.push(("average", ParamValue::Str(average.into())));
            if name == "roc_auc_score" {
                Auc(sklearn::ROC_AUC_SCORE.averaged(parsed))
            } else {
                Ap(sklearn::AVERAGE_PRECISION_SCORE.averaged(parsed))
            }
        }
        (Convention::Mldr, "macro_auc" | "example_auc") => {
            let value = get("undefined_value").unwrap_or("0.5");
            let undefined_value = match value {
                "NA" => None,
                v => Some(
                    v.parse::<f64>()
                        .map_err(|_| invalid("undefined_value", v, "a number or NA"))?,
                ),
            };
            let na_rm = parse_bool("na_rm", get("na_rm").unwrap_or("false"))?;
            echo.push((
                "undefined_value",
                undefined_value.map_or(ParamValue::Str("NA".into()), ParamValue::Number),
            ));
            echo.push(("na_rm", ParamValue::Bool(na_rm)));
            let base = if name == "macro_auc" {
                mldr::MACRO_AUC
            } else {
                mldr::EXAMPLE_AUC
            };
            Auc(base.on_undefined(mldr::undefined_rule(undefined_value, na_rm)))
        }
        (Convention::Mldr, "micro_auc") => Auc(mldr::MICRO_AUC),
        (
            Convention::Mulan,
            n @ ("MeanAverageInterpolatedPrecision" | "GeometricMeanAverageInterpolatedPrecision"),
        ) => {
            let value = get("num_recall_levels").unwrap_or("10");
            let levels = match value.parse::<usize>() {
                Ok(l) if l >= 2 => l,
                _ => return Err(invalid("num_recall_levels", value, "an integer >= 2")),
            };
            echo.push(("num_recall_levels", ParamValue::Number(levels as f64)));
            Interpolated(if n == "MeanAverageInterpolatedPrecision" {
                mulan::mean_average_interpolated_precision(levels)
            } else {
                mulan::geometric_mean_average_interpolated_precision(levels)
            })
        }
        (Convention::Mulan, "MacroAUC") => Auc(mulan::MacroAUC),
        (Convention::Mulan, "MicroAUC") => Auc(mulan::MicroAUC),
        (Convention::Mulan, "MeanAveragePrecision") => Ap(mulan::MeanAveragePrecision),
        (Convention::Mulan, "GeometricMeanAveragePrecision") => {
            Ap(mulan::GeometricMeanAveragePrecision)
        }
        (Convention::Mulan, "MacroAUCPR") => Ap(mulan::MacroAUCPR),
        _ => return Ok(None),
    };
    Ok(Some(metric))
}

fn invalid(key: &str, value: &str, expected: &'static str) -> LookupError {
    LookupError::InvalidParam {
        key: key.into(),
        value: value.into(),
        expected,
    }
}

impl Preset {
    /// Looks up `metric` of `convention`. Parameters the metric does not take are ignored
    /// (see [`param_keys`](Self::param_keys)); `ties` overrides the toolkit's tie rule and
    /// keeps its other rules.
    ///
    /// # Errors
    /// [`LookupError::UnknownMetric`], or [`LookupError::InvalidParam`] for a value the
    /// metric cannot take.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Mulan, "RankingLoss", &[], None).unwrap();
    /// assert_eq!(p.name(), "RankingLoss");
    /// ```
    pub fn lookup(
        convention: Convention,
        metric: &str,
        params: &[(String, String)],
        ties: Option<TiePolicy>,
    ) -> Result<Preset, LookupError> {
        let get = |key: &str| {
            params
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };
        let name = convention
            .metric_names()
            .iter()
            .copied()
            .find(|n| *n == metric)
            .ok_or_else(|| LookupError::UnknownMetric {
                convention,
                metric: metric.to_string(),
            })?;
        let mut echo = Vec::new();
        if let Some(metric) = labelwise_preset(convention, name, get, &mut echo)? {
            let metric = match ties {
                Some(t) => {
                    echo.insert(0, ("ties", ParamValue::Str(tie_name(t))));
                    metric.with_ties(t)
                }
                None => metric,
            };
            return Ok(Preset {
                convention,
                name,
                params: echo,
                plan: Plan::Labelwise(metric),
            });
        }
        let mut logits = false;
        let mut float32 = false;
        let chosen: AnyRow = match (convention, name) {
            (Convention::Rankmetrics, _) => {
                let policy = ties.unwrap_or(TiePolicy::Max);
                if ties.is_none() {
                    // The default is a choice too: say which.
                    echo.push(("ties", ParamValue::Str(tie_name(policy))));
                }
                let base: AnyRow = match name {
                    "coverage" => {
                        let one_based =
                            parse_bool("one_based", get("one_based").unwrap_or("false"))?;
                        echo.push(("one_based", ParamValue::Bool(one_based)));
                        metrics::Coverage::new(policy).one_based(one_based).into()
                    }
                    "average_precision" => metrics::AveragePrecision::new(policy).into(),
                    "ranking_loss" => metrics::RankingLoss::new(policy).into(),
                    "one_error" => metrics::OneError::new(policy).into(),
                    "is_error" => metrics::IsError::new(policy).into(),
                    "dcg" | "ndcg" => rankmetrics_graded(name, policy, &get, &mut echo)?,
                    "precision_at_k" | "recall_at_k" | "ndcg_at_k" => {
                        rankmetrics_top_k(name, policy, &get, &mut echo)?
                    }
                    _ => metrics::ErrorSetSize::new(policy).into(),
                };
                let mut options = base.options();
                if let Some(v) = get("grouping") {
                    options.ranking.grouping = parse_grouping(v)?;
                }
                if let Some(v) = get("no_relevant") {
                    options.no_relevant = parse_rule("no_relevant", v)?;
                }
                if let Some(v) = get("all_relevant") {
                    options.all_relevant = parse_rule("all_relevant", v)?;
                }
                echo.push((
                    "grouping",
                    ParamValue::Str(grouping_name(options.ranking.grouping)),
                ));
                echo.push((
                    "no_relevant",
                    ParamValue::Str(rule_name(options.no_relevant)),
                ));
                echo.push((
                    "all_relevant",
                    ParamValue::Str(rule_name(options.all_relevant)),
                ));
                each_row!(base, m => {
                    let m = m
                        .with_grouping(options.ranking.grouping)
                        .on_no_relevant(options.no_relevant)
                        .on_all_relevant(options.all_relevant);
                    AnyRow::from(m)
                })
            }
            (Convention::Sklearn, "coverage_error") => sklearn::COVERAGE_ERROR.into(),
            (Convention::Sklearn, "label_ranking_loss") => sklearn::LABEL_RANKING_LOSS.into(),
            (Convention::Sklearn, "dcg_score" | "ndcg_score") => {
                sklearn_graded(name, &get, &mut echo)?
            }
            (Convention::Sklearn, _) => sklearn::LABEL_RANKING_AVERAGE_PRECISION_SCORE.into(),
            (Convention::Torchmetrics, "retrieval_normalized_dcg") => {
                float32 = true;
                let k = parse_k("top_k", get("top_k"), &mut echo)?;
                let ndcg = torchmetrics::RETRIEVAL_NORMALIZED_DCG.with_k(k);
                AnyRow::from(ndcg.map_err(zero_k("top_k"))?)
            }
            (Convention::Torchmetrics, n) => {
                logits = true;
                match n {
                    "multilabel_coverage_error" => torchmetrics::MULTILABEL_COVERAGE_ERROR.into(),
                    "multilabel_ranking_loss" => torchmetrics::MULTILABEL_RANKING_LOSS.into(),
                    _ => torchmetrics::MULTILABEL_RANKING_AVERAGE_PRECISION.into(),
                }
            }
            (Convention::Mldr, "average_precision" | "coverage") => {
                let method = get("ties_method").unwrap_or("last");
                let policy = TiePolicy::parse(method).ok_or_else(|| LookupError::InvalidParam {
                    key: "ties_method".into(),
                    value: method.into(),
                    expected: "average, first, last, max, min, random or random:SEED",
                })?;
                echo.push(("ties_method", ParamValue::Str(method.into())));
                if name == "coverage" {
                    mldr::COVERAGE.with_ties(policy).into()
                } else {
                    mldr::AVERAGE_PRECISION.with_ties(policy).into()
                }
            }
            (Convention::Mldr, "one_error") => mldr::ONE_ERROR.into(),
            (Convention::Mldr, _) => mldr::RANKING_LOSS.into(),
            (Convention::Mulan, n) => {
                let weka = get("weka").unwrap_or("3.7");
                let grouping = match weka {
                    "3.6" | "3.7" | "3.8" => TieGrouping::WEKA,
                    "3.9" => TieGrouping::Exact,
                    _ => {
                        return Err(LookupError::InvalidParam {
                            key: "weka".into(),
                            value: weka.into(),
                            expected:
                                "3.7 (1e-6 tie tolerance, as MULAN ships) or 3.9 (exact ties)",
                        })
                    }
                };
                echo.push(("weka", ParamValue::Str(weka.into())));
                let m: AnyRow = match n {
                    "AveragePrecision" => mulan::AveragePrecision.into(),
                    "Coverage" => mulan::Coverage.into(),
                    "OneError" => mulan::OneError.into(),
                    "IsError" => mulan::IsError.into(),
                    "ErrorSetSize" => mulan::ErrorSetSize.into(),
                    _ => mulan::RankingLoss.into(),
                };
                each_row!(m, m => AnyRow::from(m.with_grouping(grouping)))
            }
        };
        let metric = match ties {
            Some(t) => {
                echo.insert(0, ("ties", ParamValue::Str(tie_name(t))));
                chosen.with_ties(t)
            }
            None => chosen,
        };
        Ok(Preset {
            convention,
            name,
            params: echo,
            plan: if float32 {
                Plan::Float32Row { metric }
            } else {
                Plan::Row { metric, logits }
            },
        })
    }

    /// The parameter keys `metric` of `convention` takes (besides `--ties`).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// assert_eq!(Preset::param_keys(Convention::Mldr, "coverage"), ["ties_method"]);
    /// assert!(Preset::param_keys(Convention::Mldr, "one_error").is_empty());
    /// ```
    pub fn param_keys(convention: Convention, metric: &str) -> &'static [&'static str] {
        match (convention, metric) {
            (Convention::Rankmetrics, "coverage") => {
                &["one_based", "grouping", "no_relevant", "all_relevant"]
            }
            (Convention::Rankmetrics, "dcg") => {
                &["k", "log_base", "grouping", "no_relevant", "all_relevant"]
            }
            (Convention::Rankmetrics, "ndcg" | "precision_at_k" | "recall_at_k" | "ndcg_at_k") => {
                &["k", "grouping", "no_relevant", "all_relevant"]
            }
            (Convention::Rankmetrics, _) => &["grouping", "no_relevant", "all_relevant"],
            (Convention::Sklearn, "dcg_score") => &["k", "log_base", "ignore_ties"],
            (Convention::Sklearn, "ndcg_score") => &["k", "ignore_ties"],
            (Convention::Torchmetrics, "retrieval_normalized_dcg") => &["top_k"],
            (Convention::Mldr, "average_precision" | "coverage") => &["ties_method"],
            (Convention::Sklearn, "roc_auc_score" | "average_precision_score") => &["average"],
            (Convention::Mldr, "macro_auc" | "example_auc") => &["undefined_value", "na_rm"],
            (
                Convention::Mulan,
                "MeanAverageInterpolatedPrecision" | "GeometricMeanAverageInterpolatedPrecision",
            ) => &["num_recall_levels"],
            (
                Convention::Mulan,
                "MacroAUC"
                | "MicroAUC"
                | "MeanAveragePrecision"
                | "GeometricMeanAveragePrecision"
                | "MacroAUCPR",
            ) => &[],
            (Convention::Mulan, _) => &["weka"],
            _ => &[],
        }
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

    /// Evaluates the preset. Weights are applied even where the toolkit has none (a weighted
    /// mean of the same per-row values).
    ///
    /// # Errors
    /// As the preset's metric.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Sklearn, "label_ranking_loss", &[], None).unwrap();
    /// assert_eq!(p.evaluate(&[[1, 0], [0, 1]], &[[0.5, 0.5], [0.2, 0.8]], Some(&[1.0, 3.0])).unwrap(), 0.25);
    /// ```
    pub fn evaluate<T, Y, S>(
        &self,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[T]>,
    ) -> Result<f64, Error>
    where
        T: Score,
        Y: Matrix + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + ?Sized,
    {
        match &self.plan {
            Plan::Row {
                metric,
                logits: true,
            } => evaluate_on_logits(metric, y_score, y_true, sample_weight),
            Plan::Float32Row { metric } => {
                metric.evaluate(y_true, &Float32Scores::new(y_score), sample_weight)
            }
            Plan::Row {
                metric,
                logits: false,
            } => metric.evaluate(y_true, y_score, sample_weight),
            Plan::Labelwise(metric) => metric.evaluate(y_true, y_score, sample_weight),
        }
    }

    /// An empty accumulator for this preset: evaluate in batches, merge shards, read the value.
    ///
    /// Row-wise presets keep sums and counts (constant size); label-wise ones keep the rows
    /// (see [`LabelwiseAccumulator`]). torchmetrics' logit
    /// detection is made per batch, as its own `update()` does.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Sklearn, "label_ranking_loss", &[], None).unwrap();
    /// let mut acc = p.accumulator();
    /// acc.update(&[[1, 0]], &[[0.5, 0.5]], None::<&[f64]>).unwrap();
    /// acc.update(&[[0, 1]], &[[0.2, 0.8]], None::<&[f64]>).unwrap();
    /// assert_eq!(acc.value().unwrap(), 0.5);
    /// ```
    pub fn accumulator(&self) -> PresetAccumulator {
        PresetAccumulator(match &self.plan {
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
            Plan::Labelwise(m) => {
                Streaming::Labelwise(LabelwiseAccumulator::new(*m, m.label_domain()))
            }
        })
    }

    /// The value of every row (`None` for rows the preset skips).
    ///
    /// # Errors
    /// As the preset's metric; [`Error::NotRowWise`] for a label-wise or pooled metric.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Mulan, "AveragePrecision", &[], None).unwrap();
    /// assert_eq!(p.per_sample(&[[0, 0], [1, 0]], &[[0.1, 0.2], [0.1, 0.2]]).unwrap(), [None, Some(0.5)]);
    /// ```
    pub fn per_sample<T, Y, S>(&self, y_true: &Y, y_score: &S) -> Result<Vec<Option<f64>>, Error>
    where
        T: Score,
        Y: Matrix + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + ?Sized,
    {
        match &self.plan {
            Plan::Row {
                metric,
                logits: true,
            } => {
                crate::validate::check_shapes(y_true, y_score, 1)?;
                metric.per_sample(y_true, &Logits::new(y_score)?)
            }
            Plan::Float32Row { metric } => metric.per_sample(y_true, &Float32Scores::new(y_score)),
            Plan::Row {
                metric,
                logits: false,
            } => metric.per_sample(y_true, y_score),
            Plan::Labelwise(_) => Err(Error::NotRowWise),
        }
    }
}

fn tie_name(t: TiePolicy) -> String {
    match t {
        TiePolicy::Random(seed) => format!("random:{seed}"),
        t => t.name().to_string(),
    }
}

fn parse_bool(key: &str, v: &str) -> Result<bool, LookupError> {
    match v {
        "true" | "True" | "TRUE" | "1" => Ok(true),
        "false" | "False" | "FALSE" | "0" => Ok(false),
        _ => Err(LookupError::InvalidParam {
            key: key.into(),
            value: v.into(),
            expected: "true or false",
        }),
    }
}

fn parse_grouping(v: &str) -> Result<TieGrouping, LookupError> {
    match v {
        "exact" => Ok(TieGrouping::Exact),
        "weka" => Ok(TieGrouping::WEKA),
        _ => match v.parse::<f64>() {
            Ok(eps) if eps >= 0.0 && eps.is_finite() => Ok(TieGrouping::Within(eps)),
            _ => Err(LookupError::InvalidParam {
                key: "grouping".into(),
                value: v.into(),
                expected: "exact, weka, or a non-negative tolerance such as 1e-6",
            }),
        },
    }
}

fn grouping_name(g: TieGrouping) -> String {
    match g {
        TieGrouping::Exact => "exact".into(),
        TieGrouping::Within(eps) => format!("{eps:e}"),
    }
}

fn parse_rule(key: &str, v: &str) -> Result<RowRule, LookupError> {
    match v {
        "formula" => Ok(RowRule::Formula),
        "skip" => Ok(RowRule::Skip),
        "reject" => Ok(RowRule::Reject),
        _ => match v.parse::<f64>() {
            Ok(x) => Ok(RowRule::Value(x)),
            Err(_) => Err(LookupError::InvalidParam {
                key: key.into(),
                value: v.into(),
                expected: "formula, skip, reject, or a number",
            }),
        },
    }
}

fn rule_name(r: RowRule) -> String {
    match r {
        RowRule::Formula => "formula".into(),
        RowRule::Skip => "skip".into(),
        RowRule::Reject => "reject".into(),
        RowRule::Value(x) => format!("{x}"),
    }
}

/// scikit-learn's `dcg_score` {k, log_base, ignore_ties} and `ndcg_score` {k, ignore_ties}.
fn sklearn_graded<'p>(
    name: &str,
    get: &impl Fn(&str) -> Option<&'p str>,
    echo: &mut Vec<(&'static str, ParamValue)>,
) -> Result<AnyRow, LookupError> {
    let k = parse_k("k", get("k"), echo)?;
    let ignore_ties = parse_bool("ignore_ties", get("ignore_ties").unwrap_or("false"))?;
    let ties = sklearn::ignore_ties_policy(ignore_ties);
    let metric = if name == "dcg_score" {
        let dcg = sklearn::DCG_SCORE.with_k(k).map_err(zero_k("k"))?;
        AnyRow::from(with_log_base(dcg, get("log_base"), echo)?.with_ties(ties))
    } else {
        let ndcg = sklearn::NDCG_SCORE.with_k(k).map_err(zero_k("k"))?;
        AnyRow::from(ndcg.with_ties(ties))
    };
    echo.push(("ignore_ties", ParamValue::Bool(ignore_ties)));
    Ok(metric)
}

/// rankmetrics' `dcg` {k, log_base} and `ndcg` {k}.
fn rankmetrics_graded<'p>(
    name: &str,
    policy: TiePolicy,
    get: &impl Fn(&str) -> Option<&'p str>,
    echo: &mut Vec<(&'static str, ParamValue)>,
) -> Result<AnyRow, LookupError> {
    let k = parse_k("k", get("k"), echo)?;
    Ok(if name == "dcg" {
        let dcg = metrics::Dcg::new(policy).with_k(k).map_err(zero_k("k"))?;
        with_log_base(dcg, get("log_base"), echo)?.into()
    } else {
        let ndcg = metrics::Ndcg::new(policy).with_k(k);
        ndcg.map_err(zero_k("k"))?.into()
    })
}

/// The extreme-classification top-k metrics; `k` defaults to 5 (pyxclib's default) and is
/// always echoed.
fn rankmetrics_top_k<'p>(
    name: &str,
    policy: TiePolicy,
    get: &impl Fn(&str) -> Option<&'p str>,
    echo: &mut Vec<(&'static str, ParamValue)>,
) -> Result<AnyRow, LookupError> {
    let k = match parse_k("k", get("k"), echo)? {
        Some(k) => k,
        None => {
            echo.push(("k", ParamValue::Number(5.0)));
            5
        }
    };
    Ok(match name {
        "precision_at_k" => metrics::PrecisionAtK::new(policy, k)
            .map_err(zero_k("k"))?
            .into(),
        "recall_at_k" => metrics::RecallAtK::new(policy, k)
            .map_err(zero_k("k"))?
            .into(),
        _ => metrics::NdcgAtK::new(policy, k)
            .map_err(zero_k("k"))?
            .into(),
    })
}

/// A truncation parameter: absent means none (and is not echoed); otherwise an integer >= 1.
fn parse_k(
    key: &'static str,
    value: Option<&str>,
    echo: &mut Vec<(&'static str, ParamValue)>,
) -> Result<Option<usize>, LookupError> {
    let Some(v) = value else { return Ok(None) };
    match v.parse::<usize>() {
        Ok(k) if k >= 1 => {
            echo.push((key, ParamValue::Number(k as f64)));
            Ok(Some(k))
        }
        _ => Err(LookupError::InvalidParam {
            key: key.into(),
            value: v.into(),
            expected: "an integer >= 1",
        }),
    }
}

/// The error of a graded metric's `with_k`, which fails only for k = 0: `parse_k` has
/// rejected that already, so this is not reached in practice.
fn zero_k(key: &'static str) -> impl Fn(Error) -> LookupError {
    move |_| LookupError::InvalidParam {
        key: key.into(),
        value: "0".into(),
        expected: "an integer >= 1",
    }
}

/// DCG's `log_base` parameter, default 2, echoed.
fn with_log_base(
    dcg: metrics::Dcg,
    value: Option<&str>,
    echo: &mut Vec<(&'static str, ParamValue)>,
) -> Result<metrics::Dcg, LookupError> {
    let v = value.unwrap_or("2");
    let dcg = v
        .parse::<f64>()
        .ok()
        .and_then(|base| dcg.with_log_base(base).ok())
        .ok_or_else(|| LookupError::InvalidParam {
            key: "log_base".into(),
            value: v.into(),
            expected: "a finite number > 1",
        })?;
    echo.push(("log_base", ParamValue::Number(dcg.log_base())));
    Ok(dcg)
}

/// The row-wise presets' values (`None` for the others), grouped by how they see the scores:
/// one call of `$evaluate_rows` (sequential or parallel) a group.
macro_rules! row_presets {
    ($evaluate_rows:path, $presets:expr, $y_true:expr, $y_score:expr, $weights:expr) => {{
        let (presets, y_true, y_score, sample_weight) = ($presets, $y_true, $y_score, $weights);
        let mut results: Vec<Option<Result<f64, Error>>> = vec![None; presets.len()];
        // Row-wise presets, grouped by how they see the scores: one pass over the rows a group.
        for view in [ScoreView::AsIs, ScoreView::Logits, ScoreView::Float32] {
            let (indices, metrics): (Vec<usize>, Vec<&(dyn RowMetric + Sync)>) = presets
                .iter()
                .enumerate()
                .filter_map(|(k, p)| match (&p.plan, view) {
                    (
                        Plan::Row {
                            metric,
                            logits: false,
                        },
                        ScoreView::AsIs,
                    )
                    | (
                        Plan::Row {
                            metric,
                            logits: true,
                        },
                        ScoreView::Logits,
                    )
                    | (Plan::Float32Row { metric }, ScoreView::Float32) => {
                        Some((k, metric as &(dyn RowMetric + Sync)))
                    }
                    _ => None,
                })
                .unzip();
            if indices.is_empty() {
                continue;
            }
            let values = match view {
                ScoreView::AsIs => $evaluate_rows(&metrics, y_true, y_score, sample_weight),
                ScoreView::Float32 => $evaluate_rows(
                    &metrics,
                    y_true,
                    &Float32Scores::new(y_score),
                    sample_weight,
                ),
                ScoreView::Logits => match crate::validate::check_shapes(y_true, y_score, 1)
                    .and_then(|_| Logits::new(y_score))
                {
                    Ok(logits) => $evaluate_rows(&metrics, y_true, &logits, sample_weight),
                    Err(e) => vec![Err(e); metrics.len()],
                },
            };
            for (k, v) in indices.into_iter().zip(values) {
                results[k] = Some(v);
            }
        }
        results
    }};
}

/// Evaluates several presets on the same data; the results are in the order of `presets`.
///
/// This is the entry point for reports that show many metrics and conventions at once
/// (`rankmetrics compare`): the row-wise presets go through one pass over the rows, each row
/// read and validated once, sorted once per tie grouping and ranked once per tie policy, for
/// every metric ("sort once, score many"); each value equals, bitwise, the preset's own
/// [`Preset::evaluate`].
///
/// # Example
/// ```
/// use rankmetrics::registry::{evaluate_all, Convention, Preset};
/// let presets: Vec<Preset> = Convention::Mldr
///     .metric_names()
///     .iter()
///     .map(|m| Preset::lookup(Convention::Mldr, m, &[], None).unwrap())
///     .collect();
/// let values = evaluate_all(&presets, &[[0, 1, 0]], &[[0.5, 0.5, 0.1]], None::<&[f64]>);
/// assert_eq!(values[0], Ok(1.0)); // average_precision under ties_method = "last"
/// ```
pub fn evaluate_all<T, Y, S>(
    presets: &[Preset],
    y_true: &Y,
    y_score: &S,
    sample_weight: Option<&[T]>,
) -> Vec<Result<f64, Error>>
where
    T: Score,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + ?Sized,
{
    let mut results = row_presets!(
        crate::many::evaluate_rows,
        presets,
        y_true,
        y_score,
        sample_weight
    );
    labelwise_presets(presets, &mut results, |metrics| {
        crate::labelwise::evaluate_many(metrics, y_true, y_score, sample_weight)
    });
    finish(presets, results, y_true, y_score, sample_weight)
}

/// [`evaluate_all`] on the threads of the current rayon pool (feature `rayon`): the label-wise
/// presets and each group of row-wise presets that share a ranking run in parallel. Every value
/// is bitwise what [`evaluate_all`] (and the preset's own [`Preset::evaluate`]) gives.
///
/// # Example
/// ```
/// use rankmetrics::registry::{evaluate_all, evaluate_all_parallel, Convention, Preset};
/// let presets: Vec<Preset> = Convention::Sklearn
///     .metric_names()
///     .iter()
///     .map(|m| Preset::lookup(Convention::Sklearn, m, &[], None).unwrap())
///     .collect();
/// let (y, s) = ([[0, 1, 0], [1, 0, 1]], [[0.5, 0.5, 0.1], [0.2, 0.7, 0.9]]);
/// assert_eq!(evaluate_all_parallel(&presets, &y, &s, None::<&[f64]>),
///            evaluate_all(&presets, &y, &s, None::<&[f64]>));
/// ```
#[cfg(feature = "rayon")]
pub fn evaluate_all_parallel<T, Y, S>(
    presets: &[Preset],
    y_true: &Y,
    y_score: &S,
    sample_weight: Option<&[T]>,
) -> Vec<Result<f64, Error>>
where
    T: Score,
    Y: Matrix + Sync + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + Sync + ?Sized,
{
    let (mut results, labelwise) = rayon::join(
        || {
            row_presets!(
                crate::many::evaluate_rows_parallel,
                presets,
                y_true,
                y_score,
                sample_weight
            )
        },
        || {
            let mut results = vec![None; presets.len()];
            labelwise_presets(presets, &mut results, |metrics| {
                crate::labelwise::evaluate_many_parallel(metrics, y_true, y_score, sample_weight)
            });
            results
        },
    );
    for (slot, value) in results.iter_mut().zip(labelwise) {
        if value.is_some() {
            *slot = value;
        }
    }
    finish(presets, results, y_true, y_score, sample_weight)
}

/// The label-wise presets' values into `results`, from `evaluate` (sequential or parallel)
/// over their metrics: the cells read once, each vector sorted once for all of them.
fn labelwise_presets(
    presets: &[Preset],
    results: &mut [Option<Result<f64, Error>>],
    evaluate: impl FnOnce(&[AnyLabelwise]) -> Vec<Result<f64, Error>>,
) {
    let (indices, metrics): (Vec<usize>, Vec<AnyLabelwise>) = presets
        .iter()
        .enumerate()
        .filter_map(|(k, p)| match p.plan {
            Plan::Labelwise(m) => Some((k, m)),
            _ => None,
        })
        .unzip();
    if !indices.is_empty() {
        for (k, v) in indices.into_iter().zip(evaluate(&metrics)) {
            results[k] = Some(v);
        }
    }
}

/// Every preset's result: the computed ones, and the others (which no shared pass serves)
/// evaluated on their own.
fn finish<T, Y, S>(
    presets: &[Preset],
    results: Vec<Option<Result<f64, Error>>>,
    y_true: &Y,
    y_score: &S,
    sample_weight: Option<&[T]>,
) -> Vec<Result<f64, Error>>
where
    T: Score,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + ?Sized,
{
    presets
        .iter()
        .zip(results)
        .map(|(p, r)| r.unwrap_or_else(|| p.evaluate(y_true, y_score, sample_weight)))
        .collect()
}

/// A preset evaluated in batches; see [`Preset::accumulator`].
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

/// How a row-wise preset sees the scores of each batch.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
enum ScoreView {
    AsIs,
    /// torchmetrics' sigmoid when a score of the batch lies outside [0, 1].
    Logits,
    /// Cast to `float32` (torchmetrics' retrieval metrics).
    Float32,
}

/// A batch through the score view of a row-wise preset, to its accumulator's `$update`
/// (sequential or parallel); a label-wise preset stores the rows.
macro_rules! feed_batch {
    ($acc:expr, $update:ident, $y_true:expr, $y_score:expr, $weights:expr) => {
        match &mut $acc.0 {
            Streaming::Row {
                acc,
                view: ScoreView::Logits,
            } if $y_score.nrows() > 0 => {
                crate::validate::check_shapes($y_true, $y_score, 1)?;
                acc.$update($y_true, &Logits::new($y_score)?, $weights)
            }
            // An empty batch is a no-op, with or without the logit view.
            Streaming::Row {
                acc,
                view: ScoreView::AsIs | ScoreView::Logits,
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
    /// Adds a batch of rows; on error nothing is added.
    ///
    /// # Errors
    /// As [`Preset::evaluate`], plus [`Error::Incompatible`] when the batch's label count or
    /// weighting differs from earlier batches.
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
    /// let p = Preset::lookup(Convention::Sklearn, "label_ranking_loss", &[], None).unwrap();
    /// let (y, s) = ([[1, 0], [0, 1]], [[0.5, 0.5], [0.1, 0.9]]);
    /// let mut acc = p.accumulator();
    /// acc.update_parallel(&y, &s, None).unwrap();
    /// assert_eq!(acc.value().unwrap(), p.evaluate(&y, &s, None).unwrap());
    /// ```
    #[cfg(feature = "rayon")]
    pub fn update_parallel<T, Y, S>(
        &mut self,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[T]>,
    ) -> Result<(), Error>
    where
        T: Score,
        Y: Matrix + Sync + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + Sync + ?Sized,
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
            _ => Err(Error::Incompatible(crate::Incompatibility::Metric)),
        }
    }

    /// The preset's value over every row added so far.
    ///
    /// # Errors
    /// [`Error::NoSamples`] before any row; otherwise as [`Preset::evaluate`].
    pub fn value(&self) -> Result<f64, Error> {
        match &self.0 {
            Streaming::Row { acc, .. } => acc.value(),
            Streaming::Labelwise(acc) => acc.value(),
        }
    }
}
