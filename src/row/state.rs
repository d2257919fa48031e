//! The state of a streaming row-wise evaluation ([`RowState`]): the shape every batch agrees
//! on, the next row's number, the weighted sum of the row values and scikit-learn's label-type
//! check across batches; and the mean they give ([`mean_value`]).

use crate::error::{Error, Incompatibility, LabelDomain};
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::row::metric::{RowMetric, RowOptions, ZeroWeight};
use crate::row::pass::for_each_row;
use crate::score::Score;
use crate::sum::WeightedMean;
use crate::validate::{check_weights, numbered_from, IndicatorValues};

/// What every batch of one stream must agree on: the label count and whether rows are weighted.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Shape {
    /// The number of labels, once a batch has been seen.
    pub(crate) labels: Option<usize>,
    /// Whether the rows came with sample weights, once a batch has been seen.
    pub(crate) weighted: Option<bool>,
}

impl Shape {
    /// Records the shape and weighting of new rows, or says how they disagree.
    pub(crate) fn agree(&mut self, labels: usize, weighted: bool) -> Result<(), Error> {
        if let Some(expected) = self.labels.filter(|&l| l != labels) {
            return Err(Error::Incompatible(Incompatibility::Labels {
                expected,
                found: labels,
            }));
        }
        if self.weighted.is_some_and(|w| w != weighted) {
            return Err(Error::Incompatible(Incompatibility::Weighting));
        }
        self.labels = Some(labels);
        self.weighted = Some(weighted);
        Ok(())
    }

    /// Agrees with another stream's shape, if it has seen rows.
    pub(crate) fn agree_with(&mut self, other: &Shape) -> Result<(), Error> {
        match (other.labels, other.weighted) {
            (Some(labels), Some(weighted)) => self.agree(labels, weighted),
            _ => Ok(()),
        }
    }
}

/// The state of a streaming row-wise evaluation: constant size, whatever the number of rows.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct RowState {
    shape: Shape,
    /// The global index of the next row (errors and `TiePolicy::Random` streams use it).
    next_row: usize,
    /// Σ w·x and Σ w over the rows that count.
    mean: WeightedMean,
    /// scikit-learn's label-type check across batches.
    indicator: IndicatorValues,
}

impl RowState {
    pub(crate) fn new(options: RowOptions, first_row: usize) -> Self {
        RowState {
            shape: Shape::default(),
            next_row: first_row,
            mean: WeightedMean::new(options.summation),
            indicator: IndicatorValues::default(),
        }
    }

    /// Adds a batch; on error the state is left as it was.
    pub(crate) fn update<M, T, Y, S>(
        &mut self,
        metric: &M,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[f64]>,
    ) -> Result<(), Error>
    where
        M: RowMetric,
        T: Score,
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        self.update_by(y_true, y_score, sample_weight, |first_row, seen, sink| {
            for_each_row(metric, y_true, y_score, first_row, seen, sink)
        })
    }

    /// [`update`](Self::update) with the rows ranked on the threads of the current rayon pool;
    /// the values are summed in row order, so the state is bitwise the same.
    #[cfg(feature = "rayon")]
    pub(crate) fn update_parallel<M, T, Y, S>(
        &mut self,
        metric: &M,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[f64]>,
    ) -> Result<(), Error>
    where
        M: RowMetric + Sync,
        T: Score,
        Y: LabelMatrix + Sync + ?Sized,
        S: ScoreMatrix<T> + Sync + ?Sized,
    {
        self.update_by(y_true, y_score, sample_weight, |first_row, seen, sink| {
            crate::row::parallel::for_each_row(metric, y_true, y_score, first_row, seen, sink)
        })
    }

    /// Adds a batch whose row values `rows(first_row, indicator, sink)` gives in row order;
    /// on error the state is left as it was.
    fn update_by<T, Y, S>(
        &mut self,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[f64]>,
        rows: impl FnOnce(
            usize,
            &mut IndicatorValues,
            &mut dyn FnMut(usize, Option<f64>),
        ) -> Result<(), Error>,
    ) -> Result<(), Error>
    where
        T: Score,
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        if y_true.nrows() == 0
            && y_score.nrows() == 0
            && sample_weight.map_or(true, <[f64]>::is_empty)
        {
            return Ok(()); // an empty batch adds nothing (NoSamples is for `value`)
        }
        let mut next = *self;
        next.shape.agree(y_true.ncols(), sample_weight.is_some())?;
        let weights = sample_weight
            .map(|w| check_weights(w, y_true.nrows()).map_err(|e| numbered_from(e, self.next_row)))
            .transpose()?;
        let mean = &mut next.mean;
        rows(self.next_row, &mut next.indicator, &mut |i, v| {
            if let Some(v) = v {
                mean.add(v, weights.map_or(1.0, |w| w[i]));
            }
        })?;
        next.next_row += y_true.nrows();
        *self = next;
        Ok(())
    }

    pub(crate) fn merge(&mut self, other: &RowState) -> Result<(), Error> {
        let mut next = *self;
        next.shape.agree_with(&other.shape)?;
        for v in other.indicator.iter().flatten() {
            let known = next.indicator.iter().flatten().any(|x| x == v);
            if !known {
                match next.indicator.iter_mut().find(|x| x.is_none()) {
                    Some(slot) => *slot = Some(*v),
                    // A third distinct label value across shards: what one shot would reject.
                    None => {
                        return Err(Error::InvalidLabel {
                            row: other.next_row,
                            column: 0,
                            value: *v,
                            expected: LabelDomain::Indicator,
                        })
                    }
                }
            }
        }
        next.mean.merge(&other.mean);
        next.next_row = next.next_row.max(other.next_row);
        *self = next;
        Ok(())
    }

    pub(crate) fn value(&self, options: RowOptions) -> Result<f64, Error> {
        if self.shape.labels.is_none() {
            return Err(Error::NoSamples);
        }
        mean_value(&self.mean, options.zero_weight)
    }
}

/// The weighted mean of the row values, NaN when every row was skipped, and the zero-weight
/// rule when the weights sum to zero.
pub(crate) fn mean_value(mean: &WeightedMean, zero_weight: ZeroWeight) -> Result<f64, Error> {
    Ok(match mean.value() {
        Some(v) => v,
        None if mean.count() == 0 => f64::NAN, // every row skipped: undefined
        None => match zero_weight {
            ZeroWeight::Nan => f64::NAN,
            ZeroWeight::Error => return Err(Error::ZeroTotalWeight),
        },
    })
}
