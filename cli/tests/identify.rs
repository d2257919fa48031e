//! `rankmetrics identify`: every golden record's toolkit value, rounded to 4 decimals and
//! searched on the record's case written as CSV files, lists that toolkit's metric with the
//! record's parameters; and the command's formats and errors.

mod common;

use common::{run, Scratch};
use serde_json::Value;

#[path = "../../tests/common/golden.rs"]
mod golden;
#[path = "../../tests/common/identify_golden.rs"]
mod identify_golden;
use identify_golden::{check_every_record, rounded, Found};

/// A matrix as CSV, every number in its shortest round-trip form.
fn csv(data: &[f64], cols: usize) -> String {
    let mut out = String::new();
    for row in data.chunks(cols.max(1)) {
        let cells: Vec<String> = row.iter().map(|x| format!("{x}")).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// The identifications of a JSON output: the document itself for one value, its
/// `identifications` for several.
fn identifications(doc: &Value) -> Vec<Value> {
    match doc.get("identifications") {
        Some(list) => list.as_array().expect("a list").clone(),
        None => vec![doc.clone()],
    }
}

fn found(id: &Value) -> Vec<Found> {
    let matches = id["matches"].as_array().expect("matches");
    matches
        .iter()
        .map(|m| Found {
            convention: m["convention"].as_str().expect("convention").to_string(),
            metric: m["metric"].as_str().expect("metric").to_string(),
            params: m["params"]
                .as_object()
                .expect("params")
                .iter()
                .map(|(k, v)| {
                    let v = match v {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    (k.clone(), v)
                })
                .collect(),
        })
        .collect()
}

#[test]
fn identify_finds_the_convention_of_every_golden_record() {
    let scratch = Scratch::new("identify-golden");
    let mut runs = 0;
    let tally = check_every_record(|case, weighted, values| {
        runs += 1;
        let y = scratch.file("y_true.csv", csv(&case.y_true, case.l));
        let s = scratch.file("y_score.csv", csv(&case.y_score, case.l));
        let mut args: Vec<String> = ["identify", "-q", "--no-header", "--format", "json"]
            .map(String::from)
            .to_vec();
        args.extend(["--y-true".into(), y.display().to_string()]);
        args.extend(["--y-score".into(), s.display().to_string()]);
        if let (true, Some(w)) = (weighted, &case.weights) {
            let w = scratch.file("weights.csv", csv(w, 1));
            args.extend(["--sample-weight".into(), w.display().to_string()]);
        }
        args.push("--value".into());
        args.extend(values.iter().map(|&v| rounded(v)));
        let r = run(&args);
        assert!(r.status <= 1, "{args:?}: {}", r.stderr);
        let doc: Value = serde_json::from_str(&r.stdout).expect("JSON");
        identifications(&doc).iter().map(found).collect()
    });
    assert!(tally.values().all(|c| c[0] > 0) && tally.len() == 7 && runs > 100);
}

#[test]
fn the_table_lists_the_matches_and_where_they_sit() {
    let r = run(&["identify", "-q", "--value", "0.8542", "--metric", "lrap"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "0.8542 (±0.00005), lrap: 2 of 30 candidates give it"
    );
    assert!(lines[2].starts_with("rankmetrics  average_precision") && lines[2].contains("last"));
    assert!(lines[3].starts_with("mldr         average_precision  ties_method=last"));
    assert_eq!(
        lines[4],
        "over every order of the tied scores, rankmetrics average_precision lies in \
         [0.822917, 0.937500], expected 0.878472"
    );
}

#[test]
fn json_gives_matches_interval_and_expected() {
    let r = run(&["identify", "-q", "--value", "0.0833", "--format", "json"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    let matches = doc["matches"].as_array().unwrap();
    assert!(matches.iter().any(|m| m["convention"] == "mulan"
        && m["metric"] == "RankingLoss"
        && m["params"]["weka"] == 3.7
        && m["ties"].is_null()));
    assert!(matches
        .iter()
        .any(|m| m["convention"] == "rankmetrics" && m["ties"] == "expected"));
    // Every match is a ranking loss: the interval and expected value are theirs.
    assert_eq!(doc["interval"][0].as_f64(), Some(0.03125));
    assert_eq!(doc["expected"].as_f64(), Some(1.0 / 12.0));
    assert_eq!(doc["provenance"]["rankmetrics"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn no_match_shows_the_closest_and_exits_1() {
    let r = run(&[
        "identify",
        "-q",
        "--value",
        "0.5125",
        "--metric",
        "ranking_loss",
    ]);
    assert_eq!(r.status, 1);
    assert!(
        r.stdout
            .contains("no candidate of 14 gives it\nthe closest:\n"),
        "{}",
        r.stdout
    );
}

#[test]
fn bad_values_and_families_are_refused_with_status_2() {
    let r = run(&["identify", "--value", "0,85"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.contains("cannot read the reported value \"0,85\""),
        "{}",
        r.stderr
    );
    let r = run(&["identify", "--value", "0.85", "--metric", "lrapp"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr
            .contains("--metric: unknown metric family \"lrapp\""),
        "{}",
        r.stderr
    );
    let r = run(&["identify", "--value", "0.85", "--tolerance", "-1"]);
    assert_eq!(r.status, 2);
    let r = run(&["identify"]);
    assert_eq!(r.status, 2);
}
