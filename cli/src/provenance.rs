//! Where a result came from, printed with it: the rankmetrics version, the toolkit release
//! each convention reproduces, and each input (its path as given, its shape and the SHA-256
//! of its bytes, or the built-in example).
//!
//! JSON carries it as a top-level `provenance` object, Markdown as a few lines under the
//! table, CSV as extra columns (not `#` comment lines: pandas' `read_csv` and R's `read.csv`
//! read those as data unless told otherwise). The aligned table for the terminal leaves it out.

use std::path::Path;

use rankmetrics::registry::Convention;
use serde_json::Value;

use crate::args::DataArgs;
use crate::input::Inputs;
use crate::sha256;

/// This command's version, which is the library's (one workspace, one version).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The shape of each input as read: (rows, columns), the weights as one column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shapes {
    pub y_true: (usize, usize),
    pub y_score: (usize, usize),
    pub weights: Option<usize>,
}

impl From<&Inputs> for Shapes {
    fn from(inputs: &Inputs) -> Shapes {
        Shapes {
            y_true: (inputs.y_true.rows, inputs.y_true.cols),
            y_score: (inputs.y_score.rows, inputs.y_score.cols),
            weights: inputs.weights.as_ref().map(Vec::len),
        }
    }
}

/// One input: what it is and where it came from.
#[derive(Debug, Clone, PartialEq)]
struct Input {
    /// `y_true`, `y_score` or `sample_weight`, as in the options' names.
    role: &'static str,
    /// The path as given on the command line and the SHA-256 of its bytes as stored (a `.gz`
    /// file's compressed bytes: what `sha256sum` prints), `None` for what is not a regular
    /// file (a pipe: its bytes are gone once read); `None` for the built-in example.
    file: Option<(String, Option<String>)>,
    rows: usize,
    cols: usize,
}

/// What a run's output says about where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Provenance {
    /// The conventions whose toolkits the output reproduces, in order, each once.
    conventions: Vec<Convention>,
    inputs: Vec<Input>,
}

impl Provenance {
    /// The provenance of a run on the data `data` names (or the built-in example), read with
    /// the shapes `shapes`, reporting results of `conventions`.
    ///
    /// # Errors
    /// A message naming a file that cannot be read again for its hash.
    pub fn new(
        data: &DataArgs, shapes: Shapes, conventions: impl IntoIterator<Item = Convention>,
    ) -> Result<Provenance, String> {
        let mut seen: Vec<Convention> = Vec::new();
        for c in conventions {
            if c.reproduces().is_some() && !seen.contains(&c) {
                seen.push(c);
            }
        }
        let file = |path: Option<&Path>| -> Result<Option<(String, Option<String>)>, String> {
            path.map(|p| {
                let regular = std::fs::metadata(p).is_ok_and(|m| m.is_file());
                let hash = regular
                    .then(|| sha256::file(p))
                    .transpose()
                    .map_err(|e| format!("{}: cannot read: {e}", p.display()))?;
                Ok((p.display().to_string(), hash))
            })
            .transpose()
        };
        let mut inputs = vec![
            Input {
                role: "y_true",
                file: file(data.y_true.as_deref())?,
                rows: shapes.y_true.0,
                cols: shapes.y_true.1,
            },
            Input {
                role: "y_score",
                file: file(data.y_score.as_deref())?,
                rows: shapes.y_score.0,
                cols: shapes.y_score.1,
            },
        ];
        if let (Some(rows), Some(_)) = (shapes.weights, &data.sample_weight) {
            inputs.push(Input {
                role: "sample_weight",
                file: file(data.sample_weight.as_deref())?,
                rows,
                cols: 1,
            });
        }
        Ok(Provenance {
            conventions: seen,
            inputs,
        })
    }

    /// The `provenance` object of the JSON outputs, on one line:
    /// `{"rankmetrics": "0.1.0", "reproduces": {"sklearn": "scikit-learn 1.9.1"}, "inputs":
    /// {"y_true": {"path": ..., "rows": 2, "columns": 3, "sha256": ...}, ...}}`; the built-in
    /// example's inputs say `"built_in_example": true` instead of a path and hash; the hash of
    /// what is not a regular file is `null`.
    pub fn json(&self) -> String {
        let reproduces: Vec<String> = self
            .conventions
            .iter()
            .map(|&c| format!("{}: {}", s(c.name()), s(c.reproduces().unwrap_or_default())))
            .collect();
        let inputs: Vec<String> = self
            .inputs
            .iter()
            .map(|i| {
                let shape = format!("\"rows\": {}, \"columns\": {}", i.rows, i.cols);
                let body = match &i.file {
                    Some((path, hash)) => format!(
                        "\"path\": {}, {shape}, \"sha256\": {}",
                        s(path),
                        hash.as_deref().map_or(Value::Null, s)
                    ),
                    None => format!("\"built_in_example\": true, {shape}"),
                };
                format!("{}: {{{body}}}", s(i.role))
            })
            .collect();
        format!(
            "{{\"rankmetrics\": {}, \"reproduces\": {{{}}}, \"inputs\": {{{}}}}}",
            s(VERSION),
            reproduces.join(", "),
            inputs.join(", ")
        )
    }

    /// The names of the CSV outputs' provenance columns, the same for every run (the weight
    /// columns are empty without weights).
    pub const CSV_COLUMNS: [&'static str; 11] = [
        "rankmetrics_version",
        "reproduces",
        "y_true",
        "y_true_shape",
        "y_true_sha256",
        "y_score",
        "y_score_shape",
        "y_score_sha256",
        "sample_weight",
        "sample_weight_shape",
        "sample_weight_sha256",
    ];

    /// The values of [`CSV_COLUMNS`](Self::CSV_COLUMNS): `reproduces` names the toolkit of
    /// `convention`, or every toolkit of the run (separated by "; ") for `None`; a shape is
    /// `ROWSxCOLUMNS`; the built-in example's inputs are named "built-in example", unhashed.
    pub fn csv_fields(&self, convention: Option<Convention>) -> Vec<String> {
        let reproduces = match convention {
            Some(c) => c.reproduces().unwrap_or_default().to_string(),
            None => self
                .conventions
                .iter()
                .filter_map(|&c| c.reproduces())
                .collect::<Vec<_>>()
                .join("; "),
        };
        let mut fields = vec![VERSION.to_string(), reproduces];
        for role in ["y_true", "y_score", "sample_weight"] {
            match self.inputs.iter().find(|i| i.role == role) {
                Some(i) => {
                    let (name, hash) = match &i.file {
                        Some((path, hash)) => (path.clone(), hash.clone().unwrap_or_default()),
                        None => ("built-in example".to_string(), String::new()),
                    };
                    fields.extend([name, format!("{}x{}", i.rows, i.cols), hash]);
                }
                None => fields.extend([String::new(), String::new(), String::new()]),
            }
        }
        fields
    }

    /// The Markdown block under a table: one line for the versions, one per input, each
    /// ending in a hard line break.
    pub fn markdown(&self) -> String {
        let mut text = format!("Computed with rankmetrics {VERSION}");
        let toolkits: Vec<&str> = self
            .conventions
            .iter()
            .filter_map(|&c| c.reproduces())
            .collect();
        if !toolkits.is_empty() {
            text.push_str(&format!(", reproducing {}", toolkits.join("; ")));
        }
        text.push_str(".  \n");
        for i in &self.inputs {
            let shape = format!("{} × {}", i.rows, i.cols);
            let hash = |h: &Option<String>| {
                h.as_ref()
                    .map_or("not hashed (not a regular file)".into(), |h| {
                        format!("sha256 `{h}`")
                    })
            };
            match &i.file {
                Some((path, h)) => text.push_str(&format!(
                    "{}: `{}`, {shape}, {}  \n",
                    i.role,
                    path.replace('`', "'"),
                    hash(h)
                )),
                None => text.push_str(&format!("{}: the built-in example, {shape}  \n", i.role)),
            }
        }
        text
    }
}

fn s(text: &str) -> Value {
    Value::String(text.to_string())
}
