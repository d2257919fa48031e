//! Sums of row values: exact ([`Summation::Exact`]: the value depends only on the values added,
//! not on their order or grouping) or plain left to right ([`Summation::Sequential`], MULAN's).
//!
//! * `exact.rs`: [`ExactSum`], the exact, correctly rounded sum.
//! * `rows.rs`: [`RowSums`], a stream's sums that merge exactly in either mode.

mod exact;
mod rows;

pub(crate) use self::exact::ExactSum;
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

/// A sum: exact, or plain left to right.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum Sum {
    Exact(ExactSum),
    Sequential(#[cfg_attr(feature = "serde", serde(with = "crate::state_format::f64_bits"))] f64),
}

impl Default for Sum {
    fn default() -> Self {
        Sum::new(Summation::Exact)
    }
}

impl Sum {
    pub(crate) fn new(mode: Summation) -> Self {
        match mode {
            Summation::Exact => Sum::Exact(ExactSum::default()),
            Summation::Sequential => Sum::Sequential(0.0),
        }
    }

    #[inline]
    pub(crate) fn add(&mut self, x: f64) {
        match self {
            Sum::Exact(s) => s.add(x),
            Sum::Sequential(s) => *s += x,
        }
    }

    pub(crate) fn value(&self) -> f64 {
        match self {
            Sum::Exact(s) => s.value(),
            // + 0.0 as MULAN's compensation-free sum had it: -0.0 reads as 0.0.
            Sum::Sequential(s) => s + 0.0,
        }
    }
}

/// Σ w·x / Σ w over the values added, both sums exact or both plain.
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct WeightedMean {
    weighted: Sum,
    weight: Sum,
    count: u64,
}

impl WeightedMean {
    pub(crate) fn new(mode: Summation) -> Self {
        WeightedMean {
            weighted: Sum::new(mode),
            weight: Sum::new(mode),
            count: 0,
        }
    }

    #[inline]
    pub(crate) fn add(&mut self, x: f64, w: f64) {
        self.weighted.add(w * x);
        self.weight.add(w);
        self.count += 1;
    }

    /// The mean of `count` values whose exact sums are `weighted` (Σ w·x) and `weight` (Σ w).
    pub(crate) fn from_exact(weighted: ExactSum, weight: ExactSum, count: u64) -> Self {
        WeightedMean {
            weighted: Sum::Exact(weighted),
            weight: Sum::Exact(weight),
            count,
        }
    }

    /// The number of values added.
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// The mean, or `None` when nothing was added or the weights sum to zero.
    pub(crate) fn value(&self) -> Option<f64> {
        let w = self.weight.value();
        (w != 0.0).then(|| self.weighted.value() / w)
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

    #[test]
    fn exact_sums_recover_what_a_plain_sum_loses() {
        let mut s = Sum::default();
        let mut plain = Sum::new(Summation::Sequential);
        for x in [1e16, 1.0, -1e16, 1.0] {
            s.add(x);
            plain.add(x);
        }
        assert_eq!(s.value(), 2.0);
        assert_eq!(plain.value(), 1.0);
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
}
