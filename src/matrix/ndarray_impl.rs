//! [`Matrix`] for ndarray 2-D arrays and views (feature `ndarray`).

use core::ops::Range;

use ndarray::{ArrayBase, ArrayRef, Data, Ix2};

use super::Matrix;

/// Every 2-D ndarray whose storage can be read: `Array2`, `ArrayView2`, `ArcArray2`, `CowArray`.
/// Rows of a C-contiguous array are handed out without copying, and so are the columns of a
/// Fortran-order array (which the label-wise averages read in place); other layouts (strided
/// views) are gathered a block of rows at a time, column by column when columns are the
/// contiguous axis.
///
/// # Example
/// ```
/// use ndarray::{array, s};
/// use rankmetrics::{sklearn, Matrix};
/// let y_true = array![[1, 0, 0], [0, 0, 1]];
/// let y_score = array![[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]];
/// assert_eq!(Matrix::row(&y_score, 1), Some(&[1.0, 0.2, 0.1][..]));
/// assert_eq!(sklearn::coverage_error(&y_true, &y_score, None).unwrap(), 2.5);
/// // A transposed (Fortran-order) view of a transposed array is read without a copy of the whole.
/// let scores_t = y_score.t().to_owned();
/// assert_eq!(sklearn::coverage_error(&y_true, &scores_t.t(), None).unwrap(), 2.5);
/// // Strided views too.
/// let every_other = y_score.slice(s![.., ..;2]);
/// assert_eq!((Matrix::nrows(&every_other), Matrix::ncols(&every_other)), (2, 2));
/// let v = sklearn::label_ranking_loss(&y_true.slice(s![.., ..;2]), &every_other, None).unwrap();
/// assert_eq!(v, 1.0); // both rows rank their relevant label last
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "ndarray")))]
impl<T, S> Matrix for ArrayBase<S, Ix2>
where
    T: Copy,
    S: Data<Elem = T>,
{
    type Elem = T;

    fn nrows(&self) -> usize {
        self.dim().0
    }

    fn ncols(&self) -> usize {
        self.dim().1
    }

    fn row(&self, i: usize) -> Option<&[T]> {
        let ncols = self.dim().1;
        self.as_slice()?.get(i * ncols..(i + 1) * ncols)
    }

    fn column(&self, j: usize) -> Option<&[T]> {
        // A view of any column stride; a slice only where the column's elements are adjacent
        // (column-major, Fortran-order arrays).
        let array: &ArrayRef<T, Ix2> = self;
        (j < self.dim().1)
            .then(|| array.column(j).to_slice())
            .flatten()
    }

    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        let (nrows, ncols) = self.dim();
        if rows.end > nrows || rows.is_empty() || ncols == 0 {
            return;
        }
        if let Some(block) = self
            .as_slice()
            .and_then(|data| data.get(rows.start * ncols..rows.end * ncols))
        {
            // C order: the rows are one block (a numpy array through the Python package).
            out.extend_from_slice(block);
            return;
        }
        let column_major = self.strides()[0] == 1 && ncols > 1;
        if !column_major {
            // ndarray 0.17 keeps its methods on the deref target, `ArrayRef`.
            let array: &ArrayRef<T, Ix2> = self;
            for i in rows {
                out.extend(array.row(i).iter().copied());
            }
            return;
        }
        let base = out.len();
        out.resize(base + rows.len() * ncols, self[[rows.start, 0]]);
        for (j, column) in self.columns().into_iter().enumerate() {
            for (k, i) in rows.clone().enumerate() {
                out[base + k * ncols + j] = column[i];
            }
        }
    }
}
