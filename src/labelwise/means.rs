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
    /// Σ of the weights added: scaled weights, times 2^`weight_exponent`.
    total_weight: ExactSum,
    weight_exponent: i32,
    /// The weighted rule's total from the weights as given, where their scaling rounded.
    rule_total: Option<f64>,
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
            weight_exponent: 0,
            rule_total: None,
        }
    }

    /// Where the sample weights were scaled by 2^`exponent`, what scikit-learn's `weighted`
    /// rule (a total of 1e-8 or less gives 0) reads of the weights as given: their total read
    /// back at that scale, or `total` (Σⱼ Σᵢ wᵢyᵢⱼ at the weights as given) where the scaling
    /// rounded some weights.
    pub(super) fn set_weight_scale(&mut self, exponent: i32, total: Option<f64>) {
        self.weight_exponent = exponent;
        self.rule_total = total;
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
        let total = || {
            let at_scale = || self.total_weight.value_scaled(-self.weight_exponent);
            self.rule_total.unwrap_or_else(at_scale)
        };
        if average == Average::Weighted && total().abs() <= 1e-8 {
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
