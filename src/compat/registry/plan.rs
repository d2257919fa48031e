//! How a preset computes its value: the metric types chosen at run time ([`AnyRow`],
//! [`AnyLabelwise`]), the [`Plan`] that holds one, and the view of the scores a row-wise plan
//! takes ([`ScoreView`]).

use crate::compat::torchmetrics::{PredsView, RetrievalView};
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

/// Declares [`AnyRow`] over the row-wise metric types that [`metrics::row_metric_types`]
/// lists: the enum (a variant per type, named after it), `From` for each type, and
/// `each_row!`, which applies an expression to the metric inside any variant. `$d` is a `$`,
/// for the inner macro's own variables.
macro_rules! declare_any_row {
    ($d:tt $($variant:ident),* $(,)?) => {
        /// One of the row-wise metric types, chosen at run time.
        #[derive(Debug, Clone, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub(super) enum AnyRow {
            $($variant(metrics::$variant),)*
        }

        $(impl From<metrics::$variant> for AnyRow {
            fn from(m: metrics::$variant) -> Self {
                AnyRow::$variant(m)
            }
        })*

        /// Applies `$body` to the metric inside any `AnyRow` variant.
        macro_rules! each_row {
            ($d value:expr, $d m:ident => $d body:expr) => {
                match $d value {
                    $(AnyRow::$variant($d m) => $d body,)*
                }
            };
        }
    };
}
metrics::row_metric_types!(declare_any_row);
pub(super) use each_row;

impl AnyRow {
    pub(super) fn with_ties(self, ties: TiePolicy) -> Self {
        each_row!(self, m => AnyRow::from(m.with_ties(ties)))
    }
}

impl RowMetric for AnyRow {
    fn options(&self) -> RowOptions {
        each_row!(self, m => m.options())
    }
    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        each_row!(self, m => m.row_value(row))
    }
    fn check(&self) -> Result<(), Error> {
        each_row!(self, m => m.check())
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
    /// A row-wise metric; `logits`: torchmetrics' sigmoid normalisation applies first, in that
    /// view's preds dtype (`Float64`: the scores' own, `float32` for `f32` scores), and the
    /// ranking loss reads torch's argsort order.
    Row {
        metric: AnyRow,
        logits: Option<PredsView>,
    },
    /// A row-wise metric on scores cast to `float32` (torchmetrics' retrieval NDCG).
    Float32Row { metric: AnyRow },
    /// A row-wise metric on torchmetrics' binary retrieval view: hit labels, scores cast to
    /// `float32` and ordered by torch's `topk` or `argsort` (precision, recall, AP, RR).
    Retrieval { metric: AnyRow, view: RetrievalView },
    /// A label-wise, pooled or per-sample-averaged binary metric; with a dtype, torchmetrics'
    /// sigmoid normalisation in that preds dtype applies first (multilabel AUROC and AP).
    Labelwise(AnyLabelwise, Option<PredsView>),
}

impl Plan {
    /// A row-wise metric on the scores as given.
    pub(super) fn row(metric: AnyRow) -> Plan {
        Plan::Row {
            metric,
            logits: None,
        }
    }

    /// The same plan under tie policy `t`.
    pub(super) fn with_ties(self, t: TiePolicy) -> Plan {
        match self {
            // The caller's policy ranks the scores' own ties, not torch's argsort order.
            Plan::Row { metric, logits } => Plan::Row {
                metric: metric.with_ties(t),
                logits: logits.map(|view| PredsView {
                    argsort: false,
                    ..view
                }),
            },
            Plan::Float32Row { metric } => Plan::Float32Row {
                metric: metric.with_ties(t),
            },
            // The caller's policy ranks the scores' own ties, not torch's order.
            Plan::Retrieval { metric, view } => Plan::Retrieval {
                metric: metric.with_ties(t),
                view: RetrievalView {
                    ranking: None,
                    ..view
                },
            },
            Plan::Labelwise(m, logits) => Plan::Labelwise(m.with_ties(t), logits),
        }
    }
}

/// Declares [`AnyLabelwise`] over the label-wise metric types that
/// [`metrics::labelwise_metric_types`] lists (a variant name and a type each), `From` for each
/// type, and its dispatch to the metric inside: [`VectorMetric`] and [`RankingMetric`].
macro_rules! declare_any_labelwise {
    ($d:tt $($variant:ident($metric:ident)),* $(,)?) => {
        /// One of the label-wise metric types, chosen at run time.
        #[derive(Debug, Clone, Copy, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub(super) enum AnyLabelwise {
            $($variant(metrics::$metric),)*
        }

        $(impl From<metrics::$metric> for AnyLabelwise {
            fn from(m: metrics::$metric) -> Self {
                AnyLabelwise::$variant(m)
            }
        })*

        /// Applies `$body` to the metric inside any `AnyLabelwise` variant.
        macro_rules! each_labelwise {
            ($d value:expr, $d m:ident => $d body:expr) => {
                match $d value {
                    $(AnyLabelwise::$variant($d m) => $d body,)*
                }
            };
        }
    };
}
metrics::labelwise_metric_types!(declare_any_labelwise);

impl AnyLabelwise {
    pub(super) fn with_ties(self, t: TiePolicy) -> Self {
        each_labelwise!(self, m => AnyLabelwise::from(m.with_ties(t)))
    }

    /// The labels the metric accepts.
    pub(super) fn label_domain(&self) -> LabelDomain {
        each_labelwise!(self, m => m.options().labels)
    }
}

impl VectorMetric for AnyLabelwise {
    fn options(&self) -> LabelwiseOptions {
        each_labelwise!(self, m => m.options())
    }

    fn ends_unproven(&self, items_weighted: bool) -> Option<&'static str> {
        each_labelwise!(self, m => m.ends_unproven(items_weighted))
    }

    fn expected_missing(&self, items_weighted: bool) -> Option<&'static str> {
        each_labelwise!(self, m => m.expected_missing(items_weighted))
    }

    fn check(&self, weighted: bool) -> Result<(), Error> {
        each_labelwise!(self, m => m.check(weighted))
    }

    fn vector_value<T: Score>(&self, v: &Vector<'_, T>, row: &RankedRow<'_>) -> Option<f64> {
        each_labelwise!(self, m => m.vector_value(v, row))
    }

    fn reads_only_relevant_blocks(&self, weighted: bool, items: usize) -> bool {
        each_labelwise!(self, m => m.reads_only_relevant_blocks(weighted, items))
    }

    fn reads_scores(&self) -> bool {
        each_labelwise!(self, m => m.reads_scores())
    }

    fn reads_pieces(&self, weighted: bool) -> bool {
        each_labelwise!(self, m => m.reads_pieces(weighted))
    }

    fn piece_sums(&self, items: usize, weighted: bool) -> PieceSums {
        each_labelwise!(self, m => m.piece_sums(items, weighted))
    }

    fn pieces_value(&self, sums: &PieceSums, medians: Option<ClassMedians>) -> Option<f64> {
        each_labelwise!(self, m => m.pieces_value(sums, medians))
    }
}

impl<T: Score> RankingMetric<T> for AnyLabelwise {
    fn evaluate<Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
        &self, y_true: &Y, y_score: &S, w: Option<&[f64]>,
    ) -> Result<f64, Error> {
        each_labelwise!(self, m => m.evaluate(y_true, y_score, w))
    }
}

/// How a row-wise preset sees the scores of each batch.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(super) enum ScoreView {
    AsIs,
    /// torchmetrics' sigmoid, in that preds dtype, when a score of the batch lies outside
    /// [0, 1] ([`Logits::with_dtype`](crate::torchmetrics::Logits::with_dtype)).
    Logits(PredsView),
    /// Cast to `float32` (torchmetrics' retrieval NDCG).
    Float32,
    /// torchmetrics' binary retrieval view, labels included.
    Retrieval(RetrievalView),
}
