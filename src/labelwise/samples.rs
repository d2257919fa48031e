//! The per-sample vectors (the `samples` average): each row, unweighted.

use super::lanes::{vector_values, Lane, Values, VectorPlan};
use super::vector::{Vector, VectorMetric, Weights};
use crate::kernel::Ranker;
use crate::score::Score;

/// Row i's values (the `samples` average) for the lanes of `plan`.
pub(super) fn sample_values<M: VectorMetric, T: Score>(
    lanes: &[Lane<'_, M>],
    plan: &VectorPlan,
    (scores, labels): (&[T], &[f64]),
    l: usize,
    i: usize,
    ranker: &mut Ranker,
    out: &mut Values,
) {
    let v = Vector {
        scores: &scores[i * l..][..l],
        labels: &labels[i * l..][..l],
        weights: Weights::Unit,
    };
    vector_values(lanes, plan, &v, i, ranker, out);
}
