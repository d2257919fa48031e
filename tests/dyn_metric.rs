//! Every kind of metric gives bitwise the same value through `DynRankingMetric::evaluate_dyn`
//! (inputs read through `&dyn Matrix`) as through `RankingMetric::evaluate`.

mod common;

use common::Rng;
use rankmetrics::registry::{Convention, Preset};
use rankmetrics::{
    mldr, mulan, sklearn, torchmetrics, Average, AveragePrecision, Coverage, Dcg, DynRankingMetric,
    ErrorSetSize, InterpolatedAveragePrecision, IsError, LabelAveragePrecision, Ndcg, NdcgAtK,
    OneError, PrecisionAtK, PsNdcgAtK, PsPrecisionAtK, RankingLoss, RankingMetric, RecallAtK,
    RocAuc, RowMajor, TiePolicy,
};

/// Binary labels (every row with a relevant and an irrelevant label) and scores with ties.
fn inputs(rows: usize, labels: usize) -> (Vec<Vec<u8>>, Vec<f64>, Vec<f64>) {
    let mut rng = Rng::seeded(0xD1CE);
    let y_true = (0..rows)
        .map(|i| {
            (0..labels)
                .map(|j| u8::from(j == i % labels || (j != (i + 1) % labels && rng.below(3) == 0)))
                .collect()
        })
        .collect();
    let scores = (0..rows * labels)
        .map(|_| rng.below(7) as f64 / 7.0)
        .collect();
    let weights = (0..rows).map(|_| 1.0 + rng.below(4) as f64).collect();
    (y_true, scores, weights)
}

/// `evaluate` and `evaluate_dyn` on the same inputs, unweighted and weighted.
fn check<M: RankingMetric<f64> + Clone + 'static>(name: &str, metric: M) {
    let (rows, labels) = (40, 6);
    let (y_true, scores, weights) = inputs(rows, labels);
    let y_score = RowMajor::new(&scores, rows, labels).unwrap();
    for w in [None, Some(&weights[..])] {
        let typed = metric.evaluate(&y_true, &y_score, w);
        assert!(w.is_some() || typed.is_ok(), "{name}: {typed:?}");
        let boxed: Box<dyn DynRankingMetric<f64, u8>> = Box::new(metric.clone());
        let erased = boxed.evaluate_dyn(&y_true, &y_score, w);
        match (typed, erased) {
            (Ok(a), Ok(b)) => assert_eq!(a.to_bits(), b.to_bits(), "{name}, weights {w:?}"),
            (a, b) => assert_eq!(a, b, "{name}, weights {w:?}"),
        }
    }
}

#[test]
fn own_metrics_agree_bitwise() {
    let t = TiePolicy::Average;
    let inv = vec![1.0, 2.0, 4.0, 1.5, 3.0, 1.25];
    check("coverage", Coverage::new(t));
    check("average_precision", AveragePrecision::new(t));
    check("ranking_loss", RankingLoss::new(t));
    check("one_error", OneError::new(TiePolicy::Max));
    check("is_error", IsError::new(TiePolicy::Max));
    check("error_set_size", ErrorSetSize::new(TiePolicy::Max));
    check("dcg", Dcg::new(t).with_k(Some(3)).unwrap());
    check("ndcg", Ndcg::new(t));
    check("precision_at_k", PrecisionAtK::new(t, 3).unwrap());
    check("recall_at_k", RecallAtK::new(t, 3).unwrap());
    check("ndcg_at_k", NdcgAtK::new(t, 3).unwrap());
    check(
        "ps_precision_at_k",
        PsPrecisionAtK::new(t, 3, inv.clone()).unwrap(),
    );
    check("ps_ndcg_at_k", PsNdcgAtK::new(t, 3, inv).unwrap());
    for average in [
        Average::Macro,
        Average::Micro,
        Average::Weighted,
        Average::Samples,
    ] {
        check("roc_auc", RocAuc::new(average, t));
        check(
            "label_average_precision",
            LabelAveragePrecision::new(average, t),
        );
        check(
            "interpolated_average_precision",
            InterpolatedAveragePrecision::new(average, t, 11),
        );
    }
}

#[test]
fn toolkit_presets_agree_bitwise() {
    check("sklearn coverage_error", sklearn::COVERAGE_ERROR);
    check("sklearn ndcg_score", sklearn::NDCG_SCORE);
    check("sklearn roc_auc_score", sklearn::ROC_AUC_SCORE);
    check(
        "torchmetrics ranking_loss",
        torchmetrics::MULTILABEL_RANKING_LOSS,
    );
    check("mldr coverage", mldr::COVERAGE);
    check("mldr micro_auc", mldr::MICRO_AUC);
    check("mulan AveragePrecision", mulan::AveragePrecision);
    check("mulan MacroAUCPR", mulan::MacroAUCPR);
}

#[test]
fn registry_presets_agree_bitwise() {
    for convention in Convention::ALL {
        for name in convention
            .entries()
            .iter()
            .filter(|e| !e.needs_params())
            .map(|e| &e.name)
        {
            let preset = Preset::lookup(convention, name, Preset::NO_PARAMS, None).unwrap();
            check(&format!("{convention} {name}"), preset);
        }
    }
}
