//! Conformance of the graded metrics (DCG, NDCG) with the golden values of scikit-learn and
//! torchmetrics in tests/data/conformance, every record, through the registry.

use std::collections::HashMap;

use rankmetrics::registry::{Convention, Preset};
use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/conformance");

struct Case {
    y_true: Vec<Vec<f64>>,
    y_score: Vec<Vec<f64>>,
    weights: Option<Vec<f64>>,
}

fn load(name: &str) -> Value {
    let text = std::fs::read_to_string(format!("{DATA}/{name}")).expect(name);
    serde_json::from_str(&text).expect(name)
}

fn matrix(v: &Value) -> Vec<Vec<f64>> {
    v.as_array()
        .expect("matrix")
        .iter()
        .map(|row| {
            row.as_array()
                .expect("row")
                .iter()
                .map(|x| x.as_f64().expect("number"))
                .collect()
        })
        .collect()
}

fn cases() -> HashMap<String, Case> {
    load("cases.json")["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            let weights = c["sample_weight"].as_array().map(|w| {
                w.iter()
                    .map(|x| x.as_f64().expect("weight"))
                    .collect::<Vec<_>>()
            });
            let case = Case {
                y_true: matrix(&c["y_true"]),
                y_score: matrix(&c["y_score"]),
                weights,
            };
            (c["id"].as_str().expect("id").to_string(), case)
        })
        .collect()
}

fn close(found: f64, expected: f64, rel: f64) -> bool {
    found == expected || (found - expected).abs() <= rel * expected.abs()
}

/// Checks every record of `metrics` in `golden` against the registry's preset of
/// `convention`; returns (passed, failures).
fn check(convention: Convention, golden: &str, metrics: &[&str], rel: f64) -> (usize, Vec<String>) {
    let cases = cases();
    let (mut passed, mut failures) = (0, Vec::new());
    for r in load(golden)["results"].as_array().expect("results") {
        let metric = r["metric"].as_str().expect("metric");
        if !metrics.contains(&metric) {
            continue;
        }
        let case_id = r["case"].as_str().expect("case");
        let case = &cases[case_id];
        let mut params = Vec::new();
        let mut weighted = false;
        for (key, value) in r["params"].as_object().expect("params") {
            match (key.as_str(), value) {
                (_, Value::Null) => {}
                ("sample_weight", v) => weighted = v.as_bool().expect("bool"),
                (k, v) => params.push((k.to_string(), v.to_string())),
            }
        }
        let weights = if weighted {
            case.weights.as_deref()
        } else {
            None
        };
        let preset = Preset::lookup(convention, metric, &params, None).expect("lookup");
        let result = preset.evaluate(&case.y_true, &case.y_score, weights);
        let label = format!("{case_id} {metric} {}", r["params"]);
        let ok = match (&result, r.get("error")) {
            (Err(_), Some(_)) => true,
            (Ok(v), Some(e)) => {
                failures.push(format!("{label}: expected error {e}, got {v}"));
                continue;
            }
            (Err(e), None) => {
                failures.push(format!("{label}: unexpected error {e}"));
                continue;
            }
            (Ok(v), None) if r["tie_order_dependent"] == Value::Bool(true) => {
                let range = r["range"].as_array().expect("range");
                let (lo, hi) = (range[0].as_f64().unwrap(), range[1].as_f64().unwrap());
                let stable = r["value_if_stable_argsort"].as_f64().expect("stable");
                let slack = rel * lo.abs().max(hi.abs());
                lo - slack <= *v && *v <= hi + slack && close(*v, stable, rel)
            }
            (Ok(v), None) => match &r["value"] {
                Value::String(s) if s == "nan" => v.is_nan(),
                x => close(*v, x.as_f64().expect("value"), rel),
            },
        };
        if ok {
            passed += 1;
        } else {
            failures.push(format!("{label}: got {result:?}, golden {r}"));
        }
    }
    (passed, failures)
}

fn report(toolkit: &str, (passed, failures): (usize, Vec<String>)) {
    for f in failures.iter().take(20) {
        eprintln!("{f}");
    }
    println!(
        "graded conformance {toolkit}: {passed} passed, {} failed",
        failures.len()
    );
    assert!(passed > 0, "no {toolkit} record checked");
    assert_eq!(failures.len(), 0);
}

#[test]
fn sklearn_dcg_and_ndcg() {
    let result = check(
        Convention::Sklearn,
        "golden-sklearn.json",
        &["dcg_score", "ndcg_score"],
        1e-12,
    );
    report("sklearn", result);
}

#[test]
fn torchmetrics_retrieval_normalized_dcg() {
    let result = check(
        Convention::Torchmetrics,
        "golden-torchmetrics.json",
        &["retrieval_normalized_dcg"],
        1e-6,
    );
    report("torchmetrics", result);
}
