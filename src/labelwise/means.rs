//! How the per-vector values are combined: the undefined rule, then the mean.

use super::{Average, LabelwiseOptions, Mean, Undefined};
use crate::error::Error;
use crate::sum::{ExactSum, WeightedMean};

/// Combines per-vector values by the options' undefined rule and mean.
pub(super) struct Means {
    options: LabelwiseOptions,
    weighted: WeightedMean,
    plain: f64,
    product: f64,
    count: usize,
    defined: usize,
    total_weight: ExactSum,
}

impl Means {
    pub(super) fn new(options: LabelwiseOptions) -> Self {
        Means {
            options,
            weighted: WeightedMean::default(),
            plain: 0.0,
            product: 1.0,
            count: 0,
            defined: 0,
            total_weight: ExactSum::default(),
        }
    }

    pub(super) fn add(&mut self, value: Option<f64>, weight: f64) -> Result<(), Error> {
        self.total_weight.add(weight);
        let value = match (value, self.options.undefined) {
            (Some(v), _) => {
                self.defined += 1;
                v
            }
            (None, Undefined::Nan) => f64::NAN,
            (None, Undefined::Value(v)) => v,
            (None, Undefined::Skip) => return Ok(()),
            (None, Undefined::Reject) => return Err(Error::SingleClass),
        };
        // scikit-learn forces the values of zero-weight vectors to 0, so NaN there vanishes.
        if weight == 0.0 {
            return Ok(());
        }
        self.weighted.add(value, weight);
        self.plain += value;
        self.product *= value;
        self.count += 1;
        Ok(())
    }

    pub(super) fn value(&self, average: Average) -> Result<f64, Error> {
        let o = self.options;
        if average == Average::Weighted && self.total_weight.value().abs() <= 1e-8 {
            return Ok(0.0);
        }
        if (o.nan_if_none_defined && self.defined == 0) || self.count == 0 {
            return Ok(f64::NAN);
        }
        Ok(match o.mean {
            Mean::Arithmetic => self.weighted.value().ok_or(Error::ZeroTotalWeight)?,
            Mean::Sequential => self.plain / self.count as f64,
            Mean::Geometric => self.product.powf(1.0 / self.count as f64),
        })
    }
}
