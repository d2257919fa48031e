//! The crate's typed errors as Python exceptions (classes of `rankmetrics.exceptions`), with
//! the error's kind and its fields (row, column, input, value, ...) as attributes.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rankmetrics::registry::LookupError;
use rankmetrics::{Error, Incompatibility};

/// The exception for `error`: its class, `kind` (the crate's variant name), message and
/// fields.
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
    let (class, kind) = describe(error, &fields)?;
    let module = py.import("rankmetrics.exceptions")?;
    let instance = module
        .getattr(class)?
        .call1((error.to_string(), kind, fields))?;
    Ok(PyErr::from_value(instance))
}

/// The Python class and kind of `error`, its fields put in `fields`.
fn describe(error: &Error, fields: &Bound<'_, PyDict>) -> PyResult<(&'static str, &'static str)> {
    const INPUT: &str = "RankmetricsError";
    Ok(match error {
        Error::ShapeMismatch { expected, found } => {
            fields.set_item("expected", *expected)?;
            fields.set_item("found", *found)?;
            (INPUT, "ShapeMismatch")
        }
        Error::NoSamples => (INPUT, "NoSamples"),
        Error::NoLabels => (INPUT, "NoLabels"),
        Error::NonFiniteScore { row, column, value } => {
            fields.set_item("input", "y_score")?;
            fields.set_item("row", *row)?;
            fields.set_item("column", *column)?;
            fields.set_item("value", *value)?;
            (INPUT, "NonFiniteScore")
        }
        Error::InvalidLabel {
            row,
            column,
            value,
            expected,
        } => {
            fields.set_item("input", "y_true")?;
            fields.set_item("row", *row)?;
            fields.set_item("column", *column)?;
            fields.set_item("value", *value)?;
            fields.set_item("expected", expected.to_string())?;
            (INPUT, "InvalidLabel")
        }
        Error::TooFewLabels { required, found } => {
            fields.set_item("expected", *required)?;
            fields.set_item("found", *found)?;
            (INPUT, "TooFewLabels")
        }
        Error::WeightLength { expected, found } => {
            fields.set_item("input", "sample_weight")?;
            fields.set_item("expected", *expected)?;
            fields.set_item("found", *found)?;
            (INPUT, "WeightLength")
        }
        Error::InvalidWeight { row, value } => {
            fields.set_item("input", "sample_weight")?;
            fields.set_item("row", *row)?;
            fields.set_item("value", *value)?;
            (INPUT, "InvalidWeight")
        }
        Error::ZeroTotalWeight => ("UndefinedMetricError", "ZeroTotalWeight"),
        Error::SingleClass => ("UndefinedMetricError", "SingleClass"),
        Error::DegenerateRow { row, kind } => {
            fields.set_item("row", *row)?;
            fields.set_item("degeneracy", kind.to_string())?;
            ("UndefinedMetricError", "DegenerateRow")
        }
        Error::InvalidK { value } => {
            fields.set_item("value", *value)?;
            ("ParameterError", "InvalidK")
        }
        Error::InvalidLogBase { value } => {
            fields.set_item("value", *value)?;
            ("ParameterError", "InvalidLogBase")
        }
        Error::TooFewRecallLevels { found } | Error::TooManyRecallLevels { found, .. } => {
            fields.set_item("value", *found)?;
            ("ParameterError", "RecallLevels")
        }
        Error::UnsupportedPolicy { policy } => {
            fields.set_item("value", policy.to_string())?;
            ("ParameterError", "UnsupportedPolicy")
        }
        Error::NotRowWise => ("ParameterError", "NotRowWise"),
        Error::NotExactInRuns(_) => ("ParameterError", "NotExactInRuns"),
        Error::LabelWeightLength { expected, found } => {
            fields.set_item("expected", *expected)?;
            fields.set_item("found", *found)?;
            ("ParameterError", "LabelWeightLength")
        }
        Error::InvalidLabelWeight { column, value } => {
            fields.set_item("column", *column)?;
            fields.set_item("value", *value)?;
            ("ParameterError", "InvalidLabelWeight")
        }
        Error::InvalidPropensityParameter { parameter, value } => {
            fields.set_item("parameter", parameter.to_string())?;
            fields.set_item("value", *value)?;
            ("ParameterError", "InvalidPropensityParameter")
        }
        Error::Lookup(lookup) => {
            let kind = match lookup {
                LookupError::UnknownMetric { .. } => "UnknownMetric",
                LookupError::InvalidParam { key, .. } => {
                    fields.set_item("parameter", key)?;
                    "InvalidParam"
                }
                LookupError::UnknownParam { key, .. } => {
                    fields.set_item("parameter", key)?;
                    "UnknownParam"
                }
                _ => "Lookup",
            };
            ("ParameterError", kind)
        }
        Error::Incompatible(incompatibility) => {
            let kind = match incompatibility {
                Incompatibility::Overlap { .. } => "Overlap",
                _ => "Incompatible",
            };
            ("IncompatibleStateError", kind)
        }
        Error::RowNumberOverflow { first_row, rows } => {
            fields.set_item("row", *first_row)?;
            fields.set_item("found", *rows)?;
            (INPUT, "RowNumberOverflow")
        }
        Error::TooManyItems { found, max } => {
            fields.set_item("found", *found)?;
            fields.set_item("expected", *max)?;
            (INPUT, "TooManyItems")
        }
        Error::InvalidState { field, index, .. } => {
            fields.set_item("field", *field)?;
            fields.set_item("index", *index)?;
            ("IncompatibleStateError", "InvalidState")
        }
        Error::OutOfMemory { bytes } => {
            fields.set_item("bytes", *bytes)?;
            ("OutOfMemoryError", "OutOfMemory")
        }
        // Shapes of nested inputs, sparse layouts, broken Matrix impls: none reach here from
        // numpy arrays, but a new variant still gets an exception.
        _ => (INPUT, "Input"),
    })
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
