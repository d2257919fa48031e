//! Every golden record of the label-wise metrics (ROC AUC, average precision and their MULAN /
//! mldr relatives), checked through the registry as `rankmetrics eval` runs them.

use std::collections::HashMap;

use rankmetrics::registry::{Convention, Preset};
use serde_json::Value;

const METRICS: [(&str, &[&str]); 3] = [
    ("sklearn", &["roc_auc_score", "average_precision_score"]),
    ("mldr", &["macro_auc", "example_auc", "micro_auc"]),
    (
        "mulan",
        &[
            "MacroAUC",
            "MicroAUC",
            "MeanAveragePrecision",
            "GeometricMeanAveragePrecision",
            "MeanAverageInterpolatedPrecision",
            "GeometricMeanAverageInterpolatedPrecision",
            "MacroAUCPR",
        ],
    ),
];

struct Case {
    y_true: Vec<Vec<f64>>,
    y_score: Vec<Vec<f64>>,
    weights: Option<Vec<f64>>,
}

fn load(name: &str) -> Value {
    let path = format!(
        "{}/tests/data/conformance/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn matrix(v: &Value) -> Vec<Vec<f64>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        })
        .collect()
}

fn cases() -> HashMap<String, Case> {
    load("cases.json")["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let weights = c["sample_weight"]
                .as_array()
                .map(|w| w.iter().map(|x| x.as_f64().unwrap()).collect());
            let case = Case {
                y_true: matrix(&c["y_true"]),
                y_score: matrix(&c["y_score"]),
                weights,
            };
            (c["id"].as_str().unwrap().to_string(), case)
        })
        .collect()
}

fn param_string(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(format!("{}", n.as_f64().unwrap())),
        Value::String(s) => Some(s.clone()),
        other => panic!("unexpected param {other}"),
    }
}

fn tolerance(toolkit: &str) -> f64 {
    match toolkit {
        "sklearn" => 1e-12,
        _ => 1e-15, // mldr: R's long-double mean, a few ulp; MULAN: bitwise or 1e-15
    }
}

fn agrees(toolkit: &str, expected: &Value, got: f64) -> bool {
    match expected {
        Value::String(s) if s == "nan" => got.is_nan(),
        Value::Number(n) => {
            let e = n.as_f64().unwrap();
            if e == 0.0 {
                got == 0.0
            } else {
                (got - e).abs() <= tolerance(toolkit) * e.abs()
            }
        }
        other => panic!("unexpected value {other}"),
    }
}

#[test]
fn labelwise_goldens() {
    let cases = cases();
    let mut total_failed = 0;
    for (toolkit, metrics) in METRICS {
        let convention = Convention::parse(toolkit).unwrap();
        let golden = load(&format!("golden-{toolkit}.json"));
        let (mut passed, mut failed) = (0, 0);
        for r in golden["results"].as_array().unwrap() {
            let metric = r["metric"].as_str().unwrap();
            if !metrics.contains(&metric) {
                continue;
            }
            let id = r["case"].as_str().unwrap();
            let case = &cases[id];
            let mut params = Vec::new();
            let mut weighted = false;
            for (k, v) in r["params"].as_object().unwrap() {
                if k == "sample_weight" {
                    weighted = v.as_bool().unwrap();
                } else if let Some(v) = param_string(v) {
                    params.push((k.clone(), v));
                }
            }
            let ignored = r["sample_weight_ignored"].as_bool().unwrap_or(false);
            let weights = case.weights.as_deref().filter(|_| weighted && !ignored);
            let preset = Preset::lookup(convention, metric, &params, None).unwrap();
            let got = preset.evaluate(&case.y_true, &case.y_score, weights);
            let ok = match (&r.get("error"), &got) {
                (Some(_), Err(_)) => true,
                (Some(_), Ok(_)) | (None, Err(_)) => false,
                (None, Ok(v)) => agrees(toolkit, &r["value"], *v),
            };
            if ok {
                passed += 1;
            } else {
                failed += 1;
                if failed <= 15 {
                    eprintln!(
                        "MISMATCH {toolkit} {metric} {id} {:?}: expected {} got {got:?}",
                        params,
                        r.get("error").unwrap_or(&r["value"])
                    );
                }
            }
        }
        println!("labelwise conformance {toolkit}: {passed} passed, {failed} failed");
        total_failed += failed;
    }
    assert_eq!(total_failed, 0);
}
