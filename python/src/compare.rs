//! `compare()`: the crate's comparison grid (`rankmetrics::compare`) as a list of dicts, one
//! per metric concept, for the Python layer's `Comparison` object.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rankmetrics::compare::{
    compare as grid, compare_parallel, layout, Chart, Column, Notes, Options, Row, Series, Summary,
    Table, CONCEPTS,
};
use rankmetrics::registry::{Convention, Preset, TieAnalysis};

use crate::errors::lookup_to_py;
use crate::input::{weights, with_views, Labels, Scores, Weights};
use crate::threads::pool;

/// A cell's column and preset (`convention`, `metric`, `params` as (key, value) strings).
fn cell_dict<'py>(
    py: Python<'py>, column: Column, preset: &Preset,
) -> PyResult<Bound<'py, PyDict>> {
    let c = PyDict::new(py);
    c.set_item("column", column.name())?;
    c.set_item("convention", preset.convention().name())?;
    c.set_item("metric", preset.name())?;
    let params = preset.params().iter();
    let params: Vec<(&str, String)> = params.map(|(k, v)| (*k, v.to_string())).collect();
    c.set_item("params", params)?;
    Ok(c)
}

fn row_dict<'py>(py: Python<'py>, row: &Row) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("metric", row.concept.name)?;
    dict.set_item("over", row.concept.over.name())?;
    let cells = PyList::empty(py);
    for cell in row.cells.iter().flatten() {
        let c = cell_dict(py, cell.column, &cell.preset)?;
        match &cell.result {
            Ok(v) => {
                c.set_item("value", *v)?;
                c.set_item("error", py.None())?;
            }
            Err(e) => {
                c.set_item("value", py.None())?;
                c.set_item("error", e.to_string())?;
            }
        }
        cells.append(c)?;
    }
    dict.set_item("cells", cells)?;
    summary_items(&dict, &row.summary(), &row.tie_analysis)?;
    if let Some(e) = &row.mapping_error {
        dict.set_item("error", e.to_string())?;
    }
    Ok(dict)
}

/// Every metric concept under every tie policy and toolkit, one dict per concept, and the
/// table the command prints for them (with its legend and numbered notes).
#[pyfunction]
#[pyo3(signature = (y_true, y_score, sample_weight=None, threads=1))]
pub fn compare<'py>(
    py: Python<'py>, y_true: Labels<'_>, y_score: Scores<'_>, sample_weight: Weights<'_>,
    threads: usize,
) -> PyResult<(Bound<'py, PyList>, String)> {
    let w = weights(&sample_weight)?;
    let pool = if threads > 1 {
        Some(pool(threads)?)
    } else {
        None
    };
    let (rows, table) = with_views!(py, y_true, y_score, |y, s| {
        // The score type decides torchmetrics' dtype: float32 arrays are float32 preds.
        let rows = match &pool {
            Some(pool) => pool.install(|| compare_parallel(&y, &s, w, Options::default())),
            None => grid(&y, &s, w, Options::default()),
        };
        let notes = match &pool {
            Some(pool) => pool.install(|| Notes::of_parallel(&rows, &y, &s, w)),
            None => Notes::of(&rows, &y, &s, w),
        };
        let table = Table::new(&rows, &notes).to_string();
        (rows, table)
    });
    let list = PyList::empty(py);
    for row in &rows {
        list.append(row_dict(py, row)?)?;
    }
    Ok((list, table))
}

/// The toolkit release each convention reproduces, by convention name (rankmetrics' own
/// metrics reproduce none).
#[pyfunction]
pub fn reproduces() -> Vec<(&'static str, &'static str)> {
    Convention::ALL
        .into_iter()
        .filter_map(|c| Some((c.name(), c.reproduces()?)))
        .collect()
}

/// The summary's keys of a row dict: `interval`, `expected`, `spread`, `outside`, and what
/// the tie analysis guarantees: `ends_unproven` and `expected_missing` (why not, or None, as
/// the crate's `TieAnalysis`), and `note` (both in one text, or None).
fn summary_items(dict: &Bound<'_, PyDict>, summary: &Summary, tie: &TieAnalysis) -> PyResult<()> {
    dict.set_item("interval", summary.interval)?;
    dict.set_item("expected", summary.expected)?;
    dict.set_item("spread", summary.spread)?;
    let outside: Vec<&str> = summary.outside.iter().map(|c| c.name()).collect();
    dict.set_item("outside", outside)?;
    dict.set_item("ends_unproven", tie.ends_unproven)?;
    dict.set_item("expected_missing", tie.expected_missing)?;
    dict.set_item("note", tie.note())
}

/// The summary (`interval`, `expected`, `spread`, `outside`, `ends_unproven`,
/// `expected_missing`, `note`) of the row `metric` (a concept's name) from its `(column, value)` pairs, as
/// `compare()` gives it (`weighted`: the input has sample weights): for a grid whose cells
/// were evaluated on many workers.
#[pyfunction]
#[pyo3(signature = (metric, values, weighted=false))]
pub fn grid_summary<'py>(
    py: Python<'py>, metric: &str, values: Vec<(String, f64)>, weighted: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let Some(concept) = CONCEPTS.iter().find(|c| c.name == metric) else {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "no metric {metric:?} in the comparison grid"
        )));
    };
    let values = values
        .into_iter()
        .map(|(name, v)| match Column::parse(&name) {
            Some(c) => Ok((c, v)),
            None => Err(pyo3::exceptions::PyValueError::new_err(format!(
                "no column {name:?} in the comparison grid"
            ))),
        })
        .collect::<PyResult<Vec<_>>>()?;
    let tie = concept.tie_analysis(weighted);
    let dict = PyDict::new(py);
    summary_items(&dict, &Summary::of(&values).within(&tie), &tie)?;
    Ok(dict)
}

/// The grid's layout without values: one dict per concept (`metric`, `over`, `cells`), each
/// cell's `column`, `convention`, `metric` and `params`, in `compare()`'s order: the cells to
/// evaluate elsewhere (the engines) before [`grid_summary`] rebuilds each row.
#[pyfunction]
pub fn grid_layout(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for (concept, cells) in layout(Options::default()).map_err(lookup_to_py)? {
        let dict = PyDict::new(py);
        dict.set_item("metric", concept.name)?;
        dict.set_item("over", concept.over.name())?;
        let cell_list = PyList::empty(py);
        for (column, preset) in &cells {
            cell_list.append(cell_dict(py, *column, preset)?)?;
        }
        dict.set_item("cells", cell_list)?;
        list.append(dict)?;
    }
    Ok(list)
}

/// One row of a comparison for [`chart`]: the metric, per tie policy and toolkit column its
/// (name, value or None, outside), the interval and the expected value.
type SeriesItem = (
    String,
    Vec<(String, Option<f64>, bool)>,
    Option<(f64, f64)>,
    Option<f64>,
);

/// The comparison's picture: the SVG the command's `--plot` writes, and each panel's layout
/// in values (for matplotlib): `metric`, `range`, `ticks` ((value, label) pairs), `band`
/// ((low, high, label_low, label_high) or None), `expected`, `marks` ((column, value or
/// None, outside) top to bottom) and `rule` (the index of the first toolkit's row).
#[pyfunction]
pub fn chart(py: Python<'_>, rows: Vec<SeriesItem>) -> PyResult<(String, Bound<'_, PyList>)> {
    let series = rows
        .iter()
        .map(|(metric, marks, interval, expected)| {
            let marks: Vec<(&str, Option<f64>, bool)> =
                marks.iter().map(|(c, v, o)| (c.as_str(), *v, *o)).collect();
            Series::named(metric, &marks, *interval, *expected)
                .map_err(pyo3::exceptions::PyValueError::new_err)
        })
        .collect::<PyResult<Vec<_>>>()?;
    let chart = Chart::new(&series);
    let panels = PyList::empty(py);
    for p in &chart.panels {
        let d = PyDict::new(py);
        d.set_item("metric", &p.metric)?;
        d.set_item("range", p.range)?;
        let ticks: Vec<(f64, &str)> = p
            .ticks
            .iter()
            .map(|t| (t.value, t.label.as_str()))
            .collect();
        d.set_item("ticks", ticks)?;
        let band = p
            .band
            .as_ref()
            .map(|b| (b.low, b.high, b.label_low.as_str(), b.label_high.as_str()));
        d.set_item("band", band)?;
        d.set_item("expected", p.expected.map(|e| e.0))?;
        let marks: Vec<(&str, Option<f64>, bool)> = p
            .marks
            .iter()
            .map(|m| (m.column.name(), m.at.map(|a| a.0), m.outside))
            .collect();
        d.set_item("marks", marks)?;
        let rule = p
            .marks
            .iter()
            .position(|m| matches!(m.column, Column::Toolkit(_)));
        d.set_item("rule", rule.filter(|_| p.rule.is_some()))?;
        panels.append(d)?;
    }
    Ok((chart.svg(), panels))
}
