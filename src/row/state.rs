//! The state of a streaming row-wise evaluation ([`RowState`]): the shape every batch agrees
//! on, the rows seen ([`Rows`]), the weighted sums of the row values ([`RowSums`]) and
//! scikit-learn's label-type check across batches ([`IndicatorSeen`]); and the mean they give
//! ([`mean_value`]). Merging states gives the state of one stream over both sets of rows,
//! whatever the order of the merges, or an error.

use crate::error::{Error, Incompatibility, Input, LabelDomain};
use crate::matrix::{LabelMatrix, RowReader, ScoreMatrix};
use crate::row::metric::{RowMetric, RowOptions, ZeroWeight};
use crate::row::pass::for_each_row;
use crate::row::rows::Rows;
use crate::score::{Label, Score};
use crate::sum::{RowSums, WeightedMean};
#[cfg(feature = "serde")]
use crate::validate::admit;
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

    /// Checks a shape read back against the rows seen: a label count (at least `min_labels`,
    /// as inputs are checked) and a weighting once rows were seen, neither before.
    #[cfg(feature = "serde")]
    pub(crate) fn check(&self, rows: &Rows, min_labels: usize) -> Result<(), Error> {
        use crate::error::StateFault;
        use crate::state_format::{invalid, refused};
        use crate::validate::check_label_count;
        let seen = !rows.ranges().is_empty();
        if self.labels.is_some() != seen || self.weighted.is_some() != seen {
            let expected = "a label count and a weighting once rows were seen, neither before";
            return Err(invalid("shape", None, StateFault::Value { expected }));
        }
        match self.labels {
            Some(l) => check_label_count(l, min_labels)
                .map(|_| ())
                .map_err(|e| refused("shape.labels", None, e)),
            None => Ok(()),
        }
    }

    /// Agrees with another stream's shape, if it has seen rows.
    pub(crate) fn agree_with(&mut self, other: &Shape) -> Result<(), Error> {
        match (other.labels, other.weighted) {
            (Some(labels), Some(weighted)) => self.agree(labels, weighted),
            _ => Ok(()),
        }
    }
}

/// The state of a streaming row-wise evaluation: constant size whatever the number of rows,
/// except in the [`Sequential`](crate::Summation::Sequential) mode (16 bytes per row).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct RowState {
    shape: Shape,
    /// The global numbers of the rows seen (errors and `TiePolicy::Random`'s streams use them).
    rows: Rows,
    /// Σ w·x and Σ w over the rows that count.
    sums: RowSums,
    /// scikit-learn's label-type check across batches.
    indicator: IndicatorSeen,
}

impl RowState {
    pub(crate) fn new(options: RowOptions, first_row: usize) -> Self {
        RowState {
            shape: Shape::default(),
            rows: Rows::starting_at(first_row),
            sums: RowSums::new(options.summation),
            indicator: IndicatorSeen::default(),
        }
    }

    /// The rows seen.
    pub(crate) fn rows(&self) -> &Rows {
        &self.rows
    }

    /// Adds a batch; on error the state is left as it was.
    pub(crate) fn update<M, T, Y, S>(
        &mut self, metric: &M, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
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
        &mut self, metric: &M, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
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
    fn update_by<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
        &mut self, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
        rows: impl FnOnce(
            usize,
            &mut IndicatorValues,
            &mut dyn FnMut(usize, Option<f64>),
        ) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let n = y_true.nrows();
        if n == 0 && y_score.nrows() == 0 && sample_weight.map_or(true, <[f64]>::is_empty) {
            return Ok(()); // an empty batch adds nothing (NoSamples is for `value`)
        }
        let mut shape = self.shape;
        shape.agree(y_true.ncols(), sample_weight.is_some())?;
        self.rows.check_batch(n)?;
        let first = self.rows.next();
        let weights = sample_weight
            .map(|w| check_weights(w, n).map_err(|e| numbered_from(e, first)))
            .transpose()?;
        let mut indicator = self.indicator.values();
        let mut batch = self.sums.empty_like();
        rows(first, &mut indicator, &mut |i, v| {
            if let Some(v) = v {
                batch.add(first + i, v, weights.map_or(1.0, |w| w[i]));
            }
        })?;
        let indicator = self.indicator.with_batch(indicator, y_true, first)?;
        self.indicator = indicator;
        self.sums.merge(&batch); // the same mode: it merges
        self.rows.take_batch(n);
        self.shape = shape;
        Ok(())
    }

    /// Checks a state read back for `metric`: the shape against the rows seen (and the
    /// metric's per-label factors), the sums against the summation and the rows, the label
    /// values met against the label domain, the rows and the labels.
    #[cfg(feature = "serde")]
    pub(crate) fn check<M: RowMetric>(&self, metric: &M) -> Result<(), Error> {
        let options = metric.options();
        self.shape.check(&self.rows, options.min_labels)?;
        if let (Some(l), Some(w)) = (self.shape.labels, metric.gain_weights()) {
            if w.len() != l {
                let e = Error::LabelWeightLength {
                    expected: l,
                    found: w.len(),
                };
                return Err(crate::state_format::refused("shape.labels", None, e));
            }
        }
        let weighted = self.shape.weighted == Some(true);
        self.sums
            .check(options.summation, self.rows.ranges(), weighted)?;
        let indicator = options.labels == LabelDomain::Indicator;
        self.indicator
            .check(indicator, &self.rows, self.shape.labels.unwrap_or(0))
    }

    /// Adds the rows of `other`, which must be other rows than this state's; on error the
    /// state is left as it was.
    pub(crate) fn merge(&mut self, other: &RowState) -> Result<(), Error> {
        let mut shape = self.shape;
        shape.agree_with(&other.shape)?;
        let rows = self.rows.union(&other.rows)?;
        let indicator = self.indicator.union(&other.indicator)?;
        if !self.sums.same_mode(&other.sums) {
            return Err(Error::Incompatible(Incompatibility::Metric));
        }
        self.sums.merge(&other.sums);
        self.shape = shape;
        self.rows = rows;
        self.indicator = indicator;
        Ok(())
    }

    pub(crate) fn value(&self, options: RowOptions) -> Result<f64, Error> {
        if self.shape.labels.is_none() {
            return Err(Error::NoSamples);
        }
        mean_value(&self.sums.mean(), options.zero_weight)
    }
}

/// scikit-learn's label-type check across batches: the distinct label values met (two at most)
/// and the cell where each was first met, so that a merge knows the cell one-shot evaluation
/// would report, whatever the order of the merges.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct IndicatorSeen {
    /// In the order they were first met (row, then column).
    first: [Option<FirstSeen>; 2],
}

/// A label value and the cell (global row, column) where it was first met.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct FirstSeen {
    #[cfg_attr(feature = "serde", serde(with = "crate::state_format::f64_bits"))]
    value: f64,
    row: usize,
    column: usize,
}

impl IndicatorSeen {
    /// The values met, as the row pass's check carries them.
    pub(crate) fn values(&self) -> IndicatorValues {
        self.first.map(|f| f.map(|f| f.value))
    }

    /// These values and those the check met in a batch (`after`: those known before and the
    /// new ones), with the cell where each new one first occurs in `y_true` (rows numbered
    /// from `first`).
    fn with_batch<Y: LabelMatrix + ?Sized>(
        &self, after: IndicatorValues, y_true: &Y, first: usize,
    ) -> Result<IndicatorSeen, Error> {
        let mut seen = *self;
        for value in after.into_iter().flatten() {
            if self.values().iter().flatten().any(|&v| v == value) {
                continue;
            }
            let mut reader = RowReader::new(y_true, Input::Labels);
            let mut cell = None;
            for i in 0..y_true.nrows() {
                if let Some(column) = reader.row(i)?.iter().position(|x| x.value() == value) {
                    cell = Some((first + i, column));
                    break;
                }
            }
            if let (Some((row, column)), Some(slot)) =
                (cell, seen.first.iter_mut().find(|f| f.is_none()))
            {
                *slot = Some(FirstSeen { value, row, column });
            }
        }
        seen.sort();
        Ok(seen)
    }

    /// The values of both, or scikit-learn's error for the first cell, in row order, that holds
    /// a third distinct value (what one-shot evaluation of both sets of rows reports).
    fn union(&self, other: &IndicatorSeen) -> Result<IndicatorSeen, Error> {
        let mut all: Vec<FirstSeen> = self.first.iter().flatten().copied().collect();
        for f in other.first.iter().flatten() {
            match all.iter_mut().find(|g| g.value == f.value) {
                Some(g) if (f.row, f.column) < (g.row, g.column) => *g = *f,
                Some(_) => {}
                None => all.push(*f),
            }
        }
        all.sort_by_key(|f| (f.row, f.column));
        if let Some(third) = all.get(2) {
            return Err(Error::InvalidLabel {
                row: third.row,
                column: third.column,
                value: third.value,
                expected: LabelDomain::Indicator,
            });
        }
        let mut union = IndicatorSeen::default();
        for (slot, f) in union.first.iter_mut().zip(all) {
            *slot = Some(f);
        }
        Ok(union)
    }

    /// Checks label values read back: none unless the metric checks label types
    /// (`indicator`); else one at least once rows were seen, each integral and met in a cell
    /// of the rows seen and the `labels` columns, two distinct ones in the order met.
    #[cfg(feature = "serde")]
    fn check(&self, indicator: bool, rows: &Rows, labels: usize) -> Result<(), Error> {
        use crate::error::StateFault;
        use crate::state_format::{invalid, refused};
        const FIELD: &str = "indicator.first";
        let value = |index, expected| invalid(FIELD, Some(index), StateFault::Value { expected });
        let seen = !rows.ranges().is_empty();
        match self.first {
            [None, None] if indicator && seen => return Err(value(0, "a label value met")),
            [None, Some(_)] => return Err(value(0, "the first label value met")),
            [Some(_), _] if !indicator => {
                return Err(value(
                    0,
                    "no label value (the metric does not check label types)",
                ))
            }
            _ => {}
        }
        let mut values: IndicatorValues = [None; 2];
        let mut before = None;
        for (index, f) in self.first.iter().enumerate() {
            let Some(f) = f else { continue };
            let in_rows = rows.ranges().iter().any(|r| r.contains(&f.row));
            if !(in_rows && f.column < labels) {
                return Err(value(index, "a cell of the rows seen"));
            }
            if before.is_some_and(|cell| (f.row, f.column) <= cell) {
                return Err(invalid(FIELD, Some(index), StateFault::Order));
            }
            before = Some((f.row, f.column));
            if values.iter().flatten().any(|&v| v == f.value) {
                return Err(value(index, "another value than the one before"));
            }
            if !admit(f.value, &mut values) {
                let e = Error::InvalidLabel {
                    row: f.row,
                    column: f.column,
                    value: f.value,
                    expected: LabelDomain::Indicator,
                };
                return Err(refused(FIELD, Some(index), e));
            }
        }
        Ok(())
    }

    /// Puts the values in the order they were first met.
    fn sort(&mut self) {
        if let [Some(a), Some(b)] = self.first {
            if (b.row, b.column) < (a.row, a.column) {
                self.first = [Some(b), Some(a)];
            }
        }
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
