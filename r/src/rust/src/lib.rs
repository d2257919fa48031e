//! The compiled code behind the R package `rankmetrics`: it reads R matrices in place
//! (column-major views, `matrix.rs`), calls the rankmetrics crate and hands back values or
//! failures (`errors.rs`). No metric is computed here; the R functions in `r/R/` give the
//! public signatures and raise the conditions.

mod compare;
mod errors;
mod identify;
mod interrupt;
mod matrix;
mod metric;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use extendr_api::prelude::*;
use rankmetrics::Matrix;

use crate::errors::{reply, Failure};

/// Runs `f`, with the user's interrupts checked as it reads the input (`interrupt.rs`): an
/// interrupted call replies so (the R wrapper raises R's interrupt condition), and a panic (a
/// bug) becomes a failure of kind `internal` that carries the panic's message: R gets a
/// condition, the session goes on. The default panic hook would print to the R console
/// besides, so a silent one is installed first (once; it serves only this library's Rust
/// code, which has its own copy of the standard library).
fn guarded(f: impl FnOnce() -> Result<Robj, Failure>) -> Robj {
    static SILENT_PANICS: Once = Once::new();
    SILENT_PANICS.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    match catch_unwind(AssertUnwindSafe(|| interrupt::armed(f))) {
        Ok(result) => reply(result),
        Err(payload) if payload.is::<interrupt::Interrupted>() => errors::interrupted(),
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            reply(Err(Failure::new(
                "internal",
                format!(
                    "internal error in rankmetrics (a bug: please report it with the input): {what}"
                ),
            )))
        }
    }
}

/// A metric by convention and name, with (key, value) parameters and a tie policy (`""`: the
/// convention's own), evaluated on `y_true` and `y_score`; per-row values when `per_sample`.
/// @noRd
#[extendr]
#[allow(clippy::too_many_arguments)]
fn rm_evaluate_impl(
    y_true: Robj, y_score: Robj, sample_weight: Robj, convention: &str, metric: &str,
    keys: Vec<String>, values: Vec<String>, ties: &str, per_sample: bool,
) -> Robj {
    guarded(|| {
        let m = metric::Metric::lookup(convention, metric, &keys, &values, ties)?;
        let y = matrix::labels(&y_true)?;
        let s = matrix::scores(&y_score)?;
        if per_sample {
            // Per-sample values are unweighted (as in Python): weights are refused, not ignored.
            if !sample_weight.is_null() {
                return Err(Failure::new(
                    "parameter",
                    "per_sample = TRUE gives unweighted per-sample values: drop sample_weight"
                        .into(),
                ));
            }
            let values = matrix::with_labels!(y, |y| m.per_sample(&y, &s))?;
            Ok(values.into())
        } else {
            let w = matrix::weights(&sample_weight)?;
            let value = matrix::with_labels!(y, |y| m.evaluate(&y, &s, w))?;
            Ok(value.into())
        }
    })
}

/// Why the metric's value is not a proven end of the interval over tie orders, with sample
/// weights (`weighted`) or without: a string, or NULL where it is (or the policy is no end).
/// @noRd
#[extendr]
fn rm_unproven_end_impl(
    convention: &str, metric: &str, keys: Vec<String>, values: Vec<String>, ties: &str,
    weighted: bool,
) -> Robj {
    guarded(|| {
        let m = metric::Metric::lookup(convention, metric, &keys, &values, ties)?;
        Ok(m.unproven_end(weighted).map_or(Robj::from(()), Robj::from))
    })
}

/// The comparison grid (every concept under every tie policy and toolkit), as columns.
/// @noRd
#[extendr]
fn rm_compare_impl(y_true: Robj, y_score: Robj, sample_weight: Robj) -> Robj {
    guarded(|| {
        let y = matrix::labels(&y_true)?;
        let s = matrix::scores(&y_score)?;
        let w = matrix::weights(&sample_weight)?;
        // What would fail every cell fails the call instead.
        let shape = matrix::with_labels!(y, |y| (y.nrows(), y.ncols()));
        compare::check_common(shape, (s.nrows(), s.ncols()), w)?;
        matrix::with_labels!(y, |y| compare::grid(&y, &s, w))
    })
}

/// Which convention gives each reported value (as printed): a list of identifications;
/// `metric` "" searches every family, `tolerance` NaN keeps the printed precision.
/// @noRd
#[extendr]
fn rm_identify_impl(
    y_true: Robj, y_score: Robj, sample_weight: Robj, values: Vec<String>, metric: &str,
    tolerance: f64,
) -> Robj {
    guarded(|| {
        let y = matrix::labels(&y_true)?;
        let s = matrix::scores(&y_score)?;
        let w = matrix::weights(&sample_weight)?;
        matrix::with_labels!(y, |y| identify::search(
            &y, &s, w, &values, metric, tolerance
        ))
    })
}

/// The metric names of a convention, in its order.
/// @noRd
#[extendr]
fn rm_metric_names_impl(convention: &str) -> Robj {
    guarded(|| Ok(metric::metric_names(convention)?.into()))
}

/// The parameter keys a metric of a convention takes (besides `ties`).
/// @noRd
#[extendr]
fn rm_param_keys_impl(convention: &str, metric: &str) -> Robj {
    guarded(|| Ok(metric::param_keys(convention, metric)?.into()))
}

/// Sets the most cells the micro averages' pool holds at once, process-wide: `cells` below 1
/// restores the default (the R wrapper checks it is NULL or a positive whole number).
/// @noRd
#[extendr]
fn rm_set_micro_pool_cells_impl(cells: f64) -> Robj {
    guarded(|| {
        let most = (cells >= 1.0).then_some(cells as usize);
        ::rankmetrics::set_micro_pool_cells(most);
        Ok(().into())
    })
}

extendr_module! {
    mod rankmetrics;
    fn rm_evaluate_impl;
    fn rm_compare_impl;
    fn rm_identify_impl;
    fn rm_unproven_end_impl;
    fn rm_metric_names_impl;
    fn rm_param_keys_impl;
    fn rm_set_micro_pool_cells_impl;
}
