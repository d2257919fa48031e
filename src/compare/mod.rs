//! Every metric concept under every tie policy and every toolkit's convention, with the tie
//! analysis: the grid `rankmetrics compare` prints and the Python package's `compare()` returns,
//! computed by one [`evaluate_all`](crate::registry::evaluate_all) call (each row ranked once for every cell).
//!
//! # Example
//! ```
//! use rankmetrics::compare::{compare, Column};
//! use rankmetrics::TiePolicy;
//! let (y, s) = ([[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.3, 0.3, 0.3]]);
//! let rows = compare(&y, &s, None, Default::default());
//! let loss = rows.iter().find(|r| r.concept.name == "ranking loss").unwrap();
//! assert_eq!(loss.value(Column::Analysis(TiePolicy::Expected)), Some(0.625));
//! assert_eq!(loss.interval(), Some((0.25, 1.0)));
//! ```

mod chart;
mod grid;
mod notes;
mod summary;
mod table;
pub use chart::{svg, Band, Chart, Mark, Panel, Series, Tick};
#[cfg(feature = "rayon")]
pub use grid::compare_parallel;
pub use grid::{cell_count, compare, layout};
pub use notes::{Flag, Merge, Notes};
pub use summary::Summary;
pub use table::{fixed, Table};

use crate::compat::registry::{Convention, LookupError, Preset, TieAnalysis};
use crate::error::Error;
use crate::ties::TiePolicy;

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
    /// What the value is a mean over: where a cell is NaN, the table names the row or label
    /// that has no value.
    pub over: Over,
}

/// What a concept's value is a mean over, and which of those can have no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Over {
    /// Each row's ranking of its labels; a convention may leave out rows without a relevant
    /// label (or with only relevant ones), and is undefined when it leaves out every row.
    Rows,
    /// Each row as a binary problem (AUC per sample): undefined with a single class.
    Samples,
    /// Each label's column across the samples: undefined without what `Needs` says.
    Labels(Needs),
    /// Every cell pooled into one binary problem: undefined with a single class.
    Pool,
}

impl Over {
    /// What the value is a mean over, as a word: `rows`, `samples`, `labels` or `pool`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{Needs, Over};
    /// assert_eq!(Over::Labels(Needs::Relevant).name(), "labels");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Over::Rows => "rows",
            Over::Samples => "samples",
            Over::Labels(_) => "labels",
            Over::Pool => "pool",
        }
    }
}

/// What a label's column needs to have a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// A relevant and an irrelevant sample (AUC).
    BothClasses,
    /// A relevant sample (average precision).
    Relevant,
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
        over: Over::Rows,
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
        over: Over::Rows,
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
        over: Over::Rows,
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
        over: Over::Rows,
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
        over: Over::Rows,
    },
    Concept {
        name: "is-error",
        reference: (Convention::Rankmetrics, ("is_error", NONE)),
        toolkits: [None, None, None, Some(("IsError", NONE))],
        over: Over::Rows,
    },
    Concept {
        name: "error set size",
        reference: (Convention::Rankmetrics, ("error_set_size", NONE)),
        toolkits: [None, None, None, Some(("ErrorSetSize", NONE))],
        over: Over::Rows,
    },
    Concept {
        name: "DCG",
        reference: (Convention::Rankmetrics, ("dcg", NONE)),
        toolkits: [Some(("dcg_score", NONE)), None, None, None],
        over: Over::Rows,
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
        over: Over::Rows,
    },
    Concept {
        name: "precision@5 (XMC)",
        reference: (Convention::Rankmetrics, ("precision_at_k", NONE)),
        toolkits: [None, None, None, None],
        over: Over::Rows,
    },
    Concept {
        name: "recall@5 (XMC)",
        reference: (Convention::Rankmetrics, ("recall_at_k", NONE)),
        toolkits: [None, None, None, None],
        over: Over::Rows,
    },
    Concept {
        name: "nDCG@5 (XMC, binary relevance)",
        reference: (Convention::Rankmetrics, ("ndcg_at_k", NONE)),
        toolkits: [None, None, None, None],
        over: Over::Rows,
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
        over: Over::Labels(Needs::BothClasses),
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
        over: Over::Pool,
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
        over: Over::Samples,
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
        over: Over::Labels(Needs::Relevant),
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
        over: Over::Labels(Needs::Relevant),
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
        over: Over::Labels(Needs::Relevant),
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
        over: Over::Labels(Needs::Relevant),
    },
    Concept {
        name: "AUC-PR, macro",
        reference: (Convention::Mulan, ("MacroAUCPR", NONE)),
        toolkits: [None, None, None, Some(("MacroAUCPR", NONE))],
        over: Over::Labels(Needs::Relevant),
    },
];

/// How [`compare`] reads the scores for the toolkits whose arithmetic depends on their type.
///
/// # Example
/// ```
/// use rankmetrics::compare::Options;
/// // torchmetrics on float32 preds, whatever the score type holding them.
/// let o = Options { torchmetrics_float32: Some(true) };
/// assert_eq!(Options::default().torchmetrics_float32, None);
/// # let _ = o;
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// torchmetrics' preds dtype: `Some(true)` float32, `Some(false)` float64, `None` the
    /// score type's (`f32` scores are float32 preds).
    pub torchmetrics_float32: Option<bool>,
}

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

    /// The column whose header is `name`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::Column;
    /// use rankmetrics::TiePolicy;
    /// assert_eq!(Column::parse("pessimistic"), Some(Column::Analysis(TiePolicy::Pessimistic)));
    /// assert_eq!(Column::parse("nope"), None);
    /// ```
    pub fn parse(name: &str) -> Option<Column> {
        Column::all().into_iter().find(|c| c.name() == name)
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
    /// The column.
    pub column: Column,
    /// The preset evaluated.
    pub preset: Preset,
    /// Its value, or its error.
    pub result: Result<f64, Error>,
}

/// One row: the concept's cells (in column order; absent where a toolkit lacks the concept)
/// and the summary.
#[derive(Debug)]
pub struct Row {
    /// The concept.
    pub concept: &'static Concept,
    /// One per column of [`Column::all`]; `None` where a toolkit lacks the concept.
    pub cells: Vec<Option<Cell>>,
    /// What the interval and the expected value guarantee on this input (the reference
    /// preset's [`TieAnalysis`], with or without sample weights): every front door flags an
    /// interval whose ends are not proven and an expected value without a closed form.
    pub tie_analysis: TieAnalysis,
    /// Set (and `cells` empty) only if the mapping names a preset the registry does not
    /// know, which the tests rule out.
    pub mapping_error: Option<LookupError>,
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

    /// The values of the columns that have one, in column order.
    pub fn values(&self) -> Vec<(Column, f64)> {
        self.cells
            .iter()
            .flatten()
            .filter_map(|c| Some((c.column, *c.result.as_ref().ok()?)))
            .collect()
    }

    /// The row's interval, expected value, spread and the conventions outside the interval;
    /// none is said to lie outside an interval whose ends are not proven
    /// ([`TieAnalysis::ends_unproven`]), which may be narrower than the true one.
    pub fn summary(&self) -> Summary {
        Summary::of(&self.values()).within(&self.tie_analysis)
    }

    /// The interval [pessimistic, optimistic], lower bound first (for losses the pessimistic
    /// value is the larger).
    pub fn interval(&self) -> Option<(f64, f64)> {
        self.summary().interval
    }

    /// The exact expectation over every ordering of the ties.
    pub fn expected(&self) -> Option<f64> {
        self.summary().expected
    }

    /// Largest minus smallest finite value across the policies and toolkits; `None` with
    /// fewer than two.
    pub fn spread(&self) -> Option<f64> {
        self.summary().spread
    }

    /// Whether `column`'s value lies outside the interval (beyond rounding).
    pub fn outside(&self, column: Column) -> bool {
        let (Some(interval), Some(v)) = (self.interval(), self.value(column)) else {
            return false;
        };
        column.is_convention() && self.tie_analysis.ends_unproven.is_none() && outside(v, interval)
    }

    /// The conventions whose values lie outside the interval.
    pub fn outside_interval(&self) -> Vec<Column> {
        self.summary().outside
    }
}

/// torchmetrics' preds dtype in these rows (`"float32"` or `"float64"`), as its cells echo
/// it; `None` when no cell says.
///
/// # Example
/// ```
/// use rankmetrics::compare::{compare, torchmetrics_dtype, Options};
/// let rows = compare(&[[1, 0]], &[[0.5f32, 0.2]], None, Options { torchmetrics_float32: Some(true) });
/// assert_eq!(torchmetrics_dtype(&rows).as_deref(), Some("float32"));
/// ```
pub fn torchmetrics_dtype(rows: &[Row]) -> Option<String> {
    let cells = rows.iter().flat_map(|r| r.cells.iter().flatten());
    cells
        .filter(|c| c.column == Column::Toolkit(Convention::Torchmetrics))
        .flat_map(|c| c.preset.params())
        .find(|(k, _)| *k == "dtype")
        .map(|(_, v)| v.to_string())
}

/// Whether `v` lies outside `[lo, hi]` by more than rounding (relative 1e-9).
pub fn outside(v: f64, (lo, hi): (f64, f64)) -> bool {
    let slack = 1e-9 * lo.abs().max(hi.abs()).max(1.0);
    v < lo - slack || v > hi + slack
}

/// The preset of `metric` with its parameters, `extra` ones after them, and `ties`.
///
/// # Errors
/// The registry's error if it does not know the preset (a bug of the mapping, which the tests
/// rule out).
fn lookup(
    convention: Convention, (metric, params): Named, extra: &[(&str, String)],
    ties: Option<TiePolicy>,
) -> Result<Preset, LookupError> {
    let params: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .chain(extra.iter().map(|(k, v)| (k.to_string(), v.clone())))
        .collect();
    Preset::lookup(convention, metric, &params, ties)
}

impl Concept {
    /// What the tie analysis of this concept's reference guarantees, on an input with sample
    /// weights (`weighted`) or without; exact for a mapping the registry does not know (no
    /// value is shown then).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::CONCEPTS;
    /// let map = CONCEPTS.iter().find(|c| c.name == "label AP, macro").unwrap();
    /// assert!(map.tie_analysis(false).is_exact());
    /// assert!(map.tie_analysis(true).ends_unproven.is_some());
    /// ```
    pub fn tie_analysis(&self, weighted: bool) -> TieAnalysis {
        let (convention, named) = self.reference;
        lookup(convention, named, &[], None).map_or(
            TieAnalysis {
                ends_unproven: None,
                expected_missing: None,
            },
            |preset| preset.tie_analysis(weighted),
        )
    }

    /// The reference preset under `ties`, with the `extra` parameters; `None` when the
    /// reference does not take one of them (the registry would ignore it).
    pub fn reference_with(&self, extra: &[(&str, String)], ties: TiePolicy) -> Option<Preset> {
        let (convention, named) = self.reference;
        let keys = Preset::param_keys(convention, named.0);
        if !extra.iter().all(|(k, _)| keys.contains(k)) {
            return None;
        }
        lookup(convention, named, extra, Some(ties)).ok()
    }
}
