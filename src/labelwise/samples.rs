//! The per-sample vectors (the `samples` average): each row, unweighted, read straight from the
//! matrices (validated before), not from a copy of the cells.

use super::cells::changed_shape;
use super::lanes::{vector_values, Values, VectorLane, VectorRankings};
use super::vector::{Vector, Weights};
use super::vector_metric::VectorMetric;
use crate::error::{Error, Input};
use crate::kernel::Ranker;
use crate::matrix::{LabelMatrix, Matrix, RowReader, ScoreMatrix};
use crate::score::{Label, Score};
use crate::validate::check_scores;

/// Reads the rows of the `samples` average: a row's scores as given and its labels' values.
/// Each reader holds a row's label values, and for inputs that do not lend their rows a block
/// of about 4,096 cells (or one row) of each matrix.
pub(super) struct SampleRows<'a, Y: LabelMatrix + ?Sized, S: Matrix + ?Sized> {
    truth: RowReader<'a, Y>,
    scores: RowReader<'a, S>,
    labels: Vec<f64>,
    /// A matrix whose shape is no longer the one validated: every row gives this error.
    changed: Option<Error>,
}

impl<'a, Y: LabelMatrix + ?Sized, S: Matrix + ?Sized> SampleRows<'a, Y, S> {
    /// Readers of the two matrices, validated as `validated` (n, L) rows and labels: the
    /// readers check each row against the shape they find now, so a shape changed since the
    /// validation is an error here.
    pub(super) fn new(y_true: &'a Y, y_score: &'a S, validated: (usize, usize)) -> Self {
        let (truth, scores) = (
            RowReader::new(y_true, Input::Labels),
            RowReader::new(y_score, Input::Scores),
        );
        // Asked after the readers took their shapes: a change before then is seen here.
        let changed = changed_shape(y_true, y_score, validated);
        SampleRows {
            truth,
            scores,
            labels: Vec::new(),
            changed,
        }
    }

    /// Row i's values (the `samples` average) for the lanes of `plan`, into `out`. An error
    /// only from a matrix that changed since the validation: its shape, or a score no longer
    /// finite (the kernel given NaN scores would make blocks with more relevant items than
    /// places).
    pub(super) fn values<M: VectorMetric, T: Score>(
        &mut self, lanes: &[VectorLane<'_, M>], plan: &VectorRankings, i: usize,
        ranker: &mut Ranker, out: &mut Values,
    ) -> Result<(), Error>
    where
        S: ScoreMatrix<T>,
    {
        if let Some(e) = &self.changed {
            return Err(e.clone());
        }
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
