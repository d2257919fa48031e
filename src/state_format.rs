//! How accumulator state serialises (feature `serde`): every serialised form carries its
//! format version ([`StateVersion`]), and every `f64` of the state and of the metrics it holds
//! is stored as its bits (a `u64`), so any serde format, text or binary, gives back the same
//! bits: no decimal conversion, whatever the format's float handling (serde_json without
//! `float_roundtrip`, for one, may change the last bit of a float it parses).

/// The format version of serialised accumulator state: a field `version` of every
/// accumulator's serialised form (2 at present). Deserialising another version fails with an
/// error that names it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct StateVersion;

#[cfg(feature = "serde")]
impl StateVersion {
    /// The version this build writes and reads.
    pub(crate) const CURRENT: u32 = 2;
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
