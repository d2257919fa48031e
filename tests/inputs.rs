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
