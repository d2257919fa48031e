//! A `Matrix` that breaks its contract (a row of the wrong length, `extend_rows` appending too
//! few or too many values, `nrows()` counting a row the data does not hold) gives
//! `Error::MatrixContract` naming the input and the row, through every entry point: never a
//! panic, never a value.

use core::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};

use rankmetrics::registry::{evaluate_all, Convention, Preset};
use rankmetrics::{
    Average, AveragePrecision, Coverage, Dcg, Error, ErrorSetSize, Input,
    InterpolatedAveragePrecision, IsError, LabelAveragePrecision, LabelMatrix, Matrix, Ndcg,
    NdcgAtK, OneError, PrecisionAtK, PsNdcgAtK, PsPrecisionAtK, RankingLoss, RankingMetric,
    RecallAtK, RocAuc, RowMetric, ScoreMatrix, SparseLabels, TiePolicy,
};

/// How a [`Faulty`] matrix breaks the contract.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Fault {
    /// `row(bad)` has one value too many.
    LongRow,
    /// `row(bad)` has one value too few.
    ShortRow,
    /// No rows in place; `extend_rows` appends one value too few for row `bad`.
    FewCells,
    /// No rows in place; `extend_rows` appends one value too many for row `bad`.
    ManyCells,
    /// `nrows()` counts one row more than the data holds.
    MissingRow,
}

const FAULTS: [Fault; 5] = [
    Fault::LongRow,
    Fault::ShortRow,
    Fault::FewCells,
    Fault::ManyCells,
    Fault::MissingRow,
];

const N: usize = 6;
const L: usize = 4;
const BAD: usize = 3;

/// An n × L row-major matrix with one [`Fault`].
struct Faulty {
    data: Vec<f64>,
    fault: Fault,
}

impl Faulty {
    fn new(mut data: Vec<f64>, fault: Fault) -> Self {
        match fault {
            // Room for the long row's extra value.
            Fault::LongRow => data.push(0.0),
            Fault::MissingRow => data.truncate((N - 1) * L),
            _ => {}
        }
        Faulty { data, fault }
    }
}

impl Matrix for Faulty {
    type Elem = f64;
    fn nrows(&self) -> usize {
        N
    }
    fn ncols(&self) -> usize {
        L
    }
    fn row(&self, i: usize) -> Option<&[f64]> {
        let (start, end) = (i * L, (i + 1) * L);
        match self.fault {
            Fault::LongRow => self.data.get(start..end + usize::from(i == BAD)),
            Fault::ShortRow => self.data.get(start..end - usize::from(i == BAD)),
            Fault::MissingRow => self.data.get(start..end),
            Fault::FewCells | Fault::ManyCells => None,
        }
    }
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<f64>) {
        for i in rows {
            let Some(r) = self.data.get(i * L..(i + 1) * L) else {
                continue;
            };
            match (self.fault, i == BAD) {
                (Fault::FewCells, true) => out.extend_from_slice(&r[..L - 1]),
                (Fault::ManyCells, true) => {
                    out.extend_from_slice(r);
                    out.push(r[0]);
                }
                _ => out.extend_from_slice(r),
            }
        }
    }
}

/// Every row has relevant and irrelevant labels, and distinct scores.
fn labels() -> Vec<f64> {
    (0..N * L)
        .map(|c| f64::from(c % L == (c / L) % L || c % L == (c / L + 1) % L))
        .collect()
}

fn scores() -> Vec<f64> {
    (0..N * L).map(|c| ((c * 7) % 11) as f64 / 10.0).collect()
}

fn rows(data: &[f64]) -> Vec<Vec<f64>> {
    data.chunks(L).map(<[f64]>::to_vec).collect()
}

/// The error a fault of `input` gives: rows in place are checked one by one, blocks of rows
/// (here: all of them, from row 0) as a whole.
fn expected(fault: Fault, input: Input) -> Error {
    let (row, expected, found) = match fault {
        Fault::LongRow => (BAD, L, L + 1),
        Fault::ShortRow => (BAD, L, L - 1),
        Fault::FewCells => (0, N * L, N * L - 1),
        Fault::ManyCells => (0, N * L, N * L + 1),
        Fault::MissingRow => (N - 1, L, 0),
    };
    Error::MatrixContract {
        matrix: input,
        row,
        expected,
        found,
    }
}

/// What one entry point gave: `Err(())` for a panic.
type Outcome = Result<Result<(), Error>, ()>;

struct Runs(Vec<(String, Outcome)>);

impl Runs {
    fn run(&mut self, name: impl Into<String>, f: impl FnOnce() -> Result<(), Error>) {
        let outcome = catch_unwind(AssertUnwindSafe(f)).map_err(|_| ());
        self.0.push((name.into(), outcome));
    }

    /// A row-wise metric through evaluate, per_sample, the accumulator and the parallel module.
    fn row_metric<M, Y, S>(&mut self, name: &str, m: &M, y: &Y, s: &S)
    where
        M: RowMetric + Clone + Sync,
        Y: LabelMatrix + Sync + ?Sized,
        S: ScoreMatrix<f64> + Sync + ?Sized,
    {
        self.run(format!("{name}.evaluate"), || {
            m.evaluate(y, s, None).map(|_| ())
        });
        self.run(format!("{name}.evaluate weighted"), || {
            m.evaluate(y, s, Some(&[1.0; N])).map(|_| ())
        });
        self.run(format!("{name}.per_sample"), || {
            m.per_sample(y, s).map(|_| ())
        });
        self.run(format!("{name}.accumulator"), || {
            let mut acc = m.accumulator();
            acc.update(y, s, None)?;
            acc.value().map(|_| ())
        });
        #[cfg(feature = "rayon")]
        {
            use rankmetrics::parallel;
            self.run(format!("{name} parallel::evaluate"), || {
                parallel::evaluate(m, y, s, None).map(|_| ())
            });
            self.run(format!("{name} parallel::per_sample"), || {
                parallel::per_sample(m, y, s).map(|_| ())
            });
            self.run(format!("{name}.accumulator update_parallel"), || {
                let mut acc = m.accumulator();
                acc.update_parallel(y, s, None)?;
                acc.value().map(|_| ())
            });
        }
    }
}

/// A label-wise metric through evaluate (unweighted and weighted) and its accumulator.
macro_rules! labelwise {
    ($runs:expr, $name:expr, $m:expr, $y:expr, $s:expr) => {{
        let (m, y, s) = ($m, $y, $s);
        $runs.run(format!("{}.evaluate", $name), || {
            RankingMetric::<f64>::evaluate(&m, y, s, None).map(|_| ())
        });
        $runs.run(format!("{}.evaluate weighted", $name), || {
            RankingMetric::<f64>::evaluate(&m, y, s, Some(&[1.0; N])).map(|_| ())
        });
        $runs.run(format!("{}.accumulator", $name), || {
            let mut acc = m.accumulator();
            acc.update(y, s, None)?;
            acc.value().map(|_| ())
        });
    }};
}

fn every_preset() -> Vec<Preset> {
    let mut presets = Vec::new();
    for convention in Convention::ALL {
        for &name in convention
            .entries()
            .iter()
            .filter(|e| !e.needs_params())
            .map(|e| &e.name)
        {
            presets.push(Preset::lookup(convention, name, Preset::NO_PARAMS, None).unwrap());
        }
    }
    presets
}

/// Every entry point on (y, s).
fn run_all<Y, S>(y: &Y, s: &S) -> Runs
where
    Y: LabelMatrix + Sync + ?Sized,
    S: ScoreMatrix<f64> + Sync + ?Sized,
{
    let mut runs = Runs(Vec::new());
    let t = TiePolicy::Max;
    runs.row_metric("Coverage", &Coverage::new(t), y, s);
    runs.row_metric("AveragePrecision", &AveragePrecision::new(t), y, s);
    runs.row_metric("RankingLoss", &RankingLoss::new(t), y, s);
    runs.row_metric("OneError", &OneError::new(t), y, s);
    runs.row_metric("IsError", &IsError::new(t), y, s);
    runs.row_metric("ErrorSetSize", &ErrorSetSize::new(t), y, s);
    runs.row_metric("Dcg", &Dcg::new(t), y, s);
    runs.row_metric("Ndcg", &Ndcg::new(t), y, s);
    runs.row_metric("NdcgAtK", &NdcgAtK::new(t, 2).unwrap(), y, s);
    runs.row_metric("PrecisionAtK", &PrecisionAtK::new(t, 2).unwrap(), y, s);
    runs.row_metric("RecallAtK", &RecallAtK::new(t, 2).unwrap(), y, s);
    let inverse = vec![1.5; L];
    let ps_p = PsPrecisionAtK::new(t, 2, inverse.clone()).unwrap();
    runs.row_metric("PsPrecisionAtK", &ps_p, y, s);
    runs.row_metric("PsNdcgAtK", &PsNdcgAtK::new(t, 2, inverse).unwrap(), y, s);
    for average in [
        Average::Macro,
        Average::Weighted,
        Average::Micro,
        Average::Samples,
    ] {
        labelwise!(
            runs,
            format!("RocAuc {average:?}"),
            RocAuc::new(average, t),
            y,
            s
        );
        labelwise!(
            runs,
            format!("LabelAveragePrecision {average:?}"),
            LabelAveragePrecision::new(average, t),
            y,
            s
        );
        labelwise!(
            runs,
            format!("InterpolatedAveragePrecision {average:?}"),
            InterpolatedAveragePrecision::new(average, t, 11),
            y,
            s
        );
    }
    let presets = every_preset();
    for p in &presets {
        let name = format!("{:?} {}", p.convention(), p.name());
        runs.run(format!("{name}.evaluate"), || {
            p.evaluate(y, s, None).map(|_| ())
        });
        if p.per_sample(&[[1.0, 0.0]], &[[0.5, 0.2]]) != Err(Error::NotRowWise) {
            runs.run(format!("{name}.per_sample"), || {
                p.per_sample(y, s).map(|_| ())
            });
        }
        runs.run(format!("{name}.accumulator"), || {
            let mut acc = p.accumulator();
            acc.update(y, s, None)?;
            acc.value().map(|_| ())
        });
        #[cfg(feature = "rayon")]
        runs.run(format!("{name}.accumulator update_parallel"), || {
            let mut acc = p.accumulator();
            acc.update_parallel(y, s, None)?;
            acc.value().map(|_| ())
        });
    }
    let all = catch_unwind(AssertUnwindSafe(|| evaluate_all(&presets, y, s, None)));
    for (p, r) in presets.iter().zip(all.expect("evaluate_all panicked")) {
        runs.0.push((
            format!("evaluate_all {:?} {}", p.convention(), p.name()),
            Ok(r.map(|_| ())),
        ));
    }
    #[cfg(feature = "rayon")]
    {
        let all = catch_unwind(AssertUnwindSafe(|| {
            rankmetrics::registry::evaluate_all_parallel(&presets, y, s, None)
        }));
        for (p, r) in presets
            .iter()
            .zip(all.expect("evaluate_all_parallel panicked"))
        {
            runs.0.push((
                format!("evaluate_all_parallel {:?} {}", p.convention(), p.name()),
                Ok(r.map(|_| ())),
            ));
        }
    }
    runs
}

fn assert_all(runs: &Runs, want: Error, case: &str) {
    assert_each(runs, |_| Some(want.clone()), case);
}

/// Every entry point gives the error `want` names for it (`None`: checked elsewhere).
fn assert_each(runs: &Runs, want: impl Fn(&str) -> Option<Error>, case: &str) {
    assert!(
        runs.0.len() > 100,
        "{case}: only {} entry points",
        runs.0.len()
    );
    let wrong: Vec<String> = runs
        .0
        .iter()
        .filter_map(|(name, got)| {
            let want = want(name)?;
            (*got != Ok(Err(want.clone()))).then(|| format!("{name}: {got:?}, not {want:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{case}:\n{}", wrong.join("\n"));
}

#[test]
fn the_inputs_are_valid_as_they_are() {
    let (y, s) = (rows(&labels()), rows(&scores()));
    let runs = run_all(&y, &s);
    let failed: Vec<_> = runs
        .0
        .iter()
        .filter(|(_, got)| *got != Ok(Ok(())))
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
}

#[test]
fn faulty_labels_give_the_typed_error_everywhere() {
    let s = rows(&scores());
    for fault in FAULTS {
        let y = Faulty::new(labels(), fault);
        assert_all(
            &run_all(&y, &s),
            expected(fault, Input::Labels),
            &format!("labels {fault:?}"),
        );
    }
}

/// torchmetrics' retrieval presets read the scores through a `float32` cast, which copies
/// blocks of rows with `extend_rows`: a faulty `row()` is never called (the value is right:
/// [`assert_copied_values_are_right`]), and other faults are reported for the block.
fn scores_error(fault: Fault, entry: &str) -> Option<Error> {
    if !entry.contains("retrieval_normalized_dcg") {
        return Some(expected(fault, Input::Scores));
    }
    let block = |found| Error::MatrixContract {
        matrix: Input::Scores,
        row: 0,
        expected: N * L,
        found,
    };
    match fault {
        Fault::LongRow | Fault::ShortRow => None,
        Fault::MissingRow => Some(block((N - 1) * L)),
        _ => Some(expected(fault, Input::Scores)),
    }
}

/// The value through the `float32` cast of a matrix with a faulty `row()` is the valid one's.
fn assert_copied_values_are_right<Y: LabelMatrix + ?Sized>(y: &Y) {
    let good = rows(&scores());
    let p = Preset::lookup(
        Convention::Torchmetrics,
        "retrieval_normalized_dcg",
        Preset::NO_PARAMS,
        None,
    )
    .unwrap();
    for fault in [Fault::LongRow, Fault::ShortRow] {
        let faulty = Faulty::new(scores(), fault);
        assert_eq!(p.evaluate(y, &faulty, None), p.evaluate(y, &good, None));
    }
}

#[test]
fn faulty_scores_give_the_typed_error_everywhere() {
    let y = rows(&labels());
    for fault in FAULTS {
        let s = Faulty::new(scores(), fault);
        let want = |entry: &str| scores_error(fault, entry);
        assert_each(&run_all(&y, &s), want, &format!("scores {fault:?}"));
    }
    assert_copied_values_are_right(&y);
}

#[test]
fn faulty_scores_against_sparse_labels() {
    let dense = labels();
    let (mut indptr, mut indices) = (vec![0], Vec::new());
    for row in dense.chunks(L) {
        indices.extend((0..L as u32).filter(|&j| row[j as usize] != 0.0));
        indptr.push(indices.len());
    }
    let y = SparseLabels::new(L, indptr, indices, None).unwrap();
    for fault in FAULTS {
        let s = Faulty::new(scores(), fault);
        let want = |entry: &str| scores_error(fault, entry);
        assert_each(&run_all(&y, &s), want, &format!("sparse, scores {fault:?}"));
        let case = format!("sparse view, scores {fault:?}");
        assert_each(&run_all(&y.view(), &s), want, &case);
    }
    assert_copied_values_are_right(&y);
}

/// A matrix whose shape changes while it is read: the reader notices at its next block.
#[test]
fn a_shape_that_changes_while_read_is_reported() {
    use std::cell::Cell;
    /// 5000 rows of one label (more than one block) until the first block is read; then 4999.
    struct Shrinking {
        read: Cell<bool>,
    }
    impl Matrix for Shrinking {
        type Elem = f64;
        fn nrows(&self) -> usize {
            5000 - usize::from(self.read.get())
        }
        fn ncols(&self) -> usize {
            1
        }
        fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<f64>) {
            self.read.set(true);
            out.extend(rows.map(|i| (i % 2) as f64));
        }
    }
    let s = vec![[0.5]; 5000];
    let y = Shrinking {
        read: Cell::new(false),
    };
    let err = Coverage::new(TiePolicy::Max)
        .evaluate(&y, &s, None)
        .unwrap_err();
    assert_eq!(
        err,
        Error::MatrixShapeChanged {
            matrix: Input::Labels,
            expected: (5000, 1),
            found: (4999, 1)
        }
    );
    assert_eq!(
        err.to_string(),
        "the Matrix behind y_true changed its shape (rows, labels) from (5000, 1) to (4999, 1) \
         while it was read"
    );
}

#[test]
fn the_messages_name_the_input_and_the_row() {
    let s = rows(&scores());
    let y = Faulty::new(labels(), Fault::LongRow);
    let err = Coverage::new(TiePolicy::Max)
        .evaluate(&y, &s, None)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the Matrix behind y_true broke its contract reading from row 3: it gave 5 values where \
         ncols() per row asked for 4"
    );
}

/// Scores that are finite when first read (validated) and NaN at every later read: the micro
/// lanes that read the pooled ranking in pieces, and the `samples` average, read the matrix
/// again, and must refuse the NaN with a typed error (the kernel given NaN scores made blocks
/// with more relevant items than places: an overflow, a panic in a debug build).
#[test]
fn scores_that_turn_nan_after_validation_are_refused() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    struct TurnsNan {
        reads: AtomicUsize,
    }
    impl Matrix for TurnsNan {
        type Elem = f64;
        fn nrows(&self) -> usize {
            N
        }
        fn ncols(&self) -> usize {
            L
        }
        fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<f64>) {
            let first = self.reads.fetch_add(1, Ordering::Relaxed) == 0;
            let cells = rows.len() * L;
            out.extend((0..cells).map(|k| if first { (k % 3) as f64 } else { f64::NAN }));
        }
    }
    let y: Vec<Vec<f64>> = (0..N)
        .map(|i| (0..L).map(|j| ((i + j) % 2) as f64).collect())
        .collect();
    let fresh = || TurnsNan {
        reads: AtomicUsize::new(0),
    };
    for ties in [TiePolicy::First, TiePolicy::Average, TiePolicy::Pessimistic] {
        let ap = LabelAveragePrecision::new(Average::Micro, ties);
        let auc = RocAuc::new(Average::Micro, ties);
        let ap_samples = LabelAveragePrecision::new(Average::Samples, ties);
        let auc_samples = RocAuc::new(Average::Samples, ties);
        #[cfg_attr(not(feature = "rayon"), allow(unused_mut))]
        let mut results = vec![
            ap.evaluate(&y, &fresh(), None),
            auc.evaluate(&y, &fresh(), None),
            auc.with_direction(rankmetrics::Direction::Auto)
                .evaluate(&y, &fresh(), None),
            ap_samples.evaluate(&y, &fresh(), None),
            auc_samples.evaluate(&y, &fresh(), None),
        ];
        // The samples average on the pool, its rows in chunks.
        #[cfg(feature = "rayon")]
        {
            let average = [("average".to_string(), "samples".to_string())];
            let preset = rankmetrics::registry::Preset::lookup(
                rankmetrics::registry::Convention::Sklearn,
                "average_precision_score",
                &average,
                Some(ties),
            )
            .unwrap();
            let parallel =
                rankmetrics::registry::evaluate_all_parallel(&[preset], &y, &fresh(), None);
            results.extend(parallel);
        }
        for result in results {
            assert!(
                matches!(
                    result,
                    Err(Error::NonFiniteScore {
                        row: 0,
                        column: 0,
                        ..
                    })
                ),
                "{ties:?}: {result:?}"
            );
        }
    }
}

/// An N × L matrix that lends `columns` (column-major) while its rows hold `rows` (row-major):
/// the two may differ, breaking the contract.
struct Unlike {
    columns: Vec<f64>,
    rows: Vec<f64>,
}

impl Matrix for Unlike {
    type Elem = f64;
    fn nrows(&self) -> usize {
        N
    }
    fn ncols(&self) -> usize {
        L
    }
    fn column(&self, j: usize) -> Option<&[f64]> {
        self.columns.get(j * N..(j + 1) * N)
    }
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<f64>) {
        out.extend_from_slice(&self.rows[rows.start * L..rows.end * L]);
    }
}

/// Column-major `data` given row-major.
fn by_column(data: &[f64]) -> Vec<f64> {
    (0..N * L).map(|k| data[(k % N) * L + k / N]).collect()
}

/// A matrix whose lent columns differ from its rows (the macro and weighted averages read the
/// columns in place): a NaN or ±inf score there is refused, naming its cell, one by one and on
/// the pool.
#[test]
fn scores_lent_in_columns_unlike_the_rows_are_refused() {
    let labels: Vec<f64> = (0..N * L).map(|k| ((k / L + k % L) % 2) as f64).collect();
    let y = Unlike {
        columns: by_column(&labels),
        rows: labels,
    };
    let rows: Vec<f64> = (0..N * L)
        .map(|k| ((k / L + 2 * (k % L)) % 5) as f64)
        .collect();
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut columns: Vec<f64> = (0..N * L)
            .map(|k| ((k % N + 2 * (k / N)) % 5) as f64)
            .collect();
        columns[N + 2] = bad; // row 2, column 1
        let s = Unlike {
            columns,
            rows: rows.clone(),
        };
        // The cell and the value's bits (NaN equals no NaN).
        let same = |result: &Result<f64, Error>| match result {
            Err(Error::NonFiniteScore { row, column, value }) => {
                (*row, *column, value.to_bits()) == (2, 1, bad.to_bits())
            }
            _ => false,
        };
        for average in [Average::Macro, Average::Weighted] {
            let auc = RocAuc::new(average, TiePolicy::Average);
            let ap = LabelAveragePrecision::new(average, TiePolicy::Max);
            for result in [auc.evaluate(&y, &s, None), ap.evaluate(&y, &s, None)] {
                assert!(same(&result), "{average:?} {bad}: {result:?}");
            }
        }
        #[cfg(feature = "rayon")]
        {
            let presets: Vec<Preset> = ["roc_auc_score", "average_precision_score"]
                .into_iter()
                .map(|name| {
                    Preset::lookup(Convention::Sklearn, name, Preset::NO_PARAMS, None).unwrap()
                })
                .collect();
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .unwrap();
            let parallel = pool
                .install(|| rankmetrics::registry::evaluate_all_parallel(&presets, &y, &s, None));
            for result in parallel {
                assert!(same(&result), "two threads, {bad}: {result:?}");
            }
        }
    }
}

/// A matrix whose lent columns are clean while its rows hold bad scores and labels (NaN and
/// ±inf: out of every domain; -7 and 2.5: out of the binary one) (beside clean scores, or bad ones): inputs that lend every column are validated by
/// column, so the rows may go unchecked until a metric reads them. Every entry point gives a
/// value or an error, never a panic; the macro averages, which read only the columns, give
/// their value (the rows were not read to validate them).
#[test]
fn rows_unlike_the_lent_columns_never_panic() {
    let bad_rows = |bad: f64| {
        (0..N * L)
            .map(|k| if k % 3 == 1 { bad } else { 0.5 })
            .collect()
    };
    let macro_presets: Vec<Preset> = [
        (Convention::Sklearn, "roc_auc_score"),
        (Convention::Sklearn, "average_precision_score"),
        (Convention::Mldr, "macro_auc"),
        (Convention::Mulan, "MacroAUC"),
    ]
    .into_iter()
    .map(|(c, name)| Preset::lookup(c, name, Preset::NO_PARAMS, None).unwrap())
    .collect();
    for bad in [f64::NAN, f64::INFINITY, -7.0, 2.5] {
        for clean_score_rows in [false, true] {
            let y = Unlike {
                columns: by_column(&labels()),
                rows: bad_rows(bad),
            };
            let s = Unlike {
                columns: by_column(&scores()),
                rows: match clean_score_rows {
                    true => scores(),
                    false => bad_rows(bad),
                },
            };
            let runs = run_all(&y, &s);
            assert!(runs.0.len() > 100);
            let panicked: Vec<&str> = runs
                .0
                .iter()
                .filter(|(_, outcome)| outcome.is_err())
                .map(|(name, _)| name.as_str())
                .collect();
            assert!(panicked.is_empty(), "{bad}: panicked in {panicked:?}");
            let clean = (rows(&labels()), rows(&scores()));
            for preset in &macro_presets {
                let (got, want) = (
                    preset.evaluate(&y, &s, None),
                    preset.evaluate(&clean.0, &clean.1, None),
                );
                assert_eq!(
                    got.map(f64::to_bits),
                    want.map(f64::to_bits),
                    "{bad}: {preset:?}"
                );
            }
        }
    }
}

/// Matrices that lend their columns and count one row more from some call of `nrows()` on:
/// the validation by column, one by one and on the pool, gives `MatrixShapeChanged`, an error
/// or a value, never a panic nor a hang, wherever the change falls; a change during the
/// columns' validation is refused as `MatrixShapeChanged`.
#[test]
fn a_shape_that_changes_while_the_columns_are_validated_never_panics() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    /// Columns of N + 1 cells, lent N long until `nrows()`, of either input (`calls` is
    /// shared), first counts N + 1.
    struct Growing {
        columns: Vec<f64>,
        calls: Arc<AtomicUsize>,
        grow_after: usize,
    }
    impl Growing {
        fn new(data: &[f64], calls: &Arc<AtomicUsize>, grow_after: usize) -> Growing {
            let columns = (0..L)
                .flat_map(|j| (0..=N).map(move |i| if i < N { data[i * L + j] } else { 0.0 }))
                .collect();
            Growing {
                columns,
                calls: Arc::clone(calls),
                grow_after,
            }
        }
        fn rows_now(&self) -> usize {
            N + usize::from(self.calls.load(Ordering::Relaxed) > self.grow_after)
        }
    }
    impl Matrix for Growing {
        type Elem = f64;
        fn nrows(&self) -> usize {
            self.calls.fetch_add(1, Ordering::Relaxed);
            self.rows_now()
        }
        fn ncols(&self) -> usize {
            L
        }
        fn column(&self, j: usize) -> Option<&[f64]> {
            self.columns.get(j * (N + 1)..)?.get(..self.rows_now())
        }
        fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<f64>) {
            for i in rows {
                out.extend((0..L).map(|j| self.columns[j * (N + 1) + i.min(N)]));
            }
        }
    }
    let presets: Vec<Preset> = ["roc_auc_score", "average_precision_score"]
        .into_iter()
        .map(|name| Preset::lookup(Convention::Sklearn, name, Preset::NO_PARAMS, None).unwrap())
        .collect();
    let mut refused = false;
    for grow_after in 0..60 {
        let calls = Arc::new(AtomicUsize::new(0));
        let (y, s) = (
            Growing::new(&labels(), &calls, grow_after),
            Growing::new(&scores(), &calls, grow_after),
        );
        let one = catch_unwind(AssertUnwindSafe(|| evaluate_all(&presets, &y, &s, None)));
        let Ok(one) = one else {
            panic!("one thread, growing after {grow_after} calls: a panic");
        };
        // The growth that falls inside the columns' validation is refused, naming the scores
        // (asked first, as a row's reading asks them).
        refused |= one.iter().any(|r| {
            matches!(
                r,
                Err(Error::MatrixShapeChanged {
                    matrix: Input::Scores,
                    expected: (N, L),
                    found: (n, L),
                }) if *n == N + 1
            )
        });
        #[cfg(feature = "rayon")]
        {
            calls.store(0, Ordering::Relaxed);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .unwrap();
            let parallel = catch_unwind(AssertUnwindSafe(|| {
                pool.install(|| {
                    rankmetrics::registry::evaluate_all_parallel(&presets, &y, &s, None)
                })
            }));
            assert!(
                parallel.is_ok(),
                "two threads, growing after {grow_after} calls"
            );
        }
    }
    assert!(refused, "no growth was refused as MatrixShapeChanged");
}

/// Rows past a few chunks, read once to validate them and again by the `samples` average: a
/// matrix that changes after the validation (a score turned NaN in a later chunk, or one label
/// more per row) gets the typed error, the first in row order, one by one and on the pool.
#[test]
fn a_matrix_changed_after_validation_is_refused_by_the_samples_average() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    const ROWS: usize = 2 * 2048 + 100;
    const LATE: usize = 2 * 2048 + 7;
    /// `widen`: one label more per row once every row was read; else a NaN score in row `LATE`.
    struct Changes {
        read: AtomicUsize,
        widen: bool,
    }
    impl Changes {
        fn validated(&self) -> bool {
            self.read.load(Ordering::Relaxed) >= ROWS
        }
    }
    impl Matrix for Changes {
        type Elem = f64;
        fn nrows(&self) -> usize {
            ROWS
        }
        fn ncols(&self) -> usize {
            L + usize::from(self.widen && self.validated())
        }
        fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<f64>) {
            let late = self.validated();
            let l = self.ncols();
            self.read.fetch_add(rows.len(), Ordering::Relaxed);
            for i in rows {
                let nan = late && !self.widen && i >= LATE;
                out.extend((0..l).map(|j| match nan && j == 0 {
                    true => f64::NAN,
                    false => ((i * 7 + j * 3) % 5) as f64,
                }));
            }
        }
    }
    let changes = |widen| Changes {
        read: AtomicUsize::new(0),
        widen,
    };
    let y: Vec<[f64; L]> = (0..ROWS)
        .map(|i| core::array::from_fn(|j| ((i + j) % 2) as f64))
        .collect();
    let nan = Error::NonFiniteScore {
        row: LATE,
        column: 0,
        value: f64::NAN,
    };
    let wider = Error::MatrixShapeChanged {
        matrix: Input::Scores,
        expected: (ROWS, L),
        found: (ROWS, L + 1),
    };
    for (widen, want) in [(false, nan), (true, wider)] {
        let ap = LabelAveragePrecision::new(Average::Samples, TiePolicy::Max);
        let auc = RocAuc::new(Average::Samples, TiePolicy::Average);
        #[cfg_attr(not(feature = "rayon"), allow(unused_mut))]
        let mut results = vec![
            ap.evaluate(&y, &changes(widen), None),
            auc.evaluate(&y, &changes(widen), None),
        ];
        #[cfg(feature = "rayon")]
        {
            let average = [("average".to_string(), "samples".to_string())];
            let preset = Preset::lookup(
                Convention::Sklearn,
                "average_precision_score",
                &average,
                None,
            )
            .unwrap();
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .unwrap();
            let parallel = pool.install(|| {
                rankmetrics::registry::evaluate_all_parallel(&[preset], &y, &changes(widen), None)
            });
            results.extend(parallel);
        }
        for result in results {
            // NaN payloads aside, by the message.
            let found = result.map_err(|e| e.to_string());
            assert_eq!(found, Err(want.to_string()), "widen: {widen}");
        }
    }
}

/// The micro averages' pool limit, set until dropped (also when a test fails): values do not
/// depend on it, so tests running meanwhile are only slower.
struct PoolCells;

impl PoolCells {
    fn set(cells: Option<usize>) -> Self {
        rankmetrics::set_micro_pool_cells(cells);
        PoolCells
    }
}

impl Drop for PoolCells {
    fn drop(&mut self) {
        rankmetrics::set_micro_pool_cells(None);
    }
}

/// Scores that differ at every read (all finite) while the micro averages place their pool a
/// window at a time, each window in a pass of its own: the passes disagree about where each
/// cell goes. No panic and no hang, on one thread and two; with pieces in one window, the
/// values are those of a matrix that does not change.
#[test]
fn scores_that_change_between_the_windows_passes_never_panic() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    // More cells than a piece holds (2^17): several pieces, so several windows.
    const ROWS: usize = 700;
    const COLUMNS: usize = 400;
    struct Shifts {
        reads: AtomicUsize,
        shifts: bool,
    }
    impl Matrix for Shifts {
        type Elem = f64;
        fn nrows(&self) -> usize {
            ROWS
        }
        fn ncols(&self) -> usize {
            COLUMNS
        }
        fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<f64>) {
            let read = self.reads.fetch_add(1, Ordering::Relaxed);
            let shift = if self.shifts { read % 7919 } else { 0 };
            for i in rows {
                let cell = |j: usize| ((i * COLUMNS + j) * 7_919 + shift) % 100_003;
                out.extend((0..COLUMNS).map(|j| cell(j) as f64 / 100_003.0));
            }
        }
    }
    let y: Vec<Vec<f64>> = (0..ROWS)
        .map(|i| {
            (0..COLUMNS)
                .map(|j| ((i * 3 + j) % 5 == 0) as u8 as f64)
                .collect()
        })
        .collect();
    let average = [("average".to_string(), "micro".to_string())];
    let presets: Vec<Preset> = [
        Preset::lookup(Convention::Sklearn, "roc_auc_score", &average, None),
        Preset::lookup(
            Convention::Sklearn,
            "average_precision_score",
            &average,
            None,
        ),
        Preset::lookup(Convention::Mldr, "micro_auc", &average[..0], None),
    ]
    .into_iter()
    .map(Result::unwrap)
    .collect();
    let run =
        |shifts: bool| {
            let s = Shifts {
                reads: AtomicUsize::new(0),
                shifts,
            };
            #[cfg_attr(not(feature = "rayon"), allow(unused_mut))]
            let mut runs = vec![evaluate_all(&presets, &y, &s, None)];
            #[cfg(feature = "rayon")]
            {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(2)
                    .build()
                    .unwrap();
                let s = Shifts {
                    reads: AtomicUsize::new(0),
                    shifts,
                };
                runs.push(pool.install(|| {
                    rankmetrics::registry::evaluate_all_parallel(&presets, &y, &s, None)
                }));
            }
            runs
        };
    let whole = run(false);
    // Windows of at most a few cells: each piece a window of its own.
    let limit = PoolCells::set(Some(3));
    let (windowed, shifting) = (run(false), catch_unwind(AssertUnwindSafe(|| run(true))));
    drop(limit);
    let bits = |runs: &[Vec<Result<f64, Error>>]| -> Vec<Option<u64>> {
        runs.iter()
            .flatten()
            .map(|r| r.as_ref().ok().map(|v| v.to_bits()))
            .collect()
    };
    assert!(bits(&whole).iter().all(Option::is_some), "{whole:?}");
    assert_eq!(bits(&windowed), bits(&whole));
    assert!(shifting.is_ok(), "a panic");
}

/// Scores whose `nrows()` grows once every row was read (after the validation), under the
/// micro averages that rank the pool in pieces, weighted and not, in windows and not, on one
/// thread and two: the changed shape is refused, where the weights (checked against the
/// validated rows) were once indexed past their end.
#[test]
fn scores_that_grow_after_validation_are_refused_by_the_micro_averages() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    const ROWS: usize = 50;
    struct Grows {
        read: AtomicUsize,
    }
    impl Matrix for Grows {
        type Elem = f64;
        fn nrows(&self) -> usize {
            ROWS + usize::from(self.read.load(Ordering::Relaxed) >= ROWS)
        }
        fn ncols(&self) -> usize {
            L
        }
        fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<f64>) {
            self.read.fetch_add(rows.len(), Ordering::Relaxed);
            out.extend(rows.flat_map(|i| (0..L).map(move |j| ((i * 7 + j * 3) % 11) as f64)));
        }
    }
    let y: Vec<[f64; L]> = (0..ROWS)
        .map(|i| core::array::from_fn(|j| ((i + j) % 3 == 0) as u8 as f64))
        .collect();
    let w: Vec<f64> = (0..ROWS).map(|i| 1.0 + (i % 4) as f64).collect();
    let grown = Error::MatrixShapeChanged {
        matrix: Input::Scores,
        expected: (ROWS, L),
        found: (ROWS + 1, L),
    };
    let average = [("average".to_string(), "micro".to_string())];
    let micro = [
        Preset::lookup(Convention::Sklearn, "roc_auc_score", &average, None).unwrap(),
        Preset::lookup(Convention::Mldr, "micro_auc", &average[..0], None).unwrap(),
    ];
    for cells in [None, Some(5)] {
        let _limit = PoolCells::set(cells);
        for weights in [None, Some(&w[..])] {
            let fresh = || Grows {
                read: AtomicUsize::new(0),
            };
            let one = catch_unwind(AssertUnwindSafe(|| {
                evaluate_all(&micro, &y, &fresh(), weights)
            }));
            let want = vec![Err(grown.clone()), Err(grown.clone())];
            assert_eq!(one.ok(), Some(want.clone()), "{cells:?} {weights:?}");
            #[cfg(feature = "rayon")]
            {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(2)
                    .build()
                    .unwrap();
                let two = catch_unwind(AssertUnwindSafe(|| {
                    pool.install(|| {
                        rankmetrics::registry::evaluate_all_parallel(&micro, &y, &fresh(), weights)
                    })
                }));
                assert_eq!(two.ok(), Some(want), "{cells:?} {weights:?}");
            }
        }
    }
}
