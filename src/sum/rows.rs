//! The sums of a streaming row-wise evaluation ([`RowSums`]), which merge exactly whatever the
//! order of the shards: exact sums are added; MULAN's plain left-to-right sum cannot be
//! rebuilt from partial sums, so that mode keeps every row's value and weight and sums them in
//! row order when read.

use super::{ExactMean, Summation, WeightedMean};

/// The weighted sum of a stream's row values, in the mode its metric asks for.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum RowSums {
    /// Exact sums of w·x and w over the rows that count: constant size; merging adds them.
    Exact(ExactMean),
    /// The values and weights of the rows that count, in runs of consecutive rows sorted by
    /// row number: 16 bytes per row.
    Sequential(Vec<RowStretch>),
    /// As `Sequential`, for torchmetrics' `float32` running total.
    Float32(Vec<RowStretch>),
    /// As `Sequential`, for torch's `float32` `mean()`.
    TorchMean(Vec<RowStretch>),
}

/// Consecutive rows that count, from row `first` on.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct RowStretch {
    first: usize,
    #[cfg_attr(feature = "serde", serde(with = "crate::state_format::vec_f64_bits"))]
    values: Vec<f64>,
    #[cfg_attr(feature = "serde", serde(with = "crate::state_format::vec_f64_bits"))]
    weights: Vec<f64>,
}

impl RowStretch {
    /// The row after the run.
    fn end(&self) -> usize {
        self.first.saturating_add(self.values.len())
    }
}

impl RowSums {
    pub(crate) fn new(mode: Summation) -> Self {
        match mode {
            Summation::Exact => RowSums::Exact(ExactMean::default()),
            Summation::Sequential => RowSums::Sequential(Vec::new()),
            Summation::Float32 => RowSums::Float32(Vec::new()),
            Summation::TorchMean => RowSums::TorchMean(Vec::new()),
        }
    }

    /// The mode the sums are in.
    fn mode(&self) -> Summation {
        match self {
            RowSums::Exact(_) => Summation::Exact,
            RowSums::Sequential(_) => Summation::Sequential,
            RowSums::Float32(_) => Summation::Float32,
            RowSums::TorchMean(_) => Summation::TorchMean,
        }
    }

    /// Empty sums in the same mode.
    pub(crate) fn empty_like(&self) -> Self {
        RowSums::new(self.mode())
    }

    /// Adds the value `x` of row `row` with weight `w`; rows come in increasing order.
    #[inline]
    pub(crate) fn add(&mut self, row: usize, x: f64, w: f64) {
        match self {
            RowSums::Exact(mean) => mean.add(x, w),
            RowSums::Sequential(runs) | RowSums::Float32(runs) | RowSums::TorchMean(runs) => {
                match runs.last_mut() {
                    Some(run) if run.end() == row => {
                        run.values.push(x);
                        run.weights.push(w);
                    }
                    _ => runs.push(RowStretch {
                        first: row,
                        values: vec![x],
                        weights: vec![w],
                    }),
                }
            }
        }
    }

    /// Whether `other` sums in the same mode (then [`merge`](Self::merge) succeeds).
    pub(crate) fn same_mode(&self, other: &RowSums) -> bool {
        self.mode() == other.mode()
    }

    /// Adds the rows of `other`, which holds other rows than `self`. False (nothing merged)
    /// when the modes differ.
    pub(crate) fn merge(&mut self, other: &RowSums) -> bool {
        match (self, other) {
            (RowSums::Exact(mean), RowSums::Exact(other)) => {
                mean.merge(other);
                true
            }
            (RowSums::Sequential(a), RowSums::Sequential(b))
            | (RowSums::Float32(a), RowSums::Float32(b))
            | (RowSums::TorchMean(a), RowSums::TorchMean(b)) => {
                merge_runs(a, b);
                true
            }
            _ => false,
        }
    }

    /// The weighted mean of every row added, the plain mode's values summed in row order
    /// (bitwise what one left-to-right pass over the rows gives).
    pub(crate) fn mean(&self) -> WeightedMean {
        match self {
            RowSums::Exact(mean) => WeightedMean::Exact(mean.clone()),
            RowSums::Sequential(runs) | RowSums::Float32(runs) | RowSums::TorchMean(runs) => {
                let mut mean = WeightedMean::new(self.mode());
                for run in runs {
                    for (&x, &w) in run.values.iter().zip(&run.weights) {
                        mean.add(x, w);
                    }
                }
                mean
            }
        }
    }
}

/// The checks of sums read back ([`RowSums::check`]).
#[cfg(feature = "serde")]
mod check {
    use core::ops::Range;

    use super::{RowStretch, RowSums, Summation};
    use crate::error::{Error, StateFault};
    use crate::state_format::{invalid, refused};
    use crate::validate::check_weights;

    impl RowSums {
        /// Checks sums read back against the metric's summation `mode` and the rows seen
        /// (`rows`: sorted, apart): what rows that count can have added (`weighted`: with
        /// sample weights).
        pub(crate) fn check(
            &self, mode: Summation, rows: &[Range<usize>], weighted: bool,
        ) -> Result<(), Error> {
            if self.mode() != mode {
                let expected = "sums in the metric's summation";
                return Err(invalid("sums", None, StateFault::Value { expected }));
            };
            match self {
                RowSums::Exact(mean) => {
                    let seen = rows
                        .iter()
                        .fold(0u64, |n, r| n.saturating_add(r.len() as u64));
                    mean.check(seen, weighted)
                }
                RowSums::Sequential(runs) | RowSums::Float32(runs) | RowSums::TorchMean(runs) => {
                    check_runs(runs, rows, weighted)
                }
            }
        }
    }

    /// Runs sorted and apart (touching runs are joined), each of at least one row, inside
    /// the rows seen, with one weight a value: finite and at least 0, or 1 unweighted.
    fn check_runs(runs: &[RowStretch], rows: &[Range<usize>], weighted: bool) -> Result<(), Error> {
        const FIELD: &str = "sums.Sequential";
        let mut seen = rows.iter().peekable();
        let mut end = None;
        for (i, run) in runs.iter().enumerate() {
            let (values, weights) = (run.values.len() as u64, run.weights.len() as u64);
            if values != weights {
                let fault = StateFault::Length {
                    expected: values,
                    found: weights,
                };
                return Err(invalid(FIELD, Some(i), fault));
            }
            if run.values.is_empty() {
                let expected = "a run of at least one row";
                return Err(invalid(FIELD, Some(i), StateFault::Value { expected }));
            }
            if end.is_some_and(|end| run.first <= end) {
                return Err(invalid(FIELD, Some(i), StateFault::Order));
            }
            end = Some(run.end());
            while seen.next_if(|r| r.end <= run.first).is_some() {}
            let inside = seen
                .peek()
                .is_some_and(|r| r.start <= run.first && run.end() <= r.end)
                && run.first.checked_add(run.values.len()).is_some();
            if !inside {
                let expected = "rows among the rows seen";
                return Err(invalid(FIELD, Some(i), StateFault::Value { expected }));
            }
            if !weighted && run.weights.iter().any(|&w| w != 1.0) {
                let expected = "weights of 1 (rows without sample weights)";
                return Err(invalid(FIELD, Some(i), StateFault::Value { expected }));
            }
            if let Err(Error::InvalidWeight { row, value }) =
                check_weights(&run.weights, run.weights.len())
            {
                let e = Error::InvalidWeight {
                    row: run.first + row,
                    value,
                };
                return Err(refused(FIELD, Some(i), e));
            }
        }
        Ok(())
    }
}

/// Adds the runs `b` to the sorted runs `a` (no row in both), keeping them sorted and joining
/// runs that meet.
fn merge_runs(a: &mut Vec<RowStretch>, b: &[RowStretch]) {
    let in_order = match (a.last(), b.first()) {
        (Some(last), Some(next)) => last.end() <= next.first,
        _ => true,
    };
    let mut runs: Vec<RowStretch> = b.to_vec();
    if !in_order {
        runs.append(a);
        runs.sort_by_key(|r| r.first);
    }
    for run in runs {
        match a.last_mut() {
            Some(last) if last.end() == run.first => {
                last.values.extend(run.values);
                last.weights.extend(run.weights);
            }
            _ => a.push(run),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_sums_merge_in_row_order_whatever_the_merge_order() {
        let values = [0.1, 1e16, 0.3, -1e16, 0.7, 0.2];
        let mut one = RowSums::new(Summation::Sequential);
        for (i, &v) in values.iter().enumerate() {
            one.add(10 + i, v, 1.0);
        }
        let shard = |rows: core::ops::Range<usize>| {
            let mut s = RowSums::new(Summation::Sequential);
            rows.for_each(|i| s.add(10 + i, values[i], 1.0));
            s
        };
        let (a, b, c) = (shard(0..2), shard(2..3), shard(3..6));
        let mut cba = c.clone();
        assert!(cba.merge(&b));
        assert!(cba.merge(&a));
        assert_eq!(cba, one);
        let (mut ac, mut tree) = (a.clone(), b.clone());
        assert!(ac.merge(&c));
        assert!(tree.merge(&ac));
        assert_eq!(
            tree.mean().value().map(f64::to_bits),
            one.mean().value().map(f64::to_bits)
        );
        assert!(!tree.merge(&RowSums::new(Summation::Exact)));
    }

    #[test]
    fn skipped_rows_split_runs() {
        let mut s = RowSums::new(Summation::Sequential);
        s.add(0, 1.0, 1.0);
        s.add(2, 3.0, 1.0);
        let RowSums::Sequential(runs) = &s else {
            unreachable!()
        };
        assert_eq!(runs.len(), 2);
        assert_eq!(s.mean().value(), Some(2.0));
    }
}
