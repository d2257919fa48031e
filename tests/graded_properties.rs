//! Properties of DCG and NDCG: agreement with a naive reference written from the sorted
//! definition (every order of the tie groups enumerated for `Average`), NDCG(y, y) = 1, and
//! how weights combine rows.

use proptest::prelude::*;
use rankmetrics::{Dcg, LabelDomain, Ndcg, RankingMetric, RowMetric, TiePolicy};

/// The discount of 1-based position `r` under truncation `k`, base 2.
fn discount(r: usize, k: Option<usize>) -> f64 {
    if k.is_some_and(|k| r > k) {
        0.0
    } else {
        1.0 / ((r as f64 + 1.0).ln() / 2f64.ln())
    }
}

/// DCG of the columns taken in `order`.
fn dcg_of_order(gains: &[f64], order: &[usize], k: Option<usize>) -> f64 {
    order
        .iter()
        .enumerate()
        .map(|(i, &j)| gains[j] * discount(i + 1, k))
        .sum()
}

/// The tie groups of a row, best score first, each in ascending column order.
fn tie_groups(scores: &[f64]) -> Vec<Vec<usize>> {
    let mut columns: Vec<usize> = (0..scores.len()).collect();
    // `partial_cmp`, not `total_cmp`: -0.0 ties with 0.0 (the scores are finite).
    columns.sort_by(|&a, &b| scores[b].partial_cmp(&scores[a]).unwrap().then(a.cmp(&b)));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for j in columns {
        match groups.last_mut() {
            Some(g) if scores[g[0]] == scores[j] => g.push(j),
            _ => groups.push(vec![j]),
        }
    }
    groups
}

/// Every permutation of `items`.
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut all = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            all.push(p);
        }
    }
    all
}

/// Every full order obtained by permuting each tie group independently.
fn all_orders(groups: &[Vec<usize>]) -> Vec<Vec<usize>> {
    groups.iter().fold(vec![Vec::new()], |orders, group| {
        let perms = permutations(group);
        orders
            .iter()
            .flat_map(|o| {
                perms.iter().map(move |p| {
                    let mut o = o.clone();
                    o.extend(p);
                    o
                })
            })
            .collect()
    })
}

/// The reference DCG of one row under `ties`, from the definitions.
fn naive_dcg(gains: &[f64], scores: &[f64], ties: TiePolicy, k: Option<usize>) -> f64 {
    let groups = tie_groups(scores);
    match ties {
        TiePolicy::First => dcg_of_order(gains, &groups.concat(), k),
        TiePolicy::Last => {
            let reversed: Vec<Vec<usize>> = groups
                .iter()
                .map(|g| g.iter().rev().copied().collect())
                .collect();
            dcg_of_order(gains, &reversed.concat(), k)
        }
        TiePolicy::Average => {
            let orders = all_orders(&groups);
            let total: f64 = orders.iter().map(|o| dcg_of_order(gains, o, k)).sum();
            total / orders.len() as f64
        }
        TiePolicy::Max | TiePolicy::Min => {
            let mut offset = 0;
            let mut dcg = 0.0;
            for g in &groups {
                let position = if ties == TiePolicy::Max {
                    offset + g.len()
                } else {
                    offset + 1
                };
                dcg += g.iter().map(|&j| gains[j]).sum::<f64>() * discount(position, k);
                offset += g.len();
            }
            dcg
        }
        _ => unreachable!("deterministic policies only"),
    }
}

/// The reference NDCG of one row.
fn naive_ndcg(gains: &[f64], scores: &[f64], ties: TiePolicy, k: Option<usize>) -> f64 {
    let mut ideal = gains.to_vec();
    ideal.sort_by(|a, b| b.total_cmp(a));
    let idcg = dcg_of_order(&ideal, &(0..ideal.len()).collect::<Vec<_>>(), k);
    if idcg == 0.0 {
        0.0
    } else {
        naive_dcg(gains, scores, ties, k) / idcg
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1.0)
}

/// Rows of equal length with few distinct scores (many ties, `-0.0` among them), gains from
/// `gain_values`, and a truncation from none to beyond the row length.
fn graded_input(
    gain_values: &'static [f64],
) -> impl Strategy<Value = (Vec<Vec<f64>>, Vec<Vec<f64>>, Option<usize>)> {
    const SCORES: [f64; 5] = [0.0, -0.0, 0.25, 0.5, 1.0];
    (1usize..=6, 1usize..=4).prop_flat_map(move |(l, n)| {
        let gains = prop::collection::vec(
            prop::collection::vec(prop::sample::select(gain_values), l),
            n,
        );
        let scores = prop::collection::vec(
            prop::collection::vec(prop::sample::select(&SCORES[..]), l),
            n,
        );
        let k = prop::option::of(1usize..=l + 1);
        (gains, scores, k)
    })
}

const ANY_GAIN: &[f64] = &[0.0, 0.0, 1.0, 2.0, 3.0, 0.5, -1.0];
const NON_NEGATIVE_GAIN: &[f64] = &[0.0, 0.0, 1.0, 2.0, 3.0, 0.5, 2.25];

proptest! {
    #[test]
    fn dcg_matches_the_naive_definition((gains, scores, k) in graded_input(ANY_GAIN)) {
        for ties in TiePolicy::R_METHODS {
            let dcg = Dcg::new(ties).with_k(k).unwrap();
            let values = dcg.per_sample(&gains, &scores).unwrap();
            for (i, v) in values.iter().enumerate() {
                let expected = naive_dcg(&gains[i], &scores[i], ties, k);
                prop_assert!(close(v.unwrap(), expected), "{ties:?} row {i}: {v:?} vs {expected}");
            }
        }
    }

    #[test]
    fn ndcg_matches_the_naive_definition((gains, scores, k) in graded_input(NON_NEGATIVE_GAIN)) {
        for ties in TiePolicy::R_METHODS {
            let ndcg = Ndcg::new(ties).with_k(k).unwrap();
            let values = ndcg.per_sample(&gains, &scores).unwrap();
            for (i, v) in values.iter().enumerate() {
                let expected = naive_ndcg(&gains[i], &scores[i], ties, k);
                prop_assert!(close(v.unwrap(), expected), "{ties:?} row {i}: {v:?} vs {expected}");
            }
        }
    }

    /// Ranking by the gains themselves is ideal whatever the policy does with the ties
    /// (they are ties between equal gains), except `Max`/`Min`, which move whole groups.
    #[test]
    fn ndcg_of_the_gains_themselves_is_one((gains, _, k) in graded_input(NON_NEGATIVE_GAIN)) {
        for ties in [TiePolicy::Average, TiePolicy::First, TiePolicy::Last, TiePolicy::Random(7)] {
            let ndcg = Ndcg::new(ties).with_k(k).unwrap();
            let values = ndcg.per_sample(&gains, &gains).unwrap();
            for (row, v) in gains.iter().zip(values) {
                let expected = if row.iter().any(|&g| g > 0.0) { 1.0 } else { 0.0 };
                prop_assert!(close(v.unwrap(), expected), "{ties:?} {row:?}: {v:?}");
            }
        }
    }

    /// NDCG lies in [0, 1] for non-negative gains under every policy but `Min` (which gives a
    /// whole group its best discount and can beat the ideal).
    #[test]
    fn ndcg_is_at_most_one((gains, scores, k) in graded_input(NON_NEGATIVE_GAIN)) {
        for ties in [TiePolicy::Average, TiePolicy::First, TiePolicy::Last, TiePolicy::Max] {
            let ndcg = Ndcg::new(ties).with_k(k).unwrap();
            for v in ndcg.per_sample(&gains, &scores).unwrap() {
                let v = v.unwrap();
                prop_assert!((0.0..=1.0 + 1e-12).contains(&v), "{ties:?}: {v}");
            }
        }
    }

    /// The weighted mean is Σ w·v / Σ w of the per-row values; integer weights repeat rows;
    /// scaling every weight changes nothing.
    #[test]
    fn weights_combine_rows(
        (gains, scores, k) in graded_input(NON_NEGATIVE_GAIN),
        raw in prop::collection::vec(0u8..4, 4),
    ) {
        let weights: Vec<f64> = raw[..gains.len()].iter().map(|&w| f64::from(w)).collect();
        prop_assume!(weights.iter().sum::<f64>() > 0.0);
        let ndcg = Ndcg::new(TiePolicy::Average).with_k(k).unwrap();
        let weighted = ndcg.evaluate(&gains, &scores, Some(&weights)).unwrap();

        let values = ndcg.per_sample(&gains, &scores).unwrap();
        let sum: f64 = values.iter().zip(&weights).map(|(v, w)| v.unwrap() * w).sum();
        prop_assert!(close(weighted, sum / weights.iter().sum::<f64>()));

        let (mut g, mut s) = (Vec::new(), Vec::new());
        for (i, &w) in raw[..gains.len()].iter().enumerate() {
            for _ in 0..w {
                g.push(gains[i].clone());
                s.push(scores[i].clone());
            }
        }
        prop_assert!(close(weighted, ndcg.evaluate(&g, &s, None).unwrap()));

        let scaled: Vec<f64> = weights.iter().map(|w| w * 0.375).collect();
        prop_assert!(close(weighted, ndcg.evaluate(&gains, &scores, Some(&scaled)).unwrap()));
    }

    /// DCG is linear in the gains: scaling them scales it (NDCG is unchanged).
    #[test]
    fn dcg_scales_with_the_gains((gains, scores, k) in graded_input(NON_NEGATIVE_GAIN)) {
        let tripled: Vec<Vec<f64>> =
            gains.iter().map(|r| r.iter().map(|g| 3.0 * g).collect()).collect();
        for ties in TiePolicy::R_METHODS {
            let dcg = Dcg::new(ties).with_k(k).unwrap();
            let (a, b) = (dcg.evaluate(&gains, &scores, None).unwrap(), dcg.evaluate(&tripled, &scores, None).unwrap());
            prop_assert!(close(b, 3.0 * a));
            let ndcg = Ndcg::new(ties).with_k(k).unwrap().with_label_domain(LabelDomain::NonZero);
            let (a, b) = (ndcg.evaluate(&gains, &scores, None).unwrap(), ndcg.evaluate(&tripled, &scores, None).unwrap());
            prop_assert!(close(a, b));
        }
    }
}
