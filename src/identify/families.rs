//! The metric families `identify` searches: which metric of each convention computes which
//! quantity, and the rankmetrics preset whose tie analysis gives that quantity's interval.

use crate::convention::Convention;
use crate::names::UnknownName;

/// A quantity several conventions compute under their own names: what `--metric` narrows the
/// search to.
///
/// # Example
/// ```
/// use rankmetrics::identify::Family;
/// let lrap = Family::parse("lrap").unwrap();
/// assert_eq!(lrap.name, "lrap");
/// assert!(lrap.members.contains(&(rankmetrics::registry::Convention::Mldr, "average_precision")));
/// assert_eq!(Family::parse("label_ranking_average_precision_score"), Some(lrap));
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct Family {
    /// The family's name, as `--metric` takes it.
    pub name: &'static str,
    /// Other names it is found by (besides its members' own names).
    pub aliases: &'static [&'static str],
    /// What it measures, in a few words.
    pub describes: &'static str,
    /// Each convention's metrics in the family, as the registry names them.
    pub members: &'static [(Convention, &'static str)],
}

use Convention::{Mldr, Mulan, Rankmetrics as Own, Sklearn, Torchmetrics as Torch};

/// Every family, in the order `identify` lists its matches. The propensity-scored metrics are
/// not searched: they need the propensities, which a reported value does not come with.
pub const FAMILIES: &[Family] = &[
    Family {
        name: "coverage",
        aliases: &["coverage_error"],
        describes: "how far down the ranking all relevant labels are reached",
        members: &[
            (Own, "coverage"),
            (Sklearn, "coverage_error"),
            (Torch, "multilabel_coverage_error"),
            (Mldr, "coverage"),
            (Mulan, "Coverage"),
        ],
    },
    Family {
        name: "lrap",
        aliases: &["average_precision", "ap", "label_ranking_average_precision"],
        describes: "label ranking average precision, a mean over rows",
        members: &[
            (Own, "average_precision"),
            (Sklearn, "label_ranking_average_precision_score"),
            (Torch, "multilabel_ranking_average_precision"),
            (Torch, "retrieval_average_precision"),
            (Mldr, "average_precision"),
            (Mulan, "AveragePrecision"),
        ],
    },
    Family {
        name: "ranking_loss",
        aliases: &["label_ranking_loss"],
        describes: "the fraction of relevant-irrelevant pairs ranked wrongly",
        members: &[
            (Own, "ranking_loss"),
            (Sklearn, "label_ranking_loss"),
            (Torch, "multilabel_ranking_loss"),
            (Mldr, "ranking_loss"),
            (Mulan, "RankingLoss"),
        ],
    },
    Family {
        name: "one_error",
        aliases: &[],
        describes: "whether the top-ranked label is irrelevant",
        members: &[(Own, "one_error"), (Mldr, "one_error"), (Mulan, "OneError")],
    },
    Family {
        name: "is_error",
        aliases: &[],
        describes: "whether the ranking is not perfect",
        members: &[(Own, "is_error"), (Mulan, "IsError")],
    },
    Family {
        name: "error_set_size",
        aliases: &[],
        describes: "irrelevant labels ranked above the lowest relevant one",
        members: &[(Own, "error_set_size"), (Mulan, "ErrorSetSize")],
    },
    Family {
        name: "dcg",
        aliases: &[],
        describes: "discounted cumulative gain",
        members: &[(Own, "dcg"), (Sklearn, "dcg_score")],
    },
    Family {
        name: "ndcg",
        aliases: &["normalized_dcg"],
        describes: "normalised discounted cumulative gain, at k or over all labels",
        members: &[
            (Own, "ndcg"),
            (Own, "ndcg_at_k"),
            (Sklearn, "ndcg_score"),
            (Torch, "retrieval_normalized_dcg"),
        ],
    },
    Family {
        name: "precision_at_k",
        aliases: &["precision", "p@k"],
        describes: "the fraction of the top k labels that are relevant",
        members: &[(Own, "precision_at_k"), (Torch, "retrieval_precision")],
    },
    Family {
        name: "recall_at_k",
        aliases: &["recall", "r@k"],
        describes: "the fraction of the relevant labels in the top k",
        members: &[(Own, "recall_at_k"), (Torch, "retrieval_recall")],
    },
    Family {
        name: "reciprocal_rank",
        aliases: &["mrr"],
        describes: "one over the rank of the first relevant label",
        members: &[(Torch, "retrieval_reciprocal_rank")],
    },
    Family {
        name: "roc_auc",
        aliases: &["auc", "auroc"],
        describes: "area under the ROC curve, per label, pooled or per sample",
        members: &[
            (Own, "roc_auc"),
            (Sklearn, "roc_auc_score"),
            (Torch, "multilabel_auroc"),
            (Mldr, "macro_auc"),
            (Mldr, "micro_auc"),
            (Mldr, "example_auc"),
            (Mulan, "MacroAUC"),
            (Mulan, "MicroAUC"),
        ],
    },
    Family {
        name: "label_average_precision",
        aliases: &["map", "label_ap", "auc_pr"],
        describes: "average precision of each label's column, and its means",
        members: &[
            (Own, "label_average_precision"),
            (Sklearn, "average_precision_score"),
            (Torch, "multilabel_average_precision"),
            (Mulan, "MeanAveragePrecision"),
            (Mulan, "GeometricMeanAveragePrecision"),
            (Mulan, "MacroAUCPR"),
        ],
    },
    Family {
        name: "interpolated_average_precision",
        aliases: &["maip"],
        describes: "interpolated average precision of each label's column",
        members: &[
            (Own, "interpolated_average_precision"),
            (Mulan, "MeanAverageInterpolatedPrecision"),
            (Mulan, "GeometricMeanAverageInterpolatedPrecision"),
        ],
    },
];

impl Family {
    /// The family called `name`: its name, an alias, or the name (or alias) of one of its
    /// members in any convention.
    pub fn parse(name: &str) -> Option<&'static Family> {
        let by_name = FAMILIES
            .iter()
            .find(|f| f.name == name || f.aliases.contains(&name));
        by_name.or_else(|| {
            FAMILIES.iter().find(|f| {
                f.members.iter().any(|&(c, m)| {
                    c.entry(m)
                        .is_some_and(|e| e.name == name || e.aliases.contains(&name))
                })
            })
        })
    }

    /// The family of `metric` of `convention` (as the registry names it).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::identify::Family;
    /// use rankmetrics::registry::Convention;
    /// assert_eq!(Family::of(Convention::Mulan, "MacroAUC").unwrap().name, "roc_auc");
    /// assert!(Family::of(Convention::Rankmetrics, "psprecision_at_k").is_none());
    /// ```
    pub fn of(convention: Convention, metric: &str) -> Option<&'static Family> {
        FAMILIES
            .iter()
            .find(|f| f.members.contains(&(convention, metric)))
    }

    /// The family called `name`, as [`parse`](Self::parse) finds it.
    ///
    /// # Errors
    /// [`UnknownName`] listing the families, for a name no family or metric has.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::identify::Family;
    /// assert_eq!(Family::find("mrr").unwrap().name, "reciprocal_rank");
    /// let err = Family::find("lrapp").unwrap_err();
    /// assert!(err.to_string().starts_with("unknown metric family \"lrapp\"; expected coverage, lrap,"));
    /// assert!(err.to_string().ends_with(" or a metric's own name"));
    /// ```
    pub fn find(name: &str) -> Result<&'static Family, UnknownName> {
        Family::parse(name).ok_or_else(|| UnknownName::new("metric family", name, &FAMILY_NAMES))
    }
}

/// The families' names, in order, and what else [`Family::find`] takes.
const FAMILY_NAMES: [&str; 15] = [
    "coverage",
    "lrap",
    "ranking_loss",
    "one_error",
    "is_error",
    "error_set_size",
    "dcg",
    "ndcg",
    "precision_at_k",
    "recall_at_k",
    "reciprocal_rank",
    "roc_auc",
    "label_average_precision",
    "interpolated_average_precision",
    "a metric's own name",
];

/// A metric of a convention with parameters.
pub(super) type Named = (Convention, &'static str, Vec<(&'static str, String)>);

/// The rankmetrics metric (with its parameters) whose values under the tie-analysis policies
/// give the interval and the expected value of `metric` of `convention` with `params` (the
/// grid's own); `None` where no preset computes the same quantity
/// under every tie order. torchmetrics' binary retrieval metrics have none: they never count a
/// relevant document scored at most 0 as retrieved, which no tie order does.
pub(super) fn reference(
    convention: Convention, metric: &str, params: &[(&'static str, String)],
) -> Option<Named> {
    let param = |key: &str| {
        params
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    };
    let k = |key: &str| param(key).map(|v| ("k", v));
    let average = |default: &str| ("average", param("average").unwrap_or(default.to_string()));
    let own = |name: &'static str, params: Vec<(&'static str, String)>| Some((Own, name, params));
    // mldr's rule for a label (or row) with one class, as roc_auc's `undefined`: its value
    // (0.5 by default), or NA, dropped under na_rm.
    let mldr_undefined = || {
        let value = param("undefined_value").unwrap_or_else(|| "0.5".into());
        let rule = match (value.as_str(), param("na_rm").as_deref()) {
            ("NA" | "NaN" | "nan", Some("true")) => "skip".to_string(),
            ("NA" | "NaN" | "nan", _) => "nan".to_string(),
            (v, _) => v.to_string(),
        };
        ("undefined", rule)
    };
    match (convention, metric) {
        (Own, "coverage" | "average_precision" | "ranking_loss" | "one_error" | "is_error")
        | (Own, "error_set_size" | "dcg" | "ndcg" | "precision_at_k" | "recall_at_k")
        | (Own, "ndcg_at_k" | "roc_auc" | "label_average_precision")
        | (Own, "interpolated_average_precision") => {
            let name = Own.entry(metric)?.name;
            own(name, params.to_vec())
        }
        (Sklearn, "coverage_error") | (Torch, "multilabel_coverage_error") => {
            own("coverage", vec![("one_based", "true".into())])
        }
        (Mldr, "coverage") | (Mulan, "Coverage") => own("coverage", Vec::new()),
        (Sklearn, "label_ranking_average_precision_score")
        | (Torch, "multilabel_ranking_average_precision")
        | (Mldr, "average_precision")
        | (Mulan, "AveragePrecision") => own("average_precision", Vec::new()),
        (Sklearn, "label_ranking_loss")
        | (Torch, "multilabel_ranking_loss")
        | (Mldr, "ranking_loss")
        | (Mulan, "RankingLoss") => own("ranking_loss", Vec::new()),
        (Mldr, "one_error") | (Mulan, "OneError") => own("one_error", Vec::new()),
        (Mulan, "IsError") => own("is_error", Vec::new()),
        (Mulan, "ErrorSetSize") => own("error_set_size", Vec::new()),
        (Sklearn, "dcg_score") => own("dcg", k("k").into_iter().collect()),
        (Sklearn, "ndcg_score") => own("ndcg", k("k").into_iter().collect()),
        (Torch, "retrieval_normalized_dcg") => own("ndcg", k("top_k").into_iter().collect()),
        (Sklearn, "roc_auc_score") | (Torch, "multilabel_auroc") => {
            own("roc_auc", vec![average("macro")])
        }
        (Mldr, "macro_auc") => own("roc_auc", vec![average("macro"), mldr_undefined()]),
        (Mulan, "MacroAUC") => own("roc_auc", vec![average("macro")]),
        (Mldr, "micro_auc") | (Mulan, "MicroAUC") => own("roc_auc", vec![average("micro")]),
        (Mldr, "example_auc") => own("roc_auc", vec![average("samples"), mldr_undefined()]),
        (Sklearn, "average_precision_score") | (Torch, "multilabel_average_precision") => {
            own("label_average_precision", vec![average("macro")])
        }
        (Mulan, "MeanAveragePrecision") => own("label_average_precision", vec![average("macro")]),
        (Mulan, "MeanAverageInterpolatedPrecision") => {
            own("interpolated_average_precision", Vec::new())
        }
        (Mulan, name @ ("GeometricMeanAveragePrecision" | "MacroAUCPR")) => {
            Some((Mulan, Mulan.entry(name)?.name, Vec::new()))
        }
        (Mulan, "GeometricMeanAverageInterpolatedPrecision") => Some((
            Mulan,
            "GeometricMeanAverageInterpolatedPrecision",
            Vec::new(),
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Preset;

    #[test]
    fn every_metric_but_the_propensity_scored_is_in_one_family() {
        for convention in Convention::ALL {
            for entry in convention.entries() {
                let families = FAMILIES
                    .iter()
                    .filter(|f| f.members.contains(&(convention, entry.name)))
                    .count();
                let expected = usize::from(!entry.needs_params());
                assert_eq!(families, expected, "{convention} {}", entry.name);
            }
        }
    }

    #[test]
    fn the_error_lists_every_family() {
        let names: Vec<&str> = FAMILIES.iter().map(|f| f.name).collect();
        assert_eq!(names, FAMILY_NAMES[..FAMILIES.len()]);
    }

    #[test]
    fn every_reference_is_a_preset_under_every_analysis_policy() {
        for family in FAMILIES {
            for &(convention, metric) in family.members {
                let Some((c, name, params)) = reference(convention, metric, &[]) else {
                    continue;
                };
                for ties in crate::TiePolicy::ANALYSIS {
                    let p = Preset::lookup(c, name, &params, Some(ties));
                    assert!(p.is_ok(), "{convention} {metric}: {c} {name} {p:?}");
                }
            }
        }
    }
}
