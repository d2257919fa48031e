//! The golden records of tests/data/conformance (the toolkits' own outputs) and the cases
//! they were computed on, as the conformance and identify tests read them. Set
//! RANKMETRICS_CONFORMANCE_DIR to read another copy.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;

pub struct Case {
    pub n: usize,
    pub l: usize,
    pub y_true: Vec<f64>,
    pub y_score: Vec<f64>,
    pub weights: Option<Vec<f64>>,
}

pub fn dir() -> PathBuf {
    std::env::var_os("RANKMETRICS_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            // The library's tests run from the repository's root, the command's from cli/.
            let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
            let root = manifest.join("tests/data/conformance");
            if root.is_dir() {
                root
            } else {
                manifest.join("../tests/data/conformance")
            }
        })
}

pub fn load(name: &str) -> Value {
    let path = dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn matrix(v: &Value) -> (usize, usize, Vec<f64>) {
    let rows = v.as_array().expect("matrix rows");
    let l = rows
        .first()
        .and_then(|r| r.as_array())
        .map_or(0, |r| r.len());
    let data = rows
        .iter()
        .flat_map(|r| {
            r.as_array()
                .expect("row")
                .iter()
                .map(|x| x.as_f64().expect("number"))
        })
        .collect();
    (rows.len(), l, data)
}

pub fn cases() -> HashMap<String, Case> {
    cases_in("cases.json")
}

pub fn cases_in(file: &str) -> HashMap<String, Case> {
    let doc = load(file);
    doc["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            let (n, l, y_true) = matrix(&c["y_true"]);
            let (_, _, y_score) = matrix(&c["y_score"]);
            let weights = c["sample_weight"]
                .as_array()
                .map(|w| w.iter().map(|x| x.as_f64().expect("weight")).collect());
            let id = c["id"].as_str().expect("id").to_string();
            (
                id,
                Case {
                    n,
                    l,
                    y_true,
                    y_score,
                    weights,
                },
            )
        })
        .collect()
}

/// A golden number: a JSON number or one of "nan", "inf", "-inf".
pub fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(x) => x.as_f64(),
        Value::String(s) if s == "nan" => Some(f64::NAN),
        Value::String(s) if s == "inf" => Some(f64::INFINITY),
        Value::String(s) if s == "-inf" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

pub fn close(ours: f64, expected: f64, rel: f64) -> bool {
    if expected.is_nan() || ours.is_nan() {
        return expected.is_nan() && ours.is_nan();
    }
    if expected.is_infinite() || expected == 0.0 {
        return ours == expected;
    }
    (ours - expected).abs() <= rel * expected.abs()
}

/// Record params as the registry takes them: null omitted, sample_weight not a param.
pub fn params(record: &Value) -> (Vec<(String, String)>, bool) {
    let mut out = Vec::new();
    let mut weighted = false;
    for (k, v) in record["params"].as_object().expect("params") {
        match (k.as_str(), v) {
            ("sample_weight", v) => weighted = v.as_bool() == Some(true),
            (_, Value::Null) => {}
            (_, Value::Bool(b)) => out.push((k.clone(), b.to_string())),
            (_, Value::Number(x)) => {
                out.push((k.clone(), format!("{}", x.as_f64().expect("number"))))
            }
            (_, Value::String(s)) => out.push((k.clone(), s.clone())),
            _ => panic!("unexpected param {k}: {v}"),
        }
    }
    (
        out,
        weighted && record.get("sample_weight_ignored").is_none(),
    )
}
