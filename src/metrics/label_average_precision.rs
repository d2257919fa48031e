//! Average precision of each label (or of the pooled cells, or of each sample).

use crate::labelwise::{labelwise_builders, LabelwiseOptions, Vector, VectorMetric};
use crate::metrics::average_precision::ranked_average_precision;
use crate::{Average, RankSharing, RankedRow, Score, TiePolicy};

/// Average precision of a binary ranking, as the area under its precision–recall steps:
///
/// ```text
/// AP = Σ_blocks P(block) · (R(block) − R(previous block)),
/// P = relevant weight ranked at or above the block / rank weight,  R = relevant weight so far / W₊
/// ```
///
/// The block structure comes from the tie policy: under [`TiePolicy::Max`] a tie group is one
/// threshold with the precision of the whole group (scikit-learn's `average_precision_score`,
/// Weka's PR area); under `First` the tied items keep their row order (MULAN's
/// `MeanAveragePrecision`: precision at each relevant item's position); `Min` and `Average`
/// use their shared rank (which can push AP above 1, as in mldr's example-based AP). A vector
/// without a relevant item is undefined ([`Undefined`](crate::Undefined)); scikit-learn says 0.
///
/// # Example
/// ```
/// use rankmetrics::{Average, LabelAveragePrecision, RankingMetric, TiePolicy};
/// let y = [[1], [0], [1], [0]];
/// let s = [[0.9], [0.5], [0.5], [0.1]];
/// let max = LabelAveragePrecision::new(Average::Macro, TiePolicy::Max);
/// assert_eq!(max.evaluate(&y, &s, None).unwrap(), 0.5 * 1.0 + 0.5 * (2.0 / 3.0));
/// let first = max.with_ties(TiePolicy::First); // row 1 (irrelevant) ranks above row 2
/// assert_eq!(first.evaluate(&y, &s, None).unwrap(), (1.0 + 2.0 / 3.0) / 2.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias(
    "average_precision_score",
    "MAP",
    "mAP",
    "MacroAUCPR",
    "multilabel_average_precision"
))]
pub struct LabelAveragePrecision {
    options: LabelwiseOptions,
}

impl LabelAveragePrecision {
    /// Average precision averaged by `average`, ties ranked by `ties`.
    pub const fn new(average: Average, ties: TiePolicy) -> Self {
        LabelAveragePrecision {
            options: LabelwiseOptions::new(average, ties),
        }
    }
}

labelwise_builders!(LabelAveragePrecision);

impl VectorMetric for LabelAveragePrecision {
    fn options(&self) -> LabelwiseOptions {
        self.options
    }

    fn check(&self, weighted: bool) -> Result<(), crate::Error> {
        // With weights, precision is a ratio of random sums: no closed-form mean over orders.
        if weighted && self.options.ranking.ties == TiePolicy::Expected {
            return Err(crate::Error::UnsupportedPolicy {
                policy: TiePolicy::Expected,
            });
        }
        Ok(())
    }

    fn reads_only_relevant_blocks(&self, weighted: bool, _items: usize) -> bool {
        // Unweighted, a block without relevant items adds no step and its precision is never
        // read; weighted, the weight above a block counts every block.
        !weighted
    }

    fn vector_value<T: Score>(&self, v: &Vector<'_, T>, row: &RankedRow<'_>) -> Option<f64> {
        if row.n_relevant() == 0 {
            return None;
        }
        let ordered_or_expected = matches!(row.sharing(), None | Some(RankSharing::Expected));
        if ordered_or_expected && v.weights.is_unit() {
            // One precision per relevant item, summed then divided: MULAN's rounding.
            return Some(ranked_average_precision(row));
        }
        // The relevant weight, summed as the steps sum it (same order, same bits), so that the
        // steps need not be kept.
        let total = match v.weights.is_unit() {
            // The other blocks would add 0.0 to a non-negative sum: no change to its bits.
            true => row
                .relevant_blocks()
                .fold(0.0, |t, b| t + b.relevant as f64),
            false => row
                .blocks()
                .iter()
                .fold(0.0, |t, b| t + v.class_weights(row, b).0),
        };
        if total == 0.0 {
            return Some(0.0); // relevant items of weight 0 only: scikit-learn's "no positive"
        }
        // Folded, not looped: the steps' nested chains are walked part by part (a `for` loop
        // asks each step of the whole chain).
        let (sum, _) =
            precision_recall_steps(v, row, true).fold((0.0, 0.0), |(sum, recall_before), s| {
                let recall = s.relevant / total;
                (sum + s.precision * (recall - recall_before), recall)
            });
        Some(sum)
    }

    fn reads_pieces(&self, weighted: bool) -> bool {
        // Unweighted, the value reads the relevant blocks alone, which the pieces give placed
        // in the whole ranking; weighted, each precision reads the weight of every block above.
        !weighted
    }
}

/// One block of a ranked vector as a point of the precision–recall curve.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PrStep {
    /// Relevant weight ranked at or above the block.
    pub(crate) relevant: f64,
    /// That weight over the block's rank weight.
    pub(crate) precision: f64,
}

/// The precision–recall points of the blocks, best first (of a row ranked by counting, only
/// the blocks holding a relevant item). With `steps_only`, only the steps (blocks holding
/// relevant weight), whose precisions alone are computed: a division per block is most of the
/// cost of a long vector.
pub(crate) fn precision_recall_steps<'r, T>(
    v: &'r Vector<'r, T>,
    row: &'r RankedRow<'r>,
    steps_only: bool,
) -> impl Iterator<Item = PrStep> + 'r {
    let (mut relevant, mut above) = (0.0, 0.0);
    // Unweighted, a block's precision reads only its rank and the relevant count: the steps
    // alone are visited (a listed few on a long vector), the others would add 0.
    let steps_alone = steps_only && v.weights.is_unit();
    let (listed, all) = match steps_alone {
        true => (Some(row.relevant_blocks()), None),
        false => (None, Some(row.blocks().iter())),
    };
    let blocks = listed
        .into_iter()
        .flatten()
        .chain(all.into_iter().flatten());
    blocks.filter_map(move |b| {
        let (p, n) = v.class_weights(row, b);
        let is_step = p > 0.0;
        let precision = (is_step || !steps_only).then(|| v.precision(row, b, above, relevant + p));
        relevant += p;
        above += p + n;
        Some(PrStep {
            relevant,
            precision: precision?,
        })
    })
}
