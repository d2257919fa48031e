//! What `identify` must find for each golden record, shared by the library's and the
//! command's tests: each record's toolkit value, rounded to 4 decimals, searched over every
//! family on the record's case, lists that toolkit's metric with the record's parameters.
#![allow(dead_code)]

use std::collections::BTreeMap;

use rankmetrics::registry::Convention;
use serde_json::Value;

use crate::golden::{cases, cases_in, load, number, params, Case};

/// The golden files and the convention each reproduces.
pub const FILES: &[(&str, Convention)] = &[
    ("golden-sklearn.json", Convention::Sklearn),
    ("golden-torchmetrics.json", Convention::Torchmetrics),
    ("golden-torchmetrics-f32.json", Convention::Torchmetrics),
    ("golden-torchmetrics-auc.json", Convention::Torchmetrics),
    (
        "golden-torchmetrics-retrieval.json",
        Convention::Torchmetrics,
    ),
    ("golden-mldr.json", Convention::Mldr),
    ("golden-mulan.json", Convention::Mulan),
];

/// A match as a front door reports it: convention, metric and the parameters the search set.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub convention: String,
    pub metric: String,
    pub params: Vec<(String, String)>,
}

/// A record as identify should find it: the convention, the metric's registry name and the
/// parameters its match must carry.
struct Wanted {
    convention: Convention,
    metric: &'static str,
    params: Vec<(String, String)>,
}

/// The record's parameters as the search sets them: the preds' dtype (a record's own `dtype`
/// is that of torchmetrics' output), torch's float32 sums, and, where torchmetrics applied its
/// sigmoid, the kernel of the AVX-512 machine that made the files; MULAN's Weka version; a
/// cut-off at or past the label count dropped where it changes nothing.
fn wanted(convention: Convention, record: &Value, labels: usize) -> (Wanted, bool) {
    let name = record["metric"].as_str().expect("metric");
    let entry = convention.entry(name).expect("a registry metric");
    let (mut params, weighted) = params(record);
    if entry.keys.contains(&"dtype") && !params.iter().any(|(k, _)| k == "dtype") {
        let float32 = record.get("scores_f32").is_some();
        params.push((
            "dtype".into(),
            if float32 { "float32" } else { "float64" }.into(),
        ));
    }
    if entry.keys.contains(&"arithmetic") {
        params.push(("arithmetic".into(), "float32".into()));
    }
    let sigmoid = record.get("sigmoid_applied") == Some(&Value::Bool(true));
    if entry.keys.contains(&"sigmoid") && sigmoid {
        params.push(("sigmoid".into(), "avx512".into()));
    }
    if entry.keys.contains(&"weka") {
        params.push(("weka".into(), "3.7".into()));
    }
    // A cut-off past the label count is no cut-off, except for precision's denominator.
    params.retain(|(k, v)| {
        let past = (k == "k" || k == "top_k") && v.parse::<usize>().is_ok_and(|k| k >= labels);
        !past || entry.name == "retrieval_precision"
    });
    params.retain(|(k, _)| k != "num_recall_levels");
    let wanted = Wanted {
        convention,
        metric: entry.name,
        params,
    };
    (wanted, weighted)
}

/// Whether `matches` list the wanted metric: same convention and metric, every wanted
/// parameter set alike, and any other parameter at its default or a cut-off at the label
/// count (which a record naming no cut-off, or one past the label count, means too).
fn found(matches: &[Found], wanted: &Wanted, labels: usize) -> bool {
    let entry = wanted
        .convention
        .entry(wanted.metric)
        .expect("a registry metric");
    let is_default = |k: &str, v: &str| {
        let default = entry
            .params
            .iter()
            .any(|p| p.key == k && p.default == Some(v));
        let no_cut = (k == "k" || k == "top_k") && v == labels.to_string();
        default || no_cut
    };
    matches.iter().any(|m| {
        m.convention == wanted.convention.name()
            && m.metric == wanted.metric
            && wanted.params.iter().all(|w| m.params.contains(w))
            && m.params
                .iter()
                .all(|(k, v)| wanted.params.iter().any(|(wk, _)| wk == k) || is_default(k, v))
    })
}

/// A golden record to search for.
struct Search<'a> {
    file: &'static str,
    record: &'a Value,
    value: f64,
    wanted: Wanted,
}

/// Searches every golden record's value with `search` (a case, whether its weights apply,
/// the values, all of one case at once; the matches of each value) and asserts that each is
/// found; returns per file the records found, those whose toolkit value depends on how its
/// sort orders the ties (scikit-learn's `ignore_ties`: the conformance test checks that it
/// lies in the exact range over tie orders), and those without a value (an error or NaN).
pub fn check_every_record(
    mut search: impl FnMut(&Case, bool, &[f64]) -> Vec<Vec<Found>>,
) -> BTreeMap<&'static str, [usize; 3]> {
    let mut all = cases();
    all.extend(cases_in("cases-logits.json"));
    let files: Vec<Value> = FILES.iter().map(|&(f, _)| load(f)).collect();
    let mut tally: BTreeMap<&str, [usize; 3]> = BTreeMap::new();
    let mut by_case: BTreeMap<(&str, bool), Vec<Search>> = BTreeMap::new();
    for (&(file, convention), golden) in FILES.iter().zip(&files) {
        for record in golden["results"].as_array().expect("results") {
            let Some(value) = record
                .get("value")
                .and_then(number)
                .filter(|v| v.is_finite())
            else {
                tally.entry(file).or_default()[2] += 1;
                continue;
            };
            let case = record["case"].as_str().expect("case");
            let (wanted, weighted) = wanted(convention, record, all[case].l);
            let search = Search {
                file,
                record,
                value,
                wanted,
            };
            by_case.entry((case, weighted)).or_default().push(search);
        }
    }
    let mut missed = Vec::new();
    for ((case, weighted), searches) in &by_case {
        let data = &all[*case];
        let values: Vec<f64> = searches.iter().map(|s| s.value).collect();
        let matches = search(data, *weighted, &values);
        assert_eq!(
            matches.len(),
            searches.len(),
            "one answer per value on {case}"
        );
        for (s, m) in searches.iter().zip(&matches) {
            let counts = tally.entry(s.file).or_default();
            if found(m, &s.wanted, data.l) {
                counts[0] += 1;
            } else if s.record.get("tie_order_dependent") == Some(&Value::Bool(true)) {
                counts[1] += 1;
            } else {
                missed.push(format!(
                    "{} {case} {} {:?} = {:.4}: {} matches",
                    s.file,
                    s.wanted.metric,
                    s.wanted.params,
                    s.value,
                    m.len()
                ));
            }
        }
    }
    println!("identify, golden file: found, tie-order dependent, no value");
    for (file, c) in &tally {
        println!("identify, {file}: {} {} {}", c[0], c[1], c[2]);
    }
    assert!(
        missed.is_empty(),
        "{} missed:\n{}",
        missed.len(),
        missed.join("\n")
    );
    tally
}

/// Each golden value as the searches read it: rounded to 4 decimals.
pub fn rounded(value: f64) -> String {
    format!("{value:.4}")
}
