//! `rankmetrics identify`: which convention, metric, parameters and tie policy produce a
//! reported value ([`rankmetrics::identify`]), as a table, JSON, CSV or Markdown.

use std::fmt::Write as _;

use rankmetrics::identify::{Family, Identification, Match, Reported, HEADER};
use rankmetrics::registry::Convention;
use serde_json::Value;

use crate::output::{csv_line, json_number, json_str, markdown_table, note_lines, plain_number};
use crate::provenance::Provenance;

/// The reported values as printed (`0.8542`, `85.42%`), each with `tolerance` if given, else
/// half a unit of its last digit.
///
/// # Errors
/// A message naming the value that cannot be read.
///
/// # Example
/// ```
/// use rankmetrics_cli::identify::reported;
/// let r = reported(&["0.8542".into()], None).unwrap();
/// assert_eq!((r[0].value, r[0].tolerance), (0.8542, 0.00005));
/// assert!(reported(&["0.8542".into()], Some(-1.0)).is_err());
/// ```
pub fn reported(values: &[String], tolerance: Option<f64>) -> Result<Vec<Reported>, String> {
    values
        .iter()
        .map(|text| {
            Reported::parse_with(text, tolerance).map_err(|e| {
                match (e.about_tolerance(), tolerance) {
                    (true, Some(t)) => {
                        format!("--tolerance {t}: not a finite number of at least 0")
                    }
                    _ => e.to_string(),
                }
            })
        })
        .collect()
}

/// The family `--metric` names.
///
/// # Errors
/// A message listing the families for a name no family or metric has.
///
/// # Example
/// ```
/// use rankmetrics_cli::identify::family;
/// assert_eq!(family(Some("lrap")).unwrap().unwrap().name, "lrap");
/// assert!(family(Some("nope")).unwrap_err().contains("expected coverage, lrap"));
/// ```
pub fn family(name: Option<&str>) -> Result<Option<&'static Family>, String> {
    name.map(|n| Family::find(n).map_err(|e| format!("--metric: {e}")))
        .transpose()
}

/// For people: per reported value, what `Identification::table` prints.
pub fn table(ids: &[Identification]) -> String {
    rankmetrics::identify::table(ids)
}

/// A Markdown table per reported value, then the provenance.
pub fn markdown(ids: &[Identification], provenance: &Provenance) -> String {
    let mut out = String::new();
    for id in ids {
        let _ = writeln!(out, "**{}**\n", id.heading());
        if id.matches.is_empty() && !id.closest.is_empty() {
            out.push_str("The closest:\n\n");
        }
        let right = [false, false, false, false, true, false, true];
        let (rows, notes) = id.rows();
        let header = vec![HEADER.map(String::from).to_vec()];
        out.push_str(&markdown_table(&[header, rows].concat(), &right));
        let below = id.summary() + &note_lines(&notes);
        if !below.is_empty() {
            out.push('\n');
            out.extend(below.lines().map(|l| format!("{l}  \n")));
        }
        out.push('\n');
    }
    out + &provenance.markdown()
}

/// A parameter's value as JSON: a boolean, a whole number, a number, or the text.
fn json_param(v: &str) -> Value {
    match v {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => match (v.parse::<u64>(), v.parse::<f64>()) {
            (Ok(k), _) => Value::from(k),
            (_, Ok(x)) if x.is_finite() => json_number(x),
            _ => json_str(v),
        },
    }
}

fn json_interval(interval: Option<(f64, f64)>) -> Value {
    interval.map_or(Value::Null, |(lo, hi)| {
        Value::Array(vec![json_number(lo), json_number(hi)])
    })
}

fn json_match(m: &Match) -> Value {
    let c = &m.candidate;
    let params = c.params.iter().map(|(k, v)| (k.to_string(), json_param(v)));
    let range = m.range.as_ref();
    serde_json::json!({
        "convention": c.preset.convention().name(),
        "metric": c.preset.name(),
        "params": Value::Object(params.collect()),
        "ties": c.ties.map(|t| t.name()),
        "value": json_number(m.value),
        "interval": json_interval(range.and_then(|r| r.interval)),
        "expected": range.and_then(|r| r.expected).map_or(Value::Null, json_number),
        "reference": range.map(|r| r.reference.clone()),
        "note": range.and_then(|r| r.tie_analysis.note()),
    })
}

fn json_identification(id: &Identification) -> Value {
    serde_json::json!({
        "reported": json_number(id.reported.value),
        "tolerance": json_number(id.reported.tolerance),
        "metric": id.family.map(|f| f.name),
        "candidates": id.candidates,
        "matches": id.matches.iter().map(json_match).collect::<Vec<_>>(),
        "closest": id.closest.iter().map(json_match).collect::<Vec<_>>(),
        "interval": json_interval(id.interval),
        "expected": id.expected.map_or(Value::Null, json_number),
        "reference": id.reference,
    })
}

/// One JSON document: for one reported value, `{"reported", "tolerance", "metric",
/// "candidates", "matches": [{"convention", "metric", "params", "ties", "value", "interval",
/// "expected", "reference", "note"}...], "closest", "interval", "expected", "reference",
/// "provenance"}`; for several, `{"identifications": [...], "provenance"}`.
pub fn json(ids: &[Identification], provenance: &Provenance) -> String {
    let provenance: Value = serde_json::from_str(&provenance.json()).unwrap_or(Value::Null);
    let doc = match ids {
        [one] => {
            let mut doc = json_identification(one);
            if let Value::Object(map) = &mut doc {
                map.insert("provenance".into(), provenance);
            }
            doc
        }
        _ => serde_json::json!({
            "identifications": ids.iter().map(json_identification).collect::<Vec<_>>(),
            "provenance": provenance,
        }),
    };
    format!("{doc}\n")
}

/// One line per match: the reported value and tolerance, the match, its interval and
/// expected value, then the provenance's fields.
pub fn csv(ids: &[Identification], provenance: &Provenance) -> String {
    let mut header = vec![
        "reported",
        "tolerance",
        "convention",
        "metric",
        "params",
        "ties",
        "value",
        "interval_low",
        "interval_high",
        "expected",
        "reference",
    ];
    header.extend(Provenance::CSV_COLUMNS);
    let mut out = csv_line(&header);
    let number = |x: Option<f64>| x.map_or(String::new(), plain_number);
    for id in ids {
        for m in &id.matches {
            let c = &m.candidate;
            let range = m.range.as_ref();
            let interval = range.and_then(|r| r.interval);
            let mut fields = vec![
                plain_number(id.reported.value),
                plain_number(id.reported.tolerance),
                c.preset.convention().name().to_string(),
                c.preset.name().to_string(),
                m.params_text().join(" "),
                c.ties.map_or(String::new(), |t| t.name().to_string()),
                plain_number(m.value),
                number(interval.map(|i| i.0)),
                number(interval.map(|i| i.1)),
                number(range.and_then(|r| r.expected)),
                range.map_or(String::new(), |r| r.reference.clone()),
            ];
            fields.extend(provenance.csv_fields(Some(c.preset.convention())));
            out.push_str(&csv_line(&fields));
        }
    }
    out
}

/// The conventions of every match, for the provenance's list of reproduced toolkits.
pub fn conventions(ids: &[Identification]) -> Vec<Convention> {
    let matches = ids.iter().flat_map(|id| &id.matches);
    matches.map(|m| m.candidate.preset.convention()).collect()
}
