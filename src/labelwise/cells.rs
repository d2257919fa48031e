//! The cells of both matrices, read and validated once and copied in the layouts the
//! averages read: by column (label-wise) and by row (the pool ranked whole).

use super::columns::{lent_whole, InPlace};
use core::ops::Range;

use crate::error::{Error, Input, LabelDomain};
use crate::matrix::{LabelMatrix, RowReader, ScoreMatrix};
use crate::memory;
use crate::score::{Label, Score};
use crate::validate::{first_bad_row, read_checked_row};

/// The error for an input whose shape is no longer `validated` (the scores asked first, as a
/// row's reading asks them first), if either's is not.
pub(super) fn changed_shape<Y: LabelMatrix + ?Sized, S: crate::matrix::Matrix + ?Sized>(
    y_true: &Y, y_score: &S, validated: (usize, usize),
) -> Option<Error> {
    [
        (Input::Scores, (y_score.nrows(), y_score.ncols())),
        (Input::Labels, (y_true.nrows(), y_true.ncols())),
    ]
    .into_iter()
    .find(|&(_, found)| found != validated)
    .map(|(matrix, found)| Error::MatrixShapeChanged {
        matrix,
        expected: validated,
        found,
    })
}

/// The relevant cells (non-zero labels) of `rows`, in a pass over their labels: the number of
/// a pooled ranking's relevant items, which the folds of its relevant blocks read before the first
/// piece ([`PieceSums::reads_relevant`](super::micro::fold::PieceSums::reads_relevant)).
pub(super) fn count_relevant<Y: LabelMatrix + ?Sized>(
    y_true: &Y, rows: Range<usize>,
) -> Result<usize, Error> {
    let mut labels = RowReader::new(y_true, Input::Labels);
    let mut relevant = 0;
    for i in rows {
        // Summed as flags, not filtered and counted: a loop the compiler vectorizes.
        let row = labels.row(i)?.iter();
        relevant += row.map(|y| usize::from(y.value() != 0.0)).sum::<usize>();
    }
    Ok(relevant)
}

/// Which copies of the cells the averages read.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Layouts {
    pub(super) by_column: bool,
    pub(super) by_row: bool,
}

impl Layouts {
    /// Whether any copy is asked for.
    pub(super) fn any(self) -> bool {
        self.by_column || self.by_row
    }
}

/// The cells, copied in the layouts asked for: `by_column` holds column j's scores and labels
/// (as given: one byte each for `u8` labels) at `j·n..(j+1)·n`, `by_row` row i's scores and
/// label values at `i·L..(i+1)·L`. `in_place`: where the columns are read instead, when
/// not copied (decided once for the call).
pub(super) struct Cells<T, L> {
    pub(super) by_column: Option<(Vec<T>, Vec<L>)>,
    pub(super) by_row: Option<(Vec<T>, Vec<f64>)>,
    pub(super) in_place: Option<InPlace>,
}

impl<T, L> Default for Cells<T, L> {
    /// No copy: the rows were validated only.
    fn default() -> Self {
        Cells {
            by_column: None,
            by_row: None,
            in_place: None,
        }
    }
}

/// Rows transposed at a time into the column copy: each column then receives a run of
/// consecutive cells rather than one cell per row.
const TRANSPOSE_ROWS: usize = 32;

/// Reads both matrices, validating each row as the row metrics do, into the `layouts` asked
/// for.
pub(super) fn read_cells<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    y_true: &Y, y_score: &S, domain: LabelDomain, layouts: Layouts,
) -> Result<Cells<T, Y::Elem>, Error> {
    let (n, l) = (y_true.nrows(), y_true.ncols());
    let cells = n.saturating_mul(l);
    let mut by_row = match layouts.by_row {
        true => Some((memory::with_room(cells)?, memory::filled(0.0, cells)?)),
        false => None,
    };
    let mut truth = RowReader::new(y_true, Input::Labels);
    let mut reader = RowReader::new(y_score, Input::Scores);
    // Made at the first row, once it is validated (as `check_rows` validates it, so that the
    // first error is the same with or without a copy): any label of it fills the column copy
    // before the rows overwrite it.
    let mut by_column = (layouts.by_column && n == 0).then(|| (Vec::new(), Vec::new()));
    // The rows not yet transposed: TRANSPOSE_ROWS of them at most.
    let (mut pending_scores, mut pending_labels) = (Vec::new(), Vec::new());
    let mut gains = vec![0.0; l];
    for i in 0..n {
        let (s, y) = read_checked_row((&mut truth, &mut reader), domain, (i, i), &mut gains)?;
        if i == 0 && layouts.by_column {
            let labels = match y.first() {
                Some(&y) => memory::filled(y, cells)?,
                None => Vec::new(),
            };
            by_column = Some((memory::filled(T::zero(), cells)?, labels));
        }
        if let Some((scores, labels)) = &mut by_row {
            scores.extend_from_slice(s);
            labels[i * l..(i + 1) * l].copy_from_slice(&gains);
        }
        let Some((scores, labels)) = &mut by_column else {
            continue;
        };
        pending_scores.extend_from_slice(s);
        pending_labels.extend_from_slice(y);
        if (i + 1) % TRANSPOSE_ROWS == 0 || i + 1 == n {
            let first = i + 1 - pending_scores.len() / l.max(1);
            transpose_into(scores, &pending_scores, first, n, l);
            transpose_into(labels, &pending_labels, first, n, l);
            pending_scores.clear();
            pending_labels.clear();
        }
    }
    Ok(Cells {
        by_column,
        by_row,
        in_place: None,
    })
}

/// Validates the rows `rows` of both matrices as [`read_cells`] does, copying nothing: where no
/// average reads a copy (columns, pieces and rows read straight from the input), this is the
/// whole of the reading before them.
pub(super) fn check_rows<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    (y_true, y_score): (&Y, &S), domain: LabelDomain, rows: Range<usize>,
) -> Result<(), Error> {
    let mut truth = RowReader::new(y_true, Input::Labels);
    let mut reader = RowReader::new(y_score, Input::Scores);
    let mut gains = vec![0.0; y_true.ncols()];
    for i in rows {
        read_checked_row((&mut truth, &mut reader), domain, (i, i), &mut gains)?;
    }
    Ok(())
}

/// The first row (of `n`, the count when the check began) that may fail [`check_rows`], found
/// column by column in `columns` of matrices that lend them whole (each column one contiguous
/// read, where a column-major matrix's rows are gathered cell by cell): n when every cell
/// passes, 0 when a column is not lent whole. The rows before it need no reading.
pub(super) fn first_suspect_row<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    (y_true, y_score): (&Y, &S), domain: LabelDomain, n: usize, columns: Range<usize>,
) -> usize {
    let mut first = n;
    for j in columns {
        // Lengths asked again: a column lent whole when the layout was decided may not be now.
        first = match (
            lent_whole(y_true.column(j), n),
            lent_whole(y_score.column(j), n),
        ) {
            (Some(labels), Some(scores)) => match first_bad_row(scores, labels, domain) {
                Some(row) => first.min(row),
                None => first,
            },
            _ => 0,
        };
        if first == 0 {
            break;
        }
    }
    first
}

/// Writes `rows` (row-major, L per row, the rows from `first` on) into the column-major
/// `columns` of n rows.
fn transpose_into<X: Copy>(columns: &mut [X], rows: &[X], first: usize, n: usize, l: usize) {
    for (j, column) in columns.chunks_mut(n.max(1)).enumerate().take(l) {
        let cells = rows.iter().skip(j).step_by(l.max(1));
        for (cell, &x) in column[first..].iter_mut().zip(cells) {
            *cell = x;
        }
    }
}
