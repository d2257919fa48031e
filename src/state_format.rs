//! How accumulator state serialises (feature `serde`): every serialised form carries its
//! format version ([`StateVersion`]), and every `f64` of the state and of the metrics it holds
//! is stored as its bits (a `u64`), so any serde format, text or binary, gives back the same
//! bits: no decimal conversion, whatever the format's float handling (serde_json without
//! `float_roundtrip`, for one, may change the last bit of a float it parses).

/// The format version of serialised accumulator state: a field `version` of every
/// accumulator's serialised form (6 at present). Deserialising another version fails with an
/// error that names it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct StateVersion;

#[cfg(feature = "serde")]
impl StateVersion {
    /// The version this build writes and reads.
    pub(crate) const CURRENT: u32 = 6;
}

#[cfg(feature = "serde")]
impl serde::Serialize for StateVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(StateVersion::CURRENT)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for StateVersion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let version = <u32 as serde::Deserialize>::deserialize(d)?;
        if version == StateVersion::CURRENT {
            Ok(StateVersion)
        } else {
            Err(serde::de::Error::custom(format_args!(
                "accumulator state format version {version} is not supported \
                 (this version of rankmetrics reads version {})",
                StateVersion::CURRENT
            )))
        }
    }
}

/// `#[serde(with = ...)]` for an `f64`: stored as its bits.
#[cfg(feature = "serde")]
pub(crate) mod f64_bits {
    pub(crate) fn serialize<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(x.to_bits())
    }

    pub(crate) fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        <u64 as serde::Deserialize>::deserialize(d).map(f64::from_bits)
    }
}

/// `#[serde(with = ...)]` for a `Vec<f64>`: stored as a sequence of bits.
#[cfg(feature = "serde")]
pub(crate) mod vec_f64_bits {
    pub(crate) fn serialize<S: serde::Serializer>(x: &[f64], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(x.iter().map(|v| v.to_bits()))
    }

    pub(crate) fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<f64>, D::Error> {
        <Vec<u64> as serde::Deserialize>::deserialize(d)
            .map(|bits| bits.into_iter().map(f64::from_bits).collect())
    }
}

/// The error for a state read back that breaks a rule at `field` (entry `index`, for a list).
#[cfg(feature = "serde")]
pub(crate) fn invalid(
    field: &'static str, index: Option<usize>, fault: crate::error::StateFault,
) -> crate::Error {
    crate::Error::InvalidState {
        field,
        index,
        fault,
    }
}

/// The error for a value of a state read back that the inputs' own checks refuse with `error`.
#[cfg(feature = "serde")]
pub(crate) fn refused(
    field: &'static str, index: Option<usize>, error: crate::Error,
) -> crate::Error {
    invalid(
        field,
        index,
        crate::error::StateFault::Refused(Box::new(error)),
    )
}

/// A state read back by `D`, or the error for the rule it breaks, as `D`'s error.
#[cfg(feature = "serde")]
pub(crate) fn checked<'de, D: serde::Deserializer<'de>, T>(
    state: Result<T, crate::Error>,
) -> Result<T, D::Error> {
    state.map_err(serde::de::Error::custom)
}

/// Checks the label domain of a state read back: the one its metric takes, which the
/// accumulator was made with.
#[cfg(feature = "serde")]
pub(crate) fn check_domain(
    domain: crate::LabelDomain, metric_domain: crate::LabelDomain,
) -> Result<(), crate::Error> {
    if domain == metric_domain {
        return Ok(());
    }
    let expected = "the metric's label domain";
    Err(invalid(
        "domain",
        None,
        crate::error::StateFault::Value { expected },
    ))
}
