//! Error set size.

use crate::kernel::RankedRow;
use crate::metrics::{mis_ordered_pairs, row_option_builders};
use crate::row::metric::{RowMetric, RowOptions, RowRule};
use crate::ties::TiePolicy;

/// Error set size (MULAN's `ErrorSetSize`): the number of mis-ordered (relevant, irrelevant)
/// pairs of a row, not normalised; the ranking loss times |Y|·|Ȳ|.
///
/// Tied pairs count as in [`RankingLoss`](crate::RankingLoss). Degenerate rows have no pair
/// and score 0.
///
/// # Example
/// ```
/// use rankmetrics::{ErrorSetSize, RankingMetric, TiePolicy};
/// let (y, s) = ([[1, 0, 0]], [[0.1, 0.5, 0.5]]);
/// assert_eq!(ErrorSetSize::new(TiePolicy::Last).evaluate(&y, &s, None).unwrap(), 2.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias("error_set_size"))]
pub struct ErrorSetSize {
    options: RowOptions,
}

impl ErrorSetSize {
    /// Error set size with the given tie policy.
    pub const fn new(ties: TiePolicy) -> Self {
        ErrorSetSize {
            options: RowOptions::new(ties, RowRule::Formula, RowRule::Formula),
        }
    }
}

row_option_builders!(ErrorSetSize);

impl RowMetric for ErrorSetSize {
    fn options(&self) -> RowOptions {
        self.options
    }

    fn reads_only_relevant_blocks(&self) -> bool {
        true
    }

    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        mis_ordered_pairs(row)
    }
}
