//! [`DynRankingMetric`]: any metric behind a `dyn` pointer, so that a list can hold metrics of
//! different types.

use crate::error::Error;
use crate::matrix::Matrix;
use crate::metric::RankingMetric;
use crate::score::{Label, Score};

/// A [`RankingMetric`] that can be used as a trait object: `Vec<Box<dyn DynRankingMetric<f64>>>`
/// holds metrics of any type, the toolkits' presets and registry [`Preset`](crate::registry::Preset)s
/// included.
///
/// [`RankingMetric::evaluate`] is generic over the input types, so `dyn RankingMetric` is not a
/// type; this trait fixes the element types (scores `T`, labels `L`) and reads the inputs
/// through `&dyn Matrix`. Every `RankingMetric<T>` implements it for every label type, and
/// [`evaluate_dyn`](Self::evaluate_dyn) gives bitwise what `evaluate` gives on the same data
/// (the only cost is a virtual call per row read).
///
/// # Example
/// ```
/// use rankmetrics::registry::{Convention, Preset};
/// use rankmetrics::{
///     Average, DynRankingMetric, Ndcg, PrecisionAtK, PsPrecisionAtK, RocAuc, RowMajor,
///     AveragePrecision, TiePolicy,
/// };
/// let metrics: Vec<Box<dyn DynRankingMetric<f64, u8>>> = vec![
///     Box::new(AveragePrecision::new(TiePolicy::Max)),                       // row-wise
///     Box::new(Ndcg::new(TiePolicy::Average)),                               // graded
///     Box::new(PrecisionAtK::new(TiePolicy::Max, 2).unwrap()),               // top-k
///     Box::new(RocAuc::new(Average::Macro, TiePolicy::Average)),             // label-wise
///     Box::new(PsPrecisionAtK::new(TiePolicy::Max, 2, vec![1.0, 2.0, 4.0]).unwrap()),
///     Box::new(Preset::lookup(Convention::Sklearn, "label_ranking_loss", Preset::NO_PARAMS, None).unwrap()),
/// ];
/// let y_true = [[1u8, 0, 1], [0, 1, 1], [1, 0, 0]];
/// let y_score = RowMajor::new(&[0.9, 0.2, 0.4, 0.1, 0.7, 0.3, 0.6, 0.6, 0.5], 3, 3).unwrap();
/// let values: Vec<f64> = metrics
///     .iter()
///     .map(|m| m.evaluate_dyn(&y_true, &y_score, None))
///     .collect::<Result<_, _>>()
///     .unwrap();
/// assert_eq!(values.len(), 6);
/// assert!(values.iter().all(|v| (0.0..=4.0).contains(v)));
/// ```
pub trait DynRankingMetric<T: Score, L: Label = f64> {
    /// The metric over all rows, as [`RankingMetric::evaluate`] computes it.
    ///
    /// # Errors
    /// As [`RankingMetric::evaluate`].
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, DynRankingMetric, TiePolicy};
    /// let m: &dyn DynRankingMetric<f64, i32> = &Coverage::new(TiePolicy::Max);
    /// assert_eq!(m.evaluate_dyn(&[[1, 0]], &[[0.2, 0.8]], None).unwrap(), 1.0);
    /// ```
    fn evaluate_dyn(
        &self, y_true: &dyn Matrix<Elem = L>, y_score: &dyn Matrix<Elem = T>,
        sample_weight: Option<&[f64]>,
    ) -> Result<f64, Error>;
}

impl<T: Score, L: Label, M: RankingMetric<T>> DynRankingMetric<T, L> for M {
    fn evaluate_dyn(
        &self, y_true: &dyn Matrix<Elem = L>, y_score: &dyn Matrix<Elem = T>,
        sample_weight: Option<&[f64]>,
    ) -> Result<f64, Error> {
        self.evaluate(y_true, y_score, sample_weight)
    }
}
