//! Sparse labels give bitwise the dense result: every preset of every convention (row-wise,
//! graded and label-wise), under every tie policy, plus the propensity-scored metrics, on
//! random inputs with ties, binary and graded, weighted and unweighted.

mod common;

use common::Rng;
use rankmetrics::registry::{Convention, Preset};
use rankmetrics::{PsNdcgAtK, PsPrecisionAtK, RankingMetric, RowMajor, SparseLabels, TiePolicy};

/// A dense label matrix and its CSR form.
fn random_labels(rng: &mut Rng, n: usize, l: usize, graded: bool) -> (Vec<f64>, SparseLabels) {
    let mut dense = vec![0.0; n * l];
    let (mut indptr, mut indices, mut gains) = (vec![0], vec![], vec![]);
    for i in 0..n {
        for j in 0..l {
            if rng.below(3) == 0 {
                let g = if graded {
                    1.0 + rng.below(3) as f64
                } else {
                    1.0
                };
                dense[i * l + j] = g;
                indices.push(j as u32);
                gains.push(g);
            }
        }
        indptr.push(indices.len());
    }
    let sparse = SparseLabels::new(l, indptr, indices, graded.then_some(gains)).unwrap();
    (dense, sparse)
}

fn same(a: &Result<f64, rankmetrics::Error>, b: &Result<f64, rankmetrics::Error>) -> bool {
    match (a, b) {
        (Ok(x), Ok(y)) => x.to_bits() == y.to_bits(),
        (Err(x), Err(y)) => x == y,
        _ => false,
    }
}

#[test]
fn every_preset_gives_bitwise_the_dense_value() {
    let mut rng = Rng::seeded(0x5BA7_5E00_0000_0001);
    let mut checked = 0;
    for case in 0..60 {
        let (n, l) = (1 + rng.below(6), 1 + rng.below(12));
        let (dense, sparse) = random_labels(&mut rng, n, l, case % 3 == 0);
        let scores: Vec<f64> = (0..n * l).map(|_| rng.below(4) as f64 / 4.0).collect();
        let weights: Option<Vec<f64>> =
            (case % 2 == 0).then(|| (0..n).map(|_| 0.5 + rng.below(3) as f64).collect());
        let y = RowMajor::new(&dense, n, l).unwrap();
        let s = RowMajor::new(&scores, n, l).unwrap();
        for convention in Convention::ALL {
            for &metric in convention.metric_names() {
                let params = [("k".to_string(), "3".to_string())];
                for ties in [None, Some(TiePolicy::Expected), Some(TiePolicy::Random(3))]
                    .into_iter()
                    .chain(TiePolicy::R_METHODS.map(Some))
                {
                    let Ok(p) = Preset::lookup(convention, metric, &params, ties) else {
                        continue;
                    };
                    let w = weights.as_deref();
                    let (a, b) = (p.evaluate(&y, &s, w), p.evaluate(&sparse, &s, w));
                    assert!(
                        same(&a, &b),
                        "{convention} {metric} {ties:?}: {a:?} vs {b:?}"
                    );
                    let (a, b) = (p.per_sample(&y, &s), p.per_sample(&sparse.view(), &s));
                    assert_eq!(format!("{a:?}"), format!("{b:?}"), "{convention} {metric}");
                    checked += 1;
                }
            }
        }
        if case % 3 != 0 {
            let inv: Vec<f64> = (0..l).map(|_| 1.0 + rng.below(5) as f64).collect();
            for t in [TiePolicy::Average, TiePolicy::Optimistic, TiePolicy::Last] {
                let psp = PsPrecisionAtK::new(t, 2, inv.clone()).unwrap();
                let psn = PsNdcgAtK::new(t, 2, inv.clone()).unwrap();
                assert!(same(
                    &psp.evaluate(&y, &s, None),
                    &psp.evaluate(&sparse, &s, None)
                ));
                assert!(same(
                    &psn.evaluate(&y, &s, None),
                    &psn.evaluate(&sparse, &s, None)
                ));
                assert!(same(
                    &psp.normalised(&y, &s, None),
                    &psp.normalised(&sparse, &s, None)
                ));
            }
        }
    }
    println!("{checked} preset evaluations compared");
}
