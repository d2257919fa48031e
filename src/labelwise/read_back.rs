//! A [`LabelwiseAccumulator`] read back (feature `serde`): its serialised form, checked whole
//! against the label domain of the metric it holds, which this layer knows.

use super::VectorMetric;
use crate::labelwise_accumulator::wire;
use crate::state_format::checked;
use crate::LabelwiseAccumulator;

// The bound is the crate's own: only its label-wise metrics make these accumulators.
#[allow(private_bounds)]
impl<'de, M> serde::Deserialize<'de> for LabelwiseAccumulator<M>
where
    M: serde::Deserialize<'de> + VectorMetric,
{
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let state = wire::LabelwiseAccumulator::<M>::deserialize(d)?;
        checked::<D, _>(state.check(|metric| metric.options().labels))
    }
}
