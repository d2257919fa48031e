//! The label-wise vectors (macro and weighted averages): each column, with the sample weights.

use super::lanes::{vector_values, Lane, Values};
use super::vector::{Vector, VectorMetric, Weights};
use super::Average;
use crate::kernel::Ranker;
use crate::score::{Label, Score};

/// Column j's values (macro and weighted averages) and its positive weight (the weighted
/// average's weight of the column). `labels` is scratch for the column's label values.
#[allow(clippy::too_many_arguments)] // the column, its data and the scratch of one task
pub(super) fn column_values<M: VectorMetric, T: Score, L: Label>(
    lanes: &[Lane<'_, M>],
    (scores, labels): (&[T], &[L]),
    weights: Option<&[f64]>,
    n: usize,
    j: usize,
    ranker: &mut Ranker,
    col_labels: &mut Vec<f64>,
    out: &mut Values,
) -> f64 {
    let weights_of_rows = weights.map_or(Weights::Unit, Weights::Each);
    col_labels.clear();
    col_labels.extend(labels[j * n..][..n].iter().map(|y| y.value()));
    let v = Vector {
        scores: &scores[j * n..][..n],
        labels: col_labels,
        weights: weights_of_rows,
    };
    let averages = [Average::Macro, Average::Weighted];
    vector_values(lanes, &averages, &v, j, ranker, out);
    (0..n).map(|i| weights_of_rows.of(i) * col_labels[i]).sum()
}

/// The weight of a column's value under `average`.
pub(super) fn column_weight(positive_weight: f64) -> impl Fn(Average) -> f64 {
    move |a| match a {
        Average::Weighted => positive_weight,
        _ => 1.0,
    }
}
