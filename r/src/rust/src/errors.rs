//! Failures as R sees them: every call returns a list, either `list(value = ...)` or
//! `list(error = message, class = kind, row = i, column = j)`, and the R wrapper raises the
//! condition (class `rankmetrics_<kind>`, `rankmetrics_error`). No R error is raised from
//! Rust, so no unwinding or long jump crosses the FFI boundary.

use extendr_api::prelude::*;
use rankmetrics::registry::LookupError;
use rankmetrics::Error;

/// What went wrong, for R: a kind (snake case), a message with 1-based positions, and the
/// position when there is one.
#[derive(Debug)]
pub struct Failure {
    kind: String,
    message: String,
    row: Option<usize>,
    column: Option<usize>,
}

impl Failure {
    /// A failure of `kind` (the condition class is `rankmetrics_<kind>`).
    pub fn new(kind: &str, message: String) -> Self {
        Failure {
            kind: kind.into(),
            message,
            row: None,
            column: None,
        }
    }

    /// The same failure at 0-based (`row`, `column`), reported 1-based.
    pub fn at(mut self, row: usize, column: usize) -> Self {
        self.row = Some(row);
        self.column = Some(column);
        self
    }

    fn at_row(mut self, row: usize) -> Self {
        self.row = Some(row);
        self
    }

    /// The list the R wrapper turns into a condition.
    pub fn into_robj(self) -> Robj {
        let one_based = |v: Option<usize>| v.map(|v| (v + 1) as f64);
        list!(
            error = self.message,
            class = self.kind,
            row = one_based(self.row),
            column = one_based(self.column)
        )
        .into()
    }
}

/// `"InvalidLabel"` → `"invalid_label"`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        // The variant's name, from its Debug form ("InvalidLabel { .. }" → "InvalidLabel").
        let debug = format!("{error:?}");
        let name: String = debug
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        let kind = match &error {
            Error::Lookup(_) => "parameter".to_string(),
            _ => snake(&name),
        };
        // R counts rows and columns from 1: the messages that name a position say it so.
        match error {
            Error::InvalidLabel {
                row,
                column,
                value,
                expected,
            } => Failure::new(
                &kind,
                format!(
                    "y_true[{}, {}] is {value}; expected {expected}",
                    row + 1,
                    column + 1
                ),
            )
            .at(row, column),
            Error::NonFiniteScore { row, column, value } => Failure::new(
                &kind,
                format!(
                    "y_score[{}, {}] is {value}, not a finite number",
                    row + 1,
                    column + 1
                ),
            )
            .at(row, column),
            Error::InvalidWeight { row, value } => Failure::new(
                &kind,
                format!(
                    "sample_weight[{}] is {value}; weights must be finite and non-negative",
                    row + 1
                ),
            )
            .at_row(row),
            Error::DegenerateRow { row, kind: what } => Failure::new(
                &kind,
                format!(
                    "row {} has {what}, which this metric is configured to reject",
                    row + 1
                ),
            )
            .at_row(row),
            Error::ShapeMismatch { expected, found } => Failure::new(
                &kind,
                format!(
                    "y_true is {} x {} but y_score is {} x {} (rows, labels)",
                    expected.0, expected.1, found.0, found.1
                ),
            ),
            other => Failure::new(&kind, other.to_string()),
        }
    }
}

impl From<LookupError> for Failure {
    fn from(error: LookupError) -> Self {
        Failure::new("parameter", error.to_string())
    }
}

/// A value (or a failure) as the list the R wrapper reads.
pub fn reply(result: Result<Robj, Failure>) -> Robj {
    match result {
        Ok(value) => list!(value = value).into(),
        Err(failure) => failure.into_robj(),
    }
}
