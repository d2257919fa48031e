//! The compiled module behind `import rankmetrics` (`rankmetrics._rankmetrics`): it converts
//! numpy arrays into views of the rankmetrics crate and calls it. No metric is computed here;
//! the pure-Python package gives the public signatures, dtype coercion and docstrings.

mod compare;
mod errors;
mod identify;
mod input;
mod metric;
mod micro_cells;
mod state;
mod threads;

use pyo3::prelude::*;

/// The private compiled module; see the `rankmetrics` package for the public API.
#[pymodule]
fn _rankmetrics(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<metric::Metric>()?;
    m.add_class::<state::Accumulator>()?;
    m.add_function(wrap_pyfunction!(compare::compare, m)?)?;
    m.add_function(wrap_pyfunction!(compare::grid_summary, m)?)?;
    m.add_function(wrap_pyfunction!(compare::grid_layout, m)?)?;
    m.add_function(wrap_pyfunction!(compare::reproduces, m)?)?;
    m.add_function(wrap_pyfunction!(compare::chart, m)?)?;
    m.add_function(wrap_pyfunction!(identify::identify, m)?)?;
    m.add_function(wrap_pyfunction!(metric::aggregate_query_values, m)?)?;
    m.add_function(wrap_pyfunction!(metric::metric_names, m)?)?;
    m.add_function(wrap_pyfunction!(metric::param_keys, m)?)?;
    m.add_function(wrap_pyfunction!(metric::inverse_propensities, m)?)?;
    m.add_function(wrap_pyfunction!(micro_cells::set_micro_pool_cells, m)?)?;
    Ok(())
}
