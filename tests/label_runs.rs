//! The per-label runs state against the rows: every label-wise metric, averaging, grouping
//! and undefined rule the runs take, on data with heavy ties, cut into shards merged in any
//! order or grouping (tests/common/shards.rs), gives bitwise the one-shot value of the rows,
//! which the row-keeping accumulator also gives; what the runs cannot give exactly is refused.

mod common;
#[path = "common/shards.rs"]
mod shards;

use common::Rng;
use rankmetrics::registry::{Convention, Preset};
use rankmetrics::{
    Average, Direction, Error, InterpolatedAveragePrecision, LabelAveragePrecision, LabelDomain,
    Mean, RankingMetric, RocAuc, RunsLimit, TieGrouping, TiePolicy, Undefined,
};
use shards::{check_shards, identical, Data};

/// The policies runs take: those that do not order a tie by the samples' positions.
const POLICIES: [TiePolicy; 6] = [
    TiePolicy::Max,
    TiePolicy::Min,
    TiePolicy::Average,
    TiePolicy::Expected,
    TiePolicy::Optimistic,
    TiePolicy::Pessimistic,
];

/// 1 to 60 unweighted rows of 1 to 7 labels (0 or 1, columns sometimes of one class), scores
/// on few levels (heavy ties), some a few millionths apart (Weka's tolerance groups them)
/// and some -0.0 next to 0.0.
fn tied_data(rng: &mut Rng) -> Data {
    let (n, l) = (1 + rng.below(60), 1 + rng.below(7));
    let levels = [0.0, -0.0, 0.25, 0.25 + 4e-7, 0.25 + 8e-7, 0.5, 0.9, 1.0];
    let relevant_share = [0, 1, 3, 5][rng.below(4)];
    Data {
        n,
        l,
        y: (0..n * l)
            .map(|_| f64::from(u8::from(rng.below(6) < relevant_share)))
            .collect(),
        s: (0..n * l)
            .map(|_| levels[rng.below(levels.len())])
            .collect(),
        w: None,
    }
}

#[test]
fn runs_merge_to_the_one_shot_value_of_the_rows_bitwise() {
    let mut rng = Rng::seeded(0x5EED_2075_0001);
    let averages = [Average::Macro, Average::Micro, Average::Weighted];
    let undefined = [Undefined::Nan, Undefined::Value(0.5), Undefined::Skip];
    for round in 0..60 {
        let d = tied_data(&mut rng);
        let (y, s, _) = d.rows(0..d.n);
        let splits = d.splits(&mut rng);
        for ties in POLICIES {
            for average in averages {
                let grouping = match round % 2 {
                    0 => TieGrouping::Exact,
                    _ => TieGrouping::WEKA,
                };
                let rule = undefined[round % 3];
                let what = format!(
                    "{ties:?} {average:?} {grouping:?} {rule:?} n={} l={}",
                    d.n, d.l
                );
                let auc = RocAuc::new(average, ties)
                    .with_grouping(grouping)
                    .on_undefined(rule);
                let one = auc.evaluate(&y, &s, None);
                let rows = rows_value(|r| auc.accumulator_starting_at(r), &d);
                assert!(identical(&one, &rows), "{what}: rows {rows:?} vs {one:?}");
                let make = |r| auc.runs_accumulator_starting_at(r).unwrap();
                check_shards(
                    &format!("AUC {what}"),
                    make,
                    &one,
                    &d,
                    &splits,
                    &mut rng,
                    Clone::clone,
                );

                let ap = LabelAveragePrecision::new(average, ties)
                    .with_grouping(grouping)
                    .on_undefined(rule);
                let one = ap.evaluate(&y, &s, None);
                let make = |r| ap.runs_accumulator_starting_at(r).unwrap();
                check_shards(
                    &format!("AP {what}"),
                    make,
                    &one,
                    &d,
                    &splits,
                    &mut rng,
                    Clone::clone,
                );

                let mean = [Mean::Arithmetic, Mean::Sequential][round % 2];
                let map = InterpolatedAveragePrecision::new(average, ties, 11)
                    .with_grouping(grouping)
                    .with_mean(mean);
                let one = map.evaluate(&y, &s, None);
                let make = |r| map.runs_accumulator_starting_at(r).unwrap();
                check_shards(
                    &format!("MAP {what}"),
                    make,
                    &one,
                    &d,
                    &splits,
                    &mut rng,
                    Clone::clone,
                );
            }
        }
    }
}

/// The row-keeping accumulator's value of every row of `d`, fed in one batch.
fn rows_value<A: shards::Accumulator>(make: impl Fn(usize) -> A, d: &Data) -> Result<f64, Error> {
    let mut acc = make(0);
    acc.add(d, 0..d.n)?;
    acc.read()
}

#[test]
fn every_preset_either_merges_exactly_or_is_refused() {
    let mut rng = Rng::seeded(0x5EED_2075_0002);
    let (mut accepted, mut refused) = (Vec::new(), Vec::new());
    for convention in Convention::ALL {
        for &name in convention
            .entries()
            .iter()
            .filter(|e| !e.needs_params())
            .map(|e| &e.name)
        {
            let preset = Preset::lookup(convention, name, Preset::NO_PARAMS, None).unwrap();
            match preset.runs_accumulator_starting_at(0) {
                Ok(_) => accepted.push(format!("{convention} {name}")),
                Err(Error::NotExactInRuns(_)) => {
                    refused.push(format!("{convention} {name}"));
                    continue;
                }
                Err(e) => panic!("{convention} {name}: {e}"),
            }
            for _ in 0..6 {
                let d = tied_data(&mut rng);
                let (y, s, _) = d.rows(0..d.n);
                let one = preset.evaluate(&y, &s, None::<&[f64]>);
                let splits = d.splits(&mut rng);
                let make = |r| preset.runs_accumulator_starting_at(r).unwrap();
                let what = format!("{convention} {name}");
                check_shards(&what, make, &one, &d, &splits, &mut rng, Clone::clone);
            }
        }
    }
    // scikit-learn's label-wise presets are kept; mldr's AUCs (pROC's automatic direction)
    // are refused.
    for name in [
        "sklearn roc_auc_score",
        "sklearn average_precision_score",
        "mldr macro_auc",
    ] {
        assert!(
            accepted.iter().chain(&refused).any(|p| p == name),
            "{name} is not a preset: {accepted:?} {refused:?}"
        );
    }
    assert!(accepted.iter().any(|p| p == "sklearn roc_auc_score"));
    assert!(accepted
        .iter()
        .any(|p| p == "sklearn average_precision_score"));
    assert!(refused.iter().any(|p| p == "mldr macro_auc"), "{refused:?}");
}

#[test]
fn what_runs_cannot_give_exactly_is_refused() {
    for ties in [TiePolicy::First, TiePolicy::Last, TiePolicy::Random(3)] {
        assert_eq!(
            RocAuc::new(Average::Macro, ties)
                .runs_accumulator()
                .unwrap_err(),
            Error::NotExactInRuns(RunsLimit::OrderPolicy(ties))
        );
    }
    assert_eq!(
        LabelAveragePrecision::new(Average::Samples, TiePolicy::Max)
            .runs_accumulator()
            .unwrap_err(),
        Error::NotExactInRuns(RunsLimit::SamplesAverage)
    );
    let auto = RocAuc::new(Average::Macro, TiePolicy::Average).with_direction(Direction::Auto);
    assert_eq!(
        auto.runs_accumulator().unwrap_err(),
        Error::NotExactInRuns(RunsLimit::ReadsScores)
    );
    let (y, s) = ([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]]);
    let mut acc = RocAuc::new(Average::Macro, TiePolicy::Max)
        .runs_accumulator()
        .unwrap();
    let before = acc.clone();
    assert_eq!(
        acc.update(&y, &s, Some(&[1.0, 1.0])).unwrap_err(),
        Error::NotExactInRuns(RunsLimit::SampleWeights)
    );
    assert_eq!(acc, before, "a refused batch changes nothing");
    // Graded labels: the rows' metric takes them, the runs only 0 or 1.
    let graded = LabelAveragePrecision::new(Average::Macro, TiePolicy::Max)
        .with_label_domain(LabelDomain::NonZero);
    let mut acc = graded.runs_accumulator_starting_at(7).unwrap();
    assert!(graded.evaluate(&[[2.0, 0.0]], &[[0.5, 0.1]], None).is_ok());
    assert!(matches!(
        acc.update(&[[1.0, 0.0], [2.0, 0.0]], &[[0.5, 0.1], [0.5, 0.1]], None),
        Err(Error::InvalidLabel {
            row: 8,
            column: 0,
            expected: LabelDomain::Binary,
            ..
        })
    ));
    assert_eq!(acc.row_count(), 0, "nothing of the failed batch is kept");
    assert!(matches!(
        acc.update(&[[1.0, 0.0]], &[[f64::NAN, 0.1]], None),
        Err(Error::NonFiniteScore {
            row: 7,
            column: 0,
            ..
        })
    ));
}

#[test]
fn merges_of_other_metrics_shapes_or_common_rows_are_refused() {
    use rankmetrics::Incompatibility;
    let auc = RocAuc::new(Average::Macro, TiePolicy::Max);
    let (y, s) = ([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]]);
    let mut a = auc.runs_accumulator().unwrap();
    assert_eq!(a.value(), Err(Error::NoSamples));
    a.update(&y, &s, None).unwrap();
    let before = a.clone();
    assert!(matches!(
        a.merge(&a.clone()),
        Err(Error::Incompatible(Incompatibility::Overlap {
            start: 0,
            end: 2
        }))
    ));
    let mut wide = auc.runs_accumulator_starting_at(2).unwrap();
    wide.update(&[[1, 0, 1]], &[[0.5, 0.5, 0.5]], None).unwrap();
    assert!(matches!(
        a.merge(&wide),
        Err(Error::Incompatible(Incompatibility::Labels {
            expected: 2,
            found: 3
        }))
    ));
    assert!(matches!(
        a.update(&[[1, 0, 1]], &[[0.5, 0.5, 0.5]], None),
        Err(Error::Incompatible(Incompatibility::Labels {
            expected: 2,
            found: 3
        }))
    ));
    let other = RocAuc::new(Average::Macro, TiePolicy::Min)
        .runs_accumulator()
        .unwrap();
    assert_eq!(
        a.merge(&other),
        Err(Error::Incompatible(Incompatibility::Metric))
    );
    assert_eq!(a, before, "refused merges change nothing");
}

#[test]
fn the_state_grows_with_distinct_scores_not_rows() {
    // 10,000 rows of 50 labels whose scores take 20 values: at most 20 runs a label.
    let (n, l) = (10_000, 50);
    let y: Vec<f64> = (0..n * l)
        .map(|k| f64::from(u8::from(k % 7 == 0)))
        .collect();
    let s: Vec<f64> = (0..n * l).map(|k| ((k * 31) % 20) as f64 / 20.0).collect();
    let (yy, ss) = (
        rankmetrics::RowMajor::new(&y, n, l).unwrap(),
        rankmetrics::RowMajor::new(&s, n, l).unwrap(),
    );
    let auc = RocAuc::new(Average::Macro, TiePolicy::Average);
    let mut acc = auc.runs_accumulator().unwrap();
    for chunk in 0..10 {
        let rows = chunk * 1000..(chunk + 1) * 1000;
        let cells = rows.start * l..rows.end * l;
        let (yc, sc) = (
            rankmetrics::RowMajor::new(&y[cells.clone()], 1000, l).unwrap(),
            rankmetrics::RowMajor::new(&s[cells], 1000, l).unwrap(),
        );
        acc.update(&yc, &sc, None).unwrap();
    }
    assert!(acc.run_count() <= 20 * l, "{} runs", acc.run_count());
    assert_eq!(
        acc.value().unwrap().to_bits(),
        auc.evaluate(&yy, &ss, None).unwrap().to_bits()
    );
}

#[test]
fn the_example_of_docs_streaming_md() {
    let auc = RocAuc::new(Average::Micro, TiePolicy::Average);
    let (y, s) = (
        [[1, 0], [0, 1], [1, 1]],
        [[0.5, 0.5], [0.5, 0.9], [0.5, 0.5]],
    );
    let mut shard = auc.runs_accumulator_starting_at(1).unwrap();
    shard.update(&y[1..], &s[1..], None).unwrap();
    let mut acc = auc.runs_accumulator().unwrap();
    acc.update(&y[..1], &s[..1], None).unwrap();
    acc.merge(&shard).unwrap();
    assert_eq!(acc.value().unwrap(), auc.evaluate(&y, &s, None).unwrap());
}

/// Each metric, runs state against the rows' one-shot value: bitwise equal, or refused.
fn runs_equal_rows_or_refuse<T: rankmetrics::Score>(
    what: &str, y: &[[u8; 3]], s: &[[T; 3]], auc: RocAuc,
) {
    let one = auc.evaluate(y, s, None);
    match auc.runs_accumulator() {
        Err(e) => assert!(matches!(e, Error::NotExactInRuns(_)), "{what}: {e:?}"),
        Ok(mut acc) => {
            acc.update(y, s, None).unwrap();
            let runs = acc.value();
            assert!(
                identical(&one, &runs),
                "{what}: runs {runs:?} vs rows {one:?}"
            );
        }
    }
}

#[test]
fn a_tolerance_that_groups_no_tie_is_refused() {
    // Under `Within(eps)` with eps <= 0 or NaN, the rows' grouping puts each tied sample in a
    // group of its own, in row order: runs, which hold no order, cannot give that ranking.
    let y = [[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]];
    let s = [
        [0.5, 0.5, 0.5],
        [0.5, 0.2, 0.5],
        [0.1, 0.5, 0.5],
        [0.5, 0.5, 0.1],
    ];
    for eps in [0.0, -0.0, -1.0, f64::NAN, 5e-324, 1e-300] {
        for ties in POLICIES {
            for average in [Average::Macro, Average::Micro] {
                let auc = RocAuc::new(average, ties).with_grouping(TieGrouping::Within(eps));
                let what = format!("{eps} {ties:?} {average:?}");
                if eps.is_nan() || eps <= 0.0 {
                    let refused = auc.runs_accumulator().unwrap_err();
                    assert_eq!(refused, Error::NotExactInRuns(RunsLimit::UngroupedTies));
                }
                runs_equal_rows_or_refuse(&what, &y, &s, auc);
            }
        }
    }
}

#[test]
fn f32_scores_and_the_geometric_mean_give_the_rows_value() {
    let y = [[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0]];
    let s: [[f32; 3]; 5] = [
        [0.5, 0.5, 0.5],
        [0.5, 0.2, -0.0],
        [0.1, 0.5, 0.0],
        [0.5, 0.500_000_1, 0.1],
        [1e-6, 0.0, 0.3],
    ];
    for ties in POLICIES {
        for grouping in [TieGrouping::Exact, TieGrouping::WEKA] {
            for mean in [Mean::Arithmetic, Mean::Geometric, Mean::Sequential] {
                let auc = RocAuc::new(Average::Macro, ties)
                    .with_grouping(grouping)
                    .with_mean(mean);
                runs_equal_rows_or_refuse(&format!("{ties:?} {grouping:?} {mean:?}"), &y, &s, auc);
            }
        }
    }
}

#[test]
fn scikit_learn_labels_other_than_0_and_1_are_refused_as_the_rows_refuse_them() {
    let s = [[0.9, 0.1], [0.5, 0.5], [0.2, 0.8], [0.4, 0.3]];
    for y in [
        [[1, -1], [-1, 1], [1, 1], [-1, -1]],
        [[2, 0], [0, 2], [2, 2], [0, 0]],
    ] {
        for name in ["roc_auc_score", "average_precision_score"] {
            let p = Preset::lookup(Convention::Sklearn, name, Preset::NO_PARAMS, None).unwrap();
            let one = p.evaluate(&y, &s, None::<&[f64]>);
            let mut acc = p.runs_accumulator_starting_at(0).unwrap();
            let runs = acc
                .update(&y, &s, None::<&[f64]>)
                .and_then(|()| acc.value());
            assert!(one.is_err(), "{name} {y:?}: {one:?}");
            assert!(
                identical(&one, &runs),
                "{name} {y:?}: rows {one:?} runs {runs:?}"
            );
        }
    }
}
