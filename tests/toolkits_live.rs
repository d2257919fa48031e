//! Regression tests for what running the toolkits themselves (mldr with pROC, MULAN,
//! torchmetrics) against the presets found (docs/conventions.md).

use rankmetrics::registry::{Convention, Preset};
use rankmetrics::{mldr, RankingMetric};

fn params(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|&(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// pROC's direction compared class medians computed as `lower * 0.5 + upper * 0.5`, which
/// turned a lone subnormal irrelevant score into 0, so the AUC was not flipped. mldr gives 1.
#[test]
fn a_subnormal_class_median_flips_the_auc_as_in_mldr() {
    let tiny = 5e-324;
    let (y, s) = ([[1], [0]], [[0.0], [tiny]]);
    assert_eq!(mldr::MACRO_AUC.evaluate(&y, &s, None).unwrap(), 1.0);
    assert_eq!(mldr::MICRO_AUC.evaluate(&y, &s, None).unwrap(), 1.0);
    let (y, s) = ([[1, 0]], [[0.0, tiny]]);
    assert_eq!(mldr::EXAMPLE_AUC.evaluate(&y, &s, None).unwrap(), 1.0);
    // The other way round the medians already point the right way: no flip.
    assert_eq!(
        mldr::EXAMPLE_AUC.evaluate(&[[0, 1]], &s, None).unwrap(),
        1.0
    );
    // Even counts: the median of {0, 5e-324} is their midpoint rounded once (0, ties to
    // even), not above the relevant 0, so no flip; of {5e-324, 5e-324} it is 5e-324: flip.
    let y = [[1, 0, 0]];
    assert_eq!(
        mldr::EXAMPLE_AUC
            .evaluate(&y, &[[0.0, 0.0, tiny]], None)
            .unwrap(),
        0.25
    );
    assert_eq!(
        mldr::EXAMPLE_AUC
            .evaluate(&y, &[[0.0, tiny, tiny]], None)
            .unwrap(),
        1.0
    );
    // Through the registry, as the command runs it.
    for name in ["macro_auc", "micro_auc"] {
        let p = Preset::lookup(Convention::Mldr, name, Preset::NO_PARAMS, None).unwrap();
        assert_eq!(
            p.evaluate(&[[1], [0]], &[[0.0], [tiny]], None).unwrap(),
            1.0
        );
    }
}

/// `undefined_value = NaN` was accepted as a number and, under `na.rm = TRUE`, gave NaN; R's
/// `mean(na.rm = TRUE)` drops NaN as it drops NA.
#[test]
fn undefined_value_nan_is_r_na() {
    // Label 1 and row 2 have a single class; labels 0 and 2 have AUC 1 after pROC's flip.
    let y = [[1, 0, 0], [0, 0, 1], [0, 0, 0]];
    let s = [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1], [0.9, 0.2, 0.9]];
    for na_rm in [false, true] {
        let nan = mldr::macro_auc(&y, &s, Some(f64::NAN), na_rm).unwrap();
        let na = mldr::macro_auc(&y, &s, None, na_rm).unwrap();
        assert_eq!(nan.to_bits(), na.to_bits(), "na.rm = {na_rm}");
        let nan = mldr::example_auc(&y, &s, Some(f64::NAN), na_rm).unwrap();
        let na = mldr::example_auc(&y, &s, None, na_rm).unwrap();
        assert_eq!(nan.to_bits(), na.to_bits(), "na.rm = {na_rm}");
    }
    assert_eq!(mldr::macro_auc(&y, &s, Some(f64::NAN), true).unwrap(), 1.0);
    for name in ["macro_auc", "example_auc"] {
        for value in ["NaN", "nan", "NA"] {
            let p = params(&[("undefined_value", value), ("na_rm", "true")]);
            let preset = Preset::lookup(Convention::Mldr, name, &p, None).unwrap();
            let v = preset.evaluate(&y, &s, None).unwrap();
            let want = if name == "macro_auc" { 1.0 } else { 0.75 };
            assert_eq!(v, want, "{name} {value}");
            let p = params(&[("undefined_value", value), ("na_rm", "false")]);
            let preset = Preset::lookup(Convention::Mldr, name, &p, None).unwrap();
            assert!(
                preset.evaluate(&y, &s, None).unwrap().is_nan(),
                "{name} {value}"
            );
        }
    }
}

/// MULAN adds a row's precisions in column order; rankmetrics added them in rank order, one or
/// two ulps away on some inputs. The MULAN presets now add in MULAN's order; the crate's own
/// metric keeps the rank order.
#[test]
fn mulan_average_precision_is_bitwise() {
    let (y, s) = ([[0, 0, 1, 1, 1]], [[0.4, 0.5, 0.1, 0.2, 0.3]]);
    let mulan_value = 0.4777777777777778_f64;
    let v = rankmetrics::mulan::AveragePrecision
        .evaluate(&y, &s, None)
        .unwrap();
    assert_eq!(v.to_bits(), mulan_value.to_bits());
    for weka in [None, Some("3.9")] {
        let p = params(&weka.map(|w| vec![("weka", w)]).unwrap_or_default());
        let preset = Preset::lookup(Convention::Mulan, "AveragePrecision", &p, None).unwrap();
        let v = preset.evaluate(&y, &s, None).unwrap();
        assert_eq!(v.to_bits(), mulan_value.to_bits(), "weka {weka:?}");
        let mut acc = preset.accumulator();
        acc.update(&y, &s, None).unwrap();
        assert_eq!(acc.value().unwrap().to_bits(), mulan_value.to_bits());
    }
    let own = Preset::lookup(
        Convention::Rankmetrics,
        "average_precision",
        Preset::NO_PARAMS,
        None,
    )
    .unwrap();
    let own_value = own
        .evaluate(&[[0, 0, 1, 1, 1]], &[[0.4, 0.5, 0.1, 0.2, 0.3]], None)
        .unwrap();
    assert_eq!(own_value.to_bits(), 0.4777777777777777_f64.to_bits());
}

/// torchmetrics' `RetrievalNormalizedDCG` (the module) treats a row whose gains sum to 0 as a
/// query without relevant documents: 0 under `empty_target_action="neg"`; the functional
/// `retrieval_normalized_dcg` computes it, 1.0000001192092896 in its float32 arithmetic (the
/// DCG's discount comes from a difference of running totals, the ideal's directly). The preset
/// gives the functional's value on such rows (docs/conventions.md): exactly 1 by default,
/// torchmetrics' float32 value in the named function.
#[test]
fn retrieval_ndcg_rows_whose_gains_sum_to_zero() {
    let v = rankmetrics::torchmetrics::retrieval_normalized_dcg(&[[0.9, 0.1]], &[[1, -1]], None);
    assert_eq!(v.unwrap(), 1.0000001192092896);
    let p = rankmetrics::registry::Preset::lookup(
        rankmetrics::registry::Convention::Torchmetrics,
        "retrieval_normalized_dcg",
        rankmetrics::registry::Preset::NO_PARAMS,
        None,
    )
    .unwrap();
    assert_eq!(p.evaluate(&[[1, -1]], &[[0.9, 0.1]], None).unwrap(), 1.0);
}

/// `dtype=float32` presets give the same bits through `evaluate`, `evaluate_all`, the
/// accumulator and `f32` scores without the parameter.
#[test]
fn torchmetrics_float32_paths_agree() {
    use rankmetrics::registry::evaluate_all;
    use rankmetrics::RowMajor;
    let scores = [20.0, 18.0, -1.0, -90.0, -100.0, 0.5, 3.0, 3.0000001, 1e30];
    let labels = [1, 0, 1, 1, 0, 0, 1, 0, 0];
    let as_f32: Vec<f32> = scores.iter().map(|&x| x as f32).collect();
    let (y, s) = (
        RowMajor::new(&labels, 3, 3).unwrap(),
        RowMajor::new(&scores, 3, 3).unwrap(),
    );
    let s32 = RowMajor::new(&as_f32, 3, 3).unwrap();
    let names = Convention::Torchmetrics.metric_names();
    let dtype = params(&[("dtype", "float32")]);
    let presets: Vec<Preset> = names
        .iter()
        .filter(|n| n.starts_with("multilabel"))
        .map(|n| Preset::lookup(Convention::Torchmetrics, n, &dtype, None).unwrap())
        .collect();
    let all = evaluate_all(&presets, &y, &s, None);
    for (preset, from_all) in presets.iter().zip(all) {
        let one = preset.evaluate(&y, &s, None).unwrap();
        let plain = Preset::lookup(
            Convention::Torchmetrics,
            preset.name(),
            Preset::NO_PARAMS,
            None,
        )
        .unwrap();
        let f32_scores = plain.evaluate(&y, &s32, None).unwrap();
        let mut acc = preset.accumulator();
        acc.update(&y, &s, None).unwrap();
        let bits = [from_all.unwrap(), f32_scores, acc.value().unwrap()].map(f64::to_bits);
        assert_eq!(bits, [one.to_bits(); 3], "{}", preset.name());
        // float64 keeps 20 above 18 and -90 above -100 (coverage happens not to move here, nor
        // AUROC and AP, whose labels here have one class or keep their order).
        let moves = [
            "multilabel_ranking_average_precision",
            "multilabel_ranking_loss",
        ];
        if moves.contains(&preset.name()) {
            assert_ne!(
                plain.evaluate(&y, &s, None).unwrap(),
                one,
                "{}",
                preset.name()
            );
        }
    }
}
