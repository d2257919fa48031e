//! The label propensity model of Jain, Prabhu & Varma (2016), for propensity-scored metrics.

use crate::error::{Error, LabelDomain};
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::metric::RankingMetric;
use crate::row::metric::{RowOptions, RowRule};
use crate::score::Score;
use crate::ties::TiePolicy;
use crate::validate::check_top_k;

/// Jain, Prabhu & Varma (KDD 2016), "Extreme multi-label loss functions for recommendation,
/// tagging, ranking & other missing label applications": the probability `p_l` that a relevant
/// label `l` is observed, from its frequency `N_l` in a training set of `N` samples:
///
/// ```text
/// p_l = 1 / (1 + C · (N_l + B)^(−A)),    C = (ln N − 1) · (B + 1)^A
/// ```
///
/// (`(N_l + B)^(−A) = e^(−A·ln(N_l + B))`, the paper's form.) The inverse propensities
/// `1/p_l = 1 + C·(N_l + B)^(−A)` are computed in that form, as pyxclib's
/// `compute_inv_propesity` does. The paper's values: A = 0.5, B = 0.4 for Wikipedia-derived
/// data sets, A = 0.6, B = 2.6 for Amazon, A = 0.55, B = 1.5 otherwise.
///
/// # Example
/// ```
/// use rankmetrics::PropensityModel;
/// let model = PropensityModel::new(0.55, 1.5).unwrap();
/// let inv = model.inverse_propensities(&[0.0, 10.0, 1000.0], 10_000).unwrap();
/// // Rare labels weigh more.
/// assert!(inv[0] > inv[1] && inv[1] > inv[2] && inv[2] > 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PropensityModel {
    #[cfg_attr(feature = "serde", serde(with = "crate::state_format::f64_bits"))]
    a: f64,
    #[cfg_attr(feature = "serde", serde(with = "crate::state_format::f64_bits"))]
    b: f64,
}

impl PropensityModel {
    /// The paper's parameters for Wikipedia-derived data sets: A = 0.5, B = 0.4.
    pub const WIKIPEDIA: PropensityModel = PropensityModel { a: 0.5, b: 0.4 };
    /// The paper's parameters for Amazon data sets: A = 0.6, B = 2.6.
    pub const AMAZON: PropensityModel = PropensityModel { a: 0.6, b: 2.6 };
    /// The paper's parameters for other data sets: A = 0.55, B = 1.5.
    pub const OTHER: PropensityModel = PropensityModel { a: 0.55, b: 1.5 };

    /// The model with parameters A and B.
    ///
    /// # Errors
    /// [`Error::InvalidPropensityParameter`] unless both are finite.
    ///
    /// # Example
    /// ```
    /// assert!(rankmetrics::PropensityModel::new(0.5, f64::NAN).is_err());
    /// ```
    pub fn new(a: f64, b: f64) -> Result<Self, Error> {
        for (parameter, value) in [('A', a), ('B', b)] {
            if !value.is_finite() {
                return Err(Error::InvalidPropensityParameter { parameter, value });
            }
        }
        Ok(PropensityModel { a, b })
    }

    /// The inverse propensity `1/p_l` of each label, from its frequency `N_l` (the number of
    /// training samples it is relevant in) and the training-set size `N`.
    ///
    /// # Errors
    /// [`Error::InvalidPropensityParameter`] for `N = 0`; [`Error::InvalidLabelWeight`] for
    /// the first label whose frequency is negative or not finite, or whose inverse propensity
    /// is not a finite positive number (when `N_l + B ≤ 0`, or `N < e` with large weights).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Error, PropensityModel};
    /// let m = PropensityModel::OTHER;
    /// assert!(matches!(m.inverse_propensities(&[1.0, -1.0], 100), Err(Error::InvalidLabelWeight { column: 1, .. })));
    /// ```
    pub fn inverse_propensities(&self, frequencies: &[f64], n: usize) -> Result<Vec<f64>, Error> {
        if n == 0 {
            return Err(Error::InvalidPropensityParameter {
                parameter: 'N',
                value: 0.0,
            });
        }
        let c = ((n as f64).ln() - 1.0) * (self.b + 1.0).powf(self.a);
        frequencies
            .iter()
            .enumerate()
            .map(|(column, &f)| {
                let inverse = 1.0 + c * (f + self.b).powf(-self.a);
                if f.is_finite() && f >= 0.0 && inverse.is_finite() && inverse > 0.0 {
                    Ok(inverse)
                } else {
                    let value = if f.is_finite() && f >= 0.0 {
                        inverse
                    } else {
                        f
                    };
                    Err(Error::InvalidLabelWeight { column, value })
                }
            })
            .collect()
    }

    /// Parameter A.
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::PropensityModel::AMAZON.a(), 0.6);
    /// ```
    pub const fn a(&self) -> f64 {
        self.a
    }

    /// Parameter B.
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::PropensityModel::AMAZON.b(), 2.6);
    /// ```
    pub const fn b(&self) -> f64 {
        self.b
    }
}

/// Checks caller-given inverse propensities: each a finite positive number.
pub(crate) fn check_inverse_propensities(weights: &[f64]) -> Result<(), Error> {
    match weights.iter().position(|w| !(w.is_finite() && *w > 0.0)) {
        Some(column) => Err(Error::InvalidLabelWeight {
            column,
            value: weights[column],
        }),
        None => Ok(()),
    }
}

/// The options and `k` of a propensity-scored metric: 0/1 labels, rows without a relevant
/// label score 0; checks `k` and the inverse propensities.
pub(crate) fn propensity_options(
    ties: TiePolicy, k: usize, inverse_propensities: &[f64],
) -> Result<(RowOptions, usize), Error> {
    check_inverse_propensities(inverse_propensities)?;
    let mut options = RowOptions::new(ties, RowRule::Value(0.0), RowRule::Formula);
    options.labels = LabelDomain::Binary;
    Ok((options, check_top_k(k)?))
}

/// pyxclib's normalisation: the mean of `value` over the rows over the mean of `best`.
pub(crate) fn ratio_of_means<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    value: &impl RankingMetric<T>, best: &impl RankingMetric<T>, y_true: &Y, y_score: &S,
    w: Option<&[f64]>,
) -> Result<f64, Error> {
    Ok(value.evaluate(y_true, y_score, w)? / best.evaluate(y_true, y_score, w)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_closed_form() {
        let (a, b, n, f) = (0.55, 1.5, 1000usize, 7.0);
        let c = ((n as f64).ln() - 1.0) * (b + 1.0f64).powf(a);
        let p = 1.0 / (1.0 + c * (-a * (f + b).ln()).exp());
        let inv = PropensityModel::new(a, b)
            .unwrap()
            .inverse_propensities(&[f], n)
            .unwrap();
        assert!((inv[0] - 1.0 / p).abs() < 1e-12);
    }
}
