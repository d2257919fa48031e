//! How a preset computes its value: the metric types chosen at run time ([`AnyRow`],
//! [`AnyLabelwise`]), the [`Plan`] that holds one, and the view of the scores a row-wise plan
//! takes ([`ScoreView`]).

use crate::error::{Error, LabelDomain};
use crate::kernel::{RankedRow, RelevantEnd};
use crate::labelwise::medians::ClassMedians;
use crate::labelwise::piece_sums::PieceSums;
use crate::labelwise::{LabelwiseOptions, Vector, VectorMetric};
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::metric::RankingMetric;
use crate::metrics;
use crate::row::metric::{RowMetric, RowOptions};
use crate::score::Score;
use crate::ties::TiePolicy;

/// One of the row-wise metric types, chosen at run time.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(super) enum AnyRow {
    Coverage(metrics::Coverage),
    AveragePrecision(metrics::AveragePrecision),
    RankingLoss(metrics::RankingLoss),
    OneError(metrics::OneError),
    IsError(metrics::IsError),
    ErrorSetSize(metrics::ErrorSetSize),
    Dcg(metrics::Dcg),
    Ndcg(metrics::Ndcg),
    PrecisionAtK(metrics::PrecisionAtK),
    RecallAtK(metrics::RecallAtK),
    NdcgAtK(metrics::NdcgAtK),
    PsPrecisionAtK(metrics::PsPrecisionAtK),
    PsNdcgAtK(metrics::PsNdcgAtK),
}

/// Applies `$body` to the metric inside any `AnyRow` variant.
macro_rules! each_row {
    ($value:expr, $m:ident => $body:expr) => {
        match $value {
            AnyRow::Coverage($m) => $body,
            AnyRow::AveragePrecision($m) => $body,
            AnyRow::RankingLoss($m) => $body,
            AnyRow::OneError($m) => $body,
            AnyRow::IsError($m) => $body,
            AnyRow::ErrorSetSize($m) => $body,
            AnyRow::Dcg($m) => $body,
            AnyRow::Ndcg($m) => $body,
            AnyRow::PrecisionAtK($m) => $body,
            AnyRow::RecallAtK($m) => $body,
            AnyRow::NdcgAtK($m) => $body,
            AnyRow::PsPrecisionAtK($m) => $body,
            AnyRow::PsNdcgAtK($m) => $body,
        }
    };
}
pub(super) use each_row;

impl AnyRow {
    pub(super) fn with_ties(self, ties: TiePolicy) -> Self {
        each_row!(self, m => AnyRow::from(m.with_ties(ties)))
    }
}

macro_rules! any_row_from {
    ($($variant:ident),*) => {$(
        impl From<metrics::$variant> for AnyRow {
            fn from(m: metrics::$variant) -> Self {
                AnyRow::$variant(m)
            }
        }
    )*};
}
any_row_from!(
    Coverage,
    AveragePrecision,
    RankingLoss,
    OneError,
    IsError,
    ErrorSetSize,
    Dcg,
    Ndcg,
    PrecisionAtK,
    RecallAtK,
    NdcgAtK,
    PsPrecisionAtK,
    PsNdcgAtK
);

impl RowMetric for AnyRow {
    fn options(&self) -> RowOptions {
        each_row!(self, m => m.options())
    }
    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        each_row!(self, m => m.row_value(row))
    }
    fn reads_only_relevant_blocks(&self) -> bool {
        each_row!(self, m => m.reads_only_relevant_blocks())
    }
    fn reads_one_relevant_block(&self) -> Option<RelevantEnd> {
        each_row!(self, m => m.reads_one_relevant_block())
    }

    fn top_k(&self) -> Option<usize> {
        each_row!(self, m => m.top_k())
    }

    fn gain_weights(&self) -> Option<&[f64]> {
        each_row!(self, m => m.gain_weights())
    }
}

/// How a preset computes its value.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Plan {
    /// A row-wise metric; `logits`: torchmetrics' sigmoid normalisation applies first.
    Row { metric: AnyRow, logits: bool },
    /// A row-wise metric on scores cast to `float32` (torchmetrics' retrieval metrics).
    Float32Row { metric: AnyRow },
    /// A row-wise metric through torchmetrics' sigmoid normalisation on `float32` preds.
    Float32Logits { metric: AnyRow },
    /// A label-wise, pooled or per-sample-averaged binary metric.
    Labelwise(AnyLabelwise),
}

impl Plan {
    /// A row-wise metric on the scores as given.
    pub(super) fn row(metric: AnyRow) -> Plan {
        Plan::Row {
            metric,
            logits: false,
        }
    }

    /// The same plan under tie policy `t`.
    pub(super) fn with_ties(self, t: TiePolicy) -> Plan {
        match self {
            Plan::Row { metric, logits } => Plan::Row {
                metric: metric.with_ties(t),
                logits,
            },
            Plan::Float32Row { metric } => Plan::Float32Row {
                metric: metric.with_ties(t),
            },
            Plan::Float32Logits { metric } => Plan::Float32Logits {
                metric: metric.with_ties(t),
            },
            Plan::Labelwise(m) => Plan::Labelwise(m.with_ties(t)),
        }
    }
}

/// One of the label-wise metric types, chosen at run time.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(super) enum AnyLabelwise {
    RocAuc(metrics::RocAuc),
    AveragePrecision(metrics::LabelAveragePrecision),
    Interpolated(metrics::InterpolatedAveragePrecision),
}

impl AnyLabelwise {
    pub(super) fn with_ties(self, t: TiePolicy) -> Self {
        match self {
            AnyLabelwise::RocAuc(m) => AnyLabelwise::RocAuc(m.with_ties(t)),
            AnyLabelwise::AveragePrecision(m) => AnyLabelwise::AveragePrecision(m.with_ties(t)),
            AnyLabelwise::Interpolated(m) => AnyLabelwise::Interpolated(m.with_ties(t)),
        }
    }

    /// The labels the metric accepts.
    pub(super) fn label_domain(&self) -> LabelDomain {
        match self {
            AnyLabelwise::RocAuc(m) => m.options().labels,
            AnyLabelwise::AveragePrecision(m) => m.options().labels,
            AnyLabelwise::Interpolated(m) => m.options().labels,
        }
    }
}

impl VectorMetric for AnyLabelwise {
    fn options(&self) -> LabelwiseOptions {
        match self {
            AnyLabelwise::RocAuc(m) => m.options(),
            AnyLabelwise::AveragePrecision(m) => m.options(),
            AnyLabelwise::Interpolated(m) => m.options(),
        }
    }

    fn ends_unproven(&self, items_weighted: bool) -> Option<&'static str> {
        match self {
            AnyLabelwise::RocAuc(m) => m.ends_unproven(items_weighted),
            AnyLabelwise::AveragePrecision(m) => m.ends_unproven(items_weighted),
            AnyLabelwise::Interpolated(m) => m.ends_unproven(items_weighted),
        }
    }

    fn expected_missing(&self, items_weighted: bool) -> Option<&'static str> {
        match self {
            AnyLabelwise::RocAuc(m) => m.expected_missing(items_weighted),
            AnyLabelwise::AveragePrecision(m) => m.expected_missing(items_weighted),
            AnyLabelwise::Interpolated(m) => m.expected_missing(items_weighted),
        }
    }

    fn check(&self, weighted: bool) -> Result<(), Error> {
        match self {
            AnyLabelwise::RocAuc(m) => m.check(weighted),
            AnyLabelwise::AveragePrecision(m) => m.check(weighted),
            AnyLabelwise::Interpolated(m) => m.check(weighted),
        }
    }

    fn vector_value<T: Score>(&self, v: &Vector<'_, T>, row: &RankedRow<'_>) -> Option<f64> {
        match self {
            AnyLabelwise::RocAuc(m) => m.vector_value(v, row),
            AnyLabelwise::AveragePrecision(m) => m.vector_value(v, row),
            AnyLabelwise::Interpolated(m) => m.vector_value(v, row),
        }
    }

    fn reads_only_relevant_blocks(&self, weighted: bool, items: usize) -> bool {
        match self {
            AnyLabelwise::RocAuc(m) => m.reads_only_relevant_blocks(weighted, items),
            AnyLabelwise::AveragePrecision(m) => m.reads_only_relevant_blocks(weighted, items),
            AnyLabelwise::Interpolated(m) => m.reads_only_relevant_blocks(weighted, items),
        }
    }

    fn reads_scores(&self) -> bool {
        match self {
            AnyLabelwise::RocAuc(m) => m.reads_scores(),
            AnyLabelwise::AveragePrecision(m) => m.reads_scores(),
            AnyLabelwise::Interpolated(m) => m.reads_scores(),
        }
    }

    fn reads_pieces(&self, weighted: bool) -> bool {
        match self {
            AnyLabelwise::RocAuc(m) => m.reads_pieces(weighted),
            AnyLabelwise::AveragePrecision(m) => m.reads_pieces(weighted),
            AnyLabelwise::Interpolated(m) => m.reads_pieces(weighted),
        }
    }

    fn piece_sums(&self, items: usize, weighted: bool) -> PieceSums {
        match self {
            AnyLabelwise::RocAuc(m) => m.piece_sums(items, weighted),
            AnyLabelwise::AveragePrecision(m) => m.piece_sums(items, weighted),
            AnyLabelwise::Interpolated(m) => m.piece_sums(items, weighted),
        }
    }

    fn pieces_value(&self, sums: &PieceSums, medians: Option<ClassMedians>) -> Option<f64> {
        match self {
            AnyLabelwise::RocAuc(m) => m.pieces_value(sums, medians),
            AnyLabelwise::AveragePrecision(m) => m.pieces_value(sums, medians),
            AnyLabelwise::Interpolated(m) => m.pieces_value(sums, medians),
        }
    }
}

impl<T: Score> RankingMetric<T> for AnyLabelwise {
    fn evaluate<Y, S>(&self, y_true: &Y, y_score: &S, w: Option<&[f64]>) -> Result<f64, Error>
    where
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        match self {
            AnyLabelwise::RocAuc(m) => m.evaluate(y_true, y_score, w),
            AnyLabelwise::AveragePrecision(m) => m.evaluate(y_true, y_score, w),
            AnyLabelwise::Interpolated(m) => m.evaluate(y_true, y_score, w),
        }
    }
}

/// How a row-wise preset sees the scores of each batch.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(super) enum ScoreView {
    AsIs,
    /// torchmetrics' sigmoid when a score of the batch lies outside [0, 1].
    Logits,
    /// Cast to `float32` (torchmetrics' retrieval metrics).
    Float32,
    /// torchmetrics' sigmoid as on `float32` preds ([`Logits::float32`](crate::torchmetrics::Logits::float32)).
    Float32Logits,
}
