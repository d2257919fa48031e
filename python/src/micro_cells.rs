//! The limit on the cells the micro averages hold at once, process-wide.

use pyo3::prelude::*;

/// Sets the most cells the micro averages' pool holds at once (`None`: the default); the
/// Python wrapper checks that `cells` is a positive integer.
#[pyfunction]
#[pyo3(signature = (cells))]
pub fn set_micro_pool_cells(cells: Option<usize>) {
    rankmetrics::set_micro_pool_cells(cells);
}
