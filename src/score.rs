//! The numeric element types: scores ([`Score`]) and labels ([`Label`]).

use core::fmt::Debug;
use num_traits::Float;

/// A score type: `f32` or `f64`. The bounds every metric needs, written once.
///
/// Results are always returned as `f64`: sums run in `f64` whatever the score type, so an `f32`
/// input loses nothing in the averaging.
///
/// # Example
/// ```
/// use rankmetrics::Score;
/// assert_eq!(0.5f32.as_f64(), 0.5);
/// // -0.0 and 0.0 share one sort key, so they tie (as `==` says).
/// assert_eq!((-0.0f64).order_key(), 0.0f64.order_key());
/// assert!(1.0f64.order_key() > 0.5f64.order_key());
/// ```
pub trait Score: Float + Debug + Send + Sync + 'static {
    /// The value as `f64` (exact for `f32` and `f64`).
    fn as_f64(self) -> f64;
    /// The nearest value of this type to `x`.
    fn from_f64(x: f64) -> Self;
    /// A key whose unsigned order is the numeric order of finite values, with `-0.0` and `0.0`
    /// mapped to the same key, so that sorting by key and grouping equal keys gives `==` ties.
    fn order_key(self) -> u64;
}

impl Score for f64 {
    fn as_f64(self) -> f64 {
        self
    }
    fn from_f64(x: f64) -> Self {
        x
    }
    fn order_key(self) -> u64 {
        // `+ 0.0` turns -0.0 into +0.0 and leaves every other value unchanged.
        let bits = (self + 0.0).to_bits();
        if bits >> 63 == 1 {
            !bits
        } else {
            bits | (1 << 63)
        }
    }
}

impl Score for f32 {
    fn as_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    fn order_key(self) -> u64 {
        let bits = (self + 0.0).to_bits();
        u64::from(if bits >> 31 == 1 {
            !bits
        } else {
            bits | (1 << 31)
        })
    }
}

/// A label type: `bool`, an integer or a float. Non-zero means relevant; the value itself is
/// the gain of graded metrics. [`value`](Label::value) must give the same value each time it
/// is asked (a row's labels are read more than once: converted to gains, and searched for the
/// relevant ones). `Send + Sync`, as scores are, so that label-wise metrics can read
/// copies of the labels from several threads (feature `rayon`).
///
/// # Example
/// ```
/// use rankmetrics::Label;
/// assert_eq!(true.value(), 1.0);
/// assert_eq!(3u8.value(), 3.0);
/// assert_eq!((-1i32).value(), -1.0);
/// ```
pub trait Label: Copy + Send + Sync {
    /// The label as `f64`.
    fn value(self) -> f64;
}

impl Label for bool {
    fn value(self) -> f64 {
        if self {
            1.0
        } else {
            0.0
        }
    }
}

macro_rules! label_as_f64 {
    ($($t:ty),*) => {$(
        impl Label for $t {
            fn value(self) -> f64 {
                // Lossy only beyond 2^53, far outside any label or gain.
                self as f64
            }
        }
    )*};
}
label_as_f64!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);
