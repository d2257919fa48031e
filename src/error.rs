//! The one error type of the crate.

mod kind;

use core::fmt;

use crate::convention::Convention;

pub use kind::Location;

/// What a label had to be, reported by [`Error::InvalidLabel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LabelDomain {
    /// Any finite number; non-zero means relevant.
    NonZero,
    /// Any finite number that is not negative (NDCG's gains).
    NonNegative,
    /// Exactly 0 or 1 (torchmetrics, mldr, MULAN).
    Binary,
    /// scikit-learn's "multilabel-indicator": integral values, at most two distinct ones in the
    /// whole matrix.
    Indicator,
    /// -1, 0 or 1: a relevant document that is never retrieved, an irrelevant one, a relevant
    /// one ([`RetrievalAtK`](crate::RetrievalAtK)'s hit labels).
    Hits,
}

impl fmt::Display for LabelDomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LabelDomain::NonZero => "a finite number",
            LabelDomain::NonNegative => "a finite, non-negative number",
            LabelDomain::Binary => "0 or 1",
            LabelDomain::Indicator => {
                "an integral value, at most two distinct values in y_true (multilabel-indicator)"
            }
            LabelDomain::Hits => "-1, 0 or 1",
        })
    }
}

/// Which input an error is about: in [`Error::location`], and the matrix that
/// [`Error::MatrixContract`] and [`Error::MatrixShapeChanged`] report.
///
/// # Example
/// ```
/// use rankmetrics::Input;
/// assert_eq!(Input::Labels.to_string(), "y_true");
/// assert_eq!(Input::Scores.to_string(), "y_score");
/// assert_eq!(Input::SampleWeights.to_string(), "sample_weight");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Input {
    /// The true labels (`y_true`).
    Labels,
    /// The scores (`y_score`).
    Scores,
    /// The sample weights (`sample_weight`).
    SampleWeights,
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Input::Labels => "y_true",
            Input::Scores => "y_score",
            Input::SampleWeights => "sample_weight",
        })
    }
}

/// Which kind of degenerate row a metric was configured to reject.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Degeneracy {
    /// The row has no relevant label.
    NoRelevant,
    /// Every label of the row is relevant.
    AllRelevant,
}

impl fmt::Display for Degeneracy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Degeneracy::NoRelevant => "no relevant label",
            Degeneracy::AllRelevant => "every label relevant",
        })
    }
}

/// What two accumulators (or an accumulator and a batch) disagree on.
///
/// # Example
/// ```
/// use rankmetrics::{Error, Incompatibility, RankingLoss, RowMetric, TiePolicy};
/// let mut acc = RankingLoss::new(TiePolicy::Max).accumulator();
/// acc.update(&[[1, 0]], &[[0.9, 0.1]], None).unwrap();
/// let err = acc.update(&[[1, 0, 0]], &[[0.9, 0.1, 0.2]], None).unwrap_err();
/// assert_eq!(err, Error::Incompatible(Incompatibility::Labels { expected: 2, found: 3 }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Incompatibility {
    /// The metrics (or their options) differ.
    Metric,
    /// The number of labels differs.
    Labels {
        /// The number the accumulator has seen.
        expected: usize,
        /// The number of the batch (or the other accumulator).
        found: usize,
    },
    /// One side has sample weights and the other has none.
    Weighting,
    /// Both accumulators have seen rows `start..end` (the first such rows): a row counts
    /// once. Shards of one evaluation are numbered apart with `starting_at`.
    Overlap {
        /// The first row both have seen.
        start: usize,
        /// The row after the first run of rows both have seen.
        end: usize,
    },
    /// torchmetrics applies its sigmoid to the whole input when any score lies outside
    /// [0, 1], but these rows and the rows seen before decide it differently (one side holds
    /// such a score, the other none): no batch-by-batch value equals the one-shot value.
    Sigmoid {
        /// Whether the rows seen before call for the sigmoid.
        seen: bool,
    },
}

impl fmt::Display for Incompatibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Incompatibility::Metric => f.write_str("the metrics or their options differ"),
            Incompatibility::Labels { expected, found } => {
                write!(f, "{found} labels where {expected} were seen before")
            }
            Incompatibility::Weighting => f.write_str("weighted and unweighted rows are mixed"),
            Incompatibility::Overlap { start, end } => {
                write!(f, "rows {start}..{end} are in both accumulators")
            }
            Incompatibility::Sigmoid { seen } => {
                let (before, now) = match seen {
                    true => ("hold a score outside [0, 1]", "hold none"),
                    false => ("hold no score outside [0, 1]", "hold one"),
                };
                write!(
                    f,
                    "torchmetrics applies its sigmoid to the whole input when any score lies \
                     outside [0, 1]: the rows seen before {before} and these {now}, so they \
                     cannot be evaluated apart"
                )
            }
        }
    }
}

/// What a per-label runs state ([`LabelRunsAccumulator`](crate::LabelRunsAccumulator)) cannot
/// do exactly, reported by [`Error::NotExactInRuns`]. Runs keep how many relevant and
/// irrelevant samples hold each distinct score of a label, not which samples: whatever reads
/// the samples' order or anything but those counts is refused.
///
/// # Example
/// ```
/// use rankmetrics::{Average, Error, RocAuc, RunsLimit, TiePolicy};
/// let err = RocAuc::new(Average::Macro, TiePolicy::First).runs_accumulator().unwrap_err();
/// assert_eq!(err, Error::NotExactInRuns(RunsLimit::OrderPolicy(TiePolicy::First)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RunsLimit {
    /// Sample weights: a tie group's weighted sums run over its samples in row order.
    SampleWeights,
    /// A policy that orders a tie by the samples' positions (first, last, random).
    OrderPolicy(crate::ties::TiePolicy),
    /// The per-sample (`samples`) average, which ranks each row.
    SamplesAverage,
    /// A metric that reads the scores themselves (pROC's automatic direction compares the
    /// classes' median scores).
    ReadsScores,
    /// A tie grouping that groups no tie: [`TieGrouping::Within`](crate::TieGrouping::Within)
    /// with a tolerance of 0 or less, or NaN, puts each of a tie's samples in a group of its
    /// own, in row order.
    UngroupedTies,
}

impl fmt::Display for RunsLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunsLimit::SampleWeights => f.write_str("sample weights are not kept"),
            RunsLimit::OrderPolicy(p) => write!(
                f,
                "tie policy {} orders ties by the samples' positions, which are not kept",
                p.name()
            ),
            RunsLimit::SamplesAverage => {
                f.write_str("the samples average ranks each row, and rows are not kept")
            }
            RunsLimit::ReadsScores => f.write_str(
                "the metric reads the scores of each class (pROC's automatic direction)",
            ),
            RunsLimit::UngroupedTies => f.write_str(
                "a tie grouping within a tolerance of 0 or less (or NaN) orders tied samples \
                 by their positions, which are not kept",
            ),
        }
    }
}

/// What a serialised state read back breaks, reported by [`Error::InvalidState`]: every state
/// that updates and merges make keeps these rules, so a state that breaks one was altered (or
/// written by something else) and is refused when read, not when used.
///
/// # Example
/// ```
/// use rankmetrics::{Error, StateFault};
/// let err = Error::InvalidState { field: "rows.seen", index: Some(1), fault: StateFault::Order };
/// assert_eq!(err.to_string(),
///     "state read back is invalid at rows.seen[1]: not after the entry before it");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum StateFault {
    /// Another number of entries than the rest of the state implies (values for the rows and
    /// labels seen, runs for the rows seen, ...).
    Length {
        /// The number the rest of the state implies.
        expected: u64,
        /// The number found.
        found: u64,
    },
    /// Not after the entry before it, where the state keeps its entries sorted and apart (row
    /// ranges, runs of rows, runs of scores best first).
    Order,
    /// A value that no update or merge gives; `expected` says what it must be.
    Value {
        /// What the value must be.
        expected: &'static str,
    },
    /// A value that the state's inputs or its metric's constructor refuse (a label, a score,
    /// a weight, a `k`): the error they give.
    Refused(Box<Error>),
}

impl fmt::Display for StateFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateFault::Length { expected, found } => {
                write!(
                    f,
                    "{found} entries where the rest of the state implies {expected}"
                )
            }
            StateFault::Order => f.write_str("not after the entry before it"),
            StateFault::Value { expected } => write!(f, "expected {expected}"),
            StateFault::Refused(error) => error.fmt(f),
        }
    }
}

/// Where [`Error::InvalidState`] points: the field, and the entry when the field is a list.
struct StatePlace<'a>(&'a str, Option<usize>);

impl fmt::Display for StatePlace<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Some(index) => write!(f, "{}[{index}]", self.0),
            None => f.write_str(self.0),
        }
    }
}

/// Why a preset could not be looked up.
///
/// # Example
/// ```
/// use rankmetrics::registry::{Convention, LookupError, Preset};
/// let err = Preset::lookup(Convention::Sklearn, "ndcg", Preset::NO_PARAMS, None).unwrap_err();
/// assert!(matches!(err, LookupError::UnknownMetric { .. }));
///
/// // `?` turns it into the crate's Error, next to evaluation errors.
/// fn coverage(y: &[[u8; 2]], s: &[[f64; 2]]) -> Result<f64, rankmetrics::Error> {
///     let p = Preset::lookup(Convention::Sklearn, "coverage_error", Preset::NO_PARAMS, None)?;
///     p.evaluate(y, s, None)
/// }
/// assert_eq!(coverage(&[[1, 0]], &[[0.2, 0.8]]).unwrap(), 2.0);
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LookupError {
    /// The convention has no metric of that name.
    #[error("{convention} has no metric {metric:?}; it has: {}{}", convention.metric_names().join(", "), did_you_mean(*convention, metric))]
    UnknownMetric {
        /// The convention.
        convention: Convention,
        /// The name asked for.
        metric: String,
    },
    /// A parameter's value is not one the metric takes.
    #[error("parameter {key}={value:?}: expected {expected}")]
    InvalidParam {
        /// The parameter.
        key: String,
        /// The value given.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
    /// The metric takes no parameter of that name (a misspelt key is an error, not ignored).
    #[error(
        "{convention} {metric} takes no parameter {key:?}; {}",
        takes_phrase(takes)
    )]
    UnknownParam {
        /// The convention.
        convention: Convention,
        /// The metric, as the toolkit spells it.
        metric: &'static str,
        /// The key given.
        key: String,
        /// The keys the metric takes ([`Preset::param_keys`](crate::registry::Preset::param_keys)).
        takes: &'static [&'static str],
    },
}

/// The end of [`LookupError::UnknownParam`]'s message.
fn takes_phrase(takes: &[&str]) -> String {
    if takes.is_empty() {
        "it takes none".into()
    } else {
        format!("it takes: {}", takes.join(", "))
    }
}

/// Everything that can go wrong when a metric is evaluated.
///
/// Every variant carries the numbers needed to find the problem (row and column are 0-based);
/// none carries a `String` except [`Error::Lookup`], which repeats the names the caller gave. Validation never modifies the caller's data.
///
/// # Example
/// ```
/// use rankmetrics::{Coverage, Error, RankingMetric, TiePolicy};
/// let y_true = [[1, 0], [0, 1]];
/// let y_score = [[0.5, f64::NAN], [0.1, 0.2]];
/// let err = Coverage::new(TiePolicy::Max).evaluate(&y_true, &y_score, None).unwrap_err();
/// assert!(matches!(err, Error::NonFiniteScore { row: 0, column: 1, .. }));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// `y_true` and `y_score` have different shapes (rows, columns).
    #[error("y_true has shape {expected:?} (rows, labels) but y_score has shape {found:?}")]
    ShapeMismatch {
        /// The shape of `y_true`.
        expected: (usize, usize),
        /// The shape of `y_score`.
        found: (usize, usize),
    },
    /// A row of a nested-vector matrix has a different length than the first row.
    #[error("row {row} has {found} columns, but row 0 has {expected}")]
    RaggedRow {
        /// The offending row.
        row: usize,
        /// The length of row 0.
        expected: usize,
        /// The length of this row.
        found: usize,
    },
    /// A flat buffer's length is not rows × columns.
    #[error("a {rows} x {columns} matrix needs {expected} values, found {found}")]
    DataLength {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        columns: usize,
        /// rows × columns (saturating).
        expected: usize,
        /// The buffer's length.
        found: usize,
    },
    /// The input has no rows.
    #[error("no samples: the input has zero rows")]
    NoSamples,
    /// The input has no columns.
    #[error("no labels: the input has zero columns")]
    NoLabels,
    /// A score is NaN or infinite.
    #[error("y_score at row {row}, column {column} is {value}, not a finite number")]
    NonFiniteScore {
        /// Row of the score.
        row: usize,
        /// Column of the score.
        column: usize,
        /// The value found.
        value: f64,
    },
    /// A label is outside the domain the metric or convention accepts.
    #[error("y_true at row {row}, column {column} is {value}; expected {expected}")]
    InvalidLabel {
        /// Row of the label.
        row: usize,
        /// Column of the label.
        column: usize,
        /// The value found.
        value: f64,
        /// What was expected.
        expected: LabelDomain,
    },
    /// The convention needs more labels per sample than the input has.
    #[error("this metric needs at least {required} labels per sample, found {found}")]
    TooFewLabels {
        /// The minimum number of labels.
        required: usize,
        /// The number of labels given.
        found: usize,
    },
    /// `sample_weight` does not have one entry per row.
    #[error("sample_weight has {found} entries for {expected} samples")]
    WeightLength {
        /// The number of rows.
        expected: usize,
        /// The number of weights.
        found: usize,
    },
    /// A sample weight is negative, NaN or infinite.
    #[error("sample_weight[{row}] is {value}; weights must be finite and non-negative")]
    InvalidWeight {
        /// Row of the weight.
        row: usize,
        /// The value found.
        value: f64,
    },
    /// The weights of the rows that count sum to zero.
    #[error("sample weights sum to zero over the rows that count")]
    ZeroTotalWeight,
    /// A truncation `k` of 0 (graded metrics need `k >= 1`, or no truncation).
    #[error("k is {value}; it must be at least 1 (or absent, for no truncation)")]
    InvalidK {
        /// The value given.
        value: usize,
    },
    /// A logarithm base that is not a finite number greater than 1.
    #[error("log_base is {value}; it must be a finite number greater than 1")]
    InvalidLogBase {
        /// The value given.
        value: f64,
    },
    /// A degenerate row met a metric configured with [`RowRule::Reject`](crate::RowRule::Reject).
    #[error("row {row} has {kind}, which this metric is configured to reject")]
    DegenerateRow {
        /// The offending row.
        row: usize,
        /// What makes it degenerate.
        kind: Degeneracy,
    },
    /// The pooled labels hold a single class, on which the metric is undefined and configured
    /// to fail (mldr's `micro_auc`: "'response' must have two levels").
    #[error("the labels hold a single class, so the metric is undefined")]
    SingleClass,
    /// Interpolated average precision needs at least 2 recall levels.
    #[error("interpolated average precision needs at least 2 recall levels, found {found}")]
    TooFewRecallLevels {
        /// The number of levels asked for.
        found: usize,
    },
    /// Per-sample values were asked of a label-wise or pooled metric, which has none.
    #[error("this metric is label-wise or pooled: it has no per-sample values")]
    NotRowWise,
    /// The tie policy has no exact closed form for this metric (docs/ties.md says which); the
    /// reason is the tie analysis's
    /// ([`TieAnalysis::expected_missing`](crate::TieAnalysis::expected_missing)).
    #[error(
        "tie policy {policy} has no exact closed form for this metric: {reason} (see docs/ties.md)"
    )]
    UnsupportedPolicy {
        /// The policy asked for.
        policy: crate::ties::TiePolicy,
        /// Why it has none.
        reason: &'static str,
    },
    /// A vector of per-label factors (inverse propensities) does not have one entry per label.
    #[error("{found} label weights for {expected} labels")]
    LabelWeightLength {
        /// The number of labels.
        expected: usize,
        /// The number of weights.
        found: usize,
    },
    /// A per-label factor (an inverse propensity) is not a finite positive number, or a label
    /// frequency it is computed from is negative or not finite.
    #[error("label {column}: {value} is not a valid label frequency or inverse propensity")]
    InvalidLabelWeight {
        /// The label (column).
        column: usize,
        /// The value found.
        value: f64,
    },
    /// A propensity model parameter (A, B, or the training size N) is out of its domain.
    #[error("propensity parameter {parameter} is {value}; A and B must be finite, N at least 1")]
    InvalidPropensityParameter {
        /// `"A"`, `"B"` or `"N"`.
        parameter: char,
        /// The value given.
        value: f64,
    },
    /// A sparse matrix's `indptr` does not start at 0, decreases, or does not end at the
    /// number of stored entries; `position` is its first entry that breaks the rule.
    #[error("indptr[{position}] breaks the rule: start at 0, never decrease, end at the number of entries")]
    InvalidIndptr {
        /// The offending position in `indptr` (0 for an empty `indptr`).
        position: usize,
    },
    /// A sparse row stores a column outside `0..n_labels`.
    #[error("row {row} stores column {column}, but there are {n_labels} labels")]
    SparseColumnOutOfRange {
        /// The row.
        row: usize,
        /// The column stored.
        column: usize,
        /// The number of labels.
        n_labels: usize,
    },
    /// A sparse row's columns are not strictly increasing (unsorted, or a duplicate).
    #[error("row {row}: column {column} does not come after the column stored before it")]
    UnsortedSparseRow {
        /// The row.
        row: usize,
        /// The column that is not greater than its predecessor.
        column: usize,
    },
    /// A sparse matrix's gains are not one per stored entry.
    #[error("{found} gains for {expected} stored entries")]
    SparseGainsLength {
        /// The number of stored entries (`indices.len()`).
        expected: usize,
        /// The number of gains.
        found: usize,
    },
    /// Batches or shards of one streaming evaluation disagree.
    #[error("cannot combine: {0}")]
    Incompatible(Incompatibility),
    /// Interpolated average precision was asked for more recall levels than it accepts.
    #[error("interpolated average precision takes at most {max} recall levels, found {found}")]
    TooManyRecallLevels {
        /// The number of levels asked for.
        found: usize,
        /// The most accepted.
        max: usize,
    },
    /// A ranked vector (a row, a column, or the pooled cells) has more items than the kernel
    /// numbers (`u32::MAX`).
    #[error("a ranked vector of {found} items is more than the {max} the kernel ranks")]
    TooManyItems {
        /// The number of items.
        found: usize,
        /// The most accepted.
        max: usize,
    },
    /// A per-label runs state ([`LabelRunsAccumulator`](crate::LabelRunsAccumulator)) cannot
    /// give this metric's value exactly; the row-keeping
    /// [`LabelwiseAccumulator`](crate::LabelwiseAccumulator) can.
    #[error("a per-label runs state cannot give this value exactly: {0}")]
    NotExactInRuns(RunsLimit),
    /// A batch's rows, numbered on from an accumulator's next row, would pass the largest row
    /// number (`usize::MAX - 1`); the batch is refused and the state unchanged.
    #[error("a batch of {rows} rows numbered from row {first_row} passes the largest row number")]
    RowNumberOverflow {
        /// The number the batch's first row would get.
        first_row: usize,
        /// The batch's rows.
        rows: usize,
    },
    /// A serialised state read back (with feature `serde`) breaks a rule that every state made
    /// by updates and merges keeps: it is refused when read. Serde formats report it as their
    /// own error, with this message.
    #[error("state read back is invalid at {}: {fault}", StatePlace(field, *index))]
    InvalidState {
        /// The field, as a path in the serialised form (`rows.seen`, `state.sums`, ...).
        field: &'static str,
        /// The entry of the field, when it is a list.
        index: Option<usize>,
        /// The rule broken.
        fault: StateFault,
    },
    /// A preset could not be looked up by name (from [`registry::Preset::lookup`](crate::registry::Preset::lookup)).
    #[error(transparent)]
    Lookup(#[from] LookupError),
    /// A [`Matrix`](crate::Matrix) implementation broke its contract: [`row`](crate::Matrix::row)
    /// returned a row of another length than [`ncols`](crate::Matrix::ncols), or
    /// [`extend_rows`](crate::Matrix::extend_rows) appended another number of values than
    /// `ncols()` per row asked for (too few when `nrows()` counts rows the data does not hold).
    #[error("the Matrix behind {matrix} broke its contract reading from row {row}: it gave {found} values where ncols() per row asked for {expected}")]
    MatrixContract {
        /// The input whose matrix broke the contract.
        matrix: Input,
        /// The row asked for (the first row of the block, for `extend_rows`).
        row: usize,
        /// The number of values due: `ncols()` times the rows asked for.
        expected: usize,
        /// The number of values returned or appended.
        found: usize,
    },
    /// The memory for a buffer as large as the input was refused: the call stops with nothing
    /// changed (an accumulator keeps its state), so the caller can free memory or pass the rows
    /// in smaller batches.
    #[error("out of memory: a buffer of {bytes} bytes could not be allocated")]
    OutOfMemory {
        /// The size of the buffer asked for.
        bytes: usize,
    },
    /// A [`Matrix`](crate::Matrix)'s `nrows()` or `ncols()` changed while it was read.
    #[error("the Matrix behind {matrix} changed its shape (rows, labels) from {expected:?} to {found:?} while it was read")]
    MatrixShapeChanged {
        /// The input whose matrix changed.
        matrix: Input,
        /// The shape when reading began.
        expected: (usize, usize),
        /// The shape reported later.
        found: (usize, usize),
    },
    /// Per-label values were asked of a row-wise metric, or of a label-wise one averaged over
    /// samples: neither values each label on its own.
    #[error("this metric is row-wise or averages over samples: it has no per-label values")]
    NotLabelwise,
}

/// ". Did you mean ...?" with the names closest to an unknown metric's, or nothing.
fn did_you_mean(convention: Convention, metric: &str) -> String {
    match convention.closest_metric_names(metric).as_slice() {
        [] => String::new(),
        names => format!(". Did you mean {}?", names.join(" or ")),
    }
}
