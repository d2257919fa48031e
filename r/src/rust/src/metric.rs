//! A metric of the crate chosen by name: a preset of any convention, from the registry that
//! `rankmetrics eval`, Python and R share.

use rankmetrics::registry::{Convention, Preset};
use rankmetrics::{Error, LabelMatrix, ScoreMatrix};

use crate::errors::{parse_name, Failure};

/// What `rm_evaluate` computes: a preset of the registry.
pub struct Metric(Preset);

fn parameter(message: String) -> Failure {
    Failure::new("parameter", message)
}

impl Metric {
    /// Why this metric's value is not a proven end of the interval over tie orders (it runs
    /// under optimistic or pessimistic, and sample weights (`weighted`) or pROC's direction
    /// leave the ends unproven), or `None`.
    pub fn unproven_end(&self, weighted: bool) -> Option<&'static str> {
        self.0.unproven_end(weighted)
    }

    /// The metric `metric` of `convention` with parameters `keys` = `values` and the tie
    /// policy `tie_rule` (`""`: the convention's own).
    pub fn lookup(
        convention_name: &str, metric: &str, keys: &[String], values: &[String], tie_rule: &str,
    ) -> Result<Metric, Failure> {
        if keys.len() != values.len() {
            return Err(parameter("parameters must be named".into()));
        }
        let params: Vec<(String, String)> =
            keys.iter().cloned().zip(values.iter().cloned()).collect();
        let c: Convention = parse_name(convention_name)?;
        let t = if tie_rule.is_empty() {
            None
        } else {
            Some(parse_name(tie_rule)?)
        };
        Ok(Metric(Preset::lookup(c, metric, &params, t)?))
    }

    /// The value on `y_true` and `y_score`, weighted by `w`.
    pub fn evaluate<Y, S>(&self, y: &Y, s: &S, w: Option<&[f64]>) -> Result<f64, Error>
    where
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<f64> + ?Sized,
    {
        self.0.evaluate(y, s, w)
    }

    /// Each row's value (`NA` for rows the metric leaves out); row-wise metrics only.
    pub fn per_sample<Y, S>(&self, y: &Y, s: &S) -> Result<Vec<Option<f64>>, Error>
    where
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<f64> + ?Sized,
    {
        self.0.per_sample(y, s)
    }
}

/// The metric names `convention` knows.
pub fn metric_names(convention_name: &str) -> Result<Vec<&'static str>, Failure> {
    let c: Convention = parse_name(convention_name)?;
    Ok(c.metric_names().to_vec())
}

/// The parameter keys `metric` of `convention` takes (besides `ties`).
pub fn param_keys(convention_name: &str, metric: &str) -> Result<Vec<&'static str>, Failure> {
    let c: Convention = parse_name(convention_name)?;
    Ok(Preset::param_keys(c, metric).to_vec())
}
