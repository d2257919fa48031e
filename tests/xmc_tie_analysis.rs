//! Expected, Optimistic and Pessimistic of the extreme-classification top-k metrics checked
//! without their closed forms: on small inputs with heavy ties, enumerate every ordering of
//! every tie group, evaluate each resulting strict ranking through the ordinary code path, and
//! compare the mean, best and worst with the three policies (weighted and unweighted). The
//! harness is tests/tie_analysis.rs's, for rows.

mod common;

use common::{row_vectors, same, strict_rescorings, Rng};
use rankmetrics::registry::{Convention, Preset};
use rankmetrics::{Error, PsNdcgAtK, PsPrecisionAtK, RankingMetric, RowMajor, TiePolicy};

struct Input {
    n: usize,
    l: usize,
    y_true: Vec<f64>,
    y_score: Vec<f64>,
    weights: Option<Vec<f64>>,
    /// Inverse propensities for the propensity-scored metrics.
    propensities: Vec<f64>,
}

type Evaluate = Box<dyn Fn(&Input, &[f64], TiePolicy) -> Result<f64, Error>>;

/// Every top-k metric, through the registry where it is there, at several k.
fn subjects() -> Vec<(String, Evaluate)> {
    let mut s: Vec<(String, Evaluate)> = vec![];
    for metric in ["precision_at_k", "recall_at_k", "ndcg_at_k"] {
        for k in ["1", "2", "3", "5"] {
            let params = vec![("k".to_string(), k.to_string())];
            s.push((
                format!("{metric} k={k}"),
                Box::new(move |input, scores, ties| {
                    let preset =
                        Preset::lookup(Convention::Rankmetrics, metric, &params, Some(ties))
                            .expect("preset");
                    let y = RowMajor::new(&input.y_true, input.n, input.l)?;
                    let s = RowMajor::new(scores, input.n, input.l)?;
                    preset.evaluate(&y, &s, input.weights.as_deref())
                }),
            ));
        }
    }
    for k in [1, 2, 3] {
        s.push((
            format!("PSP@{k}"),
            Box::new(move |input, scores, ties| {
                let m = PsPrecisionAtK::new(ties, k, input.propensities.clone())?;
                let y = RowMajor::new(&input.y_true, input.n, input.l)?;
                let s = RowMajor::new(scores, input.n, input.l)?;
                m.evaluate(&y, &s, input.weights.as_deref())
            }),
        ));
        s.push((
            format!("PSnDCG@{k}"),
            Box::new(move |input, scores, ties| {
                let m = PsNdcgAtK::new(ties, k, input.propensities.clone())?;
                let y = RowMajor::new(&input.y_true, input.n, input.l)?;
                let s = RowMajor::new(scores, input.n, input.l)?;
                m.evaluate(&y, &s, input.weights.as_deref())
            }),
        ));
    }
    s
}

fn random_input(rng: &mut Rng) -> Input {
    let n = 1 + rng.below(3);
    let l = 2 + rng.below(4);
    let levels = [0.0, 0.5, 1.0];
    let y_score = (0..n * l).map(|_| levels[rng.below(3)]).collect();
    let y_true = (0..n * l).map(|_| rng.below(2) as f64).collect();
    let weights = (rng.below(2) == 0).then(|| (0..n).map(|_| rng.below(4) as f64 * 0.5).collect());
    let propensities = (0..l).map(|_| 1.0 + rng.below(5) as f64 * 0.75).collect();
    Input {
        n,
        l,
        y_true,
        y_score,
        weights,
        propensities,
    }
}

#[test]
fn policies_equal_the_enumeration_of_every_tie_order() {
    let mut rng = Rng::seeded(0x7135_AB1E_5EED_0008);
    let mut checked = 0;
    for (name, evaluate) in subjects() {
        let mut inputs = 0;
        while inputs < 40 {
            let input = random_input(&mut rng);
            let Some(rescorings) =
                strict_rescorings(&input.y_score, &row_vectors(input.n, input.l), 400)
            else {
                continue;
            };
            inputs += 1;
            let what = format!(
                "{name} on y_true={:?} y_score={:?} w={:?} p={:?}",
                input.y_true, input.y_score, input.weights, input.propensities
            );
            let values: Vec<Result<f64, Error>> = rescorings
                .iter()
                .map(|strict| evaluate(&input, strict, TiePolicy::First))
                .collect();
            let expected = evaluate(&input, &input.y_score, TiePolicy::Expected);
            let optimistic = evaluate(&input, &input.y_score, TiePolicy::Optimistic);
            let pessimistic = evaluate(&input, &input.y_score, TiePolicy::Pessimistic);
            if values.iter().any(Result::is_err) {
                // An input error (zero total weight) does not depend on the order.
                assert!(values.iter().all(Result::is_err), "{what}");
                assert!(expected.is_err() && optimistic.is_err() && pessimistic.is_err());
                continue;
            }
            let values: Vec<f64> = values.into_iter().map(Result::unwrap).collect();
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let (e, o, p) = (expected.unwrap(), optimistic.unwrap(), pessimistic.unwrap());
            assert!(same(e, mean), "expected {e} != mean {mean}: {what}");
            assert!(same(o, max), "optimistic {o} != best {max}: {what}");
            assert!(same(p, min), "pessimistic {p} != worst {min}: {what}");
            checked += 1;
        }
    }
    println!("xmc tie analysis: {checked} inputs checked against full enumeration");
}

#[test]
fn average_is_expected_and_max_min_bracket_nothing() {
    // Average counts the straddling group's share, as Expected; Min can exceed every ordering.
    let y = [[1, 1, 1, 0]];
    let s = [[0.5, 0.5, 0.5, 0.1]];
    let p = |t| {
        Preset::lookup(
            Convention::Rankmetrics,
            "precision_at_k",
            &[("k", "1")],
            Some(t),
        )
        .unwrap()
        .evaluate(&y, &s, None::<&[f64]>)
        .unwrap()
    };
    assert_eq!(p(TiePolicy::Average), p(TiePolicy::Expected));
    assert_eq!(p(TiePolicy::Min), 3.0);
    assert_eq!(p(TiePolicy::Optimistic), 1.0);
    assert_eq!(p(TiePolicy::Max), 0.0);
}
