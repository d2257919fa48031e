//! Accumulators against one-shot evaluation: batches in row order, and shards merged in any
//! order or grouping, give bitwise the one-shot value; overlapping merges are refused
//! (tests/common/shards.rs). tests/serde_state.rs sends the shards through serde.

mod common;
#[path = "common/shards.rs"]
mod shards;

use common::Rng;
use rankmetrics::{
    AveragePrecision, Coverage, Dcg, Error, ErrorSetSize, Incompatibility, IsError, Ndcg, OneError,
    RankingLoss, RankingMetric, RowAccumulator, RowMetric, TiePolicy,
};
use shards::{check_shards, Data};

fn check<M: RowMetric + RankingMetric<f64> + Clone + PartialEq + std::fmt::Debug>(
    metric: M, rng: &mut Rng,
) {
    for _ in 0..40 {
        let d = Data::random(rng);
        let (y, s, w) = d.rows(0..d.n);
        let one_shot = metric.evaluate(&y, &s, w);
        let splits = d.splits(rng);
        let make = |first| RowAccumulator::starting_at(metric.clone(), first);
        check_shards(
            &format!("{metric:?}"),
            make,
            &one_shot,
            &d,
            &splits,
            rng,
            Clone::clone,
        );
    }
}

#[test]
fn every_row_metric_streams_and_merges() {
    let mut rng = Rng::seeded(0x5EED_57AE_A411_0001);
    let policies = TiePolicy::R_METHODS
        .into_iter()
        .chain(TiePolicy::ANALYSIS)
        .chain([TiePolicy::Random(7)]);
    for t in policies {
        check(Coverage::new(t), &mut rng);
        check(AveragePrecision::new(t), &mut rng);
        check(RankingLoss::new(t), &mut rng);
        check(OneError::new(t), &mut rng);
        check(IsError::new(t), &mut rng);
        check(ErrorSetSize::new(t), &mut rng);
        check(Dcg::new(t), &mut rng);
        check(Ndcg::new(t), &mut rng);
    }
    check(rankmetrics::mulan::AveragePrecision, &mut rng);
    check(
        rankmetrics::sklearn::LABEL_RANKING_AVERAGE_PRECISION_SCORE,
        &mut rng,
    );
    check(rankmetrics::sklearn::COVERAGE_ERROR, &mut rng);
}

#[test]
fn failed_batches_leave_the_state_unchanged() {
    let mut acc = RankingLoss::new(TiePolicy::Max).accumulator();
    acc.update(&[[1, 0]], &[[0.2, 0.9]], None).unwrap();
    let before = acc.clone();
    assert!(acc.update(&[[1, 0]], &[[f64::NAN, 0.9]], None).is_err());
    assert_eq!(acc, before);
    let err = acc
        .update(&[[1, 0]], &[[0.5, 0.9]], Some(&[1.0]))
        .unwrap_err();
    assert_eq!(err, Error::Incompatible(Incompatibility::Weighting));
    assert_eq!(acc, before);
}

#[test]
fn errors_name_the_global_row() {
    let mut acc = Coverage::new(TiePolicy::Max).accumulator();
    acc.update(&[[1, 0], [0, 1]], &[[0.2, 0.9], [0.1, 0.3]], None)
        .unwrap();
    let err = acc
        .update(&[[1, 0]], &[[0.2, f64::INFINITY]], None)
        .unwrap_err();
    assert!(matches!(
        err,
        Error::NonFiniteScore {
            row: 2,
            column: 1,
            ..
        }
    ));
}

#[test]
fn merging_different_metrics_or_shapes_is_refused() {
    let mut a = RankingLoss::new(TiePolicy::Max).accumulator();
    let b = RankingLoss::new(TiePolicy::Min).accumulator();
    assert_eq!(
        a.merge(&b),
        Err(Error::Incompatible(Incompatibility::Metric))
    );
    a.update(&[[1, 0]], &[[0.2, 0.9]], None).unwrap();
    let mut c = RankingLoss::new(TiePolicy::Max).accumulator();
    c.update(&[[1, 0, 0]], &[[0.2, 0.9, 0.1]], None).unwrap();
    assert_eq!(
        a.merge(&c),
        Err(Error::Incompatible(Incompatibility::Labels {
            expected: 2,
            found: 3
        }))
    );
    assert_eq!(
        RankingLoss::new(TiePolicy::Max).accumulator().value(),
        Err(Error::NoSamples)
    );
}

#[test]
fn labelwise_accumulators_merge_to_one_shot_bitwise() {
    use rankmetrics::{Average, InterpolatedAveragePrecision, LabelAveragePrecision, RocAuc};
    let mut rng = Rng::seeded(0x5EED_57AE_A411_0002);
    for _ in 0..30 {
        let d = Data::random(&mut rng);
        let (y, s, w) = d.rows(0..d.n);
        let splits = d.splits(&mut rng);
        for average in [
            Average::Macro,
            Average::Micro,
            Average::Weighted,
            Average::Samples,
        ] {
            let auc = RocAuc::new(average, TiePolicy::Average);
            let ap = LabelAveragePrecision::new(average, TiePolicy::Max);
            let map = InterpolatedAveragePrecision::new(average, TiePolicy::First, 10);
            let what = format!("{average:?}");
            let (one, rng) = (&auc.evaluate(&y, &s, w), &mut rng);
            check_shards(
                &what,
                |r| auc.accumulator_starting_at(r),
                one,
                &d,
                &splits,
                rng,
                Clone::clone,
            );
            let one = &ap.evaluate(&y, &s, w);
            check_shards(
                &what,
                |r| ap.accumulator_starting_at(r),
                one,
                &d,
                &splits,
                rng,
                Clone::clone,
            );
            let one = &map.evaluate(&y, &s, w);
            check_shards(
                &what,
                |r| map.accumulator_starting_at(r),
                one,
                &d,
                &splits,
                rng,
                Clone::clone,
            );
        }
    }
}

#[test]
fn every_preset_merges_to_its_one_shot_value() {
    use rankmetrics::registry::{Convention, Preset};
    let mut rng = Rng::seeded(0x5EED_57AE_A411_0003);
    for convention in Convention::ALL {
        for &name in convention
            .entries()
            .iter()
            .filter(|e| !e.needs_params())
            .map(|e| &e.name)
        {
            let preset = Preset::lookup(convention, name, Preset::NO_PARAMS, None).unwrap();
            for _ in 0..8 {
                let d = Data::random(&mut rng);
                let (y, s, w) = d.rows(0..d.n);
                // torchmetrics and MULAN take no weights; their presets weigh as an extension.
                let one_shot = preset.evaluate(&y, &s, w);
                let splits = d.splits(&mut rng);
                let what = format!("{convention} {name}");
                let make = |r| preset.accumulator_starting_at(r);
                check_shards(&what, make, &one_shot, &d, &splits, &mut rng, Clone::clone);
            }
        }
    }
}

#[test]
fn torchmetrics_logits_are_detected_per_batch() {
    use rankmetrics::registry::{Convention, Preset};
    let preset = Preset::lookup(
        Convention::Torchmetrics,
        "multilabel_ranking_loss",
        Preset::NO_PARAMS,
        None,
    )
    .unwrap();
    // 40 and 38 saturate to the same probability: the pair ties (Last: not an error).
    let (y, s) = ([[0, 1, 0]], [[40.0, 38.0, -1.0]]);
    let mut acc = preset.accumulator();
    acc.update(&y, &s, None::<&[f64]>).unwrap();
    assert_eq!(acc.value().unwrap(), 0.0);
    assert_eq!(preset.evaluate(&y, &s, None::<&[f64]>).unwrap(), 0.0);
}

#[test]
fn weight_errors_name_the_global_row() {
    use rankmetrics::{Average, RocAuc};
    let mut acc = Coverage::new(TiePolicy::Max).accumulator();
    acc.update(
        &[[1, 0], [0, 1]],
        &[[0.2, 0.9], [0.1, 0.3]],
        Some(&[1.0, 1.0]),
    )
    .unwrap();
    let err = acc
        .update(&[[1, 0]], &[[0.2, 0.5]], Some(&[-1.0]))
        .unwrap_err();
    assert!(matches!(err, Error::InvalidWeight { row: 2, .. }));
    let mut auc = RocAuc::new(Average::Macro, TiePolicy::Average).accumulator();
    auc.update(&[[1, 0]], &[[0.2, 0.9]], Some(&[1.0])).unwrap();
    let err = auc
        .update(&[[1, 0]], &[[0.2, 0.5]], Some(&[f64::NAN]))
        .unwrap_err();
    assert!(matches!(err, Error::InvalidWeight { row: 1, .. }));
}
