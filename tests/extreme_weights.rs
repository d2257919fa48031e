//! Sample weights anywhere in (0, f64::MAX]: every preset that takes weights, and the
//! label-wise metrics under every average, give at weights w what they give at c·w, c the
//! power of two that brings the weights into the normal range (scaling by a power of two is
//! exact), bitwise: one-shot, all presets at once, and streamed in batches merged either way.
//! The one rule of the original weights is scikit-learn's: a `weighted` average whose total
//! weight is 1e-8 or less is 0.

use rankmetrics::registry::{evaluate_all, Convention, Preset};
use rankmetrics::{
    Average, Error, InterpolatedAveragePrecision, LabelAveragePrecision, RankingMetric, RocAuc,
    RowMajor, TiePolicy,
};

/// The 3 × 3 input and a 6 × 4 one with ties, both with every label of both classes.
fn inputs() -> [(Vec<f64>, Vec<f64>, usize, usize); 2] {
    [
        (
            vec![1., 0., 1., 0., 1., 1., 1., 1., 0.],
            vec![0.9, 0.5, 0.5, 0.5, 0.7, 0.2, 0.1, 0.5, 0.3],
            3,
            3,
        ),
        (
            vec![
                1., 0., 0., 1., 0., 1., 0., 0., 1., 1., 0., 1., 0., 0., 1., 0., 1., 0., 1., 1., 0.,
                1., 0., 0.,
            ],
            vec![
                0.8, 0.2, 0.2, 0.6, 0.1, 0.9, 0.4, 0.4, 0.7, 0.7, 0.3, 0.5, 0.2, 0.2, 0.9, 0.1,
                0.6, 0.3, 0.6, 0.6, 0.5, 0.5, 0.5, 0.1,
            ],
            6,
            4,
        ),
    ]
}

/// Weight patterns (repeated over the rows) at the extremes, and spanning 2^660 (where a
/// product of two weight sums underflows unless scaled).
const PATTERNS: [&[f64]; 8] = [
    &[5e-324],
    &[1e-300],
    &[1.7e308],
    &[0.0, 1.7e308, 1.7e308],
    &[5e-324, 1e-300, 5e-324],
    &[f64::MAX, 3.0, 0.0],
    &[1e-300, 1e-100, 1e-100],
    &[1e-170, 1e-170, 1.0, 1e-170],
];

/// `x·2^k`, exactly where the result is normal.
fn times_power_of_two(x: f64, k: i32) -> f64 {
    let step = |k: i32| f64::from_bits(((1023 + k) as u64) << 52);
    let (mut x, mut k) = (x, k);
    while k.abs() > 512 {
        let part = 512 * k.signum();
        x *= step(part);
        k -= part;
    }
    x * step(k)
}

/// The weights times the power of two that brings the largest into [1, 2).
fn into_normal_range(weights: &[f64]) -> Vec<f64> {
    let max = weights.iter().fold(0.0f64, |m, &w| m.max(w));
    let exponent = max.log2().floor() as i32;
    weights
        .iter()
        .map(|&w| times_power_of_two(w, -exponent))
        .collect()
}

/// A value or error, comparable bitwise (any NaN equals any NaN; errors by their text).
fn bits(r: &Result<f64, Error>) -> String {
    match r {
        Ok(v) if v.is_nan() => "NaN".to_string(),
        Ok(v) => format!("{v} ({:#x})", v.to_bits()),
        Err(e) => format!("{e:?}"),
    }
}

/// What scikit-learn's `weighted` rule reads: Σᵢ wᵢ·(relevant labels of row i).
fn relevant_weight(y: &[f64], weights: &[f64], l: usize) -> f64 {
    weights
        .iter()
        .enumerate()
        .map(|(i, &w)| w * y[i * l..(i + 1) * l].iter().sum::<f64>())
        .sum()
}

/// Every registry preset with its defaults, and the label-wise presets under every average;
/// whether each averages by the `weighted` rule.
fn presets() -> Vec<(Preset, bool)> {
    let mut presets = Vec::new();
    for convention in Convention::ALL {
        for &name in convention
            .entries()
            .iter()
            .filter(|e| !e.needs_params())
            .map(|e| &e.name)
        {
            presets.push((
                Preset::lookup(convention, name, Preset::NO_PARAMS, None).unwrap(),
                false,
            ));
            if Preset::param_keys(convention, name).contains(&"average") {
                // torchmetrics has no samples average.
                let averages = match convention {
                    Convention::Torchmetrics => &["micro", "macro", "weighted"][..],
                    _ => &["micro", "macro", "weighted", "samples"],
                };
                for &average in averages {
                    let params = [("average", average)];
                    presets.push((
                        Preset::lookup(convention, name, &params, None).unwrap(),
                        average == "weighted",
                    ));
                }
            }
        }
    }
    presets
}

/// A metric evaluated on (y_true, y_score) at weights.
type Eval = Box<dyn Fn(&RowMajor<f64>, &RowMajor<f64>, &[f64]) -> Result<f64, Error>>;

/// The label-wise metrics of the crate under every average and a few policies.
fn labelwise_metrics() -> Vec<(String, Eval, bool)> {
    let mut metrics: Vec<(String, Eval, bool)> = Vec::new();
    let averages = [
        Average::Micro,
        Average::Macro,
        Average::Weighted,
        Average::Samples,
    ];
    for average in averages {
        for ties in [TiePolicy::Average, TiePolicy::Max, TiePolicy::First] {
            let weighted = average == Average::Weighted;
            let auc = RocAuc::new(average, ties);
            metrics.push((
                format!("{auc:?}"),
                Box::new(move |y, s, w| auc.evaluate(y, s, Some(w))),
                weighted,
            ));
            let ap = LabelAveragePrecision::new(average, ties);
            metrics.push((
                format!("{ap:?}"),
                Box::new(move |y, s, w| ap.evaluate(y, s, Some(w))),
                weighted,
            ));
            let iap = InterpolatedAveragePrecision::new(average, ties, 11);
            metrics.push((
                format!("{iap:?}"),
                Box::new(move |y, s, w| iap.evaluate(y, s, Some(w))),
                weighted,
            ));
        }
    }
    metrics
}

/// The value at `weights` next to the value at the same weights brought into normal range:
/// equal, but 0 where the `weighted` rule reads a total of 1e-8 or less.
fn check(
    what: &str, weighted_rule: bool, eval: impl Fn(&[f64]) -> Result<f64, Error>, y: &[f64],
    l: usize, weights: &[f64],
) {
    let got = eval(weights);
    let expected = if weighted_rule && relevant_weight(y, weights, l).abs() <= 1e-8 {
        Ok(0.0)
    } else {
        eval(&into_normal_range(weights))
    };
    assert_eq!(bits(&got), bits(&expected), "{what} at weights {weights:?}");
}

#[test]
fn every_weighted_preset_gives_its_value_at_extreme_weights() {
    let presets = presets();
    let mut checked = 0;
    for (y, s, n, l) in inputs() {
        let (yt, ys) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        for pattern in PATTERNS {
            let weights: Vec<f64> = pattern.iter().copied().cycle().take(n).collect();
            for (preset, weighted_rule) in &presets {
                if preset.evaluate(&yt, &ys, Some(&vec![1.0; n])).is_err() {
                    continue; // takes no weights
                }
                let what = format!("{preset:?}");
                check(
                    &what,
                    *weighted_rule,
                    |w| preset.evaluate(&yt, &ys, Some(w)),
                    &y,
                    l,
                    &weights,
                );
                checked += 1;
            }
            for (what, eval, weighted_rule) in labelwise_metrics() {
                check(&what, weighted_rule, |w| eval(&yt, &ys, w), &y, l, &weights);
            }
        }
    }
    assert!(checked > 300, "{checked} preset values checked");
}

/// Every preset at once, and streamed in two batches merged either way, gives bitwise what
/// the preset gives one-shot, at the extreme weights too.
#[test]
fn all_at_once_and_streamed_equal_one_shot_at_extreme_weights() {
    let presets: Vec<Preset> = presets().into_iter().map(|(p, _)| p).collect();
    for (y, s, n, l) in inputs() {
        let (yt, ys) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        let cut = n / 2;
        let (y1, y2) = (
            RowMajor::new(&y[..cut * l], cut, l).unwrap(),
            RowMajor::new(&y[cut * l..], n - cut, l).unwrap(),
        );
        let (s1, s2) = (
            RowMajor::new(&s[..cut * l], cut, l).unwrap(),
            RowMajor::new(&s[cut * l..], n - cut, l).unwrap(),
        );
        for pattern in PATTERNS {
            let weights: Vec<f64> = pattern.iter().copied().cycle().take(n).collect();
            let all = evaluate_all(&presets, &yt, &ys, Some(&weights));
            for (preset, at_once) in presets.iter().zip(&all) {
                let one = preset.evaluate(&yt, &ys, Some(&weights));
                let what = format!("{preset:?} at weights {weights:?}");
                assert_eq!(bits(at_once), bits(&one), "all at once: {what}");
                if one.is_err() {
                    continue;
                }
                let mut first = preset.accumulator();
                first.update(&y1, &s1, Some(&weights[..cut])).unwrap();
                let mut second = preset.accumulator_starting_at(cut);
                second.update(&y2, &s2, Some(&weights[cut..])).unwrap();
                let mut forward = first.clone();
                forward.merge(&second).unwrap();
                let mut backward = second;
                backward.merge(&first).unwrap();
                assert_eq!(bits(&forward.value()), bits(&one), "streamed: {what}");
                assert_eq!(bits(&backward.value()), bits(&one), "merged back: {what}");
            }
        }
    }
}

/// scikit-learn's `weighted` rule reads the weights as given, whatever the scale the sums
/// are kept at: a huge weight on a row without relevant labels leaves the others' total as it
/// is, above 1e-8 (a value) or not (0).
#[test]
fn the_weighted_rule_reads_the_original_weights() {
    let y = [0., 0., 1., 0., 0., 1., 0., 0.];
    let s = [0.05, 0.05, 0.3, 0.6, 0.7, 0.2, 0.1, 0.4];
    let (yt, ys) = (
        RowMajor::new(&y, 4, 2).unwrap(),
        RowMajor::new(&s, 4, 2).unwrap(),
    );
    for name in ["roc_auc_score", "average_precision_score"] {
        let params = [("average", "weighted")];
        let preset = Preset::lookup(Convention::Sklearn, name, &params, None).unwrap();
        // The last row's weight: 1, or one that scaling rounds to 0 (the total is then read
        // from the weights as given).
        for (huge, last) in [(1.7e308, 1.0), (f64::MAX, 5e-324), (2f64.powi(401), 1.0)] {
            let above = preset.evaluate(&yt, &ys, Some(&[huge, 6e-9, 6e-9, last]));
            assert!(
                above.unwrap() > 0.0,
                "{name}: 0 with weights above the rule's total"
            );
            let at = preset.evaluate(&yt, &ys, Some(&[huge, 5e-9, 5e-9, last]));
            assert_eq!(at.unwrap(), 0.0, "{name} with a total of 1e-8");
        }
        // Tiny weights: the total is below 1e-8, so 0, where the same weights scaled up give a
        // value.
        let tiny = [1e-300, 5e-324, 1e-300, 1e-300];
        assert_eq!(preset.evaluate(&yt, &ys, Some(&tiny)).unwrap(), 0.0);
        assert!(
            preset
                .evaluate(&yt, &ys, Some(&into_normal_range(&tiny)))
                .unwrap()
                > 0.0
        );
    }
}
