//! Printing results as JSON or as an aligned table.

use rankmetrics::registry::{Convention, ParamValue, Preset};
use rankmetrics::Error;
use serde_json::Value;

/// One requested metric and what it gave.
#[derive(Debug)]
pub struct Outcome<'a> {
    /// The metric.
    pub preset: &'a Preset,
    /// Whether sample weights were given.
    pub weighted: bool,
    /// Its value, or the library's error.
    pub result: Result<f64, Error>,
}

impl Outcome<'_> {
    /// The parameters echoed: the preset's effective ones, and scikit-learn's `sample_weight`
    /// flag (its functions take weights as a parameter).
    fn params(&self) -> Vec<(&'static str, ParamValue)> {
        let mut params = self.preset.params().to_vec();
        if self.preset.convention() == Convention::Sklearn {
            params.push(("sample_weight", ParamValue::Bool(self.weighted)));
        }
        params
    }
}

/// `{"results": [...]}`, one result per line.
pub fn json(outcomes: &[Outcome<'_>]) -> String {
    let results: Vec<String> = outcomes
        .iter()
        .map(|o| {
            let params: Vec<String> = o
                .params()
                .iter()
                .map(|(k, v)| format!("{}: {}", json_str(k), json_param(v)))
                .collect();
            let outcome = match &o.result {
                Ok(v) => format!("\"value\": {}", json_number(*v)),
                Err(e) => format!("\"error\": {}", json_str(&e.to_string())),
            };
            format!(
                "  {{\"convention\": {}, \"metric\": {}, \"params\": {{{}}}, {outcome}}}",
                json_str(o.preset.convention().name()),
                json_str(o.preset.name()),
                params.join(", "),
            )
        })
        .collect();
    format!("{{\"results\": [\n{}\n]}}\n", results.join(",\n"))
}

fn json_str(s: &str) -> Value {
    Value::String(s.to_string())
}

fn json_param(v: &ParamValue) -> Value {
    match v {
        ParamValue::Bool(b) => Value::Bool(*b),
        ParamValue::Number(x) => json_number(*x),
        ParamValue::Str(s) => json_str(s),
    }
}

/// A finite number in its shortest round-trip form; NaN and infinities as the strings
/// "nan", "inf", "-inf" (JSON has no literal for them).
fn json_number(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or_else(|| json_str(&plain_number(x)), Value::Number)
}

/// Aligned columns under a header; an error takes the value column.
pub fn table(outcomes: &[Outcome<'_>]) -> String {
    let mut rows = vec![[
        "convention".to_string(),
        "metric".to_string(),
        "params".to_string(),
        "value".to_string(),
    ]];
    for o in outcomes {
        let params: Vec<String> = o.params().iter().map(|(k, v)| format!("{k}={v}")).collect();
        rows.push([
            o.preset.convention().name().to_string(),
            o.preset.name().to_string(),
            if params.is_empty() {
                "-".to_string()
            } else {
                params.join(" ")
            },
            match &o.result {
                Ok(v) => plain_number(*v),
                Err(e) => format!("error: {e}"),
            },
        ]);
    }
    let mut widths = [0; 3];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for [convention, metric, params, value] in &rows {
        let [a, b, c] = widths;
        out.push_str(&format!(
            "{convention:<a$}  {metric:<b$}  {params:<c$}  {value}\n"
        ));
    }
    out
}

/// Shortest round-trip decimal; exponent form for very large or small magnitudes; "nan",
/// "inf" and "-inf" spelled as in the JSON output.
fn plain_number(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else if x != 0.0 && !(1e-5..1e16).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_and_non_finite_are_strings() {
        assert_eq!(json_number(0.1).to_string(), "0.1");
        assert_eq!(json_number(2.0).to_string(), "2.0");
        assert_eq!(json_number(f64::NAN).to_string(), "\"nan\"");
        assert_eq!(json_number(f64::NEG_INFINITY).to_string(), "\"-inf\"");
        assert_eq!(plain_number(2.0), "2");
        assert_eq!(plain_number(1.0 / 3.0), "0.3333333333333333");
        assert_eq!(plain_number(1e300), "1e300");
        assert_eq!(plain_number(f64::INFINITY), "inf");
    }
}
