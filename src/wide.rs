//! The hot loops of the row pass, compiled twice: for the baseline CPU (on x86-64, SSE2: two
//! f64 or four f32 to a vector) and with AVX2 (twice as wide), picked at run time by what the
//! CPU has. Both compile the same generic body (one of [`crate::kernel`]'s or
//! [`crate::row`]'s loops; the relevant-column gather has one body per path: a 64-bit mask
//! walked by its set bits with AVX2, one step per label on the baseline CPU), made of exact comparisons, counts and conversions, so results are bitwise the
//! same on either path (tests/wide.rs runs both; the kernel's tests check both gathers).
//!
//! This is the crate's only `unsafe` code: calling a function compiled for AVX2 is undefined
//! on a CPU without it, so each call sits behind the run-time check. The need is measured in
//! docs/performance.md ("AVX2 loops"): the row metrics' passes over scores and labels are
//! bound by vector width.
#![allow(unsafe_code)]

use core::sync::atomic::{AtomicBool, Ordering};

/// Whether the wide paths may be taken (tests turn them off to run the baseline ones).
static ALLOWED: AtomicBool = AtomicBool::new(true);

/// Turns the AVX2 paths off (`false`) or back on, process-wide. For tests and benchmarks that
/// compare the two; results are the same either way.
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
    ALLOWED.store(allowed, Ordering::Relaxed);
}

/// Whether this CPU runs the AVX2 paths (it has AVX2 and POPCNT, and they are allowed).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx2() -> bool {
    ALLOWED.load(Ordering::Relaxed)
        && std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("popcnt")
}

/// Defines `$name`, which runs `$wide` (an `#[inline(always)]` function with the same
/// signature) compiled with AVX2 when the CPU has it, else `$base` (by default `$wide` too) as
/// compiled for the baseline.
macro_rules! wide {
    ($(#[$doc:meta])* $vis:vis fn $name:ident<$($g:ident: $b:path),*>($($a:ident: $t:ty),*) -> $r:ty = $wide:path $(| $base:path)?;) => {
        $(#[$doc])*
        #[inline]
        #[allow(unsafe_code)] // the one `unsafe` call below, behind its run-time check
        $vis fn $name<$($g: $b),*>($($a: $t),*) -> $r {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2,popcnt")]
                fn avx2<$($g: $b),*>($($a: $t),*) -> $r {
                    $wide($($a),*)
                }
                if $crate::wide::avx2() {
                    // SAFETY: `avx2()` has checked that this CPU has AVX2 and POPCNT.
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
