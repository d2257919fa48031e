//! Ranking loss.

use crate::kernel::RankedRow;
use crate::metrics::{mis_ordered_pairs, row_option_builders};
use crate::row::metric::{RowMetric, RowOptions, RowRule};
use crate::ties::TiePolicy;

/// Ranking loss: the share of (relevant, irrelevant) label pairs that are mis-ordered.
///
/// Per row, with `Y` the relevant labels and `Ȳ` the others:
///
/// ```text
/// RL = |{(λ, μ) ∈ Y × Ȳ : μ ranked above λ}| / (|Y| · |Ȳ|)
/// ```
///
/// A pair tied under a rank-sharing policy counts 1 under `Max` (scikit-learn, mldr: a tie is
/// an error), 0 under `Min` and ½ under `Average`; ordering policies decide it by their order
/// (`Last`: MULAN, and torchmetrics on CPU). Rows with no relevant or no irrelevant label
/// score 0 and count.
///
/// # Example
/// ```
/// use rankmetrics::{RankingLoss, RankingMetric, TiePolicy};
/// let (y, s) = ([[0, 0, 1]], [[0.25, 0.5, 0.5]]);
/// assert_eq!(RankingLoss::new(TiePolicy::Max).evaluate(&y, &s, None).unwrap(), 0.5);
/// assert_eq!(RankingLoss::new(TiePolicy::Average).evaluate(&y, &s, None).unwrap(), 0.25);
/// assert_eq!(RankingLoss::new(TiePolicy::Last).evaluate(&y, &s, None).unwrap(), 0.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias("label_ranking_loss", "ranking_loss"))]
pub struct RankingLoss {
    options: RowOptions,
}

impl RankingLoss {
    /// Ranking loss with the given tie policy.
    pub const fn new(ties: TiePolicy) -> Self {
        RankingLoss {
            options: RowOptions::new(ties, RowRule::Value(0.0), RowRule::Value(0.0)),
        }
    }
}

row_option_builders!(RankingLoss);

impl RowMetric for RankingLoss {
    fn options(&self) -> RowOptions {
        self.options
    }

    fn reads_only_relevant_blocks(&self) -> bool {
        true
    }

    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        let relevant = row.n_relevant() as f64;
        let irrelevant = (row.n_labels() - row.n_relevant()) as f64;
        mis_ordered_pairs(row) / (relevant * irrelevant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::RankingMetric;
    use rstest::rstest;

    // scikit-learn's test_ranking_loss_ties_handling.
    #[rstest]
    #[case([1, 0], [0.5, 0.5], 1.0)]
    #[case([0, 1], [0.5, 0.5], 1.0)]
    fn sklearn_ties_are_errors(#[case] y: [i32; 2], #[case] s: [f64; 2], #[case] expected: f64) {
        let v = RankingLoss::new(TiePolicy::Max)
            .evaluate(&[y], &[s], None)
            .unwrap();
        assert_eq!(v, expected);
    }

    // torchmetrics (stable CPU sort) = Last: a tied pair is an error iff the relevant label
    // has the smaller column index.
    #[rstest]
    #[case([1, 0], 1.0)]
    #[case([0, 1], 0.0)]
    fn last_decides_by_column(#[case] y: [i32; 2], #[case] expected: f64) {
        let v = RankingLoss::new(TiePolicy::Last)
            .evaluate(&[y], &[[0.5, 0.5]], None)
            .unwrap();
        assert_eq!(v, expected);
    }
}
