//! The dtype of torch's preds ([`PredsDtype`]): the cast torchmetrics' scores go through and
//! the sigmoid it computes in that dtype, by torch's one-element formula or its vector code.

use core::str::FromStr;

use super::sleef;

/// The dtype of torch's preds, which torchmetrics' sigmoid computes in.
///
/// # Example
/// ```
/// use rankmetrics::torchmetrics::PredsDtype;
/// assert_eq!("bfloat16".parse::<PredsDtype>(), Ok(PredsDtype::BFloat16));
/// assert_eq!(PredsDtype::Float16.name(), "float16");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum PredsDtype {
    /// `torch.float64`: the sigmoid in `f64`.
    Float64,
    /// `torch.float32` (torch's default): torch's `float32` sigmoid ([`sigmoid_f32`]).
    Float32,
    /// `torch.float16`: the `float32` sigmoid of the half value, rounded to half (ties to even),
    /// as torch's CPU kernel computes a half tensor's sigmoid.
    Float16,
    /// `torch.bfloat16`: as `Float16`, rounded to bfloat16.
    BFloat16,
}

impl PredsDtype {
    /// Every dtype, in the order of their names in messages.
    pub const ALL: [PredsDtype; 4] = [
        PredsDtype::Float32,
        PredsDtype::Float64,
        PredsDtype::Float16,
        PredsDtype::BFloat16,
    ];

    /// torch's name without `torch.`: `float32`, `float64`, `float16` or `bfloat16`.
    pub const fn name(self) -> &'static str {
        match self {
            PredsDtype::Float64 => "float64",
            PredsDtype::Float32 => "float32",
            PredsDtype::Float16 => "float16",
            PredsDtype::BFloat16 => "bfloat16",
        }
    }

    /// A finite `x` as torch's cast to this dtype gives it, a value beyond the dtype's largest
    /// giving the largest (the sigmoid maps it where torch maps ±inf); `Float64`: unchanged.
    pub(super) fn cast(self, x: f64) -> f64 {
        match self {
            PredsDtype::Float64 => x,
            PredsDtype::Float32 => f64::from(saturating_f32(x)),
            PredsDtype::Float16 => f64::from(round_to(saturating_f32(x), 10, -14, 65504.0)),
            PredsDtype::BFloat16 => f64::from(round_to(saturating_f32(x), 7, -126, BF16_MAX)),
        }
    }

    /// torch's sigmoid of a value already cast to this dtype, by the one-element formula or
    /// (`vectorised`) by its vector kernel's. The half types' two paths agree on every value.
    pub(super) fn sigmoid(self, x: f64, vectorised: bool) -> f64 {
        match (self, vectorised) {
            (PredsDtype::Float64, false) => 1.0 / (1.0 + (-x).exp()),
            (PredsDtype::Float64, true) => 1.0 / (1.0 + sleef::exp_u10(-x)),
            (PredsDtype::Float32, false) => f64::from(sigmoid_f32(x as f32)),
            (PredsDtype::Float32, true) => f64::from(1.0 / (1.0 + sleef::expf_u10(-(x as f32)))),
            (PredsDtype::Float16 | PredsDtype::BFloat16, _) => {
                self.cast(f64::from(sigmoid_f32(x as f32)))
            }
        }
    }
}

/// The error of [`PredsDtype`]'s `FromStr`: the name given, and the names it takes.
///
/// # Example
/// ```
/// use rankmetrics::torchmetrics::PredsDtype;
/// let e = "half".parse::<PredsDtype>().unwrap_err();
/// assert_eq!(e.to_string(), "unknown preds dtype \"half\": expected float32, float64, float16 or bfloat16");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownDtype(pub String);

impl core::fmt::Display for UnknownDtype {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "unknown preds dtype {:?}: expected float32, float64, float16 or bfloat16",
            self.0
        )
    }
}

impl std::error::Error for UnknownDtype {}

impl FromStr for PredsDtype {
    type Err = UnknownDtype;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PredsDtype::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| UnknownDtype(s.to_string()))
    }
}

/// The largest finite bfloat16, `(2 − 2^-7) · 2^127`.
const BF16_MAX: f32 = 3.389_531_4e38;

/// `x` rounded to the nearest number with `mantissa` bits after the point and a smallest normal
/// exponent `min_exp` (ties to even; below it, multiples of `2^(min_exp − mantissa)`), clamped to
/// ±`max`: float16 is (10, -14, 65504), bfloat16 (7, -126, its largest).
fn round_to(x: f32, mantissa: i32, min_exp: i32, max: f32) -> f32 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    // The binary exponent of |x| (an f32 subnormal lies below every `min_exp` used here).
    let biased = (x.abs().to_bits() >> 23) as i32;
    let exponent = if biased == 0 { -127 } else { biased - 127 };
    let quantum = 2f64.powi(exponent.max(min_exp) - mantissa);
    // Exact in f64: x has 24 significant bits and the quantum is a power of two.
    let rounded = ((f64::from(x) / quantum).round_ties_even() * quantum) as f32;
    rounded.clamp(-max, max)
}

/// torch's sigmoid of a `float32` element by its one-element formula, `1 / (1 + e)` with
/// `e = expf(-x)`, the platform's `float32` exp (which torch's kernel calls: glibc's on Linux),
/// and the addition and division in `float32`. torch's vector code computes most elements of a
/// dense tensor otherwise ([`TorchCpu`](super::TorchCpu)). A correctly rounded sigmoid does
/// not reproduce torch (below -88.7, where `exp(-x)` overflows `float32`, it gives distinct
/// subnormals where torch gives ties at 0, and above 16.6, where `1 + e` rounds to 1, it
/// stays below 1).
///
/// # Example
/// ```
/// use rankmetrics::torchmetrics::sigmoid_f32;
/// assert_eq!(sigmoid_f32(0.0), 0.5);
/// assert_eq!((sigmoid_f32(20.0), sigmoid_f32(-90.0)), (1.0, 0.0));
/// ```
pub fn sigmoid_f32(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// `x` cast to `float32`, an overflow giving ±`f32::MAX`: the sigmoid gives the same as for
/// torch's ±inf (1 and 0), and any such score lies outside [0, 1], so the sigmoid applies.
pub(super) fn saturating_f32(x: f64) -> f32 {
    (x as f32).clamp(f32::MIN, f32::MAX)
}

#[cfg(test)]
mod tests {
    use super::{round_to, sigmoid_f32, PredsDtype};

    /// The half types' sigmoid is the same whichever kernel computes it: every float16 and
    /// bfloat16 value, through the vector `exp` and the one-element one, rounds alike.
    #[test]
    fn half_sigmoids_do_not_depend_on_the_kernel() {
        let bf16 = (0u32..0x1_0000).map(|b| f32::from_bits(b << 16));
        let f16 = f16_values().into_iter().flat_map(|v| [v, -v]);
        for (dtype, x) in bf16
            .map(|x| (PredsDtype::BFloat16, x))
            .chain(f16.map(|x| (PredsDtype::Float16, x)))
        {
            if !x.is_finite() {
                continue;
            }
            let vector = 1.0f32 / (1.0 + super::sleef::expf_u10(-x));
            let scalar = sigmoid_f32(x);
            let (v, s) = (dtype.cast(f64::from(vector)), dtype.cast(f64::from(scalar)));
            assert_eq!(v.to_bits(), s.to_bits(), "{dtype:?} {x}");
        }
    }

    /// Every float16 value as f32, from its bits (finite ones).
    fn f16_values() -> Vec<f32> {
        (0u32..0x7c00)
            .map(|bits| {
                let (e, m) = ((bits >> 10) as i32, (bits & 0x3ff) as f32);
                match e {
                    0 => m * 2f32.powi(-24),
                    e => (1.0 + m / 1024.0) * 2f32.powi(e - 15),
                }
            })
            .collect()
    }

    #[test]
    fn float16_values_round_to_themselves_and_midpoints_to_even() {
        let values = f16_values();
        for &v in &values {
            assert_eq!(round_to(v, 10, -14, 65504.0), v);
            assert_eq!(round_to(-v, 10, -14, 65504.0), -v);
        }
        for (i, w) in values.windows(2).enumerate() {
            let mid = (f64::from(w[0]) + f64::from(w[1])) / 2.0;
            let even = if i % 2 == 0 { w[0] } else { w[1] };
            assert_eq!(
                round_to(mid as f32, 10, -14, 65504.0),
                even,
                "between {w:?}"
            );
            // Just off the midpoint: the nearer one.
            let below = f32::from_bits((mid as f32).to_bits() - 1);
            assert_eq!(
                round_to(below, 10, -14, 65504.0),
                w[0],
                "below the middle of {w:?}"
            );
        }
    }

    #[test]
    fn bfloat16_keeps_the_upper_half_of_the_bits_rounded_to_even() {
        for bits in (0u32..0x7f80_0000).step_by(997) {
            let x = f32::from_bits(bits);
            let lower = bits & 0xffff;
            let upper = bits & 0xffff_0000;
            let round_up = lower > 0x8000 || (lower == 0x8000 && (bits >> 16) & 1 == 1);
            let expected = f32::from_bits(if round_up { upper + 0x1_0000 } else { upper });
            let expected = expected.min(super::BF16_MAX);
            assert_eq!(round_to(x, 7, -126, super::BF16_MAX), expected, "{x:e}");
        }
    }
}
