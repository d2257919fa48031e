//! Accumulators against one-shot evaluation: batches in row order are bitwise the one-shot
//! value; shards merged in any grouping are within 1e-12; the state survives serde.

mod common;

use common::Rng;
use rankmetrics::{
    AveragePrecision, Coverage, Dcg, Error, ErrorSetSize, Incompatibility, IsError, Ndcg, OneError,
    RankingLoss, RankingMetric, RowAccumulator, RowMajor, RowMetric, TiePolicy,
};

struct Data {
    n: usize,
    l: usize,
    y: Vec<f64>,
    s: Vec<f64>,
    w: Option<Vec<f64>>,
}

impl Data {
    fn random(rng: &mut Rng) -> Data {
        let (n, l) = (1 + rng.below(40), 2 + rng.below(6));
        let levels = [0.0, 0.25, 0.5, 0.75, 1.0];
        Data {
            n,
            l,
            y: (0..n * l).map(|_| rng.below(2) as f64).collect(),
            s: (0..n * l).map(|_| levels[rng.below(5)]).collect(),
            w: (rng.below(2) == 0).then(|| (0..n).map(|_| 0.5 + rng.below(4) as f64).collect()),
        }
    }

    /// Rows `r` as matrices, with their weights.
    fn rows(
        &self,
        r: std::ops::Range<usize>,
    ) -> (RowMajor<'_, f64>, RowMajor<'_, f64>, Option<&[f64]>) {
        let cells = r.start * self.l..r.end * self.l;
        (
            RowMajor::new(&self.y[cells.clone()], r.len(), self.l).unwrap(),
            RowMajor::new(&self.s[cells], r.len(), self.l).unwrap(),
            self.w.as_deref().map(|w| &w[r]),
        )
    }

    /// Random cut points splitting 0..n into consecutive batches.
    fn splits(&self, rng: &mut Rng) -> Vec<std::ops::Range<usize>> {
        let mut cuts: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(self.n + 1)).collect();
        cuts.extend([0, self.n]);
        cuts.sort_unstable();
        cuts.windows(2).map(|w| w[0]..w[1]).collect()
    }
}

fn check<M: RowMetric + Clone + PartialEq + std::fmt::Debug>(metric: M, rng: &mut Rng) {
    for _ in 0..40 {
        let d = Data::random(rng);
        let (y, s, w) = d.rows(0..d.n);
        let one_shot = metric.evaluate(&y, &s, w);
        let splits = d.splits(rng);

        // In row order into one accumulator: bitwise.
        let mut acc = metric.accumulator();
        let streamed: Result<(), Error> = splits.iter().try_for_each(|r| {
            let (y, s, w) = d.rows(r.clone());
            acc.update(&y, &s, w)
        });
        match (&one_shot, streamed.and_then(|_| acc.value())) {
            (Ok(a), Ok(b)) => assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "{metric:?}: {a} vs {b}"
            ),
            (Err(a), Err(b)) => assert_eq!(*a, b, "{metric:?}"),
            (a, b) => panic!("{metric:?}: one-shot {a:?}, streamed {b:?}"),
        }

        // Shards evaluated apart, merged: within 1e-12.
        let shards: Vec<RowAccumulator<M>> = splits
            .iter()
            .map(|r| {
                let mut a = RowAccumulator::starting_at(metric.clone(), r.start);
                let (y, s, w) = d.rows(r.clone());
                if !r.is_empty() {
                    let _ = a.update(&y, &s, w);
                }
                a
            })
            .collect();
        let mut merged = RowAccumulator::new(metric.clone());
        for shard in shards.iter().rev() {
            merged.merge(shard).unwrap();
        }
        if let (Ok(a), Ok(b)) = (&one_shot, merged.value()) {
            assert!(
                (a - b).abs() <= 1e-12 * a.abs().max(1.0) || (a.is_nan() && b.is_nan()),
                "{metric:?}: {a} vs merged {b}"
            );
        }
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

#[cfg(feature = "serde")]
#[test]
fn state_round_trips_through_json() {
    let mut acc = AveragePrecision::new(TiePolicy::Expected).accumulator();
    acc.update(&[[1, 0, 1]], &[[0.5, 0.5, 0.1]], Some(&[2.0]))
        .unwrap();
    let json = serde_json::to_string(&acc).unwrap();
    let back: RowAccumulator<AveragePrecision> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, acc);
    assert_eq!(
        back.value().unwrap().to_bits(),
        acc.value().unwrap().to_bits()
    );
}

#[test]
fn labelwise_accumulators_equal_one_shot_bitwise() {
    use rankmetrics::{Average, InterpolatedAveragePrecision, LabelAveragePrecision, RocAuc};
    let mut rng = Rng::seeded(0x5EED_57AE_A411_0002);
    for _ in 0..60 {
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
            let one_shot = [
                auc.evaluate(&y, &s, w),
                ap.evaluate(&y, &s, w),
                map.evaluate(&y, &s, w),
            ];
            let (mut a, mut b, mut c) = (auc.accumulator(), ap.accumulator(), map.accumulator());
            let mut shard = auc.accumulator();
            for (k, r) in splits.iter().enumerate() {
                let (y, s, w) = d.rows(r.clone());
                a.update(&y, &s, w).unwrap();
                b.update(&y, &s, w).unwrap();
                c.update(&y, &s, w).unwrap();
                if k > 0 {
                    shard.update(&y, &s, w).unwrap();
                }
            }
            let streamed = [a.value(), b.value(), c.value()];
            for (one, streamed) in one_shot.iter().zip(&streamed) {
                match (one, streamed) {
                    (Ok(x), Ok(y)) => {
                        assert!(x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
                    }
                    (Err(x), Err(y)) => assert_eq!(x, y),
                    (x, y) => panic!("one-shot {x:?}, streamed {y:?}"),
                }
            }
            // The first batch alone, merged with the rest: the same rows in the same order.
            let mut first = auc.accumulator();
            if let Some(r) = splits.first() {
                let (y, s, w) = d.rows(r.clone());
                first.update(&y, &s, w).unwrap();
            }
            first.merge(&shard).unwrap();
            assert_eq!(
                first.value().map(f64::to_bits).ok(),
                a.value().map(f64::to_bits).ok()
            );
        }
    }
}

#[test]
fn every_preset_streams_to_its_one_shot_value() {
    use rankmetrics::registry::{Convention, Preset};
    let mut rng = Rng::seeded(0x5EED_57AE_A411_0003);
    for convention in Convention::ALL {
        for &name in convention.metric_names() {
            let preset = Preset::lookup(convention, name, Preset::NO_PARAMS, None).unwrap();
            for _ in 0..8 {
                let d = Data::random(&mut rng);
                let (y, s, w) = d.rows(0..d.n);
                // torchmetrics and MULAN take no weights; their presets weigh as an extension.
                let one_shot = preset.evaluate(&y, &s, w);
                let mut acc = preset.accumulator();
                let streamed = d.splits(&mut rng).into_iter().try_for_each(|r| {
                    let (y, s, w) = d.rows(r);
                    acc.update(&y, &s, w)
                });
                match (one_shot, streamed.and_then(|_| acc.value())) {
                    (Ok(a), Ok(b)) => assert!(
                        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                        "{convention} {name}: {a} vs {b}"
                    ),
                    (Err(a), Err(b)) => assert_eq!(a, b, "{convention} {name}"),
                    (a, b) => panic!("{convention} {name}: one-shot {a:?}, streamed {b:?}"),
                }
            }
        }
    }
}

#[cfg(feature = "serde")]
#[test]
fn preset_state_round_trips_through_json() {
    use rankmetrics::registry::{Convention, Preset, PresetAccumulator};
    for (convention, name) in [
        (Convention::Mulan, "MacroAUC"),
        (Convention::Mldr, "coverage"),
    ] {
        let mut acc = Preset::lookup(convention, name, Preset::NO_PARAMS, None)
            .unwrap()
            .accumulator();
        acc.update(
            &[[1, 0, 1], [0, 1, 0]],
            &[[0.5, 0.5, 0.1], [0.2, 0.9, 0.4]],
            None::<&[f64]>,
        )
        .unwrap();
        let json = serde_json::to_string(&acc).unwrap();
        let back: PresetAccumulator = serde_json::from_str(&json).unwrap();
        assert_eq!(back, acc);
        assert_eq!(
            back.value().unwrap().to_bits(),
            acc.value().unwrap().to_bits()
        );
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
