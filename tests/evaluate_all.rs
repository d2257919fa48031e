//! `registry::evaluate_all` (one pass over the rows for every row-wise preset) gives, bitwise,
//! what each preset's own `evaluate` gives: values and errors alike.

mod common;

use common::Rng;
#[cfg(feature = "rayon")]
use rankmetrics::registry;
use rankmetrics::registry::{evaluate_all, Convention, Preset};
use rankmetrics::{RowMajor, TiePolicy};

fn every_preset() -> Vec<Preset> {
    let mut presets = Vec::new();
    for convention in Convention::ALL {
        for &name in convention
            .entries()
            .iter()
            .filter(|e| !e.needs_params())
            .map(|e| &e.name)
        {
            presets.push(Preset::lookup(convention, name, Preset::NO_PARAMS, None).unwrap());
            for ties in [TiePolicy::Expected, TiePolicy::Last, TiePolicy::Random(3)] {
                presets
                    .push(Preset::lookup(convention, name, Preset::NO_PARAMS, Some(ties)).unwrap());
            }
        }
    }
    presets
}

/// The preset `name` of `convention` with `params` and `ties`.
fn lookup(
    convention: Convention, name: &str, params: &[(&str, &str)], ties: Option<TiePolicy>,
) -> Preset {
    let params: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Preset::lookup(convention, name, &params, ties).unwrap()
}

#[test]
fn evaluate_all_equals_one_by_one() {
    let levels = [0.0, 0.25, 0.5, 1.0, 3.0, -1.0];
    all_at_once_equals_one_by_one(&every_preset(), &levels, 0xA11_5EED);
}

/// Presets under tolerance groupings (every MULAN preset: its row measures take Weka's
/// grouping; rankmetrics' with `grouping` 1e-6, 4e-7 and 0), several policies each, on scores
/// with near ties: each row is counted or sorted as the kernel finds it (a row sorted for one
/// policy is placed again for the next), all at once as one by one.
#[test]
fn tolerance_grouped_rows_all_at_once_equal_one_by_one() {
    let rankmetrics: [(&str, &[(&str, &str)]); 4] = [
        ("ranking_loss", &[("grouping", "0")]),
        ("coverage", &[("grouping", "4e-7")]),
        ("ndcg", &[("grouping", "weka")]),
        ("precision_at_k", &[("k", "2"), ("grouping", "weka")]),
    ];
    let mut presets = Vec::new();
    for ties in [None, Some(TiePolicy::Expected), Some(TiePolicy::Max)] {
        for name in Convention::Mulan.metric_names() {
            presets.push(lookup(Convention::Mulan, name, &[], ties));
        }
        for (name, params) in rankmetrics {
            presets.push(lookup(Convention::Rankmetrics, name, params, ties));
        }
    }
    let levels = [
        0.0, 0.5, 0.5000004, 0.5000009, 0.5000013, 1.0, 1.0000005, 3.0,
    ];
    all_at_once_equals_one_by_one(&presets, &levels, 0x7E1A);
}

/// torchmetrics' presets under several views of the preds at once (dtype, sigmoid kernel,
/// memory order): each view's rows ranked, and each view's label vectors sorted, once for all
/// its presets, every value as one by one.
#[test]
fn torchmetrics_views_all_at_once_equal_one_by_one() {
    let mut presets = Vec::new();
    for name in Convention::Torchmetrics.metric_names() {
        let keys = Preset::param_keys(Convention::Torchmetrics, name);
        if !keys.contains(&"sigmoid") {
            continue;
        }
        for dtype in ["float32", "float64"] {
            for sigmoid in ["scalar", "avx2", "avx512"] {
                for order in ["c", "f"] {
                    let params = [
                        ("dtype", dtype),
                        ("sigmoid", sigmoid),
                        ("memory_order", order),
                    ];
                    presets.push(lookup(Convention::Torchmetrics, name, &params, None));
                }
            }
        }
    }
    let levels = [-2.5, -0.25, 0.0, 0.5, 0.5, 1.0, 3.0, 40.0];
    all_at_once_equals_one_by_one(&presets, &levels, 0x519_3010);
}

/// `evaluate_all` (and `evaluate_all_parallel`) of `presets` equal each preset's `evaluate`,
/// bitwise, on 40 small cases of scores drawn from `levels` (some with bad cells or weights).
fn all_at_once_equals_one_by_one(presets: &[Preset], levels: &[f64], seed: u64) {
    let mut rng = Rng::seeded(seed);
    for case in 0..40 {
        let (n, l) = (1 + rng.below(12), 1 + rng.below(6));
        let mut y: Vec<f64> = (0..n * l).map(|_| rng.below(2) as f64).collect();
        let mut s: Vec<f64> = (0..n * l)
            .map(|_| levels[rng.below(levels.len())])
            .collect();
        // Some cases with bad cells: a NaN score, a label 2, a zero weight.
        match case % 5 {
            1 => s[rng.below(n * l)] = f64::NAN,
            2 => y[rng.below(n * l)] = 2.0,
            _ => {}
        }
        let w: Option<Vec<f64>> =
            (case % 3 == 0).then(|| (0..n).map(|_| rng.below(3) as f64).collect());
        let (yt, ys) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        let all = evaluate_all(presets, &yt, &ys, w.as_deref());
        let bits = |v: &[Result<f64, rankmetrics::Error>]| -> Vec<String> {
            v.iter()
                .map(|r| format!("{:?}", r.as_ref().map(|v| v.to_bits())))
                .collect()
        };
        #[cfg(feature = "rayon")]
        {
            let parallel = registry::evaluate_all_parallel(presets, &yt, &ys, w.as_deref());
            assert_eq!(bits(&parallel), bits(&all));
        }
        // The same labels as u8, and as bool where they are all 0 or 1: the relevant columns
        // are gathered from the labels themselves, whatever their type.
        let y8: Vec<u8> = y.iter().map(|&v| v as u8).collect();
        let y8 = RowMajor::new(&y8, n, l).unwrap();
        assert_eq!(
            bits(&evaluate_all(presets, &y8, &ys, w.as_deref())),
            bits(&all)
        );
        if y.iter().all(|&v| v == 0.0 || v == 1.0) {
            let yb: Vec<bool> = y.iter().map(|&v| v != 0.0).collect();
            let yb = RowMajor::new(&yb, n, l).unwrap();
            assert_eq!(
                bits(&evaluate_all(presets, &yb, &ys, w.as_deref())),
                bits(&all)
            );
        }
        for (preset, got) in presets.iter().zip(all) {
            let one = preset.evaluate(&yt, &ys, w.as_deref());
            let same = match (&one, &got) {
                (Ok(a), Ok(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                (Err(a), Err(b)) => format!("{a:?}") == format!("{b:?}"), // NaN payloads
                _ => false,
            };
            assert!(
                same,
                "{} {} {:?}: one by one {one:?}, all at once {got:?} (y={y:?} s={s:?} w={w:?})",
                preset.convention(),
                preset.name(),
                preset.params()
            );
        }
    }
}

/// Presets valued in parallel (row-wise: rows in chunks; label-wise: columns, pooled cells and
/// pieces at once, rows in chunks) add their values in the sequential order: bitwise
/// `evaluate_all`, on a matrix with more rows than a chunk, with untied scores (one assignment
/// serves every policy) and tied ones, bad cells, with and without weights.
#[cfg(feature = "rayon")]
#[test]
fn parallel_label_wise_values_equal_sequential_ones_on_many_rows() {
    let presets = every_preset();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let mut rng = Rng::seeded(0x1AB_E15E);
    let (n, l) = (rankmetrics::parallel::CHUNK_ROWS * 2 + 77, 4);
    for (tied, bad) in [(false, 0), (true, 0), (true, 1), (false, 2)] {
        let mut y: Vec<f64> = (0..n * l)
            .map(|_| (rng.below(3) == 0) as u8 as f64)
            .collect();
        let mut s: Vec<f64> = (0..n * l)
            .map(|_| match tied {
                true => rng.below(5) as f64 / 4.0,
                false => rng.next() as f64 / u64::MAX as f64,
            })
            .collect();
        if bad == 1 {
            // A label 2 in one chunk, a NaN score in a later one: lanes stop at their first
            // error in row order.
            y[3000 * l + 1] = 2.0;
            s[4100 * l + 2] = f64::NAN;
        }
        if bad == 2 {
            // NaN scores in two chunks (the rows validated in parallel where the columns are
            // read straight from the input): the first in row order is reported.
            s[2100 * l + 3] = f64::NAN;
            s[4100 * l] = f64::NAN;
        }
        let w: Vec<f64> = (0..n).map(|_| rng.below(4) as f64).collect();
        let (yt, ys) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        for weights in [None, Some(&w[..])] {
            let all = evaluate_all(&presets, &yt, &ys, weights);
            let parallel =
                pool.install(|| registry::evaluate_all_parallel(&presets, &yt, &ys, weights));
            // Each preset alone too: a macro or weighted average alone copies no cell, so its
            // rows are validated in chunks on the pool.
            let alone = presets.iter().map(|preset| {
                let one = pool.install(|| {
                    registry::evaluate_all_parallel(
                        core::slice::from_ref(preset),
                        &yt,
                        &ys,
                        weights,
                    )
                });
                one.into_iter().next().unwrap()
            });
            let alone: Vec<_> = alone.collect();
            // A result's bits, or its error: the same either way.
            let bits = |r: &Result<f64, _>| format!("{:?}", r.as_ref().map(|v| v.to_bits()));
            for (((preset, a), b), c) in presets.iter().zip(&all).zip(&parallel).zip(&alone) {
                let which = format!(
                    "{} {} {:?} tied={tied} bad={bad} weighted={}",
                    preset.convention(),
                    preset.name(),
                    preset.params(),
                    weights.is_some()
                );
                assert_eq!(bits(a), bits(c), "alone: {which}");
                assert_eq!(bits(a), bits(b), "{which}");
            }
        }
    }
}

/// Rows beyond one window of the parallel passes (row-wise: about WINDOW_ROWS outcomes, so
/// with three metrics a window of a third as many rows; label-wise `samples`: WINDOW_ROWS
/// rows): each window's rows are added once, in order.
#[cfg(feature = "rayon")]
#[test]
fn parallel_windows_add_every_row_once() {
    use rankmetrics::parallel::WINDOW_ROWS;
    let presets = [
        lookup(Convention::Sklearn, "coverage_error", &[], None),
        lookup(Convention::Sklearn, "label_ranking_loss", &[], None),
        lookup(Convention::Mldr, "average_precision", &[], None),
        lookup(
            Convention::Sklearn,
            "roc_auc_score",
            &[("average", "samples")],
            None,
        ),
    ];
    let (n, l) = (WINDOW_ROWS + 3 * rankmetrics::parallel::CHUNK_ROWS + 5, 3);
    let mut rng = Rng::seeded(0x31D0);
    let y: Vec<f64> = (0..n * l).map(|_| rng.below(2) as f64).collect();
    let s: Vec<f64> = (0..n * l).map(|_| rng.below(7) as f64 / 6.0).collect();
    let (yt, ys) = (
        RowMajor::new(&y, n, l).unwrap(),
        RowMajor::new(&s, n, l).unwrap(),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let parallel = pool.install(|| registry::evaluate_all_parallel(&presets, &yt, &ys, None));
    for (preset, got) in presets.iter().zip(parallel) {
        let one = preset.evaluate(&yt, &ys, None).map(f64::to_bits);
        assert_eq!(
            got.map(f64::to_bits),
            one,
            "{} {}",
            preset.convention(),
            preset.name()
        );
    }
}

/// The micro AUCs read in pieces (runs of buckets of about 2^17 cells) on a pool of more
/// pieces than the threads rank at once, with a tie group larger than a piece: every micro
/// preset and tie policy at once, as `evaluate_all` gives them, on pools of 1 to 3 threads
/// (a pool of one takes the sequential path), with and without weights. mldr's `micro_auc`
/// (pROC's automatic direction) ranks the pooled vector whole, beside them.
#[cfg(feature = "rayon")]
#[test]
fn parallel_micro_pieces_equal_sequential_ones() {
    let micro = [("average", "micro")];
    let mut presets = Vec::new();
    for ties in [None, Some(TiePolicy::Average), Some(TiePolicy::Last)] {
        let p: Vec<(String, String)> = micro
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        presets.push(Preset::lookup(Convention::Sklearn, "roc_auc_score", &p, ties).unwrap());
        for (convention, name) in [
            (Convention::Mulan, "MicroAUC"),
            (Convention::Mldr, "micro_auc"),
        ] {
            presets.push(Preset::lookup(convention, name, Preset::NO_PARAMS, ties).unwrap());
        }
    }
    // About 10 pieces of 2^17 cells or more: more than 4 a thread on 2 threads.
    let (n, l) = (3400, 400);
    let mut rng = Rng::seeded(0xB0C4E7);
    let y: Vec<f64> = (0..n * l)
        .map(|_| (rng.below(5) == 0) as u8 as f64)
        .collect();
    // A third of the cells tie at 0.5 (one tie group of ~450,000 cells), the rest spread.
    let s: Vec<f64> = (0..n * l)
        .map(|k| match k % 3 {
            0 => 0.5,
            _ => rng.next() as f64 / u64::MAX as f64,
        })
        .collect();
    let w: Vec<f64> = (0..n).map(|_| rng.below(5) as f64 / 2.0).collect();
    let (yt, ys) = (
        RowMajor::new(&y, n, l).unwrap(),
        RowMajor::new(&s, n, l).unwrap(),
    );
    let bits = |values: Vec<Result<f64, rankmetrics::Error>>| -> Vec<Option<u64>> {
        values
            .into_iter()
            .map(|v| v.ok().map(f64::to_bits))
            .collect()
    };
    for weights in [None, Some(&w[..])] {
        let all = bits(evaluate_all(&presets, &yt, &ys, weights));
        assert!(all.iter().all(Option::is_some), "{all:?}");
        for threads in 1..=3 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let parallel =
                pool.install(|| registry::evaluate_all_parallel(&presets, &yt, &ys, weights));
            let weighted = weights.is_some();
            assert_eq!(
                bits(parallel),
                all,
                "{threads} threads, weighted: {weighted}"
            );
        }
    }
}

#[cfg(feature = "rayon")]
#[test]
fn parallel_per_sample_values_equal_sequential_ones() {
    let mut rng = Rng::seeded(11);
    let presets = every_preset();
    for _ in 0..10 {
        let (n, l) = (1 + rng.below(300), 1 + rng.below(6));
        let y: Vec<f64> = (0..n * l).map(|_| rng.below(2) as f64).collect();
        let s: Vec<f64> = (0..n * l).map(|_| rng.below(4) as f64 / 4.0).collect();
        let (yt, ys) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        for p in &presets {
            let bits = |v: Result<Vec<Option<f64>>, rankmetrics::Error>| {
                v.map(|v| v.iter().map(|x| x.map(f64::to_bits)).collect::<Vec<_>>())
            };
            let one = bits(p.per_sample(&yt, &ys));
            let many = bits(p.per_sample_parallel(&yt, &ys));
            assert_eq!(one, many, "{} {}", p.convention(), p.name());
        }
    }
}
