//! The crate's typed errors as Python exceptions (classes of `rankmetrics.exceptions`), with
//! the error's kind and its fields (row, column, input, value, ...) as attributes.

use std::str::FromStr;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rankmetrics::registry::LookupError;
use rankmetrics::{Error, Incompatibility, UnknownName};

/// The exception for `error`: its class, `kind` (the crate's [`Error::kind`] in CamelCase),
/// message and fields (its [`Error::location`] and the values it carries).
pub fn to_py(error: Error) -> PyErr {
    Python::attach(|py| match build(py, &error) {
        Ok(err) => err,
        Err(err) => err,
    })
}

/// The exception for a lookup (metric name or parameter) error.
pub fn lookup_to_py(error: LookupError) -> PyErr {
    to_py(Error::Lookup(error))
}

fn build(py: Python<'_>, error: &Error) -> PyResult<PyErr> {
    let fields = PyDict::new(py);
    let at = error.location();
    if let Some(input) = at.input {
        fields.set_item("input", input.to_string())?;
    }
    if let Some(row) = at.row {
        fields.set_item("row", row)?;
    }
    if let Some(column) = at.column {
        fields.set_item("column", column)?;
    }
    details(error, &fields)?;
    let module = py.import("rankmetrics.exceptions")?;
    let instance = module.getattr(class(error.kind()))?.call1((
        error.to_string(),
        python_kind(error),
        fields,
    ))?;
    Ok(PyErr::from_value(instance))
}

/// The exception class of the crate's error kind ([`Error::kind`]).
fn class(kind: &str) -> &'static str {
    match kind {
        "zero_total_weight" | "single_class" | "degenerate_row" => "UndefinedMetricError",
        "invalid_k"
        | "invalid_log_base"
        | "too_few_recall_levels"
        | "too_many_recall_levels"
        | "unsupported_policy"
        | "not_row_wise"
        | "not_labelwise"
        | "not_exact_in_runs"
        | "label_weight_length"
        | "invalid_label_weight"
        | "invalid_propensity_parameter"
        | "parameter" => "ParameterError",
        "incompatible" | "invalid_state" => "IncompatibleStateError",
        "memory" => "OutOfMemoryError",
        _ => "RankmetricsError",
    }
}

/// The exception's `kind`: the crate's kind in CamelCase (`non_finite_score` is
/// `NonFiniteScore`), except where Python's kinds name a finer or coarser case.
fn python_kind(error: &Error) -> String {
    let kind = match error {
        Error::Lookup(lookup) => lookup.kind(),
        Error::Incompatible(Incompatibility::Overlap { .. }) => "overlap",
        Error::TooFewRecallLevels { .. } | Error::TooManyRecallLevels { .. } => "recall_levels",
        Error::OutOfMemory { .. } => "out_of_memory",
        error => error.kind(),
    };
    kind.split('_')
        .flat_map(|word| {
            let mut letters = word.chars();
            letters
                .next()
                .map(|first| first.to_ascii_uppercase())
                .into_iter()
                .chain(letters)
        })
        .collect()
}

/// The fields of `error` besides its location: the value found, what was expected, ...
fn details(error: &Error, fields: &Bound<'_, PyDict>) -> PyResult<()> {
    match error {
        Error::ShapeMismatch { expected, found } => {
            fields.set_item("expected", *expected)?;
            fields.set_item("found", *found)?;
        }
        Error::TooFewLabels {
            required: expected,
            found,
        }
        | Error::WeightLength { expected, found }
        | Error::LabelWeightLength { expected, found }
        | Error::TooManyItems {
            max: expected,
            found,
        } => {
            fields.set_item("expected", *expected)?;
            fields.set_item("found", *found)?;
        }
        Error::InvalidLabel {
            value, expected, ..
        } => {
            fields.set_item("value", *value)?;
            fields.set_item("expected", expected.to_string())?;
        }
        Error::NonFiniteScore { value, .. }
        | Error::InvalidWeight { value, .. }
        | Error::InvalidLogBase { value }
        | Error::InvalidLabelWeight { value, .. } => fields.set_item("value", *value)?,
        Error::InvalidK { value: count }
        | Error::TooFewRecallLevels { found: count }
        | Error::TooManyRecallLevels { found: count, .. } => fields.set_item("value", *count)?,
        Error::DegenerateRow { kind, .. } => fields.set_item("degeneracy", kind.to_string())?,
        Error::UnsupportedPolicy { policy, .. } => fields.set_item("value", policy.to_string())?,
        Error::InvalidPropensityParameter { parameter, value } => {
            fields.set_item("parameter", parameter.to_string())?;
            fields.set_item("value", *value)?;
        }
        Error::Lookup(LookupError::InvalidParam { key, .. })
        | Error::Lookup(LookupError::UnknownParam { key, .. }) => {
            fields.set_item("parameter", key)?
        }
        Error::RowNumberOverflow { rows, .. } => fields.set_item("found", *rows)?,
        Error::InvalidState { field, index, .. } => {
            fields.set_item("field", *field)?;
            fields.set_item("index", *index)?;
        }
        Error::OutOfMemory { bytes } => fields.set_item("bytes", *bytes)?,
        _ => {}
    }
    Ok(())
}

/// An exception for a state that cannot be read back (`IncompatibleStateError`).
pub fn state_error(message: String) -> PyErr {
    Python::attach(|py| {
        let build = || -> PyResult<PyErr> {
            let class = py
                .import("rankmetrics.exceptions")?
                .getattr("IncompatibleStateError")?;
            Ok(PyErr::from_value(class.call1((
                message.clone(),
                "State",
                PyDict::new(py),
            ))?))
        };
        build().unwrap_or_else(|e| e)
    })
}

/// A `ParameterError` (kind `InvalidParam`) for a parameter of a binding function that the
/// crate never sees as text: the convention, a tie policy, an average, a count.
pub fn parameter_error(message: String, parameter: &str) -> PyErr {
    Python::attach(|py| {
        let build = || -> PyResult<PyErr> {
            let class = py
                .import("rankmetrics.exceptions")?
                .getattr("ParameterError")?;
            let fields = PyDict::new(py);
            fields.set_item("parameter", parameter)?;
            Ok(PyErr::from_value(class.call1((
                message.clone(),
                "InvalidParam",
                fields,
            ))?))
        };
        build().unwrap_or_else(|e| e)
    })
}

/// `text` read as a setting's name by the crate's parser (a convention, an averaging, an
/// undefined rule, a tie policy); a name it does not know is a `ParameterError` (kind
/// `InvalidParam`) for `parameter` whose message lists the names it takes.
pub fn parse_name<T>(text: &str, parameter: &str) -> PyResult<T>
where
    T: FromStr<Err = UnknownName>,
{
    text.parse()
        .map_err(|e: UnknownName| parameter_error(e.to_string(), parameter))
}
