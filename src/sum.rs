//! Compensated sums: means over millions of rows stay accurate to the last bits.

/// Neumaier's variant of Kahan summation.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Sum {
    sum: f64,
    compensation: f64,
}

impl Sum {
    pub(crate) fn add(&mut self, x: f64) {
        let t = self.sum + x;
        self.compensation += if self.sum.abs() >= x.abs() {
            (self.sum - t) + x
        } else {
            (x - t) + self.sum
        };
        self.sum = t;
    }

    pub(crate) fn value(&self) -> f64 {
        self.sum + self.compensation
    }
}

/// Σ w·x / Σ w over the values added, with both sums compensated.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct WeightedMean {
    weighted: Sum,
    weight: Sum,
    count: u64,
}

impl WeightedMean {
    pub(crate) fn add(&mut self, x: f64, w: f64) {
        self.weighted.add(w * x);
        self.weight.add(w);
        self.count += 1;
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
        for x in [1e16, 1.0, -1e16, 1.0] {
            s.add(x);
        }
        assert_eq!(s.value(), 2.0);
    }
}
