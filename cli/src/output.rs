//! Printing results: JSON, aligned tables, CSV and Markdown, for `eval` and for `compare`.

use std::fmt::Write as _;
use std::path::Path;

use rankmetrics::registry::{Convention, ParamValue, Preset};
pub(crate) use rankmetrics::text::{aligned, note_lines, note_number, plain_number};
use rankmetrics::{Error, LabelDomain};
use serde_json::Value;

use rankmetrics::compare::{Notes, Table};

use crate::compare::{Column, Row};
use crate::provenance::Provenance;

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
    /// The parameters echoed: the preset's effective ones, scikit-learn's `sample_weight`
    /// flag (its functions take weights as a parameter), and, when weights were given to a
    /// toolkit that has none (torchmetrics, mldr, MULAN), `weights="applied by rankmetrics"`:
    /// the value is the weighted mean of the toolkit's per-sample values, which the toolkit
    /// itself cannot compute.
    fn params(&self) -> Vec<(&'static str, ParamValue)> {
        let mut params = self.preset.params().to_vec();
        match self.preset.convention() {
            Convention::Sklearn => params.push(("sample_weight", ParamValue::Bool(self.weighted))),
            Convention::Torchmetrics | Convention::Mldr | Convention::Mulan if self.weighted => {
                params.push(("weights", ParamValue::Str("applied by rankmetrics".into())));
            }
            _ => {}
        }
        params
    }

    /// The parameters as `k=v k=v`, or "-" for none.
    fn params_text(&self) -> String {
        let params: Vec<String> = self
            .params()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        if params.is_empty() {
            "-".to_string()
        } else {
            params.join(" ")
        }
    }

    /// The error as printed: the library's message, and for a label outside 0/1 of a metric
    /// that takes `labels` the parameter that accepts it.
    fn error_text(&self, e: &Error) -> String {
        let takes_labels = self.preset.params().iter().any(|(k, _)| *k == "labels");
        match e {
            Error::InvalidLabel {
                expected: LabelDomain::Binary,
                ..
            } if takes_labels => {
                format!("{e} (--param labels=nonzero counts every non-zero label as relevant)")
            }
            e => e.to_string(),
        }
    }

    /// The note of a value under optimistic or pessimistic that is not a proven end of the
    /// interval over tie orders (with sample weights, say): the value of one ordering, inside
    /// the interval.
    fn unproven_end(&self) -> Option<String> {
        self.result.as_ref().ok()?;
        let why = self.preset.unproven_end(self.weighted)?;
        Some(format!(
            "{} {} under {}: not a proven end of the interval over tie orders: {why}",
            self.preset.convention(),
            self.preset.name(),
            self.preset.ties()
        ))
    }

    /// One result object of the JSON schema, with `extra` members before the outcome.
    fn json(&self, extra: &str) -> String {
        let params: Vec<String> = self
            .params()
            .iter()
            .map(|(k, v)| format!("{}: {}", json_str(k), json_param(v)))
            .collect();
        let outcome = match (&self.result, self.unproven_end()) {
            (Ok(v), None) => format!("\"value\": {}", json_number(*v)),
            (Ok(v), Some(note)) => format!(
                "\"value\": {}, \"proven_end\": false, \"note\": {}",
                json_number(*v),
                json_str(&note)
            ),
            (Err(e), _) => format!("\"error\": {}", json_str(&self.error_text(e))),
        };
        format!(
            "{{\"convention\": {}, \"metric\": {}, \"params\": {{{}}}, {extra}{outcome}}}",
            json_str(self.preset.convention().name()),
            json_str(self.preset.name()),
            params.join(", "),
        )
    }
}

/// `{"results": [...], "provenance": {...}}`, one result per line.
pub fn json(outcomes: &[Outcome<'_>], provenance: &Provenance) -> String {
    let results: Vec<String> = outcomes
        .iter()
        .map(|o| format!("  {}", o.json("")))
        .collect();
    format!(
        "{{\"results\": [\n{}\n],\n\"provenance\": {}}}\n",
        results.join(",\n"),
        provenance.json()
    )
}

/// A header line and one line per result: convention, metric, params, value, error, note (why
/// a value under optimistic or pessimistic is not a proven end of the interval), then the
/// provenance columns.
pub fn csv(outcomes: &[Outcome<'_>], provenance: &Provenance) -> String {
    let mut header = vec!["convention", "metric", "params", "value", "error", "note"];
    header.extend(Provenance::CSV_COLUMNS);
    let mut out = csv_line(&header);
    for o in outcomes {
        let (value, error) = match &o.result {
            Ok(v) => (plain_number(*v), String::new()),
            Err(e) => (String::new(), o.error_text(e)),
        };
        let mut fields = vec![
            o.preset.convention().name().to_string(),
            o.preset.name().to_string(),
            o.params_text(),
            value,
            error,
            o.unproven_end().unwrap_or_default(),
        ];
        fields.extend(provenance.csv_fields(Some(o.preset.convention())));
        out.push_str(&csv_line(&fields));
    }
    out
}

/// Fields joined by commas, quoted where they hold a comma, a quote or a line break.
pub fn csv_line<S: AsRef<str>>(fields: &[S]) -> String {
    let quoted: Vec<String> = fields
        .iter()
        .map(|f| {
            let f = f.as_ref();
            if f.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", f.replace('"', "\"\""))
            } else {
                f.to_string()
            }
        })
        .collect();
    quoted.join(",") + "\n"
}

/// A Markdown table; the first row is the header; `right` aligns columns right.
pub(crate) fn markdown_table(rows: &[Vec<String>], right: &[bool]) -> String {
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
        if i == 0 {
            let rule: Vec<&str> = (0..row.len())
                .map(|j| match right.get(j) {
                    Some(true) => "---:",
                    _ => "---",
                })
                .collect();
            let _ = writeln!(out, "| {} |", rule.join(" | "));
        }
    }
    out
}

pub(crate) fn json_str(s: &str) -> Value {
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
pub(crate) fn json_number(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or_else(|| json_str(&plain_number(x)), Value::Number)
}

/// The header and one row per result: convention, metric, params, value (or error), a value
/// that is not a proven end of the interval marked with its numbered note; and the notes.
fn eval_rows(outcomes: &[Outcome<'_>]) -> (Vec<Vec<String>>, Vec<String>) {
    let mut rows = vec![["convention", "metric", "params", "value"]
        .map(String::from)
        .to_vec()];
    let mut notes = Vec::new();
    for o in outcomes {
        rows.push(vec![
            o.preset.convention().name().to_string(),
            o.preset.name().to_string(),
            o.params_text(),
            match &o.result {
                Ok(v) => match o.unproven_end() {
                    Some(note) => {
                        format!("{} ({})", plain_number(*v), note_number(&mut notes, &note))
                    }
                    None => plain_number(*v),
                },
                Err(e) => format!("error: {}", o.error_text(e)),
            },
        ]);
    }
    (rows, notes)
}

/// Aligned columns under a header; an error takes the value column; the notes below.
pub fn table(outcomes: &[Outcome<'_>]) -> String {
    let (rows, notes) = eval_rows(outcomes);
    aligned(&rows, &[]) + &note_lines(&notes)
}

/// A Markdown table: convention, metric, params, value (an error takes the value's place),
/// the notes and the provenance under it.
pub fn markdown(outcomes: &[Outcome<'_>], provenance: &Provenance) -> String {
    let (rows, notes) = eval_rows(outcomes);
    let notes: String = note_lines(&notes)
        .lines()
        .map(|l| format!("{l}  \n"))
        .collect();
    format!(
        "{}\n{notes}{}{}",
        markdown_table(&rows, &[false, false, false, true]),
        if notes.is_empty() { "" } else { "\n" },
        provenance.markdown()
    )
}

// ---------------------------------------------------------------------------------------------
// compare

/// The comparison as aligned columns, with a legend and the notes.
pub fn compare_table(rows: &[Row], notes: &Notes) -> String {
    Table::new(rows, notes).to_string()
}

/// The comparison as a Markdown table, with the legend, the notes and the provenance as text
/// below.
pub fn compare_markdown(rows: &[Row], notes: &Notes, provenance: &Provenance) -> String {
    let table = Table::new(rows, notes);
    let legend: String = table.legend.lines().map(|l| format!("{l}  \n")).collect();
    format!(
        "{}\n{legend}\n{}",
        markdown_table(&table.cells, &table.right()),
        provenance.markdown()
    )
}

/// Wide CSV: one line per concept, one column per policy, toolkit and analysis policy, then
/// spread, the conventions outside the interval and the provenance columns; full precision,
/// empty where none.
pub fn compare_csv(rows: &[Row], provenance: &Provenance) -> String {
    let columns = Column::all();
    let mut header = vec!["metric"];
    header.extend(columns.iter().map(|c| c.name()));
    header.extend([
        "spread",
        "outside_interval",
        "ends_proven",
        "expected_exact",
        "note",
    ]);
    header.extend(Provenance::CSV_COLUMNS);
    let mut out = csv_line(&header);
    for row in rows {
        let mut fields = vec![row.concept.name.to_string()];
        fields.extend(
            columns
                .iter()
                .map(|&c| row.value(c).map_or(String::new(), plain_number)),
        );
        fields.push(row.spread().map_or(String::new(), plain_number));
        let outside: Vec<&str> = row.outside_interval().iter().map(|c| c.name()).collect();
        fields.push(outside.join(" "));
        let tie = row.tie_analysis;
        fields.push(tie.ends_unproven.is_none().to_string());
        fields.push(tie.expected_missing.is_none().to_string());
        fields.push(tie.note().unwrap_or_default());
        fields.extend(provenance.csv_fields(None));
        out.push_str(&csv_line(&fields));
    }
    out
}

/// `{"results": [...], "metrics": [...], "provenance": {...}}`: every cell as an eval result
/// with its "metric_row" and "column", then per concept the interval, expectation, spread and
/// the conventions outside the interval.
pub fn compare_json(rows: &[Row], weighted: bool, provenance: &Provenance) -> String {
    let mut results = Vec::new();
    let mut summaries = Vec::new();
    for row in rows {
        let concept = json_str(row.concept.name);
        for cell in row.cells.iter().flatten() {
            let outcome = Outcome {
                preset: &cell.preset,
                weighted,
                result: cell.result.clone(),
            };
            let extra = format!(
                "\"metric_row\": {concept}, \"column\": {}, ",
                json_str(cell.column.name())
            );
            results.push(format!("  {}", outcome.json(&extra)));
        }
        let opt = |x: Option<f64>| x.map_or(Value::Null, json_number);
        let interval = row.interval().map_or("null".to_string(), |(lo, hi)| {
            format!("[{}, {}]", json_number(lo), json_number(hi))
        });
        let outside: Vec<Value> = row
            .outside_interval()
            .iter()
            .map(|c| json_str(c.name()))
            .collect();
        let tie = row.tie_analysis;
        summaries.push(format!(
            "  {{\"metric_row\": {concept}, \"interval\": {interval}, \"expected\": {}, \
             \"spread\": {}, \"outside_interval\": {}, \"ends_proven\": {}, \
             \"expected_exact\": {}, \"note\": {}}}",
            opt(row.expected()),
            opt(row.spread()),
            Value::Array(outside),
            tie.ends_unproven.is_none(),
            tie.expected_missing.is_none(),
            tie.note().map_or(Value::Null, |n| json_str(&n))
        ));
    }
    format!(
        "{{\"results\": [\n{}\n],\n\"metrics\": [\n{}\n],\n\"provenance\": {}}}\n",
        results.join(",\n"),
        summaries.join(",\n"),
        provenance.json()
    )
}

/// Writes `contents` to `path` through a temporary file in the same directory, renamed into
/// place: a failure never leaves a partial file.
///
/// # Errors
/// A message naming the file.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("{}: cannot write: {e}", path.display());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: cannot write: not a file name", path.display()))?;
    let temp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = std::fs::write(&temp, contents).and_then(|()| std::fs::rename(&temp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(fail(e));
    }
    Ok(())
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
