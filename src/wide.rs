//! The hot loops over a row's labels (the row pass's, the label-wise row and column checks',
//! and the pooled cells' range of keys, which the micro averages read first) and the counting
//! pass's location of a long vector's scores among its relevant groups, compiled three times:
//! for the baseline CPU (on x86-64, SSE2: two f64 or four f32 to a vector), with AVX2 (twice
//! as wide) and with AVX-512 (four times, comparisons into mask registers), picked at run time
//! by what the CPU has. All compile the same generic body (one of [`crate::kernel`]'s,
//! [`crate::row`]'s, the checks' or the label-wise pool's loops; the relevant-column gather
//! has one body for the wide paths, a 64-bit mask walked by its set bits, and one for the
//! baseline CPU, one step per label; so has the location, a branch-free loop for the wide
//! paths (its loads gathered on AVX-512), one score at a time with a search for the
//! baseline), made of exact comparisons, counts and conversions, so results are bitwise the
//! same on every path (tests/wide.rs runs all three on every preset; the kernel's tests check
//! both gathers and both locations).
//!
//! This is the crate's only `unsafe` code: calling a function compiled for AVX2 or AVX-512 is
//! undefined on a CPU without it, so each call sits behind the run-time check. The need is
//! measured in docs/performance.md ("Measured choices"): the row metrics' passes
//! over scores and labels are bound by vector width. The AVX-512 builds need Rust 1.89 (where
//! those target features became stable); build.rs leaves them out on older compilers, which
//! the crate's MSRV allows.
#![allow(unsafe_code)]

use core::sync::atomic::{AtomicU8, Ordering};

/// The switches and, once known, the path they and the CPU leave ([`widest`]), in one atomic so
/// that a switch and the path found under it change together: bit 0 set when the wide paths
/// are off, bit 1 when the AVX-512 ones are, bits 2–3 the path (0 until found). One load per
/// call of a wide loop, cheaper than checking the CPU's features on every call.
static STATE: AtomicU8 = AtomicU8::new(0);
const WIDE_OFF: u8 = 1;
const AVX512_OFF: u8 = 2;
const SWITCHES: u8 = WIDE_OFF | AVX512_OFF;
const PATH_SHIFT: u32 = 2;

/// The loops as compiled for the baseline CPU.
pub(crate) const BASELINE: u8 = 1;
/// The AVX2 (and POPCNT) builds.
pub(crate) const AVX2: u8 = 2;
/// The AVX-512 (F, BW, VL, DQ; and POPCNT) builds.
pub(crate) const AVX512: u8 = 3;

/// Sets (`off`) or clears one switch; the path is found again under the new switches.
fn switch(bit: u8, off: bool) {
    let _ = STATE.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |state| {
        let switches = state & SWITCHES;
        Some(if off { switches | bit } else { switches & !bit })
    });
}

/// Turns the AVX2 and AVX-512 paths off (`false`) or back on, process-wide. For tests and
/// benchmarks that compare them; results are the same either way.
///
/// # Example
/// ```
/// use rankmetrics::{set_wide_loops, sklearn, RankingMetric};
/// let (y, s) = ([[1u8, 0, 1]], [[0.2, 0.9, 0.4]]);
/// set_wide_loops(false);
/// let baseline = sklearn::LABEL_RANKING_AVERAGE_PRECISION_SCORE.evaluate(&y, &s, None);
/// set_wide_loops(true);
/// let wide = sklearn::LABEL_RANKING_AVERAGE_PRECISION_SCORE.evaluate(&y, &s, None);
/// assert_eq!(baseline.unwrap().to_bits(), wide.unwrap().to_bits());
/// ```
#[doc(hidden)]
pub fn set_wide_loops(allowed: bool) {
    switch(WIDE_OFF, !allowed);
}

/// Turns the AVX-512 paths off (`false`), leaving the AVX2 ones where the CPU has them, or back
/// on, process-wide. For tests and benchmarks that compare the two; results are the same either
/// way. [`set_wide_loops`]`(false)` turns off both.
///
/// # Example
/// ```
/// use rankmetrics::{set_avx512_loops, sklearn, RankingMetric};
/// let (y, s) = ([[1u8, 0, 1]], [[0.2, 0.9, 0.4]]);
/// set_avx512_loops(false);
/// let avx2 = sklearn::COVERAGE_ERROR.evaluate(&y, &s, None);
/// set_avx512_loops(true);
/// let widest = sklearn::COVERAGE_ERROR.evaluate(&y, &s, None);
/// assert_eq!(avx2.unwrap().to_bits(), widest.unwrap().to_bits());
/// ```
#[doc(hidden)]
pub fn set_avx512_loops(allowed: bool) {
    switch(AVX512_OFF, !allowed);
}

/// Which build of the loops runs now: `"avx512"`, `"avx2"` or `"baseline"` (for tests that
/// must know they compared different paths).
///
/// # Example
/// ```
/// use rankmetrics::{set_wide_loops, wide_loops_in_use};
/// set_wide_loops(false);
/// assert_eq!(wide_loops_in_use(), "baseline");
/// set_wide_loops(true);
/// ```
#[doc(hidden)]
pub fn wide_loops_in_use() -> &'static str {
    match widest() {
        AVX512 => "avx512",
        AVX2 => "avx2",
        _ => "baseline",
    }
}

/// The widest path this CPU runs among those the switches allow: [`BASELINE`], [`AVX2`] or
/// [`AVX512`].
#[inline]
pub(crate) fn widest() -> u8 {
    let state = STATE.load(Ordering::Relaxed);
    match state >> PATH_SHIFT {
        0 => {
            let path = detect(state & SWITCHES);
            // Kept only if no switch moved meanwhile: the next call then finds the path again.
            let known = state | (path << PATH_SHIFT);
            let _ = STATE.compare_exchange(state, known, Ordering::Relaxed, Ordering::Relaxed);
            path
        }
        path => path,
    }
}

/// The path the CPU's features and the `switches` leave.
#[cold]
fn detect(switches: u8) -> u8 {
    if switches & WIDE_OFF != 0 {
        return BASELINE;
    }
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        #[cfg(rankmetrics_avx512)]
        if switches & AVX512_OFF == 0
            && has!("avx2")
            && has!("avx512f")
            && has!("avx512bw")
            && has!("avx512vl")
            && has!("avx512dq")
            && has!("popcnt")
        {
            return AVX512;
        }
        if has!("avx2") && has!("popcnt") {
            return AVX2;
        }
    }
    BASELINE
}

/// Defines `$name`, which runs `$wide` (an `#[inline(always)]` function with the same
/// signature) compiled with AVX-512 or else AVX2 when the CPU has it, else `$base` (by default
/// `$wide` too) as compiled for the baseline. The builds for a CPU feature are `unsafe fn`:
/// a safe function with `#[target_feature]` needs Rust 1.86, and the MSRV is older.
macro_rules! wide {
    ($(#[$doc:meta])* $vis:vis fn $name:ident<$($g:ident: $b:path),*>($($a:ident: $t:ty),*) -> $r:ty = $wide:path $(| $base:path)?;) => {
        $(#[$doc])*
        #[inline]
        #[allow(unsafe_code)] // the one `unsafe` call below, behind its run-time check
        $vis fn $name<$($g: $b),*>($($a: $t),*) -> $r {
            #[cfg(target_arch = "x86_64")]
            let path = $crate::wide::widest();
            #[cfg(all(target_arch = "x86_64", rankmetrics_avx512))]
            {
                #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,popcnt")]
                unsafe fn avx512<$($g: $b),*>($($a: $t),*) -> $r {
                    $wide($($a),*)
                }
                if path == $crate::wide::AVX512 {
                    // SAFETY: `widest()` has checked that this CPU has these features.
                    return unsafe { avx512($($a),*) };
                }
            }
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2,popcnt")]
                unsafe fn avx2<$($g: $b),*>($($a: $t),*) -> $r {
                    $wide($($a),*)
                }
                if path >= $crate::wide::AVX2 {
                    // SAFETY: `widest()` has checked that this CPU has AVX2 and POPCNT.
                    return unsafe { avx2($($a),*) };
                }
            }
            $crate::wide::wide!(@base $wide $(| $base)?)($($a),*)
        }
    };
    (@base $wide:path) => { $wide };
    (@base $wide:path | $base:path) => { $base };
}
pub(crate) use wide;
