//! `rankmetrics compare`: the library's grid ([`rankmetrics::compare`]) on the threads of
//! `--threads` (the values are bitwise those of one thread), with torchmetrics' preds dtype
//! taken from the scores file.

pub use rankmetrics::compare::{
    cell_count, outside, torchmetrics_dtype, Cell, Column, Concept, Needs, Over, Row, TOOLKITS,
};
use rankmetrics::compare::{compare_parallel, Options};
use rankmetrics::Matrix;

/// Computes every cell; `scores_float32`: the scores file holds float32 values, which
/// torchmetrics computes on as float32 preds (text and float64 files give float64 preds).
///
/// # Errors
/// A message if the mapping names a preset the registry does not know (ruled out by the
/// library's tests).
pub fn compare<Y, S>(
    y_true: &Y, y_score: &S, weights: Option<&[f64]>, scores_float32: bool,
) -> Result<Vec<Row>, String>
where
    Y: Matrix<Elem = f64> + Sync + ?Sized,
    S: Matrix<Elem = f64> + Sync + ?Sized,
{
    let options = Options {
        torchmetrics_float32: Some(scores_float32),
    };
    let rows = compare_parallel(y_true, y_score, weights, options);
    match rows.iter().find_map(|r| r.mapping_error.as_ref()) {
        Some(e) => Err(format!("comparison table: {e}")),
        None => Ok(rows),
    }
}
