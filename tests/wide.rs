//! The loops over a row's labels and the counting pass's location of a long column's scores
//! run compiled for AVX-512 or AVX2 when the CPU has it, else for the baseline (src/wide.rs):
//! every preset must give bitwise the same values and errors on every path.
//!
//! One test only: the switches are process-wide, so nothing else in this binary may run while
//! they are set. On a CPU without AVX-512 (or AVX2) the runs that ask for it take the next
//! narrower path (and the test still checks that the switches change nothing).

mod common;

use common::Rng;
use rankmetrics::registry::{Convention, Preset};
use rankmetrics::{set_avx512_loops, set_wide_loops, wide_loops_in_use, RowMajor, TiePolicy};

fn every_preset() -> Vec<Preset> {
    let mut presets = Vec::new();
    for convention in Convention::ALL {
        for &name in convention
            .entries()
            .iter()
            .filter(|e| !e.needs_params())
            .map(|e| &e.name)
        {
            for ties in [None, Some(TiePolicy::Expected), Some(TiePolicy::Last)] {
                presets.push(Preset::lookup(convention, name, Preset::NO_PARAMS, ties).unwrap());
            }
        }
    }
    presets
}

/// Every preset's value and per-sample values on one input, as bits (errors as text).
fn values<T: rankmetrics::Score>(
    presets: &[Preset], y: &RowMajor<'_, u8>, s: &RowMajor<'_, T>, w: Option<&[f64]>,
) -> Vec<String> {
    presets
        .iter()
        .map(|p| {
            let value = p.evaluate(y, s, w).map(f64::to_bits);
            let rows = p
                .per_sample(y, s)
                .map(|v| v.iter().map(|x| x.map(f64::to_bits)).collect::<Vec<_>>());
            format!("{} {}: {value:?} {rows:?}", p.convention(), p.name())
        })
        .collect()
}

/// The switches pick the paths they name where the CPU has them, so that the comparison below
/// is not of one path with itself. AVX-512 is built by Rust 1.89 or later only (build.rs's
/// `rankmetrics_avx512`, which reaches this test too).
fn check_the_switches() {
    let (avx2, avx512) = cpu_paths();
    set_avx512_loops(false);
    assert_eq!(wide_loops_in_use(), if avx2 { "avx2" } else { "baseline" });
    set_avx512_loops(true);
    let widest = wide_loops_in_use();
    let expected = match () {
        _ if avx512 && cfg!(rankmetrics_avx512) => "avx512",
        _ if avx2 => "avx2",
        _ => "baseline",
    };
    assert_eq!(widest, expected);
    set_wide_loops(false);
    assert_eq!(wide_loops_in_use(), "baseline");
    set_wide_loops(true);
    assert_eq!(wide_loops_in_use(), widest);
}

/// Whether this CPU has the features of the AVX2 and of the AVX-512 paths.
fn cpu_paths() -> (bool, bool) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let avx2 = has!("avx2") && has!("popcnt");
        let avx512 =
            avx2 && has!("avx512f") && has!("avx512bw") && has!("avx512vl") && has!("avx512dq");
        (avx2, avx512)
    }
    #[cfg(not(target_arch = "x86_64"))]
    (false, false)
}

#[test]
fn wide_and_baseline_loops_give_the_same_bits() {
    check_the_switches();
    let presets = every_preset();
    let mut rng = Rng::seeded(0x3D_A7A2);
    // Scores that differ in f64 but meet in f32 (and in f32's infinity and zero), and plain
    // ties; row lengths across the loops' vector widths and remainders.
    let near = [
        0.5,
        0.5 + f64::EPSILON,
        0.5 - 1e-12,
        1e300,
        2e300,
        1e-310,
        0.0,
        -0.0,
        0.25,
    ];
    for case in 0..60 {
        // Rows longer than the wide loops' unrolled steps in one case of four.
        let widest = if case % 4 == 0 { 600 } else { 70 };
        // Columns long enough to be counted in one pass (label-wise metrics) in one case of ten.
        let (n, l) = match case % 10 {
            9 => (1024 + rng.below(1500), 1 + rng.below(4)),
            _ => (1 + rng.below(9), 1 + rng.below(widest)),
        };
        let mut y: Vec<u8> = (0..n * l).map(|_| u8::from(rng.below(4) == 0)).collect();
        // A label outside 0/1 in some cases: the checks' error path on every path too.
        if case % 5 == 1 {
            y[rng.below(n * l)] = 2;
        }
        let mut s: Vec<f64> = match case % 3 {
            0 => (0..n * l).map(|_| near[rng.below(near.len())]).collect(),
            1 => (0..n * l).map(|_| rng.below(5) as f64 / 4.0).collect(),
            _ => (0..n * l)
                .map(|_| rng.next() as f64 / u64::MAX as f64)
                .collect(),
        };
        if case % 7 == 3 {
            s[rng.below(n * l)] = f64::NAN;
        }
        let w: Option<Vec<f64>> =
            (case % 2 == 0).then(|| (0..n).map(|_| rng.below(3) as f64).collect());
        let s32: Vec<f32> = s.iter().map(|&x| x as f32).collect();
        // The weights an f32 caller would have: rounded to f32, passed as f64.
        let w32: Option<Vec<f64>> = w
            .as_ref()
            .map(|w| w.iter().map(|&x| f64::from(x as f32)).collect());
        let yt = RowMajor::new(&y, n, l).unwrap();
        let (ys, ys32) = (
            RowMajor::new(&s, n, l).unwrap(),
            RowMajor::new(&s32, n, l).unwrap(),
        );
        let mut runs = Vec::new();
        // The widest path, AVX2, the baseline.
        for (wide, avx512) in [(true, true), (true, false), (false, false)] {
            set_wide_loops(wide);
            set_avx512_loops(avx512);
            runs.push((
                values(&presets, &yt, &ys, w.as_deref()),
                values(&presets, &yt, &ys32, w32.as_deref()),
            ));
        }
        set_wide_loops(true);
        set_avx512_loops(true);
        assert_eq!(runs[0], runs[1], "case {case}: {n} x {l}, AVX2");
        assert_eq!(runs[0], runs[2], "case {case}: {n} x {l}, baseline");
    }
}
