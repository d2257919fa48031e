//! `rankmetrics eval` run as a process: every error class, the built-in example, the output
//! formats, and the golden conformance records evaluated through the command.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use common::{csv_fields, gzip, run, Run, Scratch};

use rankmetrics::registry::{Convention, Preset};
use rstest::rstest;
use serde_json::Value;

/// The provenance columns every CSV output ends with.
const PROVENANCE_COLUMNS: &str = "rankmetrics_version,reproduces,y_true,y_true_shape,\
     y_true_sha256,y_score,y_score_shape,y_score_sha256,sample_weight,sample_weight_shape,\
     sample_weight_sha256";

/// A CSV output without its provenance columns (the last eleven), as field lists.
fn csv_values(csv: &str) -> Vec<Vec<String>> {
    let width = PROVENANCE_COLUMNS.split(',').count();
    csv.lines()
        .map(|l| {
            let mut fields = csv_fields(l);
            fields.truncate(fields.len() - width);
            fields
        })
        .collect()
}

/// Writes `y_true` and `y_score` and runs `eval --format json` on them with `extra` arguments.
fn eval(scratch: &Scratch, y_true: &str, y_score: &str, extra: &[&str]) -> Run {
    let t = scratch.file("y_true.txt", y_true);
    let s = scratch.file("y_score.csv", y_score);
    eval_files(&t, &s, extra)
}

/// Runs `eval --format json` on the files `y_true` and `y_score` with `extra` arguments.
fn eval_files(y_true: &Path, y_score: &Path, extra: &[&str]) -> Run {
    let mut args: Vec<&OsStr> = ["eval", "--format", "json", "--y-true"]
        .map(OsStr::new)
        .into();
    args.extend([
        y_true.as_os_str(),
        "--y-score".as_ref(),
        y_score.as_os_str(),
    ]);
    args.extend(extra.iter().map(OsStr::new));
    run(&args)
}

/// Asserts status 1 and that every result is an error containing `needle`.
fn assert_all_errors(run: &Run, needle: &str) {
    assert_eq!(run.status, 1, "{run:?}");
    let outcomes = run.outcomes();
    assert!(!outcomes.is_empty());
    for (metric, outcome) in outcomes {
        match outcome {
            Err(e) => assert!(e.contains(needle), "{metric}: {e:?} lacks {needle:?}"),
            Ok(v) => panic!("{metric}: expected an error, got {v}"),
        }
    }
}

const DOC_TRUE: &str = "1 0 0\n0 0 1\n";
const DOC_SCORE: &str = "0.75, 0.5, 1\n1, 0.2, 0.1\n";
/// `sha256sum` of files holding `DOC_TRUE` and `DOC_SCORE`.
const DOC_TRUE_SHA256: &str = "81c5a8111dc198634620dcab42e46aaf875c23aad1a39a7b5685c80e2bc70447";
const DOC_SCORE_SHA256: &str = "ac721e33f3ab330d9dea83c1bc5ce5f97bf68c06c43050aedef86e0bb52df185";

#[test]
fn builtin_example_runs_for_every_convention() {
    for convention in Convention::ALL {
        let r = run(&[
            "eval",
            "--convention",
            convention.name(),
            "--format",
            "json",
        ]);
        assert_eq!(r.status, 0, "{r:?}");
        assert!(r.stderr.contains("built-in example"), "{r:?}");
        assert!(r.stderr.contains("--y-true FILE --y-score FILE"), "{r:?}");
        let outcomes = r.outcomes();
        let names: Vec<&str> = outcomes.iter().map(|(m, _)| m.as_str()).collect();
        let default_run = convention.entries().iter().filter(|e| e.in_default_run);
        assert_eq!(names, default_run.map(|e| e.name).collect::<Vec<_>>());
        for (metric, outcome) in outcomes {
            let v = outcome.unwrap().as_f64();
            assert!(
                v.is_some_and(f64::is_finite),
                "{convention} {metric}: {v:?}"
            );
        }
    }
    // Defaults: convention rankmetrics, table format.
    let r = run::<&str>(&["eval"]);
    assert_eq!(r.status, 0, "{r:?}");
    assert!(r.stdout.starts_with("convention "), "{r:?}");
    assert_eq!(
        r.stdout.lines().count(),
        1 + Convention::Rankmetrics
            .entries()
            .iter()
            .filter(|e| e.in_default_run)
            .count()
    );
    assert!(r
        .stdout
        .lines()
        .skip(1)
        .all(|l| l.starts_with("rankmetrics  ")));
}

#[test]
fn help_lists_conventions_and_metrics() {
    let top = run(&["--help"]);
    assert_eq!(top.status, 0, "{top:?}");
    assert!(top.stdout.contains("eval"), "{top:?}");
    let r = run(&["eval", "--help"]);
    assert_eq!(r.status, 0, "{r:?}");
    for convention in Convention::ALL {
        assert!(
            r.stdout.contains(&format!("  {convention}: ")),
            "{convention}"
        );
        for metric in convention.metric_names() {
            assert!(r.stdout.contains(&format!("    {metric}")), "{metric}");
        }
    }
    for topic in [
        "--y-true",
        "--param",
        "--ties",
        "Exit status",
        "ties_method",
        "weka",
    ] {
        assert!(r.stdout.contains(topic), "{topic}");
    }
}

#[test]
fn sklearn_documentation_example() {
    let s = Scratch::new("doc");
    let r = eval(&s, DOC_TRUE, DOC_SCORE, &["--convention", "sklearn"]);
    assert_eq!(r.status, 0, "{r:?}");
    let results = r.results();
    assert_eq!(results[0]["metric"], "coverage_error");
    assert_eq!(results[0]["value"], 2.5);
    assert_eq!(
        results[0]["params"],
        serde_json::json!({"sample_weight": false})
    );
    let lrap = results[1]["value"].as_f64().unwrap();
    assert!((lrap - 5.0 / 12.0).abs() < 1e-15, "{lrap}");
    assert_eq!(results[2]["value"], 0.75);

    let table = run(&[
        "eval",
        "--convention",
        "sklearn",
        "--metric",
        "coverage_error",
        "--y-true",
        s.dir.join("y_true.txt").to_str().unwrap(),
        "--y-score",
        s.dir.join("y_score.csv").to_str().unwrap(),
    ]);
    assert_eq!(table.status, 0, "{table:?}");
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{table:?}");
    assert_eq!(
        lines[1],
        "sklearn     coverage_error  sample_weight=false  2.5"
    );
    // Columns are aligned: the header's "value" sits above the value.
    assert_eq!(lines[0].find("value"), lines[1].find("2.5"));
}

#[test]
fn separators_line_ends_and_trailing_blank_lines_do_not_matter() {
    let s = Scratch::new("formats");
    let plain = eval(&s, DOC_TRUE, DOC_SCORE, &["--convention", "mulan"]);
    let other = eval(
        &s,
        "\u{feff}1,0,0\r\n0,0,1\r\n\r\n",
        "0.75\t0.5  1\n1 0.2 0.1\n\n \n",
        &["--convention", "mulan"],
    );
    assert_eq!(plain.status, 0, "{plain:?}");
    assert_eq!(plain.json_values(), other.json_values());
}

#[test]
fn shape_mismatch_is_a_result_error() {
    let s = Scratch::new("shape");
    let r = eval(&s, DOC_TRUE, "1 2 3 4\n5 6 7 8\n", &[]);
    assert_all_errors(
        &r,
        "y_true has shape (2, 3) (rows, labels) but y_score has shape (2, 4)",
    );
}

#[test]
fn empty_and_blank_files_have_no_samples() {
    let s = Scratch::new("empty");
    // Streamed, and with every row kept (mldr's AUCs keep no runs).
    for convention in ["sklearn", "mldr"] {
        assert_all_errors(
            &eval(&s, "", "", &["--convention", convention]),
            "no samples",
        );
    }
    // A line without numbers is a blank line, so a file cannot state zero labels per sample:
    // blank lines only trail the data, and a file of them has zero samples.
    assert_all_errors(&eval(&s, "\n\n", " \n\t\n", &[]), "no samples");
}

#[test]
fn non_finite_scores_are_reported_with_row_and_column() {
    let s = Scratch::new("nan");
    let r = eval(&s, DOC_TRUE, "0.1 0.2 0.3\n0.4 NaN 0.6\n", &[]);
    assert_all_errors(&r, "y_score at row 1, column 1 is NaN, not a finite number");
    let r = eval(
        &s,
        DOC_TRUE,
        "0.1 0.2 -inf\n0.4 0.5 0.6\n",
        &["--convention", "mldr"],
    );
    assert_all_errors(
        &r,
        "y_score at row 0, column 2 is -inf, not a finite number",
    );
}

#[test]
fn torchmetrics_rejects_labels_other_than_0_and_1() {
    let s = Scratch::new("labels");
    let r = eval(
        &s,
        "1 0 0\n0 2 1\n",
        DOC_SCORE,
        &[
            "--convention",
            "torchmetrics",
            "--metric",
            "multilabel_coverage_error",
            "--metric",
            "multilabel_ranking_average_precision",
            "--metric",
            "multilabel_ranking_loss",
        ],
    );
    assert_all_errors(&r, "y_true at row 1, column 1 is 2; expected 0 or 1");
}

#[test]
fn rankmetrics_takes_0_1_labels_unless_told_non_zero_is_relevant() {
    let s = Scratch::new("signed");
    let signed = "1,-1,-1\n-1,-1,1\n";
    let own = ["--metric", "coverage", "--metric", "average_precision"];
    let r = eval(&s, signed, DOC_SCORE, &own);
    // The cell, and the parameter that accepts it.
    assert_all_errors(&r, "y_true at row 0, column 1 is -1; expected 0 or 1");
    assert_all_errors(&r, "--param labels=nonzero");
    let r = eval(
        &s,
        signed,
        DOC_SCORE,
        &[&own[..], &["--param", "labels=nonzero"]].concat(),
    );
    assert_eq!(r.status, 0, "{r:?}");
    let outcomes = r.outcomes();
    assert_eq!(outcomes[1], ("average_precision".into(), Ok(1.0.into())));
    assert!(r.results()[0]["params"]["labels"] == "nonzero", "{r:?}");
    // The table says it too; scikit-learn's rule (any two integral values) is unchanged.
    let t = s.file("signed.csv", signed);
    let sc = s.file("scores.csv", DOC_SCORE);
    let table = run(&[
        "eval".as_ref(),
        "--y-true".as_ref(),
        t.as_os_str(),
        "--y-score".as_ref(),
        sc.as_os_str(),
        "--metric".as_ref(),
        "coverage".as_ref(),
    ]);
    assert_eq!(table.status, 1, "{table:?}");
    assert!(table.stdout.contains("--param labels=nonzero"), "{table:?}");
    let r = eval(
        &s,
        signed,
        DOC_SCORE,
        &["--convention", "sklearn", "--metric", "coverage_error"],
    );
    assert_eq!(r.status, 0, "{r:?}");
}

#[test]
fn sklearn_coverage_error_needs_two_labels() {
    let s = Scratch::new("onelabel");
    let r = eval(&s, "1\n0\n", "0.5\n0.2\n", &["--convention", "sklearn"]);
    assert_eq!(r.status, 1, "{r:?}");
    let outcomes: HashMap<_, _> = r.outcomes().into_iter().collect();
    let coverage = outcomes["coverage_error"].as_ref().unwrap_err();
    assert!(
        coverage.contains("at least 2 labels per sample, found 1"),
        "{coverage}"
    );
    // LRAP takes a single column, and its results are still printed.
    assert!(outcomes["label_ranking_average_precision_score"].is_ok());
}

#[test]
fn bad_weights_are_result_errors() {
    let s = Scratch::new("weights");
    for (weights, needle) in [
        ("1\n2\n3\n", "sample_weight has 3 entries for 2 samples"),
        (
            "1\n-1\n",
            "sample_weight[1] is -1; weights must be finite and non-negative",
        ),
        ("nan\n1\n", "sample_weight[0] is NaN"),
    ] {
        let w = s.file("w.txt", weights);
        let r = eval(
            &s,
            DOC_TRUE,
            DOC_SCORE,
            &["--sample-weight", w.to_str().unwrap()],
        );
        assert_all_errors(&r, needle);
    }
}

#[test]
fn zero_total_weight_errors_or_gives_nan_as_sklearn_does() {
    let s = Scratch::new("zeroweight");
    let w = s.file("w.txt", "0\n0\n");
    let w = w.to_str().unwrap();
    let common = ["--convention", "sklearn", "--sample-weight", w, "--metric"];
    let r = eval(
        &s,
        DOC_TRUE,
        DOC_SCORE,
        &[&common[..], &["coverage_error"]].concat(),
    );
    assert_all_errors(&r, "sample weights sum to zero");
    let lrap = ["label_ranking_average_precision_score"];
    let r = eval(&s, DOC_TRUE, DOC_SCORE, &[&common[..], &lrap].concat());
    assert_eq!(r.status, 0, "{r:?}");
    let results = r.results();
    assert_eq!(results[0]["value"], "nan");
    assert_eq!(results[0]["params"]["sample_weight"], true);
}

#[test]
fn weight_file_with_two_numbers_on_a_line_is_a_file_error() {
    let s = Scratch::new("weightfile");
    let w = s.file("w.txt", "1\n2 3\n");
    let r = eval(
        &s,
        DOC_TRUE,
        DOC_SCORE,
        &["--sample-weight", w.to_str().unwrap()],
    );
    r.assert_file_error(&w, ":2:2: expected 1 number per line, found 2");
}

#[test]
fn unusable_arguments_exit_2() {
    let s = Scratch::new("args");
    let cases: [(&[&str], &str); 9] = [
        (
            &["--metric", "hamming_loss"],
            "rankmetrics has no metric \"hamming_loss\"",
        ),
        (
            &["--convention", "sklearn", "--metric", "coverage"],
            "sklearn has no metric",
        ),
        (
            &["--param", "top_k=3"],
            "no requested metric of rankmetrics takes \"top_k\"",
        ),
        // ties_method is a parameter of mldr's coverage, not of its one_error.
        (
            &[
                "--convention",
                "mldr",
                "--metric",
                "one_error",
                "--param",
                "ties_method=min",
            ],
            "takes \"ties_method\"",
        ),
        (
            &["--convention", "mldr", "--param", "ties_method=dense"],
            "parameter ties_method=\"dense\"",
        ),
        (
            &["--convention", "mulan", "--param", "weka=4"],
            "parameter weka=\"4\"",
        ),
        (
            &["--param", "one_based=maybe"],
            "parameter one_based=\"maybe\": expected true or false",
        ),
        (
            &["--ties", "dense"],
            "invalid value 'dense' for '--ties <POLICY>'",
        ),
        (
            &["--convention", "weka"],
            "invalid value 'weka' for '--convention <NAME>'",
        ),
    ];
    for (extra, needle) in cases {
        eval(&s, DOC_TRUE, DOC_SCORE, extra).assert_unusable(needle);
    }
    let t = s.file("t.txt", DOC_TRUE);
    let t = t.to_str().unwrap();
    run(&["eval", "--y-true", t]).assert_unusable("--y-score <FILE>");
    run(&["eval", "--y-score", t]).assert_unusable("--y-true <FILE>");
    run(&["eval", "--sample-weight", t]).assert_unusable("--y-true <FILE>");
}

#[test]
fn unparsable_files_name_file_line_and_column() {
    let s = Scratch::new("parse");
    let cases = [
        (
            DOC_TRUE,
            "0.1,0.2,0.3\n0.4,0.5,n/a\n",
            "y_score.csv",
            ":2:3: expected a number, found \"n/a\"",
        ),
        (
            "1 0 0\n0 x 1\n",
            DOC_SCORE,
            "y_true.txt",
            ":2:2: expected a number, found \"x\"",
        ),
        (
            DOC_TRUE,
            "0.1 0.2 0.3\n0.4 0.5\n",
            "y_score.csv",
            ":2:3: expected 3 numbers as on line 1, found 2",
        ),
        // A blank line inside the data would shift every later sample.
        (
            "1 0 0\n\n0 0 1\n",
            DOC_SCORE,
            "y_true.txt",
            ":2:1: blank line among the samples",
        ),
    ];
    for (y_true, y_score, file, located) in cases {
        eval(&s, y_true, y_score, &[]).assert_file_error(&s.dir.join(file), located);
    }
}

#[test]
fn missing_and_non_text_files_exit_2() {
    let s = Scratch::new("missing");
    let t = s.file("t.txt", DOC_TRUE);
    let absent = s.dir.join("absent.csv");
    eval_files(&t, &absent, &[]).assert_file_error(&absent, ": cannot read: ");
    let binary = s.file("binary.csv", b"0.1 0.2 0.3\n\xff\xfe 1 2\n");
    eval_files(&t, &binary, &[]).assert_file_error(&binary, ": line 2: not UTF-8 text");
}

#[test]
fn params_and_ties_apply_to_every_metric_that_takes_them() {
    let s = Scratch::new("params");
    // One row, labels 0 and 1 tie; label 0 is relevant.
    let (t, sc) = ("1 0 0\n", "0.5 0.5 0.1\n");
    let mldr = [
        "--convention",
        "mldr",
        "--metric",
        "coverage",
        "--metric",
        "one_error",
        "--metric",
        "average_precision",
    ];
    let r = eval(
        &s,
        t,
        sc,
        &[&mldr[..], &["--param", "ties_method=first"]].concat(),
    );
    assert_eq!(r.status, 0, "{r:?}");
    let results = r.results();
    assert_eq!(
        results[0]["params"],
        serde_json::json!({"ties_method": "first"})
    );
    assert_eq!(results[0]["value"], 0.0);
    assert_eq!(results[1]["params"], serde_json::json!({}));
    assert_eq!(
        results[2]["params"],
        serde_json::json!({"ties_method": "first"})
    );
    assert_eq!(results[2]["value"], 1.0);
    // The default, last, puts label 1 first.
    let r = eval(&s, t, sc, &mldr);
    assert_eq!(r.results()[0]["value"], 1.0);
    assert_eq!(r.results()[2]["value"], 0.5);

    let r = eval(&s, t, sc, &["--convention", "sklearn", "--ties", "min"]);
    assert_eq!(r.status, 0, "{r:?}");
    let results = r.results();
    assert_eq!(
        results[0]["params"],
        serde_json::json!({"ties": "min", "sample_weight": false})
    );
    assert_eq!(results[0]["value"], 1.0); // sklearn counts ranks from 1
    assert_eq!(results[2]["value"], 0.0);

    let r = eval(
        &s,
        t,
        sc,
        &["--metric", "coverage", "--param", "one_based=true"],
    );
    assert_eq!(r.results()[0]["params"]["one_based"], true);
    assert_eq!(r.results()[0]["value"], 2.0); // max rank of the tie group
}

// ---------------------------------------------------------------------------------------------
// Conformance: the golden records, evaluated through the command.

/// A case of cases.json, written to files.
struct CaseFiles {
    labels: usize,
    y_true: PathBuf,
    y_score: PathBuf,
    weights: Option<PathBuf>,
    /// torchmetrics' preds dtype that the scores file implies: "float64" for text, "float32"
    /// for a float32 `.npy` file.
    dtype: &'static str,
}

/// How the conformance run writes a case's matrices.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Written {
    /// Text: CSV scores, whitespace-separated labels, weights one per line.
    Text,
    /// Labels and scores as `<f4` `.npy` files, the scores rounded to float32 as a float32
    /// model holds them (golden-torchmetrics-f32.json); no weights.
    Float32Npy,
}

/// Writes every case of cases.json and cases-logits.json into `scratch`: labels
/// whitespace-separated, scores as CSV, numbers in Rust's shortest round-trip form.
fn write_cases(scratch: &Scratch) -> HashMap<String, CaseFiles> {
    let mut cases = HashMap::new();
    for file in ["cases.json", "cases-logits.json"] {
        let text = std::fs::read_to_string(data_dir().join(file)).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        write_text_cases(scratch, &doc, &mut cases);
    }
    cases
}

/// Writes the cases of `doc` into `scratch` as text files, into `cases`.
fn write_text_cases(scratch: &Scratch, doc: &Value, cases: &mut HashMap<String, CaseFiles>) {
    let matrix = |rows: &Value, sep: &str| -> String {
        rows.as_array()
            .unwrap()
            .iter()
            .map(|row| {
                let cells: Vec<String> = row
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| format!("{:?}", x.as_f64().unwrap()))
                    .collect();
                cells.join(sep) + "\n"
            })
            .collect()
    };
    for case in doc["cases"].as_array().unwrap() {
        let i = cases.len();
        let id = case["id"].as_str().unwrap().to_string();
        let weights = match &case["sample_weight"] {
            Value::Null => None,
            w => Some(scratch.file(&format!("{i}-w.txt"), matrix(&wrap_rows(w), ""))),
        };
        cases.insert(
            id,
            CaseFiles {
                labels: case["y_true"][0].as_array().unwrap().len(),
                y_true: scratch.file(&format!("{i}-true.txt"), matrix(&case["y_true"], " ")),
                y_score: scratch.file(&format!("{i}-score.csv"), matrix(&case["y_score"], ",")),
                weights,
                dtype: "float64",
            },
        );
    }
}

/// The rows of a JSON matrix as float32 values, and its shape.
fn f32_matrix(rows: &Value) -> (Vec<f32>, usize, usize) {
    let rows = rows.as_array().unwrap();
    let values: Vec<f32> = rows
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .map(|x| x.as_f64().unwrap() as f32)
        .collect();
    let cols = rows.first().map_or(0, |r| r.as_array().unwrap().len());
    (values, rows.len(), cols)
}

/// A C-order `<f4` `.npy` file of `values` (`rows` x `cols`).
fn f4_npy(values: &[f32], rows: usize, cols: usize) -> Vec<u8> {
    let data: Vec<u8> = values.iter().flat_map(|x| x.to_le_bytes()).collect();
    npy("<f4", false, &format!("({rows}, {cols})"), &data)
}

/// Writes every case of cases.json and cases-logits.json into `scratch` as `<f4` `.npy`
/// files: the scores rounded to float32, as golden-torchmetrics-f32.json's generator passed
/// them to torch (a score beyond float32's range becomes inf; no golden record uses one).
fn write_f32_cases(scratch: &Scratch) -> HashMap<String, CaseFiles> {
    let mut cases = HashMap::new();
    for file in ["cases.json", "cases-logits.json"] {
        let text = std::fs::read_to_string(data_dir().join(file)).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        for case in doc["cases"].as_array().unwrap() {
            let id = case["id"].as_str().unwrap().to_string();
            let (t, rows, cols) = f32_matrix(&case["y_true"]);
            let (s, _, _) = f32_matrix(&case["y_score"]);
            let i = cases.len();
            let files = CaseFiles {
                labels: cols,
                y_true: scratch.file(&format!("{i}-true.npy"), f4_npy(&t, rows, cols)),
                y_score: scratch.file(&format!("{i}-score.npy"), f4_npy(&s, rows, cols)),
                weights: None,
                dtype: "float32",
            };
            cases.insert(id, files);
        }
    }
    cases
}

/// `[a, b]` as the one-column matrix `[[a], [b]]`.
fn wrap_rows(v: &Value) -> Value {
    Value::Array(
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| Value::Array(vec![x.clone()]))
            .collect(),
    )
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/conformance")
}

/// What the golden record says the command must print for one metric.
#[derive(Debug, Clone)]
enum Expected {
    /// A number within `rel` relative error (exact when it is 0).
    Value { value: f64, rel: f64 },
    /// "nan", "inf" or "-inf".
    Literal(String),
    /// An error.
    Error,
    /// mldr's "subscript out of bounds" on one label: a bug of mldr; we give a value.
    AnyValue,
    /// scikit-learn's `ignore_ties` result depends on NumPy's unspecified argsort tie order:
    /// a number in the exact range over all tie orders.
    Within { lo: f64, hi: f64 },
}

/// One invocation: the case, the parameters, and whether the case's weights are passed.
type GroupKey = (String, Vec<(String, String)>, bool);

/// The metrics of one invocation, with what each must print.
type Group = Vec<(String, Expected)>;

/// The command-line form of a JSON parameter value; `None` for null (omitted).
fn param_text(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(format!("{}", n.as_f64().unwrap())),
        Value::String(s) => Some(s.clone()),
        other => panic!("unexpected parameter value {other}"),
    }
}

fn expected_value(v: &Value, rel: f64) -> Expected {
    match v {
        Value::String(s) => Expected::Literal(s.clone()),
        v => Expected::Value {
            value: v.as_f64().unwrap(),
            rel,
        },
    }
}

/// torchmetrics' metrics whose `float32` arithmetic the presets follow to the bit with
/// `arithmetic=float32`.
const FLOAT32_ARITHMETIC: [&str; 6] = [
    "multilabel_ranking_average_precision",
    "retrieval_normalized_dcg",
    "retrieval_precision",
    "retrieval_recall",
    "retrieval_average_precision",
    "retrieval_reciprocal_rank",
];

/// The expectation a golden record sets, under the tolerances of conformance/README.md.
fn expectation(toolkit: Convention, record: &Value) -> Expected {
    if let Some(error) = record.get("error") {
        return if toolkit == Convention::Mldr && error == "subscript out of bounds" {
            Expected::AnyValue
        } else {
            Expected::Error
        };
    }
    match toolkit {
        Convention::Sklearn if record["tie_order_dependent"] == Value::Bool(true) => {
            let range = record["range"].as_array().unwrap();
            Expected::Within {
                lo: range[0].as_f64().unwrap(),
                hi: range[1].as_f64().unwrap(),
            }
        }
        Convention::Sklearn => expected_value(&record["value"], 1e-12),
        // torch's argsort order is followed: its own float32 output, not `value_f64`, which
        // assumed a stable sort.
        Convention::Torchmetrics if record["tie_order_dependent"] == Value::Bool(true) => {
            expected_value(&record["value"], 1e-6)
        }
        // Its float32 arithmetic is followed: its own output, to the bit.
        Convention::Torchmetrics
            if FLOAT32_ARITHMETIC.contains(&record["metric"].as_str().unwrap_or_default()) =>
        {
            expected_value(&record["value"], 0.0)
        }
        Convention::Torchmetrics => match record.get("value_f64") {
            Some(v) => expected_value(v, 1e-12),
            None => expected_value(&record["value"], 1e-6),
        },
        _ => expected_value(&record["value"], 1e-15),
    }
}

/// Groups the records of `toolkit`'s golden file `golden` that the registry knows; returns
/// the groups and the number of records skipped (metrics not in the registry).
fn golden_groups(toolkit: Convention, golden: &str) -> (BTreeMap<GroupKey, Group>, usize) {
    let path = data_dir().join(golden);
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut groups: BTreeMap<GroupKey, Group> = BTreeMap::new();
    let mut skipped = 0;
    for record in doc["results"].as_array().unwrap() {
        let metric = record["metric"].as_str().unwrap();
        if !toolkit.metric_names().contains(&metric) {
            skipped += 1;
            continue;
        }
        let mut weighted = false;
        let mut params = Vec::new();
        for (key, value) in record["params"].as_object().unwrap() {
            if key == "sample_weight" {
                weighted = value.as_bool().unwrap();
            } else if let Some(text) = param_text(value) {
                params.push((key.clone(), text));
            }
        }
        weighted &= record.get("sample_weight_ignored") != Some(&Value::Bool(true));
        // The sigmoid as torch computed it where the file was made (its AVX-512 kernel).
        if record.get("sigmoid_is_scalar_formula").is_some() {
            params.push(("sigmoid".into(), "avx512".into()));
        }
        // torchmetrics' LRAP, NDCG and retrieval means in its float32 arithmetic.
        if toolkit == Convention::Torchmetrics && FLOAT32_ARITHMETIC.contains(&metric) {
            params.push(("arithmetic".into(), "float32".into()));
        }
        let case = record["case"].as_str().unwrap().to_string();
        let expected = expectation(toolkit, record);
        groups
            .entry((case.clone(), params.clone(), weighted))
            .or_default()
            .push((metric.to_string(), expected));
        // MULAN built against Weka 3.9 ties only exactly equal scores.
        if let Some(v) = record.get("value_weka39") {
            params.push(("weka".into(), "3.9".into()));
            groups
                .entry((case, params, weighted))
                .or_default()
                .push((metric.to_string(), expected_value(v, 1e-15)));
        }
    }
    (groups, skipped)
}

/// Whether `got` meets `expected`; `Err` says why not.
fn check(expected: &Expected, got: &Result<Value, String>, labels: usize) -> Result<(), String> {
    match (expected, got) {
        (Expected::Error, Err(_)) => Ok(()),
        (Expected::AnyValue, Ok(Value::Number(_))) if labels == 1 => Ok(()),
        (Expected::Literal(l), Ok(Value::String(s))) if s == l => Ok(()),
        (Expected::Within { lo, hi }, Ok(Value::Number(n))) => {
            let x = n.as_f64().unwrap();
            let slack = 1e-12 * lo.abs().max(hi.abs());
            if x >= lo - slack && x <= hi + slack {
                Ok(())
            } else {
                Err(format!("expected a value in [{lo}, {hi}], got {x}"))
            }
        }
        (Expected::Value { value, rel }, Ok(Value::Number(n))) => {
            let x = n.as_f64().unwrap();
            if (x - value).abs() <= rel * value.abs() {
                Ok(())
            } else {
                Err(format!("expected {value} (rel {rel}), got {x}"))
            }
        }
        _ => Err(format!("expected {expected:?}, got {got:?}")),
    }
}

/// Runs one group; returns (passed, failures).
fn run_group(
    toolkit: Convention, (case, params, weighted): &GroupKey, group: &Group, files: &CaseFiles,
) -> (usize, Vec<String>) {
    let mut args: Vec<&OsStr> = vec![
        "eval".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        "--convention".as_ref(),
        toolkit.name().as_ref(),
        "--y-true".as_ref(),
        files.y_true.as_os_str(),
        "--y-score".as_ref(),
        files.y_score.as_os_str(),
    ];
    if *weighted {
        args.push("--sample-weight".as_ref());
        args.push(
            files
                .weights
                .as_ref()
                .expect("weighted record of an unweighted case")
                .as_os_str(),
        );
    }
    let param_args: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    for p in &param_args {
        args.push("--param".as_ref());
        args.push(p.as_ref());
    }
    for (metric, _) in group {
        args.push("--metric".as_ref());
        args.push(metric.as_ref());
    }
    let where_ = format!("{case} {params:?} weighted={weighted}");
    let r = run(&args);
    if r.status != 0 && r.status != 1 {
        return (
            0,
            vec![format!("{where_}: status {}: {}", r.status, r.stderr)],
        );
    }
    let results = r.results();
    let outcomes = r.outcomes();
    let mut passed = 0;
    let mut failures = Vec::new();
    let any_error = outcomes.iter().any(|(_, o)| o.is_err());
    if r.status != i32::from(any_error) {
        failures.push(format!(
            "{where_}: status {} with errors={any_error}",
            r.status
        ));
    }
    let checks = group.iter().zip(&outcomes).zip(&results);
    for (((metric, expected), (name, got)), result) in checks {
        let echo = &result["params"];
        let echoed = params
            .iter()
            .all(|(k, v)| param_text(&echo[k]).as_ref() == Some(v))
            && (toolkit != Convention::Sklearn || echo["sample_weight"] == *weighted)
            && (!Preset::param_keys(toolkit, metric).contains(&"dtype")
                || params.iter().any(|(k, _)| k == "dtype")
                || echo["dtype"] == files.dtype);
        match check(expected, got, files.labels) {
            Ok(()) if name == metric && echoed => passed += 1,
            Ok(()) => failures.push(format!(
                "{where_} {metric}: printed as {name} with params {echo}"
            )),
            Err(why) => failures.push(format!("{where_} {metric}: {why}")),
        }
    }
    if outcomes.len() != group.len() {
        failures.push(format!(
            "{where_}: {} results for {} metrics",
            outcomes.len(),
            group.len()
        ));
    }
    (passed, failures)
}

/// Runs every known record of `toolkit`'s golden file through the command, on two threads;
/// torchmetrics on float32 preds from float32 `.npy` files, whose dtype alone says so.
#[rstest]
#[case::sklearn(Convention::Sklearn, "golden-sklearn.json", Written::Text)]
#[case::torchmetrics(Convention::Torchmetrics, "golden-torchmetrics.json", Written::Text)]
#[case::torchmetrics_f32(
    Convention::Torchmetrics,
    "golden-torchmetrics-f32.json",
    Written::Float32Npy
)]
#[case::torchmetrics_auc(
    Convention::Torchmetrics,
    "golden-torchmetrics-auc.json",
    Written::Text
)]
#[case::torchmetrics_retrieval(
    Convention::Torchmetrics,
    "golden-torchmetrics-retrieval.json",
    Written::Text
)]
#[case::mldr(Convention::Mldr, "golden-mldr.json", Written::Text)]
#[case::mulan(Convention::Mulan, "golden-mulan.json", Written::Text)]
fn conformance(#[case] toolkit: Convention, #[case] golden: &str, #[case] written: Written) {
    let scratch = Scratch::new(toolkit.name());
    let cases = match written {
        Written::Text => write_cases(&scratch),
        Written::Float32Npy => write_f32_cases(&scratch),
    };
    let (groups, skipped) = golden_groups(toolkit, golden);
    let groups: Vec<_> = groups.into_iter().collect();
    let expected_records: usize = groups.iter().map(|(_, g)| g.len()).sum();
    let next = AtomicUsize::new(0);
    let passed = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some((key, group)) = groups.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (ok, bad) = run_group(toolkit, key, group, &cases[&key.0]);
                    passed.fetch_add(ok, Ordering::Relaxed);
                    failures.lock().unwrap().extend(bad);
                }
            });
        }
    });
    let passed = passed.into_inner();
    let failures = failures.into_inner().unwrap();
    println!(
        "cli conformance {golden}: {passed} passed, {} failed, {skipped} skipped (metric not in the registry), {} invocations",
        expected_records - passed,
        groups.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(passed, expected_records);
    assert!(passed > 0);
}

// ---------------------------------------------------------------------------------------------
// Input formats, output formats, --per-sample, compare and its chart.

/// The bytes of a version-1 `.npy` file.
fn npy(descr: &str, fortran: bool, shape: &str, data: &[u8]) -> Vec<u8> {
    let fortran = if fortran { "True" } else { "False" };
    let mut header =
        format!("{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(data);
    out
}

#[test]
fn every_input_format_reads_the_same_data() {
    let s = Scratch::new("informats");
    let reference = eval(&s, DOC_TRUE, DOC_SCORE, &["--convention", "mulan"]);
    assert_eq!(reference.status, 0, "{reference:?}");
    let scores: Vec<u8> = [0.75f64, 0.5, 1.0, 1.0, 0.2, 0.1]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    // The labels column by column, for Fortran order.
    let labels_f = [1u8, 0, 0, 0, 0, 1];
    let pairs: Vec<(PathBuf, PathBuf)> = vec![
        (
            s.file("t.csv", "a,b,c\n1,0,0\n0,0,1\n"),
            s.file("s.tsv", "0.75\t0.5\t1\n1\t0.2\t0.1\n"),
        ),
        (
            s.file("t.labels", "0\n2\n"),
            s.file("s.npy", npy("<f8", false, "(2, 3)", &scores)),
        ),
        (
            s.file("t.npy", npy("|u1", true, "(2, 3)", &labels_f)),
            s.file("s.csv.gz", gzip(DOC_SCORE)),
        ),
        (
            s.file("t.labels.gz", gzip("0\n2\n")),
            s.file("s.txt.gz", gzip("0.75 0.5 1\n1 0.2 0.1\n")),
        ),
        (
            s.file(
                "t-bool.npy",
                npy("|b1", false, "(2, 3)", &[1, 0, 0, 0, 0, 1]),
            ),
            s.file("s.f4.npy", {
                let f4: Vec<u8> = [0.75f32, 0.5, 1.0, 1.0, 0.2, 0.1]
                    .iter()
                    .flat_map(|x| x.to_be_bytes())
                    .collect();
                npy(">f4", false, "(2, 3)", &f4)
            }),
        ),
    ];
    for (t, sc) in &pairs {
        let r = eval_files(t, sc, &["--convention", "mulan", "--metric", "Coverage"]);
        assert_eq!(r.status, 0, "{t:?} {r:?}");
        assert_eq!(r.results()[0], reference.results()[1], "{t:?} {sc:?}");
    }
    // f32 scores: the same ranking, so the same values for every metric.
    let (t, sc) = &pairs[4];
    let r = eval_files(t, sc, &["--convention", "mulan"]);
    assert_eq!(r.json_values(), reference.json_values());
    // A header line is detected, or forced with --header.
    let t = s.file("names.txt", "x y z\n1 0 0\n0 0 1\n");
    let r = eval_files(&t, &pairs[0].1, &["--metric", "coverage"]);
    assert_eq!(r.status, 0, "{r:?}");
    assert!(r.stderr.contains("names.txt: line 1 is a header"), "{r:?}");
    let t = s.file("numbered.txt", "7 8 9\n1 0 0\n0 0 1\n");
    // Both headers name the same columns (named columns are compared).
    let sc = s.file("numbered.csv", "7,8,9\n0.75,0.5,1\n1,0.2,0.1\n");
    let forced = eval_files(&t, &sc, &["--metric", "coverage", "--header"]);
    assert_eq!(forced.json_values(), r.json_values());
    assert!(forced.stderr.is_empty(), "{forced:?}");
    // --format-in wins over the extension.
    let tabbed = s.file("s.dat", "0.75\t0.5\t1\n1\t0.2\t0.1\n");
    let tabbed_true = s.file("t.dat", "1\t0\t0\n0\t0\t1\n");
    let r = eval_files(
        &tabbed_true,
        &tabbed,
        &["--format-in", "tsv", "--convention", "mulan"],
    );
    assert_eq!(r.json_values(), reference.json_values());
    // --n-labels widens a label list beyond the largest index it names.
    let r = eval_files(&pairs[1].0, &pairs[1].1, &["--n-labels", "4"]);
    assert_all_errors(
        &r,
        "y_true has shape (2, 4) (rows, labels) but y_score has shape (2, 3)",
    );
}

#[test]
fn format_errors_name_file_line_and_column() {
    let s = Scratch::new("formaterrors");
    let sc = s.file("s.csv", DOC_SCORE);
    let t = s.file("t.labels", "0\n1 3\n");
    eval_files(&t, &sc, &[]).assert_file_error(
        &t,
        ":2:2: expected a label index below 3 (the number of labels; set it with --n-labels), \
         found 3",
    );
    let t = s.file("t2.labels", "0\nx\n");
    eval_files(&t, &sc, &[]).assert_file_error(
        &t,
        ":2:1: expected a label index (0, 1, 2, ...), found \"x\"",
    );
    eval_files(&sc, &t, &[]).assert_file_error(&t, ": a .labels file lists relevant labels");
    // A label file with a different number of samples is unusable, not a metric error.
    let t = s.file("t3.txt", "1 0 0\n0 0 1\n0 1 0\n");
    eval_files(&t, &sc, &[]).assert_file_error(
        &t,
        &format!(
            ": 3 samples, but {} has 2 (one sample per line)",
            sc.display()
        ),
    );
    let empty = s.file("empty.csv", "");
    eval_files(&empty, &sc, &[]).assert_file_error(&empty, ": 0 samples, but ");
    let bad = s.file("s.npy", npy("<c16", false, "(2, 3)", &[0; 96]));
    eval_files(&t, &bad, &[]).assert_file_error(
        &bad,
        ": expected dtype f4, f8, b1, u1, i4 or i8 (any byte order), found '<c16'",
    );
    let short = s.file("short.npy", npy("<f8", false, "(2, 3)", &[0; 40]));
    eval_files(&t, &short, &[])
        .assert_file_error(&short, ": expected 48 bytes of data for shape [2, 3]");
    let notgz = s.file("s.csv.gz", DOC_SCORE);
    eval_files(&t, &notgz, &[]).assert_file_error(&notgz, ": not valid gzip data");
    let gz_bad = s.file("s2.csv.gz", gzip("0.1,0.2,0.3\n0.4,oops,0.6\n"));
    eval_files(&t, &gz_bad, &[])
        .assert_file_error(&gz_bad, ":2:2: expected a number, found \"oops\"");
    // A header's line still counts in the line numbers.
    let headed = s.file("h.csv", "a,b,c\n0.1,0.2,0.3\n0.4,0.5\n");
    eval_files(&t, &headed, &["-q"])
        .assert_file_error(&headed, ":3:3: expected 3 numbers as on line 2, found 2");
}

#[test]
fn eval_prints_csv_and_markdown() {
    let s = Scratch::new("outformats");
    let t = s.file("t.txt", DOC_TRUE);
    let sc = s.file("s.csv", DOC_SCORE);
    let args = |format: &str| {
        let mut a = vec!["eval", "--convention", "sklearn", "--format", format];
        a.extend([
            "--y-true",
            t.to_str().unwrap(),
            "--y-score",
            sc.to_str().unwrap(),
        ]);
        run(&a)
    };
    let csv = args("csv");
    assert_eq!(csv.status, 0, "{csv:?}");
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(
        lines[0],
        format!("convention,metric,params,value,error,note,{PROVENANCE_COLUMNS}")
    );
    // The provenance columns on every line: the toolkit release, each file, shape and hash.
    let provenance = format!(
        "{},scikit-learn 1.9.1,{},2x3,{DOC_TRUE_SHA256},{},2x3,{DOC_SCORE_SHA256},,,",
        env!("CARGO_PKG_VERSION"),
        t.display(),
        sc.display()
    );
    assert_eq!(
        lines[1],
        format!("sklearn,coverage_error,sample_weight=false,2.5,,,{provenance}")
    );
    assert!(lines[1..].iter().all(|l| l.ends_with(&provenance)));
    assert_eq!(lines.len(), 1 + Convention::Sklearn.metric_names().len());
    let md = args("markdown");
    let lines: Vec<&str> = md.stdout.lines().collect();
    assert_eq!(lines[0], "| convention | metric | params | value |");
    assert_eq!(lines[1], "| --- | --- | --- | ---: |");
    assert_eq!(
        lines[2],
        "| sklearn | coverage_error | sample_weight=false | 2.5 |"
    );
    // Under the table, after a blank line: the versions and the inputs.
    let table_end = 2 + Convention::Sklearn.metric_names().len();
    assert_eq!(lines[table_end], "");
    assert_eq!(
        lines[table_end + 1..],
        [
            format!(
                "Computed with rankmetrics {}, reproducing scikit-learn 1.9.1.  ",
                env!("CARGO_PKG_VERSION")
            ),
            format!(
                "y_true: `{}`, 2 × 3, sha256 `{DOC_TRUE_SHA256}`  ",
                t.display()
            ),
            format!(
                "y_score: `{}`, 2 × 3, sha256 `{DOC_SCORE_SHA256}`  ",
                sc.display()
            ),
        ]
    );
    // The table for the terminal stays as it was: a header and a line per metric.
    let table = args("table");
    assert_eq!(
        table.stdout.lines().count(),
        1 + Convention::Sklearn.metric_names().len()
    );
}

#[test]
fn per_sample_values_average_to_the_metric() {
    let s = Scratch::new("persample");
    let out = s.dir.join("per-sample.csv");
    let w = s.file("w.txt", "1\n3\n");
    let r = run(&[
        "eval",
        "--format",
        "json",
        "--convention",
        "mldr",
        "--per-sample",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.status, 0, "{r:?}");
    // Label-wise metrics have no per-sample values: named on stderr, left out of the file.
    for metric in ["macro_auc", "example_auc", "micro_auc"] {
        assert!(
            r.stderr.contains(&format!("no column for {metric}")),
            "{r:?}"
        );
    }
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!("sample,average_precision,coverage,one_error,ranking_loss,{PROVENANCE_COLUMNS}")
    );
    assert_eq!(lines.len(), 1 + 8);
    for (col, metric) in [(2, "coverage"), (3, "one_error"), (1, "average_precision")] {
        let values: Vec<f64> = lines[1..]
            .iter()
            .map(|l| l.split(',').nth(col).unwrap().parse().unwrap())
            .collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let reported = r.results().iter().find(|x| x["metric"] == metric).unwrap()["value"]
            .as_f64()
            .unwrap();
        assert!(
            (mean - reported).abs() < 1e-12,
            "{metric}: {mean} vs {reported}"
        );
    }
    // With weights, a weight column; a row a metric skips is an empty field.
    let t = s.file("t.txt", "1 0 0\n0 0 0\n");
    let sc = s.file("s.csv", DOC_SCORE);
    let r = eval_files(
        &t,
        &sc,
        &[
            "--convention",
            "mulan",
            "--metric",
            "AveragePrecision",
            "--sample-weight",
            w.to_str().unwrap(),
            "--per-sample",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(r.status, 0, "{r:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    // The provenance columns are filled on the first line only.
    assert_eq!(
        text,
        format!(
            "sample,weight,AveragePrecision,{PROVENANCE_COLUMNS}\n\
             0,1.0,0.5,{},{},{},2x3,{},{},2x3,{DOC_SCORE_SHA256},{},2x1,{}\n\
             1,3.0,,,,,,,,,,,,\n",
            env!("CARGO_PKG_VERSION"),
            r.provenance()["reproduces"]["mulan"].as_str().unwrap(),
            t.display(),
            r.provenance()["inputs"]["y_true"]["sha256"]
                .as_str()
                .unwrap(),
            sc.display(),
            w.display(),
            r.provenance()["inputs"]["sample_weight"]["sha256"]
                .as_str()
                .unwrap(),
        )
    );
    // An unwritable destination: status 2, nothing printed, no file left behind.
    let missing = s.dir.join("no-such-dir").join("p.csv");
    let r = run(&["eval", "-q", "--per-sample", missing.to_str().unwrap()]);
    r.assert_unusable("p.csv: cannot write: ");
    assert!(!s.dir.join("no-such-dir").exists());
}

/// The JSON of `compare` on the built-in example.
fn compare_builtin(extra: &[&str]) -> (Run, Value) {
    let r = run(&[&["compare", "--format", "json"], extra].concat());
    assert_eq!(r.status, 0, "{r:?}");
    let doc = serde_json::from_str(&r.stdout).unwrap();
    (r, doc)
}

#[test]
fn compare_agrees_with_eval_cell_by_cell() {
    let (r, doc) = compare_builtin(&[]);
    assert!(r.stderr.contains("built-in example"), "{r:?}");
    let results = doc["results"].as_array().unwrap();
    // Every toolkit metric appears in some row (roc_auc_score under three averages), but
    // torchmetrics' AUROC and AP, which `eval` reaches (src/compare/grid.rs says why).
    let not_in_grid = [
        "multilabel_auroc",
        "multilabel_average_precision",
        "retrieval_precision",
        "retrieval_recall",
        "retrieval_average_precision",
        "retrieval_reciprocal_rank",
    ];
    for convention in Convention::ALL.into_iter().skip(1) {
        for metric in convention.metric_names() {
            if not_in_grid.contains(metric) {
                continue;
            }
            assert!(
                results
                    .iter()
                    .any(|c| c["convention"] == convention.name() && c["metric"] == *metric),
                "{convention} {metric}"
            );
        }
    }
    // Each toolkit cell is what eval prints for the same preset, and each policy cell what
    // eval prints with --ties.
    for convention in Convention::ALL {
        let e = run(&[
            "eval",
            "--format",
            "json",
            "--convention",
            convention.name(),
        ]);
        for cell in results.iter().filter(|c| {
            c["convention"] == convention.name()
                && (c["column"] == convention.name() || convention == Convention::Rankmetrics)
                && c["params"].get("one_based") != Some(&Value::Bool(true))
                && c["params"].get("average").is_none_or(|a| a == "macro")
        }) {
            let column = cell["column"].as_str().unwrap();
            let expected = if convention == Convention::Rankmetrics {
                let t = run(&[
                    "eval",
                    "--format",
                    "json",
                    "--ties",
                    column,
                    "--metric",
                    cell["metric"].as_str().unwrap(),
                ]);
                t.results()[0]["value"].clone()
            } else {
                let found = e
                    .results()
                    .into_iter()
                    .find(|x| x["metric"] == cell["metric"]);
                found.unwrap()["value"].clone()
            };
            assert_eq!(cell["value"], expected, "{cell}");
        }
    }
    // Ordering policies are orderings of the ties: inside the interval. The summary names
    // what lies outside.
    for row in doc["metrics"].as_array().unwrap() {
        let name = row["metric_row"].as_str().unwrap();
        let Some([lo, hi]) = row["interval"].as_array().map(|a| [&a[0], &a[1]]) else {
            continue;
        };
        let (Some(lo), Some(hi)) = (lo.as_f64(), hi.as_f64()) else {
            continue;
        };
        for cell in results.iter().filter(|c| c["metric_row"] == name) {
            let v = cell["value"].as_f64();
            let column = cell["column"].as_str().unwrap();
            let outside = row["outside_interval"]
                .as_array()
                .unwrap()
                .contains(&Value::from(column));
            if let (Some(v), true) = (v, ["first", "last", "expected"].contains(&column)) {
                assert!(lo - 1e-12 <= v && v <= hi + 1e-12, "{name} {column} {v}");
                assert!(!outside, "{name} {column}");
            }
            if let Some(v) =
                v.filter(|_| !["pessimistic", "optimistic", "expected"].contains(&column))
            {
                assert_eq!(outside, v < lo - 1e-9 || v > hi + 1e-9, "{name} {column}");
            }
        }
    }
}

#[test]
fn compare_prints_every_format() {
    let table = run(&["compare", "-q"]);
    assert_eq!(table.status, 0, "{table:?}");
    assert!(table.stderr.is_empty(), "--quiet: {table:?}");
    let lines: Vec<&str> = table.stdout.lines().collect();
    for column in [
        "max",
        "min",
        "average",
        "first",
        "last",
        "sklearn",
        "torchmetrics",
        "mldr",
        "mulan",
        "interval",
        "expected",
        "spread",
    ] {
        assert!(lines[0].contains(column), "{column}: {}", lines[0]);
    }
    let is_error = lines.iter().find(|l| l.starts_with("is-error")).unwrap();
    // is-error: only MULAN has it, so the other three toolkits show a dash.
    assert_eq!(is_error.matches('—').count(), 3, "{is_error}");
    let one_error = lines.iter().find(|l| l.starts_with("one-error")).unwrap();
    assert!(one_error.contains("[0.2500, 0.3750]"), "{one_error}");
    assert!(table.stdout.contains("*: outside the interval"));
    let csv = run(&["compare", "-q", "--format", "csv"]);
    let csv_lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(
        csv_lines[0],
        format!(
            "metric,max,min,average,first,last,sklearn,torchmetrics,mldr,mulan,pessimistic,\
             expected,optimistic,spread,outside_interval,ends_proven,expected_exact,note,\
             {PROVENANCE_COLUMNS}"
        )
    );
    // Every line ends with the provenance: the four toolkits, the built-in example.
    assert!(csv_lines[1..].iter().all(|l| l.ends_with(&format!(
        ",{},scikit-learn 1.9.1; torchmetrics 1.9.0; mldr 0.4.2 with pROC 1.18.0; MULAN \
         43f6389 compiled against Weka 3.6.14 (Weka 3.9.7 for MacroAUCPR and weka=3.9),\
         built-in example,8x5,,built-in example,8x5,,,,",
        env!("CARGO_PKG_VERSION")
    ))));
    assert!(csv_lines
        .iter()
        .any(|l| l.starts_with("one-error,0.375,0.25,0.3125,0.25,0.375,,,0.25,0.375,")));
    let md = run(&["compare", "-q", "--format", "markdown"]);
    let md_lines: Vec<&str> = md.stdout.lines().collect();
    assert!(md_lines[0].starts_with("| metric | max | min |"), "{md:?}");
    assert!(md_lines[1].starts_with("| --- | ---: |"), "{md:?}");
    assert_eq!(
        csv_lines.len(),
        md_lines.iter().filter(|l| l.starts_with("| ")).count() - 1
    );
    // The legend says what the interval column prints: the low end first.
    assert!(table
        .stdout
        .contains("interval: [low, high], the smallest and largest value"));
    let coverage = table_row(&table.stdout, "coverage (ranks from 0)");
    assert!(coverage.contains("[1.0000, 1.5000]"), "{coverage}");
    assert!(csv_lines
        .iter()
        .any(|l| l.starts_with("coverage (ranks from 0),") && l.contains(",1.5,1.25,1,")));
    // The Markdown ends with the provenance.
    assert!(md.stdout.contains(&format!(
        "\nComputed with rankmetrics {}, reproducing scikit-learn 1.9.1; torchmetrics 1.9.0; \
         mldr 0.4.2 with pROC 1.18.0; MULAN 43f6389",
        env!("CARGO_PKG_VERSION")
    )));
    assert!(md.stdout.ends_with(
        "y_true: the built-in example, 8 × 5  \ny_score: the built-in example, 8 × 5  \n"
    ));
}

#[test]
fn compare_draws_one_dot_per_metric_and_convention() {
    let s = Scratch::new("plot");
    let svg = s.dir.join("chart.svg");
    let (_, doc) = compare_builtin(&["--plot", svg.to_str().unwrap()]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.starts_with("<svg") && text.trim_end().ends_with("</svg>"),
        "{text:.200}"
    );
    let values = doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| {
            !["pessimistic", "expected", "optimistic"].contains(&c["column"].as_str().unwrap())
        })
        .filter(|c| c["value"].as_f64().is_some())
        .count();
    // A circle per value (each with its title), and the legend's two.
    assert_eq!(text.matches("</title></circle>").count(), values);
    assert_eq!(text.matches("<circle").count(), values + 2);
    for row in doc["metrics"].as_array().unwrap() {
        assert!(text.contains(row["metric_row"].as_str().unwrap()));
    }
    // Only the chart is left in the directory: no temporary file.
    let names: Vec<_> = std::fs::read_dir(&s.dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["chart.svg"]);
    let r = run(&[
        "compare",
        "-q",
        "--plot",
        s.dir.join("none/c.svg").to_str().unwrap(),
    ]);
    r.assert_unusable("c.svg: cannot write: ");
}

#[test]
fn compare_reads_files_and_reports_errors_like_eval() {
    let s = Scratch::new("comparefiles");
    let t = s.file("t.labels", "0\n2\n");
    let sc = s.file("s.csv", DOC_SCORE);
    let r = run(&[
        "compare",
        "--format",
        "csv",
        "--y-true",
        t.to_str().unwrap(),
        "--y-score",
        sc.to_str().unwrap(),
    ]);
    assert_eq!(r.status, 0, "{r:?}");
    assert!(!r.stderr.contains("built-in"), "{r:?}");
    // A header and one line per metric row (names with commas are quoted).
    assert_eq!(r.stdout.lines().count(), 21, "{r:?}");
    assert!(r.stdout.contains("\n\"AUC, micro (pooled)\","), "{r:?}");
    // One label: scikit-learn's and torchmetrics' coverage need two, so those cells are
    // errors (empty in CSV), and the status says so.
    let t1 = s.file("t1.txt", "1\n0\n");
    let s1 = s.file("s1.txt", "0.5\n0.2\n");
    let one = |format: &str| {
        run(&[
            "compare",
            "--format",
            format,
            "--y-true",
            t1.to_str().unwrap(),
            "--y-score",
            s1.to_str().unwrap(),
        ])
    };
    let r = one("csv");
    assert_eq!(r.status, 1, "{r:?}");
    assert!(r
        .stdout
        .contains("\ncoverage (ranks from 1),0.5,0.5,0.5,0.5,0.5,,,,,"));
    let r = one("table");
    assert!(r.stdout.contains("error (1)"), "{r:?}");
    assert!(r.stdout.contains("(1) sklearn coverage_error: "), "{r:?}");
    let bad = s.file("bad.csv", "0.1 0.2 0.3\n0.4 0.5\n");
    let r = run(&[
        "compare",
        "--y-true",
        t.to_str().unwrap(),
        "--y-score",
        bad.to_str().unwrap(),
    ]);
    r.assert_file_error(&bad, ":2:3: expected 3 numbers as on line 1, found 2");
}

/// Writes the files and runs `compare -q --format FORMAT` on them (weights if given).
fn compare_files(
    s: &Scratch, (y_true, y_score, weights): (&str, &str, Option<&str>), format: &str,
) -> Run {
    let t = s.file("t.txt", y_true);
    let sc = s.file("s.txt", y_score);
    let mut args: Vec<&OsStr> = ["compare", "-q", "--format", format, "--y-true"]
        .map(OsStr::new)
        .into();
    args.extend([t.as_os_str(), "--y-score".as_ref(), sc.as_os_str()]);
    let w = weights.map(|w| s.file("w.txt", w));
    if let Some(w) = &w {
        args.extend(["--sample-weight".as_ref(), w.as_os_str()]);
    }
    run(&args)
}

/// The number of `note` in a table's notes.
fn note_number<'a>(table: &'a Run, note: &str) -> &'a str {
    let found = table
        .stdout
        .lines()
        .find_map(|l| l.strip_suffix(note)?.strip_prefix('(')?.strip_suffix(") "));
    found.unwrap_or_else(|| panic!("{note:?} not in {table:?}"))
}

/// The line of `metric`'s row in a table.
fn table_row<'a>(table: &'a str, metric: &str) -> &'a str {
    let found = table
        .lines()
        .find(|l| l.starts_with(&format!("{metric}  ")));
    found.unwrap_or_else(|| panic!("no row {metric}: {table}"))
}

#[test]
fn compare_says_which_row_leaves_a_cell_undefined() {
    let table = run(&["compare", "-q"]);
    assert_eq!(table.status, 0, "{table:?}");
    // Row 4 of the built-in example has no relevant label: scikit-learn's per-sample AUC,
    // every policy and the interval are NaN, with one note; mldr counts the row as 0.5.
    let note = "(1) AUC, per sample: undefined, row 4 has no relevant label (1 of 8 rows has one \
                class)\n";
    assert!(table.stdout.contains(note), "{table:?}");
    let row = table_row(&table.stdout, "AUC, per sample");
    assert_eq!(row.matches("nan (1)").count(), 7, "{row}");
    assert!(
        row.contains("[nan, nan] (1)") && row.contains("0.8542"),
        "{row}"
    );
    let md = run(&["compare", "-q", "--format", "markdown"]);
    assert!(md.stdout.contains(&note.replace('\n', "  \n")), "{md:?}");
    assert!(md.stdout.contains("| nan (1) |"), "{md:?}");
}

#[rstest]
#[case::a_label_without_relevant_samples(
    "1 0 0\n0 1 0\n1 1 0\n",
    None,
    &[
        "AUC, macro (per label): undefined, label 2 has no relevant sample (1 of 3 labels has \
         one class)",
        "label AP, geometric mean: undefined, label 2 has no relevant sample (1 of 3 labels \
         has none)",
    ],
)]
#[case::a_label_with_only_relevant_samples(
    "1 0 1\n1 1 0\n1 0 1\n",
    None,
    &["AUC, macro (per label): undefined, label 0 has only relevant samples (1 of 3 labels \
       has one class)"],
)]
#[case::nothing_relevant(
    "0 0 0\n0 0 0\n0 0 0\n",
    None,
    &[
        "AUC, micro (pooled): undefined, no label of any sample is relevant",
        // MULAN leaves rows without a relevant label out of its average precision.
        "average precision (LRAP): undefined, every row is left out: none has a relevant label",
        "AUC, per sample: undefined, row 0 has no relevant label (3 of 3 rows have one class)",
    ],
)]
#[case::everything_relevant(
    "1 1 1\n1 1 1\n1 1 1\n",
    None,
    &["AUC, micro (pooled): undefined, every label of every sample is relevant"],
)]
#[case::zero_total_weight(
    "1 0 0\n0 1 1\n1 0 1\n",
    Some("0\n0\n0\n"),
    // scikit-learn's LRAP is NaN where the other metrics report an error.
    &["average precision (LRAP): undefined, the sample weights sum to zero"],
)]
fn compare_says_why_a_cell_is_undefined(
    #[case] y_true: &str, #[case] weights: Option<&str>, #[case] notes: &[&str],
) {
    let s = Scratch::new("undefined");
    let files = (y_true, "0.1 0.5 0.3\n0.2 0.2 0.9\n0.4 0.1 0.3\n", weights);
    let table = compare_files(&s, files, "table");
    let md = compare_files(&s, files, "markdown");
    for note in notes {
        let (metric, _) = note.split_once(": undefined").unwrap();
        let number = note_number(&table, note);
        // Each NaN cell of the row points to the note.
        let row = table_row(&table.stdout, metric);
        assert!(row.contains(&format!("nan ({number})")), "{row}");
        assert!(!row.contains("nan  "), "a bare nan: {row}");
        assert!(
            md.stdout.contains(&format!("({number}) {note}  \n")),
            "{md:?}"
        );
    }
    // The formats for programs carry values, not notes.
    for format in ["json", "csv"] {
        let r = compare_files(&s, files, format);
        assert!(!r.stdout.contains("undefined,"), "{r:?}");
    }
}

#[test]
fn compare_says_why_a_flagged_value_that_prints_as_an_interval_end_is_outside() {
    // Rows whose scores differ by less than each convention's ties notice, among 40,000 rows
    // so that the values move by less than the table's 4 decimals.
    let special = [
        // 5e-7 apart: MULAN's Weka grouping (1e-6) ties them.
        ("0 1 0", "0.5000005 0.5 0.1"),
        // 1e-9 apart: one float32, so torchmetrics' retrieval NDCG ties them.
        ("0 1 0", "0.300000001 0.3 0.1"),
        // torchmetrics' sigmoid of logits rounds both to 1.
        ("0 1 0", "45 40 -3"),
        // Two relevant labels tied: rank-sharing policies give them one rank.
        ("1 1 0", "0.5 0.5 0.1"),
    ];
    let (n, misranked) = (40_000, 4_000);
    let mut y_true: String = special.iter().map(|(t, _)| format!("{t}\n")).collect();
    let mut y_score: String = special.iter().map(|(_, s)| format!("{s}\n")).collect();
    y_true += &"0 1 0\n".repeat(misranked);
    y_true += &"1 0 0\n".repeat(n - misranked - special.len());
    y_score += &"0.9 0.5 0.1\n".repeat(n - special.len());
    let s = Scratch::new("flagged");
    let r = compare_files(&s, (&y_true, &y_score, None), "table");
    assert_eq!(r.status, 0, "{r:?}");
    for (row, cell, note) in [
        (
            "coverage (ranks from 0)",
            "0.1001*",
            "coverage (ranks from 0), mulan Coverage: 0.100050 vs interval end 0.100100: \
             scores less than 1e-6 apart tie (Weka's grouping), which the interval does not \
             do; with those ties it is [0.100050, 0.100100]",
        ),
        (
            "NDCG",
            "0.9631*",
            "NDCG, torchmetrics retrieval_normalized_dcg: 0.9630699 vs interval end 0.9630653: \
             scores are cast to float32, so scores that round to one float32 tie, which the \
             interval does not do; with those ties it is [0.9630653, 0.9630745]",
        ),
        (
            "ranking loss",
            "0.0500*",
            "ranking loss, torchmetrics multilabel_ranking_loss: 0.050025 vs interval end \
             0.050037: scores outside [0, 1] go through a sigmoid, which rounds large scores \
             to one value, so they tie, which the interval does not do; with those ties it is \
             [0.050025, 0.050037]",
        ),
        (
            "coverage (ranks from 1)",
            "1.1001*",
            "coverage (ranks from 1), min: 1.100075 vs interval end 1.100100: under min, tied \
             items share the best rank of their group, which no ordering of the ties gives",
        ),
    ] {
        let line = table_row(&r.stdout, row);
        assert!(
            line.contains(&format!("{cell} ({})", note_number(&r, note))),
            "{line}"
        );
    }
    // A flagged value that prints differently from the interval needs no note.
    let one_error = table_row(&r.stdout, "one-error");
    assert!(one_error.contains("0.1000*  ["), "{one_error}");

    // MULAN leaves out the row without a relevant label, which the others count as 1: not a
    // matter of ties, so the note says the convention's own rules put it there.
    let mut y_true = String::from("0 0 0\n");
    let mut y_score = String::from("0.2 0.5 0.1\n");
    y_true += &"0 1 0\n".repeat(2_000);
    y_true += &"1 0 0\n".repeat(17_999);
    y_score += &"0.6 0.5 0.1\n".repeat(2_000);
    y_score += &"0.9 0.5 0.1\n".repeat(17_999);
    let r = compare_files(&s, (&y_true, &y_score, None), "table");
    let note = "(1) average precision (LRAP), mulan AveragePrecision: 0.9499975 vs interval end \
                0.9500000: more than ties: mulan has rules of its own for this metric \
                (docs/conventions.md)\n";
    assert!(r.stdout.contains(note), "{r:?}");
    assert!(table_row(&r.stdout, "average precision (LRAP)").contains("0.9500* (1)"));
}

#[test]
fn compare_takes_torchmetrics_preds_dtype_from_the_scores_file() {
    // Logits 20 and 18 tie in torch's float32 sigmoid (both 1.0), not in float64; 20,000 rows
    // so that the value moves by less than the table's 4 decimals.
    let (n, misranked) = (20_000, 2_000);
    let mut y_true = String::from("0 1 0\n");
    y_true += &"0 1 0\n".repeat(misranked);
    y_true += &"1 0 0\n".repeat(n - misranked - 1);
    let mut scores = vec![20.0f32, 18.0, -3.0];
    scores.extend([0.9, 0.5, 0.1].repeat(n - 1));
    let s = Scratch::new("compare-f32");
    let t = s.file("t.txt", &y_true);
    let f4 = s.file("s.npy", f4_npy(&scores, n, 3));
    let text: String = scores
        .chunks(3)
        .map(|r| format!("{} {} {}\n", r[0], r[1], r[2]))
        .collect();
    let f64_text = s.file("s.txt", text);
    let compare = |scores: &Path, format: &str| {
        let args = ["compare", "-q", "--format", format, "--y-true"].map(OsStr::new);
        let mut args: Vec<&OsStr> = args.into();
        args.extend([t.as_os_str(), "--y-score".as_ref(), scores.as_os_str()]);
        run(&args)
    };
    let torchmetrics = |r: &Run| -> Vec<(String, Value, Value)> {
        r.results()
            .into_iter()
            .filter(|c| c["column"] == "torchmetrics")
            .map(|c| {
                let metric = c["metric"].as_str().unwrap().to_string();
                (metric, c["params"]["dtype"].clone(), c["value"].clone())
            })
            .collect()
    };
    let loss = |cells: &[(String, Value, Value)]| {
        let cell = cells.iter().find(|c| c.0 == "multilabel_ranking_loss");
        cell.unwrap().2.as_f64().unwrap()
    };
    let (f32_cells, f64_cells) = (
        torchmetrics(&compare(&f4, "json")),
        torchmetrics(&compare(&f64_text, "json")),
    );
    for (cells, dtype) in [(&f32_cells, "float32"), (&f64_cells, "float64")] {
        for (metric, echoed, _) in cells {
            let expected = match metric.as_str() {
                "retrieval_normalized_dcg" => Value::Null, // always float32, no dtype
                _ => Value::from(dtype),
            };
            assert_eq!(*echoed, expected, "{metric}");
        }
    }
    // The first row's pair is a tie (no error: the relevant label has the higher column) for
    // float32 preds, an error (0.5) for float64.
    let moved = loss(&f64_cells) - loss(&f32_cells);
    assert!((moved - 0.5 / n as f64).abs() < 1e-15, "{moved}");
    let table = compare(&f4, "table");
    assert!(
        table.stdout.contains(
            "torchmetrics: on float32 preds, as the scores are float32 (torch computes in the \
             preds' dtype)."
        ),
        "{table:?}"
    );
    let note = "ranking loss, torchmetrics multilabel_ranking_loss: 0.050000 vs interval end \
                0.050025: scores are float32 preds: outside [0, 1] they go through torch's \
                float32 sigmoid, which rounds scores above about 16.6 to 1 and close scores to \
                one value, so they tie, which the interval does not do; with those ties it is \
                [0.050000, 0.050025]";
    let line = table_row(&table.stdout, "ranking loss");
    assert!(
        line.contains(&format!("0.0500* ({})", note_number(&table, note))),
        "{line}"
    );
    // The built-in example is text.
    let table = run(&["compare", "-q"]);
    assert!(table.stdout.contains(
        "torchmetrics: on float64 preds, as the scores are not float32; float32 scores (a \
         float32 array or .npy file) would give float32 preds (torch computes in the preds' \
         dtype)."
    ));
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    let r = run(&["compare"]);
    assert_eq!(r.status, 0, "{r:?}");
    // Only the note about the built-in data: no bar, no carriage returns.
    assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
    assert!(
        !r.stderr.contains('\r') && !r.stderr.contains("computing"),
        "{r:?}"
    );
}

/// `rows` lines of `cols` numbers from `value(i, j)`, comma-separated.
fn csv_text(rows: usize, cols: usize, value: impl Fn(usize, usize) -> f64) -> String {
    (0..rows)
        .map(|i| {
            let line: Vec<String> = (0..cols).map(|j| format!("{:?}", value(i, j))).collect();
            line.join(",") + "\n"
        })
        .collect()
}

/// A deterministic 0..n value for cell (i, j).
fn hash(i: usize, j: usize, n: usize) -> usize {
    (i.wrapping_mul(2_654_435_761) ^ j.wrapping_mul(40_503)).wrapping_mul(97) % n
}

#[test]
fn streamed_values_equal_the_whole_file_values_across_chunks() {
    let s = Scratch::new("chunks");
    let rows = 10_000; // a few chunks of 4,096 rows and a partial one
    let labels = csv_text(rows, 6, |i, j| f64::from(u8::from(hash(i, j, 4) == 0)));
    let probabilities = csv_text(rows, 6, |i, j| hash(i, j + 7, 11) as f64 / 10.0);
    // Logits in one row only, after two chunks of probabilities: torchmetrics' sigmoid then
    // applies to every row, as the whole file decides.
    let logits = csv_text(rows, 6, |i, j| {
        let p = hash(i, j + 7, 11) as f64 / 10.0;
        if i == 9_000 {
            p * 5.0 - 2.0
        } else {
            p
        }
    });
    let weights = csv_text(rows, 1, |i, _| (hash(i, 3, 5) + 1) as f64);
    let t = s.file("t.csv.gz", gzip(&labels));
    let files = [
        s.file("p.csv", &probabilities),
        s.file("l.csv", &logits),
        s.file("l.csv.gz", gzip(&logits)),
    ];
    let w = s.file("w.txt", &weights);
    let w_arg = w.to_str().unwrap();
    let per_sample = s.dir.join("per_sample.csv");
    let whole = ["--per-sample", per_sample.to_str().unwrap()];
    for sc in &files {
        for convention in ["rankmetrics", "sklearn", "torchmetrics", "mldr", "mulan"] {
            for extra in [&[][..], &["--sample-weight", w_arg][..]] {
                let mut args = vec!["--convention", convention];
                args.extend(extra);
                let streamed = eval_files(&t, sc, &args);
                args.extend(whole);
                let one_shot = eval_files(&t, sc, &args);
                assert_eq!(streamed.status, one_shot.status, "{sc:?} {args:?}");
                assert_eq!(streamed.stdout, one_shot.stdout, "{sc:?} {args:?}");
            }
        }
    }
    // Ties ordered by position: label-wise metrics keep no runs, so every chunk is kept and
    // every metric evaluated on them at the end.
    let mut args = vec!["--convention", "sklearn", "--ties", "first"];
    let streamed = eval_files(&t, &files[0], &args);
    args.extend(whole);
    let one_shot = eval_files(&t, &files[0], &args);
    assert_eq!(streamed.status, one_shot.status, "{args:?}");
    assert_eq!(streamed.stdout, one_shot.stdout, "{args:?}");
    // Scores one ulp apart tie after torchmetrics' sigmoid, which applies to every row when
    // one row (9000, in the third chunk) holds a logit: each row's tied pair then is no error
    // (the relevant label has the higher column), and only row 9000 has a loss (0.5).
    let t = s.file("ulp_t.csv", "0,1,0\n".repeat(rows));
    let mut ulp: Vec<&str> = vec!["0.30000000000000004,0.3,0.1"; rows];
    ulp[9_000] = "2,0.3,0.1";
    let sc = s.file("ulp_s.csv", ulp.join("\n"));
    let r = eval_files(&t, &sc, &["--convention", "torchmetrics"]);
    let loss = r
        .outcomes()
        .into_iter()
        .find(|(m, _)| m == "multilabel_ranking_loss");
    assert_eq!(loss.unwrap().1, Ok(Value::from(0.5 / rows as f64)), "{r:?}");
    // Errors past the first chunk are the one-shot evaluation's: weights are checked first.
    let mut bad_rows = probabilities.lines().map(String::from).collect::<Vec<_>>();
    bad_rows[8_000] = "nan,0,0,0,0,0".into();
    let bad = s.file("bad.csv", bad_rows.join("\n"));
    let t = s.file("t.csv", &labels);
    let r = eval_files(&t, &bad, &["--metric", "coverage"]);
    assert_all_errors(&r, "row 8000");
    let short_w = s.file("short_w.txt", csv_text(rows - 1, 1, |_, _| 1.0));
    let r = eval_files(&t, &bad, &["--sample-weight", short_w.to_str().unwrap()]);
    assert_all_errors(&r, "9999");
}

#[test]
fn label_wise_values_past_the_runs_check_equal_the_whole_file_values() {
    // Label-wise runs where more than two thirds of the labels made more than 99 new runs in
    // 100 rows between rows 8,192 and 16,384 (scores that rarely repeat, here beside a constant
    // column) give way to the data read whole; runs of few distinct scores are kept. Either
    // way, the values are the one-shot evaluation's.
    let s = Scratch::new("runs-check");
    let rows = 30_000;
    let labels = csv_text(rows, 4, |i, j| f64::from(u8::from(hash(i, j, 4) == 0)));
    let t = s.file("t.csv", &labels);
    let distinct = s.file(
        "distinct.csv",
        csv_text(rows, 4, |i, j| (i * 4 + j) as f64 / (rows * 4) as f64),
    );
    let one_constant = s.file(
        "one_constant.csv",
        csv_text(rows, 4, |i, j| match j {
            0 => 0.5,
            _ => (i * 4 + j) as f64 / (rows * 4) as f64,
        }),
    );
    let tied = s.file(
        "tied.csv",
        csv_text(rows, 4, |i, j| hash(i, j + 7, 11) as f64 / 10.0),
    );
    let per_sample = s.dir.join("per_sample.csv");
    let whole = ["--per-sample", per_sample.to_str().unwrap()];
    for sc in [&distinct, &one_constant, &tied] {
        for average in ["average=macro", "average=micro", "average=weighted"] {
            let mut args = vec!["--convention", "sklearn", "--param", average];
            for metric in ["roc_auc_score", "average_precision_score"] {
                args.extend(["--metric", metric]);
            }
            let streamed = eval_files(&t, sc, &args);
            args.extend(whole);
            let one_shot = eval_files(&t, sc, &args);
            assert_eq!(streamed.status, one_shot.status, "{sc:?} {args:?}");
            assert_eq!(streamed.stdout, one_shot.stdout, "{sc:?} {args:?}");
            assert_eq!(streamed.outcomes().len(), 2, "{streamed:?}");
        }
    }
    // A file error found after the stream stopped (every preset left it) is the whole read's:
    // the one the stream gives where the runs stay.
    let short_t = s.file(
        "short_t.csv",
        csv_text(rows - 2_000, 4, |i, j| {
            f64::from(u8::from(hash(i, j, 4) == 0))
        }),
    );
    let args = ["--convention", "sklearn", "--metric", "roc_auc_score"];
    let early = eval_files(&short_t, &distinct, &args);
    let streamed = eval_files(&short_t, &tied, &args);
    assert_eq!(early.status, streamed.status, "{early:?}");
    assert_eq!(early.stdout, streamed.stdout, "{early:?}");
    assert_eq!(
        early.stderr.replace("distinct.csv", "tied.csv"),
        streamed.stderr,
        "{early:?}"
    );
    assert!(early.stderr.contains("28000 samples"), "{early:?}");
}

#[test]
fn float32_runs_test_each_chunk_for_logits_on_float32_values() {
    let s = Scratch::new("f32-chunks");
    let rows = 10_000;
    // One float32 ulp apart at 0.5: a float32 sigmoid ties them, so the relevant label's
    // higher column makes the pair no error; without the sigmoid it is one.
    let mut lines = vec!["0.5000000596046448,0.5"; rows];
    // A logit in the first chunk: torchmetrics applies its sigmoid to every row.
    lines[0] = "5,0.5";
    // Above 1 in f64 but 1.0 in float32, in the third chunk: no logit for float32 preds.
    lines[9_000] = "1.0000000001,0.5";
    let sc = s.file("s.csv", lines.join("\n"));
    let t = s.file("t.csv", "0,1\n".repeat(rows));
    let f4: Vec<f32> = lines
        .iter()
        .flat_map(|l| l.split(',').map(|x| x.parse::<f64>().unwrap() as f32))
        .collect();
    let npy_f4 = s.file("s.npy", f4_npy(&f4, rows, 2));
    let per_sample = s.dir.join("per_sample.csv");
    let whole = ["--per-sample", per_sample.to_str().unwrap()];
    // The labels' first line `0,1` is a sample, not pandas' header of column names.
    let loss = [
        "--no-header",
        "--convention",
        "torchmetrics",
        "--metric",
        "multilabel_ranking_loss",
    ];
    let float32 = [&loss[..], &["--param", "dtype=float32"]].concat();
    let value = |r: Run| r.outcomes()[0].1.clone();
    // Rows 0 and 9000 are errors after the sigmoid, every other row a tie.
    let expected = Ok(Value::from(2.0 / rows as f64));
    assert_eq!(value(eval_files(&t, &sc, &float32)), expected);
    assert_eq!(
        value(eval_files(&t, &sc, &[&float32[..], &whole].concat())),
        expected
    );
    assert_eq!(value(eval_files(&t, &npy_f4, &loss)), expected);
    // float64 preds: the sigmoid keeps the pair apart, an error in every row.
    assert_eq!(value(eval_files(&t, &sc, &loss)), Ok(Value::from(1.0)));
}

#[test]
fn an_f8_file_is_float64_preds_and_an_f4_file_float32() {
    let s = Scratch::new("f8-f4");
    let t = s.file("t.csv", "1,0\n");
    let f8: Vec<u8> = [20.0f64, 18.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let files = [
        s.file("s.csv", "20,18\n"),
        s.file("s8.npy", npy("<f8", false, "(1, 2)", &f8)),
        s.file("s4.npy", f4_npy(&[20.0, 18.0], 1, 2)),
    ];
    let coverage = |scores: &Path, extra: &[&str]| {
        let mut args = vec!["--convention", "torchmetrics"];
        args.extend(extra);
        let r = eval_files(&t, scores, &args);
        let result = &r.results()[0];
        assert_eq!(result["metric"], "multilabel_coverage_error", "{r:?}");
        (result["params"]["dtype"].clone(), result["value"].clone())
    };
    // float64: sigmoid(20) > sigmoid(18), coverage 1; float32: both 1.0, coverage 2.
    let f64_preds = (Value::from("float64"), Value::from(1.0));
    let f32_preds = (Value::from("float32"), Value::from(2.0));
    let [csv, f8, f4] = &files;
    assert_eq!(coverage(csv, &[]), f64_preds);
    assert_eq!(coverage(f8, &[]), f64_preds);
    assert_eq!(coverage(f4, &[]), f32_preds);
    for file in &files {
        assert_eq!(coverage(file, &["--param", "dtype=float32"]), f32_preds);
        assert_eq!(coverage(file, &["--param", "dtype=float64"]), f64_preds);
        // Half types saturate both too (torchmetrics 1.9 on float16 and bfloat16 tensors).
        for half in ["float16", "bfloat16"] {
            let param = format!("dtype={half}");
            let half_preds = (Value::from(half), Value::from(2.0));
            assert_eq!(coverage(file, &["--param", &param]), half_preds);
        }
    }
    // Where golden-torchmetrics.json (float64 preds) and golden-torchmetrics-f32.json differ
    // by more than torch's tie order, an f8 file gives the former, an f4 file the latter.
    let golden = |name: &str| -> Vec<Value> {
        let text = std::fs::read_to_string(data_dir().join(name)).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        doc["results"].as_array().unwrap().clone()
    };
    let float32 = golden("golden-torchmetrics-f32.json");
    let cases_text = std::fs::read_to_string(data_dir().join("cases.json")).unwrap();
    let cases: Value = serde_json::from_str(&cases_text).unwrap();
    let mut differ = 0;
    for r64 in golden("golden-torchmetrics.json") {
        let (Some(v64), metric) = (r64["value_f64"].as_f64(), &r64["metric"]) else {
            continue;
        };
        let Some(r32) = float32
            .iter()
            .find(|r| r["case"] == r64["case"] && r["metric"] == *metric)
        else {
            continue;
        };
        let v32 = r32["value"].as_f64().unwrap();
        if (v32 - v64).abs() <= 1e-6 * v64.abs() || r32["tie_order_dependent"] == true {
            continue;
        }
        let case = cases["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == r64["case"])
            .unwrap();
        let (y, rows, cols) = f32_matrix(&case["y_true"]);
        let t = s.file("case-t.npy", f4_npy(&y, rows, cols));
        let scores: Vec<u8> = case["y_score"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|row| row.as_array().unwrap())
            .flat_map(|x| x.as_f64().unwrap().to_le_bytes())
            .collect();
        let f8 = s.file(
            "case-s8.npy",
            npy("<f8", false, &format!("({rows}, {cols})"), &scores),
        );
        let (f32_scores, _, _) = f32_matrix(&case["y_score"]);
        let f4 = s.file("case-s4.npy", f4_npy(&f32_scores, rows, cols));
        let metric = metric.as_str().unwrap();
        let args = ["--convention", "torchmetrics", "--metric", metric];
        for (file, expected, rel) in [(&f8, v64, 1e-12), (&f4, v32, 1e-6)] {
            let got = eval_files(&t, file, &args).results()[0]["value"]
                .as_f64()
                .unwrap();
            assert!(
                (got - expected).abs() <= rel * expected.abs(),
                "{} {metric} {file:?}: {got} vs {expected}",
                r64["case"]
            );
        }
        differ += 1;
    }
    assert_eq!(differ, 2); // coverage and AP on x20261122-004-neartie-below-f32-binary
}

#[test]
fn files_of_different_lengths_are_caught_while_streaming() {
    let s = Scratch::new("lengths");
    let long = s.file("long.csv", csv_text(9_000, 3, |i, j| hash(i, j, 10) as f64));
    let short = s.file("short.csv", csv_text(5_000, 3, |i, j| hash(i, j, 2) as f64));
    eval_files(&short, &long, &[]).assert_file_error(
        &short,
        &format!(": 5000 samples, but {} has 9000", long.display()),
    );
    eval_files(&long, &short, &[]).assert_file_error(
        &long,
        &format!(": 9000 samples, but {} has 5000", short.display()),
    );
    // A parse error in the rest of the longer file is reported first, as when read whole.
    let mut text = csv_text(9_000, 3, |i, j| hash(i, j, 10) as f64);
    text.push_str("1,x,3\n");
    let broken = s.file("broken.csv", text);
    eval_files(&short, &broken, &[])
        .assert_file_error(&broken, ":9001:2: expected a number, found \"x\"");
}

#[test]
fn file_errors_are_the_same_whichever_metrics_keep_the_rows() {
    // Label-wise metrics that keep no runs (weights, mldr's AUCs) keep every chunk instead,
    // read as the stream reads them: the first file error is the same as for metrics that
    // stream.
    let s = Scratch::new("error-order");
    let rows = 9_000;
    let t = s.file("t.csv", csv_text(rows, 3, |i, j| hash(i, j, 2) as f64));
    let short = s.file(
        "short.csv",
        csv_text(rows - 1, 3, |i, j| hash(i, j, 10) as f64),
    );
    let missing = s.dir.join("missing.txt");
    let w = ["--sample-weight", missing.to_str().unwrap()];
    let coverage = ["--convention", "sklearn", "--metric", "coverage_error"];
    let streamed = eval_files(&t, &short, &[&w[..], &coverage].concat());
    let kept = eval_files(&t, &short, &[&w[..], &["--convention", "sklearn"]].concat());
    assert_eq!(streamed.status, 2, "{streamed:?}");
    assert!(streamed.stderr.contains("missing.txt"), "{streamed:?}");
    assert_eq!(
        (kept.status, &kept.stderr),
        (streamed.status, &streamed.stderr)
    );
    // A label parse error in the first chunk, a score parse error in the second.
    let labels = csv_text(rows, 3, |i, j| hash(i, j, 2) as f64).replacen("\n", "\n0,x,1\n", 1);
    let mut scores = csv_text(rows + 1, 3, |i, j| hash(i, j, 10) as f64);
    scores.push_str("1,y,3\n");
    let (bad_t, bad_s) = (s.file("bad_t.csv", labels), s.file("bad_s.csv", scores));
    let streamed = eval_files(&bad_t, &bad_s, &["--metric", "coverage"]);
    let kept = eval_files(&bad_t, &bad_s, &["--convention", "mldr"]);
    assert_eq!(streamed.status, 2, "{streamed:?}");
    assert!(streamed.stderr.contains("bad_t.csv:2:2"), "{streamed:?}");
    assert_eq!(
        (kept.status, &kept.stderr),
        (streamed.status, &streamed.stderr)
    );
}

/// The per-sample file of `eval --per-sample` on the built-in example with `extra` arguments.
fn per_sample_builtin(s: &Scratch, extra: &[&str]) -> String {
    let out = s.dir.join("per-sample.csv");
    let mut args = vec!["eval", "-q", "--per-sample", out.to_str().unwrap()];
    args.extend(extra);
    let r = run(&args);
    assert_eq!(r.status, 0, "{r:?}");
    std::fs::read_to_string(&out).unwrap()
}

#[test]
fn one_per_sample_run_writes_a_column_per_tie_policy() {
    let s = Scratch::new("ties-list");
    let metrics = [
        "--convention",
        "sklearn",
        "--metric",
        "coverage_error",
        "--metric",
        "label_ranking_average_precision_score",
    ];
    let policies = ["pessimistic", "expected", "optimistic"];
    let single: Vec<String> = policies
        .iter()
        .map(|p| per_sample_builtin(&s, &[&metrics[..], &["--ties", p]].concat()))
        .collect();
    // One policy: the columns are named as without --ties.
    assert!(single[0].starts_with(&format!(
        "sample,coverage_error,label_ranking_average_precision_score,{PROVENANCE_COLUMNS}\n"
    )));
    // Repeated and listed alike; a policy given twice counts once.
    let repeated = per_sample_builtin(
        &s,
        &[
            &metrics[..],
            &[
                "--ties",
                "pessimistic",
                "--ties",
                "expected,optimistic",
                "--ties",
                "expected",
            ],
        ]
        .concat(),
    );
    let listed = per_sample_builtin(
        &s,
        &[&metrics[..], &["--ties", "pessimistic,expected,optimistic"]].concat(),
    );
    assert_eq!(repeated, listed);
    let lines = csv_values(&listed);
    let header = [
        "sample",
        "coverage_error:pessimistic",
        "coverage_error:expected",
        "coverage_error:optimistic",
        "label_ranking_average_precision_score:pessimistic",
        "label_ranking_average_precision_score:expected",
        "label_ranking_average_precision_score:optimistic",
    ];
    assert_eq!(lines[0], header);
    // Each column is bitwise the one-policy run's.
    for (p, text) in single.iter().enumerate() {
        for (i, fields) in csv_values(text).iter().enumerate().skip(1) {
            assert_eq!(lines[i][1 + p], fields[1], "coverage, {}", policies[p]);
            assert_eq!(lines[i][4 + p], fields[2], "LRAP, {}", policies[p]);
        }
    }
    // The summary has a line per metric and policy.
    let r = run(&[
        &["eval", "-q", "--format", "json"],
        &metrics[..],
        &["--ties", "min,max"],
    ]
    .concat());
    let ties: Vec<Value> = r
        .results()
        .iter()
        .map(|x| x["params"]["ties"].clone())
        .collect();
    assert_eq!(ties, ["min", "max", "min", "max"].map(Value::from));
}

#[test]
fn the_printed_example_read_back_gives_the_built_in_values() {
    let s = Scratch::new("example");
    let printed = |args: &[&str]| {
        let r = run(&[&["example"], args].concat());
        assert_eq!((r.status, r.stderr.as_str()), (0, ""), "{r:?}");
        r.stdout
    };
    let t = s.file("y_true.csv", printed(&["y-true"]));
    let sc = s.file("y_score.tsv", printed(&["y-score", "--format", "tsv"]));
    assert!(std::fs::read_to_string(&t)
        .unwrap()
        .starts_with("label0,label1,label2,label3,label4\n1,0,0,1,0\n"));
    let files = [
        "--y-true",
        t.to_str().unwrap(),
        "--y-score",
        sc.to_str().unwrap(),
    ];
    for convention in Convention::ALL.map(Convention::name) {
        let args = ["eval", "-q", "--format", "json", "--convention", convention];
        let builtin = run(&args);
        let read_back = run(&[&args[..], &files].concat());
        assert_eq!(
            read_back.json_values(),
            builtin.json_values(),
            "{convention}"
        );
        assert_eq!(read_back.status, builtin.status, "{convention}");
        // The same shapes; the files named, the example said to be one.
        let (b, r) = (builtin.provenance(), read_back.provenance());
        assert_eq!(b["inputs"]["y_score"]["built_in_example"], true);
        assert_eq!(r["inputs"]["y_score"]["path"], sc.to_str().unwrap());
        assert_eq!(r["inputs"]["y_true"]["rows"], b["inputs"]["y_true"]["rows"]);
        assert_eq!(r["inputs"]["y_true"]["columns"], 5);
    }
    let builtin = run(&["compare", "-q", "--format", "json"]);
    let read_back = run(&[&["compare", "-q", "--format", "json"], &files[..]].concat());
    assert_eq!(read_back.json_values(), builtin.json_values());
    // CSV holds one matrix: without a name, a message and status 2.
    run(&["example"]).assert_unusable("a CSV file holds one matrix: name it, y-true or y-score");
    // The NumPy and R forms define both matrices; run them where Python and R are installed.
    let python = printed(&["--format", "python"]);
    assert!(python.contains("y_true = np.array([\n    [1, 0, 0, 1, 0],\n"));
    assert!(python.contains("    [0.2, 0.0, 0.8, 0.2, 0.2],\n])\n"));
    let r = printed(&["--format", "r"]);
    assert!(r.contains("y_score <- matrix(c(\n  0.8, 0.2, 0.0, 0.8, 0.2,\n"));
    assert!(r.ends_with("  0.2, 0.0, 0.8, 0.2, 0.2\n), nrow = 8, byrow = TRUE)\n"));
    let csv_of_both = "print(','.join(map(str, y_true.flatten().tolist() + \
                       y_score.flatten().tolist())))";
    let r_csv_of_both = "cat(paste(c(t(y_true), t(y_score)), collapse = ','), '\\n')";
    let expected: Vec<f64> = [&t, &sc]
        .iter()
        .flat_map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            text.lines()
                .skip(1)
                .flat_map(|l| l.split([',', '\t']).map(|f| f.parse::<f64>().unwrap()))
                .collect::<Vec<_>>()
        })
        .collect();
    for (program, code, source_arg) in [
        ("python3", format!("{python}\n{csv_of_both}"), "-c"),
        ("Rscript", format!("{r}\n{r_csv_of_both}"), "-e"),
    ] {
        let Ok(out) = Command::new(program).args([source_arg, &code]).output() else {
            eprintln!("{program} is not installed: its form of the example is not run");
            continue;
        };
        if !out.status.success() {
            // Python without NumPy.
            eprintln!("{program} failed: {}", String::from_utf8_lossy(&out.stderr));
            continue;
        }
        let values: Vec<f64> = String::from_utf8(out.stdout)
            .unwrap()
            .trim()
            .split(',')
            .map(|f| f.trim().parse().unwrap())
            .collect();
        assert_eq!(values, expected, "{program}");
    }
}

/// A file written by pandas or R (tests/data/written/README.md says how).
fn written(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/written")
        .join(name)
}

/// The scores of tests/data/written, as plain CSV without header or index.
const WRITTEN_SCORES: &str = "0.75,0.25,0,0.75\n0.5,0.5,0.25,0\n0.5,0.75,0,0.5\n\
                              0.25,0,0.5,0.5\n0,0.5,0.25,0.75\n1,0,0.25,0.25\n";

/// Every convention's JSON on `y_true` and `y_score` equals the one on `plain_true` and
/// `plain_score`; returns the stderr of the first run.
fn assert_reads_as(y_true: &Path, y_score: &Path, plain_true: &Path, plain_score: &Path) -> String {
    let mut stderr = String::new();
    for convention in Convention::ALL.map(Convention::name) {
        let args = ["--convention", convention];
        let read = eval_files(y_true, y_score, &args);
        let plain = eval_files(plain_true, plain_score, &[&args[..], &["-q"]].concat());
        assert_eq!(
            read.json_values(),
            plain.json_values(),
            "{convention}: {read:?}"
        );
        assert_eq!(read.status, plain.status, "{convention}");
        if stderr.is_empty() {
            stderr = read.stderr;
        }
    }
    stderr
}

#[test]
fn pandas_default_index_column_is_skipped_with_a_note() {
    let s = Scratch::new("pandas");
    let plain_score = s.file("s.csv", WRITTEN_SCORES);
    let plain_true = written("pandas_y_true_noindex.csv");
    let stderr = assert_reads_as(
        &written("pandas_y_true.csv"),
        &written("pandas_y_score.csv"),
        &plain_true,
        &plain_score,
    );
    assert!(
        stderr.contains(
            "pandas_y_true.csv: column 1 has no name in the header and counts the rows from 0 \
             (pandas' default index 0, 1, 2, ...): skipped as a row index; \
             df.to_csv(path, index=False) leaves it out"
        ),
        "{stderr}"
    );
    // A frame made from an array names its columns 0, 1, 2, ...: the header is still one.
    let bare_true = s.file(
        "t.csv",
        "1,0,0,1\n0,1,0,0\n1,1,0,0\n0,0,1,0\n0,1,1,1\n1,0,0,0\n",
    );
    let r = eval_files(
        &bare_true,
        &written("pandas_y_score_unnamed.csv"),
        &["-q", "--metric", "coverage"],
    );
    let plain = eval_files(&plain_true, &plain_score, &["-q", "--metric", "coverage"]);
    assert_eq!(
        (r.status, r.json_values()),
        (0, plain.json_values()),
        "{r:?}"
    );
    // A Series of weights: index and values.
    let w = s.file("w.txt", "1\n2\n1\n0.5\n1\n3\n");
    let weights = ["--convention", "sklearn", "--sample-weight"];
    let r = eval_files(
        &written("pandas_y_true.csv"),
        &written("pandas_y_score.csv"),
        &[
            &weights[..],
            &[written("pandas_weights.csv").to_str().unwrap()],
        ]
        .concat(),
    );
    let plain = eval_files(
        &plain_true,
        &plain_score,
        &[&weights[..], &[w.to_str().unwrap()]].concat(),
    );
    assert_eq!(
        (r.status, r.json_values()),
        (0, plain.json_values()),
        "{r:?}"
    );
    // -q: no notes.
    let r = eval_files(
        &written("pandas_y_true.csv"),
        &written("pandas_y_score.csv"),
        &["-q"],
    );
    assert_eq!(r.stderr, "");
}

#[test]
fn pandas_column_names_of_an_array_frame_are_a_header_not_a_sample() {
    let s = Scratch::new("pandas-array");
    let plain_score = s.file("s.csv", WRITTEN_SCORES);
    let plain_true = written("pandas_y_true_noindex.csv");
    let (labels, scores) = (
        written("pandas_y_true_array_noindex.csv"),
        written("pandas_y_score_array_noindex.csv"),
    );
    // Every convention reads them as the plain files, saying why line 1 was skipped.
    let stderr = assert_reads_as(&labels, &scores, &plain_true, &plain_score);
    // The scores write whole numbers as 0.0, so their line 1 is no sample; the labels' is a
    // header as the files then agree in length.
    for note in [
        "pandas_y_score_array_noindex.csv: line 1 is 0,1,2,3, the column names pandas writes \
         for a DataFrame made from an array (df.to_csv(path, index=False)), or a sample: read \
         as a header and skipped, since line 2 writes the whole number 0 as \"0.0\" (field 3), \
         while line 1 writes whole numbers without a decimal point or exponent: not one number \
         format; --no-header reads it as a sample",
        "pandas_y_true_array_noindex.csv: line 1 is 0,1,2,3, the column names pandas writes \
         for a DataFrame made from an array (df.to_csv(path, index=False)), or a sample: read \
         as a header and skipped, since the files then agree (6 samples each); --no-header \
         reads it as a sample",
    ] {
        assert!(stderr.contains(note), "{stderr}");
    }
    // Read as a sample, the header would be one of graded relevance 0..3 that NDCG takes
    // silently; --no-header does that when a first line 0, 1, ... is data.
    let ndcg = ["--convention", "sklearn", "--metric", "ndcg_score", "-q"];
    let headed = eval_files(&labels, &scores, &ndcg);
    let plain = eval_files(&plain_true, &plain_score, &ndcg);
    assert_eq!(headed.json_values(), plain.json_values());
    let data = eval_files(&labels, &scores, &[&ndcg[..], &["--no-header"]].concat());
    assert_ne!(data.results()[0]["value"], plain.results()[0]["value"]);
    let rows = &data.provenance()["inputs"]["y_true"]["rows"];
    assert_eq!(rows, 7, "{data:?}");
    run(&["eval", "--header", "--no-header"]).assert_unusable("cannot be used with");
}

#[test]
fn r_default_row_names_are_skipped_and_quoted_fields_parse() {
    let s = Scratch::new("r");
    let plain_score = s.file("s.csv", WRITTEN_SCORES);
    let stderr = assert_reads_as(
        &written("r_y_true.csv"),
        &written("r_y_score.csv"),
        &written("r_y_true_norownames.csv"),
        &plain_score,
    );
    assert!(
        stderr.contains(
            "r_y_score.csv: column 1 has no name in the header and counts the rows from 1 \
             (R's default row names \"1\", \"2\", ...): skipped as a row index; \
             write.csv(m, path, row.names = FALSE) leaves it out"
        ),
        "{stderr}"
    );
}

#[test]
fn row_names_that_do_not_count_the_rows_are_refused_with_the_fix() {
    for (scores, found, line) in [
        ("pandas_y_score_shuffled.csv", "\"3\"", 2),
        ("r_y_score_named_rows.csv", "\"s3\"", 2),
    ] {
        let r = eval_files(
            &written("pandas_y_true_noindex.csv"),
            &written(scores),
            &["-q", "--align-columns"],
        );
        let path = written(scores);
        r.assert_file_error(
            &path,
            &format!(
                ":{line}:1: column 1 has no name in the header, so it holds row names (pandas' \
                 to_csv and R's write.csv write them by default), but they do not count the \
                 rows from 0 or 1 (found {found}), so they cannot be skipped safely; save the \
                 file without them: df.to_csv(path, index=False) in pandas, write.csv(m, path, \
                 row.names = FALSE) in R"
            ),
        );
    }
    // An index that counts, then stops counting.
    let s = Scratch::new("index-breaks");
    let t = s.file("t.csv", ",a,b\n0,1,0\n1,0,1\n5,1,1\n");
    let sc = s.file("s.csv", "a,b\n0.5,0.2\n0.1,0.3\n0.4,0.4\n");
    eval_files(&t, &sc, &["-q"]).assert_file_error(
        &t,
        ":4:1: column 1 has no name in the header and counted the rows (pandas' default index \
         0, 1, 2, ...), but holds \"5\" here where 2 would follow, so it cannot be skipped safely as \
         a row index; save the file without it: df.to_csv(path, index=False)",
    );
}

#[test]
fn header_names_must_agree_or_be_aligned() {
    let s = Scratch::new("names");
    // Labels headed a,b,c and scores headed c,b,a: never evaluated column by column.
    let t = s.file("t.csv", "a,b,c\n1,0,0\n0,1,0\n");
    let sc = s.file("s.csv", "c,b,a\n0.1,0.2,0.9\n0.3,0.8,0.2\n");
    eval_files(&t, &sc, &["-q"]).assert_file_error(
        &t,
        ": data column 1 is named \"a\" in the header, but \"c\" in ",
    );
    let r = eval_files(
        &t,
        &sc,
        &["--align-columns", "--metric", "average_precision"],
    );
    assert_eq!(r.outcomes()[0].1, Ok(Value::from(1.0)), "{r:?}");
    // The files pandas writes, with the columns in another order.
    let (labels, dcba) = (
        written("pandas_y_true.csv"),
        written("pandas_y_score_dcba.csv"),
    );
    let r = eval_files(&labels, &dcba, &["-q"]);
    r.assert_unusable(
        "the same names in another order: --align-columns puts the scores' columns in the \
         labels' order",
    );
    let aligned = eval_files(&labels, &dcba, &["-q", "--align-columns"]);
    let same = eval_files(&labels, &written("pandas_y_score.csv"), &["-q"]);
    assert_eq!(
        (aligned.status, aligned.json_values()),
        (0, same.json_values())
    );
    // compare reads the files the same way.
    let args = [
        "compare",
        "-q",
        "--format",
        "csv",
        "--y-true",
        labels.to_str().unwrap(),
    ];
    let aligned = run(&[
        &args[..],
        &["--y-score", dcba.to_str().unwrap(), "--align-columns"],
    ]
    .concat());
    let same = run(&[
        &args[..],
        &["--y-score", written("pandas_y_score.csv").to_str().unwrap()],
    ]
    .concat());
    assert_eq!(csv_values(&aligned.stdout), csv_values(&same.stdout));
    assert!(run(&[&args[..], &["--y-score", dcba.to_str().unwrap()]].concat()).status == 2);
    // Different names; names that cannot be matched; no header to align by.
    let r_scores = written("r_y_score.csv");
    eval_files(&labels, &r_scores, &["-q"]).assert_unusable("but \"V1\" in ");
    eval_files(&labels, &r_scores, &["-q"]).assert_unusable("the files name different columns");
    eval_files(&labels, &r_scores, &["-q", "--align-columns"]).assert_unusable("no column of ");
    let dup = s.file("dup.csv", "a,a,b,c\n0.1,0.2,0.9,0\n0.3,0.8,0.2,0\n");
    let t4 = s.file("t4.csv", "a,b,c,a\n1,0,0,1\n0,1,0,1\n");
    eval_files(&t4, &dup, &["-q", "--align-columns"])
        .assert_unusable("more than one column is named \"a\"");
    let bare = s.file("bare.csv", "0.1,0.2,0.9\n0.3,0.8,0.2\n");
    eval_files(&t, &bare, &["-q", "--align-columns"]).assert_file_error(
        &bare,
        ": no header line: --align-columns matches the scores' columns to the labels' by the \
         names in both files' header lines",
    );
    // One header only: nothing to compare.
    assert_eq!(eval_files(&t, &bare, &["-q"]).status, 0);
}

#[test]
fn a_header_one_name_short_marks_a_row_index() {
    // R's write.table (space-separated, row names quoted, no name over them) and pandas'
    // to_csv with sep=" " (its empty first name vanishes in a whitespace split): both headers
    // are one name short of the rows, so the first column is the row index.
    let s = Scratch::new("short-header");
    let plain_score = s.file("s.csv", WRITTEN_SCORES);
    let plain_true = written("pandas_y_true_noindex.csv");
    let stderr = assert_reads_as(
        &written("r_table_y_true.txt"),
        &written("r_table_y_score.txt"),
        &plain_true,
        &plain_score,
    );
    assert!(stderr.contains("skipped as a row index"), "{stderr}");
    assert!(stderr.contains("R's default row names"), "{stderr}");
    let stderr = assert_reads_as(
        &written("pandas_space_y_true.txt"),
        &written("pandas_space_y_score.txt"),
        &plain_true,
        &plain_score,
    );
    assert!(stderr.contains("pandas' default index"), "{stderr}");
}

#[test]
fn a_header_of_another_width_is_an_error() {
    let s = Scratch::new("wide-header");
    for (header, names) in [("a,b", 2), ("a,b,c,d,e", 5)] {
        let y = s.file("t.csv", format!("{header}\n1,0,0,1\n0,1,0,0\n"));
        let scores = s.file(
            "s.csv",
            format!("{header}\n0.5,0.1,0.2,0.3\n0.1,0.9,0.2,0.3\n"),
        );
        let r = eval_files(&y, &scores, &["-q"]);
        assert_eq!(r.status, 2, "{r:?}");
        let message = format!(".csv:2:1: the header names {names} columns but this line holds 4");
        assert!(r.stderr.contains(&message), "{}", r.stderr);
    }
    // One name short: the first column is a row index, which must count the rows.
    let y = s.file("t.csv", "a,b,c\n1,0,0,1\n0,1,0,0\n");
    let scores = s.file("s.csv", "a,b,c\n0.5,0.1,0.2,0.3\n0.1,0.9,0.2,0.3\n");
    let r = eval_files(&y, &scores, &["-q"]);
    assert_eq!(r.status, 2, "{r:?}");
    assert!(
        r.stderr.contains("do not count the rows from 0 or 1"),
        "{}",
        r.stderr
    );
}

// ---------------------------------------------------------------------------------------------
// Provenance, the weights echo and the tie note.

/// The labels, scores and weights of the scikit-learn documentation example, as files.
fn doc_files(s: &Scratch) -> (PathBuf, PathBuf, PathBuf) {
    (
        s.file("t.txt", DOC_TRUE),
        s.file("s.csv", DOC_SCORE),
        s.file("w.txt", "1\n3\n"),
    )
}

#[test]
fn every_output_says_where_it_came_from() {
    let s = Scratch::new("provenance");
    let (t, sc, w) = doc_files(&s);
    let version = env!("CARGO_PKG_VERSION");
    // eval: the convention's toolkit, each input's path as given, shape and SHA-256.
    let weighted = [
        "--convention",
        "mldr",
        "--sample-weight",
        w.to_str().unwrap(),
    ];
    let r = eval_files(&t, &sc, &weighted);
    assert_eq!(r.status, 0, "{r:?}");
    let p = r.provenance();
    assert_eq!(p["rankmetrics"], version);
    assert_eq!(
        p["reproduces"],
        serde_json::json!({"mldr": "mldr 0.4.2 with pROC 1.18.0"})
    );
    assert_eq!(
        p["inputs"]["y_true"],
        serde_json::json!({"path": t.to_str().unwrap(), "rows": 2, "columns": 3,
                           "sha256": DOC_TRUE_SHA256})
    );
    assert_eq!(p["inputs"]["y_score"]["sha256"], DOC_SCORE_SHA256);
    assert_eq!(p["inputs"]["sample_weight"]["rows"], 2);
    assert_eq!(p["inputs"]["sample_weight"]["columns"], 1);
    // The same with --per-sample, which reads the files whole.
    let out = s.dir.join("per-sample.csv");
    let whole = eval_files(
        &t,
        &sc,
        &[&weighted[..], &["--per-sample", out.to_str().unwrap()]].concat(),
    );
    assert_eq!(whole.provenance(), p);
    // Rankmetrics' own metrics reproduce no toolkit; the built-in example is no file.
    let r = run(&["eval", "-q", "--format", "json", "--metric", "coverage"]);
    let p = r.provenance();
    assert_eq!(p["reproduces"], serde_json::json!({}));
    assert_eq!(
        p["inputs"],
        serde_json::json!({
            "y_true": {"built_in_example": true, "rows": 8, "columns": 5},
            "y_score": {"built_in_example": true, "rows": 8, "columns": 5},
        })
    );
    // compare: every toolkit; its JSON otherwise as before (results and metrics).
    let (_, doc) = compare_builtin(&["-q"]);
    let keys: Vec<&str> = doc
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["metrics", "provenance", "results"]);
    let toolkits: Vec<&str> = doc["provenance"]["reproduces"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(toolkits, ["mldr", "mulan", "sklearn", "torchmetrics"]);
    assert!(doc["provenance"]["reproduces"]["mulan"]
        .as_str()
        .unwrap()
        .starts_with("MULAN 43f6389 compiled against Weka 3.6.14"));
    // A gzipped file is hashed as stored, as sha256sum does.
    let gz = s.file("s.csv.gz", gzip(DOC_SCORE));
    let r = eval_files(&t, &gz, &["-q"]);
    let hash = r.provenance()["inputs"]["y_score"]["sha256"].clone();
    assert_eq!(hash.as_str().map(str::len), Some(64));
    assert_ne!(hash, DOC_SCORE_SHA256);
}

#[test]
fn weights_a_toolkit_lacks_are_echoed_as_applied_by_rankmetrics() {
    let s = Scratch::new("weights-echo");
    let (t, sc, w) = doc_files(&s);
    for convention in Convention::ALL {
        let weighted = eval_files(
            &t,
            &sc,
            &[
                "--convention",
                convention.name(),
                "--sample-weight",
                w.to_str().unwrap(),
            ],
        );
        let plain = eval_files(&t, &sc, &["--convention", convention.name()]);
        for (r, given) in [(&weighted, true), (&plain, false)] {
            for result in r.results() {
                let echo = &result["params"]["weights"];
                let lacks = !matches!(convention, Convention::Rankmetrics | Convention::Sklearn);
                if lacks && given {
                    assert_eq!(echo, "applied by rankmetrics", "{convention} {result}");
                } else {
                    assert!(echo.is_null(), "{convention} {result}");
                }
            }
        }
    }
}

#[test]
fn eval_notes_values_outside_every_ordering_on_stderr() {
    // Under the default max, NDCG gives every tied relevant label the last position's
    // discount: 0.6641 on the built-in data, below the pessimistic end 0.7510.
    let r = run(&["eval", "--format", "json", "--metric", "ndcg"]);
    assert_eq!(r.status, 0, "{r:?}");
    let notes: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("rankmetrics: note: "))
        .collect();
    assert_eq!(notes.len(), 1, "{r:?}");
    assert!(
        notes[0].starts_with("rankmetrics: note: ndcg under max: 0.6641 outside [0.7510, 0.8289]"),
        "{r:?}"
    );
    assert!(notes[0].contains("--ties expected") && notes[0].contains("--ties pessimistic"));
    // Not on stdout, and the value is unchanged.
    assert!(!r.stdout.contains("note"));
    assert_eq!(r.results()[0]["value"], 0.6640714946694792);
    // Every metric of the default run outside its interval is named in the one note.
    let r = run(&["eval"]);
    let note = r.stderr.lines().find(|l| l.contains("note: ")).unwrap();
    for metric in ["dcg under max", "ndcg under max", "ndcg_at_k under max"] {
        assert!(note.contains(metric), "{metric}: {note}");
    }
    assert!(!note.contains("coverage"), "{note}");
    // Under min, coverage too; orderings and the analysis policies never get one; nor -q.
    let r = run(&["eval", "--ties", "min", "--metric", "coverage"]);
    assert!(
        r.stderr
            .contains("note: coverage under min: 0.6250 outside [1.0000, 1.5000]"),
        "{r:?}"
    );
    for args in [
        &["eval", "--ties", "first"][..],
        &["eval", "--ties", "expected,pessimistic,optimistic"],
        &["eval", "-q"],
        &["eval", "--convention", "sklearn"],
    ] {
        let r = run(args);
        assert!(!r.stderr.contains("note: "), "{args:?}: {r:?}");
    }
    // A scikit-learn metric with its tie rule replaced by --ties max is checked alike.
    let r = run(&["eval", "--convention", "sklearn", "--ties", "min"]);
    assert!(
        r.stderr
            .contains("label_ranking_average_precision_score under min: 1.3958 outside"),
        "{r:?}"
    );
}
