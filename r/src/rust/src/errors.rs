//! Failures as R sees them: every call returns a list, either `list(value = ...)` or
//! `list(error = message, class = kind, row = i, column = j)` or, when the user interrupted
//! it, `list(interrupted = TRUE)`, and the R wrapper raises the condition (class `rankmetrics_<kind>`, the kind being the
//! crate's `Error::kind`, and `rankmetrics_error`). No R error is raised from
//! Rust, so no unwinding or long jump crosses the FFI boundary.

use std::str::FromStr;

use extendr_api::prelude::*;
use rankmetrics::registry::LookupError;
use rankmetrics::{Error, UnknownName};

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

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        // The condition class is the crate's kind, stable across releases.
        let kind = error.kind();
        let at = error.location();
        // R counts rows and columns from 1: the messages that name a position say it so.
        let failure = match error {
            Error::InvalidLabel {
                row,
                column,
                value,
                expected,
            } => Failure::new(
                kind,
                format!(
                    "y_true[{}, {}] is {value}; expected {expected}",
                    row + 1,
                    column + 1
                ),
            ),
            Error::NonFiniteScore { row, column, value } => Failure::new(
                kind,
                format!(
                    "y_score[{}, {}] is {value}, not a finite number",
                    row + 1,
                    column + 1
                ),
            ),
            Error::InvalidWeight { row, value } => Failure::new(
                kind,
                format!(
                    "sample_weight[{}] is {}; weights must be finite and non-negative",
                    row + 1,
                    // R's NA is a NaN to Rust: name both, as for y_true and y_score.
                    if value.is_nan() {
                        "NA or NaN".to_string()
                    } else {
                        value.to_string()
                    }
                ),
            ),
            Error::DegenerateRow { row, kind: what } => Failure::new(
                kind,
                format!(
                    "row {} has {what}, which this metric is configured to reject",
                    row + 1
                ),
            ),
            Error::ShapeMismatch { expected, found } => Failure::new(
                kind,
                format!(
                    "y_true is {} x {} but y_score is {} x {} (rows, labels)",
                    expected.0, expected.1, found.0, found.1
                ),
            ),
            other => Failure::new(kind, other.to_string()),
        };
        Failure {
            row: at.row,
            column: at.column,
            ..failure
        }
    }
}

impl From<LookupError> for Failure {
    fn from(error: LookupError) -> Self {
        Failure::from(Error::Lookup(error))
    }
}

impl From<UnknownName> for Failure {
    fn from(error: UnknownName) -> Self {
        Failure::new("parameter", error.to_string())
    }
}

/// `text` read as a setting's name by the crate's parser (a convention, an averaging, an
/// undefined rule, a tie policy); a name it does not know is a `rankmetrics_parameter`
/// condition whose message lists the names it takes.
pub fn parse_name<T: FromStr<Err = UnknownName>>(text: &str) -> Result<T, Failure> {
    Ok(text.parse()?)
}

/// The reply of a call the user interrupted: `list(interrupted = TRUE)`.
pub fn interrupted() -> Robj {
    list!(interrupted = true).into()
}

/// A value (or a failure) as the list the R wrapper reads.
pub fn reply(result: Result<Robj, Failure>) -> Robj {
    match result {
        Ok(value) => list!(value = value).into(),
        Err(failure) => failure.into_robj(),
    }
}
