//! Is-error.

use crate::kernel::RankedRow;
use crate::metrics::{mis_ordered_pairs, row_option_builders};
use crate::row::metric::{RowMetric, RowOptions, RowRule};
use crate::ties::{RankSharing, TiePolicy};

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
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias("is_error"))]
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

    fn reads_only_relevant_blocks(&self) -> bool {
        true
    }

    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        if row.sharing() == Some(RankSharing::Expected) {
            return expected_is_error(row);
        }
        if mis_ordered_pairs(row) > 0.0 {
            1.0
        } else {
            0.0
        }
    }
}

/// The probability, over uniform orderings of the tie groups, that some pair is mis-ordered:
/// 1 when an irrelevant label ranks strictly above a relevant one; otherwise 1 minus the chance
/// that every mixed group puts its relevant labels first, Π 1/C(m, r).
fn expected_is_error(row: &RankedRow<'_>) -> f64 {
    let (mut relevant_above, mut all_in_order) = (0, 1.0);
    for b in row.relevant_blocks() {
        if b.start > relevant_above {
            return 1.0; // an irrelevant label above this relevant one
        }
        // 1/C(m, r) as a product of ratios, which never overflows.
        for i in 0..b.relevant.min(b.len - b.relevant) {
            all_in_order *= (i + 1) as f64 / (b.len - i) as f64;
        }
        relevant_above += b.relevant;
    }
    1.0 - all_in_order
}
