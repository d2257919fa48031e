//! The per-sample vectors (the `samples` average): each row, unweighted.

use super::lanes::{vector_values, Lane, Values};
use super::vector::{Vector, VectorMetric, Weights};
use super::Average;
use crate::kernel::Ranker;
use crate::score::Score;

/// Row i's values (the `samples` average).
pub(super) fn sample_values<M: VectorMetric, T: Score>(
    lanes: &[Lane<'_, M>],
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
    vector_values(lanes, &[Average::Samples], &v, i, ranker, out);
}
