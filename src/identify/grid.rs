//! The candidates `identify` evaluates: every metric of every family, under every tie policy
//! it takes, with the parameters researchers usually set.

use super::families::{reference, Family, FAMILIES};
use crate::compat::registry::{MetricEntry, Preset};
use crate::convention::Convention;
use crate::ties::TiePolicy;

/// One metric with the parameters and tie policy the grid gave it.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The family the metric belongs to.
    pub family: &'static Family,
    /// The preset evaluated.
    pub preset: Preset,
    /// The parameters the grid set, in the order the metric echoes them (the others keep
    /// their defaults).
    pub params: Vec<(&'static str, String)>,
    /// The tie policy given: `Some` for rankmetrics' own metrics; `None` where the toolkit's
    /// rule is part of the metric.
    pub ties: Option<TiePolicy>,
}

/// The cut-offs tried for a parameter `key` (`k` or `top_k`) of `metric` on `labels` labels,
/// `None` standing for the metric's "no cut-off": 1 to 20 and the label count, and for
/// precision (whose denominator is k even past the label count) also 50 and 100. A cut-off at
/// or past the label count is tried once, as the label count (or "none" where the metric has
/// no default cut-off), since it gives the same value.
fn cut_offs(entry: &MetricEntry, key: &str, labels: usize) -> Vec<Option<usize>> {
    let default_none = entry
        .params
        .iter()
        .any(|p| p.key == key && p.default.is_none());
    let precision = matches!(entry.name, "precision_at_k" | "retrieval_precision");
    let mut ks: Vec<Option<usize>> = Vec::new();
    if default_none {
        ks.push(None);
    }
    for k in 1..=20usize {
        if k < labels || precision {
            ks.push(Some(k));
        }
    }
    if !ks.contains(&Some(labels)) && labels > 0 && (!default_none || precision) {
        ks.push(Some(labels));
    }
    if precision {
        ks.extend([50, 100].into_iter().filter(|&k| k != labels).map(Some));
    }
    ks
}

/// The values tried for each parameter of `entry` (of `convention`) the grid varies; the
/// others keep their defaults. torchmetrics' sigmoid kernels are tried only where the sigmoid
/// applies (`sigmoid`): otherwise they give the same values.
fn parameter_values(
    convention: Convention, entry: &MetricEntry, labels: usize, sigmoid: bool,
) -> Vec<Vec<(&'static str, String)>> {
    let mut axes: Vec<Vec<Vec<(&'static str, String)>>> = Vec::new();
    let text = |values: &[&str], key: &'static str| -> Vec<Vec<(&'static str, String)>> {
        values.iter().map(|v| vec![(key, v.to_string())]).collect()
    };
    for param in entry.params {
        let key = param.key;
        let axis = match key {
            "k" | "top_k" => cut_offs(entry, key, labels)
                .into_iter()
                .map(|k| k.map(|k| (key, k.to_string())).into_iter().collect())
                .collect(),
            "one_based" | "ignore_ties" | "adaptive_k" => text(&["false", "true"], key),
            "average" if convention == Convention::Torchmetrics => {
                text(&["macro", "micro", "weighted"], key)
            }
            "average" => text(&["macro", "micro", "samples", "weighted"], key),
            "ties_method" => text(&["average", "first", "last", "max", "min"], key),
            "weka" => text(&["3.7", "3.9"], key),
            "dtype" => text(&["float32", "float64"], key),
            // torchmetrics' float32 sums and means, or their float64 re-evaluation.
            "arithmetic" => text(&["float32", "float64"], key),
            // torch's sigmoid kernels: one element at a time, and the AVX2 and AVX-512 vector
            // kernels (their last bit differs, which float32 coverage and ranks can show).
            "sigmoid" if sigmoid => text(&["scalar", "avx2", "avx512"], key),
            // mldr's rules for a label (or row) with one class: its default, a fixed value,
            // or NA, dropped or not.
            "undefined_value" => [("0.5", "false"), ("0", "false"), ("1", "false")]
                .into_iter()
                .chain([("NA", "false"), ("NA", "true")])
                .map(|(u, rm)| vec![(key, u.to_string()), ("na_rm", rm.to_string())])
                .collect(),
            _ => continue,
        };
        axes.push(axis);
    }
    axes.into_iter().fold(vec![Vec::new()], |combos, axis| {
        combos
            .iter()
            .flat_map(|combo| {
                axis.iter().map(move |values| {
                    let mut c = combo.clone();
                    c.extend(values.iter().cloned());
                    c
                })
            })
            .collect()
    })
}

/// Every candidate of `family` (all of them when `None`) on `labels` labels, in the order
/// of the families and their members; then, for each, the reference whose interval it is
/// shown with (an index into the second list, of presets under pessimistic, expected and
/// optimistic ties).
pub(super) fn candidates(
    family: Option<&'static Family>, labels: usize, sigmoid: bool,
) -> (Vec<Candidate>, Vec<Option<usize>>, Vec<Reference>) {
    let mut out = Vec::new();
    let mut references: Vec<Reference> = Vec::new();
    let mut reference_of = Vec::new();
    for fam in FAMILIES.iter().filter(|f| family.map_or(true, |g| g == *f)) {
        for &(convention, metric) in fam.members {
            let Some(entry) = convention.entry(metric) else {
                continue;
            };
            let policies: Vec<Option<TiePolicy>> = match entry.default_ties {
                Some(_) => TiePolicy::R_METHODS
                    .into_iter()
                    .chain(TiePolicy::ANALYSIS)
                    .map(Some)
                    .collect(),
                None => vec![None],
            };
            for params in parameter_values(convention, entry, labels, sigmoid) {
                let reference = reference(convention, entry.name, &params)
                    .and_then(|(c, m, p)| Reference::new(c, m, p));
                let index = reference.map(|r| match references.iter().position(|x| *x == r) {
                    Some(i) => i,
                    None => {
                        references.push(r);
                        references.len() - 1
                    }
                });
                for &ties in &policies {
                    // Every value the grid builds is one the registry takes (a test says
                    // so); a lookup error would only drop the candidate.
                    if let Ok(preset) = Preset::lookup(convention, entry.name, &params, ties) {
                        out.push(Candidate {
                            family: fam,
                            preset,
                            params: params.clone(),
                            ties,
                        });
                        reference_of.push(index);
                    }
                }
            }
        }
    }
    (out, reference_of, references)
}

/// The preset whose tie analysis gives a candidate's interval and expected value.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Reference {
    /// The metric, for the output.
    pub(super) convention: Convention,
    pub(super) metric: &'static str,
    pub(super) params: Vec<(&'static str, String)>,
    /// Under pessimistic, expected and optimistic ties.
    pub(super) presets: [Preset; 3],
}

impl Reference {
    pub(super) fn new(
        convention: Convention, metric: &'static str, params: Vec<(&'static str, String)>,
    ) -> Option<Reference> {
        let preset = |t| Preset::lookup(convention, metric, &params, Some(t)).ok();
        let presets = [
            preset(TiePolicy::Pessimistic)?,
            preset(TiePolicy::Expected)?,
            preset(TiePolicy::Optimistic)?,
        ];
        Some(Reference {
            convention,
            metric,
            params,
            presets,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grid_value_is_one_the_registry_takes() {
        for labels in [1, 3, 20, 25] {
            for fam in FAMILIES {
                for &(convention, metric) in fam.members {
                    let entry = convention.entry(metric).unwrap();
                    for params in parameter_values(convention, entry, labels, true) {
                        let p = Preset::lookup(convention, metric, &params, None);
                        assert!(p.is_ok(), "{convention} {metric} {params:?}: {p:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn cut_offs_stop_at_the_label_count_except_for_precision() {
        let ndcg = Convention::Sklearn.entry("ndcg_score").unwrap();
        let ks = cut_offs(ndcg, "k", 4);
        assert_eq!(ks, [None, Some(1), Some(2), Some(3)]);
        let p = Convention::Rankmetrics.entry("precision_at_k").unwrap();
        let ks = cut_offs(p, "k", 4);
        assert_eq!(ks.len(), 22);
        assert!(ks.contains(&Some(100)) && ks.contains(&Some(4)));
        let recall = Convention::Rankmetrics.entry("recall_at_k").unwrap();
        assert_eq!(cut_offs(recall, "k", 30).last(), Some(&Some(30)));
    }
}
