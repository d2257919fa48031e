//! The extreme-classification top-k metrics against naive references written straight from
//! their definitions (O(L²) pairwise comparisons, no kernel), under every tie policy, and the
//! top-k ranking path against the full sort.

mod common;

use common::Rng;
use proptest::prelude::*;
use rankmetrics::*;

const TOL: f64 = 1e-12;

const POLICIES: [TiePolicy; 9] = [
    TiePolicy::Max,
    TiePolicy::Min,
    TiePolicy::Average,
    TiePolicy::First,
    TiePolicy::Last,
    TiePolicy::Random(7),
    TiePolicy::Expected,
    TiePolicy::Optimistic,
    TiePolicy::Pessimistic,
];

/// A row with heavy ties: scores from a few levels, binary labels, weights in [1, 4].
fn random_row(rng: &mut Rng, l: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let levels = 1 + rng.below(4);
    let scores = (0..l).map(|_| rng.below(levels) as f64 / 4.0).collect();
    let labels = (0..l).map(|_| (rng.below(3) == 0) as u8 as f64).collect();
    let weights = (0..l).map(|_| 1.0 + rng.below(4) as f64).collect();
    (scores, labels, weights)
}

fn d(p: usize) -> f64 {
    1.0 / (p as f64 + 1.0).log2()
}

/// Where the policy puts label `j`: for each position 1..=L, with what weight (a
/// distribution for Average/Expected, one position or the shared rank otherwise).
fn placement(s: &[f64], g: &[f64], j: usize, t: TiePolicy) -> Vec<(usize, f64)> {
    let above = s.iter().filter(|&&x| x > s[j]).count();
    let tied: Vec<usize> = (0..s.len()).filter(|&i| s[i] == s[j]).collect();
    let m = tied.len();
    let before = |better: &dyn Fn(usize) -> bool| tied.iter().filter(|&&i| better(i)).count();
    match t {
        TiePolicy::Average | TiePolicy::Expected => (above + 1..=above + m)
            .map(|p| (p, 1.0 / m as f64))
            .collect(),
        TiePolicy::Max => vec![(above + m, 1.0)],
        TiePolicy::Min => vec![(above + 1, 1.0)],
        TiePolicy::First => vec![(above + 1 + before(&|i| i < j), 1.0)],
        TiePolicy::Last => vec![(above + 1 + before(&|i| i > j), 1.0)],
        TiePolicy::Optimistic => {
            vec![(
                above + 1 + before(&|i| g[i] > g[j] || (g[i] == g[j] && i < j)),
                1.0,
            )]
        }
        TiePolicy::Pessimistic => {
            vec![(
                above + 1 + before(&|i| g[i] < g[j] || (g[i] == g[j] && i < j)),
                1.0,
            )]
        }
        _ => unreachable!(),
    }
}

/// (weighted hits in the top k, weighted DCG@k), label by label.
fn naive(s: &[f64], y: &[f64], w: &[f64], k: usize, t: TiePolicy) -> (f64, f64) {
    let g: Vec<f64> = y.iter().zip(w).map(|(y, w)| y * w).collect();
    let (mut hits, mut dcg) = (0.0, 0.0);
    for j in (0..s.len()).filter(|&j| y[j] != 0.0) {
        for (p, prob) in placement(s, &g, j, t) {
            if p <= k {
                hits += g[j] * prob;
                dcg += g[j] * prob * d(p);
            }
        }
    }
    (hits, dcg)
}

fn ideal(n_relevant: usize, k: usize) -> f64 {
    (1..=n_relevant.min(k)).map(d).sum()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn top_k_metrics_equal_their_naive_definitions() {
    let mut rng = Rng::seeded(0x0C5E_ED00_0000_0001);
    let mut checked = 0;
    for _ in 0..400 {
        let l = 1 + rng.below(9);
        let k = 1 + rng.below(l + 2);
        let (s, y, w) = random_row(&mut rng, l);
        let n_rel = y.iter().filter(|&&v| v != 0.0).count();
        for t in POLICIES
            .into_iter()
            .filter(|t| !matches!(t, TiePolicy::Random(_)))
        {
            let (hits, dcg) = naive(&s, &y, &vec![1.0; l], k, t);
            let (ps_hits, ps_dcg) = naive(&s, &y, &w, k, t);
            let zero_if_none = |v: f64| if n_rel == 0 { 0.0 } else { v };
            let expected = [
                ("P@k", hits / k as f64),
                ("R@k", zero_if_none(hits / n_rel as f64)),
                ("nDCG@k", zero_if_none(dcg / ideal(n_rel, k))),
                ("PSP@k", ps_hits / k as f64),
                ("PSnDCG@k", zero_if_none(ps_dcg / ideal(n_rel, k))),
            ];
            let (ys, ss) = (vec![y.clone()], vec![s.clone()]);
            let got = [
                PrecisionAtK::new(t, k).unwrap().evaluate(&ys, &ss, None),
                RecallAtK::new(t, k).unwrap().evaluate(&ys, &ss, None),
                NdcgAtK::new(t, k).unwrap().evaluate(&ys, &ss, None),
                PsPrecisionAtK::new(t, k, w.clone())
                    .unwrap()
                    .evaluate(&ys, &ss, None),
                PsNdcgAtK::new(t, k, w.clone())
                    .unwrap()
                    .evaluate(&ys, &ss, None),
            ];
            for ((name, e), g) in expected.iter().zip(got) {
                let g = g.unwrap();
                assert!(
                    close(g, *e),
                    "{name} {t:?} k={k}: {g} vs {e} on s={s:?} y={y:?} w={w:?}"
                );
                checked += 1;
            }
        }
    }
    println!("{checked} values checked");
}

/// A metric ranked in full: the same formula without the top-k path.
struct Full<M>(M);

impl<M: RowMetric> RowMetric for Full<M> {
    fn options(&self) -> RowOptions {
        self.0.options()
    }
    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        self.0.row_value(row)
    }
    fn gain_weights(&self) -> Option<&[f64]> {
        self.0.gain_weights()
    }
}

#[test]
fn the_top_k_path_equals_the_full_sort_bitwise() {
    let mut rng = Rng::seeded(0x0C5E_ED00_0000_0002);
    for _ in 0..300 {
        let (n, l) = (1 + rng.below(4), 1 + rng.below(700));
        let k = 1 + rng.below(12);
        let rows: Vec<_> = (0..n).map(|_| random_row(&mut rng, l)).collect();
        let s: Vec<Vec<f64>> = rows.iter().map(|r| r.0.clone()).collect();
        let y: Vec<Vec<f64>> = rows.iter().map(|r| r.1.clone()).collect();
        let w = rows[0].2.clone();
        for t in POLICIES {
            let pairs = [
                (
                    PrecisionAtK::new(t, k).unwrap().evaluate(&y, &s, None),
                    Full(PrecisionAtK::new(t, k).unwrap()).evaluate(&y, &s, None),
                ),
                (
                    RecallAtK::new(t, k).unwrap().evaluate(&y, &s, None),
                    Full(RecallAtK::new(t, k).unwrap()).evaluate(&y, &s, None),
                ),
                (
                    NdcgAtK::new(t, k).unwrap().evaluate(&y, &s, None),
                    Full(NdcgAtK::new(t, k).unwrap()).evaluate(&y, &s, None),
                ),
                (
                    PsNdcgAtK::new(t, k, w.clone())
                        .unwrap()
                        .evaluate(&y, &s, None),
                    Full(PsNdcgAtK::new(t, k, w.clone()).unwrap()).evaluate(&y, &s, None),
                ),
            ];
            for (top, full) in pairs {
                assert_eq!(
                    top.unwrap().to_bits(),
                    full.unwrap().to_bits(),
                    "{t:?} k={k} l={l}"
                );
            }
        }
    }
}

#[test]
fn rank_top_blocks_are_a_prefix_of_the_full_ranking() {
    let mut rng = Rng::seeded(0x0C5E_ED00_0000_0003);
    let (mut full, mut top) = (Ranker::new(), Ranker::new());
    for row in 0..200 {
        let l = 1 + rng.below(1000);
        let (s, y, _) = random_row(&mut rng, l);
        // Some rows continuous (few ties), some with one huge tie group.
        let s: Vec<f32> = if row % 2 == 0 {
            (0..l).map(|_| rng.below(1 << 20) as f32).collect()
        } else {
            s.iter().map(|&x| x as f32).collect()
        };
        let k = 1 + rng.below(20);
        for t in POLICIES {
            let ranking = Ranking::new(t);
            let f = full.rank(&s, &y, ranking, row);
            let p = top.rank_top(&s, &y, ranking, row, k);
            assert!(p.covers_top(k));
            let c = p.covered();
            assert_eq!(p.order(), &f.order()[..c], "{t:?} k={k}");
            assert_eq!(p.blocks(), &f.blocks()[..p.blocks().len()]);
            assert_eq!(
                (p.n_labels(), p.n_relevant()),
                (f.n_labels(), f.n_relevant())
            );
            // The top is whole: it ends at a group boundary at or after k.
            assert!(c == l || f.blocks().iter().any(|b| b.start == c) || p.sharing().is_none());
            assert!(c >= k.min(l));
        }
    }
}

#[test]
fn ndcg_at_k_is_sklearn_ndcg_with_k_on_binary_labels() {
    let mut rng = Rng::seeded(0x0C5E_ED00_0000_0004);
    for _ in 0..300 {
        let (n, l) = (1 + rng.below(5), 1 + rng.below(9));
        let k = 1 + rng.below(l + 1);
        let rows: Vec<_> = (0..n).map(|_| random_row(&mut rng, l)).collect();
        let s: Vec<Vec<f64>> = rows.iter().map(|r| r.0.clone()).collect();
        let y: Vec<Vec<f64>> = rows.iter().map(|r| r.1.clone()).collect();
        // sklearn's default (tie-averaged) and ignore_ties=True.
        for t in [TiePolicy::Average, TiePolicy::Last] {
            let xmc = NdcgAtK::new(t, k).unwrap().evaluate(&y, &s, None).unwrap();
            let sk = Ndcg::new(t).with_k(Some(k)).unwrap();
            let sk = sk.evaluate(&y, &s, None).unwrap();
            assert_eq!(xmc.to_bits(), sk.to_bits(), "{t:?} k={k}: {xmc} vs {sk}");
        }
    }
}

#[test]
fn normalised_propensity_metrics_are_ratios_of_means() {
    let mut rng = Rng::seeded(0x0C5E_ED00_0000_0005);
    for _ in 0..200 {
        let (n, l) = (1 + rng.below(5), 2 + rng.below(8));
        let k = 1 + rng.below(l);
        let rows: Vec<_> = (0..n).map(|_| random_row(&mut rng, l)).collect();
        // Distinct scores: no ties, so the reference can sort.
        let s: Vec<Vec<f64>> = (0..n)
            .map(|_| (0..l).map(|_| rng.below(1 << 30) as f64).collect())
            .collect();
        let y: Vec<Vec<f64>> = rows.iter().map(|r| r.1.clone()).collect();
        let w = rows[0].2.clone();
        let (mut num, mut den) = (0.0, 0.0);
        for i in 0..n {
            let g: Vec<f64> = (0..l).map(|j| y[i][j] * w[j]).collect();
            let mut by_score: Vec<usize> = (0..l).collect();
            by_score.sort_by(|&a, &b| s[i][b].total_cmp(&s[i][a]));
            let mut best = g.clone();
            best.sort_by(|a, b| b.total_cmp(a));
            num += by_score[..k].iter().map(|&j| g[j]).sum::<f64>() / k as f64;
            den += best[..k].iter().sum::<f64>() / k as f64;
        }
        let psp = PsPrecisionAtK::new(TiePolicy::Average, k, w.clone()).unwrap();
        let v = psp.normalised(&y, &s, None).unwrap();
        let e = num / den;
        assert!(close(v, e) || (v.is_nan() && e.is_nan()), "{v} vs {e}");
    }
}

#[test]
fn propensity_scored_metrics_with_unit_weights_are_the_plain_ones() {
    let mut rng = Rng::seeded(0x0C5E_ED00_0000_0006);
    for _ in 0..200 {
        let (n, l) = (1 + rng.below(4), 1 + rng.below(9));
        let k = 1 + rng.below(l + 1);
        let rows: Vec<_> = (0..n).map(|_| random_row(&mut rng, l)).collect();
        let s: Vec<Vec<f64>> = rows.iter().map(|r| r.0.clone()).collect();
        let y: Vec<Vec<f64>> = rows.iter().map(|r| r.1.clone()).collect();
        for t in POLICIES {
            let ones = vec![1.0; l];
            let psp = PsPrecisionAtK::new(t, k, ones.clone())
                .unwrap()
                .evaluate(&y, &s, None);
            let p = PrecisionAtK::new(t, k).unwrap().evaluate(&y, &s, None);
            assert_eq!(psp.unwrap(), p.unwrap(), "{t:?}");
            let psn = PsNdcgAtK::new(t, k, ones).unwrap().evaluate(&y, &s, None);
            let nd = NdcgAtK::new(t, k).unwrap().evaluate(&y, &s, None);
            assert_eq!(psn.unwrap(), nd.unwrap(), "{t:?}");
        }
    }
}

/// Rows of `l` labels with heavy ties (scores from at most three levels, most of a row tied),
/// binary labels, and a `k` below `l`, so that a tie group straddles the top-k boundary.
fn straddling_rows() -> impl Strategy<Value = (Vec<Vec<f64>>, Vec<Vec<f64>>, usize)> {
    (3usize..12, 1usize..5)
        .prop_flat_map(|(l, n)| {
            let row = (
                prop::collection::vec(0u8..3, l),
                prop::collection::vec(prop::bool::weighted(0.4), l),
            );
            let rows = prop::collection::vec(row, n).prop_map(|rows| {
                let s = rows
                    .iter()
                    .map(|(s, _)| s.iter().map(|&v| v as f64 / 2.0).collect());
                let y = rows
                    .iter()
                    .map(|(_, y)| y.iter().map(|&v| v as u8 as f64).collect());
                (s.collect::<Vec<Vec<f64>>>(), y.collect::<Vec<Vec<f64>>>())
            });
            (rows, 1..l)
        })
        .prop_map(|((s, y), k)| (s, y, k))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Recall@k row by row against the naive placement of each relevant label, under every
    /// policy; the mean is the mean of the rows. `Random` has no closed form: its value is a
    /// count of hits over |y| between the pessimistic and the optimistic placement.
    #[test]
    fn recall_at_k_equals_its_naive_definition((s, y, k) in straddling_rows()) {
        let l = s[0].len();
        let optimistic = RecallAtK::new(TiePolicy::Optimistic, k).unwrap().per_sample(&y, &s).unwrap();
        let pessimistic = RecallAtK::new(TiePolicy::Pessimistic, k).unwrap().per_sample(&y, &s).unwrap();
        for t in POLICIES {
            let m = RecallAtK::new(t, k).unwrap();
            let rows = m.per_sample(&y, &s).unwrap();
            for (i, got) in rows.iter().enumerate() {
                let got = got.unwrap();
                let n_rel = y[i].iter().filter(|&&v| v != 0.0).count();
                if n_rel == 0 {
                    prop_assert_eq!(got, 0.0);
                    continue;
                }
                if let TiePolicy::Random(_) = t {
                    let hits = got * n_rel as f64;
                    prop_assert!(close(hits, hits.round()), "{t:?} row {i}: {got}");
                    let (low, high) = (pessimistic[i].unwrap(), optimistic[i].unwrap());
                    prop_assert!(low - 1e-12 <= got && got <= high + 1e-12, "{t:?} row {i}: {got} outside [{low}, {high}]");
                    continue;
                }
                let (hits, _) = naive(&s[i], &y[i], &vec![1.0; l], k, t);
                let expected = hits / n_rel as f64;
                prop_assert!(close(got, expected), "{t:?} k={k} row {i}: {got} vs {expected} on s={:?} y={:?}", s[i], y[i]);
            }
            let mean = rows.iter().map(|v| v.unwrap()).sum::<f64>() / rows.len() as f64;
            let whole = m.evaluate(&y, &s, None).unwrap();
            prop_assert!(close(whole, mean), "{t:?}: {whole} vs mean of rows {mean}");
        }
    }
}
