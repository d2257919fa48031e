//! Row-parallel evaluation (feature `rayon`): bitwise the sequential value on 1, 2 or 7 threads
//! (accumulators too), the sequential per-sample values, and the sequential error for the first
//! bad row.
#![cfg(feature = "rayon")]

use rankmetrics::*;

const ROWS: usize = 10_000; // several chunks of parallel::CHUNK_ROWS
const LABELS: usize = 9;

/// Scores in steps of 0.125 (many ties) and about 30 % relevant labels, from xorshift64*.
fn input() -> (Vec<Vec<u8>>, Vec<Vec<f64>>) {
    input_of(ROWS)
}

fn input_of(rows: usize) -> (Vec<Vec<u8>>, Vec<Vec<f64>>) {
    let mut state = 0x5EED_u64;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40
    };
    let mut y = Vec::with_capacity(rows);
    let mut s = Vec::with_capacity(rows);
    for _ in 0..rows {
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
        let sequential = m.evaluate(y, s, w).unwrap().to_bits();
        for t in [1, 2, 7] {
            let parallel = on_threads(t, || parallel::evaluate(&m, y, s, w).unwrap());
            assert_eq!(parallel.to_bits(), sequential, "{t} threads");
        }
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
fn windows_and_accumulators_keep_the_sequential_bits() {
    // More rows than two windows, so that values are summed across windows.
    let rows = 2 * parallel::WINDOW_ROWS + 5;
    let (y, mut s) = input_of(rows);
    let weights: Vec<f64> = (0..rows).map(|i| (i % 5) as f64 * 0.5).collect();
    let m = AveragePrecision::new(TiePolicy::Max);
    let sequential = m.evaluate(&y, &s, Some(&weights[..])).unwrap();
    let parallel = on_threads(2, || parallel::evaluate(&m, &y, &s, Some(&weights[..])));
    assert_eq!(parallel.unwrap().to_bits(), sequential.to_bits());
    // Batches through an accumulator, parallel inside each batch.
    let mut acc = m.accumulator();
    for (k, rows) in [0..1_000, 1_000..rows].into_iter().enumerate() {
        let (yb, sb, wb) = (&y[rows.clone()], &s[rows.clone()], &weights[rows]);
        on_threads(1 + k, || acc.update_parallel(yb, sb, Some(wb))).unwrap();
    }
    assert_eq!(acc.value().unwrap().to_bits(), sequential.to_bits());
    // A bad row in the second window: its error, as sequentially.
    s[parallel::WINDOW_ROWS + 17][1] = f64::NEG_INFINITY;
    let expected = m.evaluate(&y, &s, None).unwrap_err();
    assert!(
        matches!(expected, Error::NonFiniteScore { row, .. } if row == parallel::WINDOW_ROWS + 17)
    );
    assert_eq!(
        on_threads(2, || parallel::evaluate(&m, &y, &s, None)).unwrap_err(),
        expected
    );
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

/// Evaluations nested in a parallel loop (each caller a pool thread that waits for its own
/// chunks while running others' chunks), and one from a thread outside any pool (the global
/// pool ranks; the caller waits): every value is the sequential one.
#[test]
fn nested_and_outside_callers_get_the_sequential_bits() {
    use rayon::prelude::*;
    let (y, s) = input();
    let m = AveragePrecision::new(TiePolicy::Max);
    let sequential = m.evaluate(&y, &s, None).unwrap().to_bits();
    for t in [1, 2, 3] {
        let values: Vec<u64> = on_threads(t, || {
            (0..6)
                .into_par_iter()
                .map(|_| parallel::evaluate(&m, &y, &s, None).unwrap().to_bits())
                .collect()
        });
        assert_eq!(values, vec![sequential; 6], "{t} threads");
    }
    let outside = std::thread::spawn(move || parallel::evaluate(&m, &y, &s, None).unwrap());
    assert_eq!(outside.join().unwrap().to_bits(), sequential);
}
