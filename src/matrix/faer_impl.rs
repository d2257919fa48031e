//! [`Matrix`] for faer matrices and views (feature `faer`).

use core::ops::Range;

use faer::{Mat, MatRef};

use super::Matrix;

/// faer views of any strides. Rows whose elements are contiguous (a row-major view, such as the
/// transpose of a column-major `Mat`) are handed out without copying, and so are the columns of
/// a column-major view (which the label-wise averages read in place); otherwise a block of rows
/// is gathered column by column, reading each column's run of rows contiguously.
///
/// # Example
/// ```
/// use faer::mat;
/// use rankmetrics::{sklearn, Matrix};
/// let y_true = mat![[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
/// let y_score = mat![[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]];
/// assert_eq!(sklearn::coverage_error(&y_true.as_ref(), &y_score.as_ref(), None).unwrap(), 2.5);
/// assert_eq!(sklearn::coverage_error(&y_true, &y_score, None).unwrap(), 2.5);
/// // A transposed view is row-major: its rows are read in place.
/// let scores_t = mat![[0.75, 1.0], [0.5, 0.2], [1.0, 0.1]];
/// assert_eq!(Matrix::row(&scores_t.transpose(), 1), Some(&[1.0, 0.2, 0.1][..]));
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "faer")))]
impl<T: Copy> Matrix for MatRef<'_, T> {
    type Elem = T;

    fn nrows(&self) -> usize {
        MatRef::nrows(self)
    }

    fn ncols(&self) -> usize {
        MatRef::ncols(self)
    }

    fn row(&self, i: usize) -> Option<&[T]> {
        if i >= MatRef::nrows(self) {
            return None;
        }
        Some(MatRef::row(*self, i).try_as_row_major()?.as_slice())
    }

    fn column(&self, j: usize) -> Option<&[T]> {
        if j >= MatRef::ncols(self) {
            return None;
        }
        Some(self.col(j).try_as_col_major()?.as_slice())
    }

    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        let (nrows, ncols) = (MatRef::nrows(self), MatRef::ncols(self));
        if rows.end > nrows || rows.is_empty() || ncols == 0 {
            return;
        }
        let base = out.len();
        out.resize(base + rows.len() * ncols, self[(rows.start, 0)]);
        for j in 0..ncols {
            let column = self.col(j);
            for (k, i) in rows.clone().enumerate() {
                out[base + k * ncols + j] = column[i];
            }
        }
    }
}

/// An owned faer matrix, read through its view.
#[cfg_attr(docsrs, doc(cfg(feature = "faer")))]
impl<T: Copy> Matrix for Mat<T> {
    type Elem = T;

    fn nrows(&self) -> usize {
        Mat::nrows(self)
    }

    fn ncols(&self) -> usize {
        Mat::ncols(self)
    }

    fn row(&self, i: usize) -> Option<&[T]> {
        if i >= Mat::nrows(self) {
            return None;
        }
        Some(self.as_ref().row(i).try_as_row_major()?.as_slice())
    }

    fn column(&self, j: usize) -> Option<&[T]> {
        if j >= Mat::ncols(self) {
            return None;
        }
        Some(self.as_ref().col(j).try_as_col_major()?.as_slice())
    }

    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        self.as_ref().extend_rows(rows, out)
    }
}
