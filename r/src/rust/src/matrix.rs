//! R matrices as the crate's matrices: column-major views of R's own memory (no copy, no
//! transpose), after a check that every cell is present (no `NA`) and every score finite.

use core::ops::Range;

use extendr_api::prelude::*;
use rankmetrics::Matrix;

use crate::errors::Failure;
use crate::interrupt;

/// An R matrix's memory as an n × L matrix: element (i, j) is `data[j * nrows + i]`. Columns
/// are lent in place (the label-wise averages read them so); rows are gathered a block at a
/// time, each column's run of rows read contiguously. Every read counts its cells towards the
/// next check for the user's interrupt (`interrupt.rs`).
#[derive(Debug, Clone, Copy)]
pub struct ColMajor<'a, T> {
    data: &'a [T],
    nrows: usize,
    ncols: usize,
}

impl<'a, T: Copy> ColMajor<'a, T> {
    /// Views `data` (length `nrows * ncols`) as `nrows` × `ncols`, column-major.
    pub fn new(data: &'a [T], nrows: usize, ncols: usize) -> Option<Self> {
        (nrows.checked_mul(ncols) == Some(data.len())).then_some(ColMajor { data, nrows, ncols })
    }

    /// The first cell, column by column, for which `bad` holds, as 0-based (row, column).
    fn find(&self, bad: impl Fn(T) -> bool) -> Option<(usize, usize)> {
        let k = self.data.iter().position(|&v| bad(v))?;
        Some((k % self.nrows, k / self.nrows))
    }
}

impl<T: Copy> Matrix for ColMajor<'_, T> {
    type Elem = T;

    fn nrows(&self) -> usize {
        self.nrows
    }

    fn ncols(&self) -> usize {
        self.ncols
    }

    fn column(&self, j: usize) -> Option<&[T]> {
        interrupt::read(self.nrows);
        self.data.get(j * self.nrows..(j + 1) * self.nrows)
    }

    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        if rows.end > self.nrows || rows.is_empty() || self.ncols == 0 {
            return;
        }
        interrupt::read(rows.len() * self.ncols);
        let base = out.len();
        let ncols = self.ncols;
        out.resize(base + rows.len() * ncols, self.data[rows.start]);
        for j in 0..ncols {
            let column = &self.data[j * self.nrows..(j + 1) * self.nrows];
            for (k, &v) in column[rows.clone()].iter().enumerate() {
                out[base + k * ncols + j] = v;
            }
        }
    }
}

/// `y_true` as R holds it: logical and integer matrices are 32-bit integers (`NA` is
/// `i32::MIN`), double matrices doubles.
pub enum Labels<'a> {
    /// A logical or integer matrix.
    Int(ColMajor<'a, i32>),
    /// A double matrix.
    Real(ColMajor<'a, f64>),
}

/// The matrix's (rows, columns), or a failure naming `what`.
fn shape(x: &Robj, what: &str) -> Result<(usize, usize), Failure> {
    let dim: Vec<i32> = x
        .dim()
        .map(|d| {
            d.iter()
                .map(|v| Option::<i32>::from(v).unwrap_or(-1))
                .collect()
        })
        .unwrap_or_default();
    match dim[..] {
        [n, l] if n >= 0 && l >= 0 => Ok((n as usize, l as usize)),
        _ => Err(Failure::new(
            "dimension",
            format!("{what} must be a matrix (rows = samples, columns = labels); it has no two dimensions"),
        )),
    }
}

/// R's name of the object's type, as `typeof()` gives it.
pub fn type_name(x: &Robj) -> &'static str {
    match x.rtype() {
        Rtype::Null => "NULL",
        Rtype::Logicals => "logical",
        Rtype::Integers => "integer",
        Rtype::Doubles => "double",
        Rtype::Complexes => "complex",
        Rtype::Strings => "character",
        Rtype::List => "list",
        Rtype::Raw => "raw",
        _ => "another type",
    }
}

fn type_failure(what: &str, expected: &str, x: &Robj) -> Failure {
    Failure::new(
        "type",
        format!("{what} must be {expected}; got a {} matrix", type_name(x)),
    )
}

/// A failure of `kind` (`missing` or `non_finite_score`) at the cell (`row`, `column`) of `what`
/// holding `value`.
fn bad_cell(kind: &str, what: &str, (row, column): (usize, usize), value: &str) -> Failure {
    Failure::new(
        kind,
        format!("{what}[{}, {}] is {value}", row + 1, column + 1),
    )
    .at(row, column)
}

/// `y_true`: a logical, integer or double matrix without `NA` or `NaN`.
pub fn labels(x: &Robj) -> Result<Labels<'_>, Failure> {
    let (n, l) = shape(x, "y_true")?;
    let labels = match x.rtype() {
        Rtype::Logicals => {
            let cells = x.as_logical_slice().unwrap_or_default();
            // SAFETY: `Rbool` is `#[repr(transparent)]` over `i32`: the same memory.
            let cells: &[i32] =
                unsafe { std::slice::from_raw_parts(cells.as_ptr().cast::<i32>(), cells.len()) };
            ColMajor::new(cells, n, l).map(Labels::Int)
        }
        Rtype::Integers => {
            ColMajor::new(x.as_integer_slice().unwrap_or_default(), n, l).map(Labels::Int)
        }
        Rtype::Doubles => {
            ColMajor::new(x.as_real_slice().unwrap_or_default(), n, l).map(Labels::Real)
        }
        _ => {
            return Err(type_failure(
                "y_true",
                "a logical, integer or double matrix",
                x,
            ))
        }
    }
    .ok_or_else(|| Failure::new("dimension", "y_true's dim does not match its length".into()))?;
    let na = match &labels {
        Labels::Int(m) => m.find(|v| v == i32::MIN).map(|at| (at, "NA")),
        Labels::Real(m) => m.find(f64::is_nan).map(|at| (at, "NA or NaN")),
    };
    match na {
        Some((at, value)) => Err(bad_cell("missing", "y_true", at, value)),
        None => Ok(labels),
    }
}

/// `y_score`: a double matrix of finite numbers.
pub fn scores(x: &Robj) -> Result<ColMajor<'_, f64>, Failure> {
    let (n, l) = shape(x, "y_score")?;
    if x.rtype() != Rtype::Doubles {
        return Err(type_failure("y_score", "a double matrix", x));
    }
    let m = ColMajor::new(x.as_real_slice().unwrap_or_default(), n, l).ok_or_else(|| {
        Failure::new(
            "dimension",
            "y_score's dim does not match its length".into(),
        )
    })?;
    if let Some(at) = m.find(|v| !v.is_finite()) {
        let v = m.data[at.1 * n + at.0];
        let (kind, value) = if v.is_nan() {
            ("missing", "NA or NaN")
        } else if v > 0.0 {
            ("non_finite_score", "Inf")
        } else {
            ("non_finite_score", "-Inf")
        };
        return Err(bad_cell(kind, "y_score", at, value));
    }
    Ok(m)
}

/// `sample_weight`: `NULL` or a double vector (its values are checked by the crate).
pub fn weights(x: &Robj) -> Result<Option<&[f64]>, Failure> {
    if x.is_null() {
        return Ok(None);
    }
    x.as_real_slice().map(Some).ok_or_else(|| {
        Failure::new(
            "type",
            format!(
                "sample_weight must be NULL or a double vector; got {}",
                type_name(x)
            ),
        )
    })
}

/// Runs `$body` with `$y` bound to the labels' view (either element type).
macro_rules! with_labels {
    ($labels:expr, |$y:ident| $body:expr) => {
        match $labels {
            $crate::matrix::Labels::Int($y) => $body,
            $crate::matrix::Labels::Real($y) => $body,
        }
    };
}
pub(crate) use with_labels;
