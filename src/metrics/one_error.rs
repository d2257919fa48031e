//! One-error.

use crate::kernel::{RankedRow, RelevantEnd};
use crate::metrics::row_option_builders;
use crate::row::metric::{RowMetric, RowOptions, RowRule};
use crate::ties::{RankSharing, TiePolicy};

/// One-error: 1 when the top-ranked label is irrelevant, else 0.
///
/// With an ordering policy the top label is one label: `First` takes the lowest column among
/// the highest scores (mldr's `which.max`), `Last` the highest (MULAN). With a rank-sharing
/// policy the whole top tie group shares rank 1, and the row scores 1 if the group holds an
/// irrelevant label (`Max`, pessimistic), if it holds no relevant label (`Min`, optimistic), or
/// the share of irrelevant labels in it (`Average`: the chance that a label drawn from the top
/// group is irrelevant). A row without a relevant label scores 1; one with all labels
/// relevant, 0.
///
/// # Example
/// ```
/// use rankmetrics::{OneError, RankingMetric, TiePolicy};
/// let (y, s) = ([[0, 1, 0]], [[0.5, 0.5, 0.1]]);
/// assert_eq!(OneError::new(TiePolicy::First).evaluate(&y, &s, None).unwrap(), 1.0);
/// assert_eq!(OneError::new(TiePolicy::Last).evaluate(&y, &s, None).unwrap(), 0.0);
/// assert_eq!(OneError::new(TiePolicy::Average).evaluate(&y, &s, None).unwrap(), 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias("one_error"))]
pub struct OneError {
    options: RowOptions,
}

impl OneError {
    /// One-error with the given tie policy.
    pub const fn new(ties: TiePolicy) -> Self {
        OneError {
            options: RowOptions::new(ties, RowRule::Formula, RowRule::Formula),
        }
    }
}

row_option_builders!(OneError);

impl RowMetric for OneError {
    fn options(&self) -> RowOptions {
        self.options
    }

    fn reads_only_relevant_blocks(&self) -> bool {
        true
    }

    fn reads_one_relevant_block(&self) -> Option<RelevantEnd> {
        Some(RelevantEnd::First)
    }

    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        if row.n_labels() == 0 {
            return 0.0;
        }
        // A top group without a relevant label scores 1 under every policy.
        let (relevant, len) = match row.relevant_blocks().next() {
            Some(top) if top.start == 0 => (top.relevant, top.len),
            _ => (0, 1),
        };
        match row.sharing() {
            // The top label is a uniform draw from the top group: the expectation too.
            Some(RankSharing::Average | RankSharing::Expected) => {
                (len - relevant) as f64 / len as f64
            }
            Some(RankSharing::Max) => f64::from(u8::from(relevant < len)),
            None | Some(RankSharing::Min) => f64::from(u8::from(relevant == 0)),
        }
    }
}
