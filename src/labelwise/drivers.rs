//! The drivers behind the entry points: validate the inputs, read the cells once, then value
//! every vector each lane's averaging asks for, serially or on the threads of a rayon pool.

use super::cells::{changed_shape, check_rows, first_suspect_row, read_cells, Cells, Layouts};
use super::columns::{
    column_values, column_weight, columns_in_place, lends_columns, lent_whole,
    positive_weight_total, read_block, InPlace, BLOCK_COLUMNS,
};
use super::lanes::{add_values, fail, results, wants, VectorLane, VectorRankings};
use super::means::Means;
use super::micro::{check_pool_size, finish_pieces, micro_in_pieces, pooled_values};
use super::samples::SampleRows;
use super::vector_metric::VectorMetric;
use super::{geometric_mean_policy, items_weighted, Average};
use crate::error::{Error, LabelDomain};
use crate::kernel::Ranker;
use crate::matrix::{LabelMatrix, Matrix, ScoreMatrix};
use crate::score::{Label, Score};
use crate::sum::with_headroom;
use crate::ties::{TieGrouping, TiePolicy};
use crate::validate::{check_indicator_if_asked, check_scores, check_shapes, check_weights};
use core::ops::Range;

/// The inputs a runner of the vectors reads: the cells, the matrices, the weights, (n, L).
pub(super) type LaneRunner<'a, M, T, Y, S> = fn(
    &mut [VectorLane<'a, M>],
    &Cells<T, <Y as Matrix>::Elem>,
    (&Y, &S),
    Option<&[f64]>,
    (usize, usize),
);

/// How the inputs of the validated shape (n, L) are validated where no copy of the cells is
/// made (columns, pieces and rows read straight from the input): [`check_all_rows`], or
/// [`check_all_rows_parallel`] on a pool.
pub(super) type Check<Y, S> = fn((&Y, &S), LabelDomain, (usize, usize)) -> Result<(), Error>;

/// Validates every row of the validated `shape`, in order, on the calling thread.
pub(super) fn check_all_rows<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    (y_true, y_score): (&Y, &S), domain: LabelDomain, shape: (usize, usize),
) -> Result<(), Error> {
    let rows = rows_to_read((y_true, y_score), shape, |n, columns| {
        first_suspect_row((y_true, y_score), domain, n, columns)
    })?;
    check_rows((y_true, y_score), domain, rows)
}

/// The rows of the validated `shape` the rows' check reads: from the first row the columns
/// find suspect (`first_suspect(n, 0..L)`) when both matrices lend every column whole, so that
/// only a bad row, or a matrix whose rows differ from its columns, has its rows read; else all
/// of them. A shape changed since the validation, before or while the columns are read, is
/// refused, as the rows' reading refuses it.
fn rows_to_read<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    (y_true, y_score): (&Y, &S), shape: (usize, usize),
    first_suspect: impl FnOnce(usize, Range<usize>) -> usize,
) -> Result<Range<usize>, Error> {
    let unchanged = || changed_shape(y_true, y_score, shape).map_or(Ok(()), Err);
    if !lends_columns(y_true, y_score, shape) {
        return Ok(0..shape.0);
    }
    unchanged()?;
    let first = first_suspect(shape.0, 0..shape.1);
    unchanged()?;
    Ok(first.min(shape.0)..shape.0)
}

/// [`check_all_rows`] in chunks of rows on the current rayon pool (and the columns' check
/// column by column): the first bad row in row order gives the error, as on one thread.
#[cfg(feature = "rayon")]
pub(super) fn check_all_rows_parallel<T, Y, S>(
    (y_true, y_score): (&Y, &S), domain: LabelDomain, shape: (usize, usize),
) -> Result<(), Error>
where
    T: Score,
    Y: LabelMatrix + Sync + ?Sized,
    S: ScoreMatrix<T> + Sync + ?Sized,
{
    use rayon::prelude::*;
    let rows = rows_to_read((y_true, y_score), shape, |n, columns| {
        let suspect = |j| first_suspect_row((y_true, y_score), domain, n, j..j + 1);
        columns.into_par_iter().map(suspect).min().unwrap_or(n)
    })?;
    let check = |_: &mut (), rows| check_rows((y_true, y_score), domain, rows);
    crate::row::parallel::in_chunks_in_order(rows, || (), check, |checked| checked)
}

/// Validates, reads the cells once and lets `run` value the vectors; the lanes' results.
/// `check` validates the rows where no copy of them is made.
pub(super) fn evaluate_vector_lanes<'m, M, T, Y, S>(
    metrics: &'m [M], y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    run: LaneRunner<'m, M, T, Y, S>, check: Check<Y, S>,
) -> Vec<Result<f64, Error>>
where
    M: VectorMetric,
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    let mut lanes = new_lanes(metrics, y_true.ncols(), sample_weight.is_some());
    let checked = check_shapes(y_true, y_score, 1).and_then(|(n, l)| {
        let weights = sample_weight
            .map(|w| check_weights(w, n).map(|w| (w, with_headroom(w.to_vec()))))
            .transpose()?;
        Ok((n, l, weights))
    });
    let (n, l, weights) = match checked {
        Ok(c) => c,
        Err(e) => {
            return lanes
                .iter()
                .map(|lane| Err(lane.failed.clone().unwrap_or_else(|| e.clone())))
                .collect()
        }
    };
    // scikit-learn's matrix-wide label-type check, as the row-wise metrics make it.
    let running = lanes.iter().filter(|lane| lane.failed.is_none());
    if let Err(e) = check_indicator_if_asked(y_true, running.map(|lane| lane.options.labels)) {
        fail(
            &mut lanes,
            |lane| lane.options.labels == LabelDomain::Indicator,
            e,
        );
    }
    // The cells, read once (in the layouts the averages need); each label domain validates
    // them once.
    let mut cells: Option<Cells<T, Y::Elem>> = None;
    let mut domains: Vec<LabelDomain> = Vec::new();
    let mut layouts = Layouts::default();
    // Columns are read in place from matrices that lend every column, a block at a time from
    // matrices that lend every row, else copied (asked of every column and row, so only when a
    // lane reads columns).
    let mut in_place = None;
    for lane in lanes.iter().filter(|lane| lane.failed.is_none()) {
        if !domains.contains(&lane.options.labels) {
            domains.push(lane.options.labels);
        }
        match lane.average {
            Average::Macro | Average::Weighted => {
                layouts.by_column = in_place
                    .get_or_insert_with(|| columns_in_place(y_true, y_score, (n, l)))
                    .is_none()
            }
            // Read a row at a time from the matrices, not copied.
            Average::Samples => {}
            Average::Micro => layouts.by_row |= !lane.pieces,
        }
    }
    for domain in domains {
        let wanted = if cells.is_some() {
            Layouts::default()
        } else {
            layouts
        };
        let read = match wanted.any() {
            true => read_cells(y_true, y_score, domain, wanted),
            false => check((y_true, y_score), domain, (n, l)).map(|()| Cells::default()),
        };
        match read {
            Ok(c) => {
                // The columns are copied exactly where they are not in place.
                cells.get_or_insert(c).in_place = in_place.flatten();
            }
            Err(e) => fail(&mut lanes, |lane| lane.options.labels == domain, e),
        }
    }
    // scikit-learn's `weighted` rule compares a total with a constant: it reads the weights as
    // given where the values read them scaled.
    let weights = weights.map(|(given, scaled)| {
        if scaled.exponent != 0 && wants(&lanes, Average::Weighted) {
            let weighted = |lane: &VectorLane<'_, M>| lane.average == Average::Weighted;
            let total = match scaled.exact {
                true => Ok(None),
                false => positive_weight_total(y_true, given, (n, l)).map(Some),
            };
            match total {
                Ok(total) => lanes
                    .iter_mut()
                    .filter(|lane| weighted(lane))
                    .for_each(|lane| lane.means.set_weight_scale(scaled.exponent, total)),
                Err(e) => fail(&mut lanes, weighted, e),
            }
        }
        scaled.weights
    });
    if let Some(cells) = cells {
        run(
            &mut lanes,
            &cells,
            (y_true, y_score),
            weights.as_deref(),
            (n, l),
        );
    }
    results(&lanes)
}

/// One lane per metric, with the checks every evaluation makes before reading a cell: the
/// metric's own parameters, the policies it cannot take, the averaging of a single column
/// (`l_in` labels; `weighted`: sample weights are given).
pub(super) fn new_lanes<M: VectorMetric>(
    metrics: &[M], l_in: usize, weighted: bool,
) -> Vec<VectorLane<'_, M>> {
    metrics
        .iter()
        .map(|metric| {
            let o = metric.options();
            let failed = metric
                .check(items_weighted(o.average, weighted))
                .and_then(|()| geometric_mean_policy(&o))
                .err();
            let average = match o.average {
                _ if l_in == 1 && o.one_column_binary => Average::Macro,
                a => a,
            };
            // Pieces are cut between tie groups of equal keys, and random draws would restart
            // in each piece.
            let pieces = average == Average::Micro
                && metric.reads_pieces(weighted)
                && o.ranking.grouping == TieGrouping::Exact
                && !matches!(o.ranking.ties, TiePolicy::Random(_));
            VectorLane {
                metric,
                options: o,
                average,
                means: Means::new(o),
                failed,
                pieces,
            }
        })
        .collect()
}

/// Runs every lane over the vectors its averaging asks for: each vector sorted once per
/// grouping, ranked once per policy; then the pooled ranking in pieces.
pub(super) fn vectors<M, T, Y, S>(
    lanes: &mut [VectorLane<'_, M>], cells: &Cells<T, Y::Elem>, (y_true, y_score): (&Y, &S),
    weights: Option<&[f64]>, (n, l): (usize, usize),
) where
    M: VectorMetric,
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    check_pool_size(lanes, n, l);
    let values = pooled_values(lanes, cells, weights, l, Ranker::new());
    add_values(lanes, &values, |_| 1.0);
    let (mut ranker, mut values) = (Ranker::new(), Vec::new());
    let mut columns = ColumnReader::new(lanes, cells, (y_true, y_score), (n, l));
    // Macro and weighted averages read the same columns: one read and sort serve both.
    let plan = VectorRankings::of_vectors(lanes, &[Average::Macro, Average::Weighted]);
    'columns: for block in columns.blocks(1) {
        columns.read(block.clone());
        for j in block {
            if let Err(e) = columns.check(j) {
                fail(lanes, reads_columns, e);
                break 'columns;
            }
            values.clear();
            let positive_weight = column_values(
                lanes,
                &plan,
                columns.column(j),
                weights,
                j,
                &mut ranker,
                &mut values,
            );
            add_values(lanes, &values, column_weight(positive_weight));
        }
    }
    if wants(lanes, Average::Samples) {
        let plan = VectorRankings::of_vectors(lanes, &[Average::Samples]);
        let mut rows = SampleRows::new(y_true, y_score, (n, l));
        for i in 0..n {
            values.clear();
            if let Err(e) = rows.values(lanes, &plan, i, &mut ranker, &mut values) {
                fail(lanes, |lane| lane.average == Average::Samples, e);
                break;
            }
            let weight = weights.map_or(1.0, |w| w[i]);
            add_values(lanes, &values, |_| weight);
        }
    }
    if lanes
        .iter()
        .any(|lane| lane.pieces && lane.failed.is_none())
    {
        let sums = micro_in_pieces(lanes, y_true, y_score, weights, (n, l));
        finish_pieces(lanes, sums);
    }
}

/// [`vectors`] on the threads of the current rayon pool: the pooled vector, the pieces and the
/// columns are valued at once, then the rows in windows; every value is added in the order
/// [`vectors`] adds it, so each result is bitwise the same.
#[cfg(feature = "rayon")]
pub(super) fn vectors_parallel<M, T, Y, S>(
    lanes: &mut [VectorLane<'_, M>], cells: &Cells<T, Y::Elem>, (y_true, y_score): (&Y, &S),
    weights: Option<&[f64]>, (n, l): (usize, usize),
) where
    M: VectorMetric + Sync,
    T: Score,
    Y: LabelMatrix + Sync + ?Sized,
    Y::Elem: Sync,
    S: ScoreMatrix<T> + Sync + ?Sized,
{
    use rayon::prelude::*;
    check_pool_size(lanes, n, l);
    let shared: &[VectorLane<'_, M>] = lanes;
    let pieces = shared
        .iter()
        .any(|lane| lane.pieces && lane.failed.is_none());
    let ((pooled, sums), columns) = rayon::join(
        || {
            rayon::join(
                || {
                    pooled_values(
                        shared,
                        cells,
                        weights,
                        l,
                        Ranker::new().with_parallel_sort(),
                    )
                },
                || {
                    pieces.then(|| {
                        super::micro::parallel::micro_in_pieces_parallel(
                            shared,
                            y_true,
                            y_score,
                            weights,
                            (n, l),
                        )
                    })
                },
            )
        },
        || {
            let reader = ColumnReader::new(shared, cells, (y_true, y_score), (n, l));
            let plan = VectorRankings::of_vectors(shared, &[Average::Macro, Average::Weighted]);
            // Four blocks a thread at least, so that the threads end together.
            let blocks: Vec<_> = reader.blocks(4 * rayon::current_num_threads()).collect();
            blocks
                .into_par_iter()
                .map_init(
                    || (Ranker::new(), reader.clone()),
                    |(ranker, columns), block| {
                        columns.read(block.clone());
                        let column_values = |j| {
                            columns.check(j)?;
                            let mut values = Vec::new();
                            let column = columns.column(j);
                            let weight = column_values(
                                shared,
                                &plan,
                                column,
                                weights,
                                j,
                                ranker,
                                &mut values,
                            );
                            Ok((weight, values))
                        };
                        block.map(column_values).collect::<Vec<Result<_, Error>>>()
                    },
                )
                .collect::<Vec<_>>()
        },
    );
    add_values(lanes, &pooled, |_| 1.0);
    for column in columns.into_iter().flatten() {
        match column {
            Ok((positive_weight, values)) => {
                add_values(lanes, &values, column_weight(positive_weight))
            }
            Err(e) => {
                fail(lanes, reads_columns, e);
                break;
            }
        }
    }
    if wants(lanes, Average::Samples) {
        let plan = VectorRankings::of_vectors(lanes, &[Average::Samples]);
        let scratch = || (Ranker::new(), SampleRows::new(y_true, y_score, (n, l)));
        'windows: for window in (0..n).step_by(crate::row::parallel::WINDOW_ROWS) {
            let rows = window..n.min(window + crate::row::parallel::WINDOW_ROWS);
            let shared: &[VectorLane<'_, M>] = lanes;
            // Per chunk: its rows' values end to end, where each row's end, and the error
            // that stopped it (a matrix that broke its contract since the validation).
            let chunks =
                crate::row::parallel::in_chunks(rows, scratch, |(ranker, rows_of), rows| {
                    let (mut ends, mut values) = (Vec::new(), Vec::new());
                    for i in rows {
                        if let Err(e) = rows_of.values(shared, &plan, i, ranker, &mut values) {
                            return (ends, values, Some(e));
                        }
                        ends.push(values.len());
                    }
                    (ends, values, None)
                });
            let mut i = window;
            for (ends, values, error) in chunks {
                let mut start = 0;
                for end in ends {
                    let weight = weights.map_or(1.0, |w| w[i]);
                    add_values(lanes, &values[start..end], |_| weight);
                    (start, i) = (end, i + 1);
                }
                if let Some(e) = error {
                    fail(lanes, |lane| lane.average == Average::Samples, e);
                    break 'windows;
                }
            }
        }
    }
    if let Some(sums) = sums {
        finish_pieces(lanes, sums);
    }
}

/// Whether a lane reads the columns (the macro and weighted averages).
fn reads_columns<M>(lane: &VectorLane<'_, M>) -> bool {
    matches!(lane.average, Average::Macro | Average::Weighted)
}

/// The columns the macro and weighted lanes read: from the copy of the cells, in place from
/// matrices that lend their columns, or a block at a time from the matrices' rows (each reader,
/// one per thread, holds one block or one column's label values: O(n) memory).
struct ColumnReader<'a, T, Y: Matrix + ?Sized, S: ?Sized> {
    /// Where the columns are read; `None` when no running lane reads them.
    source: Option<Source<'a, T, Y::Elem>>,
    /// The lent scores of the column read last, asked of the matrix once; `None` where it no
    /// longer lends them whole (breaking its contract): `scores` holds n zeros then.
    lent_scores: Option<&'a [T]>,
    matrices: (&'a Y, &'a S),
    /// The block read last (or the column converted last from the copy).
    block: core::ops::Range<usize>,
    scores: Vec<T>,
    labels: Vec<f64>,
    shape: (usize, usize),
}

/// Where a [`ColumnReader`] reads the columns.
enum Source<'a, T, L> {
    /// The copy of the cells, column after column.
    Copied(&'a (Vec<T>, Vec<L>)),
    /// In place, lent by both matrices (checked once, [`InPlace::Columns`]).
    Lent,
    /// A block at a time from the rows both matrices lend ([`InPlace::RowBlocks`]).
    RowBlocks,
}

impl<T, L> Clone for Source<'_, T, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, L> Copy for Source<'_, T, L> {}

impl<T: Clone, Y: Matrix + ?Sized, S: ?Sized> Clone for ColumnReader<'_, T, Y, S> {
    fn clone(&self) -> Self {
        ColumnReader {
            source: self.source,
            lent_scores: self.lent_scores,
            matrices: self.matrices,
            block: self.block.clone(),
            scores: self.scores.clone(),
            labels: self.labels.clone(),
            shape: self.shape,
        }
    }
}

impl<'a, T, Y, S> ColumnReader<'a, T, Y, S>
where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    /// The reader of the columns, none when no running lane of `lanes` reads them.
    fn new<M>(
        lanes: &[VectorLane<'_, M>], cells: &'a Cells<T, Y::Elem>, matrices: (&'a Y, &'a S),
        shape: (usize, usize),
    ) -> Self {
        // `evaluate_vector_lanes` asked for the copy unless it found the columns in place.
        let source = match (&cells.by_column, cells.in_place) {
            (Some(copied), _) => Some(Source::Copied(copied)),
            (None, Some(InPlace::Columns)) => Some(Source::Lent),
            (None, Some(InPlace::RowBlocks)) => Some(Source::RowBlocks),
            (None, None) => None,
        };
        let wanted = wants(lanes, Average::Macro) || wants(lanes, Average::Weighted);
        debug_assert!(!wanted || source.is_some());
        ColumnReader {
            source: source.filter(|_| wanted),
            lent_scores: None,
            matrices,
            block: 0..0,
            scores: Vec::new(),
            labels: Vec::new(),
            shape,
        }
    }

    /// The blocks of columns to read, in order, none when no lane reads columns: blocks of
    /// [`BLOCK_COLUMNS`] from the matrices' rows (narrower when there would be fewer than
    /// `parts`), or one column at a time from the copy or in place.
    fn blocks(&self, parts: usize) -> impl Iterator<Item = core::ops::Range<usize>> {
        let (_, l) = self.shape;
        let (width, l) = match self.source {
            None => (1, 0),
            Some(Source::Copied(_) | Source::Lent) => (1, l),
            Some(Source::RowBlocks) => (BLOCK_COLUMNS.min(l.div_ceil(parts.max(1))).max(1), l),
        };
        (0..l).step_by(width).map(move |j| j..l.min(j + width))
    }

    /// Reads the columns `block` (from the matrices' rows), or prepares the one column (from
    /// the copy, or lent in place: its label values).
    fn read(&mut self, block: core::ops::Range<usize>) {
        let (n, _) = self.shape;
        match self.source {
            // Never asked: no lane reads columns.
            None => {}
            Some(Source::Lent) => {
                // One column a block ([`Self::blocks`]).
                let (y_true, y_score) = self.matrices;
                let j = block.start;
                // Lengths were checked; a matrix that changes them since (breaking its
                // contract) gets meaningless values, never a panic.
                let labels = y_true.column(j).unwrap_or(&[]);
                self.labels.clear();
                self.labels.extend(labels.iter().map(|y| y.value()));
                self.labels.resize(n, 0.0);
                self.lent_scores = lent_whole(y_score.column(j), n);
                if self.lent_scores.is_none() {
                    self.scores.clear();
                    self.scores.resize(n, T::zero());
                }
            }
            Some(Source::RowBlocks) => read_block(
                self.matrices,
                block.clone(),
                n,
                (&mut self.scores, &mut self.labels),
            ),
            Some(Source::Copied((_, labels))) => {
                self.labels.clear();
                for j in block.clone() {
                    self.labels
                        .extend(labels[j * n..][..n].iter().map(|y| y.value()));
                }
            }
        }
        self.block = block;
    }

    /// Refuses a NaN or ±inf score in lent column j (of the block read last): the validation
    /// read the rows where another average copies them, and a matrix whose columns differ from
    /// its rows, or change after the validation (breaking its contract), is refused as a score
    /// turned non-finite since the validation is elsewhere. One more pass over a column about
    /// to be ranked: within the runs' spread on 100,000 × 100.
    fn check(&self, j: usize) -> Result<(), Error> {
        if !matches!(self.source, Some(Source::Lent)) {
            return Ok(());
        }
        // The column's error as a row's, with row and column swapped back.
        match check_scores(self.column(j).0, j) {
            Err(Error::NonFiniteScore { row, column, value }) => Err(Error::NonFiniteScore {
                row: column,
                column: row,
                value,
            }),
            checked => checked,
        }
    }

    /// Column j (of the block read last): its scores and label values.
    fn column(&self, j: usize) -> (&[T], &[f64]) {
        let (n, _) = self.shape;
        let c = j - self.block.start;
        let labels = &self.labels[c * n..][..n];
        match self.source {
            Some(Source::Copied((scores, _))) => (&scores[j * n..][..n], labels),
            Some(Source::Lent) => (
                self.lent_scores.unwrap_or_else(|| &self.scores[..n]),
                labels,
            ),
            Some(Source::RowBlocks) | None => (&self.scores[c * n..][..n], labels),
        }
    }
}
