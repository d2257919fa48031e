//! Every golden record of tests/data/conformance (the toolkits' own outputs) whose metric
//! the registry knows, evaluated through `registry::Preset`, at the tolerances of the data's
//! README. Set RANKMETRICS_CONFORMANCE_DIR to test another copy.

use std::collections::HashMap;

use rankmetrics::registry::{Convention, Preset};
use rankmetrics::RowMajor;
use serde_json::Value;

#[path = "common/golden.rs"]
mod golden;
use golden::{cases, cases_in, close, load, number, params, Case};

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: Vec<String>,
    skipped: usize,
    deviations: usize,
    /// Passed records by kind: the toolkit's own output matched (within the tolerance above;
    /// for a float64 torchmetrics record, `value_f64` at 1e-12 and torchmetrics' float32 output
    /// at 1e-6; for a tie-order dependent scikit-learn record, the order its sort took)...
    values: usize,
    /// ...only torchmetrics' float64 re-evaluation (`value_f64`) matched...
    f64_values: usize,
    /// ...another tie order than scikit-learn's sort took, inside the exact range over the
    /// tie orders it leaves unspecified...
    in_range: usize,
    /// ...or the toolkit's error reproduced as an error.
    errors: usize,
    /// MULAN records also checked against their Weka 3.9 value (`value_weka39`).
    weka39: usize,
}

fn evaluate(
    convention: Convention, metric: &str, params: &[(String, String)], case: &Case, weighted: bool,
) -> Result<f64, String> {
    let preset = Preset::lookup(convention, metric, params, None).map_err(|e| e.to_string())?;
    let y_true = RowMajor::new(&case.y_true, case.n, case.l).map_err(|e| e.to_string())?;
    let y_score = RowMajor::new(&case.y_score, case.n, case.l).map_err(|e| e.to_string())?;
    let weights = if weighted {
        case.weights.as_deref()
    } else {
        None
    };
    preset
        .evaluate(&y_true, &y_score, weights)
        .map_err(|e| e.to_string())
}

fn check_toolkit(toolkit: &str, cases: &HashMap<String, Case>) -> Tally {
    let convention = Convention::parse(toolkit).expect("toolkit is a convention");
    let rel = match toolkit {
        "sklearn" => 1e-12,
        "torchmetrics" => 1e-12, // against value_f64; float32 `value` at 1e-6 below
        _ => 1e-15,
    };
    let golden = load(&format!("golden-{toolkit}.json"));
    let mut tally = Tally::default();
    for record in golden["results"].as_array().expect("results") {
        let metric = record["metric"].as_str().expect("metric");
        if !convention.metric_names().contains(&metric) {
            tally.skipped += 1;
            continue;
        }
        let id = record["case"].as_str().expect("case");
        let case = &cases[id];
        let (mut params, weighted) = params(record);
        if toolkit == "torchmetrics" && FLOAT32_ARITHMETIC.contains(&metric) {
            params.push(float32_arithmetic());
        }
        let got = evaluate(convention, metric, &params, case, weighted);
        let what = format!("{toolkit} {metric} {params:?} weighted={weighted} on {id}");
        let ok = if let Some(err) = record.get("error").and_then(Value::as_str) {
            match &got {
                Err(_) => {
                    tally.errors += 1;
                    true
                }
                // mldr's 1-label indexing bug (docs/conventions.md): we compute the value.
                Ok(_) if toolkit == "mldr" && err == "subscript out of bounds" && case.l == 1 => {
                    tally.deviations += 1;
                    true
                }
                Ok(v) => {
                    tally
                        .failed
                        .push(format!("{what}: expected error {err:?}, got {v}"));
                    continue;
                }
            }
        } else {
            let got = match got {
                Ok(v) => v,
                Err(e) => {
                    tally.failed.push(format!("{what}: error {e}"));
                    continue;
                }
            };
            let expected = number(&record["value"]).expect("value");
            let (ok, kind) =
                if record["tie_order_dependent"].as_bool() == Some(true) && toolkit == "sklearn" {
                    // sklearn's argsort tie order is unspecified: the value must lie in the exact
                    // range over all tie orders.
                    let range = record["range"].as_array().expect("range");
                    let (lo, hi) = (
                        number(&range[0]).expect("lo"),
                        number(&range[1]).expect("hi"),
                    );
                    let slack = 1e-12 * lo.abs().max(hi.abs());
                    if close(got, expected, rel) {
                        // The preset's tie order is the one scikit-learn's sort took here.
                        (true, &mut tally.values)
                    } else {
                        (got >= lo - slack && got <= hi + slack, &mut tally.in_range)
                    }
                } else if record["tie_order_dependent"].as_bool() == Some(true)
                    && toolkit == "torchmetrics"
                {
                    // torch's argsort order is followed (torch_order.rs): torchmetrics' own
                    // float32 output, not `value_f64`, which assumed a stable sort.
                    (close(got, expected, 1e-6), &mut tally.values)
                } else if toolkit == "torchmetrics" && FLOAT32_ARITHMETIC.contains(&metric) {
                    // torchmetrics' float32 arithmetic is followed: its own output, bitwise.
                    (got.to_bits() == expected.to_bits(), &mut tally.values)
                } else if let Some(f64_value) = record.get("value_f64").and_then(number) {
                    // Checked against the float64 re-evaluation; where torchmetrics' own
                    // (float32) output also agrees to 1e-6, it counts as the toolkit's value.
                    let kind = if close(got, expected, 1e-6) {
                        &mut tally.values
                    } else {
                        &mut tally.f64_values
                    };
                    (close(got, f64_value, rel), kind)
                } else if record["dtype"].as_str() == Some("float32") {
                    (close(got, expected, 1e-6), &mut tally.values)
                } else {
                    (close(got, expected, rel), &mut tally.values)
                };
            if ok {
                *kind += 1;
            }
            // MULAN with Weka 3.9 (exact ties) where it differs from the shipped 3.7.
            let weka39 = match record.get("value_weka39").and_then(number) {
                Some(v39) => {
                    let mut p = params.clone();
                    p.push(("weka".into(), "3.9".into()));
                    match evaluate(convention, metric, &p, case, weighted) {
                        Ok(ours) if close(ours, v39, rel) => {
                            tally.weka39 += 1;
                            true
                        }
                        other => {
                            tally
                                .failed
                                .push(format!("{what} weka=3.9: expected {v39}, got {other:?}"));
                            continue;
                        }
                    }
                }
                None => true,
            };
            if !ok {
                tally
                    .failed
                    .push(format!("{what}: expected {expected}, got {got:.17}"));
            }
            ok && weka39
        };
        if ok {
            tally.passed += 1;
        }
    }
    tally
}

#[test]
fn conformance_with_every_toolkit() {
    let cases = cases();
    let mut failures = Vec::new();
    for toolkit in ["sklearn", "torchmetrics", "mldr", "mulan"] {
        let t = check_toolkit(toolkit, &cases);
        println!(
            "conformance {toolkit}: {} passed, {} failed, {} skipped (metric not in the registry)",
            t.passed,
            t.failed.len(),
            t.skipped
        );
        // The passed records by kind: docs/conventions.md and the README quote these lines.
        println!(
            "  by kind: {} the toolkit's own output, {} value_f64 only (float64 \
             re-evaluation), {} another tie order inside the range, {} error reproduced, {} documented deviation (mldr's 1-label \
             'subscript out of bounds'); {} also checked against value_weka39",
            t.values, t.f64_values, t.in_range, t.errors, t.deviations, t.weka39
        );
        for f in t.failed.iter().take(15) {
            println!("  FAIL {f}");
        }
        assert_eq!(
            t.passed,
            t.values + t.f64_values + t.in_range + t.errors + t.deviations,
            "{toolkit}: every passed record has one kind"
        );
        failures.extend(t.failed);
    }
    assert!(
        failures.is_empty(),
        "{} conformance records failed",
        failures.len()
    );
}

/// torchmetrics' `metric` with `params` on the case's labels and `scores` (of the case's
/// shape): `f32` scores are float32 preds.
fn evaluate_scores<T: rankmetrics::Score>(
    metric: &str, params: &[(String, String)], case: &Case, scores: &[T],
) -> Result<f64, String> {
    let preset = Preset::lookup(Convention::Torchmetrics, metric, params, None)
        .map_err(|e| e.to_string())?;
    let y_true = RowMajor::new(&case.y_true, case.n, case.l).map_err(|e| e.to_string())?;
    let y_score = RowMajor::new(scores, case.n, case.l).map_err(|e| e.to_string())?;
    preset
        .evaluate(&y_true, &y_score, None)
        .map_err(|e| e.to_string())
}

/// Whether two outcomes are the same bits, or the same error.
fn same_bits(a: &Result<f64, String>, b: &Result<f64, String>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => a.to_bits() == b.to_bits(),
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

/// torchmetrics' metrics whose `float32` arithmetic the presets follow to the bit with
/// `arithmetic=float32`: LRAP and NDCG.
const FLOAT32_ARITHMETIC: [&str; 2] = [LRAP, "retrieval_normalized_dcg"];
const LRAP: &str = "multilabel_ranking_average_precision";

/// The parameter that asks for torchmetrics' `float32` arithmetic.
fn float32_arithmetic() -> (String, String) {
    ("arithmetic".into(), "float32".into())
}

/// torchmetrics on float32 preds (golden-torchmetrics-f32.json): every record through the
/// presets with `f32` scores, at the file's 1e-6, the ranking loss on rows over 16 labels
/// included (where torch's CPU sort is not stable and the preset follows its order).
#[test]
fn conformance_with_torchmetrics_on_float32_preds() {
    let mut cases = cases();
    cases.extend(cases_in("cases-logits.json"));
    let golden = load("golden-torchmetrics-f32.json");
    let (mut tally, mut errors) = (Tally::default(), 0);
    for record in golden["results"].as_array().expect("results") {
        let metric = record["metric"].as_str().expect("metric");
        let id = record["case"].as_str().expect("case");
        let case = &cases[id];
        let scores: Vec<f32> = case.y_score.iter().map(|&x| x as f32).collect();
        let arithmetic: Vec<(String, String)> = if FLOAT32_ARITHMETIC.contains(&metric) {
            vec![float32_arithmetic()]
        } else {
            vec![]
        };
        let got = evaluate_scores(metric, &arithmetic, case, &scores);
        let what = format!("torchmetrics f32 {metric} on {id}");
        // The same values as f64 scores with `dtype=float32`, as the command passes them.
        let rounded: Vec<f64> = scores.iter().map(|&x| f64::from(x)).collect();
        let mut dtype = arithmetic.clone();
        dtype.push(("dtype".to_string(), "float32".to_string()));
        if !same_bits(&evaluate_scores(metric, &dtype, case, &rounded), &got) {
            tally
                .failed
                .push(format!("{what}: dtype=float32 on f64 scores differs"));
            continue;
        }
        match (record.get("error"), &got) {
            (Some(_), Err(_)) => errors += 1,
            (Some(err), Ok(v)) => {
                tally
                    .failed
                    .push(format!("{what}: expected error {err}, got {v}"));
                continue;
            }
            (None, Err(e)) => {
                tally.failed.push(format!("{what}: error {e}"));
                continue;
            }
            // torch's argsort order is followed, so tie-order records are values too.
            (None, Ok(v)) => {
                let expected = number(&record["value"]).expect("value");
                let bitwise =
                    !FLOAT32_ARITHMETIC.contains(&metric) || v.to_bits() == expected.to_bits();
                if !close(*v, expected, 1e-6) || !bitwise {
                    tally
                        .failed
                        .push(format!("{what}: expected {expected}, got {v:.17}"));
                    continue;
                }
            }
        }
        tally.passed += 1;
    }
    println!(
        "conformance torchmetrics float32: {} passed ({} value, \
         {errors} error reproduced), {} failed",
        tally.passed,
        tally.passed - errors,
        tally.failed.len()
    );
    for f in tally.failed.iter().take(15) {
        println!("  FAIL {f}");
    }
    assert!(tally.failed.is_empty());
}

/// torchmetrics' multilabel AUROC and AP (golden-torchmetrics-auc.json): every record through
/// the preset with its `average` and `dtype` on `f64` scores, at the file's 1e-6; float32
/// records also with `f32` scores and no `dtype`, bitwise the same. The sigmoid is torch's
/// AVX-512 kernel's (`sigmoid=avx512`), as on the machine that made the file: the records
/// where it differs from the one-element formula (`sigmoid_is_scalar_formula: false`) pass
/// too.
#[test]
fn conformance_with_torchmetrics_auroc_and_average_precision() {
    let passed = check_torchmetrics_file("golden-torchmetrics-auc.json", 1e-6, |record, params| {
        // The file was made on an AVX-512 machine (its environment says so).
        params.push(("sigmoid".into(), "avx512".into()));
        let float32 = record["params"]["dtype"] == "float32";
        float32.then(|| {
            params
                .iter()
                .filter(|(k, _)| k != "dtype")
                .cloned()
                .collect()
        })
    });
    assert_eq!(passed, 2340);
}

/// torchmetrics' `average="none"` ([`Preset::per_label`]): on every macro record of
/// golden-torchmetrics-auc.json, the labels' values average to the record (1e-6, as the macro
/// value itself) and to the preset's macro value (1e-15); the same from an accumulator fed
/// the rows in two batches, bit for bit. Row-wise and samples-averaged presets have no per-label values.
#[test]
fn per_label_values_average_to_the_macro_records() {
    let mut cases = cases();
    cases.extend(cases_in("cases-logits.json"));
    let golden = load("golden-torchmetrics-auc.json");
    let (mut checked, mut batched_checked) = (0, 0);
    for record in golden["results"].as_array().expect("results") {
        if record["params"]["average"] != "macro" || record.get("error").is_some() {
            continue;
        }
        let metric = record["metric"].as_str().expect("metric");
        let case = &cases[record["case"].as_str().expect("case")];
        let (mut params, _) = params(record);
        params.push(("sigmoid".into(), "avx512".into()));
        let preset =
            Preset::lookup(Convention::Torchmetrics, metric, &params, None).expect("preset");
        let y = RowMajor::new(&case.y_true, case.n, case.l).expect("y");
        let s = RowMajor::new(&case.y_score, case.n, case.l).expect("s");
        let values = preset.per_label(&y, &s, None).expect("per-label values");
        assert_eq!(values.len(), case.l);
        let mean = values.iter().sum::<f64>() / case.l as f64;
        let macro_value = preset.evaluate(&y, &s, None).expect("macro");
        let expected = number(&record["value"]).expect("value");
        assert!(
            close(mean, expected, 1e-6) && close(mean, macro_value, 1e-15),
            "{record}: {values:?}"
        );
        // In batches, with the one-element sigmoid (a vector kernel's value depends on the
        // batches: `Preset::depends_on_batching`).
        params.pop();
        let preset =
            Preset::lookup(Convention::Torchmetrics, metric, &params, None).expect("preset");
        let values = preset.per_label(&y, &s, None).expect("per-label values");
        let half = case.n / 2;
        let mut acc = preset.accumulator();
        let rows = |r: core::ops::Range<usize>| {
            let cells = r.start * case.l..r.end * case.l;
            let y = RowMajor::new(&case.y_true[cells.clone()], r.len(), case.l).expect("y");
            (
                y,
                RowMajor::new(&case.y_score[cells], r.len(), case.l).expect("s"),
            )
        };
        let (y0, s0) = rows(0..half);
        let (y1, s1) = rows(half..case.n);
        acc.update(&y0, &s0, None).expect("first batch");
        acc.update(&y1, &s1, None).expect("second batch");
        // Both batches decide the sigmoid as the whole input does, or are refused (no value).
        if let Ok(batched) = acc.per_label() {
            assert_eq!(batched, values, "{record}");
            batched_checked += 1;
        }
        checked += 1;
    }
    assert!(
        checked > 300 && batched_checked > 250,
        "{checked} {batched_checked}"
    );
    let row_wise = Preset::lookup(
        Convention::Sklearn,
        "coverage_error",
        Preset::NO_PARAMS,
        None,
    )
    .unwrap();
    let samples = Preset::lookup(
        Convention::Sklearn,
        "roc_auc_score",
        &[("average", "samples")],
        None,
    )
    .unwrap();
    for p in [row_wise, samples] {
        let got = p.per_label(&[[1, 0], [0, 1]], &[[0.5, 0.2], [0.1, 0.7]], None);
        assert_eq!(got, Err(rankmetrics::Error::NotLabelwise));
    }
}

/// torchmetrics' binary retrieval metrics (golden-torchmetrics-retrieval.json): every record
/// through the preset with `arithmetic=float32`, one query per row, on `f64` scores and on the
/// same scores as `f32`: torchmetrics' own `float32` value, bit for bit, or its error.
#[test]
fn conformance_with_torchmetrics_retrieval() {
    let passed = check_torchmetrics_file("golden-torchmetrics-retrieval.json", 0.0, |_, params| {
        // torch's float32 mean over the rows.
        params.push(("arithmetic".into(), "float32".into()));
        Some(params.clone())
    });
    assert_eq!(passed, 3165);
}

/// torchmetrics' retrieval modules (`RetrievalPrecision`, …, `RetrievalNormalizedDCG`, with
/// `empty_target_action="neg"` and the mean) on every case as one input whose `indexes` are the
/// row numbers: through [`Preset::evaluate_queries`], bit for bit the module's value
/// (`value_module` where torch's unstable sort of the indexes permuted a query's documents,
/// else `value`).
#[test]
fn conformance_with_torchmetrics_retrieval_modules() {
    use rankmetrics::torchmetrics::{EmptyTargetAction, QueryAggregation};
    let mut cases = cases();
    cases.extend(cases_in("cases-logits.json"));
    let mut records = Vec::new();
    for file in [
        "golden-torchmetrics-retrieval.json",
        "golden-torchmetrics.json",
    ] {
        let golden = load(file);
        let results = golden["results"].as_array().expect("results").clone();
        records.extend(results.into_iter().filter(|r| {
            r["metric"]
                .as_str()
                .is_some_and(|m| m.starts_with("retrieval_"))
                && r.get("error").is_none()
        }));
    }
    let (mut tally, mut permuted) = (Tally::default(), 0);
    for record in &records {
        let metric = record["metric"].as_str().expect("metric");
        let case = &cases[record["case"].as_str().expect("case")];
        let (mut params, _) = params(record);
        params.push(("arithmetic".into(), "float32".into()));
        let preset =
            Preset::lookup(Convention::Torchmetrics, metric, &params, None).expect("preset");
        let indexes: Vec<i64> = (0..case.n * case.l).map(|i| (i / case.l) as i64).collect();
        let got = preset.evaluate_queries(
            &indexes,
            &case.y_true,
            &case.y_score,
            EmptyTargetAction::Neg,
            QueryAggregation::Mean,
        );
        let module = record.get("value_module").and_then(number);
        permuted += usize::from(module.is_some());
        let expected = module.or_else(|| record.get("value").and_then(number));
        match (&got, expected) {
            (Ok(v), Some(e)) if v.to_bits() == e.to_bits() => tally.passed += 1,
            _ => tally.failed.push(format!(
                "{metric} {params:?} on {}: expected {expected:?}, got {got:?}",
                record["case"]
            )),
        }
    }
    println!(
        "conformance torchmetrics retrieval modules: {} passed ({permuted} permuted by the sort), {} failed",
        tally.passed,
        tally.failed.len()
    );
    for f in tally.failed.iter().take(15) {
        println!("  FAIL {f}");
    }
    assert!(tally.failed.is_empty());
    assert_eq!((tally.passed, permuted), (2925 + 456, 340));
}

/// Every record of the torchmetrics golden file `file` through the preset with the record's
/// parameters as `adjust` leaves them, on the case's `f64` scores: its value within `rel` (0:
/// to the bit), or its error. Where `adjust` also gives parameters for `f32` scores, the same
/// scores as `f32` must give the same bits. Returns the records passed.
fn check_torchmetrics_file(
    file: &str, rel: f64,
    adjust: impl Fn(&Value, &mut Vec<(String, String)>) -> Option<Vec<(String, String)>>,
) -> usize {
    let mut cases = cases();
    cases.extend(cases_in("cases-logits.json"));
    let golden = load(file);
    let (mut tally, mut errors) = (Tally::default(), 0);
    for record in golden["results"].as_array().expect("results") {
        let metric = record["metric"].as_str().expect("metric");
        let case = &cases[record["case"].as_str().expect("case")];
        let (mut params, _) = params(record);
        let f32_params = adjust(record, &mut params);
        let what = format!("torchmetrics {metric} {params:?} on {}", record["case"]);
        let got = evaluate(Convention::Torchmetrics, metric, &params, case, false);
        if let Some(f32_params) = f32_params {
            let scores: Vec<f32> = case.y_score.iter().map(|&x| x as f32).collect();
            let as_f32 = evaluate_scores(metric, &f32_params, case, &scores);
            if !same_bits(&as_f32, &got) {
                tally
                    .failed
                    .push(format!("{what}: f32 scores give {as_f32:?}, f64 {got:?}"));
                continue;
            }
        }
        let expected = record.get("value").and_then(number);
        match (record.get("error"), &got, expected) {
            (Some(_), Err(_), _) => errors += 1,
            (None, Ok(v), Some(e)) if rel == 0.0 && v.to_bits() == e.to_bits() => {}
            (None, Ok(v), Some(e)) if rel > 0.0 && close(*v, e, rel) => {}
            _ => {
                tally
                    .failed
                    .push(format!("{what}: expected {record}, got {got:?}"));
                continue;
            }
        }
        tally.passed += 1;
    }
    println!(
        "conformance {file}: {} passed ({} value, {errors} error reproduced), {} failed",
        tally.passed,
        tally.passed - errors,
        tally.failed.len()
    );
    for f in tally.failed.iter().take(15) {
        println!("  FAIL {f}");
    }
    assert!(tally.failed.is_empty());
    tally.passed
}
