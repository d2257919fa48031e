//! `identify()`: the crate's search for the convention of a reported value
//! (`rankmetrics::identify`), one dict per reported value, for the Python layer's
//! `Identification` objects.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rankmetrics::identify::{
    identify as search, identify_parallel, Family, Identification, Match, Reported,
};

use crate::errors::{parameter_error, to_py};
use crate::input::{weights, with_views, Labels, Scores, Weights};
use crate::threads::pool;

fn match_dict<'py>(py: Python<'py>, m: &Match) -> PyResult<Bound<'py, PyDict>> {
    let c = &m.candidate;
    let d = PyDict::new(py);
    d.set_item("convention", c.preset.convention().name())?;
    d.set_item("metric", c.preset.name())?;
    let params = PyDict::new(py);
    for (k, v) in &c.params {
        params.set_item(*k, v)?;
    }
    d.set_item("params", params)?;
    d.set_item("ties", c.ties.map(|t| t.name()))?;
    d.set_item("value", m.value)?;
    let range = m.range.as_ref();
    d.set_item("interval", range.and_then(|r| r.interval))?;
    d.set_item("expected", range.and_then(|r| r.expected))?;
    d.set_item("reference", range.map(|r| r.reference.as_str()))?;
    d.set_item("note", range.and_then(|r| r.tie_analysis.note()))?;
    Ok(d)
}

fn identification_dict<'py>(py: Python<'py>, id: &Identification) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("reported", id.reported.value)?;
    d.set_item("tolerance", id.reported.tolerance)?;
    d.set_item("metric", id.family.map(|f| f.name))?;
    d.set_item("candidates", id.candidates)?;
    let list = |matches: &[Match]| -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for m in matches {
            list.append(match_dict(py, m)?)?;
        }
        Ok(list)
    };
    d.set_item("matches", list(&id.matches)?)?;
    d.set_item("closest", list(&id.closest)?)?;
    d.set_item("interval", id.interval)?;
    d.set_item("expected", id.expected)?;
    d.set_item("reference", id.reference.as_deref())?;
    d.set_item("table", id.table())?;
    Ok(d)
}

/// Which convention, metric, parameters and tie policy give each of `values` (as printed:
/// `"0.8542"`, `"85.42%"`), one dict per value.
#[pyfunction]
#[pyo3(signature = (y_true, y_score, sample_weight, values, metric=None, tolerance=None, threads=1))]
#[allow(clippy::too_many_arguments)]
pub fn identify<'py>(
    py: Python<'py>, y_true: Labels<'_>, y_score: Scores<'_>, sample_weight: Weights<'_>,
    values: Vec<String>, metric: Option<&str>, tolerance: Option<f64>, threads: usize,
) -> PyResult<Bound<'py, PyList>> {
    let reported = values
        .iter()
        .map(|text| {
            Reported::parse_with(text, tolerance).map_err(|e| {
                let which = if e.about_tolerance() {
                    "tolerance"
                } else {
                    "value"
                };
                parameter_error(e.to_string(), which)
            })
        })
        .collect::<PyResult<Vec<Reported>>>()?;
    let family = metric
        .map(|m| Family::find(m).map_err(|e| parameter_error(e.to_string(), "metric")))
        .transpose()?;
    let w = weights(&sample_weight)?;
    let pool = if threads > 1 {
        Some(pool(threads)?)
    } else {
        None
    };
    let found = with_views!(py, y_true, y_score, |y, s| match &pool {
        Some(pool) => pool.install(|| identify_parallel(&y, &s, w, &reported, family)),
        None => search(&y, &s, w, &reported, family),
    })
    .map_err(to_py)?;
    let list = PyList::empty(py);
    for id in &found {
        list.append(identification_dict(py, id)?)?;
    }
    Ok(list)
}
