//! A preset's tie policy, and what its tie analysis guarantees ([`TieAnalysis`]).

use super::plan::{AnyRow, Plan};
use super::Preset;
use crate::labelwise::{tie_analysis, VectorMetric};
use crate::row::metric::RowMetric;
use crate::ties::{TieAnalysis, TiePolicy};

impl Preset {
    /// The tie policy the preset ranks with: the toolkit's rule, or the one
    /// [`lookup`](Self::lookup) was given. torchmetrics' ranking loss without a policy given
    /// says `Last`, the order of torch's CPU argsort on rows of up to 16 labels; on longer rows
    /// it follows that sort's own order.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// use rankmetrics::TiePolicy;
    /// let p = Preset::lookup(Convention::Mldr, "coverage", Preset::NO_PARAMS, None).unwrap();
    /// assert_eq!(p.ties(), TiePolicy::Last);
    /// let p = Preset::lookup(Convention::Mldr, "coverage", Preset::NO_PARAMS, Some(TiePolicy::Expected));
    /// assert_eq!(p.unwrap().ties(), TiePolicy::Expected);
    /// ```
    pub fn ties(&self) -> TiePolicy {
        match &self.plan {
            Plan::Row { metric, .. }
            | Plan::Float32Row { metric }
            | Plan::Retrieval { metric, .. } => metric.options().ranking.ties,
            Plan::Labelwise(metric, _) => metric.options().ranking.ties,
        }
    }

    /// Why this preset's value is not a proven end of the interval over tie orders: it ranks
    /// under [`TiePolicy::Optimistic`] or [`TiePolicy::Pessimistic`] and
    /// [`TieAnalysis::ends_unproven`] says why (`weighted`: sample weights are given).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// use rankmetrics::TiePolicy;
    /// let ap = |t| Preset::lookup(Convention::Sklearn, "average_precision_score", Preset::NO_PARAMS, Some(t)).unwrap();
    /// assert!(ap(TiePolicy::Optimistic).unproven_end(true).is_some());
    /// assert!(ap(TiePolicy::Optimistic).unproven_end(false).is_none());
    /// assert!(ap(TiePolicy::Max).unproven_end(true).is_none()); // no end of anything
    /// ```
    pub fn unproven_end(&self, weighted: bool) -> Option<&'static str> {
        self.tie_analysis(weighted).end_under(self.ties())
    }

    /// What this preset's tie analysis guarantees on an input with sample weights
    /// (`weighted`) or without: [`TieAnalysis`]. Row-wise presets have both guarantees with
    /// or without weights (a weight scales a row's value, whatever its order).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let auc = Preset::lookup(Convention::Mldr, "macro_auc", Preset::NO_PARAMS, None).unwrap();
    /// let t = auc.tie_analysis(false);
    /// assert!(t.ends_unproven.unwrap().starts_with("pROC chooses"));
    /// assert_eq!(t.expected_missing, None);
    /// ```
    pub fn tie_analysis(&self, weighted: bool) -> TieAnalysis {
        match &self.plan {
            Plan::Labelwise(metric, _) => tie_analysis(metric, weighted),
            Plan::Retrieval {
                metric: AnyRow::RetrievalAtK(m),
                ..
            } => m.tie_analysis(),
            _ => TieAnalysis::EXACT,
        }
    }
}
