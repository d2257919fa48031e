//! Failures as R sees them: every call returns a list, either `list(value = ...)` or
//! `list(error = message, class = kind, row = i, column = j)` or, when the user interrupted
//! it, `list(interrupted = TRUE)`, and the R wrapper raises the condition (class `rankmetrics_<kind>`, `rankmetrics_error`). No R error is raised from
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

/// The condition class's kind (`rankmetrics_<kind>`) of each error of the crate, written out
/// so that renaming a variant cannot change a documented class.
fn kind(error: &Error) -> &'static str {
    match error {
        Error::ShapeMismatch { .. } => "shape_mismatch",
        Error::RaggedRow { .. } => "ragged_row",
        Error::DataLength { .. } => "data_length",
        Error::NoSamples => "no_samples",
        Error::NoLabels => "no_labels",
        Error::NonFiniteScore { .. } => "non_finite_score",
        Error::InvalidLabel { .. } => "invalid_label",
        Error::TooFewLabels { .. } => "too_few_labels",
        Error::WeightLength { .. } => "weight_length",
        Error::InvalidWeight { .. } => "invalid_weight",
        Error::ZeroTotalWeight => "zero_total_weight",
        Error::InvalidK { .. } => "invalid_k",
        Error::InvalidLogBase { .. } => "invalid_log_base",
        Error::DegenerateRow { .. } => "degenerate_row",
        Error::SingleClass => "single_class",
        Error::TooFewRecallLevels { .. } => "too_few_recall_levels",
        Error::TooManyRecallLevels { .. } => "too_many_recall_levels",
        Error::NotRowWise => "not_row_wise",
        Error::UnsupportedPolicy { .. } => "unsupported_policy",
        Error::NotExactInRuns(_) => "not_exact_in_runs",
        Error::LabelWeightLength { .. } => "label_weight_length",
        Error::InvalidLabelWeight { .. } => "invalid_label_weight",
        Error::InvalidPropensityParameter { .. } => "invalid_propensity_parameter",
        Error::InvalidIndptr { .. } => "invalid_indptr",
        Error::SparseColumnOutOfRange { .. } => "sparse_column_out_of_range",
        Error::UnsortedSparseRow { .. } => "unsorted_sparse_row",
        Error::SparseGainsLength { .. } => "sparse_gains_length",
        Error::Incompatible(_) => "incompatible",
        Error::TooManyItems { .. } => "too_many_items",
        Error::RowNumberOverflow { .. } => "row_number_overflow",
        Error::Lookup(_) => "parameter",
        Error::OutOfMemory { .. } => "memory",
        // A variant added to the crate later: still a condition, of a general class.
        _ => "input",
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        let kind = kind(&error);
        // R counts rows and columns from 1: the messages that name a position say it so.
        match error {
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
            )
            .at(row, column),
            Error::NonFiniteScore { row, column, value } => Failure::new(
                kind,
                format!(
                    "y_score[{}, {}] is {value}, not a finite number",
                    row + 1,
                    column + 1
                ),
            )
            .at(row, column),
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
            )
            .at_row(row),
            Error::DegenerateRow { row, kind: what } => Failure::new(
                kind,
                format!(
                    "row {} has {what}, which this metric is configured to reject",
                    row + 1
                ),
            )
            .at_row(row),
            Error::ShapeMismatch { expected, found } => Failure::new(
                kind,
                format!(
                    "y_true is {} x {} but y_score is {} x {} (rows, labels)",
                    expected.0, expected.1, found.0, found.1
                ),
            ),
            other => Failure::new(kind, other.to_string()),
        }
    }
}

impl From<LookupError> for Failure {
    fn from(error: LookupError) -> Self {
        Failure::new("parameter", error.to_string())
    }
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
