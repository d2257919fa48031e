//! The per-sample vectors (the `samples` average): each row, unweighted, read straight from the
//! matrices (validated before), not from a copy of the cells.

use super::lanes::{vector_values, Lane, Values, VectorPlan};
use super::vector::{Vector, VectorMetric, Weights};
use crate::error::{Error, Input};
use crate::kernel::Ranker;
use crate::matrix::{LabelMatrix, Matrix, RowReader, ScoreMatrix};
use crate::score::{Label, Score};
use crate::validate::check_scores;

/// Reads the rows of the `samples` average: a row's scores as given and its labels' values,
/// O(L) memory a reader (one per thread).
pub(super) struct SampleRows<'a, Y: LabelMatrix + ?Sized, S: Matrix + ?Sized> {
    truth: RowReader<'a, Y>,
    scores: RowReader<'a, S>,
    labels: Vec<f64>,
}

impl<'a, Y: LabelMatrix + ?Sized, S: Matrix + ?Sized> SampleRows<'a, Y, S> {
    pub(super) fn new(y_true: &'a Y, y_score: &'a S) -> Self {
        SampleRows {
            truth: RowReader::new(y_true, Input::Labels),
            scores: RowReader::new(y_score, Input::Scores),
            labels: Vec::new(),
        }
    }

    /// Row i's values (the `samples` average) for the lanes of `plan`, into `out`. An error
    /// only from a matrix that changed since the validation: its shape, or a score no longer
    /// finite (the kernel given NaN scores would make blocks with more relevant items than
    /// places).
    pub(super) fn values<M: VectorMetric, T: Score>(
        &mut self,
        lanes: &[Lane<'_, M>],
        plan: &VectorPlan,
        i: usize,
        ranker: &mut Ranker,
        out: &mut Values,
    ) -> Result<(), Error>
    where
        S: ScoreMatrix<T>,
    {
        let scores = self.scores.row(i)?;
        check_scores(scores, i)?;
        let labels = self.truth.row(i)?;
        self.labels.clear();
        self.labels.extend(labels.iter().map(|&y| y.value()));
        let v = Vector {
            scores,
            labels: &self.labels,
            weights: Weights::Unit,
        };
        vector_values(lanes, plan, &v, i, ranker, out);
        Ok(())
    }
}
