//! One vector to rank ([`Vector`]: the scores, labels and weights of a column, a row or the
//! pooled cells) and the binary metric that values it ([`VectorMetric`]).

use super::medians::ClassMedians;
use super::micro::fold::PieceSums;
use super::LabelwiseOptions;
use crate::error::Error;
use crate::kernel::{Block, RankedRow};
use crate::score::Score;

/// Per-item weights of one vector.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Weights<'a> {
    /// Every item weighs 1.
    Unit,
    /// Item k weighs `w[k]`.
    Each(&'a [f64]),
    /// Item k (a cell of a row-major n × L pool) weighs its row's weight `w[k / L]`.
    PerRow(&'a [f64], usize),
}

impl Weights<'_> {
    pub(crate) fn of(self, k: usize) -> f64 {
        let w = match self {
            Weights::Unit => return 1.0,
            Weights::Each(w) => w.get(k),
            Weights::PerRow(w, l) => w.get(k / l.max(1)),
        };
        w.copied().unwrap_or(0.0)
    }

    pub(crate) fn is_unit(self) -> bool {
        matches!(self, Weights::Unit)
    }
}

/// One vector to rank: scores, labels (non-zero = relevant) and weights of its items.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Vector<'a, T> {
    pub(crate) scores: &'a [T],
    pub(crate) labels: &'a [f64],
    pub(crate) weights: Weights<'a>,
}

impl<T> Vector<'static, T> {
    /// A vector of unit weights without items: all that an unweighted metric reading only the
    /// relevant blocks reads of a ranking kept as its blocks.
    pub(crate) fn unit() -> Self {
        Vector {
            scores: &[],
            labels: &[],
            weights: Weights::Unit,
        }
    }
}

impl<T> Vector<'_, T> {
    /// The (relevant, irrelevant) weight of a block of `row`.
    pub(crate) fn class_weights(&self, row: &RankedRow<'_>, b: &Block) -> (f64, f64) {
        if self.weights.is_unit() {
            return (b.relevant as f64, (b.len - b.relevant) as f64);
        }
        let members = row.order().get(b.start..b.start + b.len).unwrap_or(&[]);
        members.iter().fold((0.0, 0.0), |(p, n), &j| {
            let (j, w) = (j as usize, self.weights.of(j as usize));
            match self.labels.get(j) {
                Some(&y) if y != 0.0 => (p + w, n),
                _ => (p, n + w),
            }
        })
    }

    /// The weight of the positions ranked at or above `b` that `row.rank(b)` counts, with
    /// weights: `W_above + W_block · (rank − start)/len` (the plain rank when unweighted).
    pub(crate) fn rank_weight(&self, row: &RankedRow<'_>, b: &Block, above: f64) -> f64 {
        if self.weights.is_unit() {
            return row.rank(b);
        }
        let (p, n) = self.class_weights(row, b);
        above + (p + n) * (row.rank(b) - b.start as f64) / b.len as f64
    }

    /// `relevant` (the relevant weight at or above `b`) over the rank weight of `b`. When tiny
    /// (subnormal) weights make the plain ratio overflow, the same ratio is taken with both
    /// sides scaled by the larger of the weight above and the block's weight.
    pub(crate) fn precision(
        &self,
        row: &RankedRow<'_>,
        b: &Block,
        above: f64,
        relevant: f64,
    ) -> f64 {
        let plain = relevant / self.rank_weight(row, b, above);
        if plain.is_finite() || self.weights.is_unit() {
            return plain;
        }
        let (p, n) = self.class_weights(row, b);
        let scale = above.max(p + n);
        // Weights are finite and non-negative, so `scale` is 0 or positive.
        if scale == 0.0 {
            return plain;
        }
        let share = (row.rank(b) - b.start as f64) / b.len as f64;
        (relevant / scale) / (above / scale + (p + n) / scale * share)
    }
}

/// A binary metric that label-wise averaging runs on each vector.
pub(crate) trait VectorMetric {
    fn options(&self) -> LabelwiseOptions;
    /// Why `Optimistic` and `Pessimistic` are not proven to be the best and worst values over
    /// every ordering of a vector's ties (`items_weighted`: its items carry sample weights), if
    /// they are not.
    fn ends_unproven(&self, _items_weighted: bool) -> Option<&'static str> {
        None
    }
    /// Why `Expected` has no closed form for a vector's value (`items_weighted`: its items
    /// carry sample weights), if it has none; [`check`](Self::check) refuses `Expected` then.
    fn expected_missing(&self, _items_weighted: bool) -> Option<&'static str> {
        None
    }
    /// Checks the metric's own parameters; `weighted`: the vectors carry sample weights.
    fn check(&self, _weighted: bool) -> Result<(), Error> {
        Ok(())
    }
    /// The metric on one ranked vector, or `None` where it is undefined.
    fn vector_value<T: Score>(&self, v: &Vector<'_, T>, row: &RankedRow<'_>) -> Option<f64>;
    /// Whether the metric reads only the blocks holding a relevant item (as
    /// [`RankedRow::relevant_blocks`] gives them, whichever kernel path ranked the vector) of a
    /// vector of `items` items; `weighted`: the items carry weights.
    fn reads_only_relevant_blocks(&self, _weighted: bool, _items: usize) -> bool {
        false
    }
    /// Whether the metric reads the items' scores, not only the ranking's blocks (a vector
    /// kept as runs has no items to read).
    fn reads_scores(&self) -> bool {
        false
    }
    /// Whether the metric can read a ranking in consecutive pieces, through the sums
    /// [`piece_sums`](Self::piece_sums) starts and [`pieces_value`](Self::pieces_value) reads,
    /// with the same value as [`vector_value`](Self::vector_value) gives on the whole;
    /// `weighted`: the items carry weights.
    fn reads_pieces(&self, _weighted: bool) -> bool {
        false
    }
    /// The sums a ranking of `items` items read in pieces starts from (nothing added yet);
    /// each piece's part is added to them ([`PieceSums::part`], [`PieceSums::add_part`]):
    /// AUC's pair sums, or, for a metric that reads only the relevant blocks, its fold of them
    /// ([`PieceSums::Folded`]). Called only when [`reads_pieces`](Self::reads_pieces) says so.
    fn piece_sums(&self, items: usize, weighted: bool) -> PieceSums;
    /// The value of a ranking added piece by piece, or `None` where it is undefined;
    /// `medians`: its class medians, given when [`reads_scores`](Self::reads_scores) says the
    /// metric reads scores. By default, the value of the fold of the relevant blocks that
    /// [`piece_sums`](Self::piece_sums) started.
    fn pieces_value(&self, sums: &PieceSums, _medians: Option<ClassMedians>) -> Option<f64> {
        sums.folded_value()
    }
}
