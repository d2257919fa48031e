//! Regression tests for what fuzzing and the reliability suite found (docs/reliability.md).

use std::ops::Range;

use rankmetrics::registry::{Convention, Preset};
use rankmetrics::{
    Average, Error, InterpolatedAveragePrecision, LabelAveragePrecision, LabelDomain, Matrix, Mean,
    RankingLoss, RankingMetric, RocAuc, TieGrouping, TiePolicy, Undefined,
};

/// Subnormal sample weights made a tie group's weighted rank underflow to 0, and label-wise
/// precision infinite.
#[test]
fn subnormal_weights_give_a_finite_precision() {
    let y_true = [[0.5, 0.5, 0.5], [0.5, 0.5, -0.0], [-0.0, 0.5, 0.5]];
    let y_score = [[0.5, 0.5, 0.5], [-0.0, 0.5, 0.0], [0.0, 1e-300, -f64::MAX]];
    let weights = [5e-324, 0.0, 1.0];
    for average in [Average::Macro, Average::Weighted, Average::Micro] {
        let ap = LabelAveragePrecision::new(average, TiePolicy::Min)
            .with_label_domain(LabelDomain::NonZero);
        let v = ap.evaluate(&y_true, &y_score, Some(&weights)).unwrap();
        assert!(v.is_finite(), "{average:?}: {v}");
    }
    // A lone tiny weight: precision is a ratio of weights, the scale does not matter.
    let (y, s) = ([[1.0], [0.0]], [[0.5], [0.5]]);
    let ap = LabelAveragePrecision::new(Average::Macro, TiePolicy::Min)
        .with_label_domain(LabelDomain::NonZero);
    let tiny = ap.evaluate(&y, &s, Some(&[5e-324, 5e-324])).unwrap();
    let unit = ap.evaluate(&y, &s, Some(&[1.0, 1.0])).unwrap();
    assert_eq!(tiny, unit);
}

/// Label-wise metrics skipped scikit-learn's matrix-wide label-type check.
#[test]
fn labelwise_metrics_check_indicator_labels() {
    let y = [[0.0, 1.0], [2.0, 1.0], [5.0, 0.0]]; // three distinct values
    let s = [[0.1, 0.9], [0.8, 0.2], [0.5, 0.5]];
    let auc =
        RocAuc::new(Average::Macro, TiePolicy::Average).with_label_domain(LabelDomain::Indicator);
    let err = auc.evaluate(&y, &s, None).unwrap_err();
    assert!(matches!(
        err,
        Error::InvalidLabel {
            row: 1,
            column: 0,
            expected: LabelDomain::Indicator,
            ..
        }
    ));
}

/// A huge number of recall levels was a hang (levels × steps work).
#[test]
fn recall_levels_are_bounded() {
    let m = InterpolatedAveragePrecision::new(Average::Macro, TiePolicy::First, usize::MAX);
    let err = m
        .evaluate(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None)
        .unwrap_err();
    assert!(matches!(
        err,
        Error::TooManyRecallLevels {
            found: usize::MAX,
            ..
        }
    ));
    let many = InterpolatedAveragePrecision::new(Average::Macro, TiePolicy::First, 1 << 20);
    assert_eq!(
        many.evaluate(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None)
            .unwrap(),
        1.0
    );
}

/// Rows longer than the kernel numbers (u32) were silently cut; now they are an error. The
/// matrix here only claims its width: the check comes before any cell is read.
#[test]
fn rows_longer_than_the_kernel_numbers_are_an_error() {
    struct Wide;
    impl Matrix for Wide {
        type Elem = f64;
        fn nrows(&self) -> usize {
            1
        }
        fn ncols(&self) -> usize {
            u32::MAX as usize + 1
        }
        fn extend_rows(&self, _: Range<usize>, _: &mut Vec<f64>) {
            unreachable!("the shape check comes first")
        }
    }
    let err = RankingLoss::new(TiePolicy::Max)
        .evaluate(&Wide, &Wide, None)
        .unwrap_err();
    assert!(matches!(err, Error::TooManyItems { .. }));
}

/// Interpolated AP over a vector whose every weight is zero gave -inf (every precision 0/0,
/// and the running maximum started at -inf): it is NaN, as under exact grouping (a fuzzing
/// finding).
#[test]
fn zero_weight_interpolated_precision_is_nan_not_infinite() {
    let mut y_true = [[0.0; 6]; 4];
    (y_true[0][0], y_true[3][3]) = (1.0, 1.0);
    let y_score = [[0.0f64; 6]; 4];
    for grouping in [TieGrouping::Exact, TieGrouping::Within(1e-6)] {
        let m = InterpolatedAveragePrecision::new(Average::Micro, TiePolicy::Max, 8)
            .with_grouping(grouping)
            .on_undefined(Undefined::Nan)
            .with_mean(Mean::Sequential)
            .with_label_domain(LabelDomain::NonZero)
            .nan_if_none_defined(true)
            .one_column_binary(true);
        let v = m.evaluate(&y_true, &y_score, Some(&[0.0; 4])).unwrap();
        assert!(v.is_nan(), "{grouping:?}: {v}");
    }
}

/// The fallback of label-wise precision for tiny weights (the plain ratio overflows) must give
/// the ratio's value, not only a finite number. One column of three tied items, the relevant
/// one first in row order, weights [w, 0, 0]; under Min the group's shared rank is 1, so its
/// rank weight is W_block·(rank − start)/len = w·1/3 and its precision w/(w/3) = 3 whatever w;
/// recall goes 0 → 1 there, so AP = 3 (Min's shared rank can push AP above 1). With w = 5e-324,
/// w/3 underflows to 0 and the plain ratio is inf: the fallback takes it with both sides over
/// w, 1/(0 + 1·1/3), the same bits as w = 1 gives.
#[test]
fn tiny_weight_precision_is_the_ratio_of_weights() {
    let (y, s) = ([[1], [0], [0]], [[0.5], [0.5], [0.5]]);
    let ap = LabelAveragePrecision::new(Average::Macro, TiePolicy::Min);
    let tiny = ap.evaluate(&y, &s, Some(&[5e-324, 0.0, 0.0])).unwrap();
    let unit = ap.evaluate(&y, &s, Some(&[1.0, 0.0, 0.0])).unwrap();
    assert_eq!(tiny, 1.0 / (1.0 / 3.0));
    assert_eq!(tiny.to_bits(), unit.to_bits());
}

/// Interpolated AP moved with the scale of the weights (tests/reliability.rs,
/// `scaling_weights_changes_nothing`): pooled, the relevant weight ranked at or above score
/// 0.75 is w₀ + 2w₁ + 2w₂ + w₃, exactly half of the total 2w₀ + 4w₁ + 4w₂ + 2w₃, so that
/// block reaches the recall level 0.5; with the weights × 0.3 the float sums came out at a
/// recall of 0.49999999999999994 and the level fell to the next step. Min's shared rank makes
/// the reaching block's precision 1.146 (above 1), so the value jumped from 0.947 to 0.912
/// (Average: 0.751 to 0.742). The expected values are exact rational arithmetic on these
/// weights, rounded once.
#[test]
fn interpolated_precision_levels_do_not_move_with_the_weight_scale() {
    let y = [
        [0, 0, 1, 0, 1],
        [1, 0, 1, 1, 1],
        [1, 1, 1, 1, 0],
        [1, 1, 0, 0, 0],
    ];
    let s = [
        [1.0, 0.5, 0.75, 0.125, 0.25],
        [0.75, 1.0, 0.375, 0.75, 0.5],
        [0.875, 0.875, 0.625, 0.375, 0.625],
        [0.0, 1.0, 0.5, 0.75, 0.0],
    ];
    let w = [2.3731222014142728, 3.7759477580554575, 0.05, 0.05];
    for (ties, exact) in [
        (TiePolicy::Min, 0.9473821195021682),
        (TiePolicy::Average, 0.7511708471764112),
    ] {
        let m = InterpolatedAveragePrecision::new(Average::Micro, ties, 11);
        for scale in [1.0, 0.3, 4.0, 7.0] {
            let scaled: Vec<f64> = w.iter().map(|x| x * scale).collect();
            let v = m.evaluate(&y, &s, Some(&scaled)).unwrap();
            assert!(
                (v - exact).abs() <= 1e-14,
                "{ties:?} x{scale}: {v} vs {exact}"
            );
        }
    }
}

/// Sample weights near f64::MAX overflowed the weight sums: interpolated AP was inf, AUC and
/// AP NaN (fuzzing). Rows 1 and 2 weigh the same and row 0 nothing, so every value is the
/// value under weights [0, 1, 1]. MULAN's MAiP by hand: label 0 ranks rows 0 (relevant, weight
/// 0), 1, 2 (relevant): recall 0 already reaches level 0 at row 0, and the best precision at
/// or below it is row 2's M/2M = ½, at every level; label 1 ranks row 1 (relevant) then the
/// tie {0, 2} in row order: every precision is 1; label 2 is label 0 again (rows 0, 2, 1).
/// The mean is (½ + 1 + ½)/3.
#[test]
fn weights_near_the_largest_float_give_the_metric_value() {
    let y = [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]];
    let s = [[0.9, 0.5, 0.5], [0.5, 0.7, 0.2], [0.1, 0.5, 0.3]];
    let (huge, unit) = ([0.0, f64::MAX, f64::MAX], [0.0, 1.0, 1.0]);
    let maip = Preset::lookup(
        Convention::Mulan,
        "MeanAverageInterpolatedPrecision",
        Preset::NO_PARAMS,
        None,
    )
    .unwrap();
    assert_eq!(maip.evaluate(&y, &s, Some(&huge)).unwrap(), 2.0 / 3.0);
    for average in [
        Average::Micro,
        Average::Macro,
        Average::Weighted,
        Average::Samples,
    ] {
        for ties in [TiePolicy::Min, TiePolicy::Average, TiePolicy::First] {
            let values = |w: &[f64]| {
                [
                    InterpolatedAveragePrecision::new(average, ties, 11).evaluate(&y, &s, Some(w)),
                    LabelAveragePrecision::new(average, ties).evaluate(&y, &s, Some(w)),
                    RocAuc::new(average, ties)
                        .on_undefined(Undefined::Skip)
                        .evaluate(&y, &s, Some(w)),
                ]
            };
            for (h, u) in values(&huge).into_iter().zip(values(&unit)) {
                // NaN both ways where weight 0 leaves a class empty (an AUC of no pairs).
                let (h, u) = (h.unwrap(), u.unwrap());
                let same = (h.is_nan() && u.is_nan()) || (h - u).abs() <= 1e-15;
                assert!(same, "{average:?} {ties:?}: {h} vs {u}");
            }
        }
    }
    // The fuzzer's input: one row of weight f64::MAX, labels -1 read as relevant.
    let y = [[-1.0; 3]; 3];
    let s = [
        [-5e-324, -f64::MAX, -f64::MAX],
        [-f64::MAX, 1e38, 4.87e-120],
        [1.0, 1.0, 1.0],
    ];
    let m = InterpolatedAveragePrecision::new(Average::Micro, TiePolicy::Optimistic, 10)
        .with_label_domain(LabelDomain::NonZero);
    let huge = m.evaluate(&y, &s, Some(&[0.0, 0.0, f64::MAX])).unwrap();
    let unit = m.evaluate(&y, &s, Some(&[0.0, 0.0, 1.0])).unwrap();
    assert_eq!(huge, unit);
    assert_eq!(huge, 1.0); // every item is relevant: every precision is 1
}

#[test]
fn rows_numbered_past_the_largest_row_number_are_refused() {
    // An accumulator whose next row is usize::MAX cannot number a row: the batch is refused
    // and the state, which stays empty, still serialises and merges.
    let p = Preset::lookup(Convention::Rankmetrics, "coverage", Preset::NO_PARAMS, None).unwrap();
    for first in [usize::MAX, usize::MAX - 1] {
        let mut acc = p.accumulator_starting_at(first);
        let err = acc.update(&[[1, 0], [0, 1]], &[[0.5, 0.1], [0.2, 0.9]], None);
        assert_eq!(
            err,
            Err(Error::RowNumberOverflow {
                first_row: first,
                rows: 2
            })
        );
        assert!(acc.rows().is_empty());
    }
    let mut labelwise =
        RocAuc::new(Average::Macro, TiePolicy::Average).accumulator_starting_at(usize::MAX);
    let err = labelwise.update(&[[1, 0]], &[[0.5, 0.1]], None);
    assert!(matches!(err, Err(Error::RowNumberOverflow { rows: 1, .. })));
    // The last row number that exists is usize::MAX - 1.
    let mut last = p.accumulator_starting_at(usize::MAX - 1);
    last.update(&[[1, 0]], &[[0.5, 0.1]], None).unwrap();
    assert_eq!(
        last.rows(),
        &[Range {
            start: usize::MAX - 1,
            end: usize::MAX
        }]
    );
}

/// torchmetrics applies its sigmoid when any score of the whole input lies outside [0, 1];
/// accumulators decided it batch by batch, so shards of probabilities and of logits merged to
/// a value no one-shot evaluation gives. Such batches and shards are now refused.
#[test]
fn torchmetrics_shards_that_decide_the_sigmoid_apart_are_refused() {
    use rankmetrics::Incompatibility;
    let p = Preset::lookup(
        Convention::Torchmetrics,
        "multilabel_ranking_loss",
        Preset::NO_PARAMS,
        None,
    )
    .unwrap();
    let y = [[1, 0, 0], [0, 1, 0]];
    let (probabilities, logits) = (
        [[0.2, 0.9, 0.4], [0.3, 0.6, 0.1]],
        [[2.0, -1.0, 0.5], [0.0, 3.0, -2.0]],
    );
    let refused = Err(Error::Incompatible(Incompatibility::Sigmoid {
        seen: false,
    }));

    // One accumulator, two batches.
    let mut acc = p.accumulator();
    acc.update(&y, &probabilities, None).unwrap();
    let before = acc.clone();
    assert_eq!(acc.update(&y, &logits, None), refused);
    assert_eq!(acc, before, "a refused batch adds nothing");

    // Two shards, merged either way.
    let mut logit_shard = p.accumulator_starting_at(2);
    logit_shard.update(&y, &logits, None).unwrap();
    assert_eq!(acc.clone().merge(&logit_shard), refused);
    assert_eq!(
        logit_shard.clone().merge(&acc),
        Err(Error::Incompatible(Incompatibility::Sigmoid { seen: true }))
    );

    // Shards that decide alike merge to the one-shot value.
    let mut other = p.accumulator_starting_at(2);
    other.update(&y, &probabilities, None).unwrap();
    acc.merge(&other).unwrap();
    let all = [y[0], y[1], y[0], y[1]];
    let scores = [
        probabilities[0],
        probabilities[1],
        probabilities[0],
        probabilities[1],
    ];
    let one_shot = p.evaluate(&all, &scores, None).unwrap();
    assert_eq!(acc.value().unwrap().to_bits(), one_shot.to_bits());
}
