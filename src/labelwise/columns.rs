//! The label-wise vectors (macro and weighted averages): each column, with the sample weights,
//! read from a copy of every cell or, where both matrices hand out their rows in place, a block
//! of columns at a time straight from the input.

use core::ops::Range;

use super::lanes::{vector_values, wants, Values, VectorLane, VectorRankings};
use super::vector::{Vector, Weights};
use super::vector_metric::VectorMetric;
use super::Average;
use crate::error::{Error, Input};
use crate::kernel::Ranker;
use crate::matrix::{LabelMatrix, RowReader, ScoreMatrix};
use crate::score::{Label, Score};
use crate::sum::ExactSum;

/// Column j's values for the lanes of `plan` (macro and weighted averages) and its positive
/// weight (the weighted average's weight of the column; 0 when no lane averages by weight,
/// which never reads it).
pub(super) fn column_values<M: VectorMetric, T: Score>(
    lanes: &[VectorLane<'_, M>], plan: &VectorRankings, (scores, labels): (&[T], &[f64]),
    weights: Option<&[f64]>, j: usize, ranker: &mut Ranker, out: &mut Values,
) -> f64 {
    let weights_of_rows = weights.map_or(Weights::Unit, Weights::Each);
    let v = Vector {
        scores,
        labels,
        weights: weights_of_rows,
    };
    vector_values(lanes, plan, &v, j, ranker, out);
    match wants(lanes, Average::Weighted) {
        true => (0..labels.len())
            .map(|i| weights_of_rows.of(i) * labels[i])
            .sum(),
        false => 0.0,
    }
}

/// The weighted average's total, Σⱼ Σᵢ wᵢyᵢⱼ over the `n` rows and `l` columns, each
/// column's weight summed in row order as [`column_values`] sums it: read row by row, for
/// weights that [`column_values`] reads scaled.
pub(super) fn positive_weight_total<Y: LabelMatrix + ?Sized>(
    y_true: &Y, weights: &[f64], (n, l): (usize, usize),
) -> Result<f64, Error> {
    let mut columns = vec![0.0; l];
    let mut labels = RowReader::new(y_true, Input::Labels);
    for (i, &w) in weights.iter().enumerate().take(n) {
        for (c, y) in columns.iter_mut().zip(labels.row(i)?) {
            *c += w * y.value();
        }
    }
    let mut total = ExactSum::default();
    columns.iter().for_each(|&c| total.add(c));
    Ok(total.value())
}

/// The weight of a column's value under `average`.
pub(super) fn column_weight(positive_weight: f64) -> impl Fn(Average) -> f64 {
    move |a| match a {
        Average::Weighted => positive_weight,
        _ => 1.0,
    }
}

/// Columns read at once from matrices that hand out their rows in place: one cache line of
/// `f64` scores per row.
pub(super) const BLOCK_COLUMNS: usize = 8;

/// Rows transposed at a time by [`read_block`].
const TILE_ROWS: usize = 32;

/// Whether both matrices hand out every row in place, so that the columns can be read a block
/// at a time from them (no copy of the n·L cells). Every row is asked: the `Matrix` contract
/// lets a matrix lend some rows and not others (chunked storage), and a row it does not lend
/// must be copied, not skipped.
pub(super) fn reads_in_blocks<T, Y, S>(y_true: &Y, y_score: &S) -> bool
where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    (0..y_true.nrows().min(y_score.nrows()))
        .all(|i| y_true.row(i).is_some() && y_score.row(i).is_some())
}

/// Whether both matrices lend each of the `l` columns in place, of exactly the `n` validated
/// rows (column-major storage): the columns are then read where they lie, one at a time.
/// Every column is asked, and one not lent or of another length leaves the columns to be read
/// from the rows.
pub(super) fn lends_columns<T, Y, S>(y_true: &Y, y_score: &S, (n, l): (usize, usize)) -> bool
where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    (0..l).all(|j| {
        lent_whole(y_true.column(j), n).is_some() && lent_whole(y_score.column(j), n).is_some()
    })
}

/// A lent column (`Matrix::column`), if it holds exactly the `n` validated rows: one of another
/// length (a matrix breaking its contract) is not read in place.
pub(super) fn lent_whole<X>(column: Option<&[X]>, n: usize) -> Option<&[X]> {
    column.filter(|c| c.len() == n)
}

/// Where the macro and weighted averages read the columns without a copy of the n·L cells,
/// decided once for a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum InPlace {
    /// Lent by both matrices ([`lends_columns`]).
    Columns,
    /// A block at a time from the rows both matrices lend ([`reads_in_blocks`]).
    RowBlocks,
}

/// Where the columns of `shape` (validated) can be read without a copy, if anywhere.
pub(super) fn columns_in_place<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    y_true: &Y, y_score: &S, shape: (usize, usize),
) -> Option<InPlace> {
    match lends_columns(y_true, y_score, shape) {
        true => Some(InPlace::Columns),
        false => reads_in_blocks(y_true, y_score).then_some(InPlace::RowBlocks),
    }
}

/// The columns `block` of both matrices (validated already), column after column: `scores`
/// and `labels` (label values) hold column `block.start + c` at `c·n..(c+1)·n`.
pub(super) fn read_block<T, Y, S>(
    (y_true, y_score): (&Y, &S), block: Range<usize>, n: usize,
    (scores, labels): (&mut Vec<T>, &mut Vec<f64>),
) where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    // Every cell is written below (the rows were validated), so the buffers are only resized.
    scores.resize(block.len() * n, T::zero());
    labels.resize(block.len() * n, 0.0);
    // Each row of a tile is asked for once, not once per column: a matrix's `row` may check
    // its layout on every call (ndarray's views do).
    let (mut score_rows, mut label_rows): ([&[T]; TILE_ROWS], [&[Y::Elem]; TILE_ROWS]) =
        ([&[]; TILE_ROWS], [&[]; TILE_ROWS]);
    // A few rows at a time, column by column: each column then receives a run of consecutive
    // cells (one cell per row and column in turn would touch a page per column for every row).
    for rows in (0..n).step_by(TILE_ROWS).map(|i| i..n.min(i + TILE_ROWS)) {
        for ((score_row, label_row), i) in
            score_rows.iter_mut().zip(&mut label_rows).zip(rows.clone())
        {
            (*score_row, *label_row) =
                (y_score.row(i).unwrap_or(&[]), y_true.row(i).unwrap_or(&[]));
        }
        for (c, j) in block.clone().enumerate() {
            let (scores, labels) = (
                &mut scores[c * n..][rows.clone()],
                &mut labels[c * n..][rows.clone()],
            );
            let cells = scores.iter_mut().zip(labels.iter_mut());
            for ((score, label), (score_row, label_row)) in
                cells.zip(score_rows.iter().zip(&label_rows))
            {
                // A matrix that breaks its contract (a row of another length) leaves the cell
                // as it was: a meaningless value, never a panic.
                if let (Some(&s), Some(&y)) = (score_row.get(j), label_row.get(j)) {
                    (*score, *label) = (s, y.value());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::kernel::{set_kernel_path, KernelPath};
    use crate::labelwise::pairs::tests::draws;
    use crate::matrix::{Matrix, RowMajor};
    use crate::metric::RankingMetric;
    use crate::metrics::label_average_precision::LabelAveragePrecision;
    use crate::metrics::roc_auc::RocAuc;
    use crate::metrics::InterpolatedAveragePrecision;
    use crate::ties::TiePolicy;
    use crate::{Average, LabelDomain};

    /// A row-major matrix that hands out no row in place: its columns are read from the copy.
    struct Copied<'a, T>(RowMajor<'a, T>);

    impl<T: Copy> Matrix for Copied<'_, T> {
        type Elem = T;
        fn nrows(&self) -> usize {
            self.0.nrows()
        }
        fn ncols(&self) -> usize {
            self.0.ncols()
        }
        fn extend_rows(&self, rows: core::ops::Range<usize>, out: &mut Vec<T>) {
            self.0.extend_rows(rows, out)
        }
    }

    /// A row-major matrix that lends its even rows in place and not its odd ones (as chunked
    /// storage may): the contract allows it, and every row must still be read.
    struct EvenRowsLent<'a, T>(RowMajor<'a, T>);

    impl<T: Copy> Matrix for EvenRowsLent<'_, T> {
        type Elem = T;
        fn nrows(&self) -> usize {
            self.0.nrows()
        }
        fn ncols(&self) -> usize {
            self.0.ncols()
        }
        fn row(&self, i: usize) -> Option<&[T]> {
            (i % 2 == 0).then(|| self.0.row(i)).flatten()
        }
        fn extend_rows(&self, rows: core::ops::Range<usize>, out: &mut Vec<T>) {
            self.0.extend_rows(rows, out)
        }
    }

    /// A column-major matrix that lends its columns and no row; with `short`, column `short`
    /// is lent one element short (a broken contract: the columns are then read from the rows).
    struct ByColumn<'a, T> {
        data: &'a [T],
        shape: (usize, usize),
        short: Option<usize>,
    }

    impl<'a, T: Copy> ByColumn<'a, T> {
        /// The column-major copy of a row-major matrix.
        fn of(m: &RowMajor<'_, T>, data: &'a mut Vec<T>, short: Option<usize>) -> Self {
            let (n, l) = (m.nrows(), m.ncols());
            data.clear();
            data.extend(
                (0..l)
                    .flat_map(|j| (0..n).map(move |i| (i, j)))
                    .map(|(i, j)| m.row(i).expect("row-major")[j]),
            );
            ByColumn {
                data,
                shape: (n, l),
                short,
            }
        }
    }

    impl<T: Copy> Matrix for ByColumn<'_, T> {
        type Elem = T;
        fn nrows(&self) -> usize {
            self.shape.0
        }
        fn ncols(&self) -> usize {
            self.shape.1
        }
        fn column(&self, j: usize) -> Option<&[T]> {
            let n = self.shape.0;
            let len = n - usize::from(self.short == Some(j));
            self.data.get(j * n..j * n + len)
        }
        fn extend_rows(&self, rows: core::ops::Range<usize>, out: &mut Vec<T>) {
            let (n, l) = self.shape;
            for i in rows {
                out.extend((0..l).map(|j| self.data[j * n + i]));
            }
        }
    }

    /// Lends its columns for its first `lends` calls of `column`, then none (breaking its
    /// contract); with `gap`, never lends that column.
    struct StopsLending<'a> {
        columns: &'a ByColumn<'a, f64>,
        lends: core::sync::atomic::AtomicUsize,
        gap: Option<usize>,
    }

    impl Matrix for StopsLending<'_> {
        type Elem = f64;
        fn nrows(&self) -> usize {
            self.columns.nrows()
        }
        fn ncols(&self) -> usize {
            self.columns.ncols()
        }
        fn column(&self, j: usize) -> Option<&[f64]> {
            use core::sync::atomic::Ordering;
            let left = self.lends.load(Ordering::Relaxed);
            self.lends.store(left.saturating_sub(1), Ordering::Relaxed);
            (left > 0 && self.gap != Some(j))
                .then(|| self.columns.column(j))
                .flatten()
        }
        fn extend_rows(&self, rows: core::ops::Range<usize>, out: &mut Vec<f64>) {
            self.columns.extend_rows(rows, out)
        }
    }

    #[test]
    fn a_matrix_that_stops_lending_its_columns_never_panics() {
        // Scores lent for the check of every column and then some reads only: each later
        // read finds no column (a meaningless value, never a panic); a column never lent
        // leaves every column to the copy, bitwise its values.
        let (n, l) = (40, 4);
        let mut draw = draws(0x5709);
        let y: Vec<f64> = (0..n * l).map(|_| (draw(3) == 0) as u8 as f64).collect();
        let s: Vec<f64> = (0..n * l).map(|_| draw(9) as f64 / 8.0).collect();
        let (yy, ss) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        let (mut y_columns, mut s_columns) = (Vec::new(), Vec::new());
        let by = ByColumn::of(&yy, &mut y_columns, None);
        let bs = ByColumn::of(&ss, &mut s_columns, None);
        let scores = |lends: usize, gap| StopsLending {
            columns: &bs,
            lends: lends.into(),
            gap,
        };
        for average in [Average::Macro, Average::Weighted] {
            let auc = RocAuc::new(average, TiePolicy::Average);
            let ap = LabelAveragePrecision::new(average, TiePolicy::Max);
            let copied = (
                auc.evaluate(&yy, &ss, None).unwrap().to_bits(),
                ap.evaluate(&yy, &ss, None).unwrap().to_bits(),
            );
            for lends in l..3 * l {
                let _ = auc.evaluate(&by, &scores(lends, None), None);
                let _ = ap.evaluate(&by, &scores(lends, None), None);
                #[cfg(feature = "rayon")]
                let _ = crate::labelwise::pairs::tests::on_threads(2, || {
                    crate::labelwise::evaluate_many_parallel(
                        &[auc],
                        &by,
                        &scores(lends, None),
                        None,
                    )
                });
            }
            let gap = (
                auc.evaluate(&by, &scores(usize::MAX, Some(2)), None)
                    .unwrap()
                    .to_bits(),
                ap.evaluate(&by, &scores(usize::MAX, Some(2)), None)
                    .unwrap()
                    .to_bits(),
            );
            assert_eq!(gap, copied, "{average:?}");
        }
    }

    #[test]
    fn a_matrix_that_lends_some_rows_only_gives_the_values_of_its_copy() {
        let (n, l) = (2100, 10);
        let mut draw = draws(0x0DD);
        let y: Vec<f64> = (0..n * l).map(|_| (draw(3) == 0) as u8 as f64).collect();
        let s: Vec<f64> = (0..n * l).map(|_| draw(40) as f64 / 9.0).collect();
        let (yy, ss) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        let (ey, es) = (EvenRowsLent(yy), EvenRowsLent(ss));
        for average in [Average::Macro, Average::Weighted, Average::Micro] {
            let auc = RocAuc::new(average, TiePolicy::Average);
            let ap = LabelAveragePrecision::new(average, TiePolicy::Max);
            let whole = (auc.evaluate(&yy, &ss, None), ap.evaluate(&yy, &ss, None));
            let some_lent = (auc.evaluate(&ey, &es, None), ap.evaluate(&ey, &es, None));
            assert_eq!(
                (whole.0.unwrap().to_bits(), whole.1.unwrap().to_bits()),
                (
                    some_lent.0.unwrap().to_bits(),
                    some_lent.1.unwrap().to_bits()
                ),
                "{average:?}"
            );
        }
    }

    #[test]
    fn metrics_that_count_share_the_sort_of_one_that_sorts_bitwise() {
        // Long columns: pROC's automatic direction sorts them, the fixed direction would count
        // them in one pass; together, every lane equals its own evaluation.
        let (n, l) = (2000, 3);
        let mut draw = draws(0x5047);
        let y: Vec<f64> = (0..n * l).map(|_| (draw(3) == 0) as u8 as f64).collect();
        let s: Vec<f64> = (0..n * l).map(|_| draw(50) as f64 / 7.0).collect();
        let (yy, ss) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        let lanes = [
            RocAuc::new(Average::Macro, TiePolicy::Average),
            RocAuc::new(Average::Macro, TiePolicy::Average).with_direction(crate::Direction::Auto),
            RocAuc::new(Average::Macro, TiePolicy::First),
            RocAuc::new(Average::Macro, TiePolicy::Expected),
        ];
        let together = crate::labelwise::evaluate_many(&lanes, &yy, &ss, None);
        for (lane, value) in lanes.iter().zip(together) {
            let alone = lane.evaluate(&yy, &ss, None).unwrap();
            assert_eq!(value.unwrap().to_bits(), alone.to_bits(), "{lane:?}");
        }
    }

    #[test]
    fn columns_read_in_blocks_lent_and_counted_in_one_pass_equal_the_sorted_copy_bitwise() {
        // Long columns (the one-pass count), dense relevance, graded and negative labels,
        // ties and edge scores, more columns than a block, weights with zeros; the columns
        // read in blocks from rows, lent in place (on one thread and two), and copied.
        let (n, l) = (1500, 11);
        let mut draw = draws(0xB10C);
        let y: Vec<f64> = (0..n * l)
            .map(|_| [0.0, 1.0, 0.0, 2.0, -1.0, 0.0][draw(6) as usize])
            .collect();
        let edges = [0.0, -0.0, 5e-324, -5e-324, f64::MAX, f64::MIN];
        let s: Vec<f64> = (0..n * l)
            .map(|k| match (k % l, draw(8)) {
                (_, 0) => edges[draw(6) as usize],
                (0..=3, _) => draw(7) as f64 / 4.0,
                _ => draw(1 << 50) as f64 / (1u64 << 50) as f64,
            })
            .collect();
        let w: Vec<f64> = (0..n).map(|_| draw(4) as f64 / 2.0).collect();
        let (yy, ss) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        let (cy, cs) = (Copied(yy), Copied(ss));
        // Column-major copies lending their columns, and a pair whose scores lend column 3
        // one element short (read from the rows then).
        let (mut y_columns, mut s_columns, mut s_short) = (Vec::new(), Vec::new(), Vec::new());
        let (by, bs) = (
            ByColumn::of(&yy, &mut y_columns, None),
            ByColumn::of(&ss, &mut s_columns, None),
        );
        let short = ByColumn::of(&ss, &mut s_short, Some(3));
        assert!(super::lends_columns(&by, &bs, (n, l)));
        assert!(!super::lends_columns(&by, &short, (n, l)));
        let policies = TiePolicy::R_METHODS.into_iter().chain(TiePolicy::ANALYSIS);
        for ties in policies {
            let averages = [
                Average::Macro,
                Average::Weighted,
                Average::Micro,
                Average::Samples,
            ];
            for average in averages {
                let auc = RocAuc::new(average, ties).with_label_domain(LabelDomain::NonZero);
                let ap = LabelAveragePrecision::new(average, ties)
                    .with_label_domain(LabelDomain::NonZero);
                // Under `Expected` an error on every path, compared too.
                let iap = InterpolatedAveragePrecision::new(average, ties, 11)
                    .with_label_domain(LabelDomain::NonZero);
                for weights in [None, Some(&w[..])] {
                    let bits = |v: Result<f64, crate::Error>| v.map(f64::to_bits);
                    set_kernel_path(KernelPath::Full);
                    let sorted = (
                        bits(auc.evaluate(&cy, &cs, weights)),
                        bits(ap.evaluate(&cy, &cs, weights)),
                        bits(iap.evaluate(&cy, &cs, weights)),
                    );
                    set_kernel_path(KernelPath::Auto);
                    let counted = (
                        bits(auc.evaluate(&yy, &ss, weights)),
                        bits(ap.evaluate(&yy, &ss, weights)),
                        bits(iap.evaluate(&yy, &ss, weights)),
                    );
                    let copied = (
                        bits(auc.evaluate(&cy, &cs, weights)),
                        bits(ap.evaluate(&cy, &cs, weights)),
                        bits(iap.evaluate(&cy, &cs, weights)),
                    );
                    let lent = (
                        bits(auc.evaluate(&by, &bs, weights)),
                        bits(ap.evaluate(&by, &bs, weights)),
                        bits(iap.evaluate(&by, &bs, weights)),
                    );
                    let case = format!("{ties:?} {average:?} weighted {}", weights.is_some());
                    assert_eq!(counted, sorted, "{case}");
                    assert_eq!(copied, sorted, "{case}");
                    assert_eq!(lent, sorted, "{case}, lent columns");
                    let lent_short = bits(auc.evaluate(&by, &short, weights));
                    assert_eq!(lent_short, sorted.0, "{case}, a column lent short");
                    #[cfg(feature = "rayon")]
                    {
                        use crate::labelwise::pairs::tests::on_threads;
                        let parallel = on_threads(2, || {
                            crate::labelwise::evaluate_many_parallel(&[auc], &by, &bs, weights)
                        });
                        assert_eq!(bits(parallel[0].clone()), sorted.0, "{case}, two threads");
                    }
                    // Interpolated AP has no `Expected`; every other policy gives a value.
                    let valued = sorted.2.is_ok();
                    assert_eq!(valued, ties != TiePolicy::Expected, "{case}");
                }
            }
        }
    }
}
