//! Multilabel ranking metrics with explicit tie policies.
//!
//! A multilabel classifier gives every label a score; ranking metrics judge how well the
//! relevant labels are ranked. When scores tie, the toolkits researchers use disagree:
//! scikit-learn gives tied labels the worst rank, MULAN breaks ties by label order, mldr
//! exposes R's `ties.method`, torchmetrics follows its sort. rankmetrics makes the convention a
//! parameter ([`TiePolicy`]) and reproduces each toolkit exactly when asked (the presets).
//!
//! # Index
//! * Core: [`RankingMetric`] (evaluate a metric), [`DynRankingMetric`] (a list of metrics of
//!   any type), [`RowMetric`] (write one), [`TiePolicy`],
//!   [`TieGrouping`], [`Matrix`] (inputs), [`Error`].
//! * Example-based metrics: [`Coverage`], [`AveragePrecision`] (LRAP), [`RankingLoss`],
//!   [`OneError`], [`IsError`], [`ErrorSetSize`].
//! * Graded metrics: [`Dcg`], [`Ndcg`] (docs/graded.md).
//! * Top-k metrics of extreme multilabel classification (docs/xmc.md): [`PrecisionAtK`],
//!   [`RecallAtK`], [`NdcgAtK`], and propensity-scored [`PsPrecisionAtK`], [`PsNdcgAtK`]
//!   ([`PropensityModel`]).
//! * Label-wise, pooled and per-sample metrics ([`Average`]): [`RocAuc`],
//!   [`LabelAveragePrecision`], [`InterpolatedAveragePrecision`].
//! * Presets, named as each toolkit names them: [`sklearn`], [`torchmetrics`], [`mldr`],
//!   [`mulan`]; [`registry`] looks them up by name (what `rankmetrics eval` uses).
//! * The ranking kernel every metric shares: [`Ranker`], [`RankedRow`], [`Block`].
//! * Row-parallel evaluation, bitwise the same on any thread count (feature `rayon`):
//!   `parallel`.
//!
//! # Example
//! ```
//! use rankmetrics::{sklearn, AveragePrecision, RankingMetric, TiePolicy};
//! let y_true = [[1, 0, 0], [0, 1, 1]];
//! let y_score = [[0.5, 0.5, 0.1], [0.9, 0.4, 0.4]];
//! // One tie per row: the tie policy decides the result.
//! let pessimistic = AveragePrecision::new(TiePolicy::Max).evaluate(&y_true, &y_score, None).unwrap();
//! let optimistic = AveragePrecision::new(TiePolicy::Min).evaluate(&y_true, &y_score, None).unwrap();
//! assert!(pessimistic < optimistic);
//! assert_eq!(pessimistic, sklearn::label_ranking_average_precision_score(&y_true, &y_score, None).unwrap());
//! ```
// Unsafe code lives in src/wide.rs only: calls to AVX2 and AVX-512 builds of the loops over a
// row's labels and of the counting pass's location, behind a run-time CPU check (measured
// need: docs/performance.md, "Measured choices").
#![deny(unsafe_code)]
#![deny(missing_docs)]
#![deny(missing_debug_implementations)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod convention;
mod dyn_metric;
mod error;
mod kernel;
mod labelwise;
mod labelwise_accumulator;
mod matrix;
mod memory;
mod metric;
mod metrics;
mod names;
mod propensity;
mod radix;
mod row;
mod score;
mod shared_pass;
mod sparse;
mod state_format;
mod sum;
mod ties;
mod validate;
mod wide;

pub mod compare;
pub mod compat;
pub mod identify;
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub mod parallel;
pub mod text;

pub use compat::{mldr, mulan, registry, sklearn, torchmetrics};
pub use dyn_metric::DynRankingMetric;
pub use error::{
    Degeneracy, Error, Incompatibility, Input, LabelDomain, Location, RunsLimit, StateFault,
};
#[doc(hidden)]
pub use kernel::{set_kernel_path, KernelPath};
pub use kernel::{Block, RankedRow, Ranker, Ranking, RelevantEnd};
pub use labelwise::{set_micro_pool_cells, LabelRunsAccumulator};
pub use labelwise::{Average, LabelwiseOptions, Mean, Undefined};
pub use labelwise_accumulator::LabelwiseAccumulator;
pub use matrix::{LabelMatrix, Matrix, RowMajor, ScoreMatrix};
pub use metric::RankingMetric;
// Every metric type that metrics/mod.rs makes public, so a new metric needs no line here.
pub use metrics::*;
pub use names::UnknownName;
pub use propensity::PropensityModel;
pub use row::accumulator::RowAccumulator;
pub use row::metric::{RowMetric, RowOptions, RowRule, ZeroWeight};
pub use score::{Label, Score};
pub use sparse::{SparseLabels, SparseLabelsView};
pub use sum::Summation;
pub use ties::{ParseTiePolicyError, RankSharing, TieAnalysis, TieGrouping, TiePolicy};
#[doc(hidden)]
pub use wide::{set_avx512_loops, set_wide_loops, wide_loops_in_use};

/// README.md's examples, run as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
