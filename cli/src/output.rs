//! Printing results: JSON, aligned tables, CSV and Markdown, for `eval` and for `compare`.

use std::fmt::Write as _;
use std::path::Path;

use rankmetrics::registry::{Convention, ParamValue, Preset};
pub(crate) use rankmetrics::text::{aligned, note_lines, plain_number};
use rankmetrics::{Error, LabelDomain};
use serde_json::Value;

use crate::compare::{torchmetrics_dtype, Cell, Column, Row};
use crate::footnotes::{Flag, Notes};
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
    let mut notes = Numbered::default();
    for o in outcomes {
        rows.push(vec![
            o.preset.convention().name().to_string(),
            o.preset.name().to_string(),
            o.params_text(),
            match &o.result {
                Ok(v) => notes.mark(plain_number(*v), o.unproven_end()),
                Err(e) => format!("error: {}", o.error_text(e)),
            },
        ]);
    }
    (rows, notes.0)
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

/// What a comparison cell shows to people: 4 decimals, "*" outside the interval, "—" where the
/// toolkit lacks the concept, "error (n)" with a numbered note, and a numbered note after
/// "nan" (why it has no value) and after a flagged value that prints as an end of the interval
/// (how far outside it is, and why).
struct Shown {
    rows: Vec<Vec<String>>,
    notes: Vec<String>,
}

/// The numbered notes under the table, each text once.
#[derive(Default)]
struct Numbered(Vec<String>);

impl Numbered {
    /// `shown` followed by the number of the note `text`; `shown` alone without a note.
    fn mark(&mut self, shown: String, text: Option<String>) -> String {
        let Some(text) = text else {
            return shown;
        };
        let i = match self.0.iter().position(|n| *n == text) {
            Some(i) => i,
            None => {
                self.0.push(text);
                self.0.len() - 1
            }
        };
        format!("{shown} ({})", i + 1)
    }
}

/// The comparison's columns: concept, each column's value (the analysis as one interval
/// column and the expectation), then spread.
fn shown(rows: &[Row], remarks: &Notes) -> Shown {
    use rankmetrics::TiePolicy::{Optimistic, Pessimistic};
    let columns = Column::all();
    let mut header = vec!["metric".to_string()];
    for c in &columns {
        match c {
            Column::Analysis(Pessimistic) => header.push("interval".into()),
            Column::Analysis(Optimistic) => {}
            c => header.push(c.name().into()),
        }
    }
    header.push("spread".into());
    let mut out = vec![header];
    let mut notes = Numbered::default();
    for (r, row) in rows.iter().enumerate() {
        let mut line = vec![row.concept.name.to_string()];
        let undefined = || remarks.undefined(r).map(str::to_string);
        for (c, (cell, &column)) in row.cells.iter().zip(&columns).enumerate() {
            let text = match (column, cell) {
                (Column::Analysis(Optimistic), _) => continue,
                (Column::Analysis(Pessimistic), _) => match row.interval() {
                    Some((lo, hi)) if lo.is_nan() || hi.is_nan() => {
                        notes.mark(format!("[{}, {}]", fixed(lo), fixed(hi)), undefined())
                    }
                    Some((lo, hi)) => notes.mark(
                        format!("[{}, {}]", fixed(lo), fixed(hi)),
                        row.tie_analysis
                            .ends_unproven
                            .map(|why| format!("interval ends not proven: {why}")),
                    ),
                    None => "n/a".into(),
                },
                (_, None) => "—".into(),
                (_, Some(cell)) => match &cell.result {
                    Ok(v) if v.is_nan() => notes.mark(fixed(*v), undefined()),
                    Ok(v) if row.outside(column) => notes.mark(
                        format!("{}*", fixed(*v)),
                        flag_note(row, cell, *v, remarks.flag(r, c)),
                    ),
                    Ok(v) => fixed(*v),
                    // The analysis has no closed form for some metrics: not the data's fault.
                    Err(_) if !column.is_convention() => notes.mark(
                        "n/a".into(),
                        row.tie_analysis
                            .expected_missing
                            .map(|why| format!("no expected value: {why}")),
                    ),
                    Err(e) => notes.mark(
                        "error".into(),
                        Some(format!(
                            "{} {}: {e}",
                            cell.preset.convention(),
                            cell.preset.name()
                        )),
                    ),
                },
            };
            line.push(text);
        }
        line.push(row.spread().map_or("—".into(), fixed));
        out.push(line);
    }
    Shown {
        rows: out,
        notes: notes.0,
    }
}

/// The note of a flagged value `v` that prints as an end of the interval: both with enough
/// decimals to tell them apart, and why the value lies outside.
fn flag_note(row: &Row, cell: &Cell, v: f64, flag: Option<Flag>) -> Option<String> {
    let (lo, hi) = row.interval()?;
    let end = if v < lo { lo } else { hi };
    if fixed(v) != fixed(end) {
        return None;
    }
    // The first precision that separates them, and one digit more.
    let d = (DECIMALS + 1..=17)
        .find(|&d| format!("{v:.d$}") != format!("{end:.d$}"))
        .map_or(17, |d| (d + 1).min(17));
    let who = match cell.column {
        Column::Toolkit(c) => format!("{c} {}", cell.preset.name()),
        column => column.name().to_string(),
    };
    let why = match flag? {
        Flag::Shared(t) => format!(
            "under {t}, tied items share the {} rank of their group, which no ordering of \
             the ties gives",
            match t {
                rankmetrics::TiePolicy::Min => "best",
                rankmetrics::TiePolicy::Max => "worst",
                _ => "average",
            }
        ),
        Flag::Merged {
            rule,
            interval: (a, b),
        } => format!(
            "{}, which the interval does not do; with those ties it is [{a:.d$}, {b:.d$}]",
            rule.describe()
        ),
        Flag::Definition => format!(
            "more than ties: {} has rules of its own for this metric (docs/conventions.md)",
            cell.preset.convention()
        ),
    };
    Some(format!(
        "{}, {who}: {v:.d$} vs interval end {end:.d$}: {why}",
        row.concept.name
    ))
}

/// The legend printed under the table; `torch_dtype` is torchmetrics' preds dtype.
fn legend(notes: &[String], torch_dtype: Option<&str>) -> String {
    let mut text = String::from(
        "max .. last: rankmetrics' metric under that tie policy (AUC and label-AP rows: the \
         scikit-learn or MULAN metric with its tie rule replaced).\n\
         sklearn .. mulan: each toolkit's own metric, names and rules; — where it has none.\n",
    );
    if let Some(dtype) = torch_dtype {
        let whence = match dtype {
            "float32" => "the scores file holds float32 values",
            _ => "text and float64 files give them; a float32 .npy file gives float32 preds",
        };
        let _ = writeln!(
            text,
            "torchmetrics: on {dtype} preds, as {whence} (torch computes in the preds' dtype)."
        );
    }
    text.push_str(
        "interval: [low, high], the smallest and largest value over every ordering of the ties \
         (where lower is better, as for coverage and ranking loss, the pessimistic end is the \
         high one); expected: their exact mean; n/a: no closed form.\n\
         spread: largest minus smallest value across the policies and toolkits.\n\
         *: outside the interval, so that convention differs by more than how it breaks ties.\n",
    );
    if !notes.is_empty() {
        text.push_str(
            "(n): note n below: an error, why a cell has no value, why a flagged value that \
             prints as an end of the interval lies outside it (rows and labels count from 0), or \
             why an interval's ends are not proven or an expected value has no closed form.\n",
        );
    }
    text + &note_lines(notes)
}

/// The comparison as aligned columns, with a legend and the notes.
pub fn compare_table(rows: &[Row], notes: &Notes) -> String {
    let s = shown(rows, notes);
    let right: Vec<bool> = (0..s.rows[0].len()).map(|i| i > 0).collect();
    let legend = legend(&s.notes, torchmetrics_dtype(rows).as_deref());
    format!("{}\n{legend}", aligned(&s.rows, &right))
}

/// The comparison as a Markdown table, with the legend, the notes and the provenance as text
/// below.
pub fn compare_markdown(rows: &[Row], notes: &Notes, provenance: &Provenance) -> String {
    let s = shown(rows, notes);
    let right: Vec<bool> = (0..s.rows[0].len()).map(|i| i > 0).collect();
    let legend: String = legend(&s.notes, torchmetrics_dtype(rows).as_deref())
        .lines()
        .map(|l| format!("{l}  \n"))
        .collect();
    format!(
        "{}\n{legend}\n{}",
        markdown_table(&s.rows, &right),
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

/// The decimals the comparison shows.
const DECIMALS: usize = 4;

/// Four decimals, for people; non-finite values as in JSON.
fn fixed(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.DECIMALS$}")
    } else {
        plain_number(x)
    }
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
