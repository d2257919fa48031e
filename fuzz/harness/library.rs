//! The library fuzz harness: bytes -> (preset or metric, options, shapes, labels, scores,
//! weights) -> every entry point. Shared by the libFuzzer target `library` and by
//! tests/fuzz_corpus.rs, which replays the committed corpus through it on every `cargo test`.
//!
//! What it checks on every input: no panic; every result is `Ok(value)` with `value` finite or
//! NaN (an infinite result would be an overflow nobody asked for) or a typed `Err`; the same call
//! twice gives bitwise the same result; per-sample values are finite, NaN or skipped.

use rankmetrics::registry::{evaluate_all, Convention, Preset};
use rankmetrics::{
    Average, Direction, Error, InterpolatedAveragePrecision, LabelAveragePrecision, LabelDomain,
    Mean, RankingMetric, RocAuc, TieGrouping, TiePolicy, Undefined,
};

/// Reads the fuzz input from the front; once it runs out, every read gives 0.
pub struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes(data)
    }

    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// An index into a list of `len` items (`len > 0`).
    pub fn pick(&mut self, len: usize) -> usize {
        usize::from(self.byte()) % len
    }

    pub fn u64(&mut self) -> u64 {
        (0..8).fold(0, |acc, _| (acc << 8) | u64::from(self.byte()))
    }
}

/// Scores that break naive code: ties, signed zeros, subnormals, extremes, non-finite values.
const SCORES: [f64; 24] = [
    0.0,
    0.5,
    1.0,
    0.25,
    -0.0,
    -1.0,
    2.0,
    0.5000001,
    0.5000014,
    5e-324,
    -5e-324,
    f64::MIN_POSITIVE,
    1e-300,
    1e300,
    -1e300,
    f64::MAX,
    f64::MIN,
    1e38,
    3.5e38,
    -3.5e38,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    0.75,
];

/// Labels: mostly 0/1, then graded, negative, fractional, huge and non-finite values. (Not
/// ±f64::MAX: a DCG of two such gains is rightly infinite.)
const LABELS: [f64; 16] = [
    0.0,
    1.0,
    0.0,
    1.0,
    0.0,
    1.0,
    2.0,
    3.0,
    -1.0,
    0.5,
    -0.0,
    1e300,
    -1e300,
    f64::NAN,
    f64::INFINITY,
    5e-324,
];

/// Weights: unit, zero, fractional, huge, tiny, invalid.
const WEIGHTS: [f64; 12] = [
    1.0,
    1.0,
    0.0,
    2.0,
    0.5,
    3.0,
    1e300,
    f64::MAX,
    5e-324,
    f64::NAN,
    -1.0,
    f64::INFINITY,
];

/// Parameter values the registry may receive: valid ones of every key, and junk.
const PARAM_VALUES: [&str; 37] = [
    "true",
    "false",
    "0",
    "1",
    "2",
    "3",
    "10",
    "0.5",
    "-1",
    "NA",
    "micro",
    "macro",
    "weighted",
    "samples",
    "exact",
    "weka",
    "1e-6",
    "formula",
    "skip",
    "reject",
    "3.6",
    "3.7",
    "3.9",
    "first",
    "last",
    "average",
    "min",
    "max",
    "random:7",
    "expected",
    "optimistic",
    "pessimistic",
    "nan",
    "inf",
    "1e300",
    "",
    "18446744073709551616",
];

fn tie_policy(b: &mut Bytes) -> TiePolicy {
    match b.pick(9) {
        0 => TiePolicy::Max,
        1 => TiePolicy::Min,
        2 => TiePolicy::Average,
        3 => TiePolicy::First,
        4 => TiePolicy::Last,
        5 => TiePolicy::Expected,
        6 => TiePolicy::Optimistic,
        7 => TiePolicy::Pessimistic,
        _ => TiePolicy::Random(b.u64()),
    }
}

fn score(b: &mut Bytes) -> f64 {
    match b.byte() {
        // Now and then any bit pattern at all.
        255 => f64::from_bits(b.u64()),
        x => SCORES[usize::from(x) % SCORES.len()],
    }
}

/// The data of one evaluation: row-major, possibly ragged or of mismatched shapes.
#[derive(Debug)]
struct Data {
    y_true: Vec<Vec<f64>>,
    y_score: Vec<Vec<f64>>,
    weights: Option<Vec<f64>>,
}

fn data(b: &mut Bytes) -> Data {
    let n = b.pick(7); // 0 rows now and then
    let l = b.pick(7); // 0 labels too
    let shape = b.byte();
    let (score_rows, score_cols) = match shape % 16 {
        0 => (n + 1, l),
        1 => (n, l + 1),
        _ => (n, l),
    };
    let ragged = shape % 16 == 2;
    let y_true = (0..n)
        .map(|_| (0..l).map(|_| LABELS[b.pick(LABELS.len())]).collect())
        .collect();
    let y_score = (0..score_rows)
        .map(|i| {
            let cols = if ragged && i == score_rows - 1 {
                score_cols + 1
            } else {
                score_cols
            };
            (0..cols).map(|_| score(b)).collect()
        })
        .collect();
    let weights = match b.pick(4) {
        0 => None,
        k => {
            let len = if k == 3 { n + 1 } else { n };
            Some((0..len).map(|_| WEIGHTS[b.pick(WEIGHTS.len())]).collect())
        }
    };
    let d = Data {
        y_true,
        y_score,
        weights,
    };
    if std::env::var_os("RANKMETRICS_FUZZ_DEBUG").is_some() {
        eprintln!(
            "y_true {:?}\ny_score {:?}\nweights {:?}",
            d.y_true, d.y_score, d.weights
        );
    }
    d
}

/// A result is an error, NaN or finite: never infinite.
fn check_value(what: &dyn core::fmt::Debug, r: &Result<f64, Error>) {
    if let Ok(v) = r {
        assert!(!v.is_infinite(), "{what:?} gave {v}");
    }
}

/// Two results are the same, bit for bit.
fn same(a: &Result<f64, Error>, b: &Result<f64, Error>) -> bool {
    match (a, b) {
        (Ok(x), Ok(y)) => x.to_bits() == y.to_bits(),
        // Errors carry the offending value, NaN included: compare what they print.
        (Err(x), Err(y)) => format!("{x:?}") == format!("{y:?}"),
        _ => false,
    }
}

fn cast_rows(m: &[Vec<f64>]) -> Vec<Vec<f32>> {
    m.iter()
        .map(|r| r.iter().map(|&x| x as f32).collect())
        .collect()
}

/// Evaluates `preset` in f64 (or f32) with and without the per-sample path.
/// `finite`: the result must not be infinite (false when a parameter asked for an infinite
/// degenerate-row value).
fn run_preset(preset: &Preset, d: &Data, as_f32: bool, finite: bool) {
    let check_value = |p: &Preset, r: &Result<f64, Error>| {
        if finite {
            check_value(p, r)
        }
    };
    let check_per_sample = |p: &Preset, r: Result<Vec<Option<f64>>, Error>| {
        if finite {
            check_per_sample(p, r)
        }
    };
    if as_f32 {
        let s = cast_rows(&d.y_score);
        // The weights an f32 caller would have: rounded to f32 (weights are passed as f64).
        let w: Option<Vec<f64>> = d
            .weights
            .as_ref()
            .map(|w| w.iter().map(|&x| f64::from(x as f32)).collect());
        let r = preset.evaluate(&d.y_true, &s, w.as_deref());
        check_value(preset, &r);
        let baseline = with_baseline_loops(|| preset.evaluate(&d.y_true, &s, w.as_deref()));
        assert!(
            same(&r, &baseline),
            "{preset:?}: {r:?}, baseline loops {baseline:?}"
        );
        check_per_sample(preset, preset.per_sample(&d.y_true, &s));
    } else {
        let r = preset.evaluate(&d.y_true, &d.y_score, d.weights.as_deref());
        check_value(preset, &r);
        let again = evaluate_all(
            core::slice::from_ref(preset),
            &d.y_true,
            &d.y_score,
            d.weights.as_deref(),
        );
        assert!(same(&r, &again[0]), "{preset:?}: {r:?} then {again:?}");
        let w = d.weights.as_deref();
        let baseline = with_baseline_loops(|| preset.evaluate(&d.y_true, &d.y_score, w));
        assert!(
            same(&r, &baseline),
            "{preset:?}: {r:?}, baseline loops {baseline:?}"
        );
        check_per_sample(preset, preset.per_sample(&d.y_true, &d.y_score));
    }
}

/// `f` run with the baseline-CPU builds of the vector loops instead of the widest ones, AVX-512
/// or AVX2 (src/wide.rs): the results must be the same bits. (In the test binary that replays
/// the corpus, another test may turn the switch back meanwhile: the check is then weaker, never
/// wrong.)
fn with_baseline_loops<R>(f: impl FnOnce() -> R) -> R {
    rankmetrics::set_wide_loops(false);
    let r = f();
    rankmetrics::set_wide_loops(true);
    r
}

fn check_per_sample(preset: &Preset, r: Result<Vec<Option<f64>>, Error>) {
    if let Ok(values) = r {
        for v in values.into_iter().flatten() {
            assert!(!v.is_infinite(), "{preset:?}: per-sample {v}");
        }
    }
}

/// A preset of the registry, looked up with fuzzed parameters and tie override.
fn registry_case(b: &mut Bytes) {
    let convention = Convention::ALL[b.pick(Convention::ALL.len())];
    let names = convention.metric_names();
    let name = names[b.pick(names.len())];
    let params: Vec<(String, String)> = Preset::param_keys(convention, name)
        .iter()
        .filter_map(|&k| match b.pick(3) {
            0 => None,
            _ => Some((
                k.to_string(),
                PARAM_VALUES[b.pick(PARAM_VALUES.len())].to_string(),
            )),
        })
        .collect();
    let ties = match b.pick(3) {
        0 => None,
        _ => Some(tie_policy(b)),
    };
    let as_f32 = b.byte() & 3 == 0;
    let d = data(b);
    if let Ok(preset) = Preset::lookup(convention, name, &params, ties) {
        // NDCG with negative gains (torchmetrics takes them) divides by an ideal DCG that may
        // be as small as a subnormal: unbounded by definition.
        let negative_gain = d.y_true.iter().flatten().any(|&g| g < 0.0);
        let asked_inf = params.iter().any(|(_, v)| v == "inf");
        let finite = !(asked_inf || negative_gain && name.contains("dcg"));
        run_preset(&preset, &d, as_f32, finite);
    }
}

/// A label-wise metric built through the API with any combination of options.
fn labelwise_case(b: &mut Bytes) {
    let average = [
        Average::Micro,
        Average::Macro,
        Average::Weighted,
        Average::Samples,
    ][b.pick(4)];
    let ties = tie_policy(b);
    let undefined = match b.pick(5) {
        0 => Undefined::Nan,
        1 => Undefined::Value(0.5),
        2 => Undefined::Value(SCORES[b.pick(SCORES.len())]),
        3 => Undefined::Skip,
        _ => Undefined::Reject,
    };
    let mean = [Mean::Arithmetic, Mean::Sequential, Mean::Geometric][b.pick(3)];
    let labels = [
        LabelDomain::Binary,
        LabelDomain::NonZero,
        LabelDomain::NonNegative,
        LabelDomain::Indicator,
    ][b.pick(4)];
    let grouping = match b.pick(3) {
        0 => TieGrouping::Exact,
        1 => TieGrouping::WEKA,
        _ => TieGrouping::Within(SCORES[b.pick(SCORES.len())]),
    };
    let flags = b.byte();
    let d = data(b);
    let w = d.weights.as_deref();
    macro_rules! run {
        ($m:expr) => {{
            let m = $m
                .with_grouping(grouping)
                .averaged(average)
                .on_undefined(undefined)
                .with_mean(mean)
                .with_label_domain(labels)
                .nan_if_none_defined(flags & 1 != 0)
                .one_column_binary(flags & 2 != 0);
            let r = m.evaluate(&d.y_true, &d.y_score, w);
            let again = m.evaluate(&d.y_true, &d.y_score, w);
            assert!(same(&r, &again), "{m:?}: {r:?} then {again:?}");
            // An undefined-vector value beyond 1 may rightly sum or multiply (geometric mean)
            // to infinity; negative
            // labels (accepted outside the Binary domain) make Weighted's label weights
            // cancel to ~0.
            let negative = d.y_true.iter().flatten().any(|&y| y < 0.0);
            // Known limitation (docs/fuzzing.md): a subnormal sample weight underflows the
            // weighted rank of a tie group to 0, and a precision ratio to infinity.
            let subnormal = d.weights.iter().flatten().any(|&w| w > 0.0 && w < f64::MIN_POSITIVE);
            if !matches!(undefined, Undefined::Value(v) if v.abs() > 1.0)
                && !(negative && average == Average::Weighted)
                && !subnormal
            {
                check_value(&m, &r);
            }
        }};
    }
    let direction = if flags & 4 != 0 {
        Direction::Auto
    } else {
        Direction::Fixed
    };
    match b.pick(3) {
        0 => run!(RocAuc::new(average, ties).with_direction(direction)),
        1 => run!(LabelAveragePrecision::new(average, ties)),
        // Levels stay small: the metric does O(levels) work per vector by definition.
        _ => run!(InterpolatedAveragePrecision::new(average, ties, b.pick(13))),
    }
}

/// Runs one fuzz input.
pub fn check(data: &[u8]) {
    let mut b = Bytes::new(data);
    match b.pick(4) {
        0 => labelwise_case(&mut b),
        _ => registry_case(&mut b),
    }
}
