//! The option builders every label-wise metric shares, and its [`RankingMetric`] impl, written
//! once.
//!
//! [`RankingMetric`]: crate::metric::RankingMetric

/// The option builders every label-wise metric shares. Each metric type has a field
/// `options: LabelwiseOptions`.
macro_rules! labelwise_builders {
    ($metric:ident) => {
        $crate::labelwise::labelwise_builders!($metric, "Average::Macro, TiePolicy::Max");
    };
    ($metric:ident, $args:literal) => {
        impl $metric {
            #[doc = concat!("The same metric with another tie policy.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").with_ties(TiePolicy::First);\nassert_eq!(m.options().ranking.ties, TiePolicy::First);\n```")]
            pub const fn with_ties(mut self, ties: $crate::TiePolicy) -> Self {
                self.options.ranking.ties = ties;
                self
            }

            #[doc = concat!("What the tie analysis of this metric guarantees on an input with \
                sample weights (`weighted`) or without: [`TieAnalysis`](crate::TieAnalysis).\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ");\nassert_eq!(m.tie_analysis(false).ends_unproven, None);\n```")]
            pub fn tie_analysis(&self, weighted: bool) -> $crate::TieAnalysis {
                $crate::labelwise::tie_analysis(self, weighted)
            }

            #[doc = concat!("The same metric with another tie grouping.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TieGrouping, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").with_grouping(TieGrouping::WEKA);\nassert_eq!(m.options().ranking.grouping, TieGrouping::WEKA);\n```")]
            pub const fn with_grouping(mut self, grouping: $crate::TieGrouping) -> Self {
                self.options.ranking.grouping = grouping;
                self
            }

            #[doc = concat!("The same metric with another averaging.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").averaged(Average::Micro);\nassert_eq!(m.options().average, Average::Micro);\n```")]
            pub const fn averaged(mut self, average: $crate::Average) -> Self {
                self.options.average = average;
                self
            }

            #[doc = concat!("The same metric with another rule for undefined vectors.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy, Undefined};\nlet m = ", stringify!($metric),
                "::new(", $args, ").on_undefined(Undefined::Skip);\nassert_eq!(m.options().undefined, Undefined::Skip);\n```")]
            pub const fn on_undefined(mut self, rule: $crate::Undefined) -> Self {
                self.options.undefined = rule;
                self
            }

            #[doc = concat!("The same metric with another mean.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, Mean, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").with_mean(Mean::Geometric);\nassert_eq!(m.options().mean, Mean::Geometric);\n```")]
            pub const fn with_mean(mut self, mean: $crate::Mean) -> Self {
                self.options.mean = mean;
                self
            }

            #[doc = concat!("The same metric accepting only labels of `domain` (default: 0 or 1).\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, LabelDomain, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").with_label_domain(LabelDomain::NonZero);\nassert_eq!(m.options().labels, LabelDomain::NonZero);\n```")]
            pub const fn with_label_domain(mut self, domain: $crate::LabelDomain) -> Self {
                self.options.labels = domain;
                self
            }

            #[doc = concat!("The same metric, NaN when no vector is defined (mldr).\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").nan_if_none_defined(true);\nassert!(m.options().nan_if_none_defined);\n```")]
            pub const fn nan_if_none_defined(mut self, yes: bool) -> Self {
                self.options.nan_if_none_defined = yes;
                self
            }

            #[doc = concat!("The same metric, treating a one-column input as one binary problem (scikit-learn).\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").one_column_binary(true);\nassert!(m.options().one_column_binary);\n```")]
            pub const fn one_column_binary(mut self, yes: bool) -> Self {
                self.options.one_column_binary = yes;
                self
            }

            #[doc = concat!("The metric's options.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nassert_eq!(", stringify!($metric),
                "::new(", $args, ").options().average, Average::Macro);\n```")]
            pub const fn options(&self) -> $crate::LabelwiseOptions {
                self.options
            }

            #[doc = concat!("An empty accumulator: evaluate in batches and merge shards.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet mut acc = ", stringify!($metric),
                "::new(", $args, ").accumulator();\nacc.update(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None).unwrap();\nassert_eq!(acc.rows(), [0..2]);\n```")]
            pub fn accumulator(&self) -> $crate::LabelwiseAccumulator<Self> {
                self.accumulator_starting_at(0)
            }

            #[doc = concat!("An empty accumulator for a shard whose first row is row `first_row` of the whole data.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet mut acc = ", stringify!($metric),
                "::new(", $args, ").accumulator_starting_at(10);\nacc.update(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None).unwrap();\nassert_eq!(acc.rows(), [10..12]);\n```")]
            pub fn accumulator_starting_at(&self, first_row: usize) -> $crate::LabelwiseAccumulator<Self> {
                $crate::LabelwiseAccumulator::new(*self, self.options.labels, first_row)
            }

            #[doc = concat!("An empty accumulator that keeps each label's runs (distinct scores counted by class), not the rows.\n\n# Errors\n[`Error::NotExactInRuns`](crate::Error::NotExactInRuns) when the runs cannot give the value exactly (see [`LabelRunsAccumulator`](crate::LabelRunsAccumulator)).\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet mut acc = ", stringify!($metric),
                "::new(", $args, ").runs_accumulator().unwrap();\nacc.update(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None).unwrap();\nassert_eq!(acc.run_count(), 4);\n```")]
            pub fn runs_accumulator(&self) -> Result<$crate::LabelRunsAccumulator<Self>, $crate::Error> {
                self.runs_accumulator_starting_at(0)
            }

            #[doc = concat!("[`runs_accumulator`](Self::runs_accumulator) for a shard whose first row is row `first_row` of the whole data.\n\n# Errors\nAs [`runs_accumulator`](Self::runs_accumulator).\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet mut acc = ", stringify!($metric),
                "::new(", $args, ").runs_accumulator_starting_at(10).unwrap();\nacc.update(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None).unwrap();\nassert_eq!(acc.rows(), [10..12]);\n```")]
            pub fn runs_accumulator_starting_at(&self, first_row: usize) -> Result<$crate::LabelRunsAccumulator<Self>, $crate::Error> {
                $crate::LabelRunsAccumulator::new(*self, self.options.labels, first_row)
            }
        }

        impl<T: $crate::Score> $crate::RankingMetric<T> for $metric {
            fn evaluate<Y, S>(
                &self,
                y_true: &Y,
                y_score: &S,
                sample_weight: Option<&[f64]>,
            ) -> Result<f64, $crate::Error>
            where
                Y: $crate::matrix::LabelMatrix + ?Sized,
                S: $crate::matrix::ScoreMatrix<T> + ?Sized,
            {
                $crate::labelwise::evaluate(self, y_true, y_score, sample_weight)
            }
        }
    };
}
pub(crate) use labelwise_builders;
