//! Label-wise, pooled and per-sample averages of binary ranking metrics (AUC, average
//! precision): the one ranking kernel run over each column, over all cells, or over each row.
//!
//! A [`Matrix`] hands out rows only and a column metric needs every row before it can rank a
//! column, so the columns are read a block at a time from inputs that lend their rows, else
//! the cells are copied once, column by column; a pooled (micro) ranking read whole is copied
//! row by row. A pooled ranking that a metric can read in pieces is ranked a piece at a time
//! from the input instead, and the per-sample vectors are the input's rows: no copy of the
//! n·L cells.
//!
//! The files, from the bottom up (the two folders list their own files):
//! * `vector.rs`: one vector to rank ([`Vector`], its [`Weights`](vector::Weights));
//!   `vector_metric.rs`: the binary metric that values it ([`VectorMetric`]).
//! * `pairs.rs`: [`AucSums`](pairs::AucSums), the relevant/irrelevant pair sums AUC reads,
//!   whole or piece by piece; `medians.rs`: R's median of a class, of one vector or of a pool
//!   in pieces (pROC's automatic direction).
//! * `means.rs`: how the per-vector values are combined (the undefined rule and the mean).
//! * `lanes.rs`: one metric's progress (`VectorLane`) and one vector ranked for every lane.
//! * `cells.rs`: the cells, read and validated once, copied by column or by row.
//! * `columns.rs`, `samples.rs`: the vectors of the label-wise and per-sample averages.
//! * `micro/`: the pooled vector of the micro average, whole or a piece at a time (the cells
//!   bucketed into pieces, the windows of pieces held at once, what a metric keeps from piece
//!   to piece, the pieces on a rayon pool).
//! * `drivers.rs`: validation, then every vector valued, serially or on a rayon pool.
//! * `runs/`: the vectors kept as runs (distinct scores counted by class), merged and valued
//!   without the rows, and [`LabelRunsAccumulator`], which keeps them.
//! * `read_back.rs`: a [`LabelwiseAccumulator`](crate::LabelwiseAccumulator) read back,
//!   checked against its metric's label domain.
//! * `builders.rs`: the option builders every label-wise metric shares.
//! * this file: the options ([`Average`], [`Undefined`], [`Mean`], [`LabelwiseOptions`]) and
//!   the entry points.

mod builders;
mod cells;
mod columns;
mod drivers;
mod lanes;
mod means;
pub(crate) mod medians;
pub(crate) mod micro;
pub(crate) mod pairs;
#[cfg(feature = "serde")]
mod read_back;
pub(crate) mod runs;
mod samples;
pub(crate) mod vector;
pub(crate) mod vector_metric;

pub(crate) use builders::labelwise_builders;
// The micro average's fold under its earlier path, which the registry's plans import.
pub(crate) use micro::fold as piece_sums;
pub use micro::windows::set_micro_pool_cells;
pub use runs::accumulator::LabelRunsAccumulator;
pub(crate) use runs::runs_limit;
pub(crate) use vector::Vector;
pub(crate) use vector_metric::VectorMetric;

use crate::error::{Error, LabelDomain};
use crate::kernel::Ranking;
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::names::UnknownName;
use crate::score::Score;
use crate::ties::{TieAnalysis, TiePolicy};

/// Over what a binary metric runs, and how its values are averaged (scikit-learn's `average`).
///
/// # Example
/// ```
/// use rankmetrics::{Average, RocAuc, RankingMetric, TiePolicy};
/// let (y, s) = ([[1, 0], [0, 1]], [[0.9, 0.2], [0.1, 0.8]]);
/// let micro = RocAuc::new(Average::Micro, TiePolicy::Average);
/// assert_eq!(micro.evaluate(&y, &s, None).unwrap(), 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Average {
    /// All n·L cells pooled into one binary problem; a sample's weight applies to its cells.
    Micro,
    /// Each label (column) with the sample weights, then the plain mean over labels.
    Macro,
    /// Each label with the sample weights, then the mean weighted by the label's relevant
    /// weight Σᵢ wᵢ·yᵢⱼ. Labels of weight 0 are left out (scikit-learn forces them to 0), and
    /// a total weight below 1e-8 gives 0, as scikit-learn's `isclose(…, 0)` does.
    Weighted,
    /// Each sample (row) across its labels, unweighted, then the mean weighted by the sample
    /// weights; samples of weight 0 are left out.
    Samples,
}

impl Average {
    /// The averaging called `name`, as scikit-learn's `average` names it: `micro`, `macro`,
    /// `weighted` or `samples`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::Average;
    /// assert_eq!(Average::parse("weighted"), Some(Average::Weighted));
    /// assert_eq!(Average::parse("binary"), None);
    /// ```
    pub fn parse(name: &str) -> Option<Average> {
        Some(match name {
            "micro" => Average::Micro,
            "macro" => Average::Macro,
            "weighted" => Average::Weighted,
            "samples" => Average::Samples,
            _ => return None,
        })
    }
}

/// Whether the items of a vector carry the sample weights (`weighted`: weights are given):
/// under [`Average::Samples`] the weights weigh the mean over rows, not a row's labels.
pub(crate) fn items_weighted(average: Average, weighted: bool) -> bool {
    weighted && average != Average::Samples
}

/// Whether a metric with options `o` can take its tie policy as a geometric mean over labels:
/// the mean over orderings of a geometric mean needs E[x^(1/L)] per label, which has no closed
/// form, so [`TiePolicy::Expected`] is refused.
pub(crate) fn geometric_mean_policy(o: &LabelwiseOptions) -> Result<(), Error> {
    if o.mean == Mean::Geometric && o.ranking.ties == TiePolicy::Expected {
        return Err(Error::UnsupportedPolicy {
            policy: TiePolicy::Expected,
            reason: GEOMETRIC_MEAN_EXPECTED,
        });
    }
    Ok(())
}

/// What the tie analysis of `metric` guarantees on an input with sample weights (`weighted`)
/// or without: the metric's own reasons for its vectors, and the geometric mean's.
pub(crate) fn tie_analysis<M: VectorMetric>(metric: &M, weighted: bool) -> TieAnalysis {
    let o = metric.options();
    let items_weighted = items_weighted(o.average, weighted);
    let geometric = (o.mean == Mean::Geometric).then_some(GEOMETRIC_MEAN_EXPECTED);
    TieAnalysis {
        ends_unproven: metric.ends_unproven(items_weighted),
        expected_missing: metric.expected_missing(items_weighted).or(geometric),
    }
}

/// Why weighted label-wise precision's ends are not proven.
pub(crate) const WEIGHTED_PRECISION_ENDS: &str = "with sample weights, label-wise precision also \
     depends on the order among relevant items of different weights: optimistic and \
     pessimistic put relevant items first and last (equal ones in row order), which are \
     orderings inside the interval but not proven to be its ends";

/// Why pROC's automatic direction leaves the ends unproven.
pub(crate) const AUTO_DIRECTION_ENDS: &str = "pROC chooses each vector's direction from its class \
     medians and reads a reversed vector the other way round, so optimistic and pessimistic \
     mix each vector's best and worst ordering: values of orderings, not proven to be the \
     interval's ends";

/// Why weighted label-wise average precision has no expected value.
pub(crate) const WEIGHTED_PRECISION_EXPECTED: &str =
    "with sample weights, label-wise precision is a \
     ratio of random weighted sums: no closed-form mean over orderings";

/// Why interpolated average precision has no expected value.
pub(crate) const INTERPOLATED_EXPECTED: &str =
    "the running maximum of interpolated precision has no \
     closed-form mean over orderings";

/// Why a geometric mean over labels has no expected value.
pub(crate) const GEOMETRIC_MEAN_EXPECTED: &str =
    "the mean over orderings of a geometric mean over \
     labels needs each label's distribution, not its mean: no closed form";

/// What a vector (column, row or pool) on which the metric is undefined contributes: for AUC a
/// single-class vector, for average precision one without a relevant label.
///
/// # Example
/// ```
/// use rankmetrics::{Average, RocAuc, RankingMetric, TiePolicy, Undefined};
/// let (y, s) = ([[1, 0], [1, 1]], [[0.9, 0.2], [0.1, 0.8]]);
/// let auc = RocAuc::new(Average::Macro, TiePolicy::Average);
/// assert!(auc.evaluate(&y, &s, None).unwrap().is_nan()); // column 0 is all relevant
/// let half = auc.on_undefined(Undefined::Value(0.5));
/// assert_eq!(half.evaluate(&y, &s, None).unwrap(), 0.75);
/// assert_eq!(auc.on_undefined(Undefined::Skip).evaluate(&y, &s, None).unwrap(), 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Undefined {
    /// NaN, which propagates to the mean (scikit-learn's ROC AUC, MULAN).
    Nan,
    /// This value, counted in the mean (mldr's `undefined_value`).
    Value(#[cfg_attr(feature = "serde", serde(with = "crate::state_format::f64_bits"))] f64),
    /// Left out of the mean (mldr's `NA` with `na.rm = TRUE`, MULAN's MAP); NaN if every
    /// vector is.
    Skip,
    /// An error: [`Error::SingleClass`] (mldr's `micro_auc`).
    Reject,
}

/// Reads an averaging's name, as [`Average::parse`] does; any other text is an
/// [`UnknownName`] that lists the names.
///
/// # Example
/// ```
/// use rankmetrics::Average;
/// assert_eq!("samples".parse::<Average>(), Ok(Average::Samples));
/// assert_eq!("binary".parse::<Average>().unwrap_err().valid().len(), 4);
/// ```
impl core::str::FromStr for Average {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const NAMES: &[&str] = &["micro", "macro", "weighted", "samples"];
        Average::parse(s).ok_or_else(|| UnknownName::new("averaging", s, NAMES))
    }
}

/// Reads an undefined rule: `nan` ([`Undefined::Nan`], as is any text that reads as a NaN),
/// `skip`, `error` ([`Undefined::Reject`]) or a number ([`Undefined::Value`]); any other text
/// is an [`UnknownName`] that lists them.
///
/// # Example
/// ```
/// use rankmetrics::Undefined;
/// assert_eq!("skip".parse::<Undefined>(), Ok(Undefined::Skip));
/// assert_eq!("0.5".parse::<Undefined>(), Ok(Undefined::Value(0.5)));
/// assert_eq!("NaN".parse::<Undefined>(), Ok(Undefined::Nan));
/// assert!("always".parse::<Undefined>().unwrap_err().to_string().contains("or a number"));
/// ```
impl core::str::FromStr for Undefined {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const NAMES: &[&str] = &["nan", "skip", "error", "a number"];
        Ok(match s {
            "skip" => Undefined::Skip,
            "error" => Undefined::Reject,
            _ => match s.parse::<f64>() {
                // "nan" included: any NaN is the rule that gives NaN.
                Ok(v) if v.is_nan() => Undefined::Nan,
                Ok(v) => Undefined::Value(v),
                Err(_) => return Err(UnknownName::new("undefined rule", s, NAMES)),
            },
        })
    }
}

/// How the per-vector values are combined.
///
/// # Example
/// ```
/// use rankmetrics::Mean;
/// assert_ne!(Mean::Arithmetic, Mean::Geometric);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Mean {
    /// The (weighted) arithmetic mean, summed with compensation.
    Arithmetic,
    /// The arithmetic mean as a plain left-to-right sum divided by the count: MULAN's
    /// `Utils.mean`, reproduced bit for bit.
    Sequential,
    /// `(Π vᵢ)^(1/count)`, the product taken left to right (MULAN's geometric variants).
    Geometric,
}

/// The options every label-wise metric has.
///
/// # Example
/// ```
/// use rankmetrics::{Average, LabelwiseOptions, TiePolicy, Undefined};
/// let o = LabelwiseOptions::new(Average::Macro, TiePolicy::Average);
/// assert_eq!(o.undefined, Undefined::Nan);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LabelwiseOptions {
    /// The ranking inside each vector (ties inside a column are between samples, in row order).
    pub ranking: Ranking,
    /// Over what the metric runs and how it averages.
    pub average: Average,
    /// What an undefined vector contributes.
    pub undefined: Undefined,
    /// How the values are combined.
    pub mean: Mean,
    /// Which label values are accepted.
    pub labels: LabelDomain,
    /// NaN when no vector is defined, whatever [`undefined`](Self::undefined) says (mldr:
    /// `mean()` of an empty `sapply` result is `NA`).
    pub nan_if_none_defined: bool,
    /// A one-column input is one binary problem and `average` is ignored (scikit-learn).
    pub one_column_binary: bool,
}

impl LabelwiseOptions {
    /// `average` with `ties`, exact tie grouping, NaN for undefined vectors, the compensated
    /// arithmetic mean, labels 0 or 1.
    pub const fn new(average: Average, ties: TiePolicy) -> Self {
        LabelwiseOptions {
            ranking: Ranking::new(ties),
            average,
            undefined: Undefined::Nan,
            mean: Mean::Arithmetic,
            labels: LabelDomain::Binary,
            nan_if_none_defined: false,
            one_column_binary: false,
        }
    }
}

/// Validates the inputs, runs `metric` over the vectors its averaging asks for and combines
/// the values.
pub(crate) fn evaluate<M, T, Y, S>(
    metric: &M, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
) -> Result<f64, Error>
where
    M: VectorMetric,
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    let values = evaluate_many(
        core::slice::from_ref(metric),
        y_true,
        y_score,
        sample_weight,
    );
    let Ok([value]) = <[_; 1]>::try_from(values) else {
        unreachable!("one metric in, one value out")
    };
    value
}

/// Evaluates several label-wise metrics on the same data: the cells are read and validated
/// once, each vector (column, row or the pooled cells) is sorted once per tie grouping and
/// ranked once per policy, and each metric reads that ranking. Each metric's values are
/// combined in the same order as alone, so every result equals, bitwise, its own evaluation.
pub(crate) fn evaluate_many<M, T, Y, S>(
    metrics: &[M], y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
) -> Vec<Result<f64, Error>>
where
    M: VectorMetric,
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    let (run, check) = (drivers::vectors, drivers::check_all_rows);
    drivers::evaluate_vector_lanes(metrics, y_true, y_score, sample_weight, run, check)
}

/// [`evaluate_many`] on the threads of the current rayon pool: bitwise the same values.
#[cfg(feature = "rayon")]
pub(crate) fn evaluate_many_parallel<M, T, Y, S>(
    metrics: &[M], y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
) -> Vec<Result<f64, Error>>
where
    M: VectorMetric + Sync,
    T: Score,
    Y: LabelMatrix + Sync + ?Sized,
    Y::Elem: Sync,
    S: ScoreMatrix<T> + Sync + ?Sized,
{
    drivers::evaluate_vector_lanes(
        metrics,
        y_true,
        y_score,
        sample_weight,
        drivers::vectors_parallel,
        drivers::check_all_rows_parallel,
    )
}
