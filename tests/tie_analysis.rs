//! Expected, Optimistic and Pessimistic checked without their closed forms: on small inputs
//! with heavy ties, enumerate every ordering of every tie group, evaluate each resulting strict
//! ranking through the ordinary code path, and compare the mean, best and worst with the three
//! policies, for every preset of every convention (weighted and unweighted).

mod common;

use common::{row_vectors, same, strict_rescorings, Rng};
use rankmetrics::registry::{Convention, Preset};
use rankmetrics::{Error, RowMajor, TiePolicy};

/// Which items' order the metric reads: within rows, within columns, or all cells pooled.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Axis {
    Rows,
    Columns,
    Pooled,
}

struct Subject {
    convention: Convention,
    metric: &'static str,
    params: Vec<(String, String)>,
    axis: Axis,
    higher_is_better: bool,
    graded: bool,
}

fn subject(
    convention: Convention, metric: &'static str, params: &[(&str, &str)], axis: Axis,
    higher_is_better: bool,
) -> Subject {
    Subject {
        convention,
        metric,
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        axis,
        higher_is_better,
        graded: false,
    }
}

/// Every preset whose value depends only on the order of the items it ranks. mldr's AUCs are
/// left out: pROC picks their direction from the scores' medians, which a strict re-scoring of
/// the ties would change (docs/ties.md).
fn subjects() -> Vec<Subject> {
    use Axis::*;
    use Convention::*;
    let mut s = vec![];
    for (c, m, better) in [
        (Rankmetrics, "coverage", false),
        (Rankmetrics, "average_precision", true),
        (Rankmetrics, "ranking_loss", false),
        (Rankmetrics, "one_error", false),
        (Rankmetrics, "is_error", false),
        (Rankmetrics, "error_set_size", false),
        (Sklearn, "coverage_error", false),
        (Sklearn, "label_ranking_average_precision_score", true),
        (Sklearn, "label_ranking_loss", false),
        (Torchmetrics, "multilabel_coverage_error", false),
        (Torchmetrics, "multilabel_ranking_average_precision", true),
        (Torchmetrics, "multilabel_ranking_loss", false),
        (Mldr, "average_precision", true),
        (Mldr, "coverage", false),
        (Mldr, "one_error", false),
        (Mldr, "ranking_loss", false),
        (Mulan, "AveragePrecision", true),
        (Mulan, "Coverage", false),
        (Mulan, "OneError", false),
        (Mulan, "IsError", false),
        (Mulan, "ErrorSetSize", false),
        (Mulan, "RankingLoss", false),
    ] {
        s.push(subject(c, m, &[], Rows, better));
    }
    s.push(subject(
        Rankmetrics,
        "coverage",
        &[("one_based", "true")],
        Rows,
        false,
    ));
    for (c, m, p) in [
        (Rankmetrics, "dcg", &[][..]),
        (Rankmetrics, "ndcg", &[("k", "2")][..]),
        (Sklearn, "dcg_score", &[("k", "2")][..]),
        (Sklearn, "ndcg_score", &[][..]),
        (
            Torchmetrics,
            "retrieval_normalized_dcg",
            &[("top_k", "1")][..],
        ),
    ] {
        s.push(subject(c, m, p, Rows, true));
        let mut graded = subject(c, m, p, Rows, true);
        graded.graded = true;
        s.push(graded);
    }
    for metric in ["roc_auc_score", "average_precision_score"] {
        for (average, axis) in [
            ("macro", Columns),
            ("weighted", Columns),
            ("samples", Rows),
            ("micro", Pooled),
        ] {
            s.push(subject(
                Sklearn,
                metric,
                &[("average", average)],
                axis,
                true,
            ));
        }
    }
    for (m, axis) in [
        ("MacroAUC", Columns),
        ("MicroAUC", Pooled),
        ("MeanAveragePrecision", Columns),
        ("GeometricMeanAveragePrecision", Columns),
        ("MeanAverageInterpolatedPrecision", Columns),
        ("GeometricMeanAverageInterpolatedPrecision", Columns),
        ("MacroAUCPR", Columns),
    ] {
        s.push(subject(Mulan, m, &[], axis, true));
    }
    s
}

struct Input {
    n: usize,
    l: usize,
    y_true: Vec<f64>,
    y_score: Vec<f64>,
    weights: Option<Vec<f64>>,
}

fn random_input(rng: &mut Rng, graded: bool) -> Input {
    let n = 1 + rng.below(3);
    let l = 2 + rng.below(3);
    let levels = [0.0, 0.5, 1.0];
    let y_score = (0..n * l).map(|_| levels[rng.below(3)]).collect();
    let y_true = (0..n * l)
        .map(|_| {
            if graded {
                rng.below(4) as f64
            } else {
                rng.below(2) as f64
            }
        })
        .collect();
    let weights = (rng.below(2) == 0).then(|| (0..n).map(|_| rng.below(4) as f64 * 0.5).collect());
    Input {
        n,
        l,
        y_true,
        y_score,
        weights,
    }
}

/// The cells (as flat indices) of each vector the axis ranks.
fn vectors(axis: Axis, n: usize, l: usize) -> Vec<Vec<usize>> {
    match axis {
        Axis::Rows => row_vectors(n, l),
        Axis::Columns => (0..l)
            .map(|j| (0..n).map(|i| i * l + j).collect())
            .collect(),
        Axis::Pooled => vec![(0..n * l).collect()],
    }
}

fn evaluate(s: &Subject, input: &Input, scores: &[f64], ties: TiePolicy) -> Result<f64, Error> {
    let preset = Preset::lookup(s.convention, s.metric, &s.params, Some(ties)).expect("preset");
    let y_true = RowMajor::new(&input.y_true, input.n, input.l)?;
    let y_score = RowMajor::new(scores, input.n, input.l)?;
    preset.evaluate(&y_true, &y_score, input.weights.as_deref())
}

#[test]
fn policies_equal_the_enumeration_of_every_tie_order() {
    let mut rng = Rng::seeded(0x7135_AB1E_5EED_0001);
    let mut checked = 0;
    for s in subjects() {
        let mut inputs = 0;
        while inputs < 25 {
            let input = random_input(&mut rng, s.graded);
            let axes = vectors(s.axis, input.n, input.l);
            let Some(rescorings) = strict_rescorings(&input.y_score, &axes, 400) else {
                continue;
            };
            inputs += 1;
            // The ordinary code path on each strict ranking (no ties left: any policy).
            let values: Vec<Result<f64, Error>> = rescorings
                .iter()
                .map(|strict| evaluate(&s, &input, strict, TiePolicy::First))
                .collect();
            let what = format!(
                "{} {} {:?} on y_true={:?} y_score={:?} w={:?}",
                s.convention, s.metric, s.params, input.y_true, input.y_score, input.weights
            );
            let expected = evaluate(&s, &input, &input.y_score, TiePolicy::Expected);
            let optimistic = evaluate(&s, &input, &input.y_score, TiePolicy::Optimistic);
            let pessimistic = evaluate(&s, &input, &input.y_score, TiePolicy::Pessimistic);
            if values.iter().any(Result::is_err) {
                // An input error does not depend on the order: every policy must report it.
                assert!(values.iter().all(Result::is_err), "{what}");
                assert!(optimistic.is_err() && pessimistic.is_err(), "{what}");
                continue;
            }
            let values: Vec<f64> = values.into_iter().map(Result::unwrap).collect();
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let any_nan = values.iter().any(|v| v.is_nan());
            let (best, worst) = match (any_nan, s.higher_is_better) {
                (true, _) => (f64::NAN, f64::NAN),
                (false, true) => (max, min),
                (false, false) => (min, max),
            };
            let (optimistic, pessimistic) = (optimistic.unwrap(), pessimistic.unwrap());
            // With item weights, label-wise precision also depends on the order among relevant
            // items of different weights, which Optimistic/Pessimistic leave in column order
            // (docs/ties.md): there they are orderings, so they lie within the range.
            let weighted_precision = input.weights.is_some()
                && s.axis != Axis::Rows
                && !matches!(s.metric, "MacroAUC" | "MicroAUC" | "roc_auc_score");
            // What the preset says of its own tie analysis (every front door prints it) is what
            // the enumeration finds.
            let tie = Preset::lookup(s.convention, s.metric, &s.params, None)
                .expect("preset")
                .tie_analysis(input.weights.is_some());
            assert_eq!(tie.ends_unproven.is_some(), weighted_precision, "{what}");
            assert_eq!(
                tie.expected_missing.is_some(),
                matches!(expected, Err(Error::UnsupportedPolicy { .. })),
                "{what}"
            );
            if any_nan {
                // NaN values (undefined vectors) do not depend on the order.
            } else if weighted_precision {
                for v in [optimistic, pessimistic] {
                    assert!(
                        v >= min - 1e-12 && v <= max + 1e-12,
                        "{v} outside [{min}, {max}]: {what}"
                    );
                }
            } else {
                assert!(
                    same(optimistic, best),
                    "optimistic {optimistic} != best {best}: {what}"
                );
                assert!(
                    same(pessimistic, worst),
                    "pessimistic {pessimistic} != worst {worst}: {what}"
                );
            }
            match expected {
                Ok(e) => assert!(
                    same(e, if any_nan { f64::NAN } else { mean }),
                    "expected {e} != mean {mean}: {what}"
                ),
                // No closed form (docs/ties.md): interpolated AP, geometric means, and
                // weighted label AP.
                Err(Error::UnsupportedPolicy { .. }) => assert!(
                    s.metric.contains("Interpolated")
                        || s.metric.starts_with("Geometric")
                        || weighted_precision,
                    "unexpected UnsupportedPolicy: {what}"
                ),
                Err(e) => panic!("expected: {e}: {what}"),
            }
            checked += 1;
        }
    }
    println!("tie analysis: {checked} inputs checked against full enumeration");
}

#[test]
fn random_orders_average_to_the_expected_value() {
    let y_true = [[1, 0, 1, 0, 0], [0, 1, 0, 0, 1]];
    let y_score = [[0.5, 0.5, 0.5, 0.2, 0.5], [0.9, 0.3, 0.3, 0.3, 0.3]];
    for metric in [
        "coverage",
        "average_precision",
        "ranking_loss",
        "one_error",
        "is_error",
    ] {
        let value = |ties| {
            Preset::lookup(
                Convention::Rankmetrics,
                metric,
                Preset::NO_PARAMS,
                Some(ties),
            )
            .unwrap()
            .evaluate(&y_true, &y_score, None::<&[f64]>)
            .unwrap()
        };
        let seeds = 4000;
        let mean = (0..seeds).map(|s| value(TiePolicy::Random(s))).sum::<f64>() / seeds as f64;
        let expected = value(TiePolicy::Expected);
        // Values lie in [0, 4]: the standard error of the mean is below 4/sqrt(4000) = 0.063;
        // these metrics vary far less, so 0.02 is several standard errors.
        assert!(
            (mean - expected).abs() < 0.02,
            "{metric}: mean of random {mean} vs expected {expected}"
        );
    }
}
