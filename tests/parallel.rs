//! Row-parallel evaluation (feature `rayon`): bitwise the same value on 1, 2 or 7 threads, the
//! sequential per-sample values, and the sequential error for the first bad row.
#![cfg(feature = "rayon")]

use rankmetrics::*;

const ROWS: usize = 10_000; // several chunks of parallel::CHUNK_ROWS
const LABELS: usize = 9;

/// Scores in steps of 0.125 (many ties) and about 30 % relevant labels, from xorshift64*.
fn input() -> (Vec<Vec<u8>>, Vec<Vec<f64>>) {
    let mut state = 0x5EED_u64;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40
    };
    let mut y = Vec::with_capacity(ROWS);
    let mut s = Vec::with_capacity(ROWS);
    for _ in 0..ROWS {
        y.push((0..LABELS).map(|_| u8::from(next() % 10 < 3)).collect());
        s.push((0..LABELS).map(|_| (next() % 9) as f64 / 8.0).collect());
    }
    (y, s)
}

fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(f)
}

fn check<M: RowMetric + RankingMetric<f64> + Sync>(m: M, y: &[Vec<u8>], s: &[Vec<f64>]) {
    let weights: Vec<f64> = (0..ROWS).map(|i| (i % 7) as f64 * 0.25).collect();
    for w in [None, Some(&weights[..])] {
        let values: Vec<u64> = [1, 2, 7]
            .map(|t| on_threads(t, || parallel::evaluate(&m, y, s, w).unwrap().to_bits()))
            .to_vec();
        assert!(values.iter().all(|&v| v == values[0]), "{values:?}");
        let sequential = m.evaluate(y, s, w).unwrap();
        assert!((f64::from_bits(values[0]) - sequential).abs() < 1e-12);
    }
    let expected = m.per_sample(y, s).unwrap();
    for t in [1, 2, 7] {
        assert_eq!(
            on_threads(t, || parallel::per_sample(&m, y, s).unwrap()),
            expected
        );
    }
}

#[test]
fn any_thread_count_gives_the_same_bits() {
    let (y, s) = input();
    for ties in TiePolicy::R_METHODS.into_iter().chain(TiePolicy::ANALYSIS) {
        check(AveragePrecision::new(ties), &y, &s);
        check(RankingLoss::new(ties), &y, &s);
        check(Coverage::new(ties), &y, &s);
        check(Ndcg::new(ties).with_k(Some(3)).unwrap(), &y, &s);
    }
    check(OneError::new(TiePolicy::Random(3)), &y, &s);
}

#[test]
fn sequential_summation_keeps_its_bits() {
    let (y, s) = input();
    let m = mulan::AveragePrecision;
    let sequential = m.evaluate(&y, &s, None).unwrap();
    let parallel = on_threads(2, || parallel::evaluate(&m, &y, &s, None).unwrap());
    assert_eq!(parallel.to_bits(), sequential.to_bits());
}

#[test]
fn the_first_bad_row_is_reported() {
    let (y, mut s) = input();
    s[9_000][2] = f64::NAN;
    s[7_000][5] = f64::INFINITY;
    let m = sklearn::LABEL_RANKING_AVERAGE_PRECISION_SCORE;
    let expected = m.evaluate(&y, &s, None).unwrap_err();
    assert!(matches!(expected, Error::NonFiniteScore { row: 7_000, .. }));
    for t in [1, 2, 7] {
        assert_eq!(
            on_threads(t, || parallel::evaluate(&m, &y, &s, None)).unwrap_err(),
            expected
        );
    }
}
