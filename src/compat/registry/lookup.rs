//! From a convention, a metric name and its parameters to a [`Preset`]: the toolkit's
//! defaults filled in, every effective parameter echoed.

use super::params::{
    grouping_name, invalid, parse_bool, parse_grouping, parse_k, parse_rule, rule_name, tie_name,
    with_log_base, zero_k, ParamValue,
};
use super::plan::{each_row, AnyLabelwise, AnyRow, Plan};
use super::Preset;
use crate::compat::{mldr, mulan, sklearn, torchmetrics};
use crate::convention::Convention;
use crate::error::{LabelDomain, LookupError};
use crate::labelwise::Average;
use crate::metrics;
use crate::row::metric::RowMetric;
use crate::ties::{TieGrouping, TiePolicy};

/// What [`Preset::lookup`] does: the label-wise presets first, then the row-wise ones.
pub(super) fn lookup<K: AsRef<str>, V: AsRef<str>>(
    convention: Convention,
    metric: &str,
    params: &[(K, V)],
    ties: Option<TiePolicy>,
) -> Result<Preset, LookupError> {
    let get = |key: &str| {
        params
            .iter()
            .rev()
            .find(|(k, _)| k.as_ref() == key)
            .map(|(_, v)| v.as_ref())
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
    let takes = Preset::param_keys(convention, name);
    if let Some((key, _)) = params.iter().find(|(k, _)| !takes.contains(&k.as_ref())) {
        return Err(LookupError::UnknownParam {
            convention,
            metric: name,
            key: key.as_ref().to_string(),
            takes,
        });
    }
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
                    let one_based = parse_bool("one_based", get("one_based").unwrap_or("false"))?;
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
            // Metrics of relevance take 0/1 labels unless told that non-zero is relevant;
            // graded ones keep their gains' domain.
            if !matches!(name, "dcg" | "ndcg") {
                options.labels = match get("labels").unwrap_or("binary") {
                    "binary" => LabelDomain::Binary,
                    "nonzero" => LabelDomain::NonZero,
                    v => return Err(invalid("labels", v, "binary or nonzero")),
                };
                let shown = match options.labels {
                    LabelDomain::NonZero => "nonzero",
                    _ => "binary",
                };
                echo.push(("labels", ParamValue::Str(shown.into())));
            }
            each_row!(base, m => {
                let m = m
                    .with_grouping(options.ranking.grouping)
                    .on_no_relevant(options.no_relevant)
                    .on_all_relevant(options.all_relevant)
                    .with_label_domain(options.labels);
                AnyRow::from(m)
            })
        }
        (Convention::Sklearn, "coverage_error") => sklearn::COVERAGE_ERROR.into(),
        (Convention::Sklearn, "label_ranking_loss") => sklearn::LABEL_RANKING_LOSS.into(),
        (Convention::Sklearn, "dcg_score" | "ndcg_score") => sklearn_graded(name, &get, &mut echo)?,
        (Convention::Sklearn, _) => sklearn::LABEL_RANKING_AVERAGE_PRECISION_SCORE.into(),
        (Convention::Torchmetrics, "retrieval_normalized_dcg") => {
            float32 = true;
            let k = parse_k("top_k", get("top_k"), &mut echo)?;
            let ndcg = torchmetrics::RETRIEVAL_NORMALIZED_DCG.with_k(k);
            AnyRow::from(ndcg.map_err(zero_k("top_k"))?)
        }
        (Convention::Torchmetrics, n) => {
            logits = true;
            // Absent: the score type decides (`f32` scores are float32 preds).
            if let Some(dtype) = get("dtype") {
                float32 = match dtype {
                    "float32" => true,
                    "float64" => false,
                    v => return Err(invalid("dtype", v, "float32 or float64")),
                };
                echo.push(("dtype", ParamValue::Str(dtype.into())));
            }
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
                        expected: "3.7 (1e-6 tie tolerance, as MULAN ships) or 3.9 (exact ties)",
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
        plan: match (float32, logits) {
            (true, true) => Plan::Float32Logits { metric },
            (true, false) => Plan::Float32Row { metric },
            (false, _) => Plan::Row { metric, logits },
        },
    })
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
            let Some(parsed) = Average::parse(average) else {
                return Err(invalid(
                    "average",
                    average,
                    "micro, macro, weighted or samples",
                ));
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
            }
            .filter(|v| !v.is_nan()); // R's NaN is missing too: the same as NA
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
