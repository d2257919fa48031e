//! A row-wise preset over documents grouped into queries by an index, as torchmetrics'
//! retrieval modules compute it (`src/compat/torchmetrics/queries.rs` has their steps).

use super::Preset;
use crate::compat::torchmetrics::{query_values, EmptyTargetAction, QueryAggregation};
use crate::error::Error;
use crate::matrix::RowMajor;
use crate::score::{Label, Score};

impl Preset {
    /// Each query's value, as a torchmetrics retrieval module's `compute()` finds them: the
    /// documents (`y_true[i]`, `y_score[i]`) grouped by `indexes[i]`, the queries in ascending
    /// index order, each query's documents in the order torch's CPU `sort` of the indexes
    /// leaves them (not their input order below 32,768 documents, which moves tied scores);
    /// each query valued by this preset as a one-row input, or by `empty` where its labels
    /// sum to 0 as torch sums them (`f32` labels, torchmetrics' floating targets, with torch's
    /// `float32` sum; a skipped query has no value); every value rounded to `float32`.
    ///
    /// # Errors
    /// [`Error::NotRowWise`] for a label-wise or pooled preset; [`Error::DataLength`] when the
    /// three slices differ in length; [`Error::NoSamples`] without documents;
    /// [`Error::DegenerateRow`] for an empty query under [`EmptyTargetAction::Error`]; and
    /// the preset's own errors.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// use rankmetrics::torchmetrics::EmptyTargetAction;
    /// let params = [("top_k", "1"), ("arithmetic", "float32")];
    /// let p = Preset::lookup(Convention::Torchmetrics, "retrieval_precision", &params, None).unwrap();
    /// let indexes = [0, 0, 1, 1, 2, 2];
    /// let target = [1, 0, 0, 1, 0, 0];
    /// let preds = [0.9, 0.2, 0.8, 0.1, 0.5, 0.5];
    /// let v = p.query_values(&indexes, &target, &preds, EmptyTargetAction::Neg).unwrap();
    /// assert_eq!(v, [1.0, 0.0, 0.0]);
    /// ```
    pub fn query_values<L: Label + 'static, T: Score>(
        &self, indexes: &[i64], y_true: &[L], y_score: &[T], empty: EmptyTargetAction,
    ) -> Result<Vec<f64>, Error> {
        if !self.is_row_wise() {
            return Err(Error::NotRowWise);
        }
        query_values(indexes, y_true, y_score, empty, |y, s| {
            let n = y.len();
            self.evaluate(&RowMajor::new(y, 1, n)?, &RowMajor::new(s, 1, n)?, None)
        })
    }

    /// The value of a torchmetrics retrieval module: [`query_values`](Preset::query_values)
    /// reduced by `aggregation` (0 when every query was skipped).
    ///
    /// # Errors
    /// As [`query_values`](Preset::query_values).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// use rankmetrics::torchmetrics::{EmptyTargetAction, QueryAggregation};
    /// let params = [("top_k", "1"), ("arithmetic", "float32")];
    /// let p = Preset::lookup(Convention::Torchmetrics, "retrieval_precision", &params, None).unwrap();
    /// let (indexes, target) = ([0, 0, 1, 1, 2, 2], [1, 0, 0, 1, 0, 0]);
    /// let preds = [0.9, 0.2, 0.8, 0.1, 0.5, 0.5];
    /// let skip = EmptyTargetAction::Skip;
    /// let v = p.evaluate_queries(&indexes, &target, &preds, skip, QueryAggregation::Mean).unwrap();
    /// assert_eq!(v, 0.5);
    /// ```
    pub fn evaluate_queries<L: Label + 'static, T: Score>(
        &self, indexes: &[i64], y_true: &[L], y_score: &[T], empty: EmptyTargetAction,
        aggregation: QueryAggregation,
    ) -> Result<f64, Error> {
        let values = self.query_values(indexes, y_true, y_score, empty)?;
        Ok(aggregation.reduce(&values))
    }
}
