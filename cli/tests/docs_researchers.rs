//! Runs every command of docs/researchers.md against the built binary and checks that it
//! prints what the page shows, so the page cannot drift from the command.
//!
//! The page's conventions:
//! - a ```` ```console ```` block holds commands, each on a line starting with `$ ` (a trailing
//!   `\` continues it), followed by the lines it prints on standard output; a line `...` stands
//!   for any number of lines (none included). Lines are compared with runs of spaces collapsed,
//!   so column alignment may change. `> FILE` after a command writes its output to FILE
//!   instead, and then no output is shown. Only `rankmetrics` commands may appear.
//! - a fenced block whose info string has `file=NAME` is a file the reader saves as NAME.
//! - a line `<!-- docs-test: policies ARGS -->` precedes a Markdown table with a row per tie
//!   policy and a column per metric of `eval ARGS`: each cell is that value to four decimals.
//!
//! Every command runs in one scratch directory, in the page's order, so files written by an
//! earlier command (or block) are there for later ones.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const PAGE: &str = include_str!("../../docs/researchers.md");

/// A directory under the system temp dir, unique to this process, removed on drop.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "rankmetrics-docs-researchers-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch { dir }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One step of the page, in the page's order.
#[derive(Debug)]
enum Step {
    /// A file the reader saves.
    File { name: String, contents: String },
    /// A command (its words, without `rankmetrics`), where its output goes, and what it prints.
    Command {
        line: usize,
        args: Vec<String>,
        redirect: Option<String>,
        expected: Vec<String>,
    },
    /// A table of values per tie policy: `eval` arguments, the metrics (columns) and rows of
    /// (policy, cells).
    Policies {
        line: usize,
        args: Vec<String>,
        metrics: Vec<String>,
        rows: Vec<(String, Vec<String>)>,
    },
}

/// Splits a command line into words, honouring single and double quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(quote.is_none(), "unterminated quote in {line:?}");
    if in_word {
        out.push(word);
    }
    out
}

/// The commands of one console block starting at page line `first` (1-based, of its first
/// content line).
fn console_steps(lines: &[&str], first: usize, steps: &mut Vec<Step>) {
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let Some(command) = line.strip_prefix("$ ") else {
            panic!(
                "docs/researchers.md:{}: output before any command: {line:?}",
                first + i
            );
        };
        let start = first + i;
        let mut command = command.to_string();
        while command.ends_with('\\') {
            command.pop();
            i += 1;
            command.push(' ');
            command.push_str(lines[i].trim());
        }
        i += 1;
        let mut expected = Vec::new();
        while i < lines.len() && !lines[i].starts_with("$ ") {
            expected.push(lines[i].to_string());
            i += 1;
        }
        let mut args = words(&command);
        assert_eq!(
            args.first().map(String::as_str),
            Some("rankmetrics"),
            "docs/researchers.md:{start}: only rankmetrics commands are run"
        );
        args.remove(0);
        let redirect = match args.iter().position(|a| a == ">") {
            Some(at) => {
                assert_eq!(
                    at + 2,
                    args.len(),
                    "docs/researchers.md:{start}: `> FILE` ends a command"
                );
                assert!(
                    expected.is_empty(),
                    "docs/researchers.md:{start}: a redirected command shows no output"
                );
                let file = args.pop();
                args.pop();
                file
            }
            None => None,
        };
        steps.push(Step::Command {
            line: start,
            args,
            redirect,
            expected,
        });
    }
}

/// The cells of a Markdown table row, trimmed.
fn cells(row: &str) -> Vec<String> {
    let row = row.trim().trim_start_matches('|').trim_end_matches('|');
    row.split('|').map(|c| c.trim().to_string()).collect()
}

/// Reads the page's steps in order.
fn steps(page: &str) -> Vec<Step> {
    let lines: Vec<&str> = page.lines().collect();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            // A fence indented in a list item: its content carries the same indentation.
            let indent = lines[i].len() - trimmed.len();
            let start = i + 1;
            let mut end = start;
            while !lines[end].trim_start().starts_with("```") {
                end += 1;
            }
            let body: Vec<&str> = lines[start..end]
                .iter()
                .map(|l| l.get(indent..).unwrap_or("").trim_end())
                .collect();
            let mut info = info.split_whitespace();
            let language = info.next().unwrap_or("");
            if let Some(name) = info.find_map(|w| w.strip_prefix("file=")) {
                steps.push(Step::File {
                    name: name.to_string(),
                    contents: body.iter().map(|l| format!("{l}\n")).collect(),
                });
            } else if language == "console" {
                console_steps(&body, start + 1, &mut steps);
            }
            i = end + 1;
        } else if let Some(args) = trimmed
            .strip_prefix("<!-- docs-test: policies ")
            .and_then(|rest| rest.strip_suffix("-->"))
        {
            let header = cells(lines[i + 1]);
            assert_eq!(header[0], "policy", "docs/researchers.md:{}", i + 2);
            let mut rows = Vec::new();
            let mut j = i + 3;
            while j < lines.len() && lines[j].starts_with('|') {
                let mut row = cells(lines[j]);
                let policy = row.remove(0).trim_matches('`').to_string();
                rows.push((policy, row));
                j += 1;
            }
            steps.push(Step::Policies {
                line: i + 1,
                args: words(args),
                metrics: header[1..].to_vec(),
                rows,
            });
            i = j;
        } else {
            i += 1;
        }
    }
    steps
}

/// Runs the binary in `dir`; panics unless it succeeds. Returns its standard output.
fn run(dir: &Path, line: usize, args: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rankmetrics"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "docs/researchers.md:{line}: rankmetrics {args:?} failed ({:?}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// A line with runs of whitespace collapsed to one space.
fn normalised(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `actual` matches `expected`, where an expected line `...` matches any number of
/// lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual.first() == Some(first) && matches(rest, &actual[1..]),
    }
}

/// Checks a policy table against `eval ARGS --metric M... --ties P,... --format json`.
fn check_policies(
    dir: &Path, line: usize, args: &[String], metrics: &[String], rows: &[(String, Vec<String>)],
) {
    let policies: Vec<&str> = rows.iter().map(|(p, _)| p.as_str()).collect();
    let mut command = args.to_vec();
    for metric in metrics {
        command.extend(["--metric".to_string(), metric.clone()]);
    }
    command.extend([
        "--ties".to_string(),
        policies.join(","),
        "--format".to_string(),
        "json".to_string(),
        "--quiet".to_string(),
    ]);
    let mut full = vec!["eval".to_string()];
    full.extend(command);
    let stdout = run(dir, line, &full);
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let results = doc["results"].as_array().unwrap();
    for (policy, cells) in rows {
        assert_eq!(
            cells.len(),
            metrics.len(),
            "docs/researchers.md:{line}: row {policy}"
        );
        for (metric, cell) in metrics.iter().zip(cells) {
            let result = results
                .iter()
                .find(|r| r["metric"] == metric.as_str() && r["params"]["ties"] == policy.as_str())
                .unwrap_or_else(|| panic!("no result for {metric} under {policy}: {stdout}"));
            let value = result["value"].as_f64().unwrap();
            let shown: f64 = cell.parse().unwrap();
            assert!(
                cell.split('.').nth(1).map_or(0, str::len) <= 4 && (value - shown).abs() <= 0.5e-4 + 1e-12,
                "docs/researchers.md:{line}: {metric} under {policy} shows {cell}, the command gives {value}"
            );
        }
    }
}

#[test]
fn every_command_prints_what_the_page_shows() {
    let scratch = Scratch::new();
    let steps = steps(PAGE);
    let commands = steps
        .iter()
        .filter(|s| matches!(s, Step::Command { .. }))
        .count();
    assert!(
        commands >= 8,
        "the page's commands were not found: {steps:?}"
    );
    for step in &steps {
        match step {
            Step::File { name, contents } => {
                std::fs::write(scratch.dir.join(name), contents).unwrap()
            }
            Step::Command {
                line,
                args,
                redirect,
                expected,
            } => {
                let stdout = run(&scratch.dir, *line, args);
                if let Some(file) = redirect {
                    std::fs::write(scratch.dir.join(file), stdout).unwrap();
                    continue;
                }
                let actual: Vec<String> = stdout.trim_end().lines().map(normalised).collect();
                let wanted: Vec<String> = expected.iter().map(|l| normalised(l)).collect();
                assert!(
                    matches(&wanted, &actual),
                    "docs/researchers.md:{line}: `rankmetrics {}` printed\n{stdout}\nbut the page shows\n{}",
                    args.join(" "),
                    expected.join("\n")
                );
            }
            Step::Policies {
                line,
                args,
                metrics,
                rows,
            } => check_policies(&scratch.dir, *line, args, metrics, rows),
        }
    }
}

#[test]
fn an_ellipsis_matches_any_number_of_lines() {
    let s = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&s(&["a", "...", "d"]), &s(&["a", "b", "c", "d"])));
    assert!(matches(&s(&["a", "...", "b"]), &s(&["a", "b"])));
    assert!(matches(&s(&["a", "..."]), &s(&["a"])));
    assert!(!matches(&s(&["a", "...", "d"]), &s(&["a", "b", "c"])));
    assert!(!matches(&s(&["a"]), &s(&["a", "b"])));
}

#[test]
fn words_split_like_a_shell() {
    assert_eq!(
        words("eval --param 'a b' \"c\"  d"),
        ["eval", "--param", "a b", "c", "d"]
    );
    assert_eq!(words("x > out.csv"), ["x", ">", "out.csv"]);
}
