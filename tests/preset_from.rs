//! Typed row-wise metrics become presets: `Preset::from(m)` is what `Preset::lookup` gives for
//! the same options (name, parameters and metric), and evaluates bitwise as `m`.

use rankmetrics::registry::{Convention, Preset};
use rankmetrics::{
    AveragePrecision, Coverage, Dcg, ErrorSetSize, IsError, Ndcg, NdcgAtK, OneError, PrecisionAtK,
    RankingLoss, RankingMetric, RecallAtK, RowRule, TieGrouping, TiePolicy,
};

const POLICIES: [TiePolicy; 9] = [
    TiePolicy::Max,
    TiePolicy::Min,
    TiePolicy::Average,
    TiePolicy::First,
    TiePolicy::Last,
    TiePolicy::Random(7),
    TiePolicy::Expected,
    TiePolicy::Optimistic,
    TiePolicy::Pessimistic,
];

/// `preset` against `lookup` with `params` (besides `ties`), and against `metric`'s values.
fn check<M: RankingMetric<f64>>(preset: Preset, metric: &M, params: &[(&str, &str)]) {
    let ties = preset
        .params()
        .iter()
        .find(|(k, _)| *k == "ties")
        .map(|(_, v)| v.to_string().parse::<TiePolicy>().unwrap());
    let found = Preset::lookup(Convention::Rankmetrics, preset.name(), params, ties).unwrap();
    assert_eq!(preset, found, "{}", preset.name());
    let y = [
        [1, 0, 1, 0, 0],
        [0, 0, 0, 0, 0],
        [1, 1, 0, 0, 1],
        [1, 1, 1, 1, 1],
    ];
    let s = [
        [0.5, 0.5, 0.25, 0.75, 0.5],
        [0.1, 0.2, 0.2, 0.3, 0.1],
        [0.9, 0.1, 0.1, 0.1, 0.9],
        [0.5, 0.5, 0.5, 0.5, 0.5],
    ];
    let w = [1.0, 0.5, 2.0, 0.25];
    for weights in [None, Some(&w[..])] {
        let (a, b) = (
            preset.evaluate(&y, &s, weights),
            metric.evaluate(&y, &s, weights),
        );
        assert_eq!(
            a.map(f64::to_bits),
            b.map(f64::to_bits),
            "{}",
            preset.name()
        );
    }
}

#[test]
fn typed_metrics_are_the_presets_lookup_finds() {
    for t in POLICIES {
        let c = Coverage::new(t).one_based(true);
        check(Preset::from(c), &c, &[("one_based", "true")]);
        let m = AveragePrecision::new(t).with_grouping(TieGrouping::WEKA);
        check(Preset::from(m), &m, &[("grouping", "weka")]);
        let m = RankingLoss::new(t).on_no_relevant(RowRule::Skip);
        check(Preset::from(m), &m, &[("no_relevant", "skip")]);
        let m = OneError::new(t).on_all_relevant(RowRule::Value(0.25));
        check(Preset::from(m), &m, &[("all_relevant", "0.25")]);
        let m = IsError::new(t);
        check(Preset::from(m), &m, &[]);
        let m = ErrorSetSize::new(t);
        check(Preset::from(m), &m, &[]);
        let m = Dcg::new(t)
            .with_k(Some(3))
            .unwrap()
            .with_log_base(10.0)
            .unwrap();
        check(Preset::from(m), &m, &[("k", "3"), ("log_base", "10")]);
        let m = Ndcg::new(t).with_k(Some(2)).unwrap();
        check(Preset::from(m), &m, &[("k", "2")]);
        let m = Ndcg::new(t);
        check(Preset::from(m), &m, &[]);
        let m = PrecisionAtK::new(t, 2).unwrap();
        check(Preset::from(m), &m, &[("k", "2")]);
        let m = RecallAtK::new(t, 4).unwrap();
        check(Preset::from(m), &m, &[("k", "4")]);
        let m = NdcgAtK::new(t, 1).unwrap();
        check(Preset::from(m), &m, &[("k", "1")]);
    }
}

#[test]
fn typed_and_looked_up_presets_share_a_list() {
    let list: Vec<Preset> = vec![
        Coverage::new(TiePolicy::Max).into(),
        Preset::lookup(
            Convention::Sklearn,
            "coverage_error",
            Preset::NO_PARAMS,
            None,
        )
        .unwrap(),
    ];
    let (y, s) = ([[0, 1, 0]], [[0.5, 0.5, 0.1]]);
    let values: Vec<f64> = list
        .iter()
        .map(|p| p.evaluate(&y, &s, None).unwrap())
        .collect();
    // The own coverage counts from 0, scikit-learn's from 1.
    assert_eq!(values, [1.0, 2.0]);
}
