//! torchmetrics' logit normalisation ([`Logits`]) in the dtype of torch's preds ([`PredsDtype`]).

use core::any::TypeId;
use core::ops::Range;
use core::str::FromStr;

use crate::error::{Error, Input};
use crate::matrix::{Matrix, RowReader};
use crate::score::Score;
use crate::validate::check_scores;

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
    fn cast(self, x: f64) -> f64 {
        match self {
            PredsDtype::Float64 => x,
            PredsDtype::Float32 => f64::from(saturating_f32(x)),
            PredsDtype::Float16 => f64::from(round_to(saturating_f32(x), 10, -14, 65504.0)),
            PredsDtype::BFloat16 => f64::from(round_to(saturating_f32(x), 7, -126, BF16_MAX)),
        }
    }

    /// torch's sigmoid of a value already cast to this dtype.
    fn sigmoid(self, x: f64) -> f64 {
        match self {
            PredsDtype::Float64 => 1.0 / (1.0 + (-x).exp()),
            PredsDtype::Float32 => f64::from(sigmoid_f32(x as f32)),
            PredsDtype::Float16 | PredsDtype::BFloat16 => {
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

/// torchmetrics' score normalisation as a [`Matrix`] view: the sigmoid `1 / (1 + e^-x)` of
/// every score when some score lies outside [0, 1], the scores unchanged otherwise. Computed
/// on the fly; the caller's scores are not copied or modified.
///
/// torch computes in the tensor's dtype, and so does the view ([`PredsDtype`]):
/// * `float64` preds ([`Logits::new`] on `f64` scores): the sigmoid in `f64`.
/// * `float32` preds ([`Logits::new`] on `f32` scores, or [`Logits::float32`] on any): the
///   scores are the `float32` values (an `f64` is cast, one beyond `f32::MAX` giving
///   ±`f32::MAX`, which the sigmoid maps where torch maps ±inf), the test for [0, 1] reads
///   them, and the sigmoid is torch's `float32` arithmetic ([`sigmoid_f32`]): exactly 1.0
///   above about 16.6, exactly 0.0 below about -88.7, and logits closer than `float32`
///   resolution tie.
/// * `float16` and `bfloat16` preds ([`Logits::with_dtype`]): the scores cast to the half type,
///   and the `float32` sigmoid of each rounded to it, so that many more logits tie.
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics::Logits, Matrix};
/// let scores = [[40.0, 38.0, -1.0]];
/// let view = Logits::new(&scores).unwrap();
/// assert!(view.applies_sigmoid());
/// let mut row = Vec::new();
/// view.extend_rows(0..1, &mut row);
/// assert_eq!(row[0], row[1]); // both saturate to 1.0: a new tie
///
/// // float32 preds saturate much earlier: 20 and 18 are both 1.0.
/// let scores = [[20.0f32, 18.0]];
/// let mut row = Vec::new();
/// Logits::new(&scores).unwrap().extend_rows(0..1, &mut row);
/// assert_eq!(row, [1.0, 1.0]);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Logits<'a, S: ?Sized> {
    scores: &'a S,
    sigmoid: bool,
    dtype: PredsDtype,
}

impl<'a, T: Score, S: Matrix<Elem = T> + ?Sized> Logits<'a, S> {
    /// Looks at every score once to decide whether the sigmoid applies; computes in the
    /// precision of `T` (`float32` for `f32` scores, `float64` for `f64`).
    ///
    /// # Errors
    /// [`Error::NonFiniteScore`] for the first NaN or infinite score, [`Error::RaggedRow`] for
    /// a ragged input.
    pub fn new(scores: &'a S) -> Result<Self, Error> {
        Self::with_dtype(scores, PredsDtype::Float64)
    }

    /// As [`new`](Self::new), but as torchmetrics computes on `float32` preds whatever `T` is:
    /// the scores are cast to `float32` first (so `f64` scores that hold `float32` values, as
    /// read from a `float32` file, give what `f32` scores give).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{torchmetrics::Logits, Matrix};
    /// let scores = [[-90.0, -100.0, 0.5]];
    /// let mut row = Vec::new();
    /// Logits::float32(&scores).unwrap().extend_rows(0..1, &mut row);
    /// assert_eq!(&row[..2], [0.0, 0.0]); // exp(90) overflows float32
    /// ```
    pub fn float32(scores: &'a S) -> Result<Self, Error> {
        Self::with_dtype(scores, PredsDtype::Float32)
    }

    /// As [`new`](Self::new), as torchmetrics computes on preds of `dtype`: the scores cast to
    /// it first. `f32` scores are at least `float32` preds (`Float64` gives `Float32`).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{torchmetrics::{Logits, PredsDtype}, Matrix};
    /// // 10 and 9 are distinct logits; their float16 sigmoids are both 1.0.
    /// let mut row = Vec::new();
    /// Logits::with_dtype(&[[10.0, 9.0]], PredsDtype::Float16).unwrap().extend_rows(0..1, &mut row);
    /// assert_eq!(row, [1.0, 1.0]);
    /// ```
    pub fn with_dtype(scores: &'a S, dtype: PredsDtype) -> Result<Self, Error> {
        let is_f32 = TypeId::of::<T>() == TypeId::of::<f32>();
        let dtype = match dtype {
            PredsDtype::Float64 if is_f32 => PredsDtype::Float32,
            d => d,
        };
        scores.check_shape()?;
        let mut reader = RowReader::new(scores, Input::Scores);
        let mut sigmoid = false;
        for i in 0..scores.nrows() {
            let row = reader.row(i)?;
            check_scores(row, i)?;
            sigmoid = sigmoid
                || match Self::cast_changes(dtype) {
                    // torch tests the cast tensor: 1 + 1e-12 is 1.0 in float32, inside [0, 1].
                    true => row
                        .iter()
                        .map(|s| dtype.cast(s.as_f64()))
                        .any(|s| !(0.0..=1.0).contains(&s)),
                    // No cast, or finite `f32` scores, which the cast leaves as they are:
                    // compared as they are, without a branch per score.
                    false => row
                        .iter()
                        .fold(false, |out, &s| out | (s < T::zero()) | (s > T::one())),
                };
        }
        Ok(Logits {
            scores,
            sigmoid,
            dtype,
        })
    }

    /// Whether casting scores of type `T` to `dtype` may change them.
    fn cast_changes(dtype: PredsDtype) -> bool {
        match dtype {
            PredsDtype::Float64 => false,
            PredsDtype::Float32 => TypeId::of::<T>() != TypeId::of::<f32>(),
            PredsDtype::Float16 | PredsDtype::BFloat16 => true,
        }
    }

    /// Whether the scores go through the sigmoid.
    pub fn applies_sigmoid(&self) -> bool {
        self.sigmoid
    }

    /// Whether the view computes as torch does on `float32` preds.
    ///
    /// ```
    /// use rankmetrics::torchmetrics::Logits;
    /// assert!(Logits::new(&[[0.5f32, 2.0]]).unwrap().is_float32());
    /// assert!(!Logits::new(&[[0.5f64, 2.0]]).unwrap().is_float32());
    /// ```
    pub fn is_float32(&self) -> bool {
        self.dtype == PredsDtype::Float32
    }

    /// The dtype the view computes in.
    ///
    /// ```
    /// use rankmetrics::torchmetrics::{Logits, PredsDtype};
    /// assert_eq!(Logits::new(&[[0.5f32, 2.0]]).unwrap().dtype(), PredsDtype::Float32);
    /// ```
    pub fn dtype(&self) -> PredsDtype {
        self.dtype
    }

    /// Whether the scores are read as they are: without the sigmoid, a cast that leaves them
    /// unchanged (torchmetrics' usual input, probabilities as float32) lends their rows and
    /// columns in place, not copied.
    fn unchanged(&self) -> bool {
        !self.sigmoid && !Self::cast_changes(self.dtype)
    }
}

/// torch's sigmoid of a `float32` tensor, as the `float32` formula `1 / (1 + e)` with
/// `e = exp(-x)` rounded to `float32` and the addition and division in `float32`. This is what
/// reproduces torchmetrics on `float32` preds; a correctly rounded sigmoid does not (below
/// -88.7, where `exp(-x)` overflows `float32`, it gives distinct subnormals where torch gives
/// ties at 0, and above 16.6, where `1 + e` rounds to 1, it stays below 1).
///
/// # Example
/// ```
/// use rankmetrics::torchmetrics::sigmoid_f32;
/// assert_eq!(sigmoid_f32(0.0), 0.5);
/// assert_eq!((sigmoid_f32(20.0), sigmoid_f32(-90.0)), (1.0, 0.0));
/// ```
pub fn sigmoid_f32(x: f32) -> f32 {
    let e = (-f64::from(x)).exp() as f32;
    1.0 / (1.0 + e)
}

/// `x` cast to `float32`, an overflow giving ±`f32::MAX`: the sigmoid gives the same as for
/// torch's ±inf (1 and 0), and any such score lies outside [0, 1], so the sigmoid applies.
pub(super) fn saturating_f32(x: f64) -> f32 {
    (x as f32).clamp(f32::MIN, f32::MAX)
}

impl<T: Score, S: Matrix<Elem = T> + ?Sized> Matrix for Logits<'_, S> {
    type Elem = T;
    fn nrows(&self) -> usize {
        self.scores.nrows()
    }
    fn ncols(&self) -> usize {
        self.scores.ncols()
    }
    fn row(&self, i: usize) -> Option<&[T]> {
        self.unchanged().then(|| self.scores.row(i)).flatten()
    }
    fn column(&self, j: usize) -> Option<&[T]> {
        self.unchanged().then(|| self.scores.column(j)).flatten()
    }
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        let start = out.len();
        self.scores.extend_rows(rows, out);
        let Some(scores) = out.get_mut(start..) else {
            return;
        };
        let dtype = self.dtype;
        match (Self::cast_changes(dtype), self.sigmoid) {
            (_, true) => {
                for s in scores {
                    *s = T::from_f64(dtype.sigmoid(dtype.cast(s.as_f64())));
                }
            }
            (true, false) => {
                for s in scores {
                    *s = T::from_f64(dtype.cast(s.as_f64()));
                }
            }
            (false, false) => {}
        }
    }
    fn check_shape(&self) -> Result<(), Error> {
        self.scores.check_shape()
    }
}

#[cfg(test)]
mod tests {
    use super::{round_to, Logits, PredsDtype};
    use crate::matrix::Matrix;

    /// torch 2.15's `sigmoid()` of these bfloat16 and float16 tensors, printed with `repr`.
    #[test]
    fn half_sigmoids_are_torchs() {
        let view = |scores: &[[f64; 4]], dtype| {
            let mut row = Vec::new();
            Logits::with_dtype(scores, dtype)
                .unwrap()
                .extend_rows(0..1, &mut row);
            row
        };
        let bf16 = view(&[[3.0, 3.015625, -2.0, 0.5]], PredsDtype::BFloat16);
        assert_eq!(bf16[..3], [0.953125, 0.953125, 0.119140625]);
        let f16 = view(&[[10.0, 9.0, -20.0, 0.3]], PredsDtype::Float16);
        assert_eq!(f16, [1.0, 1.0, 0.0, 0.57421875]);
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
