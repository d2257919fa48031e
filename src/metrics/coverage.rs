//! Coverage.

use crate::kernel::{RankedRow, RelevantEnd};
use crate::metrics::row_option_builders;
use crate::row::metric::{RowMetric, RowOptions, RowRule};
use crate::ties::{RankSharing, TiePolicy};

/// Coverage: how far down the ranking one has to go to cover every relevant label.
///
/// Per row, with `rank` the 1-based rank under the tie policy:
///
/// ```text
/// coverage = max_{λ relevant} rank(λ) − 1        (Tsoumakas et al. 2010; mldr, MULAN)
/// coverage = max_{λ relevant} rank(λ)            (.one_based(true); scikit-learn's coverage_error)
/// ```
///
/// A row without a relevant label scores 0 in both forms (every toolkit agrees); a row whose
/// labels are all relevant goes through the formula. Rank-sharing policies give fractional
/// values under `Average`.
///
/// # Example
/// ```
/// use rankmetrics::{Coverage, RankingMetric, TiePolicy};
/// let y_true = [[1, 0, 0], [0, 0, 1]];
/// let y_score = [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]];
/// let tsoumakas = Coverage::new(TiePolicy::Max);
/// assert_eq!(tsoumakas.evaluate(&y_true, &y_score, None).unwrap(), 1.5);
/// assert_eq!(tsoumakas.one_based(true).evaluate(&y_true, &y_score, None).unwrap(), 2.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias("coverage_error", "coverage"))]
pub struct Coverage {
    options: RowOptions,
    one_based: bool,
}

impl Coverage {
    /// Coverage (max rank − 1) with the given tie policy.
    pub const fn new(ties: TiePolicy) -> Self {
        Coverage {
            options: RowOptions::new(ties, RowRule::Value(0.0), RowRule::Formula),
            one_based: false,
        }
    }

    /// With `true`, the worst rank itself, without the − 1 (scikit-learn's `coverage_error`).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, RankingMetric, TiePolicy};
    /// let c = Coverage::new(TiePolicy::Max).one_based(true);
    /// assert_eq!(c.evaluate(&[[0, 1]], &[[0.9, 0.1]], None).unwrap(), 2.0);
    /// ```
    pub const fn one_based(mut self, one_based: bool) -> Self {
        self.one_based = one_based;
        self
    }

    /// Whether the value is the worst rank itself (see [`one_based`](Self::one_based)).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, TiePolicy};
    /// assert!(!Coverage::new(TiePolicy::Max).is_one_based());
    /// ```
    pub const fn is_one_based(&self) -> bool {
        self.one_based
    }
}

row_option_builders!(Coverage);

impl RowMetric for Coverage {
    fn options(&self) -> RowOptions {
        self.options
    }

    fn reads_only_relevant_blocks(&self) -> bool {
        true
    }

    fn reads_one_relevant_block(&self) -> Option<RelevantEnd> {
        Some(RelevantEnd::Last)
    }

    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        let offset = if self.one_based { 0.0 } else { 1.0 };
        row.relevant_blocks()
            .next_back()
            .map_or(0.0, |b| match row.sharing() {
                // The last of r relevant labels placed uniformly among m positions is at
                // r(m+1)/(r+1) on average.
                Some(RankSharing::Expected) => {
                    let (r, m) = (b.relevant as f64, b.len as f64);
                    b.start as f64 + r * (m + 1.0) / (r + 1.0) - offset
                }
                _ => row.rank(b) - offset,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::RankingMetric;
    use rstest::rstest;

    // scikit-learn's test_coverage_tie_handling, one-based.
    #[rstest]
    #[case([0, 0], [0.5, 0.5], 0.0)]
    #[case([1, 0], [0.5, 0.5], 2.0)]
    #[case([0, 1], [0.5, 0.5], 2.0)]
    #[case([1, 1], [0.5, 0.5], 2.0)]
    fn sklearn_tie_handling_2(#[case] y: [i32; 2], #[case] s: [f64; 2], #[case] expected: f64) {
        let c = Coverage::new(TiePolicy::Max).one_based(true);
        assert_eq!(c.evaluate(&[y], &[s], None).unwrap(), expected);
    }

    #[rstest]
    #[case([0, 0, 0], [0.25, 0.5, 0.5], 0.0)]
    #[case([1, 0, 0], [0.25, 0.5, 0.5], 3.0)]
    #[case([0, 1, 0], [0.25, 0.5, 0.5], 2.0)]
    #[case([0, 0, 1], [0.25, 0.5, 0.5], 2.0)]
    #[case([1, 1, 1], [0.25, 0.5, 0.5], 3.0)]
    fn sklearn_tie_handling_3(#[case] y: [i32; 3], #[case] s: [f64; 3], #[case] expected: f64) {
        let c = Coverage::new(TiePolicy::Max).one_based(true);
        assert_eq!(c.evaluate(&[y], &[s], None).unwrap(), expected);
    }

    // mldr probe all-tied-all-rel: last 2, min 0.
    #[rstest]
    #[case(TiePolicy::Last, 2.0)]
    #[case(TiePolicy::Min, 0.0)]
    #[case(TiePolicy::Average, 1.0)]
    fn mldr_all_tied(#[case] t: TiePolicy, #[case] expected: f64) {
        let v = Coverage::new(t)
            .evaluate(&[[1, 1, 1]], &[[0.3, 0.3, 0.3]], None)
            .unwrap();
        assert_eq!(v, expected);
    }
}
