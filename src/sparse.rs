//! Sparse labels: per row, the columns of the relevant labels (and optionally their gains), in
//! compressed sparse row (CSR) form.

use core::ops::Range;

use crate::{Error, LabelDomain, Matrix};

/// An n × L label matrix in compressed sparse row (CSR) form, as scipy's `csr_matrix`: row `i`
/// stores the columns `indices[indptr[i]..indptr[i + 1]]` (strictly increasing), with gains
/// `gains[indptr[i]..indptr[i + 1]]`, or 1 when `gains` is `None`; every other label is 0.
///
/// It is a [`Matrix`] of `f64`, so every metric takes it as `y_true` unchanged: rows are
/// written out densely one block at a time as the metric reads them, never the whole n × L
/// matrix. With dense scores and a top-k metric, a row costs O(L + k log k). [`view`](Self::view)
/// (or [`SparseLabelsView::new`]) gives the same over borrowed slices, without copying.
///
/// # Example
/// ```
/// use rankmetrics::{PrecisionAtK, RankingMetric, SparseLabels, TiePolicy};
/// // Row 0: labels 1 and 3 relevant; row 1: label 0.
/// let y = SparseLabels::new(4, vec![0, 2, 3], vec![1, 3, 0], None).unwrap();
/// let dense = [[0, 1, 0, 1], [1, 0, 0, 0]];
/// let s = [[0.1, 0.9, 0.3, 0.2], [0.8, 0.1, 0.2, 0.3]];
/// let p = PrecisionAtK::new(TiePolicy::Max, 2).unwrap();
/// assert_eq!(p.evaluate(&y, &s, None).unwrap(), p.evaluate(&dense, &s, None).unwrap());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SparseLabels {
    n_labels: usize,
    indptr: Vec<usize>,
    indices: Vec<u32>,
    gains: Option<Vec<f64>>,
}

impl SparseLabels {
    /// A CSR matrix of `indptr.len() - 1` rows and `n_labels` columns.
    ///
    /// # Errors
    /// [`Error::InvalidIndptr`] unless `indptr` starts at 0, never decreases and ends at
    /// `indices.len()`; [`Error::SparseGainsLength`] unless `gains` has one entry per index;
    /// then, for the first offending entry in row order, [`Error::SparseColumnOutOfRange`],
    /// [`Error::UnsortedSparseRow`] (unsorted or duplicate columns), or
    /// [`Error::InvalidLabel`] for a gain that is not finite.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Error, SparseLabels};
    /// let err = SparseLabels::new(3, vec![0, 2], vec![2, 1], None).unwrap_err();
    /// assert_eq!(err, Error::UnsortedSparseRow { row: 0, column: 1 });
    /// let err = SparseLabels::new(3, vec![0, 1], vec![3], None).unwrap_err();
    /// assert_eq!(err, Error::SparseColumnOutOfRange { row: 0, column: 3, n_labels: 3 });
    /// ```
    pub fn new(
        n_labels: usize, indptr: Vec<usize>, indices: Vec<u32>, gains: Option<Vec<f64>>,
    ) -> Result<Self, Error> {
        SparseLabelsView::new(n_labels, &indptr, &indices, gains.as_deref())?;
        Ok(SparseLabels {
            n_labels,
            indptr,
            indices,
            gains,
        })
    }

    /// A borrowed view of the same matrix.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Matrix, SparseLabels};
    /// let y = SparseLabels::new(2, vec![0, 1], vec![1], Some(vec![3.0])).unwrap();
    /// let mut row = Vec::new();
    /// y.view().extend_rows(0..1, &mut row);
    /// assert_eq!(row, [0.0, 3.0]);
    /// ```
    pub fn view(&self) -> SparseLabelsView<'_> {
        SparseLabelsView {
            n_labels: self.n_labels,
            indptr: &self.indptr,
            indices: &self.indices,
            gains: self.gains.as_deref(),
        }
    }
}

/// A borrowed [`SparseLabels`]: the same CSR arrays as slices (scipy's `indptr`, `indices`,
/// `data`), checked once, never copied.
///
/// # Example
/// ```
/// use rankmetrics::{Matrix, SparseLabelsView};
/// let (indptr, indices) = ([0, 1, 1], [2u32]);
/// let y = SparseLabelsView::new(3, &indptr, &indices, None).unwrap();
/// assert_eq!((y.nrows(), y.ncols()), (2, 3));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SparseLabelsView<'a> {
    n_labels: usize,
    indptr: &'a [usize],
    indices: &'a [u32],
    gains: Option<&'a [f64]>,
}

impl<'a> SparseLabelsView<'a> {
    /// Views CSR arrays as an n × `n_labels` label matrix.
    ///
    /// # Errors
    /// As [`SparseLabels::new`].
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Error, SparseLabelsView};
    /// let err = SparseLabelsView::new(3, &[0, 2, 1], &[0, 1], None).unwrap_err();
    /// assert_eq!(err, Error::InvalidIndptr { position: 2 });
    /// ```
    pub fn new(
        n_labels: usize, indptr: &'a [usize], indices: &'a [u32], gains: Option<&'a [f64]>,
    ) -> Result<Self, Error> {
        check_indptr(indptr, indices.len())?;
        if let Some(g) = gains.filter(|g| g.len() != indices.len()) {
            return Err(Error::SparseGainsLength {
                expected: indices.len(),
                found: g.len(),
            });
        }
        let view = SparseLabelsView {
            n_labels,
            indptr,
            indices,
            gains,
        };
        for row in 0..view.nrows() {
            let span = view.span(row);
            let mut previous = None;
            for (p, &column) in indices.get(span).unwrap_or(&[]).iter().enumerate() {
                let column = column as usize;
                if column >= n_labels {
                    return Err(Error::SparseColumnOutOfRange {
                        row,
                        column,
                        n_labels,
                    });
                }
                if previous.is_some_and(|c| column <= c) {
                    return Err(Error::UnsortedSparseRow { row, column });
                }
                previous = Some(column);
                let value = view.gain(view.span(row).start + p);
                if !value.is_finite() {
                    return Err(Error::InvalidLabel {
                        row,
                        column,
                        value,
                        expected: LabelDomain::NonZero,
                    });
                }
            }
        }
        Ok(view)
    }

    /// The positions in `indices` of row `row`'s entries.
    fn span(&self, row: usize) -> Range<usize> {
        let at = |i: usize| self.indptr.get(i).copied().unwrap_or(0);
        at(row)..at(row + 1)
    }

    /// The gain of stored entry `p`.
    fn gain(&self, p: usize) -> f64 {
        self.gains.map_or(1.0, |g| g.get(p).copied().unwrap_or(0.0))
    }
}

/// `indptr` starts at 0, never decreases, and ends at `entries`.
fn check_indptr(indptr: &[usize], entries: usize) -> Result<(), Error> {
    if indptr.first() != Some(&0) {
        return Err(Error::InvalidIndptr { position: 0 });
    }
    if let Some(p) = indptr.windows(2).position(|w| w[1] < w[0]) {
        return Err(Error::InvalidIndptr { position: p + 1 });
    }
    if indptr.last() != Some(&entries) {
        return Err(Error::InvalidIndptr {
            position: indptr.len() - 1,
        });
    }
    Ok(())
}

impl Matrix for SparseLabelsView<'_> {
    type Elem = f64;
    fn nrows(&self) -> usize {
        self.indptr.len().saturating_sub(1)
    }
    fn ncols(&self) -> usize {
        self.n_labels
    }
    /// Writes each row densely: zeros, then the stored gains.
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<f64>) {
        for row in rows.start..rows.end.min(self.nrows()) {
            let start = out.len();
            out.resize(start + self.n_labels, 0.0);
            let dense = &mut out[start..];
            let span = self.span(row);
            for (p, &column) in span.clone().zip(self.indices.get(span).unwrap_or(&[])) {
                if let Some(cell) = dense.get_mut(column as usize) {
                    *cell = self.gain(p);
                }
            }
        }
    }
}

impl Matrix for SparseLabels {
    type Elem = f64;
    fn nrows(&self) -> usize {
        self.view().nrows()
    }
    fn ncols(&self) -> usize {
        self.n_labels
    }
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<f64>) {
        self.view().extend_rows(rows, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_arrays_are_reported_where_they_break() {
        let e = |indptr: &[usize], indices: &[u32], gains: Option<&[f64]>| {
            SparseLabelsView::new(4, indptr, indices, gains).unwrap_err()
        };
        assert_eq!(e(&[], &[], None), Error::InvalidIndptr { position: 0 });
        assert_eq!(e(&[1, 1], &[0], None), Error::InvalidIndptr { position: 0 });
        assert_eq!(
            e(&[0, 1], &[0, 1], None),
            Error::InvalidIndptr { position: 1 }
        );
        assert_eq!(
            e(&[0, 1], &[0], Some(&[])),
            Error::SparseGainsLength {
                expected: 1,
                found: 0
            }
        );
        assert_eq!(
            e(&[0, 1, 3], &[0, 2, 2], None),
            Error::UnsortedSparseRow { row: 1, column: 2 }
        );
        assert!(matches!(
            e(&[0, 1, 2], &[0, 3], Some(&[1.0, f64::NAN])),
            Error::InvalidLabel {
                row: 1,
                column: 3,
                ..
            }
        ));
    }
}
