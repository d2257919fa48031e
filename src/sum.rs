//! Compensated sums: means over millions of rows stay accurate to the last bits.

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
    /// Neumaier's compensated sum: accurate to the last bits whatever the number of rows.
    #[default]
    Compensated,
    /// A plain left-to-right `f64` sum, bit for bit what MULAN's `sum / count` gives.
    Sequential,
}

/// A sum, compensated (Neumaier's variant of Kahan summation) or plain.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Sum {
    sum: f64,
    compensation: f64,
    mode: Summation,
}

impl Sum {
    pub(crate) fn new(mode: Summation) -> Self {
        Sum {
            mode,
            ..Sum::default()
        }
    }

    pub(crate) fn add(&mut self, x: f64) {
        let t = self.sum + x;
        if self.mode == Summation::Compensated {
            self.compensation += if self.sum.abs() >= x.abs() {
                (self.sum - t) + x
            } else {
                (x - t) + self.sum
            };
        }
        self.sum = t;
    }

    pub(crate) fn value(&self) -> f64 {
        self.sum + self.compensation
    }
}

/// Σ w·x / Σ w over the values added, with both sums compensated.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
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

    pub(crate) fn add(&mut self, x: f64, w: f64) {
        self.weighted.add(w * x);
        self.weight.add(w);
        self.count += 1;
    }

    /// Adds the values summed by `other` (both sums and their compensations, in that order):
    /// partial means merged in a fixed order give a fixed result.
    pub(crate) fn merge(&mut self, other: &WeightedMean) {
        for (sum, part) in [
            (&mut self.weighted, &other.weighted),
            (&mut self.weight, &other.weight),
        ] {
            sum.add(part.sum);
            sum.add(part.compensation);
        }
        self.count += other.count;
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
    fn compensation_recovers_what_a_plain_sum_loses() {
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
