//! The metrics, one per file. Each is a small `Copy` type holding its options.

pub(crate) mod average_precision;
#[cfg(feature = "serde")]
mod checked;
mod coverage;
mod dcg;
mod error_set_size;
mod interpolated_average_precision;
mod is_error;
pub(crate) mod label_average_precision;
pub(crate) mod ndcg;
mod ndcg_at_k;
mod one_error;
mod precision_at_k;
mod ps_ndcg_at_k;
mod ps_precision_at_k;
mod ranking_loss;
mod recall_at_k;
mod retrieval_at_k;
pub(crate) mod roc_auc;

pub use average_precision::AveragePrecision;
pub use coverage::Coverage;
pub use dcg::Dcg;
pub use error_set_size::ErrorSetSize;
pub use interpolated_average_precision::InterpolatedAveragePrecision;
pub use is_error::IsError;
pub use label_average_precision::LabelAveragePrecision;
pub use ndcg::Ndcg;
pub use ndcg_at_k::NdcgAtK;
pub use one_error::OneError;
pub use precision_at_k::PrecisionAtK;
pub use ps_ndcg_at_k::PsNdcgAtK;
pub use ps_precision_at_k::PsPrecisionAtK;
pub use ranking_loss::RankingLoss;
pub use recall_at_k::RecallAtK;
pub use retrieval_at_k::{RetrievalAtK, RetrievalMeasure};
pub use roc_auc::{Direction, RocAuc};

/// Calls `$declare!($ Type, ...)` with every row-wise metric type: the one list from which the
/// registry's run-time choice of a row-wise metric is declared. A new row-wise metric is added
/// here, beside its module.
macro_rules! row_metric_types {
    ($declare:ident) => {
        $declare!(
            $Coverage,
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
            PsNdcgAtK,
            RetrievalAtK,
        );
    };
}
pub(crate) use row_metric_types;

/// Calls `$declare!($ Variant(Type), ...)` with every label-wise metric type, each under the
/// variant name that stored accumulator states carry: the one list from which the registry's
/// run-time choice of a label-wise metric is declared.
macro_rules! labelwise_metric_types {
    ($declare:ident) => {
        $declare!(
            $RocAuc(RocAuc),
            AveragePrecision(LabelAveragePrecision),
            Interpolated(InterpolatedAveragePrecision),
        );
    };
}
pub(crate) use labelwise_metric_types;

/// The option builders every row-wise metric shares, written once. Each metric type has a
/// field `options: RowOptions`.
macro_rules! row_option_builders {
    ($metric:ident) => {
        row_option_builders!($metric, "", "");
    };
    // `$args`: the constructor's arguments after the tie policy, `$then`: what follows the call
    // (for the doc examples of metrics whose constructor takes more, or can fail).
    ($metric:ident, $args:literal, $then:literal) => {
        impl $metric {
            #[doc = concat!("The same metric with another tie policy.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", TiePolicy};\nlet m = ", stringify!($metric),
                "::new(TiePolicy::Max", $args, ")", $then, ".with_ties(TiePolicy::First);\nassert_eq!(m.options().ranking.ties, TiePolicy::First);\n```")]
            pub const fn with_ties(mut self, ties: $crate::ties::TiePolicy) -> Self {
                self.options.ranking.ties = ties;
                self
            }

            #[doc = concat!("The same metric with another tie grouping (MULAN's Weka tolerance, for example).\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", TieGrouping, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(TiePolicy::Last", $args, ")", $then, ".with_grouping(TieGrouping::WEKA);\nassert_eq!(m.options().ranking.grouping, TieGrouping::WEKA);\n```")]
            pub const fn with_grouping(mut self, grouping: $crate::ties::TieGrouping) -> Self {
                self.options.ranking.grouping = grouping;
                self
            }

            #[doc = concat!("The same metric with another rule for rows without a relevant label.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", RowRule, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(TiePolicy::Max", $args, ")", $then, ".on_no_relevant(RowRule::Skip);\nassert_eq!(m.options().no_relevant, RowRule::Skip);\n```")]
            pub const fn on_no_relevant(mut self, rule: $crate::row::metric::RowRule) -> Self {
                self.options.no_relevant = rule;
                self
            }

            #[doc = concat!("The same metric with another rule for rows whose labels are all relevant.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", RowRule, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(TiePolicy::Max", $args, ")", $then, ".on_all_relevant(RowRule::Reject);\nassert_eq!(m.options().all_relevant, RowRule::Reject);\n```")]
            pub const fn on_all_relevant(mut self, rule: $crate::row::metric::RowRule) -> Self {
                self.options.all_relevant = rule;
                self
            }

            #[doc = concat!("The same metric accepting only labels of `domain`. Metrics of relevance accept 0 or 1 by default ([`LabelDomain::Binary`](crate::LabelDomain::Binary)); ",
                "`LabelDomain::NonZero` accepts any finite label and counts every non-zero one as relevant (a {-1, 1} encoding then makes every label relevant).\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", LabelDomain, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(TiePolicy::Max", $args, ")", $then, ".with_label_domain(LabelDomain::NonZero);\nassert_eq!(m.options().labels, LabelDomain::NonZero);\n```")]
            pub const fn with_label_domain(mut self, domain: $crate::error::LabelDomain) -> Self {
                self.options.labels = domain;
                self
            }

            #[doc = concat!("The same metric rejecting inputs with fewer than `min` labels.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", TiePolicy};\nlet m = ", stringify!($metric),
                "::new(TiePolicy::Max", $args, ")", $then, ".with_min_labels(2);\nassert_eq!(m.options().min_labels, 2);\n```")]
            pub const fn with_min_labels(mut self, min: usize) -> Self {
                self.options.min_labels = min;
                self
            }

            #[doc = concat!("The same metric with another zero-total-weight rule.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", TiePolicy, ZeroWeight};\nlet m = ", stringify!($metric),
                "::new(TiePolicy::Max", $args, ")", $then, ".on_zero_weight(ZeroWeight::Nan);\nassert_eq!(m.options().zero_weight, ZeroWeight::Nan);\n```")]
            pub const fn on_zero_weight(mut self, rule: $crate::row::metric::ZeroWeight) -> Self {
                self.options.zero_weight = rule;
                self
            }

            #[doc = concat!("The same metric with another summation of row values.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Summation, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(TiePolicy::Max", $args, ")", $then, ".with_summation(Summation::Sequential);\nassert_eq!(m.options().summation, Summation::Sequential);\n```")]
            pub const fn with_summation(mut self, summation: $crate::sum::Summation) -> Self {
                self.options.summation = summation;
                self
            }

            #[doc = concat!("The metric's options.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", TiePolicy};\nassert_eq!(", stringify!($metric),
                "::new(TiePolicy::Min", $args, ")", $then, ".options().ranking.ties, TiePolicy::Min);\n```")]
            pub const fn options(&self) -> $crate::row::metric::RowOptions {
                self.options
            }
        }
    };
}
pub(crate) use row_option_builders;

/// What every top-k metric of relevance shares, written once: the constructor that refuses
/// `k = 0`, the `k()` accessor, the option builders, and the [`RowMetric`] impl that ranks a
/// row only as far as the top k and reads only the relevant blocks. Each metric type has the
/// fields `options: RowOptions` and `k: usize`, and an inherent `top_k_value(&self, row)`: its
/// value on one ranked row.
///
/// [`RowMetric`]: crate::row::metric::RowMetric
macro_rules! top_k_metric {
    ($metric:ident, $title:literal) => {
        impl $metric {
            #[doc = concat!($title, " with the given tie policy; a row without a relevant label scores 0.\n\n",
                "# Errors\n[`Error::InvalidK`](crate::Error::InvalidK) for `k = 0`.")]
            pub const fn new(ties: $crate::ties::TiePolicy, k: usize) -> Result<Self, $crate::error::Error> {
                // A const fn cannot drop an Error (Error::Lookup owns text): build it only to
                // return it.
                match k {
                    0 => Err($crate::error::Error::InvalidK { value: 0 }),
                    k => Ok($metric {
                        options: $crate::row::metric::RowOptions::new(
                            ties,
                            $crate::row::metric::RowRule::Value(0.0),
                            $crate::row::metric::RowRule::Formula,
                        ),
                        k,
                    }),
                }
            }

            #[doc = concat!("The number of top positions counted.\n\n```\nlet m = rankmetrics::",
                stringify!($metric), "::new(rankmetrics::TiePolicy::Max, 3).unwrap();\nassert_eq!(m.k(), 3);\n```")]
            pub const fn k(&self) -> usize {
                self.k
            }
        }

        $crate::metrics::row_option_builders!($metric, ", 5", ".unwrap()");

        impl $crate::row::metric::RowMetric for $metric {
            fn options(&self) -> $crate::row::metric::RowOptions {
                self.options
            }

            fn top_k(&self) -> Option<usize> {
                Some(self.k)
            }

            fn reads_only_relevant_blocks(&self) -> bool {
                true
            }

            fn row_value(&self, row: &$crate::kernel::RankedRow<'_>) -> f64 {
                self.top_k_value(row)
            }
        }
    };
}
pub(crate) use top_k_metric;

/// What both propensity-scored top-k metrics share, written once: the type with the
/// documentation given (its fields `options`, `k`, `inverse_propensities` and `best`), the
/// constructor that checks `k` and the inverse propensities, `best_achievable`, `normalised`
/// (pyxclib's ratio of means), `k()`, the option builders, and the [`RowMetric`] impl that
/// ranks the labels' inverse propensities as gains. Each metric's file writes its inherent
/// `top_k_value(&self, row)`: its value on one ranked row.
///
/// [`RowMetric`]: crate::row::metric::RowMetric
macro_rules! propensity_top_k_metric {
    ($(#[$attr:meta])* $metric:ident, $short:literal, $pyxclib:literal) => {
        $(#[$attr])*
        #[derive(Debug, Clone, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct $metric {
            options: $crate::row::metric::RowOptions,
            #[cfg_attr(feature = "serde", serde(deserialize_with = "super::checked::top_k"))]
            k: usize,
            #[cfg_attr(
                feature = "serde",
                serde(
                    serialize_with = "crate::state_format::vec_f64_bits::serialize",
                    deserialize_with = "super::checked::inverse_propensities"
                )
            )]
            inverse_propensities: Vec<f64>,
            best: bool,
        }

        impl $metric {
            #[doc = concat!($short, " with the given tie policy and one inverse propensity per label (from ",
                "[`PropensityModel::inverse_propensities`](crate::PropensityModel::inverse_propensities), ",
                "or the caller's own); labels must be 0 or 1.\n\n# Errors\n",
                "[`Error::InvalidK`](crate::Error::InvalidK) for `k = 0`; ",
                "[`Error::InvalidLabelWeight`](crate::Error::InvalidLabelWeight) for the first inverse ",
                "propensity that is not a finite positive number.")]
            pub fn new(
                ties: $crate::ties::TiePolicy,
                k: usize,
                inverse_propensities: Vec<f64>,
            ) -> Result<Self, $crate::error::Error> {
                let (options, k) =
                    $crate::propensity::propensity_options(ties, k, &inverse_propensities)?;
                Ok($metric {
                    options,
                    k,
                    inverse_propensities,
                    best: false,
                })
            }

            #[doc = concat!("With `true`, each row's value is the best ", $short,
                " any ranking of it achieves (the normaliser), whatever the scores.\n\n# Example\n```\n",
                "use rankmetrics::{", stringify!($metric), ", RankingMetric, TiePolicy};\n",
                "let best = ", stringify!($metric), "::new(TiePolicy::Max, 1, vec![1.0, 4.0]).unwrap().best_achievable(true);\n",
                "assert_eq!(best.evaluate(&[[1, 1]], &[[0.9, 0.1]], None).unwrap(), 4.0);\n```")]
            pub fn best_achievable(mut self, best: bool) -> Self {
                self.best = best;
                self
            }

            #[doc = concat!($short, " normalised as papers report it: the mean over the rows divided by the mean ",
                "best achievable value (pyxclib's `", $pyxclib, "`).\n\n# Errors\n",
                "As [`RankingMetric::evaluate`](crate::RankingMetric::evaluate).\n\n# Example\n```\n",
                "use rankmetrics::{", stringify!($metric), ", TiePolicy};\n",
                "let m = ", stringify!($metric), "::new(TiePolicy::Max, 1, vec![1.0, 3.0]).unwrap();\n",
                "assert_eq!(m.normalised(&[[1, 1]], &[[0.2, 0.9]], None).unwrap(), 1.0);\n```")]
            pub fn normalised<T, Y, S>(
                &self,
                y_true: &Y,
                y_score: &S,
                w: Option<&[f64]>,
            ) -> Result<f64, $crate::error::Error>
            where
                T: $crate::score::Score,
                Y: $crate::matrix::LabelMatrix + ?Sized,
                S: $crate::matrix::ScoreMatrix<T> + ?Sized,
            {
                $crate::propensity::ratio_of_means(
                    self,
                    &self.clone().best_achievable(true),
                    y_true,
                    y_score,
                    w,
                )
            }

            #[doc = concat!("The number of top positions counted.\n\n```\nlet m = rankmetrics::",
                stringify!($metric), "::new(rankmetrics::TiePolicy::Max, 3, vec![1.0]).unwrap();\nassert_eq!(m.k(), 3);\n```")]
            pub const fn k(&self) -> usize {
                self.k
            }
        }

        $crate::metrics::row_option_builders!($metric, ", 5, vec![1.0]", ".unwrap()");

        impl $crate::row::metric::RowMetric for $metric {
            fn options(&self) -> $crate::row::metric::RowOptions {
                self.options
            }

            fn top_k(&self) -> Option<usize> {
                Some(self.k)
            }

            fn gain_weights(&self) -> Option<&[f64]> {
                Some(&self.inverse_propensities)
            }

            fn row_value(&self, row: &$crate::kernel::RankedRow<'_>) -> f64 {
                self.top_k_value(row)
            }
        }
    };
}
pub(crate) use propensity_top_k_metric;

/// The number of mis-ordered (relevant, irrelevant) pairs of a row: pairs where the irrelevant
/// label ranks above the relevant one, plus each tied pair inside a shared block weighted by the
/// policy (1 for Max, 0 for Min, ½ for Average). Counted in halves as integers, so exact.
pub(crate) fn mis_ordered_pairs(row: &crate::kernel::RankedRow<'_>) -> f64 {
    let tie_halves = (2.0 * row.tied_pair_error()) as u64;
    let (mut relevant_above, mut halves) = (0u64, 0u64);
    for b in row.relevant_blocks() {
        let (r, m) = (b.relevant as u64, b.len as u64);
        let irrelevant_above = b.start as u64 - relevant_above;
        halves += 2 * r * irrelevant_above + tie_halves * r * (m - r);
        relevant_above += r;
    }
    halves as f64 / 2.0
}

/// The sum of `weight` over the labels in the top `k` positions of a row, as the tie policy
/// places a block that reaches into them: `Average` and `Expected` count the share of the
/// block inside `k` (the exact expectation: each member is inside with probability
/// (k − start)/len); `Max` counts a block whose shared rank `start + len` is at most `k`,
/// wholly, and `Min` one whose shared rank `start + 1` is; single labels count when inside.
/// NaN when the row does not cover its top `k` (a truncated row is never read as complete).
/// `weight` must be 0 for a block without a relevant label: only the relevant blocks are read,
/// so that a row ranked by counting gives the same sum.
pub(crate) fn top_k_sum(
    row: &crate::kernel::RankedRow<'_>, k: usize, weight: impl Fn(&crate::kernel::Block) -> f64,
) -> f64 {
    use crate::ties::RankSharing;
    if !row.covers_top(k) {
        return f64::NAN;
    }
    let mut sum = 0.0;
    // Blocks without a relevant label weigh 0 and would add +0.0: only the relevant ones are
    // read, so that a row ranked by counting (its relevant blocks alone) gives the same bits.
    for b in row.relevant_blocks().take_while(|b| b.start < k) {
        sum += match row.sharing() {
            Some(RankSharing::Average | RankSharing::Expected) => {
                let inside = (k - b.start).min(b.len);
                weight(b) * inside as f64 / b.len as f64
            }
            Some(RankSharing::Max) if b.start + b.len > k => 0.0,
            _ => weight(b),
        };
    }
    sum
}

/// The DCG@k of a perfect ranking of binary relevance: Σ_{r=1}^{min(k, n_relevant)} 1/log2(r + 1),
/// the normaliser of the extreme-classification nDCG@k (same discounts as [`Dcg`]).
pub(crate) fn ideal_binary_dcg(n_relevant: usize, k: usize) -> f64 {
    dcg::discount_sum(1..=n_relevant.min(k), 2.0)
}
