//! The input checks every layer shares: shapes, scores, sample weights, label values,
//! scikit-learn's label-type check and the `k` of top-k metrics. They read the inputs only (no
//! ranking, no metric), so the row pass, the label-wise drivers, the accumulators and the
//! presets make the same checks and report the same errors.

use std::ops::Range;

use crate::error::{Error, Input, LabelDomain};
use crate::matrix::{LabelMatrix, Matrix, RowReader, ScoreMatrix};
use crate::score::{Label, Score};

/// Checks that both inputs are matrices of one shape, with rows, and at least `min_labels`
/// columns; returns (rows, labels).
pub(crate) fn check_shapes<Y, S>(
    y_true: &Y,
    y_score: &S,
    min_labels: usize,
) -> Result<(usize, usize), Error>
where
    Y: Matrix + ?Sized,
    S: Matrix + ?Sized,
{
    y_true.check_shape()?;
    y_score.check_shape()?;
    let shape = (y_true.nrows(), y_true.ncols());
    let found = (y_score.nrows(), y_score.ncols());
    if shape != found {
        return Err(Error::ShapeMismatch {
            expected: shape,
            found,
        });
    }
    match shape {
        (0, _) => Err(Error::NoSamples),
        (_, 0) => Err(Error::NoLabels),
        (_, l) if l > u32::MAX as usize => Err(Error::TooManyItems {
            found: l,
            max: u32::MAX as usize,
        }),
        (_, l) if l < min_labels => Err(Error::TooFewLabels {
            required: min_labels,
            found: l,
        }),
        shape => Ok(shape),
    }
}

/// Rejects NaN and ±inf scores.
pub(crate) fn check_scores<T: Score>(scores: &[T], row: usize) -> Result<(), Error> {
    // A branch-free pass first (it vectorises); the position only for a bad row.
    if all_finite(scores) {
        return Ok(());
    }
    match scores.iter().position(|s| !s.is_finite()) {
        None => Ok(()),
        Some(column) => Err(Error::NonFiniteScore {
            row,
            column,
            value: scores[column].as_f64(),
        }),
    }
}

crate::wide::wide! {
    /// Whether every score is finite.
    fn all_finite<T: Score>(scores: &[T]) -> bool = all_finite_body;
}

/// [`all_finite`]'s loop, branch-free.
#[inline(always)]
fn all_finite_body<T: Score>(scores: &[T]) -> bool {
    scores.iter().fold(true, |ok, s| ok & s.is_finite())
}

/// Checks a weight vector: one finite, non-negative entry per row.
pub(crate) fn check_weights(w: &[f64], nrows: usize) -> Result<&[f64], Error> {
    if w.len() != nrows {
        return Err(Error::WeightLength {
            expected: nrows,
            found: w.len(),
        });
    }
    match w.iter().position(|x| !(x.is_finite() && *x >= 0.0)) {
        Some(row) => Err(Error::InvalidWeight { row, value: w[row] }),
        None => Ok(w),
    }
}

/// A batch's weight error with its row numbered across the whole stream.
pub(crate) fn numbered_from(error: Error, first_row: usize) -> Error {
    match error {
        Error::InvalidWeight { row, value } => Error::InvalidWeight {
            row: first_row + row,
            value,
        },
        other => other,
    }
}

/// Row i of both matrices, checked as every evaluation checks a row: its scores finite, then
/// its labels in `domain` (their values written to `gains`). Errors name the row `number`
/// (i, or i numbered across batches).
pub(crate) fn read_checked_row<'r, T, Y, S>(
    (truth, reader): (&'r mut RowReader<'_, Y>, &'r mut RowReader<'_, S>),
    domain: LabelDomain,
    (i, number): (usize, usize),
    gains: &mut [f64],
) -> Result<(&'r [T], &'r [Y::Elem]), Error>
where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    let s = reader.row(i)?;
    check_scores(s, number)?;
    let y = truth.row(i)?;
    read_labels(y, domain, number, gains)?;
    Ok((s, y))
}

/// Converts one row of labels to gains, checking each against `domain`. Every gain is written,
/// also when a label fails the check.
pub(crate) fn read_labels<L: Label>(
    labels: &[L],
    domain: LabelDomain,
    row: usize,
    gains: &mut [f64],
) -> Result<(), Error> {
    let rejected = match domain {
        LabelDomain::Binary => convert_labels(labels, gains, is_binary_label),
        LabelDomain::NonNegative => convert_labels(labels, gains, is_non_negative_label),
        _ => convert_labels(labels, gains, f64::is_finite),
    };
    match rejected {
        None => Ok(()),
        Some((column, value)) => Err(Error::InvalidLabel {
            row,
            column,
            value,
            expected: domain,
        }),
    }
}

/// A 0/1 label ([`LabelDomain::Binary`]); `|`, not `||`: no branch, so checks vectorise.
pub(crate) fn is_binary_label(v: f64) -> bool {
    (v == 0.0) | (v == 1.0)
}

/// A finite label of at least 0 ([`LabelDomain::NonNegative`]), without a branch.
pub(crate) fn is_non_negative_label(v: f64) -> bool {
    v.is_finite() & (v >= 0.0)
}

/// Writes each label's value to `gains`; the first label `accepts` refuses (its column and
/// value), if any. A branch-free pass first (it vectorises); the column only for a bad row.
fn convert_labels<L: Label>(
    labels: &[L],
    gains: &mut [f64],
    accepts: impl Fn(f64) -> bool,
) -> Option<(usize, f64)> {
    if convert_checked(labels, gains, &accepts) {
        return None;
    }
    gains
        .iter()
        .zip(labels)
        .position(|(&g, _)| !accepts(g))
        .map(|column| (column, gains[column]))
}

crate::wide::wide! {
    /// Writes the labels' values to `gains`; whether `accepts` takes every one.
    fn convert_checked<L: Label, A: Fn(f64) -> bool>(labels: &[L], gains: &mut [f64], accepts: A) -> bool = convert_checked_body;
}

/// [`convert_checked`]'s loop, branch-free.
#[inline(always)]
fn convert_checked_body<L: Label>(
    labels: &[L],
    gains: &mut [f64],
    accepts: impl Fn(f64) -> bool,
) -> bool {
    let mut ok = true;
    for (g, &label) in gains.iter_mut().zip(labels) {
        let value = label.value();
        ok &= accepts(value);
        *g = value;
    }
    ok
}

/// The distinct label values seen so far by scikit-learn's label-type check (at most two).
pub(crate) type IndicatorValues = [Option<f64>; 2];

/// scikit-learn's `type_of_target(...) == "multilabel-indicator"` (or "binary" for one
/// column): integral values, at most two distinct ones in the whole matrix (across batches:
/// `seen` carries the values met so far). Reports the first cell, in row order, that breaks it.
pub(crate) fn check_indicator<Y>(
    y_true: &Y,
    first_row: usize,
    seen: &mut IndicatorValues,
) -> Result<(), Error>
where
    Y: LabelMatrix + ?Sized,
{
    check_indicator_rows(y_true, 0..y_true.nrows(), first_row, seen, false).map(|_| ())
}

/// [`check_indicator`] on `rows`; with `until_known`, stops at the row where both label
/// values are known. Returns the row where it stopped (`rows.end` when it did not).
pub(crate) fn check_indicator_rows<Y>(
    y_true: &Y,
    rows: Range<usize>,
    first_row: usize,
    seen: &mut IndicatorValues,
    until_known: bool,
) -> Result<usize, Error>
where
    Y: LabelMatrix + ?Sized,
{
    let mut reader = RowReader::new(y_true, Input::Labels);
    for row in rows.clone() {
        if until_known && seen.iter().all(Option::is_some) {
            return Ok(row);
        }
        let cells = reader.row(row)?;
        if let [Some(a), Some(b)] = *seen {
            // Both values known: a branch-free check of the whole row (it vectorises).
            let fits = |ok: bool, &x: &Y::Elem| ok & ((x.value() == a) | (x.value() == b));
            if cells.iter().fold(true, fits) {
                continue;
            }
        }
        for (column, &label) in cells.iter().enumerate() {
            let value = label.value();
            if seen.iter().flatten().any(|&v| v == value) {
                continue;
            }
            let integral = value.is_finite() && value == value.trunc();
            let fits = integral
                && ({
                    seen.iter_mut()
                        .find(|v| v.is_none())
                        .map(|slot| *slot = Some(value))
                        .is_some()
                });
            if !fits {
                return Err(Error::InvalidLabel {
                    row: first_row + row,
                    column,
                    value,
                    expected: LabelDomain::Indicator,
                });
            }
        }
    }
    Ok(rows.end)
}

/// Checks the `k` of a top-k metric: at least 1.
pub(crate) const fn check_top_k(k: usize) -> Result<usize, Error> {
    match k {
        0 => Err(Error::InvalidK { value: 0 }),
        k => Ok(k),
    }
}
