//! `Metric`: a metric of the crate looked up by name in the registry (every convention's
//! metrics, rankmetrics' label-wise and propensity-scored ones included), evaluated on numpy
//! arrays.

use numpy::{Element, PyArray1, PyReadonlyArray1, ToPyArray};
use pyo3::prelude::*;
use rankmetrics::registry::{evaluate_all_parallel, Convention, Preset};
use rankmetrics::torchmetrics::{EmptyTargetAction, QueryAggregation};
use rankmetrics::PropensityModel;

use crate::errors::{lookup_to_py, parameter_error, parse_name, to_py};
use crate::input::{weights, with_views, Labels, Scores, Weights};
use crate::state::Accumulator;
use crate::threads::pool;

/// A metric ready to evaluate (see the `rankmetrics` package for the public functions).
#[pyclass(module = "rankmetrics._rankmetrics", frozen)]
pub struct Metric {
    preset: Preset,
}

/// A convention by name.
pub(crate) fn parse_convention(name: &str) -> PyResult<Convention> {
    parse_name(name, "convention")
}

/// A count parameter (`k`, `first_row`, `n`): a non-negative integer that fits the platform's
/// indices, else a `ParameterError` (not pyo3's `OverflowError`).
fn count(value: &Bound<'_, PyAny>, parameter: &str) -> PyResult<usize> {
    value.extract::<usize>().map_err(|_| {
        parameter_error(
            format!("{parameter} must be a non-negative integer below 2**64; got {value}"),
            parameter,
        )
    })
}

/// The targets of `Metric.query_values`: one flat array, int64 or float32 (torchmetrics'
/// integer and floating targets; a float32 query sums as torch sums it).
#[derive(FromPyObject)]
enum QueryLabels<'py> {
    I64(PyReadonlyArray1<'py, i64>),
    F32(PyReadonlyArray1<'py, f32>),
}

/// The scores of `Metric.query_values`: one flat array, float32 or float64.
#[derive(FromPyObject)]
enum QueryScores<'py> {
    F32(PyReadonlyArray1<'py, f32>),
    F64(PyReadonlyArray1<'py, f64>),
}

/// A flat array's elements (the Python layer makes them contiguous).
fn contiguous<'a, T: Element>(a: &'a PyReadonlyArray1<'_, T>) -> PyResult<&'a [T]> {
    a.as_slice()
        .map_err(|_| pyo3::exceptions::PyValueError::new_err("expected a contiguous array"))
}

#[pymethods]
impl Metric {
    /// A metric by name, as `rankmetrics eval` takes it: `params` are (key, value) strings.
    #[staticmethod]
    #[pyo3(signature = (convention, metric, params, ties=None))]
    fn preset(
        convention: &str, metric: &str, params: Vec<(String, String)>, ties: Option<&str>,
    ) -> PyResult<Metric> {
        let convention = parse_convention(convention)?;
        let ties = ties.map(|t| parse_name(t, "ties")).transpose()?;
        let preset = Preset::lookup(convention, metric, &params, ties).map_err(lookup_to_py)?;
        Ok(Metric { preset })
    }

    /// The metric's value on `y_true` and `y_score`.
    #[pyo3(signature = (y_true, y_score, sample_weight=None, threads=1))]
    fn evaluate(
        &self, py: Python<'_>, y_true: Labels<'_>, y_score: Scores<'_>, sample_weight: Weights<'_>,
        threads: usize,
    ) -> PyResult<f64> {
        let w = weights(&sample_weight)?;
        let pool = if threads > 1 {
            Some(pool(threads)?)
        } else {
            None
        };
        let p = &self.preset;
        let result = with_views!(py, y_true, y_score, |y, s| match &pool {
            None => p.evaluate(&y, &s, w),
            Some(pool) => pool.install(|| {
                evaluate_all_parallel(std::slice::from_ref(p), &y, &s, w)
                    .pop()
                    .unwrap_or(Err(rankmetrics::Error::NoSamples))
            }),
        });
        result.map_err(to_py)
    }

    /// Each label's value, the metric on that label's column alone (label-wise metrics
    /// not averaged over samples).
    #[pyo3(signature = (y_true, y_score, sample_weight=None))]
    fn per_label<'py>(
        &self, py: Python<'py>, y_true: Labels<'_>, y_score: Scores<'_>, sample_weight: Weights<'_>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let w = weights(&sample_weight)?;
        let p = &self.preset;
        let values = with_views!(py, y_true, y_score, |y, s| p.per_label(&y, &s, w));
        Ok(values.map_err(to_py)?.to_pyarray(py))
    }

    /// Each row's value, NaN for rows the metric leaves out (row-wise metrics only).
    #[pyo3(signature = (y_true, y_score, threads=1))]
    fn per_sample<'py>(
        &self, py: Python<'py>, y_true: Labels<'_>, y_score: Scores<'_>, threads: usize,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let pool = if threads > 1 {
            Some(pool(threads)?)
        } else {
            None
        };
        let p = &self.preset;
        let result = with_views!(py, y_true, y_score, |y, s| match &pool {
            None => p.per_sample(&y, &s),
            Some(pool) => pool.install(|| p.per_sample_parallel(&y, &s)),
        });
        let values: Vec<f64> = result
            .map_err(to_py)?
            .into_iter()
            .map(|v| v.unwrap_or(f64::NAN))
            .collect();
        Ok(values.to_pyarray(py))
    }

    /// Each query's value as torchmetrics' retrieval modules find them (`indexes` group the
    /// documents; queries in ascending index order; `empty_target_action` for queries whose
    /// targets sum to 0, a skipped query having no value), as float32 numbers.
    #[pyo3(signature = (indexes, y_true, y_score, empty_target_action))]
    fn query_values<'py>(
        &self, py: Python<'py>, indexes: PyReadonlyArray1<'_, i64>, y_true: QueryLabels<'_>,
        y_score: QueryScores<'_>, empty_target_action: &str,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let empty: EmptyTargetAction = parse_name(empty_target_action, "empty_target_action")?;
        let indexes = contiguous(&indexes)?;
        let p = &self.preset;
        macro_rules! run {
            ($y:expr, $s:expr) => {{
                let (y, s) = (contiguous(&$y)?, contiguous(&$s)?);
                py.detach(|| p.query_values(indexes, y, s, empty))
            }};
        }
        let values = match (y_true, y_score) {
            (QueryLabels::I64(y), QueryScores::F32(s)) => run!(y, s),
            (QueryLabels::I64(y), QueryScores::F64(s)) => run!(y, s),
            (QueryLabels::F32(y), QueryScores::F32(s)) => run!(y, s),
            (QueryLabels::F32(y), QueryScores::F64(s)) => run!(y, s),
        };
        Ok(values.map_err(to_py)?.to_pyarray(py))
    }

    /// An empty accumulator for this metric; its rows are numbered from `first_row`. With
    /// `runs`, a label-wise metric keeps each label's runs instead of the rows (refused where
    /// runs cannot give the value exactly). With `sigmoid_per_batch`, each batch decides
    /// torchmetrics' sigmoid on its own, as torchmetrics' modules do.
    #[pyo3(signature = (first_row=None, runs=false, sigmoid_per_batch=false))]
    fn accumulator(
        &self, first_row: Option<&Bound<'_, PyAny>>, runs: bool, sigmoid_per_batch: bool,
    ) -> PyResult<Accumulator> {
        let first_row = first_row.map(|v| count(v, "first_row")).transpose()?;
        let first_row = first_row.unwrap_or(0);
        let state = if runs {
            self.preset
                .runs_accumulator_starting_at(first_row)
                .map_err(to_py)?
        } else {
            self.preset.accumulator_starting_at(first_row)
        };
        Ok(Accumulator::new(
            state.deciding_sigmoid_per_batch(sigmoid_per_batch),
        ))
    }

    /// The effective parameters (defaults included), as (key, value) strings.
    fn params(&self) -> Vec<(String, String)> {
        let params = self.preset.params().iter();
        params
            .map(|(k, v)| ((*k).to_string(), v.to_string()))
            .collect()
    }

    /// Why this metric's value is not a proven end of the interval over tie orders (it runs
    /// under optimistic or pessimistic, and `weighted` or pROC's direction leaves the ends
    /// unproven), or None.
    fn unproven_end(&self, weighted: bool) -> Option<&'static str> {
        self.preset.unproven_end(weighted)
    }

    /// The metric's name (the toolkit's spelling).
    fn name(&self) -> &'static str {
        self.preset.name()
    }

    fn __repr__(&self) -> String {
        let p = &self.preset;
        format!("Metric({} {})", p.convention(), p.name())
    }
}

/// torchmetrics' `aggregation` (`"mean"`, `"median"`, `"min"`, `"max"`) of queries' values, in
/// float32; 0 without values.
#[pyfunction]
pub fn aggregate_query_values(values: Vec<f64>, aggregation: &str) -> PyResult<f64> {
    let aggregation: QueryAggregation = parse_name(aggregation, "aggregation")?;
    Ok(aggregation.reduce(&values))
}

/// The metric names a convention's registry knows, in its order.
#[pyfunction]
pub fn metric_names(convention: &str) -> PyResult<Vec<&'static str>> {
    Ok(parse_convention(convention)?.metric_names().to_vec())
}

/// The parameter keys a metric of a convention takes (besides `ties`).
#[pyfunction]
pub fn param_keys(convention: &str, metric: &str) -> PyResult<Vec<&'static str>> {
    Ok(Preset::param_keys(parse_convention(convention)?, metric).to_vec())
}

/// Inverse propensities from label frequencies in `n` training samples (Jain et al., 2016).
#[pyfunction]
#[pyo3(signature = (frequencies, n, a=0.55, b=1.5))]
pub fn inverse_propensities(
    frequencies: Vec<f64>, n: &Bound<'_, PyAny>, a: f64, b: f64,
) -> PyResult<Vec<f64>> {
    let n = count(n, "n")?;
    PropensityModel::new(a, b)
        .and_then(|model| model.inverse_propensities(&frequencies, n))
        .map_err(to_py)
}
