//! The library's vocabulary: the names its settings take, read by `str::parse` with errors
//! that list the valid names; and the kind and location of errors met in evaluation.

use std::str::FromStr;

use rankmetrics::registry::Convention;
use rankmetrics::{
    Average, Coverage, Error, Input, InterpolatedAveragePrecision, Location, RankingMetric,
    TiePolicy, Undefined, UnknownName,
};

/// Every text in `good` reads as the value beside it; each text in `bad` is refused with an
/// error for `setting` that names the text and lists `valid`.
fn check<T>(setting: &str, good: &[(&str, T)], bad: &[&str], valid: &[&str])
where
    T: FromStr<Err = UnknownName> + PartialEq + std::fmt::Debug,
{
    for (text, value) in good {
        assert_eq!(text.parse::<T>().as_ref(), Ok(value), "{text}");
    }
    for text in bad {
        let err = text.parse::<T>().unwrap_err();
        assert_eq!(
            (err.setting(), err.text(), err.valid()),
            (setting, *text, valid)
        );
        let message = err.to_string();
        assert!(message.contains(&format!("{text:?}")), "{message}");
        for name in valid {
            assert!(message.contains(name), "{message} lacks {name}");
        }
    }
}

#[test]
fn conventions_read_by_name() {
    let good: Vec<(&str, Convention)> = Convention::ALL.iter().map(|c| (c.name(), *c)).collect();
    check(
        "convention",
        &good,
        &["weka", "", "SKLEARN", "sklearn "],
        &Convention::NAMES,
    );
}

#[test]
fn averages_read_by_name() {
    let good = [
        ("micro", Average::Micro),
        ("macro", Average::Macro),
        ("weighted", Average::Weighted),
        ("samples", Average::Samples),
    ];
    let valid = ["micro", "macro", "weighted", "samples"];
    check("averaging", &good, &["binary", "", "Macro", "none"], &valid);
}

#[test]
fn undefined_rules_read_by_name_or_number() {
    let good = [
        ("skip", Undefined::Skip),
        ("error", Undefined::Reject),
        ("0.5", Undefined::Value(0.5)),
        ("-1", Undefined::Value(-1.0)),
        ("inf", Undefined::Value(f64::INFINITY)),
    ];
    let valid = ["nan", "skip", "error", "a number"];
    check(
        "undefined rule",
        &good,
        &["always", "", "reject", "0.5.1"],
        &valid,
    );
    // NaN is not equal to itself as a value: the text that reads as NaN is the NaN rule.
    for nan in ["nan", "NaN", "NAN"] {
        assert!(
            matches!(nan.parse::<Undefined>(), Ok(Undefined::Nan)),
            "{nan}"
        );
    }
}

#[test]
fn tie_policies_read_by_name() {
    let good = [
        ("max", TiePolicy::Max),
        ("min", TiePolicy::Min),
        ("average", TiePolicy::Average),
        ("first", TiePolicy::First),
        ("last", TiePolicy::Last),
        ("random", TiePolicy::Random(0)),
        ("random:42", TiePolicy::Random(42)),
        ("expected", TiePolicy::Expected),
        ("optimistic", TiePolicy::Optimistic),
        ("pessimistic", TiePolicy::Pessimistic),
    ];
    let bad = ["dense", "", "Max", "random:", "random:-1", "random:x"];
    check("tie policy", &good, &bad, &TiePolicy::NAMES);
    // Every name listed reads, the seed's pattern with a seed.
    for name in TiePolicy::NAMES {
        assert!(
            TiePolicy::parse(&name.replace("SEED", "9")).is_some(),
            "{name}"
        );
    }
}

#[test]
fn errors_of_evaluation_say_where() {
    let coverage = Coverage::new(TiePolicy::Max);
    let y = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
    let s = [[0.5, 0.1], [0.2, 0.3], [0.4, f64::NAN]];
    let err = coverage.evaluate(&y, &s, None).unwrap_err();
    assert_eq!(err.kind(), "non_finite_score");
    let at = err.location();
    assert_eq!(
        (at.input, at.row, at.column),
        (Some(Input::Scores), Some(2), Some(1))
    );

    let s = [[0.5, 0.1], [0.2, 0.3], [0.4, 0.9]];
    let err = coverage
        .evaluate(&y, &s, Some(&[1.0, f64::INFINITY, 1.0]))
        .unwrap_err();
    assert_eq!(err.kind(), "invalid_weight");
    let at = err.location();
    assert_eq!(
        (at.input, at.row, at.column),
        (Some(Input::SampleWeights), Some(1), None)
    );

    let err = coverage.evaluate(&y, &s, Some(&[1.0])).unwrap_err();
    assert_eq!(err.kind(), "weight_length");
    assert_eq!(err.location().input, Some(Input::SampleWeights));

    let wide = [[0.5, 0.1, 0.2]];
    let err = coverage.evaluate(&y, &wide, None).unwrap_err();
    assert_eq!(
        (err.kind(), err.location()),
        ("shape_mismatch", Location::default())
    );
}

#[test]
fn a_policy_without_a_closed_form_says_why() {
    let ap = InterpolatedAveragePrecision::new(Average::Macro, TiePolicy::Expected, 11);
    let err = ap.evaluate(&[[1, 0]], &[[0.5, 0.5]], None).unwrap_err();
    let Error::UnsupportedPolicy { policy, reason } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(*policy, TiePolicy::Expected);
    assert!(!reason.is_empty());
    let message = err.to_string();
    assert!(
        message.starts_with("tie policy expected has no exact closed form"),
        "{message}"
    );
    assert!(message.contains(reason), "{message}");
    assert_eq!(err.kind(), "unsupported_policy");
}
