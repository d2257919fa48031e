//! Is-error.

use crate::metrics::{mis_ordered_pairs, row_option_builders};
use crate::{RankedRow, RowMetric, RowOptions, RowRule, TiePolicy};

/// Is-error (MULAN's `IsError`): 1 when the row's ranking is not perfect, that is when some
/// (relevant, irrelevant) pair is mis-ordered, else 0.
///
/// Under a rank-sharing policy a tied pair makes the row an error unless the policy is `Min`
/// (the pair counts as mis-ordered with weight 1 under `Max` and ½ under `Average`).
/// Degenerate rows score 0.
///
/// # Example
/// ```
/// use rankmetrics::{IsError, RankingMetric, TiePolicy};
/// let (y, s) = ([[0, 1, 0]], [[0.5, 0.5, 0.1]]);
/// assert_eq!(IsError::new(TiePolicy::Last).evaluate(&y, &s, None).unwrap(), 0.0);
/// assert_eq!(IsError::new(TiePolicy::First).evaluate(&y, &s, None).unwrap(), 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IsError {
    options: RowOptions,
}

impl IsError {
    /// Is-error with the given tie policy.
    pub const fn new(ties: TiePolicy) -> Self {
        IsError {
            options: RowOptions::new(ties, RowRule::Formula, RowRule::Formula),
        }
    }
}

row_option_builders!(IsError);

impl RowMetric for IsError {
    fn options(&self) -> RowOptions {
        self.options
    }

    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        if mis_ordered_pairs(row) > 0.0 {
            1.0
        } else {
            0.0
        }
    }
}
