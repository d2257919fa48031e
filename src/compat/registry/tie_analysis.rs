//! What a preset's tie analysis guarantees: whether its `Optimistic` and `Pessimistic` values
//! are the proven best and worst over every ordering of the ties, and whether `Expected` has a
//! closed form (docs/ties.md).

use super::plan::{AnyLabelwise, Plan};
use super::Preset;
use crate::labelwise::{geometric_mean_policy, items_weighted, Mean, VectorMetric};
use crate::metrics::Direction;
use crate::row::metric::RowMetric;
use crate::ties::TiePolicy;

/// What the tie-analysis policies of a preset guarantee on a given input: each field is
/// `None` where the guarantee holds, or says why it does not.
///
/// Where `ends_unproven` is `None`, `Optimistic` and `Pessimistic` are the best and the worst
/// value over every ordering of the ties (the exchange argument of docs/ties.md, checked
/// against full enumeration). Where it says why, they are still values of orderings, so they
/// lie inside the interval, but they are not proven to be its ends. Where `expected_missing`
/// says why, `Expected` has no closed form and the preset refuses it
/// ([`Error::UnsupportedPolicy`](crate::Error::UnsupportedPolicy)); never an approximation.
///
/// # Example
/// ```
/// use rankmetrics::registry::{Convention, Preset};
/// let lookup = |c, m| Preset::lookup(c, m, Preset::NO_PARAMS, None).unwrap();
/// let lrap = lookup(Convention::Sklearn, "label_ranking_average_precision_score");
/// assert!(lrap.tie_analysis(true).is_exact());
/// let ap = lookup(Convention::Sklearn, "average_precision_score");
/// assert!(ap.tie_analysis(false).is_exact());
/// let weighted = ap.tie_analysis(true);
/// assert!(weighted.ends_unproven.is_some() && weighted.expected_missing.is_some());
/// let maip = lookup(Convention::Mulan, "MeanAverageInterpolatedPrecision").tie_analysis(false);
/// assert_eq!((maip.ends_unproven, maip.expected_missing.is_some()), (None, true));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TieAnalysis {
    /// Why `Optimistic` and `Pessimistic` are not proven to be the interval's ends.
    pub ends_unproven: Option<&'static str>,
    /// Why `Expected` has no closed form.
    pub expected_missing: Option<&'static str>,
}

impl TieAnalysis {
    /// Both guarantees hold: the interval's ends are proven and `Expected` is exact.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::TieAnalysis;
    /// let exact = TieAnalysis { ends_unproven: None, expected_missing: None };
    /// assert!(exact.is_exact());
    /// ```
    pub fn is_exact(&self) -> bool {
        self.ends_unproven.is_none() && self.expected_missing.is_none()
    }

    /// What the front doors print beside an interval or expected value that is not exact:
    /// both reasons in one text; `None` where both guarantees hold.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Mulan, "MeanAverageInterpolatedPrecision", Preset::NO_PARAMS, None);
    /// let note = p.unwrap().tie_analysis(false).note().unwrap();
    /// assert!(note.starts_with("no expected value: the running maximum"));
    /// ```
    pub fn note(&self) -> Option<String> {
        let ends = self
            .ends_unproven
            .map(|why| format!("interval ends not proven: {why}"));
        let expected = self
            .expected_missing
            .map(|why| format!("no expected value: {why}"));
        match (ends, expected) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        }
    }
}

/// Why weighted label-wise precision's ends are not proven.
const WEIGHTED_PRECISION_ENDS: &str = "with sample weights, label-wise precision also \
     depends on the order among relevant items of different weights: optimistic and \
     pessimistic put relevant items first and last (equal ones in row order), which are \
     orderings inside the interval but not proven to be its ends";

/// Why pROC's automatic direction leaves the ends unproven.
const AUTO_DIRECTION_ENDS: &str = "pROC chooses each vector's direction from its class \
     medians and reads a reversed vector the other way round, so optimistic and pessimistic \
     mix each vector's best and worst ordering: values of orderings, not proven to be the \
     interval's ends";

/// Why weighted label-wise average precision has no expected value.
const WEIGHTED_PRECISION_EXPECTED: &str = "with sample weights, label-wise precision is a \
     ratio of random weighted sums: no closed-form mean over orderings";

/// Why interpolated average precision has no expected value.
const INTERPOLATED_EXPECTED: &str = "the running maximum of interpolated precision has no \
     closed-form mean over orderings";

/// Why a geometric mean over labels has no expected value.
const GEOMETRIC_MEAN_EXPECTED: &str = "the mean over orderings of a geometric mean over \
     labels needs each label's distribution, not its mean: no closed form";

impl Preset {
    /// The tie policy the preset ranks with: the toolkit's rule, or the one
    /// [`lookup`](Self::lookup) was given.
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
            | Plan::Float32Logits { metric } => metric.options().ranking.ties,
            Plan::Labelwise(metric) => metric.options().ranking.ties,
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
        match self.ties() {
            TiePolicy::Optimistic | TiePolicy::Pessimistic => {
                self.tie_analysis(weighted).ends_unproven
            }
            _ => None,
        }
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
        let Plan::Labelwise(metric) = &self.plan else {
            return TieAnalysis {
                ends_unproven: None,
                expected_missing: None,
            };
        };
        let o = metric.options();
        let items_weighted = items_weighted(o.average, weighted);
        let ends_unproven = match metric {
            AnyLabelwise::AveragePrecision(_) | AnyLabelwise::Interpolated(_) if items_weighted => {
                Some(WEIGHTED_PRECISION_ENDS)
            }
            AnyLabelwise::RocAuc(auc) if auc.direction() == Direction::Auto => {
                Some(AUTO_DIRECTION_ENDS)
            }
            _ => None,
        };
        // The metric's own refusal of `Expected`, as an evaluation makes it.
        let under_expected = metric.with_ties(TiePolicy::Expected);
        let refused = under_expected.check(items_weighted).is_err()
            || geometric_mean_policy(&under_expected.options()).is_err();
        let expected_missing = refused.then_some(match metric {
            AnyLabelwise::Interpolated(_) => INTERPOLATED_EXPECTED,
            _ if o.mean == Mean::Geometric => GEOMETRIC_MEAN_EXPECTED,
            _ => WEIGHTED_PRECISION_EXPECTED,
        });
        TieAnalysis {
            ends_unproven,
            expected_missing,
        }
    }
}
