//! Every matrix type gives bitwise the same results: row-major slices, nested vectors, arrays,
//! nalgebra (column-major, views, transposes), ndarray (C and Fortran order, strided views) and
//! faer (column-major, transposed), whose columns the label-wise averages read in place where
//! they are lent. Inputs are large enough that blocks of rows are copied more
//! than once (4,096 elements a block).

mod common;

use common::Rng;
use rankmetrics::{mulan, sklearn, AveragePrecision, Matrix, RankingMetric, RowMajor, TiePolicy};

const N: usize = 307;
const L: usize = 19;

fn data() -> (Vec<f64>, Vec<f64>) {
    let mut rng = Rng::seeded(0x1A9D_7E5D_0000_0001);
    let y = (0..N * L)
        .map(|_| (rng.below(5) == 0) as u8 as f64)
        .collect();
    let s = (0..N * L).map(|_| rng.below(11) as f64 / 10.0).collect();
    (y, s)
}

/// The values of a few metrics on one pair of inputs.
fn values<Y, S>(y: &Y, s: &S) -> Vec<u64>
where
    Y: Matrix<Elem = f64> + ?Sized,
    S: Matrix<Elem = f64> + ?Sized,
{
    [
        sklearn::coverage_error(y, s, None::<&[f64]>),
        sklearn::label_ranking_loss(y, s, None::<&[f64]>),
        mulan::AveragePrecision.evaluate(y, s, None),
        AveragePrecision::new(TiePolicy::Expected).evaluate(y, s, None),
        sklearn::ROC_AUC_SCORE.evaluate(y, s, None),
        sklearn::AVERAGE_PRECISION_SCORE.evaluate(y, s, None),
    ]
    .into_iter()
    .map(|v| v.unwrap().to_bits())
    .collect()
}

#[test]
fn slices_and_nested_vectors_agree() {
    let (y, s) = data();
    let reference = values(
        &RowMajor::new(&y, N, L).unwrap(),
        &RowMajor::new(&s, N, L).unwrap(),
    );
    let nested = |v: &[f64]| -> Vec<Vec<f64>> { v.chunks(L).map(<[f64]>::to_vec).collect() };
    assert_eq!(values(&nested(&y), &nested(&s)), reference);
    let (ys, ss): (Vec<&[f64]>, Vec<&[f64]>) = (y.chunks(L).collect(), s.chunks(L).collect());
    assert_eq!(values(&ys, &ss), reference);
}

#[cfg(feature = "nalgebra")]
#[test]
fn nalgebra_agrees() {
    use nalgebra::DMatrix;
    let (y, s) = data();
    let reference = values(
        &RowMajor::new(&y, N, L).unwrap(),
        &RowMajor::new(&s, N, L).unwrap(),
    );
    let (ym, sm) = (
        DMatrix::from_row_slice(N, L, &y),
        DMatrix::from_row_slice(N, L, &s),
    );
    assert_eq!(values(&ym, &sm), reference);
    // A transposed copy, transposed back as a view.
    let (yt, st) = (ym.transpose(), sm.transpose());
    assert_eq!(values(&yt.transpose(), &st.transpose()), reference);
    // A view of a larger matrix.
    let big = DMatrix::from_fn(N + 3, L + 2, |i, j| {
        if i < N && j < L {
            s[i * L + j]
        } else {
            9.0
        }
    });
    let ybig = DMatrix::from_fn(N + 3, L + 2, |i, j| {
        if i < N && j < L {
            y[i * L + j]
        } else {
            0.0
        }
    });
    assert_eq!(
        values(&ybig.view((0, 0), (N, L)), &big.view((0, 0), (N, L))),
        reference
    );
}

#[cfg(feature = "ndarray")]
#[test]
fn ndarray_agrees() {
    use ndarray::{s as sl, Array2, ShapeBuilder};
    let (y, s) = data();
    let reference = values(
        &RowMajor::new(&y, N, L).unwrap(),
        &RowMajor::new(&s, N, L).unwrap(),
    );
    let c = |v: &[f64]| Array2::from_shape_vec((N, L), v.to_vec()).unwrap();
    assert_eq!(values(&c(&y), &c(&s)), reference);
    assert_eq!(values(&c(&y).view(), &c(&s).view()), reference);
    // Fortran order.
    let f = |v: &[f64]| {
        let mut a = Array2::zeros((N, L).f());
        a.assign(&c(v));
        a
    };
    assert_eq!(values(&f(&y), &f(&s)), reference);
    // whose columns are lent in place (the label-wise averages read them so), not its rows.
    let third: Vec<f64> = (0..N).map(|i| s[i * L + 3]).collect();
    assert_eq!(Matrix::column(&f(&s), 3), Some(&third[..]));
    assert_eq!(Matrix::row(&f(&s), 3), None);
    assert_eq!(Matrix::column(&c(&s), 3), None);
    // Strided: every other column of a wider array.
    let wide = |v: &[f64]| {
        let mut a = Array2::from_elem((N, 2 * L), 7.0);
        a.slice_mut(sl![.., ..;2]).assign(&c(v));
        a
    };
    let (yw, sw) = (wide(&y), wide(&s));
    assert_eq!(
        values(&yw.slice(sl![.., ..;2]), &sw.slice(sl![.., ..;2])),
        reference
    );
    // Reversed rows of reversed rows.
    let (yr, sr) = (c(&y), c(&s));
    let (yrr, srr) = (yr.slice(sl![..;-1, ..]), sr.slice(sl![..;-1, ..]));
    assert_eq!(
        values(&yrr.slice(sl![..;-1, ..]), &srr.slice(sl![..;-1, ..])),
        reference
    );
}

#[cfg(feature = "faer")]
#[test]
fn faer_agrees() {
    use faer::Mat;
    let (y, s) = data();
    let reference = values(
        &RowMajor::new(&y, N, L).unwrap(),
        &RowMajor::new(&s, N, L).unwrap(),
    );
    let m = |v: &[f64]| Mat::from_fn(N, L, |i, j| v[i * L + j]);
    let (ym, sm) = (m(&y), m(&s));
    assert_eq!(values(&ym, &sm), reference);
    assert_eq!(values(&ym.as_ref(), &sm.as_ref()), reference);
    // Column-major: its columns are lent in place.
    let third: Vec<f64> = (0..N).map(|i| s[i * L + 3]).collect();
    assert_eq!(Matrix::column(&sm, 3), Some(&third[..]));
    assert_eq!(Matrix::column(&sm.as_ref(), 3), Some(&third[..]));
    assert_eq!(Matrix::column(&sm, L), None);
    // Row-major: the transpose of a column-major transpose.
    let t = |v: &[f64]| Mat::from_fn(L, N, |j, i| v[i * L + j]);
    let (yt, st) = (t(&y), t(&s));
    assert_eq!(values(&yt.transpose(), &st.transpose()), reference);
    assert_eq!(Matrix::column(&st.transpose(), 3), None);
}

/// Column-major storage that lends its columns whole and gathers its rows, as R's matrices
/// and Fortran-order arrays are read.
struct ByColumn {
    data: Vec<f64>,
    rows: usize,
    cols: usize,
}

impl ByColumn {
    fn of(row_major: &[f64], rows: usize, cols: usize) -> ByColumn {
        let data = (0..rows * cols)
            .map(|k| row_major[(k % rows) * cols + k / rows])
            .collect();
        ByColumn { data, rows, cols }
    }
}

impl Matrix for ByColumn {
    type Elem = f64;
    fn nrows(&self) -> usize {
        self.rows
    }
    fn ncols(&self) -> usize {
        self.cols
    }
    fn column(&self, j: usize) -> Option<&[f64]> {
        self.data.get(j * self.rows..(j + 1) * self.rows)
    }
    fn extend_rows(&self, rows: core::ops::Range<usize>, out: &mut Vec<f64>) {
        for i in rows {
            out.extend((0..self.cols).map(|j| self.data[j * self.rows + i]));
        }
    }
}

/// Inputs that lend their columns are validated column by column; every preset still reports
/// the error of the first bad cell in row order (a score before a label in one row), as on
/// row-major input, and the same values where there is none (eleven faults, several with two
/// bad cells whose row order and column order disagree). On one thread and on the pool, with
/// rows past one chunk (2,048).
#[test]
fn column_major_inputs_give_the_errors_of_the_rows() {
    use rankmetrics::registry::{evaluate_all, Convention, Preset};
    const ROWS: usize = 2 * 2048 + 37;
    const COLS: usize = 6;
    let presets: Vec<Preset> = Convention::ALL
        .into_iter()
        .flat_map(|c| {
            let runnable = c.entries().iter().filter(|e| !e.needs_params());
            runnable.map(move |e| (c, e.name))
        })
        .map(|(c, name)| Preset::lookup(c, name, Preset::NO_PARAMS, None).unwrap())
        .collect();
    let mut rng = Rng::seeded(0x1A9D_7E5D_0000_0002);
    let y: Vec<f64> = (0..ROWS * COLS)
        .map(|_| (rng.below(4) == 0) as u8 as f64)
        .collect();
    let s: Vec<f64> = (0..ROWS * COLS)
        .map(|_| rng.below(13) as f64 / 12.0)
        .collect();
    let cell = |row: usize, column: usize| row * COLS + column;
    // (labels' faults, scores' faults): (cell, value).
    type Faults = (Vec<(usize, f64)>, Vec<(usize, f64)>);
    let cases: Vec<(&str, Faults)> = vec![
        ("clean", (vec![], vec![])),
        ("NaN score", (vec![], vec![(cell(3001, 4), f64::NAN)])),
        (
            "-inf score, first row",
            (vec![], vec![(cell(0, 5), f64::NEG_INFINITY)]),
        ),
        ("label 2", (vec![(cell(2500, 1), 2.0)], vec![])),
        ("NaN label", (vec![(cell(17, 3), f64::NAN)], vec![])),
        ("label -1", (vec![(cell(4000, 0), -1.0)], vec![])),
        ("label 0.5", (vec![(cell(ROWS - 1, 5), 0.5)], vec![])),
        (
            "label and score in one row: the score first",
            (
                vec![(cell(900, 0), 2.0)],
                vec![(cell(900, 5), f64::INFINITY)],
            ),
        ),
        (
            "label in an earlier row than a score in an earlier column",
            (
                vec![(cell(700, 5), f64::NAN)],
                vec![(cell(701, 0), f64::NAN)],
            ),
        ),
        (
            "scores in two rows, the later one in an earlier column",
            (
                vec![],
                vec![(cell(10, 5), f64::NAN), (cell(20, 0), f64::NAN)],
            ),
        ),
        (
            "labels 2 and 3 in two rows, the later one in an earlier column",
            (vec![(cell(700, 4), 2.0), (cell(800, 0), 3.0)], vec![]),
        ),
        (
            "labels 0 and 2 only",
            (
                (0..ROWS * COLS)
                    .filter(|&k| y[k] == 1.0)
                    .map(|k| (k, 2.0))
                    .collect(),
                vec![],
            ),
        ),
    ];
    let shown = |results: Vec<Result<f64, rankmetrics::Error>>| -> Vec<String> {
        let show = |r: Result<f64, _>| r.map(f64::to_bits).map_err(|e| format!("{e:?}"));
        results
            .into_iter()
            .map(|r| format!("{:?}", show(r)))
            .collect()
    };
    for (case, (label_faults, score_faults)) in cases {
        let (mut y, mut s) = (y.clone(), s.clone());
        label_faults.iter().for_each(|&(k, v)| y[k] = v);
        score_faults.iter().for_each(|&(k, v)| s[k] = v);
        let (yr, sr) = (
            RowMajor::new(&y, ROWS, COLS).unwrap(),
            RowMajor::new(&s, ROWS, COLS).unwrap(),
        );
        let (yc, sc) = (ByColumn::of(&y, ROWS, COLS), ByColumn::of(&s, ROWS, COLS));
        assert!(Matrix::column(&sc, COLS - 1).is_some());
        let rows = shown(evaluate_all(&presets, &yr, &sr, None));
        // Each fault is refused by some presets (a label of 2 suits graded gains).
        let refused = rows.iter().any(|r| r.contains("Err"));
        assert_eq!(refused, case != "clean", "{case}: {rows:?}");
        let columns = shown(evaluate_all(&presets, &yc, &sc, None));
        for ((p, a), b) in presets.iter().zip(&rows).zip(&columns) {
            assert_eq!(a, b, "{case}: {p:?}");
        }
        #[cfg(feature = "rayon")]
        {
            use rankmetrics::registry::evaluate_all_parallel;
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .unwrap();
            let parallel = pool.install(|| shown(evaluate_all_parallel(&presets, &yc, &sc, None)));
            for ((p, a), b) in presets.iter().zip(&rows).zip(&parallel) {
                assert_eq!(a, b, "two threads, {case}: {p:?}");
            }
        }
    }
}
