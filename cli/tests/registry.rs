//! Every entry of the registry through the library and the command: the same bits on one input
//! with ties. The values are kept in tests/data/registry/values.json, which the Python and R
//! tests read to check their front doors against the same bits (`RANKMETRICS_BLESS=1` writes
//! the file anew after a deliberate change).

mod common;

use std::path::PathBuf;

use common::{run, Scratch};
use rankmetrics::registry::{Convention, ParamKind, Preset};
use serde_json::{json, Value};

/// Six samples, five labels; tied scores within rows and across them, a row with no relevant
/// label and one with every label relevant.
const Y_TRUE: [[u8; 5]; 6] = [
    [1, 0, 1, 0, 0],
    [0, 1, 0, 0, 1],
    [1, 1, 0, 1, 0],
    [0, 0, 0, 0, 0],
    [1, 1, 1, 1, 1],
    [0, 0, 1, 0, 1],
];
const Y_SCORE: [[f64; 5]; 6] = [
    [0.9, 0.5, 0.5, 0.1, 0.5],
    [0.2, 0.7, 0.7, 0.2, 0.4],
    [0.5, 0.5, 0.5, 0.5, 0.1],
    [0.3, 0.6, 0.3, 0.6, 0.9],
    [0.1, 0.2, 0.2, 0.8, 0.4],
    [0.7, 0.3, 0.7, 0.3, 0.6],
];

/// The value a required parameter is given (one inverse propensity a label).
fn required(key: &str) -> &'static str {
    assert_eq!(
        key, "inv_propensities",
        "a required parameter without a test value"
    );
    "1,2,3,1.5,2"
}

/// A metric of a convention with the parameters it is given.
type Case = (Convention, &'static str, Vec<(&'static str, &'static str)>);

/// Every entry of every convention, with the parameters it needs.
fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for convention in Convention::ALL {
        for entry in convention.entries() {
            let params = entry
                .params
                .iter()
                .filter(|p| p.kind == ParamKind::Numbers && p.default.is_none())
                .map(|p| (p.key, required(p.key)))
                .collect();
            cases.push((convention, entry.name, params));
        }
    }
    cases
}

/// A value as JSON: its bits (NaN has no JSON number) and, where finite, the number.
fn outcome(value: Result<f64, String>) -> Value {
    match value {
        Ok(v) => json!({"bits": format!("{:016x}", v.to_bits()), "value": v}),
        Err(e) => json!({"error": e}),
    }
}

fn values_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/registry/values.json")
}

#[test]
fn every_entry_gives_the_same_bits_through_the_library_and_the_command() {
    let scratch = Scratch::new("registry");
    let lines = |rows: Vec<String>| rows.join("\n") + "\n";
    let y_true = scratch.file(
        "y_true.csv",
        lines(
            Y_TRUE
                .iter()
                .map(|r| r.map(|v| v.to_string()).join(","))
                .collect(),
        ),
    );
    let y_score = scratch.file(
        "y_score.csv",
        lines(
            Y_SCORE
                .iter()
                .map(|r| r.map(|v| format!("{v:?}")).join(","))
                .collect(),
        ),
    );
    let mut records = Vec::new();
    for (convention, metric, params) in cases() {
        let preset = Preset::lookup(convention, metric, &params, None).unwrap();
        let library = preset
            .evaluate(&Y_TRUE, &Y_SCORE, None)
            .map_err(|e| e.to_string());
        let mut args = vec![
            "eval".to_string(),
            "--quiet".into(),
            "--format".into(),
            "json".into(),
            "--convention".into(),
            convention.name().into(),
            "--metric".into(),
            metric.into(),
            "--y-true".into(),
            y_true.display().to_string(),
            "--y-score".into(),
            y_score.display().to_string(),
        ];
        for (k, v) in &params {
            args.extend(["--param".to_string(), format!("{k}={v}")]);
        }
        let r = run(&args);
        let (name, command) = r.outcomes().pop().unwrap();
        assert_eq!(name, metric);
        let command = command.map(|v| v.as_f64().unwrap_or(f64::NAN));
        match (&library, &command) {
            (Ok(a), Ok(b)) => assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "{convention} {metric}: library {a:?}, command {b:?}"
            ),
            (Err(_), Err(_)) => {}
            _ => panic!("{convention} {metric}: library {library:?}, command {command:?}"),
        }
        let params: serde_json::Map<String, Value> = params
            .iter()
            .map(|(k, v)| ((*k).to_string(), json!(v)))
            .collect();
        records.push(json!({
            "convention": convention.name(),
            "metric": metric,
            "params": params,
            "result": outcome(library),
        }));
    }
    let doc = json!({"y_true": Y_TRUE, "y_score": Y_SCORE, "cases": records});
    let text = serde_json::to_string_pretty(&doc).unwrap() + "\n";
    let path = values_file();
    if std::env::var_os("RANKMETRICS_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == text,
        "{} differs from the library's values (RANKMETRICS_BLESS=1 rewrites it)",
        path.display()
    );
}

#[test]
fn a_list_parameter_reads_from_a_file() {
    let scratch = Scratch::new("registry-file");
    let props = scratch.file("props.txt", "1 2\n3,1.5\n\n2\n");
    let eval = |value: String| {
        let args = [
            "eval",
            "--quiet",
            "--format",
            "json",
            "--metric",
            "psndcg_at_k",
        ];
        let r = run(&[&args[..], &["--param", &value]].concat());
        r.outcomes().pop().unwrap().1.unwrap()
    };
    let from_file = eval(format!("inv_propensities=@{}", props.display()));
    assert_eq!(from_file, eval("inv_propensities=1,2,3,1.5,2".into()));
    let missing = props.with_file_name("absent.txt");
    let r = run(&[
        "eval",
        "--metric",
        "psndcg_at_k",
        "--param",
        &format!("inv_propensities=@{}", missing.display()),
    ]);
    assert!(r.status != 0 && r.stderr.contains("cannot read"), "{r:?}");
}
