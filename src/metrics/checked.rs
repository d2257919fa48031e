//! Metric parameters read back from a serialised state, checked as the constructors check
//! them (`#[serde(deserialize_with = ...)]`): a state holding a metric that no constructor
//! makes is refused when read ([`Error::InvalidState`](crate::Error::InvalidState)).

use serde::{Deserialize, Deserializer};

use crate::propensity::check_inverse_propensities;
use crate::state_format::{checked, refused, vec_f64_bits};
use crate::validate::{check_log_base, check_top_k};

/// A top-k metric's `k`: at least 1.
pub(crate) fn top_k<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let k = usize::deserialize(d)?;
    checked::<D, _>(check_top_k(k).map_err(|e| refused("k", None, e)))
}

/// A truncation `k`: at least 1, or none.
pub(crate) fn optional_top_k<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let k = Option::<usize>::deserialize(d)?;
    let k = k.map(check_top_k).transpose();
    checked::<D, _>(k.map_err(|e| refused("k", None, e)))
}

/// A logarithm base, stored as its bits: finite and greater than 1.
pub(crate) fn log_base<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let base = f64::from_bits(u64::deserialize(d)?);
    checked::<D, _>(check_log_base(base).map_err(|e| refused("log_base", None, e)))
}

/// Inverse propensities, stored as bits: each finite and positive.
pub(crate) fn inverse_propensities<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
    let weights = vec_f64_bits::deserialize(d)?;
    let at = |e| match e {
        crate::Error::InvalidLabelWeight { column, .. } => {
            refused("inverse_propensities", Some(column), e)
        }
        e => refused("inverse_propensities", None, e),
    };
    checked::<D, _>(
        check_inverse_propensities(&weights)
            .map(|()| weights)
            .map_err(at),
    )
}
