//! Properties of the label-wise metrics against naive references written from the definitions.

use proptest::prelude::*;
use rankmetrics::{Average, LabelAveragePrecision, RankingMetric, RocAuc, TiePolicy};

/// A column of n (label, coarse score, weight) triples: coarse scores make ties common.
fn column() -> impl Strategy<Value = Vec<(u8, f64, f64)>> {
    prop::collection::vec((0u8..2, 0u8..6, 0u8..4), 1..30).prop_map(|v| {
        v.into_iter()
            .map(|(y, s, w)| (y, f64::from(s) / 4.0, f64::from(w) * 0.5))
            .collect()
    })
}

fn as_matrices(col: &[(u8, f64, f64)]) -> (Vec<Vec<u8>>, Vec<Vec<f64>>, Vec<f64>) {
    (
        col.iter().map(|c| vec![c.0]).collect(),
        col.iter().map(|c| vec![c.1]).collect(),
        col.iter().map(|c| c.2).collect(),
    )
}

/// Σ over (relevant i, irrelevant j) of wᵢwⱼ[1(sᵢ>sⱼ) + ½·1(sᵢ=sⱼ)] / (W₊W₋).
fn naive_auc(col: &[(u8, f64, f64)], weighted: bool) -> f64 {
    let w = |c: &(u8, f64, f64)| if weighted { c.2 } else { 1.0 };
    let (mut credit, mut wp, mut wn) = (0.0, 0.0, 0.0);
    for p in col.iter().filter(|c| c.0 == 1) {
        wp += w(p);
        for n in col.iter().filter(|c| c.0 == 0) {
            let pair = if p.1 > n.1 {
                1.0
            } else if p.1 == n.1 {
                0.5
            } else {
                0.0
            };
            credit += w(p) * w(n) * pair;
        }
    }
    for n in col.iter().filter(|c| c.0 == 0) {
        wn += w(n);
    }
    credit / (wp * wn)
}

/// Threshold by threshold, from the highest distinct score down: AP = Σ (Rₜ − Rₜ₋₁)·Pₜ.
fn naive_ap(col: &[(u8, f64, f64)], weighted: bool) -> f64 {
    let w = |c: &(u8, f64, f64)| if weighted { c.2 } else { 1.0 };
    let total: f64 = col.iter().filter(|c| c.0 == 1).map(w).sum();
    let mut thresholds: Vec<f64> = col.iter().map(|c| c.1).collect();
    thresholds.sort_by(|a, b| b.partial_cmp(a).unwrap());
    thresholds.dedup();
    let (mut ap, mut recall_before) = (0.0, 0.0);
    for t in thresholds {
        let at_or_above = col.iter().filter(|c| c.1 >= t);
        let tp: f64 = at_or_above.clone().filter(|c| c.0 == 1).map(w).sum();
        let all: f64 = at_or_above.map(w).sum();
        let recall = tp / total;
        if recall > recall_before {
            ap += (recall - recall_before) * tp / all;
        }
        recall_before = recall;
    }
    ap
}

fn close(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-12 * b.abs().max(1.0)
}

proptest! {
    #[test]
    fn auc_is_the_pair_count(col in column()) {
        let (y, s, w) = as_matrices(&col);
        let auc = RocAuc::new(Average::Macro, TiePolicy::Average);
        let two_classes = col.iter().any(|c| c.0 == 1) && col.iter().any(|c| c.0 == 0);
        let got = auc.evaluate(&y, &s, None).unwrap();
        if two_classes {
            prop_assert!(close(got, naive_auc(&col, false)), "{} vs {}", got, naive_auc(&col, false));
            let weighted = auc.evaluate(&y, &s, Some(&w)).unwrap();
            prop_assert!(close(weighted, naive_auc(&col, true)));
        } else {
            prop_assert!(got.is_nan());
        }
    }

    #[test]
    fn micro_auc_pools_the_cells(cols in prop::collection::vec(column(), 2..4)) {
        let n = cols.iter().map(Vec::len).min().unwrap();
        let y: Vec<Vec<u8>> = (0..n).map(|i| cols.iter().map(|c| c[i].0).collect()).collect();
        let s: Vec<Vec<f64>> = (0..n).map(|i| cols.iter().map(|c| c[i].1).collect()).collect();
        let pooled: Vec<_> = (0..n).flat_map(|i| cols.iter().map(move |c| c[i])).collect();
        let got = RocAuc::new(Average::Micro, TiePolicy::Average).evaluate(&y, &s, None).unwrap();
        prop_assert!(close(got, naive_auc(&pooled, false)));
    }

    #[test]
    fn ap_is_the_threshold_sum(col in column()) {
        let (y, s, w) = as_matrices(&col);
        let ap = LabelAveragePrecision::new(Average::Macro, TiePolicy::Max);
        let got = ap.evaluate(&y, &s, None).unwrap();
        if col.iter().any(|c| c.0 == 1) {
            prop_assert!(close(got, naive_ap(&col, false)), "{} vs {}", got, naive_ap(&col, false));
            if col.iter().any(|c| c.0 == 1 && c.2 > 0.0) {
                let weighted = ap.evaluate(&y, &s, Some(&w)).unwrap();
                prop_assert!(close(weighted, naive_ap(&col, true)), "{} vs {}", weighted, naive_ap(&col, true));
            }
        } else {
            prop_assert!(got.is_nan());
        }
    }

    #[test]
    fn increasing_transforms_change_nothing(col in column(), ties in prop::sample::select(vec![
        TiePolicy::Average, TiePolicy::Max, TiePolicy::Min, TiePolicy::First, TiePolicy::Last,
    ])) {
        let (y, s, w) = as_matrices(&col);
        // Strictly increasing and exact on these scores (quarters in [0, 1.25]).
        let t: Vec<Vec<f64>> = s.iter().map(|r| vec![8.0 * r[0] * r[0] * r[0] + r[0] - 3.0]).collect();
        let auc = RocAuc::new(Average::Macro, ties);
        let ap = LabelAveragePrecision::new(Average::Macro, ties);
        let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
        prop_assert!(same(auc.evaluate(&y, &s, Some(&w)).unwrap(), auc.evaluate(&y, &t, Some(&w)).unwrap()));
        prop_assert!(same(ap.evaluate(&y, &s, Some(&w)).unwrap(), ap.evaluate(&y, &t, Some(&w)).unwrap()));
    }

    #[test]
    fn tie_policies_bracket_the_average(col in column()) {
        let (y, s, _) = as_matrices(&col);
        let at = |t| RocAuc::new(Average::Macro, t).evaluate(&y, &s, None).unwrap();
        let (max, avg, min) = (at(TiePolicy::Max), at(TiePolicy::Average), at(TiePolicy::Min));
        if !avg.is_nan() {
            prop_assert!(max <= avg && avg <= min);
            prop_assert!(close(avg, (max + min) / 2.0));
            let (first, last) = (at(TiePolicy::First), at(TiePolicy::Last));
            prop_assert!(max <= first.min(last) && first.max(last) <= min);
        }
    }
}
