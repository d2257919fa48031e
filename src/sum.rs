//! Sums of row values: exact ([`Summation::Exact`]: the value depends only on the values added,
//! not on their order or grouping) or plain left to right ([`Summation::Sequential`], MULAN's).
//!
//! * `exact.rs`: [`ExactSum`], the exact, correctly rounded sum.
//! * `rows.rs`: [`RowSums`], a stream's sums that merge exactly in either mode.

mod exact;
mod rows;

pub(crate) use self::exact::{ExactSum, ProductSum};
pub(crate) use self::rows::RowSums;

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
        }
    }

    /// The number of values added.
    pub(crate) fn count(&self) -> u64 {
        match self {
            WeightedMean::Exact(mean) => mean.count,
            WeightedMean::Sequential { count, .. } => *count,
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
/// [1, 2)): k = 0 where e is in [`HEADROOM`], else the k that brings the largest to
/// [2^400, 2^401).
fn headroom(e: i32) -> i32 {
    if HEADROOM.contains(&e) {
        0
    } else {
        400 - e
    }
}

/// Sample weights whose sums, and products of two sums, stay finite. Every label-wise value
/// is a ratio of weight sums (precision: relevant weight over rank weight; AUC: pair weight
/// over W₊·W₋; a weighted mean), so a common factor changes nothing; but a weight near
/// `f64::MAX` made those sums overflow (an interpolated AP of `inf`, an AUC of NaN). When the
/// largest weight is 2^401 or more, every weight is multiplied by the power of two that brings
/// the largest to [2^400, 2^401): exact, except for weights below 2^-1422 of the largest
/// (2^-399 at most), which become subnormal and round; so far below the largest that only a
/// vector of them alone notices, and scikit-learn's `weighted` rule (a total below 1e-8 gives
/// 0), which compares with a constant. When the largest weight is smaller, the weights are
/// returned as they are, bit for bit.
pub(crate) fn with_headroom(mut weights: Vec<f64>) -> Vec<f64> {
    // The weights are validated: finite and non-negative, so `max` is too.
    let max = weights.iter().fold(0.0f64, |m, &w| m.max(w));
    // The biased exponent: 2^e is stored as e + 1023.
    let exponent = (max.to_bits() >> 52) & 0x7ff;
    if exponent <= 1023 + 400 {
        return weights;
    }
    // 2^(400 − e) with e = exponent − 1023 in 401..=1023: a normal number in [2^-623, 2^-1].
    let factor = f64::from_bits((2 * 1023 + 400 - exponent) << 52);
    for w in &mut weights {
        *w *= factor;
    }
    weights
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
    fn huge_weights_are_scaled_by_a_power_of_two_and_others_kept() {
        let kept = vec![0.0, 3.5, 2f64.powi(400) * 1.5];
        assert_eq!(with_headroom(kept.clone()), kept);
        let scaled = with_headroom(vec![0.0, f64::MAX, 2f64.powi(401), 1.0]);
        // f64::MAX = (2 − 2^-52)·2^1023 becomes (2 − 2^-52)·2^400.
        assert_eq!(
            scaled,
            [
                0.0,
                f64::MAX / 2f64.powi(623),
                2f64.powi(-222),
                2f64.powi(-623)
            ]
        );
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
