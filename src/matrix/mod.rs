//! The [`Matrix`] abstraction: how metrics read `y_true` and `y_score`.
//!
//! Here: the traits, the row reader, `RowMajor` and the impls for nested rows (`Vec<Vec<T>>`,
//! `[[T; L]; N]`, ...); `nalgebra_impl.rs`, `ndarray_impl.rs`, `faer_impl.rs`: the impls for
//! each matrix crate (each behind its feature).

use core::ops::Range;

use crate::error::{Error, Input};
use crate::score::{Label, Score};

#[cfg(feature = "faer")]
mod faer_impl;
#[cfg(feature = "nalgebra")]
mod nalgebra_impl;
#[cfg(feature = "ndarray")]
mod ndarray_impl;

/// A read-only n × L matrix (rows = samples, columns = labels) that metrics read row by row.
///
/// The contract is small on purpose: a shape, optional zero-copy views of a contiguous row or
/// column, and a block copy that always works. Row-major inputs hand out their rows without
/// copying, column-major ones (ndarray and faer in column-major layout) their columns, which the
/// label-wise averages read in place; nalgebra copies blocks of rows column by column, so that
/// its reads stay contiguous.
///
/// Implemented for [`RowMajor`] views of a flat slice, `Vec<Vec<T>>` and `[Vec<T>]`, fixed-size
/// arrays `[[T; L]; N]`, `Vec<[T; L]>` and `[[T; L]]`, references to any of these, and, behind
/// features, every nalgebra matrix and view (`nalgebra`, on by default), every 2-D ndarray array
/// and view (`ndarray`), and faer's `Mat` and `MatRef` (`faer`).
///
/// # Contract
/// * [`nrows`](Self::nrows) and [`ncols`](Self::ncols) give the shape, and keep giving it
///   while a metric reads the matrix.
/// * [`row(i)`](Self::row), for `i` in `0..nrows()`, is `None` or row `i`: exactly `ncols()`
///   elements.
/// * [`column(j)`](Self::column), for `j` in `0..ncols()`, is `None` or column `j`, top to
///   bottom: exactly `nrows()` elements.
/// * [`extend_rows(a..b, out)`](Self::extend_rows), for `a <= b <= nrows()`, appends rows
///   `a..b` to `out`, row-major: exactly `(b - a) · ncols()` elements.
/// * `column(j)` holds the values the rows hold: the crate validates the inputs (every score
///   finite, every label of the metric's domain) by row, except that the label-wise averages
///   validate by column where both inputs lend every column whole (reading the rows only from
///   the first row a column finds bad, for the error of the first bad cell in row order), and
///   scikit-learn's label-type check reads `y_true` by column wherever it lends every column;
///   either may then be read.
/// * None of them panics for rows within `0..nrows()` and columns within `0..ncols()`; metrics
///   ask for no others.
///
/// The crate checks the lengths (one comparison per row read in place, one per block of rows
/// copied, one per column before any is read in place; a column of another length is not read
/// in place) and, once per block, that the shape has not changed. A matrix that breaks the
/// contract gives [`Error::MatrixContract`] or [`Error::MatrixShapeChanged`], naming the input
/// ([`Input`]) and the row, never a panic. A lent column's NaN or ±inf score is refused
/// ([`Error::NonFiniteScore`]). The values themselves cannot be checked: a matrix that returns
/// the wrong row (or column) of the right length gives a wrong result, and so do one that
/// lends a column whole when checked and then not and one whose rows differ from its lent
/// columns (a value or an error, never a panic, and not always the same one through different
/// entry points). A
/// panic inside an implementation (an index out of range, say) is the implementation's bug.
///
/// # Example
/// ```
/// use rankmetrics::{Matrix, RowMajor};
/// let data = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
/// let m = RowMajor::new(&data, 2, 3).unwrap();
/// assert_eq!((m.nrows(), m.ncols()), (2, 3));
/// assert_eq!(m.row(1), Some(&[4.0, 5.0, 6.0][..]));
/// let mut buf = Vec::new();
/// m.extend_rows(0..2, &mut buf);
/// assert_eq!(buf, data);
/// ```
///
/// An implementation that breaks the contract gets a typed error:
/// ```
/// use core::ops::Range;
/// use rankmetrics::{Coverage, Error, Input, Matrix, RankingMetric, TiePolicy};
/// /// Two rows of three labels, but `extend_rows` drops the last label of every row.
/// struct Short;
/// impl Matrix for Short {
///     type Elem = u8;
///     fn nrows(&self) -> usize { 2 }
///     fn ncols(&self) -> usize { 3 }
///     fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<u8>) {
///         for _ in rows {
///             out.extend_from_slice(&[1, 0]);
///         }
///     }
/// }
/// let scores = [[0.9, 0.1, 0.5], [0.2, 0.8, 0.3]];
/// let err = Coverage::new(TiePolicy::Max).evaluate(&Short, &scores, None).unwrap_err();
/// assert_eq!(
///     err,
///     Error::MatrixContract { matrix: Input::Labels, row: 0, expected: 6, found: 4 }
/// );
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a rankmetrics `Matrix`",
    label = "not a `Matrix` of labels or scores",
    note = "`Vec<Vec<T>>`, `[[T; L]; N]`, `Vec<[T; L]>`, slices of rows and `RowMajor` views of a flat slice are matrices as they are",
    note = "nalgebra matrices are matrices with the feature `nalgebra` (on by default), 2-D ndarray arrays with `ndarray`, faer's `Mat`/`MatRef` with `faer`"
)]
pub trait Matrix {
    /// The element type.
    type Elem: Copy;
    /// The number of rows (samples).
    fn nrows(&self) -> usize;
    /// The number of columns (labels).
    fn ncols(&self) -> usize;
    /// Row `i` as a contiguous slice, when the storage has one.
    fn row(&self, _i: usize) -> Option<&[Self::Elem]> {
        None
    }
    /// Column `j` as a contiguous slice, top to bottom, when the storage has one.
    ///
    /// # Example
    /// ```
    /// use core::ops::Range;
    /// use rankmetrics::Matrix;
    /// /// Two rows of three scores, stored column after column.
    /// struct ByColumn([f64; 6]);
    /// impl Matrix for ByColumn {
    ///     type Elem = f64;
    ///     fn nrows(&self) -> usize { 2 }
    ///     fn ncols(&self) -> usize { 3 }
    ///     fn column(&self, j: usize) -> Option<&[f64]> {
    ///         self.0.get(2 * j..2 * j + 2)
    ///     }
    ///     fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<f64>) {
    ///         for i in rows {
    ///             out.extend((0..3).map(|j| self.0[2 * j + i]));
    ///         }
    ///     }
    /// }
    /// let m = ByColumn([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
    /// assert_eq!(m.column(1), Some(&[0.3, 0.4][..]));
    /// assert_eq!(m.row(0), None);
    /// ```
    fn column(&self, _j: usize) -> Option<&[Self::Elem]> {
        None
    }
    /// Appends the rows `rows` to `out`, row-major.
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<Self::Elem>);
    /// Checks that the storage really is a matrix (for nested vectors: that no row is ragged).
    ///
    /// # Errors
    /// [`Error::RaggedRow`] for the first row whose length differs from row 0's.
    fn check_shape(&self) -> Result<(), Error> {
        Ok(())
    }
}

/// A [`Matrix`] of labels (`bool`, integers or floats): the bound a label input needs, written
/// once. Every `Matrix` whose elements are [`Label`]s is one, `dyn Matrix<Elem = L>` included.
///
/// # Example
/// ```
/// use rankmetrics::{LabelMatrix, Label};
/// fn relevant<Y: LabelMatrix + ?Sized>(y: &Y) -> usize {
///     let mut cells = Vec::new();
///     y.extend_rows(0..y.nrows(), &mut cells);
///     cells.iter().filter(|c| c.value() != 0.0).count()
/// }
/// assert_eq!(relevant(&[[1u8, 0], [1, 1]]), 3);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a rankmetrics `Matrix` of labels (`bool`, integers or floats)",
    label = "not a `Matrix` of labels",
    note = "`Vec<Vec<T>>`, `[[T; L]; N]`, `Vec<[T; L]>`, slices of rows and `RowMajor` views of a flat slice are matrices as they are",
    note = "nalgebra matrices are matrices with the feature `nalgebra` (on by default), 2-D ndarray arrays with `ndarray`, faer's `Mat`/`MatRef` with `faer`"
)]
pub trait LabelMatrix: Matrix<Elem: Label> {}

impl<M: Matrix<Elem: Label> + ?Sized> LabelMatrix for M {}

/// A [`Matrix`] of scores of type `T` (`f32` or `f64`): the bound a score input needs, written
/// once.
///
/// # Example
/// ```
/// use rankmetrics::{AveragePrecision, LabelMatrix, RankingMetric, Score, ScoreMatrix, TiePolicy};
/// // A generic caller writes two bounds besides the score type.
/// fn lrap<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(y: &Y, s: &S) -> f64 {
///     AveragePrecision::new(TiePolicy::Max).evaluate(y, s, None).unwrap()
/// }
/// assert_eq!(lrap(&[[1, 0]], &[[0.9f32, 0.1]]), 1.0);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a rankmetrics `Matrix` of scores (`f32` or `f64`)",
    label = "not a `Matrix` of scores",
    note = "`Vec<Vec<T>>`, `[[T; L]; N]`, `Vec<[T; L]>`, slices of rows and `RowMajor` views of a flat slice are matrices as they are",
    note = "nalgebra matrices are matrices with the feature `nalgebra` (on by default), 2-D ndarray arrays with `ndarray`, faer's `Mat`/`MatRef` with `faer`"
)]
pub trait ScoreMatrix<T: Score>: Matrix<Elem = T> {}

impl<T: Score, M: Matrix<Elem = T> + ?Sized> ScoreMatrix<T> for M {}

impl<M: Matrix + ?Sized> Matrix for &M {
    type Elem = M::Elem;
    fn nrows(&self) -> usize {
        (**self).nrows()
    }
    fn ncols(&self) -> usize {
        (**self).ncols()
    }
    fn row(&self, i: usize) -> Option<&[Self::Elem]> {
        (**self).row(i)
    }
    fn column(&self, j: usize) -> Option<&[Self::Elem]> {
        (**self).column(j)
    }
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<Self::Elem>) {
        (**self).extend_rows(rows, out)
    }
    fn check_shape(&self) -> Result<(), Error> {
        (**self).check_shape()
    }
}

/// A row-major view of a flat slice: element (i, j) is `data[i * ncols + j]`.
///
/// # Example
/// ```
/// use rankmetrics::{Error, RowMajor};
/// assert!(RowMajor::new(&[1, 0, 1, 1], 2, 2).is_ok());
/// assert!(matches!(RowMajor::new(&[1, 0, 1], 2, 2), Err(Error::DataLength { found: 3, .. })));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct RowMajor<'a, T> {
    data: &'a [T],
    nrows: usize,
    ncols: usize,
}

impl<'a, T> RowMajor<'a, T> {
    /// Views `data` as `nrows` × `ncols`, row-major.
    ///
    /// # Errors
    /// [`Error::DataLength`] when `data.len() != nrows * ncols`.
    pub fn new(data: &'a [T], nrows: usize, ncols: usize) -> Result<Self, Error> {
        let expected = nrows.saturating_mul(ncols);
        if nrows.checked_mul(ncols) != Some(data.len()) {
            return Err(Error::DataLength {
                rows: nrows,
                columns: ncols,
                expected,
                found: data.len(),
            });
        }
        Ok(RowMajor { data, nrows, ncols })
    }

    /// The underlying slice.
    ///
    /// # Example
    /// ```
    /// let m = rankmetrics::RowMajor::new(&[1, 2], 1, 2).unwrap();
    /// assert_eq!(m.as_slice(), &[1, 2]);
    /// ```
    pub fn as_slice(&self) -> &'a [T] {
        self.data
    }
}

impl<T: Copy> Matrix for RowMajor<'_, T> {
    type Elem = T;
    fn nrows(&self) -> usize {
        self.nrows
    }
    fn ncols(&self) -> usize {
        self.ncols
    }
    fn row(&self, i: usize) -> Option<&[T]> {
        self.data.get(i * self.ncols..(i + 1) * self.ncols)
    }
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        if let Some(block) = self
            .data
            .get(rows.start * self.ncols..rows.end * self.ncols)
        {
            out.extend_from_slice(block);
        }
    }
}

/// Matrices stored as a sequence of rows: `Vec<Vec<T>>`, `[[T; L]; N]`, and so on.
macro_rules! matrix_of_rows {
    ($([$($gen:tt)*] $ty:ty, $row:ty;)*) => {$(
        impl<$($gen)*> Matrix for $ty {
            type Elem = T;
            fn nrows(&self) -> usize {
                self.len()
            }
            fn ncols(&self) -> usize {
                self.first().map_or(0, |r| r.len())
            }
            fn row(&self, i: usize) -> Option<&[T]> {
                self.get(i).map(|r| &r[..])
            }
            fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
                for r in self.get(rows).unwrap_or(&[]) {
                    out.extend_from_slice(&r[..]);
                }
            }
            fn check_shape(&self) -> Result<(), Error> {
                check_rows(self.iter().map(|r: &$row| r.len()))
            }
        }
    )*};
}

matrix_of_rows! {
    [T: Copy] Vec<Vec<T>>, Vec<T>;
    [T: Copy] [Vec<T>], Vec<T>;
    [T: Copy] Vec<&[T]>, &[T];
    [T: Copy] [&[T]], &[T];
    [T: Copy, const L: usize] Vec<[T; L]>, [T; L];
    [T: Copy, const L: usize] [[T; L]], [T; L];
    [T: Copy, const L: usize, const N: usize] [[T; L]; N], [T; L];
}

fn check_rows(lengths: impl Iterator<Item = usize>) -> Result<(), Error> {
    let mut expected = None;
    for (row, found) in lengths.enumerate() {
        match expected {
            None => expected = Some(found),
            Some(expected) if expected != found => {
                return Err(Error::RaggedRow {
                    row,
                    expected,
                    found,
                })
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// Reads the rows of a [`Matrix`] in order, zero-copy where the storage allows and in blocks
/// of rows otherwise, with one reusable buffer. Every read of a matrix's rows goes through
/// here, so that every row is checked against the [`Matrix`] contract.
pub(crate) struct RowReader<'m, M: Matrix + ?Sized> {
    matrix: &'m M,
    /// Which input the matrix is, in errors.
    input: Input,
    /// (nrows, ncols) when reading began.
    shape: (usize, usize),
    buffer: Vec<M::Elem>,
    block: Range<usize>,
}

/// About 32 KiB of scores per copied block: large enough that column-major gathers read runs of
/// contiguous memory, small enough to stay in L1/L2.
const BLOCK_ELEMS: usize = 4096;

impl<'m, M: Matrix + ?Sized> RowReader<'m, M> {
    /// A reader of `matrix`, which is `input` in errors.
    pub(crate) fn new(matrix: &'m M, input: Input) -> Self {
        RowReader {
            matrix,
            input,
            shape: (matrix.nrows(), matrix.ncols()),
            buffer: Vec::new(),
            block: 0..0,
        }
    }

    /// Row `i` (`i < nrows`); fastest when called with increasing `i`.
    ///
    /// # Errors
    /// [`Error::MatrixContract`] when the matrix gives a row of another length than
    /// `ncols()`; [`Error::MatrixShapeChanged`] when its shape changed since reading began.
    #[inline]
    pub(crate) fn row(&mut self, i: usize) -> Result<&'_ [M::Elem], Error> {
        let (matrix, ncols) = (self.matrix, self.shape.1);
        if let Some(r) = matrix.row(i) {
            // The one check per row in place.
            return match r.len() == ncols {
                true => Ok(r),
                false => Err(self.broken(i, ncols, r.len())),
            };
        }
        if !self.block.contains(&i) {
            self.fill(i)?;
        }
        let at = (i - self.block.start) * ncols;
        let found = self.buffer.len().saturating_sub(at).min(ncols);
        // `fill` checked the block's length: the row is there.
        match self.buffer.get(at..at + ncols) {
            Some(r) => Ok(r),
            None => Err(self.broken(i, ncols, found)),
        }
    }

    /// Copies the block of rows from `i` into the buffer, checking its length (and the shape).
    #[inline(never)]
    fn fill(&mut self, i: usize) -> Result<(), Error> {
        let (nrows, ncols) = self.shape;
        let now = (self.matrix.nrows(), self.matrix.ncols());
        if now != self.shape {
            return Err(Error::MatrixShapeChanged {
                matrix: self.input,
                expected: self.shape,
                found: now,
            });
        }
        self.block = 0..0;
        self.buffer.clear();
        if i >= nrows {
            // Only a matrix whose `nrows()` gave more rows before reading began is asked this.
            return Err(self.broken(i, ncols, 0));
        }
        let end = (i + (BLOCK_ELEMS / ncols.max(1)).max(1)).min(nrows);
        self.matrix.extend_rows(i..end, &mut self.buffer);
        let expected = (end - i) * ncols;
        if self.buffer.len() != expected {
            return Err(self.broken(i, expected, self.buffer.len()));
        }
        self.block = i..end;
        Ok(())
    }

    /// The error for `found` values where `expected` were due, reading from row `row`.
    #[cold]
    fn broken(&self, row: usize, expected: usize, found: usize) -> Error {
        Error::MatrixContract {
            matrix: self.input,
            row,
            expected,
            found,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ragged_rows_are_reported_with_their_row() {
        let m = vec![vec![1, 2], vec![3, 4], vec![5]];
        assert!(matches!(
            m.check_shape(),
            Err(Error::RaggedRow {
                row: 2,
                expected: 2,
                found: 1
            })
        ));
    }

    #[test]
    fn reader_without_contiguous_rows_copies_blocks() {
        struct Cols(Vec<Vec<i32>>); // column-major: Cols[j][i]
        impl Matrix for Cols {
            type Elem = i32;
            fn nrows(&self) -> usize {
                self.0[0].len()
            }
            fn ncols(&self) -> usize {
                self.0.len()
            }
            fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<i32>) {
                for i in rows {
                    out.extend(self.0.iter().map(|c| c[i]));
                }
            }
        }
        let m = Cols(vec![
            (0..5000).collect(),
            (0..5000).map(|x: i32| -x).collect(),
        ]);
        let mut r = RowReader::new(&m, Input::Scores);
        for i in 0..5000 {
            assert_eq!(r.row(i), Ok(&[i as i32, -(i as i32)][..]));
        }
    }
}
