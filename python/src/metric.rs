//! `Metric`: a metric of the crate, looked up by name (a preset of any convention) or built
//! from its parameters (the label-wise and propensity-scored metrics, which have no registry
//! name), evaluated on numpy arrays.

use numpy::{PyArray1, ToPyArray};
use pyo3::prelude::*;
use rankmetrics::registry::{evaluate_all_parallel, Convention, Preset};
use rankmetrics::{
    parallel, LabelAveragePrecision, PropensityModel, PsNdcgAtK, PsPrecisionAtK, RankingMetric,
    RocAuc, RowMetric, Undefined,
};

use crate::errors::{lookup_to_py, parameter_error, parse_name, to_py};
use crate::input::{weights, with_views, Labels, Scores, Weights};
use crate::state::{Accumulator, State};
use crate::threads::pool;

/// What a [`Metric`] computes.
#[derive(Debug, Clone)]
pub enum Kind {
    /// A toolkit's metric, or rankmetrics' own row-wise metric, by name.
    Preset(Preset),
    /// ROC AUC under any averaging and tie policy.
    RocAuc(RocAuc),
    /// Label-wise average precision under any averaging and tie policy.
    LabelAp(LabelAveragePrecision),
    /// Propensity-scored precision at k.
    PsPrecision(PsPrecisionAtK),
    /// Propensity-scored nDCG at k.
    PsNdcg(PsNdcgAtK),
}

/// A metric ready to evaluate (see the `rankmetrics` package for the public functions).
#[pyclass(module = "rankmetrics._rankmetrics", frozen)]
pub struct Metric {
    kind: Kind,
}

/// A convention by name.
pub(crate) fn parse_convention(name: &str) -> PyResult<Convention> {
    parse_name(name, "convention")
}

/// What an undefined label (or row, or pool) gives: a number, or `"nan"`, `"skip"`, `"error"`
/// (or a number as text), read by the crate.
fn parse_undefined(undefined: &Bound<'_, PyAny>) -> PyResult<Undefined> {
    if let Ok(value) = undefined.extract::<f64>() {
        return Ok(Undefined::Value(value));
    }
    parse_name(&undefined.extract::<String>()?, "undefined")
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

/// Runs `$body` on the metric inside `kind` (bound to `$m`), whatever its type.
macro_rules! on_kind {
    ($kind:expr, |$m:ident| $body:expr) => {
        match $kind {
            Kind::Preset($m) => $body,
            Kind::RocAuc($m) => $body,
            Kind::LabelAp($m) => $body,
            Kind::PsPrecision($m) => $body,
            Kind::PsNdcg($m) => $body,
        }
    };
}

#[pymethods]
impl Metric {
    /// A metric by name, as `rankmetrics eval` takes it: `params` are (key, value) strings.
    #[staticmethod]
    #[pyo3(signature = (convention, metric, params, ties=None))]
    fn preset(
        convention: &str,
        metric: &str,
        params: Vec<(String, String)>,
        ties: Option<&str>,
    ) -> PyResult<Metric> {
        let convention = parse_convention(convention)?;
        let ties = ties.map(|t| parse_name(t, "ties")).transpose()?;
        let preset = Preset::lookup(convention, metric, &params, ties).map_err(lookup_to_py)?;
        Ok(Metric {
            kind: Kind::Preset(preset),
        })
    }

    /// ROC AUC (`"roc_auc"`) or label-wise average precision (`"label_average_precision"`).
    #[staticmethod]
    #[pyo3(signature = (name, average, ties, undefined))]
    fn labelwise(
        name: &str,
        average: &str,
        ties: &str,
        undefined: &Bound<'_, PyAny>,
    ) -> PyResult<Metric> {
        let (average, ties, undefined) = (
            parse_name(average, "average")?,
            parse_name(ties, "ties")?,
            parse_undefined(undefined)?,
        );
        let kind = match name {
            "roc_auc" => Kind::RocAuc(RocAuc::new(average, ties).on_undefined(undefined)),
            "label_average_precision" => {
                Kind::LabelAp(LabelAveragePrecision::new(average, ties).on_undefined(undefined))
            }
            _ => {
                return Err(parameter_error(
                    format!("unknown label-wise metric {name:?}"),
                    "metric",
                ))
            }
        };
        Ok(Metric { kind })
    }

    /// PSP@k (`"psprecision_at_k"`) or PSnDCG@k (`"psndcg_at_k"`) with one inverse propensity
    /// per label.
    #[staticmethod]
    #[pyo3(signature = (name, k, ties, inverse_propensities))]
    fn propensity_scored(
        name: &str,
        k: &Bound<'_, PyAny>,
        ties: &str,
        inverse_propensities: Vec<f64>,
    ) -> PyResult<Metric> {
        let (k, ties) = (count(k, "k")?, parse_name(ties, "ties")?);
        let kind = match name {
            "psprecision_at_k" => Kind::PsPrecision(
                PsPrecisionAtK::new(ties, k, inverse_propensities).map_err(to_py)?,
            ),
            "psndcg_at_k" => {
                Kind::PsNdcg(PsNdcgAtK::new(ties, k, inverse_propensities).map_err(to_py)?)
            }
            _ => {
                return Err(parameter_error(
                    format!("unknown propensity-scored metric {name:?}"),
                    "metric",
                ))
            }
        };
        Ok(Metric { kind })
    }

    /// The metric's value on `y_true` and `y_score`.
    #[pyo3(signature = (y_true, y_score, sample_weight=None, threads=1))]
    fn evaluate(
        &self,
        py: Python<'_>,
        y_true: Labels<'_>,
        y_score: Scores<'_>,
        sample_weight: Weights<'_>,
        threads: usize,
    ) -> PyResult<f64> {
        let w = weights(&sample_weight)?;
        let pool = if threads > 1 {
            Some(pool(threads)?)
        } else {
            None
        };
        let result = with_views!(py, y_true, y_score, |y, s| match (&pool, &self.kind) {
            (None, kind) => on_kind!(kind, |m| RankingMetric::evaluate(m, &y, &s, w)),
            (Some(pool), Kind::Preset(p)) => pool.install(|| {
                evaluate_all_parallel(std::slice::from_ref(p), &y, &s, w)
                    .pop()
                    .unwrap_or(Err(rankmetrics::Error::NoSamples))
            }),
            (Some(pool), Kind::PsPrecision(m)) => pool.install(|| parallel::evaluate(m, &y, &s, w)),
            (Some(pool), Kind::PsNdcg(m)) => pool.install(|| parallel::evaluate(m, &y, &s, w)),
            // Label-wise metrics run on one thread (their parallel path is the registry's).
            (Some(_), kind) => on_kind!(kind, |m| RankingMetric::evaluate(m, &y, &s, w)),
        });
        result.map_err(to_py)
    }

    /// Each row's value, NaN for rows the metric leaves out (row-wise metrics only).
    #[pyo3(signature = (y_true, y_score, threads=1))]
    fn per_sample<'py>(
        &self,
        py: Python<'py>,
        y_true: Labels<'_>,
        y_score: Scores<'_>,
        threads: usize,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let pool = if threads > 1 {
            Some(pool(threads)?)
        } else {
            None
        };
        let result = with_views!(py, y_true, y_score, |y, s| match (&pool, &self.kind) {
            (_, Kind::Preset(p)) => p.per_sample(&y, &s),
            (None, Kind::PsPrecision(m)) => m.per_sample(&y, &s),
            (None, Kind::PsNdcg(m)) => m.per_sample(&y, &s),
            (Some(pool), Kind::PsPrecision(m)) => pool.install(|| parallel::per_sample(m, &y, &s)),
            (Some(pool), Kind::PsNdcg(m)) => pool.install(|| parallel::per_sample(m, &y, &s)),
            (_, Kind::RocAuc(_) | Kind::LabelAp(_)) => Err(rankmetrics::Error::NotRowWise),
        });
        let values: Vec<f64> = result
            .map_err(to_py)?
            .into_iter()
            .map(|v| v.unwrap_or(f64::NAN))
            .collect();
        Ok(values.to_pyarray(py))
    }

    /// An empty accumulator for this metric; its rows are numbered from `first_row`. With
    /// `runs`, a label-wise metric keeps each label's runs instead of the rows (refused where
    /// runs cannot give the value exactly).
    #[pyo3(signature = (first_row=None, runs=false))]
    fn accumulator(
        &self,
        first_row: Option<&Bound<'_, PyAny>>,
        runs: bool,
    ) -> PyResult<Accumulator> {
        let first_row = first_row.map(|v| count(v, "first_row")).transpose()?;
        let first_row = first_row.unwrap_or(0);
        let state = match (&self.kind, runs) {
            (Kind::Preset(p), true) => {
                State::Preset(p.runs_accumulator_starting_at(first_row).map_err(to_py)?)
            }
            (Kind::RocAuc(m), true) => {
                State::RocAucRuns(m.runs_accumulator_starting_at(first_row).map_err(to_py)?)
            }
            (Kind::LabelAp(m), true) => {
                State::LabelApRuns(m.runs_accumulator_starting_at(first_row).map_err(to_py)?)
            }
            (kind, _) => return Ok(Accumulator::new(rows_state(kind, first_row))),
        };
        Ok(Accumulator::new(state))
    }

    /// The effective parameters (defaults included) of a metric looked up by name, as
    /// (key, value) strings; empty for metrics built from parameters.
    fn params(&self) -> Vec<(String, String)> {
        match &self.kind {
            Kind::Preset(p) => p
                .params()
                .iter()
                .map(|(k, v)| ((*k).to_string(), v.to_string()))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Why this metric's value is not a proven end of the interval over tie orders (it runs
    /// under optimistic or pessimistic, and `weighted` or pROC's direction leaves the ends
    /// unproven), or None.
    fn unproven_end(&self, weighted: bool) -> Option<&'static str> {
        match &self.kind {
            Kind::Preset(p) => p.unproven_end(weighted),
            Kind::RocAuc(m) => m.tie_analysis(weighted).end_under(m.options().ranking.ties),
            Kind::LabelAp(m) => m.tie_analysis(weighted).end_under(m.options().ranking.ties),
            Kind::PsPrecision(_) | Kind::PsNdcg(_) => None,
        }
    }

    /// The metric's name (the toolkit's spelling for a preset).
    fn name(&self) -> String {
        match &self.kind {
            Kind::Preset(p) => p.name().to_string(),
            Kind::RocAuc(_) => "roc_auc".into(),
            Kind::LabelAp(_) => "label_average_precision".into(),
            Kind::PsPrecision(_) => "psprecision_at_k".into(),
            Kind::PsNdcg(_) => "psndcg_at_k".into(),
        }
    }

    fn __repr__(&self) -> String {
        match &self.kind {
            Kind::Preset(p) => format!("Metric({} {})", p.convention(), p.name()),
            kind => format!("{kind:?}"),
        }
    }
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
    frequencies: Vec<f64>,
    n: &Bound<'_, PyAny>,
    a: f64,
    b: f64,
) -> PyResult<Vec<f64>> {
    let n = count(n, "n")?;
    PropensityModel::new(a, b)
        .and_then(|model| model.inverse_propensities(&frequencies, n))
        .map_err(to_py)
}

/// The accumulator of `kind` that keeps sums and counts (row-wise) or the rows (label-wise).
fn rows_state(kind: &Kind, first_row: usize) -> State {
    match kind {
        Kind::Preset(p) => State::Preset(p.accumulator_starting_at(first_row)),
        Kind::RocAuc(m) => State::RocAuc(m.accumulator_starting_at(first_row)),
        Kind::LabelAp(m) => State::LabelAp(m.accumulator_starting_at(first_row)),
        Kind::PsPrecision(m) => State::PsPrecision(m.accumulator_starting_at(first_row)),
        Kind::PsNdcg(m) => State::PsNdcg(m.accumulator_starting_at(first_row)),
    }
}
