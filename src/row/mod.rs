//! The row pass every row-wise metric shares: each row is checked, ranked as far as the
//! metric's formula reads, and scored; the values are summed in row order.
//!
//! * `metric.rs`: what a row-wise metric is to the pass, the trait [`RowMetric`] (its formula
//!   and what it reads) and its options ([`RowOptions`], [`RowRule`], [`ZeroWeight`]).
//! * `pass.rs`: the checks made once per input, the per-row read, reach and outcome, and
//!   `for_each_row`.
//! * `state.rs`: the streaming state ([`RowState`]: the shape, the rows seen, the sums, the
//!   label-type check across batches) and the mean it gives.
//! * `rows.rs`: the global numbers of the rows a streaming state has seen, which merges
//!   check and order by.
//! * `accumulator.rs`: [`RowAccumulator`], a metric with its state.
//! * `parallel.rs` (feature `rayon`): the chunking on rayon's pool behind `parallel`, the
//!   many-metric driver and the label-wise drivers.
//!
//! # Why the trait lives here
//! The pass needs the metric's formula, so [`RowMetric`] cannot sit above it; and the trait's
//! provided `accumulator()` returns a [`RowAccumulator`], whose methods need the trait, so the
//! accumulator sits beside it. `row/` imports the kernel, the matrices, the checks of
//! `validate` and the sums, never the metrics or the modules above; `metric.rs` (the
//! [`RankingMetric`](crate::RankingMetric) every metric implements, given to row-wise metrics
//! by a blanket impl), `labelwise_accumulator.rs`, the public `parallel` and `shared_pass.rs`
//! (many row-wise metrics in one pass) are built on it. The public paths
//! (`rankmetrics::RowMetric`, `rankmetrics::RowAccumulator`, ...) are the crate root's
//! re-exports and do not change.
//!
//! [`RowMetric`]: metric::RowMetric
//! [`RowOptions`]: metric::RowOptions
//! [`RowRule`]: metric::RowRule
//! [`ZeroWeight`]: metric::ZeroWeight
//! [`RowState`]: state::RowState
//! [`RowAccumulator`]: accumulator::RowAccumulator

pub(crate) mod accumulator;
pub(crate) mod metric;
#[cfg(feature = "rayon")]
pub(crate) mod parallel;
pub(crate) mod pass;
pub(crate) mod rows;
pub(crate) mod state;
