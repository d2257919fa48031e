//! Average precision of each label (or of the pooled cells, or of each sample).

use crate::labelwise::micro::fold::{BlocksFold, FoldedBlocks, PieceSums};
use crate::labelwise::{
    labelwise_builders, LabelwiseOptions, Vector, VectorMetric, WEIGHTED_PRECISION_ENDS,
    WEIGHTED_PRECISION_EXPECTED,
};
use crate::metrics::average_precision::{ranked_average_precision, RankedPrecisions};
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

    fn ends_unproven(&self, items_weighted: bool) -> Option<&'static str> {
        items_weighted.then_some(WEIGHTED_PRECISION_ENDS)
    }

    fn expected_missing(&self, items_weighted: bool) -> Option<&'static str> {
        items_weighted.then_some(WEIGHTED_PRECISION_EXPECTED)
    }

    fn check(&self, weighted: bool) -> Result<(), crate::Error> {
        match self.expected_missing(weighted) {
            Some(reason) if self.options.ranking.ties == TiePolicy::Expected => {
                Err(crate::Error::UnsupportedPolicy {
                    policy: TiePolicy::Expected,
                    reason,
                })
            }
            _ => Ok(()),
        }
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
        let mut area = StepArea::new(total);
        // Folded, not looped: the steps' nested chains are walked part by part (a `for` loop
        // asks each step of the whole chain).
        precision_recall_steps(v, row, true, 0.0).for_each(|s| area.add(s));
        Some(area.sum)
    }

    fn reads_pieces(&self, weighted: bool) -> bool {
        // Unweighted, the value reads the relevant blocks alone, which the pieces give placed
        // in the whole ranking; weighted, each precision reads the weight of every block above.
        !weighted
    }

    fn piece_sums(&self, items: usize, weighted: bool) -> PieceSums {
        // Weighted, a precision reads the weight of every block above: not read in pieces.
        debug_assert!(
            !weighted,
            "weighted average precision folded from relevant blocks"
        );
        PieceSums::Folded(FoldedBlocks::new(items, Box::<PooledPrecisions>::default()))
    }
}

/// The area under the precision–recall steps, summed in rank order: `P · (R − R_previous)` a
/// step, with the total relevant weight known before the first.
#[derive(Debug, Clone, Copy)]
struct StepArea {
    total: f64,
    /// The relevant weight at or above the last step added.
    relevant: f64,
    recall_before: f64,
    sum: f64,
}

impl StepArea {
    fn new(total: f64) -> Self {
        StepArea {
            total,
            relevant: 0.0,
            recall_before: 0.0,
            sum: 0.0,
        }
    }

    #[inline]
    fn add(&mut self, s: PrStep) {
        let recall = s.relevant / self.total;
        self.sum += s.precision * (recall - self.recall_before);
        (self.relevant, self.recall_before) = (s.relevant, recall);
    }
}

/// Unweighted average precision of a pooled ranking, folded over its relevant blocks piece by
/// piece: the sums [`vector_value`](VectorMetric::vector_value) makes on the whole ranking,
/// term by term in the same order.
#[derive(Debug, Clone, Copy, Default)]
struct PooledPrecisions {
    /// The whole ranking's relevant items (every piece gives it).
    relevant: usize,
    /// Ranks shared as an average over orders, or not at all: precisions summed one a
    /// relevant item; otherwise, the area under the steps.
    ranked: bool,
    precisions: RankedPrecisions,
    area: Option<StepArea>,
}

impl BlocksFold for PooledPrecisions {
    fn add(&mut self, row: &RankedRow<'_>) {
        self.relevant = row.n_relevant();
        self.ranked = matches!(row.sharing(), None | Some(RankSharing::Expected));
        match self.ranked {
            true => self.precisions.add(row),
            false => {
                // Unweighted, the total is the relevant count (summed as integers: exact).
                let area = self
                    .area
                    .get_or_insert_with(|| StepArea::new(row.n_relevant() as f64));
                let unit = Vector::<f64>::unit();
                precision_recall_steps(&unit, row, true, area.relevant).for_each(|s| area.add(s));
            }
        }
    }

    fn value(&self) -> Option<f64> {
        match (self.relevant, self.ranked, self.area) {
            (0, _, _) => None,
            (relevant, true, _) => Some(self.precisions.value(relevant)),
            (_, false, area) => area.map(|a| a.sum),
        }
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
/// cost of a long vector. `relevant_before`: the relevant weight ranked above the first block
/// (a part of an unweighted ranking; 0 for a whole one).
pub(crate) fn precision_recall_steps<'r, T>(
    v: &'r Vector<'r, T>, row: &'r RankedRow<'r>, steps_only: bool, relevant_before: f64,
) -> impl Iterator<Item = PrStep> + 'r {
    // Unweighted, `above` is never read: a block's precision reads its rank.
    let (mut relevant, mut above) = (relevant_before, 0.0);
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
