//! One vector to rank ([`Vector`]: the scores, labels and weights of a column, a row or the
//! pooled cells); the binary metric that values it is in `vector_metric.rs`.

use crate::kernel::{Block, RankedRow};

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
        &self, row: &RankedRow<'_>, b: &Block, above: f64, relevant: f64,
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
