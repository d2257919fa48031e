//! rankmetrics' own metrics of relevance take 0/1 labels by default: a {-1, 1} encoding or a
//! label 2 is `Error::InvalidLabel` naming the cell, not a silent "every non-zero label is
//! relevant". `with_label_domain(LabelDomain::NonZero)` (and the registry's `labels=nonzero`)
//! gives the values these metrics gave before the default changed (pinned below, bitwise);
//! graded metrics and the toolkit presets keep their own rules.

use rankmetrics::registry::{Convention, LookupError, ParamValue, Preset};
use rankmetrics::{
    mldr, mulan, sklearn, torchmetrics, Average, AveragePrecision, Coverage, Dcg, Error,
    ErrorSetSize, InterpolatedAveragePrecision, IsError, LabelAveragePrecision, LabelDomain, Ndcg,
    NdcgAtK, OneError, PrecisionAtK, PsNdcgAtK, PsPrecisionAtK, RankingLoss, RankingMetric,
    RecallAtK, RocAuc, TiePolicy,
};

type Y = [[f64; 4]; 3];

/// A {-1, 1} encoding: the first cell that is not 0 or 1 is (0, 1).
const PLUS_MINUS: Y = [
    [1.0, -1.0, -1.0, 1.0],
    [-1.0, 1.0, -1.0, -1.0],
    [1.0, 1.0, -1.0, -1.0],
];
/// Graded labels: the first cell that is not 0 or 1 is (0, 0).
const TWO: Y = [
    [2.0, 0.0, 1.0, 0.0],
    [0.0, 1.0, 0.0, 2.0],
    [1.0, 0.0, 0.0, 0.0],
];
const BINARY: Y = [
    [1.0, 0.0, 1.0, 0.0],
    [0.0, 1.0, 0.0, 1.0],
    [1.0, 0.0, 0.0, 0.0],
];
const SCORES: Y = [
    [0.9, 0.5, 0.5, 0.1],
    [0.2, 0.8, 0.3, 0.8],
    [0.4, 0.4, 0.6, 0.1],
];

/// Every own metric of relevance, evaluated on `y` with its labels in `domain` (`None`: the
/// default).
fn own_metrics(y: &Y, domain: Option<LabelDomain>) -> Vec<(String, Result<f64, Error>)> {
    let t = TiePolicy::Max;
    macro_rules! with {
        ($m:expr) => {
            match domain {
                Some(d) => $m.with_label_domain(d),
                None => $m,
            }
        };
    }
    let s = &SCORES;
    let mut v: Vec<(String, Result<f64, Error>)> = vec![
        (
            "Coverage".into(),
            with!(Coverage::new(t)).evaluate(y, s, None),
        ),
        (
            "AveragePrecision".into(),
            with!(AveragePrecision::new(t)).evaluate(y, s, None),
        ),
        (
            "RankingLoss".into(),
            with!(RankingLoss::new(t)).evaluate(y, s, None),
        ),
        (
            "OneError".into(),
            with!(OneError::new(t)).evaluate(y, s, None),
        ),
        (
            "IsError".into(),
            with!(IsError::new(t)).evaluate(y, s, None),
        ),
        (
            "ErrorSetSize".into(),
            with!(ErrorSetSize::new(t)).evaluate(y, s, None),
        ),
        (
            "PrecisionAtK".into(),
            with!(PrecisionAtK::new(t, 2).unwrap()).evaluate(y, s, None),
        ),
        (
            "RecallAtK".into(),
            with!(RecallAtK::new(t, 2).unwrap()).evaluate(y, s, None),
        ),
        (
            "NdcgAtK".into(),
            with!(NdcgAtK::new(t, 2).unwrap()).evaluate(y, s, None),
        ),
    ];
    for a in [
        Average::Macro,
        Average::Micro,
        Average::Samples,
        Average::Weighted,
    ] {
        let auc = with!(RocAuc::new(a, t));
        let ap = with!(LabelAveragePrecision::new(a, t));
        let iap = with!(InterpolatedAveragePrecision::new(a, t, 11));
        v.push((
            format!("RocAuc {a:?}"),
            RankingMetric::<f64>::evaluate(&auc, y, s, None),
        ));
        v.push((
            format!("LabelAveragePrecision {a:?}"),
            RankingMetric::<f64>::evaluate(&ap, y, s, None),
        ));
        v.push((
            format!("InterpolatedAveragePrecision {a:?}"),
            RankingMetric::<f64>::evaluate(&iap, y, s, None),
        ));
    }
    v
}

/// The propensity-scored metrics (binary before, and still).
fn ps_metrics(y: &Y) -> Vec<Result<f64, Error>> {
    let w = vec![1.5; 4];
    let t = TiePolicy::Max;
    vec![
        PsPrecisionAtK::new(t, 2, w.clone())
            .unwrap()
            .evaluate(y, &SCORES, None),
        PsNdcgAtK::new(t, 2, w).unwrap().evaluate(y, &SCORES, None),
    ]
}

fn invalid(row: usize, column: usize, value: f64) -> Error {
    Error::InvalidLabel {
        row,
        column,
        value,
        expected: LabelDomain::Binary,
    }
}

#[test]
fn labels_outside_0_1_are_errors_by_default() {
    for (y, want) in [
        (&PLUS_MINUS, invalid(0, 1, -1.0)),
        (&TWO, invalid(0, 0, 2.0)),
    ] {
        for (name, got) in own_metrics(y, None) {
            assert_eq!(got, Err(want.clone()), "{name}");
        }
        for got in ps_metrics(y) {
            assert_eq!(got, Err(want.clone()));
        }
    }
    // Only the first bad cell in row order is named: here row 2, column 3.
    let mut y = BINARY;
    y[2][3] = 0.5;
    for (name, got) in own_metrics(&y, None) {
        assert_eq!(got, Err(invalid(2, 3, 0.5)), "{name}");
    }
}

#[test]
fn binary_labels_of_every_type_are_accepted() {
    let floats = own_metrics(&BINARY, None);
    assert!(floats.iter().all(|(_, v)| v.is_ok()), "{floats:?}");
    let bools = BINARY.map(|r| r.map(|y| y == 1.0));
    let ints = BINARY.map(|r| r.map(|y| y as u8));
    let c = Coverage::new(TiePolicy::Max);
    let want = c.evaluate(&BINARY, &SCORES, None).unwrap();
    assert_eq!(c.evaluate(&bools, &SCORES, None).unwrap(), want);
    assert_eq!(c.evaluate(&ints, &SCORES, None).unwrap(), want);
}

/// The values every own metric gave with "non-zero is relevant" before 0/1 became the
/// default (the row-wise metrics' default then, the label-wise ones' opt-in).
const PINNED_PLUS_MINUS: &[(&str, u64)] = &[
    ("Coverage", 0x4008000000000000),
    ("AveragePrecision", 0x3ff0000000000000),
    ("RankingLoss", 0x0000000000000000),
    ("OneError", 0x0000000000000000),
    ("IsError", 0x0000000000000000),
    ("ErrorSetSize", 0x0000000000000000),
    ("PrecisionAtK", 0x3fe5555555555555),
    ("RecallAtK", 0x3fd5555555555555),
    ("NdcgAtK", 0x3fe5555555555555),
    ("RocAuc Macro", 0x7ff8000000000000),
    ("LabelAveragePrecision Macro", 0x3ff0000000000000),
    ("InterpolatedAveragePrecision Macro", 0x3ff0000000000000),
    ("RocAuc Micro", 0x7ff8000000000000),
    ("LabelAveragePrecision Micro", 0x3ff0000000000000),
    ("InterpolatedAveragePrecision Micro", 0x3ff0000000000000),
    ("RocAuc Samples", 0x7ff8000000000000),
    ("LabelAveragePrecision Samples", 0x3ff0000000000000),
    ("InterpolatedAveragePrecision Samples", 0x3ff0000000000000),
    ("RocAuc Weighted", 0x7ff8000000000000),
    ("LabelAveragePrecision Weighted", 0x3ff0000000000000),
    ("InterpolatedAveragePrecision Weighted", 0x3ff0000000000000),
];
const PINNED_TWO: &[(&str, u64)] = &[
    ("Coverage", 0x3ffaaaaaaaaaaaab),
    ("AveragePrecision", 0x3fe71c71c71c71c7),
    ("RankingLoss", 0x3fd38e38e38e38e3),
    ("OneError", 0x3fd5555555555555),
    ("IsError", 0x3fe5555555555555),
    ("ErrorSetSize", 0x3ff0000000000000),
    ("PrecisionAtK", 0x3fe0000000000000),
    ("RecallAtK", 0x3fe0000000000000),
    ("NdcgAtK", 0x3fdd9610c24958e0),
    ("RocAuc Macro", 0x3fec000000000000),
    ("LabelAveragePrecision Macro", 0x3fec000000000000),
    ("InterpolatedAveragePrecision Macro", 0x3fec000000000000),
    ("RocAuc Micro", 0x3feb6db6db6db6db),
    ("LabelAveragePrecision Micro", 0x3feb777777777778),
    ("InterpolatedAveragePrecision Micro", 0x3febe0f83e0f83e1),
    ("RocAuc Samples", 0x3fe638e38e38e38f),
    ("LabelAveragePrecision Samples", 0x3fe71c71c71c71c7),
    ("InterpolatedAveragePrecision Samples", 0x3fe745d1745d1745),
    ("RocAuc Weighted", 0x3fedb6db6db6db6e),
    ("LabelAveragePrecision Weighted", 0x3fedb6db6db6db6e),
    ("InterpolatedAveragePrecision Weighted", 0x3fedb6db6db6db6e),
];

#[test]
fn the_opt_in_gives_the_values_of_non_zero_relevance() {
    for (y, pinned) in [(&PLUS_MINUS, PINNED_PLUS_MINUS), (&TWO, PINNED_TWO)] {
        let got = own_metrics(y, Some(LabelDomain::NonZero));
        assert_eq!(got.len(), pinned.len());
        for ((name, got), (pinned_name, bits)) in got.iter().zip(pinned) {
            assert_eq!(name, pinned_name);
            let got = got.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(got.to_bits(), *bits, "{name}: {got}");
        }
    }
}

#[test]
fn graded_metrics_keep_their_gains() {
    let t = TiePolicy::Average;
    // DCG: any finite gain, negative ones included; NDCG: non-negative gains.
    assert!(Dcg::new(t).evaluate(&PLUS_MINUS, &SCORES, None).is_ok());
    assert!(Dcg::new(t).evaluate(&TWO, &SCORES, None).is_ok());
    assert!(Ndcg::new(t).evaluate(&TWO, &SCORES, None).is_ok());
    assert_eq!(
        Ndcg::new(t).evaluate(&PLUS_MINUS, &SCORES, None),
        Err(Error::InvalidLabel {
            row: 0,
            column: 1,
            value: -1.0,
            expected: LabelDomain::NonNegative
        })
    );
}

#[test]
fn toolkit_presets_keep_their_own_rules() {
    let (pm, two, s) = (&PLUS_MINUS, &TWO, &SCORES);
    // scikit-learn: a multilabel indicator of any two integral values; non-zero is relevant.
    assert_eq!(
        sklearn::LABEL_RANKING_AVERAGE_PRECISION_SCORE.evaluate(pm, s, None),
        Ok(1.0)
    );
    assert_eq!(sklearn::COVERAGE_ERROR.evaluate(pm, s, None), Ok(4.0));
    assert!(matches!(
        sklearn::COVERAGE_ERROR.evaluate(two, s, None),
        Err(Error::InvalidLabel {
            expected: LabelDomain::Indicator,
            ..
        })
    ));
    assert!(sklearn::DCG_SCORE.evaluate(pm, s, None).is_ok());
    assert!(sklearn::NDCG_SCORE.evaluate(two, s, None).is_ok());
    assert_eq!(sklearn::DCG_SCORE.options().labels, LabelDomain::NonZero);
    assert_eq!(
        sklearn::NDCG_SCORE.options().labels,
        LabelDomain::NonNegative
    );
    // torchmetrics, mldr, MULAN: 0/1 only; torchmetrics' retrieval NDCG: any finite gain.
    for err in [
        torchmetrics::MULTILABEL_COVERAGE_ERROR.evaluate(two, s, None),
        mldr::COVERAGE.evaluate(two, s, None),
        mulan::Coverage.evaluate(two, s, None),
        RankingMetric::<f64>::evaluate(&mldr::MACRO_AUC, two, s, None),
        RankingMetric::<f64>::evaluate(&mulan::MacroAUCPR, two, s, None),
    ] {
        assert_eq!(err, Err(invalid(0, 0, 2.0)));
    }
    assert!(torchmetrics::RETRIEVAL_NORMALIZED_DCG
        .evaluate(pm, s, None)
        .is_ok());
    // Each label-wise preset says its domain itself.
    for labels in [
        mldr::MACRO_AUC.options().labels,
        mldr::MICRO_AUC.options().labels,
        mulan::MacroAUC.options().labels,
        mulan::MeanAveragePrecision.options().labels,
        mulan::GeometricMeanAveragePrecision.options().labels,
        mulan::MeanAverageInterpolatedPrecision.options().labels,
        mulan::MacroAUCPR.options().labels,
    ] {
        assert_eq!(labels, LabelDomain::Binary);
    }
}

#[test]
fn the_registry_takes_labels_for_metrics_of_relevance() {
    let nonzero = [("labels".to_string(), "nonzero".to_string())];
    // Every row-wise metric of the convention but the graded ones and those that need a
    // parameter (the propensity-scored ones).
    let relevance: Vec<&str> = Convention::Rankmetrics
        .entries()
        .iter()
        .filter(|e| !e.needs_params() && !matches!(e.name, "dcg" | "ndcg"))
        .map(|e| e.name)
        .filter(|&n| {
            let p = Preset::lookup(Convention::Rankmetrics, n, Preset::NO_PARAMS, None);
            p.unwrap().is_row_wise()
        })
        .collect();
    assert_eq!(relevance.len(), 9);
    for name in relevance {
        assert!(Preset::param_keys(Convention::Rankmetrics, name).contains(&"labels"));
        let strict =
            Preset::lookup(Convention::Rankmetrics, name, Preset::NO_PARAMS, None).unwrap();
        let labels = ("labels", ParamValue::Str("binary".into()));
        assert!(strict.params().contains(&labels), "{name}");
        assert_eq!(
            strict.evaluate(&PLUS_MINUS, &SCORES, None),
            Err(invalid(0, 1, -1.0))
        );
        let lax = Preset::lookup(Convention::Rankmetrics, name, &nonzero, None).unwrap();
        let labels = ("labels", ParamValue::Str("nonzero".into()));
        assert!(lax.params().contains(&labels), "{name}");
        assert!(lax.evaluate(&PLUS_MINUS, &SCORES, None).is_ok(), "{name}");
    }
    let lax = Preset::lookup(Convention::Rankmetrics, "average_precision", &nonzero, None);
    assert_eq!(lax.unwrap().evaluate(&PLUS_MINUS, &SCORES, None), Ok(1.0));
    for name in ["dcg", "ndcg"] {
        assert!(!Preset::param_keys(Convention::Rankmetrics, name).contains(&"labels"));
    }
    let bad = [("labels".to_string(), "signed".to_string())];
    assert!(matches!(
        Preset::lookup(Convention::Rankmetrics, "coverage", &bad, None),
        Err(LookupError::InvalidParam { .. })
    ));
}

#[test]
fn typed_metrics_as_presets_echo_their_labels() {
    let t = TiePolicy::Max;
    let labels = |p: &Preset| {
        p.params()
            .iter()
            .find(|(k, _)| *k == "labels")
            .map(|(_, v)| v.to_string())
    };
    let strict = Preset::from(Coverage::new(t));
    assert_eq!(labels(&strict).as_deref(), Some("binary"));
    assert_eq!(
        strict.evaluate(&PLUS_MINUS, &SCORES, None),
        Err(invalid(0, 1, -1.0))
    );
    let lax = Preset::from(Coverage::new(t).with_label_domain(LabelDomain::NonZero));
    assert_eq!(labels(&lax).as_deref(), Some("nonzero"));
    assert!(lax.evaluate(&PLUS_MINUS, &SCORES, None).is_ok());
    // A domain the registry has no value for is not echoed as another.
    let indicator = Preset::from(Coverage::new(t).with_label_domain(LabelDomain::Indicator));
    assert_eq!(labels(&indicator), None);
    assert_eq!(labels(&Preset::from(Dcg::new(t))), None);
}
