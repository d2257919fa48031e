//! The registry's tables: every metric of every convention, one [`MetricEntry`] each, in the
//! order the toolkit's documentation lists them. [`Convention::metric_names`],
//! [`Preset::param_keys`](super::Preset::param_keys) and [`Preset::lookup`](super::Preset::lookup)
//! all read these tables, so a metric is added by adding its entry here.

use super::lookup::{
    mldr_auc, mldr_ties_method, mulan_interpolated, mulan_row, parse_arithmetic, propensity_error,
    propensity_params, rankmetrics_graded, rankmetrics_labelwise, rankmetrics_row,
    rankmetrics_top_k, sklearn_averaged, sklearn_graded, torchmetrics_labelwise,
    torchmetrics_logits, torchmetrics_retrieval, Arithmetic, Ctx,
};
use super::params::{parse_bool, parse_k, zero_k, ParamValue};
use super::plan::{AnyLabelwise, AnyRow, Plan};
use crate::compat::{mldr, mulan, sklearn, torchmetrics};
use crate::convention::Convention;
use crate::error::LookupError;
use crate::metrics::{self, RetrievalMeasure};
use crate::ties::TiePolicy;

/// What a parameter's value is.
///
/// # Example
/// ```
/// use rankmetrics::registry::{Convention, ParamKind};
/// let entry = Convention::Sklearn.entry("ndcg_score").unwrap();
/// assert_eq!(entry.params[1].kind, ParamKind::Bool);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParamKind {
    /// `true` or `false`.
    Bool,
    /// A whole number.
    Integer,
    /// A number.
    Number,
    /// A number, or a name standing for a rule (`NA`, `formula`, `skip`, `reject`, `nan`...).
    NumberOrName,
    /// One of a few names.
    Name,
    /// Numbers separated by commas (one a label).
    Numbers,
}

/// A parameter a metric takes: its key, what its value is, and its default.
///
/// # Example
/// ```
/// use rankmetrics::registry::Convention;
/// let entry = Convention::Mldr.entry("coverage").unwrap();
/// assert_eq!((entry.params[0].key, entry.params[0].default), ("ties_method", Some("last")));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// The key, as `--param KEY=VALUE` and the bindings take it.
    pub key: &'static str,
    /// What the value is.
    pub kind: ParamKind,
    /// The default, as the output echoes it; `None`: absent means none (no cut-off), unless
    /// `required`.
    pub default: Option<&'static str>,
    /// Whether the metric needs a value for it (`inv_propensities`: one a label).
    pub required: bool,
}

/// How a preset is built from its parameters.
pub(super) type Build = fn(&mut Ctx<'_>) -> Result<Plan, LookupError>;

/// One metric of a convention.
///
/// # Example
/// ```
/// use rankmetrics::registry::Convention;
/// let lrap = Convention::Sklearn.entry("lrap").unwrap();
/// assert_eq!(lrap.name, "label_ranking_average_precision_score");
/// assert!(lrap.params.is_empty() && lrap.default_ties.is_none());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct MetricEntry {
    /// The name, as the toolkit spells it.
    pub name: &'static str,
    /// Other names it is found by.
    pub aliases: &'static [&'static str],
    /// The parameter keys, in the order the output echoes them.
    pub keys: &'static [&'static str],
    /// Each key's kind and default (same order as `keys`).
    pub params: &'static [Param],
    /// The tie policy when none is given: `Some` for rankmetrics' own metrics (any policy is
    /// theirs to take); `None` where the toolkit's rule is part of the metric.
    pub default_ties: Option<TiePolicy>,
    /// Whether `rankmetrics eval` runs it when no `--metric` is given.
    pub in_default_run: bool,
    pub(super) build: Build,
}

/// A parameter's default: `(Some("..."))`, `None`, or `required` (no default).
macro_rules! default {
    (required) => {
        None
    };
    ($default:expr) => {
        $default
    };
}

/// Whether a parameter is required (see [`default!`]).
macro_rules! required {
    (required) => {
        true
    };
    ($default:expr) => {
        false
    };
}

/// An entry; `params` lists `key: Kind = default` (`None` for no default, `required` for a
/// parameter the metric needs).
macro_rules! entry {
    ($name:literal $(aka $($alias:literal),+)?, ties: $ties:expr, default_run: $run:expr,
     [$($key:literal: $kind:ident = $default:tt),* $(,)?], $build:expr) => {
        MetricEntry {
            name: $name,
            aliases: &[$($($alias),+)?],
            keys: &[$($key),*],
            params: &[$(Param {
                key: $key,
                kind: ParamKind::$kind,
                default: default!($default),
                required: required!($default),
            }),*],
            default_ties: $ties,
            in_default_run: $run,
            build: $build,
        }
    };
}

const MAX: Option<TiePolicy> = Some(TiePolicy::Max);

/// rankmetrics' own metrics: every option a parameter.
const RANKMETRICS: &[MetricEntry] = &[
    entry!("coverage", ties: MAX, default_run: true, [
        "one_based": Bool = (Some("false")), "grouping": Name = (Some("exact")),
        "no_relevant": NumberOrName = (Some("0")), "all_relevant": NumberOrName = (Some("formula")),
        "labels": Name = (Some("binary")),
    ], |c| {
        let one_based = parse_bool("one_based", c.get("one_based").unwrap_or("false"))?;
        c.echo.push(("one_based", ParamValue::Bool(one_based)));
        rankmetrics_row(c, metrics::Coverage::new(c.policy).one_based(one_based).into(), true)
    }),
    entry!("average_precision", ties: MAX, default_run: true, [
        "grouping": Name = (Some("exact")), "no_relevant": NumberOrName = (Some("1")),
        "all_relevant": NumberOrName = (Some("formula")), "labels": Name = (Some("binary")),
    ], |c| rankmetrics_row(c, metrics::AveragePrecision::new(c.policy).into(), true)),
    entry!("ranking_loss", ties: MAX, default_run: true, [
        "grouping": Name = (Some("exact")), "no_relevant": NumberOrName = (Some("0")),
        "all_relevant": NumberOrName = (Some("0")), "labels": Name = (Some("binary")),
    ], |c| rankmetrics_row(c, metrics::RankingLoss::new(c.policy).into(), true)),
    entry!("one_error", ties: MAX, default_run: true, [
        "grouping": Name = (Some("exact")), "no_relevant": NumberOrName = (Some("formula")),
        "all_relevant": NumberOrName = (Some("formula")), "labels": Name = (Some("binary")),
    ], |c| rankmetrics_row(c, metrics::OneError::new(c.policy).into(), true)),
    entry!("is_error", ties: MAX, default_run: true, [
        "grouping": Name = (Some("exact")), "no_relevant": NumberOrName = (Some("formula")),
        "all_relevant": NumberOrName = (Some("formula")), "labels": Name = (Some("binary")),
    ], |c| rankmetrics_row(c, metrics::IsError::new(c.policy).into(), true)),
    entry!("error_set_size", ties: MAX, default_run: true, [
        "grouping": Name = (Some("exact")), "no_relevant": NumberOrName = (Some("formula")),
        "all_relevant": NumberOrName = (Some("formula")), "labels": Name = (Some("binary")),
    ], |c| rankmetrics_row(c, metrics::ErrorSetSize::new(c.policy).into(), true)),
    entry!("dcg", ties: MAX, default_run: true, [
        "k": Integer = None, "log_base": Number = (Some("2")), "grouping": Name = (Some("exact")),
        "no_relevant": NumberOrName = (Some("formula")), "all_relevant": NumberOrName = (Some("formula")),
    ], |c| {
        let base = rankmetrics_graded("dcg", c)?;
        rankmetrics_row(c, base, false)
    }),
    entry!("ndcg", ties: MAX, default_run: true, [
        "k": Integer = None, "grouping": Name = (Some("exact")),
        "no_relevant": NumberOrName = (Some("0")), "all_relevant": NumberOrName = (Some("formula")),
    ], |c| {
        let base = rankmetrics_graded("ndcg", c)?;
        rankmetrics_row(c, base, false)
    }),
    entry!("precision_at_k", ties: MAX, default_run: true, [
        "k": Integer = (Some("5")), "grouping": Name = (Some("exact")),
        "no_relevant": NumberOrName = (Some("0")), "all_relevant": NumberOrName = (Some("formula")),
        "labels": Name = (Some("binary")),
    ], |c| {
        let base = rankmetrics_top_k("precision_at_k", c)?;
        rankmetrics_row(c, base, true)
    }),
    entry!("recall_at_k", ties: MAX, default_run: true, [
        "k": Integer = (Some("5")), "grouping": Name = (Some("exact")),
        "no_relevant": NumberOrName = (Some("0")), "all_relevant": NumberOrName = (Some("formula")),
        "labels": Name = (Some("binary")),
    ], |c| {
        let base = rankmetrics_top_k("recall_at_k", c)?;
        rankmetrics_row(c, base, true)
    }),
    entry!("ndcg_at_k", ties: MAX, default_run: true, [
        "k": Integer = (Some("5")), "grouping": Name = (Some("exact")),
        "no_relevant": NumberOrName = (Some("0")), "all_relevant": NumberOrName = (Some("formula")),
        "labels": Name = (Some("binary")),
    ], |c| {
        let base = rankmetrics_top_k("ndcg_at_k", c)?;
        rankmetrics_row(c, base, true)
    }),
    entry!("roc_auc", ties: Some(TiePolicy::Average), default_run: false, [
        "average": Name = (Some("macro")), "undefined": NumberOrName = (Some("nan")),
    ], |c| {
        let (average, undefined) = rankmetrics_labelwise(c)?;
        let auc = metrics::RocAuc::new(average, c.policy).on_undefined(undefined);
        Ok(Plan::Labelwise(AnyLabelwise::from(auc), None))
    }),
    entry!("label_average_precision", ties: MAX, default_run: false, [
        "average": Name = (Some("macro")), "undefined": NumberOrName = (Some("nan")),
    ], |c| {
        let (average, undefined) = rankmetrics_labelwise(c)?;
        let ap = metrics::LabelAveragePrecision::new(average, c.policy).on_undefined(undefined);
        Ok(Plan::Labelwise(AnyLabelwise::from(ap), None))
    }),
    entry!("interpolated_average_precision", ties: MAX, default_run: false, [
        "average": Name = (Some("macro")), "undefined": NumberOrName = (Some("nan")),
        "num_recall_levels": Integer = (Some("10")),
    ], |c| {
        let (average, undefined) = rankmetrics_labelwise(c)?;
        let policy = c.policy;
        mulan_interpolated(c, |levels| {
            let aip = metrics::InterpolatedAveragePrecision::new(average, policy, levels);
            aip.on_undefined(undefined)
        })
    }),
    entry!("psprecision_at_k", ties: MAX, default_run: false, [
        "k": Integer = (Some("5")), "inv_propensities": Numbers = required,
    ], |c| {
        let (k, inverse) = propensity_params(c)?;
        let psp = metrics::PsPrecisionAtK::new(c.policy, k, inverse);
        Ok(Plan::row(psp.map_err(propensity_error)?.into()))
    }),
    entry!("psndcg_at_k", ties: MAX, default_run: false, [
        "k": Integer = (Some("5")), "inv_propensities": Numbers = required,
    ], |c| {
        let (k, inverse) = propensity_params(c)?;
        let psndcg = metrics::PsNdcgAtK::new(c.policy, k, inverse);
        Ok(Plan::row(psndcg.map_err(propensity_error)?.into()))
    }),
];

/// scikit-learn 1.9.
const SKLEARN: &[MetricEntry] = &[
    entry!("coverage_error", ties: None, default_run: true, [],
        |_| Ok(Plan::row(sklearn::COVERAGE_ERROR.into()))),
    entry!("label_ranking_average_precision_score" aka "lrap", ties: None, default_run: true, [],
        |_| Ok(Plan::row(sklearn::LABEL_RANKING_AVERAGE_PRECISION_SCORE.into()))),
    entry!("label_ranking_loss", ties: None, default_run: true, [],
        |_| Ok(Plan::row(sklearn::LABEL_RANKING_LOSS.into()))),
    entry!("dcg_score", ties: None, default_run: true, [
        "k": Integer = None, "log_base": Number = (Some("2")), "ignore_ties": Bool = (Some("false")),
    ], |c| sklearn_graded("dcg_score", c)),
    entry!("ndcg_score", ties: None, default_run: true, [
        "k": Integer = None, "ignore_ties": Bool = (Some("false")),
    ], |c| sklearn_graded("ndcg_score", c)),
    entry!("roc_auc_score", ties: None, default_run: true, ["average": Name = (Some("macro"))],
        |c| sklearn_averaged(c, |a| AnyLabelwise::from(sklearn::ROC_AUC_SCORE.averaged(a)))),
    entry!("average_precision_score", ties: None, default_run: true, [
        "average": Name = (Some("macro")),
    ], |c| {
        sklearn_averaged(c, |a| {
            AnyLabelwise::from(sklearn::AVERAGE_PRECISION_SCORE.averaged(a))
        })
    }),
];

/// torchmetrics 1.9.
const TORCHMETRICS: &[MetricEntry] = &[
    entry!("multilabel_coverage_error", ties: None, default_run: true, [
        "dtype": Name = None, "sigmoid": Name = None, "torch_threads": Integer = None,
        "memory_order": Name = None,
    ], |c| torchmetrics_logits(c, torchmetrics::MULTILABEL_COVERAGE_ERROR.into(), false)),
    entry!("multilabel_ranking_average_precision" aka "lrap", ties: None, default_run: true, [
        "dtype": Name = None, "sigmoid": Name = None, "torch_threads": Integer = None,
        "memory_order": Name = None,
        "arithmetic": Name = None,
    ], |c| {
        let metric = match parse_arithmetic(c)? {
            Arithmetic::Float64 => torchmetrics::MULTILABEL_RANKING_AVERAGE_PRECISION,
            Arithmetic::Float32 => torchmetrics::MULTILABEL_RANKING_AVERAGE_PRECISION_F32,
        };
        torchmetrics_logits(c, metric.into(), false)
    }),
    entry!("multilabel_ranking_loss", ties: None, default_run: true, [
        "dtype": Name = None, "sigmoid": Name = None, "torch_threads": Integer = None,
        "memory_order": Name = None,
    ], |c| torchmetrics_logits(c, torchmetrics::MULTILABEL_RANKING_LOSS.into(), true)),
    entry!("multilabel_auroc", ties: None, default_run: true, [
        "average": Name = (Some("macro")), "dtype": Name = None,
        "sigmoid": Name = None, "torch_threads": Integer = None,
        "memory_order": Name = None,
    ], |c| {
        torchmetrics_labelwise(c, |a| AnyLabelwise::from(torchmetrics::MULTILABEL_AUROC.averaged(a)))
    }),
    entry!("multilabel_average_precision", ties: None, default_run: true, [
        "average": Name = (Some("macro")), "dtype": Name = None,
        "sigmoid": Name = None, "torch_threads": Integer = None,
        "memory_order": Name = None,
    ], |c| {
        torchmetrics_labelwise(c, |a| {
            AnyLabelwise::from(torchmetrics::MULTILABEL_AVERAGE_PRECISION.averaged(a))
        })
    }),
    entry!("retrieval_normalized_dcg", ties: None, default_run: true, [
        "top_k": Integer = None, "arithmetic": Name = None,
    ], |c| {
        let k = parse_k("top_k", c.get("top_k"), &mut c.echo)?;
        let ndcg = match parse_arithmetic(c)? {
            Arithmetic::Float64 => torchmetrics::RETRIEVAL_NORMALIZED_DCG,
            Arithmetic::Float32 => torchmetrics::RETRIEVAL_NORMALIZED_DCG_F32,
        }
        .with_k(k);
        let metric = AnyRow::from(ndcg.map_err(zero_k("top_k"))?);
        Ok(Plan::Float32Row { metric })
    }),
    entry!("retrieval_precision", ties: None, default_run: true, [
        "top_k": Integer = None, "adaptive_k": Bool = (Some("false")), "arithmetic": Name = None,
    ], |c| torchmetrics_retrieval(c, RetrievalMeasure::Precision { adaptive_k: false })),
    entry!("retrieval_recall", ties: None, default_run: true, ["top_k": Integer = None, "arithmetic": Name = None],
        |c| torchmetrics_retrieval(c, RetrievalMeasure::Recall)),
    entry!("retrieval_average_precision", ties: None, default_run: true, [
        "top_k": Integer = None, "arithmetic": Name = None,
    ], |c| torchmetrics_retrieval(c, RetrievalMeasure::AveragePrecision)),
    entry!("retrieval_reciprocal_rank", ties: None, default_run: true, [
        "top_k": Integer = None, "arithmetic": Name = None,
    ], |c| torchmetrics_retrieval(c, RetrievalMeasure::ReciprocalRank)),
];

/// mldr 0.4.2.
const MLDR: &[MetricEntry] = &[
    entry!("average_precision", ties: None, default_run: true, [
        "ties_method": Name = (Some("last")),
    ], |c| {
        let policy = mldr_ties_method(c)?;
        Ok(Plan::row(mldr::AVERAGE_PRECISION.with_ties(policy).into()))
    }),
    entry!("coverage", ties: None, default_run: true, ["ties_method": Name = (Some("last"))], |c| {
        let policy = mldr_ties_method(c)?;
        Ok(Plan::row(mldr::COVERAGE.with_ties(policy).into()))
    }),
    entry!("one_error", ties: None, default_run: true, [],
        |_| Ok(Plan::row(mldr::ONE_ERROR.into()))),
    entry!("ranking_loss", ties: None, default_run: true, [],
        |_| Ok(Plan::row(mldr::RANKING_LOSS.into()))),
    entry!("macro_auc", ties: None, default_run: true, [
        "undefined_value": NumberOrName = (Some("0.5")), "na_rm": Bool = (Some("false")),
    ], |c| mldr_auc(c, mldr::MACRO_AUC)),
    entry!("example_auc", ties: None, default_run: true, [
        "undefined_value": NumberOrName = (Some("0.5")), "na_rm": Bool = (Some("false")),
    ], |c| mldr_auc(c, mldr::EXAMPLE_AUC)),
    entry!("micro_auc", ties: None, default_run: true, [],
        |_| Ok(Plan::Labelwise(AnyLabelwise::from(mldr::MICRO_AUC), None))),
];

/// MULAN (git 43f6389).
const MULAN: &[MetricEntry] = &[
    entry!("AveragePrecision", ties: None, default_run: true, ["weka": Name = (Some("3.7"))],
        |c| mulan_row(c, mulan::AveragePrecision.into())),
    entry!("Coverage", ties: None, default_run: true, ["weka": Name = (Some("3.7"))],
        |c| mulan_row(c, mulan::Coverage.into())),
    entry!("OneError", ties: None, default_run: true, ["weka": Name = (Some("3.7"))],
        |c| mulan_row(c, mulan::OneError.into())),
    entry!("IsError", ties: None, default_run: true, ["weka": Name = (Some("3.7"))],
        |c| mulan_row(c, mulan::IsError.into())),
    entry!("ErrorSetSize", ties: None, default_run: true, ["weka": Name = (Some("3.7"))],
        |c| mulan_row(c, mulan::ErrorSetSize.into())),
    entry!("RankingLoss", ties: None, default_run: true, ["weka": Name = (Some("3.7"))],
        |c| mulan_row(c, mulan::RankingLoss.into())),
    entry!("MacroAUC", ties: None, default_run: true, [],
        |_| Ok(Plan::Labelwise(AnyLabelwise::from(mulan::MacroAUC), None))),
    entry!("MicroAUC", ties: None, default_run: true, [],
        |_| Ok(Plan::Labelwise(AnyLabelwise::from(mulan::MicroAUC), None))),
    entry!("MeanAveragePrecision", ties: None, default_run: true, [],
        |_| Ok(Plan::Labelwise(AnyLabelwise::from(mulan::MeanAveragePrecision), None))),
    entry!("GeometricMeanAveragePrecision", ties: None, default_run: true, [], |_| {
        let ap = mulan::GeometricMeanAveragePrecision;
        Ok(Plan::Labelwise(AnyLabelwise::from(ap), None))
    }),
    entry!("MeanAverageInterpolatedPrecision", ties: None, default_run: true, [
        "num_recall_levels": Integer = (Some("10")),
    ], |c| mulan_interpolated(c, mulan::mean_average_interpolated_precision)),
    entry!("GeometricMeanAverageInterpolatedPrecision", ties: None, default_run: true, [
        "num_recall_levels": Integer = (Some("10")),
    ], |c| mulan_interpolated(c, mulan::geometric_mean_average_interpolated_precision)),
    entry!("MacroAUCPR", ties: None, default_run: true, [],
        |_| Ok(Plan::Labelwise(AnyLabelwise::from(mulan::MacroAUCPR), None))),
];

/// The entries' names, as [`Convention::metric_names`] hands them out.
const fn names<const N: usize>(entries: &[MetricEntry]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = entries[i].name;
        i += 1;
    }
    out
}

static RANKMETRICS_NAMES: [&str; RANKMETRICS.len()] = names(RANKMETRICS);
static SKLEARN_NAMES: [&str; SKLEARN.len()] = names(SKLEARN);
static TORCHMETRICS_NAMES: [&str; TORCHMETRICS.len()] = names(TORCHMETRICS);
static MLDR_NAMES: [&str; MLDR.len()] = names(MLDR);
static MULAN_NAMES: [&str; MULAN.len()] = names(MULAN);

impl MetricEntry {
    /// Whether the metric needs a parameter given (see [`Param::required`]).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::Convention;
    /// assert!(Convention::Rankmetrics.entry("psndcg_at_k").unwrap().needs_params());
    /// assert!(!Convention::Rankmetrics.entry("ndcg_at_k").unwrap().needs_params());
    /// ```
    pub fn needs_params(&self) -> bool {
        self.params.iter().any(|p| p.required)
    }
}

impl Convention {
    /// Every metric of this convention, in the order its toolkit lists them.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::Convention;
    /// assert_eq!(Convention::Mldr.entries()[1].name, "coverage");
    /// ```
    pub fn entries(self) -> &'static [MetricEntry] {
        match self {
            Convention::Rankmetrics => RANKMETRICS,
            Convention::Sklearn => SKLEARN,
            Convention::Torchmetrics => TORCHMETRICS,
            Convention::Mldr => MLDR,
            Convention::Mulan => MULAN,
        }
    }

    /// The entry called `name` (or by one of its aliases).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::Convention;
    /// assert_eq!(Convention::Torchmetrics.entry("lrap").unwrap().name, "multilabel_ranking_average_precision");
    /// assert!(Convention::Sklearn.entry("roc_auc").is_none());
    /// ```
    pub fn entry(self, name: &str) -> Option<&'static MetricEntry> {
        let entries = self.entries();
        let by_name = entries.iter().find(|e| e.name == name);
        by_name.or_else(|| entries.iter().find(|e| e.aliases.contains(&name)))
    }

    /// The metrics of this convention, named as the toolkit names them.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::Convention;
    /// assert_eq!(Convention::Mulan.metric_names()[0], "AveragePrecision");
    /// assert!(Convention::Rankmetrics.metric_names().contains(&"roc_auc"));
    /// ```
    pub fn metric_names(self) -> &'static [&'static str] {
        match self {
            Convention::Rankmetrics => &RANKMETRICS_NAMES,
            Convention::Sklearn => &SKLEARN_NAMES,
            Convention::Torchmetrics => &TORCHMETRICS_NAMES,
            Convention::Mldr => &MLDR_NAMES,
            Convention::Mulan => &MULAN_NAMES,
        }
    }

    /// The metric names closest to `name` (by edit distance, ignoring case and `_`), closest
    /// first: what an unknown name was probably meant to be.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::Convention;
    /// assert_eq!(Convention::Sklearn.closest_metric_names("roc_auc"), ["roc_auc_score"]);
    /// assert!(Convention::Sklearn.closest_metric_names("zzz").is_empty());
    /// ```
    pub fn closest_metric_names(self, name: &str) -> Vec<&'static str> {
        let wanted = normalised(name);
        let mut scored: Vec<(usize, &'static str)> = Vec::new();
        for entry in self.entries() {
            let distance = core::iter::once(entry.name)
                .chain(entry.aliases.iter().copied())
                .map(|n| {
                    let n = normalised(n);
                    if !wanted.is_empty() && (n.contains(&wanted) || wanted.contains(&n)) {
                        0
                    } else {
                        edit_distance(&wanted, &n)
                    }
                })
                .min()
                .unwrap_or(usize::MAX);
            if distance <= (wanted.len() / 3).max(2) {
                scored.push((distance, entry.name));
            }
        }
        scored.sort_by_key(|&(d, _)| d);
        scored.into_iter().take(3).map(|(_, n)| n).collect()
    }
}

fn normalised(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Levenshtein distance, over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_lists_each_key_once_with_its_kind() {
        for convention in Convention::ALL {
            for e in convention.entries() {
                let keys: Vec<&str> = e.params.iter().map(|p| p.key).collect();
                assert_eq!(keys, e.keys, "{convention} {}", e.name);
                let mut sorted = keys.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), keys.len(), "{convention} {}", e.name);
                for alias in e.aliases {
                    assert!(convention.entry(alias).is_some_and(|f| f.name == e.name));
                }
            }
        }
    }

    #[test]
    fn every_default_is_what_the_lookup_echoes() {
        for convention in Convention::ALL {
            for e in convention.entries().iter().filter(|e| !e.needs_params()) {
                let p =
                    super::super::Preset::lookup(convention, e.name, &[] as &[(&str, &str)], None)
                        .unwrap();
                for param in e.params {
                    let echoed = p.params().iter().find(|(k, _)| *k == param.key);
                    let shown = echoed.map(|(_, v)| v.to_string());
                    assert_eq!(
                        shown.as_deref(),
                        param.default,
                        "{convention} {} {}",
                        e.name,
                        param.key
                    );
                }
            }
        }
    }

    #[test]
    fn compare_has_a_row_for_every_metric_of_the_default_run() {
        // rankmetrics' label-wise metrics are compared under scikit-learn's names.
        let row_wise = RANKMETRICS.iter().filter(|e| e.in_default_run);
        for metric in row_wise.map(|e| e.name) {
            let concepts = crate::compare::CONCEPTS.iter();
            assert!(
                concepts.clone().any(|c| c.reference.1 .0 == metric),
                "{metric}"
            );
        }
    }

    #[test]
    fn the_labelwise_rule_of_an_unknown_name_is_refused() {
        assert!(super::super::lookup::labelwise_rule("maybe").is_err());
    }
}
