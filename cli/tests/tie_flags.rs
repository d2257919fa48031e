//! Every output of the tie analysis says what it computed: a value under optimistic or
//! pessimistic that is not a proven end of the interval over tie orders, and an expected value
//! without a closed form, carry their reason in every format of `eval` and `compare`.

mod common;

use std::path::PathBuf;

use common::{csv_fields, run, Run, Scratch};
use rankmetrics::compare::CONCEPTS;
use rankmetrics::registry::{Convention, Preset};
use rankmetrics::TiePolicy;
use serde_json::Value;

/// The built-in example's files and a weight file of unequal weights.
fn weighted_example(s: &Scratch) -> [PathBuf; 3] {
    let example = |what| run(&["example", what, "--format", "csv"]).stdout;
    [
        s.file("t.csv", example("y-true")),
        s.file("s.csv", example("y-score")),
        s.file("w.csv", "1\n2\n1\n3\n1\n1\n2\n1\n"),
    ]
}

fn with_files(files: &[PathBuf; 3], weighted: bool, args: &[&str]) -> Run {
    let mut all: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    for (flag, file) in ["--y-true", "--y-score", "--sample-weight"]
        .iter()
        .zip(files)
    {
        if *flag != "--sample-weight" || weighted {
            all.extend([flag.to_string(), file.display().to_string()]);
        }
    }
    all.push("-q".into());
    run(&all)
}

/// Every preset of every convention under optimistic, pessimistic and expected, through
/// `eval` in each format: a JSON result is flagged exactly where the preset says its end is
/// not proven, its CSV line and table row carry the note, and an expected value without a
/// closed form is an error that says why.
#[test]
fn eval_flags_each_unproven_end_and_missing_expected_value() {
    let s = Scratch::new("tie-flags");
    let files = weighted_example(&s);
    let mut flagged = 0;
    for convention in Convention::ALL {
        for weighted in [false, true] {
            let args = [
                "eval",
                "--convention",
                convention.name(),
                "--ties",
                "pessimistic,expected,optimistic",
            ];
            let json = with_files(
                &files,
                weighted,
                &[&args[..], &["--format", "json"]].concat(),
            );
            let csv = with_files(
                &files,
                weighted,
                &[&args[..], &["--format", "csv"]].concat(),
            );
            let table = with_files(&files, weighted, &args);
            let markdown = with_files(
                &files,
                weighted,
                &[&args[..], &["--format", "markdown"]].concat(),
            );
            let csv_lines: Vec<&str> = csv.stdout.lines().skip(1).collect();
            for (k, result) in json.results().iter().enumerate() {
                let name = result["metric"].as_str().unwrap();
                let ties = result["params"]["ties"].as_str().unwrap();
                let policy = TiePolicy::parse(ties).unwrap();
                let preset = Preset::lookup(convention, name, Preset::NO_PARAMS, Some(policy));
                let tie = preset.unwrap().tie_analysis(weighted);
                let what = format!("{convention} {name} {ties} weighted={weighted}");
                match policy {
                    TiePolicy::Expected => {
                        let error = result.get("error").and_then(Value::as_str);
                        if let Some(why) = tie.expected_missing {
                            let error = error.unwrap_or_else(|| panic!("{what}: {result}"));
                            assert!(error.contains(why), "{what}: {error}");
                        } else {
                            assert!(!error.is_some_and(|e| e.contains("closed form")), "{what}");
                        }
                    }
                    _ => match (tie.ends_unproven, result.get("value")) {
                        (Some(why), Some(_)) => {
                            flagged += 1;
                            assert_eq!(result["proven_end"], false, "{what}");
                            assert!(result["note"].as_str().unwrap().contains(why), "{what}");
                            assert!(csv_lines[k].contains(why), "{what}: {}", csv_lines[k]);
                            let row = table.stdout.lines().nth(k + 1).unwrap();
                            assert!(row.ends_with(')'), "{what}: {row}");
                            assert!(table.stdout.contains(why) && markdown.stdout.contains(why));
                        }
                        _ => assert!(result.get("proven_end").is_none(), "{what}: {result}"),
                    },
                }
            }
        }
    }
    // Weighted label AP of scikit-learn and MULAN under both ends, at least.
    assert!(flagged >= 8, "{flagged}");
}

/// `compare` with and without weights: each row's JSON summary and CSV line say whether its
/// interval ends are proven and its expected value exact, as the reference preset says, and
/// the table and Markdown notes give the reasons.
#[test]
fn compare_flags_each_row_in_every_format() {
    let s = Scratch::new("tie-flags-compare");
    let files = weighted_example(&s);
    for weighted in [false, true] {
        let json = with_files(&files, weighted, &["compare", "--format", "json"]);
        let doc: Value = serde_json::from_str(&json.stdout).unwrap();
        let csv = with_files(&files, weighted, &["compare", "--format", "csv"]);
        let table = with_files(&files, weighted, &["compare"]);
        let markdown = with_files(&files, weighted, &["compare", "--format", "markdown"]);
        let lines: Vec<Vec<String>> = csv.stdout.lines().map(csv_fields).collect();
        let column = |name| lines[0].iter().position(|h| h == name).unwrap();
        let mut unproven = 0;
        let rows = doc["metrics"].as_array().unwrap();
        for (row, concept) in rows.iter().zip(CONCEPTS) {
            let tie = concept.tie_analysis(weighted);
            assert_eq!(row["ends_proven"], tie.ends_unproven.is_none(), "{row}");
            let exact = tie.expected_missing.is_none();
            assert_eq!(row["expected_exact"], exact, "{row}");
            let fields = lines.iter().find(|l| l[0] == concept.name).unwrap();
            let proven = tie.ends_unproven.is_none().to_string();
            assert_eq!(fields[column("ends_proven")], proven);
            assert_eq!(fields[column("expected_exact")], exact.to_string());
            for why in tie.ends_unproven.into_iter().chain(tie.expected_missing) {
                assert!(row["note"].as_str().unwrap().contains(why), "{row}");
                assert!(fields[column("note")].contains(why), "{fields:?}");
                assert!(table.stdout.contains(why) && markdown.stdout.contains(why));
            }
            if tie.ends_unproven.is_some() {
                unproven += 1;
                // No convention is said to lie outside an interval that may be too narrow.
                assert_eq!(row["outside_interval"], Value::Array(vec![]), "{row}");
            }
        }
        // Weighted: the label AP, interpolated AP and AUC-PR rows.
        assert_eq!(unproven, if weighted { 5 } else { 0 });
    }
}
