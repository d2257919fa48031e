//! A metric of the crate chosen by name: a preset of any convention (the registry of
//! `rankmetrics eval`), or, under the `rankmetrics` convention, the label-wise metrics that
//! the registry has no name for (`roc_auc`, `label_average_precision`).

use rankmetrics::registry::{Convention, LookupError, Preset};
use rankmetrics::{
    Average, Error, LabelAveragePrecision, LabelMatrix, RankingMetric, RocAuc, ScoreMatrix,
    Undefined,
};

use crate::errors::{parse_name, Failure};

/// What `rm_evaluate` computes.
pub enum Metric {
    /// A toolkit's metric, or rankmetrics' own row-wise metric, by name.
    Preset(Preset),
    /// ROC AUC under any averaging and tie policy.
    RocAuc(RocAuc),
    /// Label-wise average precision under any averaging and tie policy.
    LabelAp(LabelAveragePrecision),
}

fn parameter(message: String) -> Failure {
    Failure::new("parameter", message)
}

/// The label-wise metric `name` with its (key, value) parameters.
fn labelwise(name: &str, params: &[(String, String)], tie_rule: &str) -> Result<Metric, Failure> {
    let (mut avg, mut undef) = ("macro", "nan");
    for (k, v) in params {
        match k.as_str() {
            "average" => avg = v,
            "undefined" => undef = v,
            _ => {
                return Err(parameter(format!(
                    "rankmetrics {name} takes no parameter {k:?}; it takes: average, undefined"
                )))
            }
        }
    }
    // R's NA (as text) is the rule that gives NaN.
    let undef = if undef == "NA" { "nan" } else { undef };
    let (avg, undef): (Average, Undefined) = (parse_name(avg)?, parse_name(undef)?);
    Ok(if name == "roc_auc" {
        let t = parse_name(if tie_rule.is_empty() {
            "average"
        } else {
            tie_rule
        })?;
        Metric::RocAuc(RocAuc::new(avg, t).on_undefined(undef))
    } else {
        let t = parse_name(if tie_rule.is_empty() { "max" } else { tie_rule })?;
        Metric::LabelAp(LabelAveragePrecision::new(avg, t).on_undefined(undef))
    })
}

impl Metric {
    /// Why this metric's value is not a proven end of the interval over tie orders (it runs
    /// under optimistic or pessimistic, and sample weights (`weighted`) or pROC's direction
    /// leave the ends unproven), or `None`.
    pub fn unproven_end(&self, weighted: bool) -> Option<&'static str> {
        match self {
            Metric::Preset(p) => p.unproven_end(weighted),
            Metric::RocAuc(m) => m.tie_analysis(weighted).end_under(m.options().ranking.ties),
            Metric::LabelAp(m) => m.tie_analysis(weighted).end_under(m.options().ranking.ties),
        }
    }

    /// The metric `metric` of `convention` with parameters `keys` = `values` and the tie
    /// policy `tie_rule` (`""`: the convention's own).
    pub fn lookup(
        convention_name: &str,
        metric: &str,
        keys: &[String],
        values: &[String],
        tie_rule: &str,
    ) -> Result<Metric, Failure> {
        if keys.len() != values.len() {
            return Err(parameter("parameters must be named".into()));
        }
        let params: Vec<(String, String)> =
            keys.iter().cloned().zip(values.iter().cloned()).collect();
        let c: Convention = parse_name(convention_name)?;
        if c == Convention::Rankmetrics && matches!(metric, "roc_auc" | "label_average_precision") {
            return labelwise(metric, &params, tie_rule);
        }
        let t = if tie_rule.is_empty() {
            None
        } else {
            Some(parse_name(tie_rule)?)
        };
        match Preset::lookup(c, metric, &params, t) {
            Ok(p) => Ok(Metric::Preset(p)),
            Err(LookupError::UnknownMetric { .. }) if c == Convention::Rankmetrics => {
                Err(parameter(format!(
                    "rankmetrics has no metric {metric:?}; it has: {}",
                    metric_names("rankmetrics")?.join(", ")
                )))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The value on `y_true` and `y_score`, weighted by `w`.
    pub fn evaluate<Y, S>(&self, y: &Y, s: &S, w: Option<&[f64]>) -> Result<f64, Error>
    where
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<f64> + ?Sized,
    {
        match self {
            Metric::Preset(m) => m.evaluate(y, s, w),
            Metric::RocAuc(m) => m.evaluate(y, s, w),
            Metric::LabelAp(m) => m.evaluate(y, s, w),
        }
    }

    /// Each row's value (`NA` for rows the metric leaves out); row-wise metrics only.
    pub fn per_sample<Y, S>(&self, y: &Y, s: &S) -> Result<Vec<Option<f64>>, Error>
    where
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<f64> + ?Sized,
    {
        match self {
            Metric::Preset(p) => p.per_sample(y, s),
            Metric::RocAuc(_) | Metric::LabelAp(_) => Err(Error::NotRowWise),
        }
    }
}

/// The metric names `convention` knows.
pub fn metric_names(convention_name: &str) -> Result<Vec<&'static str>, Failure> {
    let c: Convention = parse_name(convention_name)?;
    let mut names = c.metric_names().to_vec();
    if c == Convention::Rankmetrics {
        names.extend(["roc_auc", "label_average_precision"]);
    }
    Ok(names)
}

/// The parameter keys `metric` of `convention` takes (besides `ties`).
pub fn param_keys(convention_name: &str, metric: &str) -> Result<Vec<&'static str>, Failure> {
    let c: Convention = parse_name(convention_name)?;
    if c == Convention::Rankmetrics && matches!(metric, "roc_auc" | "label_average_precision") {
        return Ok(vec!["average", "undefined"]);
    }
    Ok(Preset::param_keys(c, metric).to_vec())
}
