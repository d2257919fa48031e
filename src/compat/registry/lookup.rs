//! From a convention, a metric name and its parameters to a [`Preset`]: the entry of the
//! registry's table ([`super::table`]) builds it, the toolkit's defaults filled in, every
//! effective parameter echoed; and the builders several entries share.

use super::params::{
    grouping_name, invalid, parse_bool, parse_grouping, parse_k, parse_rule, rule_name, tie_name,
    with_log_base, zero_k, ParamValue,
};
use super::plan::{each_row, AnyLabelwise, AnyRow, Plan};
use super::Preset;
use crate::compat::torchmetrics::{retrieval_preset, PredsDtype, PredsView, TorchCpu};
use crate::compat::{mldr, sklearn};
use crate::convention::Convention;
use crate::error::{LabelDomain, LookupError};
use crate::labelwise::{Average, Undefined};
use crate::metrics;
use crate::row::metric::RowMetric;
use crate::ties::{TieGrouping, TiePolicy};

/// What an entry's builder reads and writes: the parameters given, the tie policy it builds
/// with (the one given, else the entry's default), and the effective parameters it echoes.
pub(super) struct Ctx<'a> {
    get: &'a dyn Fn(&str) -> Option<&'a str>,
    pub(super) policy: TiePolicy,
    pub(super) echo: Vec<(&'static str, ParamValue)>,
}

impl<'a> Ctx<'a> {
    /// The value given for `key` (the last one, when given twice).
    pub(super) fn get(&self, key: &str) -> Option<&'a str> {
        (self.get)(key)
    }
}

/// What [`Preset::lookup`] does.
pub(super) fn lookup<K: AsRef<str>, V: AsRef<str>>(
    convention: Convention, metric: &str, params: &[(K, V)], ties: Option<TiePolicy>,
) -> Result<Preset, LookupError> {
    let entry = convention
        .entry(metric)
        .ok_or_else(|| LookupError::UnknownMetric {
            convention,
            metric: metric.to_string(),
        })?;
    if let Some((key, _)) = params
        .iter()
        .find(|(k, _)| !entry.keys.contains(&k.as_ref()))
    {
        return Err(LookupError::UnknownParam {
            convention,
            metric: entry.name,
            key: key.as_ref().to_string(),
            takes: entry.keys,
        });
    }
    let get = |key: &str| {
        params
            .iter()
            .rev()
            .find(|(k, _)| k.as_ref() == key)
            .map(|(_, v)| v.as_ref())
    };
    let mut ctx = Ctx {
        get: &get,
        policy: ties.or(entry.default_ties).unwrap_or(TiePolicy::Max),
        echo: Vec::new(),
    };
    if let (None, Some(default)) = (ties, entry.default_ties) {
        // The default is a choice too: say which.
        ctx.echo.push(("ties", ParamValue::Str(tie_name(default))));
    }
    let plan = (entry.build)(&mut ctx)?;
    let mut echo = ctx.echo;
    let plan = match ties {
        Some(t) => {
            echo.insert(0, ("ties", ParamValue::Str(tie_name(t))));
            plan.with_ties(t)
        }
        None => plan,
    };
    Ok(Preset {
        convention,
        name: entry.name,
        params: echo,
        plan,
    })
}

/// rankmetrics' row-wise options on `base`: grouping, the rules for rows with no or only
/// relevant labels, and (`labels`: metrics of relevance, not graded ones) the label domain.
pub(super) fn rankmetrics_row(
    ctx: &mut Ctx<'_>, base: AnyRow, labels: bool,
) -> Result<Plan, LookupError> {
    let mut options = base.options();
    if let Some(v) = ctx.get("grouping") {
        options.ranking.grouping = parse_grouping(v)?;
    }
    if let Some(v) = ctx.get("no_relevant") {
        options.no_relevant = parse_rule("no_relevant", v)?;
    }
    if let Some(v) = ctx.get("all_relevant") {
        options.all_relevant = parse_rule("all_relevant", v)?;
    }
    let echo = &mut ctx.echo;
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
    // Metrics of relevance take 0/1 labels unless told that non-zero is relevant; graded ones
    // keep their gains' domain.
    if labels {
        options.labels = match ctx.get("labels").unwrap_or("binary") {
            "binary" => LabelDomain::Binary,
            "nonzero" => LabelDomain::NonZero,
            v => return Err(invalid("labels", v, "binary or nonzero")),
        };
        let shown = match options.labels {
            LabelDomain::NonZero => "nonzero",
            _ => "binary",
        };
        ctx.echo.push(("labels", ParamValue::Str(shown.into())));
    }
    let metric = each_row!(base, m => {
        let m = m
            .with_grouping(options.ranking.grouping)
            .on_no_relevant(options.no_relevant)
            .on_all_relevant(options.all_relevant)
            .with_label_domain(options.labels);
        AnyRow::from(m)
    });
    Ok(Plan::row(metric))
}

/// What an undefined label gives (rankmetrics' `undefined`): `nan` (also R's `NA`, `NaN`),
/// `skip`, `error` or a number.
pub(super) fn labelwise_rule(value: &str) -> Result<Undefined, LookupError> {
    match value {
        "nan" | "NA" | "NaN" => Ok(Undefined::Nan),
        "skip" => Ok(Undefined::Skip),
        "error" => Ok(Undefined::Reject),
        v => match v.parse::<f64>() {
            Ok(x) if !x.is_nan() => Ok(Undefined::Value(x)),
            _ => Err(invalid("undefined", v, "nan, skip, error or a number")),
        },
    }
}

/// rankmetrics' label-wise `average` and `undefined`, echoed.
pub(super) fn rankmetrics_labelwise(
    ctx: &mut Ctx<'_>,
) -> Result<(Average, Undefined), LookupError> {
    let average = ctx.get("average").unwrap_or("macro");
    let parsed = Average::parse(average)
        .ok_or_else(|| invalid("average", average, "micro, macro, weighted or samples"))?;
    let undefined = ctx.get("undefined").unwrap_or("nan");
    let rule = labelwise_rule(undefined)?;
    ctx.echo.push(("average", ParamValue::Str(average.into())));
    let shown = match rule {
        Undefined::Value(x) => ParamValue::Number(x),
        Undefined::Nan => ParamValue::Str("nan".into()),
        Undefined::Skip => ParamValue::Str("skip".into()),
        Undefined::Reject => ParamValue::Str("error".into()),
    };
    ctx.echo.push(("undefined", shown));
    Ok((parsed, rule))
}

/// The propensity-scored metrics' `k` (default 5) and `inv_propensities` (required: one
/// inverse propensity a label, comma-separated), echoed.
pub(super) fn propensity_params(ctx: &mut Ctx<'_>) -> Result<(usize, Vec<f64>), LookupError> {
    const EXPECTED: &str = "one inverse propensity per label, comma-separated (required)";
    let k = parse_k("k", Some(ctx.get("k").unwrap_or("5")), &mut ctx.echo)?.unwrap_or(5);
    let given = ctx.get("inv_propensities").unwrap_or("");
    if given.is_empty() {
        return Err(invalid("inv_propensities", given, EXPECTED));
    }
    // The item that does not parse, with its label (the whole list may be long).
    let inverse = given
        .split(',')
        .enumerate()
        .map(|(label, v)| {
            let item = v.trim();
            let shown = || format!("label {label}: {item}");
            item.parse::<f64>()
                .map_err(|_| invalid("inv_propensities", &shown(), EXPECTED))
        })
        .collect::<Result<Vec<f64>, _>>()?;
    let shown: Vec<String> = inverse.iter().map(f64::to_string).collect();
    ctx.echo
        .push(("inv_propensities", ParamValue::Str(shown.join(","))));
    Ok((k, inverse))
}

/// The error of a propensity-scored metric's constructor: an inverse propensity that is not a
/// finite positive number, named with its label (`k` = 0 is refused before).
pub(super) fn propensity_error(e: crate::error::Error) -> LookupError {
    let value = match e {
        crate::error::Error::InvalidLabelWeight { column, value } => {
            format!("label {column}: {value}")
        }
        other => other.to_string(),
    };
    LookupError::InvalidParam {
        key: "inv_propensities".into(),
        value,
        expected: "finite positive numbers, one per label",
    }
}

/// scikit-learn's `average` of `roc_auc_score` and `average_precision_score`.
pub(super) fn sklearn_averaged(
    ctx: &mut Ctx<'_>, metric: fn(Average) -> AnyLabelwise,
) -> Result<Plan, LookupError> {
    let average = ctx.get("average").unwrap_or("macro");
    let Some(parsed) = Average::parse(average) else {
        return Err(invalid(
            "average",
            average,
            "micro, macro, weighted or samples",
        ));
    };
    ctx.echo.push(("average", ParamValue::Str(average.into())));
    Ok(Plan::Labelwise(metric(parsed), None))
}

/// torchmetrics' ranking metrics: sigmoid on logits, in the preds' dtype (`dtype`).
pub(super) fn torchmetrics_logits(
    ctx: &mut Ctx<'_>, metric: AnyRow, argsort: bool,
) -> Result<Plan, LookupError> {
    Ok(Plan::Row {
        metric,
        logits: Some(PredsView {
            argsort,
            ..preds_view(ctx)?
        }),
    })
}

/// How torch computes the sigmoid of the preds, each parameter echoed when given: `dtype`
/// (absent, the score type decides: `f32` scores are float32 preds, `f64` float64), `sigmoid`
/// (the CPU kernel: `scalar` by default, `avx2`, `avx512`, or `torch-cpu` for this machine's,
/// echoed as the kernel found), `memory_order` (how the tensor lies in memory: `c` by default,
/// `f`, `rows`, `columns`, `strided`) and `torch_threads` (torch's threads, 1 by default).
fn preds_view(ctx: &mut Ctx<'_>) -> Result<PredsView, LookupError> {
    let mut view = PredsView::of(PredsDtype::Float64);
    if let Some(name) = ctx.get("dtype") {
        view.dtype = name
            .parse()
            .map_err(|_| invalid("dtype", name, "float32, float64, float16 or bfloat16"))?;
        ctx.echo.push(("dtype", ParamValue::Str(name.into())));
    }
    if let Some(name) = ctx.get("sigmoid") {
        view.cpu = name
            .parse::<TorchCpu>()
            .map_err(|_| invalid("sigmoid", name, "torch-cpu, scalar, avx2 or avx512"))?;
        ctx.echo
            .push(("sigmoid", ParamValue::Str(view.cpu.name().into())));
    }
    if let Some(name) = ctx.get("memory_order") {
        view.order = name
            .parse()
            .map_err(|_| invalid("memory_order", name, "c, f, rows, columns or strided"))?;
        ctx.echo
            .push(("memory_order", ParamValue::Str(view.order.name().into())));
    }
    if let Some(text) = ctx.get("torch_threads") {
        view.threads = text
            .parse::<usize>()
            .ok()
            .filter(|&t| t > 0)
            .ok_or_else(|| invalid("torch_threads", text, "a whole number from 1"))?;
        ctx.echo
            .push(("torch_threads", ParamValue::Number(view.threads as f64)));
    }
    Ok(view)
}

/// The arithmetic a torchmetrics preset computes in: exact (`float64`, the default) or
/// torchmetrics' own `float32` (LRAP).
pub(super) enum Arithmetic {
    Float64,
    Float32,
}

/// The `arithmetic` parameter (`float64` or `float32`), echoed when given.
pub(super) fn parse_arithmetic(ctx: &mut Ctx<'_>) -> Result<Arithmetic, LookupError> {
    let Some(name) = ctx.get("arithmetic") else {
        return Ok(Arithmetic::Float64);
    };
    let arithmetic = match name {
        "float64" => Arithmetic::Float64,
        "float32" => Arithmetic::Float32,
        _ => return Err(invalid("arithmetic", name, "float64 or float32")),
    };
    ctx.echo.push(("arithmetic", ParamValue::Str(name.into())));
    Ok(arithmetic)
}

/// torchmetrics' multilabel AUROC and AP: `average` (macro, micro or weighted) and the preds
/// `dtype` of the sigmoid on logits.
pub(super) fn torchmetrics_labelwise(
    ctx: &mut Ctx<'_>, metric: fn(Average) -> AnyLabelwise,
) -> Result<Plan, LookupError> {
    let average = ctx.get("average").unwrap_or("macro");
    let parsed = match Average::parse(average) {
        Some(a) if a != Average::Samples => a,
        _ => return Err(invalid("average", average, "macro, micro or weighted")),
    };
    ctx.echo.push(("average", ParamValue::Str(average.into())));
    Ok(Plan::Labelwise(metric(parsed), Some(preds_view(ctx)?)))
}

/// mldr's `ties_method` (R's `rank()`), echoed.
pub(super) fn mldr_ties_method(ctx: &mut Ctx<'_>) -> Result<TiePolicy, LookupError> {
    let method = ctx.get("ties_method").unwrap_or("last");
    let policy = TiePolicy::parse(method).ok_or_else(|| LookupError::InvalidParam {
        key: "ties_method".into(),
        value: method.into(),
        expected: "average, first, last, max, min, random or random:SEED",
    })?;
    ctx.echo
        .push(("ties_method", ParamValue::Str(method.into())));
    Ok(policy)
}

/// mldr's `macro_auc` and `example_auc` {undefined_value, na_rm}.
pub(super) fn mldr_auc(ctx: &mut Ctx<'_>, base: metrics::RocAuc) -> Result<Plan, LookupError> {
    let value = ctx.get("undefined_value").unwrap_or("0.5");
    let undefined_value = match value {
        "NA" => None,
        v => Some(
            v.parse::<f64>()
                .map_err(|_| invalid("undefined_value", v, "a number or NA"))?,
        ),
    }
    .filter(|v| !v.is_nan()); // R's NaN is missing too: the same as NA
    let na_rm = parse_bool("na_rm", ctx.get("na_rm").unwrap_or("false"))?;
    ctx.echo.push((
        "undefined_value",
        undefined_value.map_or(ParamValue::Str("NA".into()), ParamValue::Number),
    ));
    ctx.echo.push(("na_rm", ParamValue::Bool(na_rm)));
    let auc = base.on_undefined(mldr::undefined_rule(undefined_value, na_rm));
    Ok(Plan::Labelwise(AnyLabelwise::from(auc), None))
}

/// MULAN's row-wise measures, with the tie grouping of the Weka release (`weka`).
pub(super) fn mulan_row(ctx: &mut Ctx<'_>, metric: AnyRow) -> Result<Plan, LookupError> {
    let weka = ctx.get("weka").unwrap_or("3.7");
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
    ctx.echo.push(("weka", ParamValue::Str(weka.into())));
    Ok(Plan::row(
        each_row!(metric, m => AnyRow::from(m.with_grouping(grouping))),
    ))
}

/// MULAN's interpolated average precisions {num_recall_levels}.
pub(super) fn mulan_interpolated(
    ctx: &mut Ctx<'_>, metric: impl FnOnce(usize) -> metrics::InterpolatedAveragePrecision,
) -> Result<Plan, LookupError> {
    let value = ctx.get("num_recall_levels").unwrap_or("10");
    let levels = match value.parse::<usize>() {
        Ok(l) if l >= 2 => l,
        _ => return Err(invalid("num_recall_levels", value, "an integer >= 2")),
    };
    ctx.echo
        .push(("num_recall_levels", ParamValue::Number(levels as f64)));
    Ok(Plan::Labelwise(AnyLabelwise::from(metric(levels)), None))
}

/// scikit-learn's `dcg_score` {k, log_base, ignore_ties} and `ndcg_score` {k, ignore_ties}.
pub(super) fn sklearn_graded(name: &str, ctx: &mut Ctx<'_>) -> Result<Plan, LookupError> {
    let (get, echo) = (ctx.get, &mut ctx.echo);
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
    Ok(Plan::row(metric))
}

/// rankmetrics' `dcg` {k, log_base} and `ndcg` {k}.
pub(super) fn rankmetrics_graded(name: &str, ctx: &mut Ctx<'_>) -> Result<AnyRow, LookupError> {
    let (get, policy, echo) = (ctx.get, ctx.policy, &mut ctx.echo);
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
pub(super) fn rankmetrics_top_k(name: &str, ctx: &mut Ctx<'_>) -> Result<AnyRow, LookupError> {
    let (get, policy, echo) = (ctx.get, ctx.policy, &mut ctx.echo);
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

/// torchmetrics' binary retrieval metrics: `top_k` (and precision's `adaptive_k`), the
/// documents ordered by torch's `topk` (recall: descending `argsort`), the mean over rows exact
/// or (`arithmetic=float32`) as torch's `float32` `mean()` takes it.
pub(super) fn torchmetrics_retrieval(
    ctx: &mut Ctx<'_>, measure: metrics::RetrievalMeasure,
) -> Result<Plan, LookupError> {
    let k = parse_k("top_k", ctx.get("top_k"), &mut ctx.echo)?;
    let measure = match measure {
        metrics::RetrievalMeasure::Precision { .. } => {
            let adaptive_k = parse_bool("adaptive_k", ctx.get("adaptive_k").unwrap_or("false"))?;
            ctx.echo.push(("adaptive_k", ParamValue::Bool(adaptive_k)));
            metrics::RetrievalMeasure::Precision { adaptive_k }
        }
        other => other,
    };
    let torch_mean = matches!(parse_arithmetic(ctx)?, Arithmetic::Float32);
    let (metric, view) = retrieval_preset(measure, k, torch_mean).map_err(zero_k("top_k"))?;
    Ok(Plan::Retrieval {
        metric: AnyRow::from(metric),
        view,
    })
}
