//! Sums of row values: exact ([`Summation::Exact`]: the value depends only on the values added,
//! not on their order or grouping) or plain left to right ([`Summation::Sequential`], MULAN's).
//!
//! * `exact.rs`: [`ExactSum`], the exact, correctly rounded sum, and [`ProductSum`], as exact
//!   for the products of values and weights of any magnitude.
//! * `rows.rs`: [`RowSums`], a stream's sums that merge exactly in either mode.
//!
//! Here: [`WeightedMean`] ([`ExactMean`] in the exact mode), and [`with_headroom`], the
//! label-wise metrics' scaling of the sample weights.

mod exact;
mod rows;
mod torch_f32;

pub(crate) use self::exact::{ExactSum, ProductSum};
pub(crate) use self::rows::RowSums;
pub(crate) use self::torch_f32::torch_sum_f32;

/// How the per-row values are summed into a mean.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, Summation};
/// assert_eq!(mulan::Coverage.options().summation, Summation::Sequential);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Summation {
    /// The exact sum, rounded once (to nearest, ties to even): the mean does not depend on the
    /// order of the rows or on how shards were merged.
    #[default]
    Exact,
    /// A plain left-to-right `f64` sum, bit for bit what MULAN's `sum / count` gives.
    Sequential,
    /// A `float32` running total, row after row, divided by the count in `float32`: what
    /// torchmetrics' LRAP computes (`score += score_idx`, then `score / n`), for row values that
    /// are `float32` numbers. With sample weights other than 1 (torchmetrics has none), the
    /// exact weighted mean of the same row values.
    Float32,
    /// torch's `float32` `mean()` of the row values: their `float32` sum in torch's order of
    /// additions (8-lane partial sums), divided by the count in `float32`: what torchmetrics'
    /// retrieval modules compute over queries (`torch.stack(res).mean()`), for row values
    /// that are `float32` numbers. With sample weights other than 1, the exact weighted mean
    /// of the same row values.
    TorchMean,
}

/// Σ w·x / Σ w over the values added, both sums exact or both plain, for weights anywhere in
/// [0, f64::MAX]: the value at weights w is the value at weights c·w for a power of two c
/// that brings them into the normal range.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum WeightedMean {
    /// Exact sums: the value depends on the values and weights added, not on their order.
    Exact(ExactMean),
    /// Plain left-to-right sums of w·2^scale·x and w·2^scale, `scale` the [`headroom`] of the
    /// largest weight so far (the sums are multiplied by the change when it grows).
    Sequential {
        weighted: f64,
        weight: f64,
        scale: i32,
        largest: i32,
        count: u64,
    },
    /// The `float32` running total of the values, and their exact mean for weights other
    /// than 1 (`unit`: every weight so far was 1).
    Float32 {
        total: f32,
        exact: ExactMean,
        unit: bool,
    },
    /// The values in `float32`, and their exact mean for weights other than 1.
    TorchMean {
        values: Vec<f32>,
        exact: ExactMean,
        unit: bool,
    },
}

impl Default for WeightedMean {
    fn default() -> Self {
        WeightedMean::new(Summation::Exact)
    }
}

impl WeightedMean {
    pub(crate) fn new(mode: Summation) -> Self {
        match mode {
            Summation::Exact => WeightedMean::Exact(ExactMean::default()),
            Summation::Sequential => WeightedMean::Sequential {
                weighted: 0.0,
                weight: 0.0,
                scale: 0,
                largest: i32::MIN,
                count: 0,
            },
            Summation::Float32 => WeightedMean::Float32 {
                total: 0.0,
                exact: ExactMean::default(),
                unit: true,
            },
            Summation::TorchMean => WeightedMean::TorchMean {
                values: Vec::new(),
                exact: ExactMean::default(),
                unit: true,
            },
        }
    }

    #[inline]
    pub(crate) fn add(&mut self, x: f64, w: f64) {
        match self {
            WeightedMean::Exact(mean) => mean.add(x, w),
            WeightedMean::Sequential {
                weighted,
                weight,
                scale,
                largest,
                count,
            } => {
                let e = split(w).1;
                if w > 0.0 && e > *largest {
                    *largest = e;
                    let k = headroom(e);
                    if k != *scale {
                        *weighted = times_power_of_two(*weighted, k - *scale);
                        *weight = times_power_of_two(*weight, k - *scale);
                        *scale = k;
                    }
                }
                let w = match *scale {
                    0 => w,
                    k => times_power_of_two(w, k),
                };
                *weighted += w * x;
                *weight += w;
                *count += 1;
            }
            WeightedMean::Float32 { total, exact, unit } => {
                exact.add(x, w);
                *unit &= w == 1.0;
                *total += x as f32;
            }
            WeightedMean::TorchMean {
                values,
                exact,
                unit,
            } => {
                exact.add(x, w);
                *unit &= w == 1.0;
                values.push(x as f32);
            }
        }
    }

    /// The number of values added.
    pub(crate) fn count(&self) -> u64 {
        match self {
            WeightedMean::Exact(mean) => mean.count,
            WeightedMean::Sequential { count, .. } => *count,
            WeightedMean::Float32 { exact, .. } | WeightedMean::TorchMean { exact, .. } => {
                exact.count
            }
        }
    }

    /// The mean, or `None` when nothing was added or the weights sum to zero.
    pub(crate) fn value(&self) -> Option<f64> {
        match self {
            WeightedMean::Exact(mean) => mean.value(),
            // + 0.0 as MULAN's compensation-free sum had it: -0.0 reads as 0.0.
            WeightedMean::Sequential {
                weighted, weight, ..
            } => (*weight != 0.0).then(|| (weighted + 0.0) / weight),
            // torch divides by the row count converted to float32.
            WeightedMean::Float32 {
                total,
                exact,
                unit: true,
            } => (exact.count > 0).then(|| f64::from(total / exact.count as f32)),
            WeightedMean::TorchMean {
                values,
                exact,
                unit: true,
            } => (exact.count > 0).then(|| f64::from(torch_sum_f32(values) / exact.count as f32)),
            WeightedMean::Float32 { exact, .. } | WeightedMean::TorchMean { exact, .. } => {
                exact.value()
            }
        }
    }
}

/// Exact sums of w·x (each product rounded as [`add_product`] rounds it) and of w, and the
/// number of values added: constant size, merged by adding.
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct ExactMean {
    weighted: ProductSum,
    weight: ExactSum,
    count: u64,
}

impl ExactMean {
    #[inline]
    pub(crate) fn add(&mut self, x: f64, w: f64) {
        add_product(&mut self.weighted, x, w);
        self.weight.add(w);
        self.count += 1;
    }

    /// Adds everything `other` added.
    pub(crate) fn merge(&mut self, other: &ExactMean) {
        self.weighted.merge(&other.weighted);
        self.weight.merge(&other.weight);
        self.count = self.count.saturating_add(other.count);
    }

    /// Checks sums read back: at most `seen` rows counted (one per row seen), sums of nothing
    /// when none counted, and weights summing to a finite number of at least 0, or, without
    /// sample weights (`weighted` false), to the count.
    #[cfg(feature = "serde")]
    pub(crate) fn check(&self, seen: u64, weighted: bool) -> Result<(), crate::error::Error> {
        use crate::error::StateFault;
        use crate::state_format::invalid;
        if self.count > seen {
            let expected = "at most the number of rows seen";
            return Err(invalid("sums.count", None, StateFault::Value { expected }));
        }
        let empty = self.weighted == ProductSum::default() && self.weight == ExactSum::default();
        if self.count == 0 && !empty {
            let expected = "sums of nothing when no row counted";
            return Err(invalid("sums", None, StateFault::Value { expected }));
        }
        let ones = || {
            let mut ones = ExactSum::default();
            ones.add(self.count as f64);
            ones
        };
        // Counts beyond 2^53 are not checked against the sum (an f64 does not hold them).
        let fits = weighted || self.count > 1 << 53 || self.weight == ones();
        if !(fits && self.weight.is_finite_non_negative()) {
            let expected = "a finite sum of at least 0 (the count, unweighted)";
            return Err(invalid("sums.weight", None, StateFault::Value { expected }));
        }
        Ok(())
    }

    /// Σ w·x / Σ w, or `None` when Σ w = 0.
    fn value(&self) -> Option<f64> {
        // Read at a scale where Σ w is normal (the scale cancels exactly); as they are where
        // Σ w is in range already.
        let e = self.weight.exponent()?;
        let s = if HEADROOM.contains(&e) { 0 } else { -e };
        Some(self.weighted.value_scaled(s) / self.weight.value_scaled(s))
    }
}

/// Adds w·x to `weighted` as m·x·2^e, w = m·2^e with m in [1, 2): the product rounded as
/// `w * x` rounds where that is a normal number, whatever the magnitude of w.
#[inline]
fn add_product(weighted: &mut ProductSum, x: f64, w: f64) {
    let (m, e) = split(w);
    let p = m * x;
    if p.is_infinite() && x.is_finite() {
        weighted.add_scaled(0.5 * m * x, e + 1); // m·x beyond f64::MAX, m/2·x not
    } else {
        weighted.add_scaled(p, e);
    }
}

/// `w` as `(m, e)` with w = m·2^e, m in [1, 2) (exactly); `(w, 0)` for 0 and non-finite w.
fn split(w: f64) -> (f64, i32) {
    let bits = w.to_bits();
    match ((bits >> 52) & 0x7ff) as i32 {
        0x7ff => (w, 0),
        0 if w == 0.0 => (w, 0),
        0 => {
            let (m, e) = split(w * power_of_two(64)); // a subnormal times 2^64 is normal
            (m, e - 64)
        }
        biased => (
            f64::from_bits(bits & !(0x7ff << 52) | 1023 << 52),
            biased - 1023,
        ),
    }
}

/// 2^k for k in -1022..=1023.
fn power_of_two(k: i32) -> f64 {
    f64::from_bits(((1023 + k) as u64) << 52)
}

/// `x·2^k`: exact where the result is a normal number.
fn times_power_of_two(mut x: f64, mut k: i32) -> f64 {
    // Steps of 2^±1000 keep each factor a normal number.
    while k.abs() > 1000 {
        let step = 1000 * k.signum();
        x *= power_of_two(step);
        k -= step;
    }
    x * power_of_two(k)
}

/// The exponents of weights that plain sums use as they are: sums of 2^64 of them, and
/// products of two such sums, stay finite and normal.
const HEADROOM: core::ops::RangeInclusive<i32> = -400..=400;

/// The power of two 2^k by which plain sums multiply weights whose largest is 2^e·m (m in
/// [1, 2)): k = 0 where e is in [`HEADROOM`], else [`to_headroom`]'s.
fn headroom(e: i32) -> i32 {
    if HEADROOM.contains(&e) {
        0
    } else {
        to_headroom(e)
    }
}

/// The k for which 2^k brings 2^e·m (m in [1, 2)) to [2^400, 2^401): sums of 2^64 weights
/// up to that stay below 2^465, products of two such sums below 2^930, and products of that
/// with weights down to 2^-1422 of it above 2^-1022.
fn to_headroom(e: i32) -> i32 {
    400 - e
}

/// Sample weights scaled by [`with_headroom`].
#[derive(Debug, PartialEq)]
pub(crate) struct Headroom {
    /// The weights times 2^exponent.
    pub(crate) weights: Vec<f64>,
    pub(crate) exponent: i32,
    /// Whether every weight was scaled exactly (none became subnormal and rounded).
    pub(crate) exact: bool,
}

/// Sample weights multiplied by the power of two that brings the largest to [2^400, 2^401).
/// Every label-wise value is a ratio of weight sums, or of products of two (precision:
/// relevant weight over rank weight; AUC: pair weight over W₊·W₋; a weighted mean), so a
/// common power of two changes nothing, bit for bit, where nothing overflows or underflows;
/// at this scale nothing does for any weights from 2^-1422 of the largest up (where weights
/// near `f64::MAX` made those sums overflow and weights below about 1e-154 made `W₊·W₋`
/// underflow). Weights below 2^-1422 of the largest become subnormal and round (`exact` is
/// then false), so far below the largest that only a vector of them alone notices.
pub(crate) fn with_headroom(mut weights: Vec<f64>) -> Headroom {
    // The weights are validated: finite and non-negative, so `max` is too.
    let max = weights.iter().fold(0.0f64, |m, &w| m.max(w));
    let k = match max {
        0.0 => 0,
        max => to_headroom(split(max).1),
    };
    let mut exact = true;
    if k != 0 {
        for w in &mut weights {
            let given = *w;
            *w = times_power_of_two(given, k);
            // Scaling up is exact (nothing overflows); scaling down, unless a weight rounds.
            exact &= k > 0 || *w == 0.0 && given == 0.0 || *w >= f64::MIN_POSITIVE;
        }
    }
    Headroom {
        weights,
        exponent: k,
        exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean(mode: Summation, pairs: &[(f64, f64)]) -> Option<f64> {
        let mut m = WeightedMean::new(mode);
        pairs.iter().for_each(|&(x, w)| m.add(x, w));
        m.value()
    }

    #[test]
    fn exact_sums_recover_what_a_plain_sum_loses() {
        let pairs = [(1e16, 1.0), (1.0, 1.0), (-1e16, 1.0), (1.0, 1.0)];
        assert_eq!(mean(Summation::Exact, &pairs), Some(0.5));
        assert_eq!(mean(Summation::Sequential, &pairs), Some(0.25));
    }

    #[test]
    fn means_at_extreme_weights_are_the_means_at_weights_in_range() {
        let values = [0.1, 2.0, 1.0 / 3.0, 0.7, 5.0];
        let cases: [(&[f64], i32); 5] = [
            (&[5e-324, 5e-324, 1e-323, 0.0, 5e-324], 1074),
            (&[0.0, f64::MAX, f64::MAX, 1.7e308, 3e307], -1000),
            (&[5e-324, 1e-300, 5e-324, 1e-310, 2e-300], 1000),
            (&[1e-200, 3.0, 1e-200, 0.0, 1e-200], 0),
            (&[2f64.powi(401), 1.0, 0.5, 2f64.powi(-400), 7.0], -1),
        ];
        for mode in [Summation::Exact, Summation::Sequential] {
            for (weights, k) in cases {
                let at = |k: i32| -> Vec<(f64, f64)> {
                    let w = weights.iter().map(|&w| times_power_of_two(w, k));
                    values.iter().copied().zip(w).collect()
                };
                let (extreme, in_range) = (mean(mode, &at(0)), mean(mode, &at(k)));
                assert_eq!(extreme, in_range, "{mode:?} at {weights:?}");
            }
        }
        // Ordinary weights: the plain quotient of the sums, as before.
        let pairs = [(0.1, 0.3), (2.0, 1e-100), (0.7, 5.0)];
        let plain = (0.1 * 0.3 + 2.0 * 1e-100 + 0.7 * 5.0) / (0.3 + 1e-100 + 5.0);
        assert_eq!(mean(Summation::Sequential, &pairs), Some(plain));
    }

    #[test]
    fn weights_are_scaled_by_the_power_of_two_that_gives_them_headroom() {
        let headroom = |w: &[f64]| with_headroom(w.to_vec());
        let scaled = headroom(&[0.0, f64::MAX, 2f64.powi(401), 1.0]);
        // f64::MAX = (2 − 2^-52)·2^1023 becomes (2 − 2^-52)·2^400.
        let max = f64::MAX / 2f64.powi(623);
        assert_eq!(scaled.weights, [0.0, max, 2f64.powi(-222), 2f64.powi(-623)]);
        assert_eq!((scaled.exponent, scaled.exact), (-623, true));
        assert_eq!(
            headroom(&[1.0, 3.0, 0.5]).weights,
            [2f64.powi(399), 3.0 * 2f64.powi(399), 2f64.powi(398)]
        );
        let unchanged = headroom(&[0.0, 2f64.powi(400) * 1.5]);
        assert_eq!(
            (unchanged.weights[1], unchanged.exponent),
            (2f64.powi(400) * 1.5, 0)
        );
        assert_eq!(headroom(&[0.0, 0.0]).exponent, 0);
        // 5e-324 = 2^-1074; 1e-300 ≈ 1.4·2^-997.
        let tiny = headroom(&[5e-324, 1e-300, 0.0]);
        assert_eq!((tiny.exponent, tiny.exact), (1397, true));
        assert_eq!(tiny.weights[0], 2f64.powi(323));
        assert_eq!(tiny.weights[1], 1e-300 * 2f64.powi(1000) * 2f64.powi(397));
        // 2^-1000 next to f64::MAX: 2^-1623, below the subnormals, rounds to 0.
        let apart = headroom(&[f64::MAX, 2f64.powi(-1000)]);
        assert_eq!((apart.weights[1], apart.exact), (0.0, false));
    }

    #[test]
    fn split_and_powers_of_two_are_exact() {
        assert_eq!(split(6.0), (1.5, 2));
        assert_eq!(split(5e-324), (1.0, -1074));
        assert_eq!(split(3.0 * 5e-324), (1.5, -1073));
        assert_eq!(split(f64::MAX), (f64::MAX / 2f64.powi(1023), 1023));
        assert_eq!(times_power_of_two(5e-324, 2000), 2f64.powi(926));
        assert_eq!(times_power_of_two(2f64.powi(926), -2000), 5e-324);
    }
}
