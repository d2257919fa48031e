//! [`Matrix`] for nalgebra matrices and views (feature `nalgebra`).

use core::ops::Range;

use nalgebra::{Dim, RawStorage, Scalar};

use super::Matrix;

/// Every nalgebra matrix or view, owned or borrowed, static or dynamic. nalgebra stores
/// column-major, so rows are gathered a block at a time, reading each column's run of rows
/// contiguously.
///
/// # Example
/// ```
/// use nalgebra::DMatrix;
/// use rankmetrics::{sklearn, Matrix};
/// let y_true = DMatrix::from_row_slice(2, 3, &[1, 0, 0, 0, 0, 1]);
/// let y_score = DMatrix::from_row_slice(2, 3, &[0.75, 0.5, 1.0, 1.0, 0.2, 0.1]);
/// assert_eq!(y_score.nrows(), 2);
/// assert_eq!(sklearn::coverage_error(&y_true, &y_score, None).unwrap(), 2.5);
/// // Views work too, without copying the matrix.
/// let top = y_score.rows(0, 1);
/// assert_eq!(sklearn::coverage_error(&y_true.rows(0, 1), &top, None).unwrap(), 2.0);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "nalgebra")))]
impl<T, R, C, S> Matrix for nalgebra::Matrix<T, R, C, S>
where
    T: Scalar + Copy,
    R: Dim,
    C: Dim,
    S: RawStorage<T, R, C>,
{
    type Elem = T;

    fn nrows(&self) -> usize {
        self.shape().0
    }

    fn ncols(&self) -> usize {
        self.shape().1
    }

    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        let (nrows, ncols) = self.shape();
        if rows.end > nrows || rows.is_empty() || ncols == 0 {
            return;
        }
        let base = out.len();
        let height = rows.len();
        out.resize(base + height * ncols, self[(rows.start, 0)]);
        for j in 0..ncols {
            let column = self.column(j);
            for (k, i) in rows.clone().enumerate() {
                out[base + k * ncols + j] = column[i];
            }
        }
    }
}
