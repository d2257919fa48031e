//! The core trait [`RankingMetric`] and the row-wise machinery behind it ([`RowMetric`]).

use std::ops::Range;

use crate::accumulator::RowState;
use crate::kernel::Reach;

use crate::matrix::RowReader;
use crate::sum::{Summation, WeightedMean};
use crate::{
    Degeneracy, Error, Label, LabelDomain, Matrix, RankedRow, Ranker, Ranking, RelevantEnd, Score,
    TiePolicy,
};

/// A multilabel ranking metric over score type `T` (`f32` or `f64`).
///
/// # Contract
/// * `y_true` and `y_score` are n × L matrices (rows = samples, columns = labels); a label is
///   relevant when it is non-zero. `sample_weight`, when given, has one finite, non-negative
///   weight per row.
/// * The result is a pure function of the inputs and the metric's options: evaluating twice
///   gives bitwise the same value; nothing is cached or mutated, the caller's data included.
/// * Ties are ranked by the metric's [`TiePolicy`](crate::TiePolicy), through the crate's one
///   ranking kernel ([`Ranker`]).
/// * Bad input returns an [`Error`] that says what and where; no input panics.
/// * Results are `f64` whatever `T` is: sums run in `f64` with compensation.
///
/// Row-wise metrics get this trait from [`RowMetric`], which adds per-sample values.
///
/// # Example
/// ```
/// use rankmetrics::{AveragePrecision, RankingMetric, TiePolicy};
/// let y_true = [[1, 0, 0], [0, 0, 1]];
/// let y_score = [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]];
/// let lrap = AveragePrecision::new(TiePolicy::Max).evaluate(&y_true, &y_score, None).unwrap();
/// assert!((lrap - 5.0 / 12.0).abs() < 1e-15);
/// ```
pub trait RankingMetric<T: Score> {
    /// The metric over all rows: a weighted mean of per-row values unless the metric says
    /// otherwise.
    ///
    /// # Errors
    /// Shape, label, score and weight problems, each as its own [`Error`] variant.
    fn evaluate<Y, S>(
        &self,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[T]>,
    ) -> Result<f64, Error>
    where
        Y: Matrix + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + ?Sized;
}

/// What a row-wise metric does with a degenerate row (no relevant label, or all relevant).
///
/// # Example
/// ```
/// use rankmetrics::{AveragePrecision, RankingMetric, RowRule, TiePolicy};
/// let (y, s) = ([[0, 0], [1, 0]], [[0.1, 0.2], [0.1, 0.2]]);
/// let ap = AveragePrecision::new(TiePolicy::Max);
/// assert_eq!(ap.evaluate(&y, &s, None).unwrap(), 0.75); // (1 + 0.5) / 2
/// let skip = ap.on_no_relevant(RowRule::Skip); // MULAN's rule
/// assert_eq!(skip.evaluate(&y, &s, None).unwrap(), 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RowRule {
    /// Apply the metric's formula (which may give NaN where it divides by zero).
    Formula,
    /// The row takes this value and counts in the mean.
    Value(f64),
    /// The row is left out of the mean (its weight too). Per-sample output gives `None`.
    Skip,
    /// The row is an error: [`Error::DegenerateRow`].
    Reject,
}

/// What a metric returns when the weights of the rows that count sum to zero.
///
/// # Example
/// ```
/// use rankmetrics::{sklearn, ZeroWeight};
/// let (y, s, w) = ([[1, 0], [0, 1]], [[0.5, 0.2], [0.1, 0.3]], [0.0, 0.0]);
/// assert!(sklearn::label_ranking_average_precision_score(&y, &s, Some(&w)).unwrap().is_nan());
/// assert!(sklearn::coverage_error(&y, &s, Some(&w)).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ZeroWeight {
    /// [`Error::ZeroTotalWeight`].
    Error,
    /// NaN (scikit-learn's LRAP).
    Nan,
}

/// The options every row-wise metric has: ranking, degenerate-row rules, label domain, minimum
/// label count, the zero-weight rule and the summation.
///
/// # Example
/// ```
/// use rankmetrics::{RowOptions, RowRule, TiePolicy};
/// let o = RowOptions::new(TiePolicy::Max, RowRule::Value(0.0), RowRule::Formula);
/// assert_eq!(o.min_labels, 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RowOptions {
    /// The ranking the formula reads.
    pub ranking: Ranking,
    /// The rule for rows with no relevant label.
    pub no_relevant: RowRule,
    /// The rule for rows whose labels are all relevant.
    pub all_relevant: RowRule,
    /// Which label values are accepted.
    pub labels: LabelDomain,
    /// The fewest labels per row accepted.
    pub min_labels: usize,
    /// What a zero total weight gives.
    pub zero_weight: ZeroWeight,
    /// How row values are summed.
    pub summation: Summation,
}

impl RowOptions {
    /// Options with the given tie policy and degenerate-row rules, exact tie grouping, any
    /// finite label, at least one label, an error for zero total weight, and compensated sums.
    pub const fn new(ties: TiePolicy, no_relevant: RowRule, all_relevant: RowRule) -> Self {
        RowOptions {
            ranking: Ranking::new(ties),
            no_relevant,
            all_relevant,
            labels: LabelDomain::NonZero,
            min_labels: 1,
            zero_weight: ZeroWeight::Error,
            summation: Summation::Compensated,
        }
    }
}

/// A metric defined by one value per row, averaged over rows.
///
/// Implement [`options`](Self::options) and [`row_value`](Self::row_value) (the formula on one
/// [`RankedRow`]); [`RankingMetric`] and [`per_sample`](Self::per_sample) follow, with
/// validation and averaging written once for all metrics. `row_value` is called for every
/// row whose degenerate-row rule is [`RowRule::Formula`], and for every non-degenerate row.
///
/// # Example
/// ```
/// use rankmetrics::{RankedRow, RankingMetric, RowMetric, RowOptions, RowRule, TiePolicy};
/// /// Precision@1 with ties broken by column order.
/// struct PrecisionAt1;
/// impl RowMetric for PrecisionAt1 {
///     fn options(&self) -> RowOptions {
///         RowOptions::new(TiePolicy::First, RowRule::Formula, RowRule::Formula)
///     }
///     fn row_value(&self, row: &RankedRow<'_>) -> f64 {
///         row.blocks()[0].relevant as f64
///     }
/// }
/// let v = PrecisionAt1.evaluate(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.5, 0.5]], None).unwrap();
/// assert_eq!(v, 0.5);
/// ```
pub trait RowMetric {
    /// The metric's options.
    fn options(&self) -> RowOptions;
    /// The metric's value on one ranked row.
    fn row_value(&self, row: &RankedRow<'_>) -> f64;

    /// The number of top positions the formula reads, if it reads no further. Rows are then
    /// ranked by [`Ranker::rank_top`] (one pass plus a sort of the top, instead of a sort of
    /// the whole row), or, for a metric that also
    /// [reads only relevant blocks](Self::reads_only_relevant_blocks), counted as by
    /// [`Ranker::rank_relevant`] down to the first relevant block at position k or below; and
    /// `row_value` may read only what [`RankedRow::covers_top`] covers. `None` (the default):
    /// the whole row is ranked.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, PrecisionAtK, RowMetric, TiePolicy};
    /// assert_eq!(Coverage::new(TiePolicy::Max).top_k(), None);
    /// assert_eq!(PrecisionAtK::new(TiePolicy::Average, 5).unwrap().top_k(), Some(5));
    /// ```
    fn top_k(&self) -> Option<usize> {
        None
    }

    /// Per-label factors (one per column) that multiply the labels' gains before the row is
    /// ranked, or `None` (the default). Propensity-scored metrics weight each label by its
    /// inverse propensity this way, so that the blocks' gains and the optimistic and
    /// pessimistic orders take the weights into account.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, RowMetric, TiePolicy};
    /// assert!(Coverage::new(TiePolicy::Max).gain_weights().is_none());
    /// ```
    fn gain_weights(&self) -> Option<&[f64]> {
        None
    }

    /// An empty [`RowAccumulator`](crate::RowAccumulator) for this metric: evaluate in
    /// batches and merge shards.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, RowMetric, TiePolicy};
    /// let mut acc = Coverage::new(TiePolicy::Max).accumulator();
    /// acc.update(&[[1, 0]], &[[0.2, 0.9]], None).unwrap();
    /// acc.update(&[[0, 1]], &[[0.2, 0.9]], None).unwrap();
    /// assert_eq!(acc.value().unwrap(), 0.5);
    /// ```
    fn accumulator(&self) -> crate::RowAccumulator<Self>
    where
        Self: Sized + Clone,
    {
        crate::RowAccumulator::new(self.clone())
    }

    /// Whether [`row_value`](Self::row_value) reads only [`RankedRow::relevant_blocks`], the
    /// counts, the sharing and the gains (never [`RankedRow::blocks`] or
    /// [`RankedRow::order`]). Then rows with few relevant labels are ranked by counting
    /// instead of sorting ([`Ranker::rank_relevant`]). Default: `false`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{AveragePrecision, RowMetric, TiePolicy};
    /// assert!(AveragePrecision::new(TiePolicy::Max).reads_only_relevant_blocks());
    /// ```
    fn reads_only_relevant_blocks(&self) -> bool {
        false
    }

    /// The one relevant block [`row_value`](Self::row_value) reads, if it reads only one of
    /// [`RankedRow::relevant_blocks`]: the first (one-error) or the last (coverage), besides
    /// the counts, the sharing and the gains. Then rows are ranked by
    /// [`Ranker::rank_relevant_end`] (no sort, two passes over the row), and `row_value`
    /// may see only that block. Implies
    /// [`reads_only_relevant_blocks`](Self::reads_only_relevant_blocks). Default: `None`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{AveragePrecision, OneError, RelevantEnd, RowMetric, TiePolicy};
    /// assert_eq!(OneError::new(TiePolicy::Max).reads_one_relevant_block(), Some(RelevantEnd::First));
    /// assert_eq!(AveragePrecision::new(TiePolicy::Max).reads_one_relevant_block(), None);
    /// ```
    fn reads_one_relevant_block(&self) -> Option<RelevantEnd> {
        None
    }

    /// The value of every row, in row order (`None` for skipped rows). Validation is the same
    /// as for [`RankingMetric::evaluate`].
    ///
    /// # Errors
    /// As [`RankingMetric::evaluate`], except for weight errors (no weights are taken).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{RankingLoss, RowMetric, TiePolicy};
    /// let v = RankingLoss::new(TiePolicy::Max)
    ///     .per_sample(&[[1, 0], [0, 1]], &[[0.5, 0.5], [0.1, 0.9]])
    ///     .unwrap();
    /// assert_eq!(v, [Some(1.0), Some(0.0)]);
    /// ```
    fn per_sample<T, Y, S>(&self, y_true: &Y, y_score: &S) -> Result<Vec<Option<f64>>, Error>
    where
        Self: Sized,
        T: Score,
        Y: Matrix + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + ?Sized,
    {
        let mut values = Vec::with_capacity(y_true.nrows());
        let mut indicator = IndicatorValues::default();
        for_each_row(self, y_true, y_score, 0, &mut indicator, |_, v| {
            values.push(v)
        })?;
        Ok(values)
    }
}

impl<T: Score, M: RowMetric> RankingMetric<T> for M {
    fn evaluate<Y, S>(
        &self,
        y_true: &Y,
        y_score: &S,
        sample_weight: Option<&[T]>,
    ) -> Result<f64, Error>
    where
        Y: Matrix + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + ?Sized,
    {
        // One batch of a fresh accumulator: streaming and one-shot share every step.
        let mut state = RowState::new(self.options(), 0);
        state.update(self, y_true, y_score, sample_weight)?;
        state.value(self.options())
    }
}

/// The weighted mean of the row values, NaN when every row was skipped, and the zero-weight
/// rule when the weights sum to zero.
pub(crate) fn mean_value(mean: &WeightedMean, zero_weight: ZeroWeight) -> Result<f64, Error> {
    Ok(match mean.value() {
        Some(v) => v,
        None if mean.count() == 0 => f64::NAN, // every row skipped: undefined
        None => match zero_weight {
            ZeroWeight::Nan => f64::NAN,
            ZeroWeight::Error => return Err(Error::ZeroTotalWeight),
        },
    })
}

/// Checks a weight vector: one finite, non-negative entry per row.
pub(crate) fn check_weights<T: Score>(w: &[T], nrows: usize) -> Result<&[T], Error> {
    if w.len() != nrows {
        return Err(Error::WeightLength {
            expected: nrows,
            found: w.len(),
        });
    }
    match w.iter().position(|x| !(x.is_finite() && *x >= T::zero())) {
        Some(row) => Err(Error::InvalidWeight {
            row,
            value: w[row].as_f64(),
        }),
        None => Ok(w),
    }
}

/// Checks shapes, then ranks each row and hands its index in the batch and its value (or `None`
/// if skipped) to `sink`. Each row's scores and labels are validated before the row is ranked,
/// so the first bad row in row order is the one reported. Rows are numbered from `first_row`
/// (in errors and for [`TiePolicy::Random`]'s streams), so a batch of a longer stream behaves as
/// in the one-shot evaluation; `indicator` carries scikit-learn's label-type check across
/// batches.
pub(crate) fn for_each_row<M, T, Y, S>(
    metric: &M,
    y_true: &Y,
    y_score: &S,
    first_row: usize,
    indicator: &mut IndicatorValues,
    sink: impl FnMut(usize, Option<f64>),
) -> Result<(), Error>
where
    M: RowMetric,
    T: Score,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + ?Sized,
{
    let checked = check_inputs(metric, y_true, y_score, first_row, indicator)?;
    RowScratch::default().each_row(metric, y_true, y_score, &checked, 0..checked.rows, sink)
}

/// What [`check_inputs`] found: the number of rows and how much of scikit-learn's label-type
/// check is left to the row pass.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CheckedInputs {
    pub(crate) rows: usize,
    /// Rows from this one on must hold only these two label values (the row pass checks them,
    /// one read of the labels for both checks).
    indicator_from: Option<(usize, [f64; 2])>,
    /// The number of the first row, in errors and for [`TiePolicy::Random`]'s streams.
    first_row: usize,
}

/// The checks made once per input before rows are read: shapes and, for indicator labels,
/// the label matrix up to the row where both label values are known (with the values `seen`
/// in earlier batches); the row pass checks the rest against them.
pub(crate) fn check_inputs<M, Y, S>(
    metric: &M,
    y_true: &Y,
    y_score: &S,
    first_row: usize,
    seen: &mut IndicatorValues,
) -> Result<CheckedInputs, Error>
where
    M: RowMetric,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix + ?Sized,
{
    let options = metric.options();
    let (n, _) = check_shapes(y_true, y_score, options.min_labels)?;
    let mut indicator_from = None;
    if options.labels == LabelDomain::Indicator {
        let checked = check_indicator_rows(y_true, 0..n, first_row, seen, true)?;
        if let [Some(a), Some(b)] = *seen {
            indicator_from = Some((checked, [a, b]));
        }
    }
    if let Some(w) = metric.gain_weights().filter(|w| w.len() != y_true.ncols()) {
        return Err(Error::LabelWeightLength {
            expected: y_true.ncols(),
            found: w.len(),
        });
    }
    Ok(CheckedInputs {
        rows: n,
        indicator_from,
        first_row,
    })
}

/// What evaluating rows needs besides the inputs: the kernel and a row of gains. One per
/// thread.
#[derive(Debug, Default)]
pub(crate) struct RowScratch {
    ranker: Ranker,
    gains: Vec<f64>,
}

impl RowScratch {
    /// Validates, ranks and scores the rows `rows` (after [`check_inputs`], which found
    /// `checked`), handing each value to `sink` in row order.
    pub(crate) fn each_row<M, T, Y, S>(
        &mut self,
        metric: &M,
        y_true: &Y,
        y_score: &S,
        checked: &CheckedInputs,
        rows: Range<usize>,
        mut sink: impl FnMut(usize, Option<f64>),
    ) -> Result<(), Error>
    where
        M: RowMetric,
        T: Score,
        Y: Matrix + ?Sized,
        Y::Elem: Label,
        S: Matrix<Elem = T> + ?Sized,
    {
        let options = metric.options();
        let (l, domain, ranking) = (y_true.ncols(), options.labels, options.ranking);
        let (reach, label_weights) = (RowReach::of(metric), metric.gain_weights());
        let (mut truth, mut scores) = (RowReader::new(y_true), RowReader::new(y_score));
        self.gains.resize(l, 0.0);
        let (ranker, gains) = (&mut self.ranker, &mut self.gains);
        let first_row = checked.first_row;
        for i in rows {
            let global = first_row + i;
            let (s, labels) = (scores.row(i), truth.row(i));
            let indicator = checked.indicator_from.filter(|&(from, _)| i >= from);
            if !read_row(labels, s, domain, indicator.map(|c| c.1), gains) {
                // Which check failed, reported as the separate checks report it.
                checked.first_error(y_true, i)?;
                check_scores(s, global)?;
                read_labels(labels, domain, global, gains)?;
            }
            if let Some(w) = label_weights {
                gains.iter_mut().zip(w).for_each(|(g, w)| *g *= w);
            }
            // Only the counting reaches read the relevant columns.
            if let RowReach::Gathered(_) = reach {
                ranker.gather(gains);
            }
            let row = reach.rank(ranker, s, gains, ranking, global);
            match row_outcome(metric, &options, &row, l, global) {
                Ok(value) => sink(i, value),
                Err(e) => return checked.first_error(y_true, i + 1).and(Err(e)),
            }
        }
        Ok(())
    }
}

/// How a metric's rows are ranked, from what its formula reads: the whole ranking, the top k,
/// or (through the counting paths) only some of the blocks holding a relevant label. Every
/// driver of rows (`RowScratch::each_row`, `many::evaluate_rows`) ranks through this, so a
/// metric's values are bitwise the same whichever drives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowReach {
    /// Every block ([`Ranker::rank`]).
    Full,
    /// The top k positions ([`Ranker::rank_top`]).
    Top(usize),
    /// Relevant blocks only ([`Ranker::rank_gathered`](crate::Ranker)), once the row's relevant
    /// columns are gathered.
    Gathered(Reach),
}

impl RowReach {
    /// What `metric` declares it reads.
    pub(crate) fn of<M: RowMetric + ?Sized>(metric: &M) -> RowReach {
        let relevant_only = metric.reads_only_relevant_blocks();
        match (metric.top_k(), metric.reads_one_relevant_block()) {
            (Some(k), _) if relevant_only => RowReach::Gathered(Reach::Top(k)),
            (Some(k), _) => RowReach::Top(k),
            (None, Some(end)) => RowReach::Gathered(Reach::End(end)),
            (None, None) if relevant_only => RowReach::Gathered(Reach::All),
            (None, None) => RowReach::Full,
        }
    }

    /// Ranks one row (`row` numbers it for `Random`) as far as this reach needs.
    pub(crate) fn rank<'a, T: Score>(
        self,
        ranker: &'a mut Ranker,
        scores: &[T],
        gains: &'a [f64],
        ranking: Ranking,
        row: usize,
    ) -> RankedRow<'a> {
        match self {
            RowReach::Full => ranker.rank(scores, gains, ranking, row),
            RowReach::Top(k) => ranker.rank_top(scores, gains, ranking, row, k),
            RowReach::Gathered(reach) => ranker.rank_gathered(scores, gains, ranking, row, reach),
        }
    }
}

impl CheckedInputs {
    /// The label-type error the checks made before rows are read would have found in rows
    /// `from..` (checked before any error of a row the row pass reads, as scikit-learn
    /// checks the whole label matrix first).
    fn first_error<Y>(&self, y_true: &Y, from: usize) -> Result<(), Error>
    where
        Y: Matrix + ?Sized,
        Y::Elem: Label,
    {
        match self.indicator_from {
            Some((checked, [a, b])) => {
                let rows = from.max(checked)..y_true.nrows();
                let mut seen = [Some(a), Some(b)];
                check_indicator_rows(y_true, rows, self.first_row, &mut seen, false).map(|_| ())
            }
            None => Ok(()),
        }
    }
}

/// Reads one row in one pass: converts its labels to `gains` and checks the scores (finite)
/// and labels (in `domain`, or one of the two `indicator` values). False when a check fails:
/// [`check_scores`] and [`read_labels`] then say which.
fn read_row<L: Label, T: Score>(
    labels: &[L],
    scores: &[T],
    domain: LabelDomain,
    indicator: Option<[f64; 2]>,
    gains: &mut [f64],
) -> bool {
    match (indicator, domain) {
        (Some([a, b]), _) => read_checked(labels, scores, gains, |v| (v == a) | (v == b)),
        (None, LabelDomain::Binary) => {
            read_checked(labels, scores, gains, |v| (v == 0.0) | (v == 1.0))
        }
        (None, LabelDomain::NonNegative) => {
            read_checked(labels, scores, gains, |v| v.is_finite() & (v >= 0.0))
        }
        (None, _) => read_checked(labels, scores, gains, f64::is_finite),
    }
}

crate::wide::wide! {
    /// [`read_row`] with the label check `accepts`.
    fn read_checked<L: Label, T: Score, A: Fn(f64) -> bool>(labels: &[L], scores: &[T], gains: &mut [f64], accepts: A) -> bool = read_checked_body;
}

/// [`read_checked`]'s loop.
#[inline(always)]
fn read_checked_body<L: Label, T: Score>(
    labels: &[L],
    scores: &[T],
    gains: &mut [f64],
    accepts: impl Fn(f64) -> bool,
) -> bool {
    let n = gains.len().min(labels.len()).min(scores.len());
    let mut ok = labels.len() == n && scores.len() == n;
    for ((g, &label), &s) in gains.iter_mut().zip(labels).zip(scores) {
        let v = label.value();
        ok &= accepts(v) & s.is_finite();
        *g = v;
    }
    ok
}

/// One ranked row's value under the metric's degenerate-row rules: `Some` value, `None` when
/// the row is skipped, an error when it is rejected. `l` is the row's label count, `global` its
/// row number in errors.
pub(crate) fn row_outcome<M: RowMetric + ?Sized>(
    metric: &M,
    options: &RowOptions,
    row: &RankedRow<'_>,
    l: usize,
    global: usize,
) -> Result<Option<f64>, Error> {
    let rule = match row.n_relevant() {
        0 => (options.no_relevant, Degeneracy::NoRelevant),
        r if r == l => (options.all_relevant, Degeneracy::AllRelevant),
        _ => (RowRule::Formula, Degeneracy::NoRelevant),
    };
    match rule {
        (RowRule::Formula, _) => Ok(Some(metric.row_value(row))),
        (RowRule::Value(v), _) => Ok(Some(v)),
        (RowRule::Skip, _) => Ok(None),
        (RowRule::Reject, kind) => Err(Error::DegenerateRow { row: global, kind }),
    }
}

/// Checks that both inputs are matrices of one shape, with rows, and at least `min_labels`
/// columns; returns (rows, labels).
pub(crate) fn check_shapes<Y, S>(
    y_true: &Y,
    y_score: &S,
    min_labels: usize,
) -> Result<(usize, usize), Error>
where
    Y: Matrix + ?Sized,
    S: Matrix + ?Sized,
{
    y_true.check_shape()?;
    y_score.check_shape()?;
    let shape = (y_true.nrows(), y_true.ncols());
    let found = (y_score.nrows(), y_score.ncols());
    if shape != found {
        return Err(Error::ShapeMismatch {
            expected: shape,
            found,
        });
    }
    match shape {
        (0, _) => Err(Error::NoSamples),
        (_, 0) => Err(Error::NoLabels),
        (_, l) if l > u32::MAX as usize => Err(Error::TooManyItems {
            found: l,
            max: u32::MAX as usize,
        }),
        (_, l) if l < min_labels => Err(Error::TooFewLabels {
            required: min_labels,
            found: l,
        }),
        shape => Ok(shape),
    }
}

/// Rejects NaN and ±inf scores.
pub(crate) fn check_scores<T: Score>(scores: &[T], row: usize) -> Result<(), Error> {
    // A branch-free pass first (it vectorises); the position only for a bad row.
    if scores.iter().fold(true, |ok, s| ok & s.is_finite()) {
        return Ok(());
    }
    match scores.iter().position(|s| !s.is_finite()) {
        None => Ok(()),
        Some(column) => Err(Error::NonFiniteScore {
            row,
            column,
            value: scores[column].as_f64(),
        }),
    }
}

/// Converts one row of labels to gains, checking each against `domain`.
pub(crate) fn read_labels<L: Label>(
    labels: &[L],
    domain: LabelDomain,
    row: usize,
    gains: &mut [f64],
) -> Result<(), Error> {
    for (column, (g, &label)) in gains.iter_mut().zip(labels).enumerate() {
        let value = label.value();
        let ok = match domain {
            LabelDomain::Binary => value == 0.0 || value == 1.0,
            LabelDomain::NonNegative => value.is_finite() && value >= 0.0,
            _ => value.is_finite(),
        };
        if !ok {
            return Err(Error::InvalidLabel {
                row,
                column,
                value,
                expected: domain,
            });
        }
        *g = value;
    }
    Ok(())
}

/// The distinct label values seen so far by scikit-learn's label-type check (at most two).
pub(crate) type IndicatorValues = [Option<f64>; 2];

/// scikit-learn's `type_of_target(...) == "multilabel-indicator"` (or "binary" for one
/// column): integral values, at most two distinct ones in the whole matrix (across batches:
/// `seen` carries the values met so far). Reports the first cell, in row order, that breaks it.
pub(crate) fn check_indicator<Y>(
    y_true: &Y,
    first_row: usize,
    seen: &mut IndicatorValues,
) -> Result<(), Error>
where
    Y: Matrix + ?Sized,
    Y::Elem: Label,
{
    check_indicator_rows(y_true, 0..y_true.nrows(), first_row, seen, false).map(|_| ())
}

/// [`check_indicator`] on `rows`; with `until_known`, stops at the row where both label
/// values are known. Returns the row where it stopped (`rows.end` when it did not).
fn check_indicator_rows<Y>(
    y_true: &Y,
    rows: Range<usize>,
    first_row: usize,
    seen: &mut IndicatorValues,
    until_known: bool,
) -> Result<usize, Error>
where
    Y: Matrix + ?Sized,
    Y::Elem: Label,
{
    let mut reader = RowReader::new(y_true);
    for row in rows.clone() {
        if until_known && seen.iter().all(Option::is_some) {
            return Ok(row);
        }
        let cells = reader.row(row);
        if let [Some(a), Some(b)] = *seen {
            // Both values known: a branch-free check of the whole row (it vectorises).
            let fits = |ok: bool, &x: &Y::Elem| ok & ((x.value() == a) | (x.value() == b));
            if cells.iter().fold(true, fits) {
                continue;
            }
        }
        for (column, &label) in cells.iter().enumerate() {
            let value = label.value();
            if seen.iter().flatten().any(|&v| v == value) {
                continue;
            }
            let integral = value.is_finite() && value == value.trunc();
            let fits = integral
                && ({
                    seen.iter_mut()
                        .find(|v| v.is_none())
                        .map(|slot| *slot = Some(value))
                        .is_some()
                });
            if !fits {
                return Err(Error::InvalidLabel {
                    row: first_row + row,
                    column,
                    value,
                    expected: LabelDomain::Indicator,
                });
            }
        }
    }
    Ok(rows.end)
}
