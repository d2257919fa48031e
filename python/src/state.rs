//! `Accumulator`: a metric evaluated in batches; merged shards give bitwise the one-shot value
//! (or the merge is refused); pickled as the crate's versioned serde state.

use numpy::{PyArray1, ToPyArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rankmetrics::registry::PresetAccumulator;
use rankmetrics::torchmetrics::MemoryOrder;
use serde::{Deserialize, Serialize};

use crate::errors::{parse_name, to_py};
use crate::input::{weights, with_views, Labels, Scores, Weights};
use crate::threads::pool;

/// The state of one accumulator: the registry's, whatever its metric.
type State = PresetAccumulator;

/// A metric evaluated in batches (see `rankmetrics.accumulator`).
#[pyclass(module = "rankmetrics._rankmetrics")]
pub struct Accumulator {
    state: State,
    /// The empty state, for `reset()`.
    empty: State,
}

impl Accumulator {
    pub fn new(state: State) -> Self {
        Accumulator {
            empty: state.clone(),
            state,
        }
    }
}

/// The pickled form: the current and the empty state, as JSON (floats kept as bits by the
/// crate's serde format, which carries its own version).
#[derive(Serialize, Deserialize)]
struct Pickled {
    state: State,
    empty: State,
}

#[pymethods]
impl Accumulator {
    /// An accumulator restored from `__getstate__`'s bytes (pickle calls it with none, then
    /// `__setstate__`).
    #[new]
    #[pyo3(signature = (state=None))]
    fn py_new(state: Option<&[u8]>) -> PyResult<Self> {
        match state {
            Some(bytes) => decode(bytes),
            None => Ok(Accumulator::new(
                rankmetrics::registry::Preset::lookup(
                    rankmetrics::registry::Convention::Rankmetrics,
                    "coverage",
                    rankmetrics::registry::Preset::NO_PARAMS,
                    None,
                )
                .map_err(|e| PyValueError::new_err(e.to_string()))?
                .accumulator(),
            )),
        }
    }

    /// Adds a batch of rows; `memory_order` (`"c"`, `"f"`, `"strided"`) says how a
    /// torchmetrics preset's batch lay in memory as a tensor (the preset's by default).
    #[pyo3(signature = (y_true, y_score, sample_weight=None, threads=1, memory_order=None))]
    fn update(
        &mut self, py: Python<'_>, y_true: Labels<'_>, y_score: Scores<'_>,
        sample_weight: Weights<'_>, threads: usize, memory_order: Option<&str>,
    ) -> PyResult<()> {
        let w = weights(&sample_weight)?;
        if let Some(order) = memory_order {
            let order: MemoryOrder = parse_name(order, "memory_order")?;
            let state = &mut self.state;
            let result = with_views!(py, y_true, y_score, |y, s| state
                .update_in_memory_order(order, &y, &s, w));
            return result.map_err(to_py);
        }
        let pool = if threads > 1 {
            Some(pool(threads)?)
        } else {
            None
        };
        let state = &mut self.state;
        let result = with_views!(py, y_true, y_score, |y, s| match &pool {
            Some(pool) => pool.install(|| state.update_parallel(&y, &s, w)),
            None => state.update(&y, &s, w),
        });
        result.map_err(to_py)
    }

    /// Merges another accumulator of the same metric into this one; refused, with nothing
    /// changed, when the two cannot merge exactly (other metric, overlapping rows).
    fn merge(&mut self, other: PyRef<'_, Accumulator>) -> PyResult<()> {
        self.state.merge(&other.state).map_err(to_py)
    }

    /// The metric's value over every row seen.
    fn value(&self) -> PyResult<f64> {
        self.state.value().map_err(to_py)
    }

    /// Each label's value over every row seen (a label-wise metric's `average=None`).
    fn per_label<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let values = self.state.per_label().map_err(to_py)?;
        Ok(values.to_pyarray(py))
    }

    /// Forgets every row (the rows are numbered as when the accumulator was made).
    fn reset(&mut self) {
        self.state = self.empty.clone();
    }

    /// The rows seen, as (start, stop) ranges in row order.
    fn rows(&self) -> Vec<(usize, usize)> {
        let ranges = self.state.rows();
        ranges.iter().map(|r| (r.start, r.end)).collect()
    }

    fn __getstate__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let pickled = Pickled {
            state: self.state.clone(),
            empty: self.empty.clone(),
        };
        let bytes = serde_json::to_vec(&pickled)
            .map_err(|e| PyValueError::new_err(format!("cannot serialise the state: {e}")))?;
        Ok(PyBytes::new(py, &bytes))
    }

    fn __setstate__(&mut self, state: &[u8]) -> PyResult<()> {
        *self = decode(state)?;
        Ok(())
    }

    fn __copy__(&self) -> Self {
        Accumulator {
            state: self.state.clone(),
            empty: self.empty.clone(),
        }
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.__copy__()
    }

    fn __eq__(&self, other: PyRef<'_, Accumulator>) -> bool {
        self.state == other.state && self.empty == other.empty
    }

    fn __repr__(&self) -> String {
        format!("Accumulator(rows={:?})", self.rows())
    }
}

/// The accumulator pickled as `bytes`: each state checked whole as the crate reads it (an
/// altered one is refused), and the empty state kept for `reset()` one of the same metric,
/// which has seen no row and merges into the state.
fn decode(bytes: &[u8]) -> PyResult<Accumulator> {
    let pickled: Pickled = serde_json::from_slice(bytes).map_err(|e| {
        crate::errors::state_error(format!(
            "not an accumulator state of this rankmetrics version: {e}"
        ))
    })?;
    let mut merged = pickled.state.clone();
    if !pickled.empty.rows().is_empty() || merged.merge(&pickled.empty).is_err() {
        return Err(crate::errors::state_error(
            "the empty state kept for reset() is not an empty state of the same metric".into(),
        ));
    }
    Ok(Accumulator {
        state: pickled.state,
        empty: pickled.empty,
    })
}
