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
pub(crate) fn check_shapes<Y: Matrix + ?Sized, S: Matrix + ?Sized>(
    y_true: &Y, y_score: &S, min_labels: usize,
) -> Result<(usize, usize), Error> {
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
        (n, l) => check_label_count(l, min_labels).map(|l| (n, l)),
    }
}

/// Checks a label count: at least one, at least `min_labels`, and no more than the kernel
/// numbers.
pub(crate) fn check_label_count(l: usize, min_labels: usize) -> Result<usize, Error> {
    match l {
        0 => Err(Error::NoLabels),
        l if l > u32::MAX as usize => Err(Error::TooManyItems {
            found: l,
            max: u32::MAX as usize,
        }),
        l if l < min_labels => Err(Error::TooFewLabels {
            required: min_labels,
            found: l,
        }),
        l => Ok(l),
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
    (truth, reader): (&'r mut RowReader<'_, Y>, &'r mut RowReader<'_, S>), domain: LabelDomain,
    (i, number): (usize, usize), gains: &mut [f64],
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
    labels: &[L], domain: LabelDomain, row: usize, gains: &mut [f64],
) -> Result<(), Error> {
    let rejected = match domain {
        LabelDomain::Binary => convert_labels(labels, gains, is_binary_label),
        LabelDomain::NonNegative => convert_labels(labels, gains, is_non_negative_label),
        LabelDomain::Hits => convert_labels(labels, gains, is_hit_label),
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

/// The first row of one column (its scores and labels, as lent: `scores[i]` and `labels[i]` in
/// row i) whose score is NaN or ±inf or whose label is outside `domain`, as [`read_checked_row`]
/// checks a row's cells; `None` when every cell passes. Branch-free passes first (they
/// vectorise); the position only for a bad column.
pub(crate) fn first_bad_row<T: Score, L: Label>(
    scores: &[T], labels: &[L], domain: LabelDomain,
) -> Option<usize> {
    let bad_score = match all_finite(scores) {
        true => None,
        false => scores.iter().position(|s| !s.is_finite()),
    };
    let bad_label = match domain {
        LabelDomain::Binary => first_refused(labels, is_binary_label),
        LabelDomain::NonNegative => first_refused(labels, is_non_negative_label),
        LabelDomain::Hits => first_refused(labels, is_hit_label),
        _ => first_refused(labels, f64::is_finite),
    };
    bad_score.into_iter().chain(bad_label).min()
}

/// The position of the first label whose value `accepts` refuses, if any.
fn first_refused<L: Label>(labels: &[L], accepts: impl Fn(f64) -> bool) -> Option<usize> {
    match all_accepted(labels, &accepts) {
        true => None,
        false => labels.iter().position(|&label| !accepts(label.value())),
    }
}

crate::wide::wide! {
    /// Whether `accepts` takes every label's value.
    fn all_accepted<L: Label, A: Fn(f64) -> bool>(labels: &[L], accepts: A) -> bool = all_accepted_body;
}

/// [`all_accepted`]'s loop, branch-free.
#[inline(always)]
fn all_accepted_body<L: Label>(labels: &[L], accepts: impl Fn(f64) -> bool) -> bool {
    labels
        .iter()
        .fold(true, |ok, &label| ok & accepts(label.value()))
}

/// A 0/1 label ([`LabelDomain::Binary`]); `|`, not `||`: no branch, so checks vectorise.
pub(crate) fn is_binary_label(v: f64) -> bool {
    (v == 0.0) | (v == 1.0)
}

/// A hit label, -1, 0 or 1 ([`LabelDomain::Hits`]), without a branch.
pub(crate) fn is_hit_label(v: f64) -> bool {
    (v == 0.0) | (v == 1.0) | (v == -1.0)
}

/// A finite label of at least 0 ([`LabelDomain::NonNegative`]), without a branch.
pub(crate) fn is_non_negative_label(v: f64) -> bool {
    v.is_finite() & (v >= 0.0)
}

/// Writes each label's value to `gains`; the first label `accepts` refuses (its column and
/// value), if any. A branch-free pass first (it vectorises); the column only for a bad row.
fn convert_labels<L: Label>(
    labels: &[L], gains: &mut [f64], accepts: impl Fn(f64) -> bool,
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
    labels: &[L], gains: &mut [f64], accepts: impl Fn(f64) -> bool,
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
pub(crate) fn check_indicator<Y: LabelMatrix + ?Sized>(
    y_true: &Y, first_row: usize, seen: &mut IndicatorValues,
) -> Result<(), Error> {
    // A matrix that lends its columns is read column by column (each one contiguous, where its
    // rows would be gathered cell by cell); the rows are read only when that check fails, for
    // the first bad cell in row order.
    if let Some(values) = indicator_values_by_columns(y_true, *seen) {
        *seen = values;
        return Ok(());
    }
    check_indicator_rows(y_true, 0..y_true.nrows(), first_row, seen, false).map(|_| ())
}

/// [`check_indicator`] on the columns of a matrix that lends every one whole: the values seen
/// (`seen` and the matrix's), when every cell passes; `None` when one does not, or a column is
/// not lent whole.
fn indicator_values_by_columns<Y>(y_true: &Y, mut seen: IndicatorValues) -> Option<IndicatorValues>
where
    Y: LabelMatrix + ?Sized,
{
    let n = y_true.nrows();
    for j in 0..y_true.ncols() {
        let mut rest = y_true.column(j).filter(|c| c.len() == n)?;
        while let Some((label, after)) = rest.split_first() {
            if let [Some(a), Some(b)] = seen {
                // Both values known: no other is admitted, and the rest is checked whole.
                if !all_either(rest, a, b) {
                    return None;
                }
                break;
            }
            if !admit(label.value(), &mut seen) {
                return None;
            }
            rest = after;
        }
    }
    Some(seen)
}

/// Whether every label's value is `a` or `b`, branch-free (it vectorises).
fn all_either<L: Label>(labels: &[L], a: f64, b: f64) -> bool {
    let fits = |ok: bool, &x: &L| ok & ((x.value() == a) | (x.value() == b));
    labels.iter().fold(true, fits)
}

/// Whether `value` keeps the matrix a label indicator: one of the values `seen`, or an
/// integral one taking a free place among them.
pub(crate) fn admit(value: f64, seen: &mut IndicatorValues) -> bool {
    if seen.iter().flatten().any(|&v| v == value) {
        return true;
    }
    let integral = value.is_finite() && value == value.trunc();
    integral
        && seen
            .iter_mut()
            .find(|v| v.is_none())
            .map(|slot| *slot = Some(value))
            .is_some()
}

/// The matrix-wide [`check_indicator`] that evaluating many metrics in one pass makes before
/// the first row: once, and only where one of `domains` (those of the metrics still running)
/// is [`LabelDomain::Indicator`]; its error goes to every such metric.
pub(crate) fn check_indicator_if_asked<Y: LabelMatrix + ?Sized>(
    y_true: &Y, mut domains: impl Iterator<Item = LabelDomain>,
) -> Result<(), Error> {
    if domains.any(|d| d == LabelDomain::Indicator) {
        check_indicator(y_true, 0, &mut Default::default())
    } else {
        Ok(())
    }
}

/// [`check_indicator`] on `rows`; with `until_known`, stops at the row where both label
/// values are known. Returns the row where it stopped (`rows.end` when it did not).
pub(crate) fn check_indicator_rows<Y: LabelMatrix + ?Sized>(
    y_true: &Y, rows: Range<usize>, first_row: usize, seen: &mut IndicatorValues, until_known: bool,
) -> Result<usize, Error> {
    let mut reader = RowReader::new(y_true, Input::Labels);
    for row in rows.clone() {
        if until_known && seen.iter().all(Option::is_some) {
            return Ok(row);
        }
        let cells = reader.row(row)?;
        if let [Some(a), Some(b)] = *seen {
            // Both values known: a check of the whole row first.
            if all_either(cells, a, b) {
                continue;
            }
        }
        if let Some(column) = cells.iter().position(|label| !admit(label.value(), seen)) {
            return Err(Error::InvalidLabel {
                row: first_row + row,
                column,
                value: cells[column].value(),
                expected: LabelDomain::Indicator,
            });
        }
    }
    Ok(rows.end)
}

/// Checks a logarithm base: finite and greater than 1.
pub(crate) fn check_log_base(log_base: f64) -> Result<f64, Error> {
    match log_base > 1.0 && log_base.is_finite() {
        true => Ok(log_base),
        false => Err(Error::InvalidLogBase { value: log_base }),
    }
}

/// Checks the `k` of a top-k metric: at least 1.
pub(crate) const fn check_top_k(k: usize) -> Result<usize, Error> {
    match k {
        0 => Err(Error::InvalidK { value: 0 }),
        k => Ok(k),
    }
}
