//! `rankmetrics compare`: every metric concept under every tie policy and every toolkit's
//! convention, with the tie analysis, computed by one `evaluate_all_parallel` call (on the
//! threads of `--threads`; the values are bitwise those of one thread).

use rankmetrics::registry::{evaluate_all_parallel, Convention, Preset};
use rankmetrics::{Error, Matrix, TiePolicy};

/// A metric as one convention names it, with the parameters that make it this concept.
type Named = (&'static str, &'static [(&'static str, &'static str)]);

/// One row of the comparison: a quantity several conventions compute, perhaps under different
/// names and tie rules.
#[derive(Debug)]
pub struct Concept {
    /// The row's name.
    pub name: &'static str,
    /// The preset evaluated under each tie policy: rankmetrics' own metric where it has one,
    /// else a toolkit's metric with its tie rule replaced.
    pub reference: (Convention, Named),
    /// The concept's metric in scikit-learn, torchmetrics, mldr and MULAN (`TOOLKITS` order).
    pub toolkits: [Option<Named>; 4],
}

/// The toolkits, in column order.
pub const TOOLKITS: [Convention; 4] = [
    Convention::Sklearn,
    Convention::Torchmetrics,
    Convention::Mldr,
    Convention::Mulan,
];

const NONE: &[(&str, &str)] = &[];
const ONE_BASED: &[(&str, &str)] = &[("one_based", "true")];
const MICRO: &[(&str, &str)] = &[("average", "micro")];
const SAMPLES: &[(&str, &str)] = &[("average", "samples")];

/// The mapping of metrics across conventions: which metric of each toolkit computes which
/// concept. Coverage has two rows because scikit-learn and torchmetrics count ranks from 1 and
/// mldr and MULAN from 0: the offset is a definition, not a tie rule.
pub const CONCEPTS: &[Concept] = &[
    Concept {
        name: "coverage (ranks from 0)",
        reference: (Convention::Rankmetrics, ("coverage", NONE)),
        toolkits: [
            None,
            None,
            Some(("coverage", NONE)),
            Some(("Coverage", NONE)),
        ],
    },
    Concept {
        name: "coverage (ranks from 1)",
        reference: (Convention::Rankmetrics, ("coverage", ONE_BASED)),
        toolkits: [
            Some(("coverage_error", NONE)),
            Some(("multilabel_coverage_error", NONE)),
            None,
            None,
        ],
    },
    Concept {
        name: "average precision (LRAP)",
        reference: (Convention::Rankmetrics, ("average_precision", NONE)),
        toolkits: [
            Some(("label_ranking_average_precision_score", NONE)),
            Some(("multilabel_ranking_average_precision", NONE)),
            Some(("average_precision", NONE)),
            Some(("AveragePrecision", NONE)),
        ],
    },
    Concept {
        name: "ranking loss",
        reference: (Convention::Rankmetrics, ("ranking_loss", NONE)),
        toolkits: [
            Some(("label_ranking_loss", NONE)),
            Some(("multilabel_ranking_loss", NONE)),
            Some(("ranking_loss", NONE)),
            Some(("RankingLoss", NONE)),
        ],
    },
    Concept {
        name: "one-error",
        reference: (Convention::Rankmetrics, ("one_error", NONE)),
        toolkits: [
            None,
            None,
            Some(("one_error", NONE)),
            Some(("OneError", NONE)),
        ],
    },
    Concept {
        name: "is-error",
        reference: (Convention::Rankmetrics, ("is_error", NONE)),
        toolkits: [None, None, None, Some(("IsError", NONE))],
    },
    Concept {
        name: "error set size",
        reference: (Convention::Rankmetrics, ("error_set_size", NONE)),
        toolkits: [None, None, None, Some(("ErrorSetSize", NONE))],
    },
    Concept {
        name: "DCG",
        reference: (Convention::Rankmetrics, ("dcg", NONE)),
        toolkits: [Some(("dcg_score", NONE)), None, None, None],
    },
    Concept {
        name: "NDCG",
        reference: (Convention::Rankmetrics, ("ndcg", NONE)),
        toolkits: [
            Some(("ndcg_score", NONE)),
            Some(("retrieval_normalized_dcg", NONE)),
            None,
            None,
        ],
    },
    Concept {
        name: "precision@5 (XMC)",
        reference: (Convention::Rankmetrics, ("precision_at_k", NONE)),
        toolkits: [None, None, None, None],
    },
    Concept {
        name: "recall@5 (XMC)",
        reference: (Convention::Rankmetrics, ("recall_at_k", NONE)),
        toolkits: [None, None, None, None],
    },
    Concept {
        name: "nDCG@5 (XMC, binary relevance)",
        reference: (Convention::Rankmetrics, ("ndcg_at_k", NONE)),
        toolkits: [None, None, None, None],
    },
    Concept {
        name: "AUC, macro (per label)",
        reference: (Convention::Sklearn, ("roc_auc_score", NONE)),
        toolkits: [
            Some(("roc_auc_score", NONE)),
            None,
            Some(("macro_auc", NONE)),
            Some(("MacroAUC", NONE)),
        ],
    },
    Concept {
        name: "AUC, micro (pooled)",
        reference: (Convention::Sklearn, ("roc_auc_score", MICRO)),
        toolkits: [
            Some(("roc_auc_score", MICRO)),
            None,
            Some(("micro_auc", NONE)),
            Some(("MicroAUC", NONE)),
        ],
    },
    Concept {
        name: "AUC, per sample",
        reference: (Convention::Sklearn, ("roc_auc_score", SAMPLES)),
        toolkits: [
            Some(("roc_auc_score", SAMPLES)),
            None,
            Some(("example_auc", NONE)),
            None,
        ],
    },
    Concept {
        name: "label AP, macro",
        reference: (Convention::Sklearn, ("average_precision_score", NONE)),
        toolkits: [
            Some(("average_precision_score", NONE)),
            None,
            None,
            Some(("MeanAveragePrecision", NONE)),
        ],
    },
    Concept {
        name: "label AP, geometric mean",
        reference: (Convention::Mulan, ("GeometricMeanAveragePrecision", NONE)),
        toolkits: [
            None,
            None,
            None,
            Some(("GeometricMeanAveragePrecision", NONE)),
        ],
    },
    Concept {
        name: "interpolated AP, mean",
        reference: (
            Convention::Mulan,
            ("MeanAverageInterpolatedPrecision", NONE),
        ),
        toolkits: [
            None,
            None,
            None,
            Some(("MeanAverageInterpolatedPrecision", NONE)),
        ],
    },
    Concept {
        name: "interpolated AP, geometric",
        reference: (
            Convention::Mulan,
            ("GeometricMeanAverageInterpolatedPrecision", NONE),
        ),
        toolkits: [
            None,
            None,
            None,
            Some(("GeometricMeanAverageInterpolatedPrecision", NONE)),
        ],
    },
    Concept {
        name: "AUC-PR, macro",
        reference: (Convention::Mulan, ("MacroAUCPR", NONE)),
        toolkits: [None, None, None, Some(("MacroAUCPR", NONE))],
    },
];

/// A column of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// The reference metric under a deterministic tie policy.
    Policy(TiePolicy),
    /// A toolkit's own metric, its own rules.
    Toolkit(Convention),
    /// The reference metric under a tie-analysis policy (pessimistic, expected, optimistic).
    Analysis(TiePolicy),
}

impl Column {
    /// Every column, in order.
    pub fn all() -> Vec<Column> {
        let policies = TiePolicy::R_METHODS.map(Column::Policy);
        let toolkits = TOOLKITS.map(Column::Toolkit);
        let analysis = TiePolicy::ANALYSIS.map(Column::Analysis);
        [&policies[..], &toolkits, &analysis].concat()
    }

    /// The column's header.
    pub fn name(self) -> &'static str {
        match self {
            Column::Policy(t) | Column::Analysis(t) => t.name(),
            Column::Toolkit(c) => c.name(),
        }
    }

    /// Whether the column is one of the conventions whose values the spread and the interval
    /// check compare (not the tie analysis itself).
    pub fn is_convention(self) -> bool {
        !matches!(self, Column::Analysis(_))
    }
}

/// One cell: its preset and what it gave.
#[derive(Debug)]
pub struct Cell {
    pub column: Column,
    pub preset: Preset,
    pub result: Result<f64, Error>,
}

/// One row: the concept's cells (in column order; absent where a toolkit lacks the concept)
/// and the summary.
#[derive(Debug)]
pub struct Row {
    pub concept: &'static Concept,
    pub cells: Vec<Option<Cell>>,
}

impl Row {
    /// The value of `column`, if it has one.
    pub fn value(&self, column: Column) -> Option<f64> {
        self.cells
            .iter()
            .flatten()
            .find(|c| c.column == column)
            .and_then(|c| c.result.as_ref().ok().copied())
    }

    /// The interval [pessimistic, optimistic], lower bound first (for losses the pessimistic
    /// value is the larger).
    pub fn interval(&self) -> Option<(f64, f64)> {
        let p = self.value(Column::Analysis(TiePolicy::Pessimistic))?;
        let o = self.value(Column::Analysis(TiePolicy::Optimistic))?;
        Some((p.min(o), p.max(o)))
    }

    /// The exact expectation over every ordering of the ties.
    pub fn expected(&self) -> Option<f64> {
        self.value(Column::Analysis(TiePolicy::Expected))
    }

    /// The values of the convention columns (policies and toolkits) that have one.
    fn convention_values(&self) -> impl Iterator<Item = (Column, f64)> + '_ {
        self.cells.iter().flatten().filter_map(|c| {
            let v = *c.result.as_ref().ok()?;
            (c.column.is_convention() && v.is_finite()).then_some((c.column, v))
        })
    }

    /// Largest minus smallest finite value across the policies and toolkits; `None` with
    /// fewer than two.
    pub fn spread(&self) -> Option<f64> {
        let values: Vec<f64> = self.convention_values().map(|(_, v)| v).collect();
        let max = values.iter().copied().reduce(f64::max)?;
        let min = values.iter().copied().reduce(f64::min)?;
        (values.len() >= 2).then_some(max - min)
    }

    /// Whether `column`'s value lies outside the interval (beyond rounding).
    pub fn outside(&self, column: Column) -> bool {
        let (Some((lo, hi)), Some(v)) = (self.interval(), self.value(column)) else {
            return false;
        };
        let slack = 1e-9 * lo.abs().max(hi.abs()).max(1.0);
        column.is_convention() && (v < lo - slack || v > hi + slack)
    }

    /// The conventions whose values lie outside the interval.
    pub fn outside_interval(&self) -> Vec<Column> {
        self.convention_values()
            .map(|(c, _)| c)
            .filter(|&c| self.outside(c))
            .collect()
    }
}

/// The presets of every cell, in row-major order; `None` where a toolkit lacks the concept.
///
/// # Errors
/// A message if a preset of the mapping is unknown to the registry (a bug of the mapping).
fn cell_presets(columns: &[Column]) -> Result<Vec<Vec<Option<Preset>>>, String> {
    let lookup = |convention: Convention, (metric, params): Named, ties: Option<TiePolicy>| {
        let params: Vec<(String, String)> = params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Preset::lookup(convention, metric, &params, ties)
            .map_err(|e| format!("comparison table: {convention} {metric}: {e}"))
    };
    CONCEPTS
        .iter()
        .map(|concept| {
            columns
                .iter()
                .map(|&column| match column {
                    Column::Policy(t) | Column::Analysis(t) => {
                        let (convention, named) = concept.reference;
                        lookup(convention, named, Some(t)).map(Some)
                    }
                    Column::Toolkit(c) => {
                        let i = TOOLKITS.iter().position(|&t| t == c).unwrap_or(0);
                        concept.toolkits[i]
                            .map(|named| lookup(c, named, None))
                            .transpose()
                    }
                })
                .collect()
        })
        .collect()
}

/// The number of cells `compare` computes.
pub fn cell_count() -> usize {
    let columns = Column::all();
    cell_presets(&columns)
        .map(|rows| rows.iter().flatten().flatten().count())
        .unwrap_or(0)
}

/// Computes every cell with one [`evaluate_all_parallel`] call.
///
/// # Errors
/// A message if the mapping names a preset the registry does not know.
pub fn compare<Y, S>(y_true: &Y, y_score: &S, weights: Option<&[f64]>) -> Result<Vec<Row>, String>
where
    Y: Matrix<Elem = f64> + Sync + ?Sized,
    S: Matrix<Elem = f64> + Sync + ?Sized,
{
    let columns = Column::all();
    let grid = cell_presets(&columns)?;
    let flat: Vec<Preset> = grid.iter().flatten().flatten().cloned().collect();
    let mut results = evaluate_all_parallel(&flat, y_true, y_score, weights).into_iter();
    let rows = CONCEPTS
        .iter()
        .zip(grid)
        .map(|(concept, presets)| Row {
            concept,
            cells: presets
                .into_iter()
                .zip(&columns)
                .map(|(preset, &column)| {
                    preset.map(|preset| Cell {
                        column,
                        preset,
                        result: results.next().unwrap_or(Err(Error::NotRowWise)),
                    })
                })
                .collect(),
        })
        .collect();
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_toolkit_metric_is_in_the_mapping_once() {
        for (i, toolkit) in TOOLKITS.iter().enumerate() {
            for metric in toolkit.metric_names() {
                let rows = CONCEPTS
                    .iter()
                    .filter(|c| c.toolkits[i].is_some_and(|(m, _)| m == *metric))
                    .count();
                // roc_auc_score appears once per average.
                let expected = if *metric == "roc_auc_score" { 3 } else { 1 };
                assert_eq!(rows, expected, "{toolkit} {metric}");
            }
        }
        for metric in Convention::Rankmetrics.metric_names() {
            assert!(
                CONCEPTS.iter().any(|c| c.reference.1 .0 == *metric),
                "{metric}"
            );
        }
        assert!(cell_presets(&Column::all()).is_ok());
    }
}
