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
}
