//! Typed row-wise metrics as presets: `Preset::from(Coverage::new(TiePolicy::Min))` is the
//! preset that `Preset::lookup` gives for the same options under the `rankmetrics` convention,
//! so typed metrics and presets found by name share one list, one output and one accumulator.
//!
//! The preset evaluates the typed metric itself, options the registry has no key for included
//! (a label domain other than `labels=binary` or `labels=nonzero`, minimum label count,
//! zero-weight rule, summation); its parameters are the registry's keys, which describe the
//! rest. Label-wise and propensity-scored metrics have no
//! registry name, so they have no conversion: put them in a list through
//! [`DynRankingMetric`](crate::dyn_metric::DynRankingMetric).

use super::params::{grouping_name, rule_name, ParamValue};
use super::plan::{AnyRow, Plan};
use super::{Convention, Preset};
use crate::error::LabelDomain;
use crate::metrics::{
    AveragePrecision, Coverage, Dcg, ErrorSetSize, IsError, Ndcg, NdcgAtK, OneError, PrecisionAtK,
    RankingLoss, RecallAtK,
};
use crate::row::metric::RowMetric;

/// The preset of `metric`, named `name` in the `rankmetrics` convention, with the
/// metric-specific parameters `own` (as `lookup` reads them).
fn preset_of(name: &'static str, metric: AnyRow, own: Vec<(&'static str, String)>) -> Preset {
    let options = metric.options();
    let mut params = own;
    params.push(("grouping", grouping_name(options.ranking.grouping)));
    params.push(("no_relevant", rule_name(options.no_relevant)));
    params.push(("all_relevant", rule_name(options.all_relevant)));
    // The label domain of a metric of relevance, where the registry has a value for it.
    let labels = match options.labels {
        LabelDomain::Binary => Some("binary"),
        LabelDomain::NonZero => Some("nonzero"),
        _ => None,
    };
    let takes_labels = Preset::param_keys(Convention::Rankmetrics, name).contains(&"labels");
    if let (true, Some(labels)) = (takes_labels, labels) {
        params.push(("labels", labels.to_string()));
    }
    let plan = Plan::Row {
        metric,
        logits: None,
    };
    let ties = Some(options.ranking.ties);
    match Preset::lookup(Convention::Rankmetrics, name, &params, ties) {
        // The looked-up preset's echo, with the typed metric in place of the one built from
        // the parameters (they differ only in what the registry has no key for).
        Ok(mut found) => {
            if labels.is_none() {
                // No registry value says this domain: echo none rather than the default's.
                found.params.retain(|(k, _)| *k != "labels");
            }
            Preset { plan, ..found }
        }
        // Every value above is one `lookup` reads back (tests/preset_from.rs); should one not
        // be, the parameters are still described as given.
        Err(_) => Preset {
            convention: Convention::Rankmetrics,
            name,
            params: core::iter::once(("ties", ParamValue::Str(options.ranking.ties.to_string())))
                .chain(params.into_iter().map(|(k, v)| (k, ParamValue::Str(v))))
                .collect(),
            plan,
        },
    }
}

/// A truncation `k` as `lookup` reads it, if there is one.
fn k_param(k: Option<usize>) -> Vec<(&'static str, String)> {
    k.map(|k| vec![("k", k.to_string())]).unwrap_or_default()
}

macro_rules! preset_from {
    ($($metric:ident $new:literal => $name:literal, |$m:ident| $own:expr;)*) => {$(
        #[doc = concat!("The `rankmetrics` preset `", $name, "` with this metric's options.")]
        ///
        /// # Example
        /// ```
        /// use rankmetrics::registry::{Convention, Preset};
        /// use rankmetrics::{RankingMetric, TiePolicy};
        #[doc = concat!("let m = rankmetrics::", stringify!($metric), "::new", $new, ";")]
        /// let p = Preset::from(m.clone());
        /// assert_eq!(p.convention(), Convention::Rankmetrics);
        /// let (y, s) = ([[1, 0, 1, 0]], [[0.5, 0.5, 0.25, 0.75]]);
        /// assert_eq!(p.evaluate(&y, &s, None), m.evaluate(&y, &s, None));
        /// ```
        impl From<$metric> for Preset {
            fn from($m: $metric) -> Preset {
                #[allow(clippy::redundant_closure_call)]
                let own: Vec<(&'static str, String)> = (|$m: &$metric| $own)(&$m);
                preset_of($name, AnyRow::from($m), own)
            }
        }
    )*};
}

preset_from! {
    Coverage "(TiePolicy::Min)" => "coverage", |m| vec![("one_based", m.is_one_based().to_string())];
    AveragePrecision "(TiePolicy::Min)" => "average_precision", |_m| Vec::new();
    RankingLoss "(TiePolicy::Min)" => "ranking_loss", |_m| Vec::new();
    OneError "(TiePolicy::Min)" => "one_error", |_m| Vec::new();
    IsError "(TiePolicy::Min)" => "is_error", |_m| Vec::new();
    ErrorSetSize "(TiePolicy::Min)" => "error_set_size", |_m| Vec::new();
    Dcg "(TiePolicy::Min)" => "dcg", |m| {
        let mut own = k_param(m.k());
        own.push(("log_base", m.log_base().to_string()));
        own
    };
    Ndcg "(TiePolicy::Min)" => "ndcg", |m| k_param(m.k());
    PrecisionAtK "(TiePolicy::Min, 3).unwrap()" => "precision_at_k", |m| k_param(Some(m.k()));
    RecallAtK "(TiePolicy::Min, 3).unwrap()" => "recall_at_k", |m| k_param(Some(m.k()));
    NdcgAtK "(TiePolicy::Min, 3).unwrap()" => "ndcg_at_k", |m| k_param(Some(m.k()));
}
