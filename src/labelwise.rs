//! Label-wise, pooled and per-sample averages of binary ranking metrics (AUC, average
//! precision): the one ranking kernel run over each column, over all cells, or over each row.
//!
//! A [`Matrix`] hands out rows only and a column metric needs every row before it can rank a
//! column, so the cells are copied once, column by column for label-wise averages and row by
//! row for the per-sample and pooled ones. A pooled (micro) ranking that a metric can read in
//! pieces is ranked a piece at a time from the input instead: no copy of the n·L cells.

use crate::kernel::Reach;
use crate::matrix::RowReader;
use crate::metric::{check_scores, check_shapes, check_weights, read_labels};
use crate::metrics::roc_auc::AucSums;
use crate::sum::{with_headroom, Sum, WeightedMean};
use crate::{
    Error, Label, LabelDomain, Matrix, RankedRow, Ranker, Ranking, Score, TieGrouping, TiePolicy,
};

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
    Value(f64),
    /// Left out of the mean (mldr's `NA` with `na.rm = TRUE`, MULAN's MAP); NaN if every
    /// vector is.
    Skip,
    /// An error: [`Error::SingleClass`] (mldr's `micro_auc`).
    Reject,
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

/// Per-item weights of one vector.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Weights<'a> {
    /// Every item weighs 1.
    Unit,
    /// Item k weighs `w[k]`.
    Each(&'a [f64]),
    /// Item k (a cell of a row-major n × L pool) weighs its row's weight `w[k / L]`.
    PerRow(&'a [f64], usize),
}

impl Weights<'_> {
    pub(crate) fn of(self, k: usize) -> f64 {
        let w = match self {
            Weights::Unit => return 1.0,
            Weights::Each(w) => w.get(k),
            Weights::PerRow(w, l) => w.get(k / l.max(1)),
        };
        w.copied().unwrap_or(0.0)
    }

    pub(crate) fn is_unit(self) -> bool {
        matches!(self, Weights::Unit)
    }
}

/// One vector to rank: scores, labels (non-zero = relevant) and weights of its items.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Vector<'a, T> {
    pub(crate) scores: &'a [T],
    pub(crate) labels: &'a [f64],
    pub(crate) weights: Weights<'a>,
}

impl<T> Vector<'_, T> {
    /// The (relevant, irrelevant) weight of a block of `row`.
    pub(crate) fn class_weights(&self, row: &RankedRow<'_>, b: &crate::Block) -> (f64, f64) {
        if self.weights.is_unit() {
            return (b.relevant as f64, (b.len - b.relevant) as f64);
        }
        let members = row.order().get(b.start..b.start + b.len).unwrap_or(&[]);
        members.iter().fold((0.0, 0.0), |(p, n), &j| {
            let (j, w) = (j as usize, self.weights.of(j as usize));
            match self.labels.get(j) {
                Some(&y) if y != 0.0 => (p + w, n),
                _ => (p, n + w),
            }
        })
    }

    /// The weight of the positions ranked at or above `b` that `row.rank(b)` counts, with
    /// weights: `W_above + W_block · (rank − start)/len` (the plain rank when unweighted).
    pub(crate) fn rank_weight(&self, row: &RankedRow<'_>, b: &crate::Block, above: f64) -> f64 {
        if self.weights.is_unit() {
            return row.rank(b);
        }
        let (p, n) = self.class_weights(row, b);
        above + (p + n) * (row.rank(b) - b.start as f64) / b.len as f64
    }

    /// `relevant` (the relevant weight at or above `b`) over the rank weight of `b`. When tiny
    /// (subnormal) weights make the plain ratio overflow, the same ratio is taken with both
    /// sides scaled by the larger of the weight above and the block's weight.
    pub(crate) fn precision(
        &self,
        row: &RankedRow<'_>,
        b: &crate::Block,
        above: f64,
        relevant: f64,
    ) -> f64 {
        let plain = relevant / self.rank_weight(row, b, above);
        if plain.is_finite() || self.weights.is_unit() {
            return plain;
        }
        let (p, n) = self.class_weights(row, b);
        let scale = above.max(p + n);
        // Weights are finite and non-negative, so `scale` is 0 or positive.
        if scale == 0.0 {
            return plain;
        }
        let share = (row.rank(b) - b.start as f64) / b.len as f64;
        (relevant / scale) / (above / scale + (p + n) / scale * share)
    }
}

/// A binary metric that label-wise averaging runs on each vector.
pub(crate) trait VectorMetric {
    fn options(&self) -> LabelwiseOptions;
    /// Checks the metric's own parameters; `weighted`: the vectors carry sample weights.
    fn check(&self, _weighted: bool) -> Result<(), Error> {
        Ok(())
    }
    /// The metric on one ranked vector, or `None` where it is undefined.
    fn vector_value<T: Score>(&self, v: &Vector<'_, T>, row: &RankedRow<'_>) -> Option<f64>;
    /// Whether the metric reads only the blocks holding a relevant item (as
    /// [`RankedRow::relevant_blocks`] gives them, whichever kernel path ranked the vector);
    /// `weighted`: the items carry weights.
    fn reads_only_relevant_blocks(&self, _weighted: bool) -> bool {
        false
    }
    /// Whether the metric can read a ranking in consecutive pieces, through
    /// [`add_piece`](Self::add_piece) and [`pieces_value`](Self::pieces_value), with the same
    /// value as [`vector_value`](Self::vector_value) gives on the whole.
    fn reads_pieces(&self) -> bool {
        false
    }
    /// Adds one piece of a ranking (its blocks follow those of the pieces added before).
    /// Called only when [`reads_pieces`](Self::reads_pieces) says so.
    fn add_piece<T: Score>(&self, _sums: &mut AucSums, _v: &Vector<'_, T>, _row: &RankedRow<'_>) {}
    /// The value of a ranking added piece by piece, or `None` where it is undefined.
    fn pieces_value(&self, _sums: &AucSums) -> Option<f64> {
        None
    }
}

/// Validates the inputs, runs `metric` over the vectors its averaging asks for and combines
/// the values.
pub(crate) fn evaluate<M, T, Y, S>(
    metric: &M,
    y_true: &Y,
    y_score: &S,
    sample_weight: Option<&[T]>,
) -> Result<f64, Error>
where
    M: VectorMetric,
    T: Score,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + ?Sized,
{
    let [value] = evaluate_many(
        core::slice::from_ref(metric),
        y_true,
        y_score,
        sample_weight,
    )[..] else {
        unreachable!("one metric in, one value out")
    };
    value
}

/// The most items one ranked vector may hold (the kernel numbers them with `u32`).
const MAX_ITEMS: usize = u32::MAX as usize;

/// One metric's progress through [`evaluate_many`].
struct Lane<'m, M> {
    metric: &'m M,
    options: LabelwiseOptions,
    average: Average,
    means: Means,
    failed: Option<Error>,
    /// The pooled ranking is read piece by piece.
    pieces: bool,
}

/// Evaluates several label-wise metrics on the same data: the cells are read and validated
/// once, each vector (column, row or the pooled cells) is sorted once per tie grouping and
/// ranked once per policy, and each metric reads that ranking. Each metric's values are
/// combined in the same order as alone, so every result equals, bitwise, its own evaluation.
pub(crate) fn evaluate_many<M, T, Y, S>(
    metrics: &[M],
    y_true: &Y,
    y_score: &S,
    sample_weight: Option<&[T]>,
) -> Vec<Result<f64, Error>>
where
    M: VectorMetric,
    T: Score,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + ?Sized,
{
    evaluate_lanes(metrics, y_true, y_score, sample_weight, vectors)
}

/// [`evaluate_many`] on the threads of the current rayon pool: bitwise the same values.
#[cfg(feature = "rayon")]
pub(crate) fn evaluate_many_parallel<M, T, Y, S>(
    metrics: &[M],
    y_true: &Y,
    y_score: &S,
    sample_weight: Option<&[T]>,
) -> Vec<Result<f64, Error>>
where
    M: VectorMetric + Sync,
    T: Score,
    Y: Matrix + Sync + ?Sized,
    Y::Elem: Label + Sync,
    S: Matrix<Elem = T> + Sync + ?Sized,
{
    evaluate_lanes(metrics, y_true, y_score, sample_weight, vectors_parallel)
}

/// The inputs a runner of the vectors reads: the cells, the matrices, the weights, (n, L).
type Run<'a, M, T, Y, S> = fn(
    &mut [Lane<'a, M>],
    &Cells<T, <Y as Matrix>::Elem>,
    (&Y, &S),
    Option<&[f64]>,
    (usize, usize),
);

/// Validates, reads the cells once and lets `run` value the vectors; the lanes' results.
fn evaluate_lanes<'m, M, T, Y, S>(
    metrics: &'m [M],
    y_true: &Y,
    y_score: &S,
    sample_weight: Option<&[T]>,
    run: Run<'m, M, T, Y, S>,
) -> Vec<Result<f64, Error>>
where
    M: VectorMetric,
    T: Score,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + ?Sized,
{
    let l_in = y_true.ncols();
    let mut lanes: Vec<Lane<'_, M>> = metrics
        .iter()
        .map(|metric| {
            let o = metric.options();
            // Under `samples` the weights weigh the mean, not the items of a vector.
            let mut failed = metric
                .check(sample_weight.is_some() && o.average != Average::Samples)
                .err();
            // The mean of a geometric mean over orders needs E[x^(1/L)] per label: no closed
            // form.
            if failed.is_none()
                && o.mean == Mean::Geometric
                && o.ranking.ties == TiePolicy::Expected
            {
                failed = Some(Error::UnsupportedPolicy {
                    policy: TiePolicy::Expected,
                });
            }
            let average = match o.average {
                _ if l_in == 1 && o.one_column_binary => Average::Macro,
                a => a,
            };
            // Pieces are cut between tie groups of equal keys, and random draws would restart
            // in each piece.
            let pieces = average == Average::Micro
                && metric.reads_pieces()
                && o.ranking.grouping == TieGrouping::Exact
                && !matches!(o.ranking.ties, TiePolicy::Random(_));
            Lane {
                metric,
                options: o,
                average,
                means: Means::new(o),
                failed,
                pieces,
            }
        })
        .collect();
    let checked = check_shapes(y_true, y_score, 1).and_then(|(n, l)| {
        let weights: Option<Vec<f64>> = sample_weight
            .map(|w| {
                check_weights(w, n).map(|w| with_headroom(w.iter().map(|x| x.as_f64()).collect()))
            })
            .transpose()?;
        Ok((n, l, weights))
    });
    let (n, l, weights) = match checked {
        Ok(c) => c,
        Err(e) => {
            return lanes
                .iter()
                .map(|lane| Err(lane.failed.unwrap_or(e)))
                .collect()
        }
    };
    // scikit-learn's matrix-wide label-type check, as the row-wise metrics make it.
    if lanes
        .iter()
        .any(|lane| lane.failed.is_none() && lane.options.labels == LabelDomain::Indicator)
    {
        if let Err(e) = crate::metric::check_indicator(y_true, 0, &mut Default::default()) {
            fail(
                &mut lanes,
                |lane| lane.options.labels == LabelDomain::Indicator,
                e,
            );
        }
    }
    // The cells, read once (in the layouts the averages need); each label domain validates
    // them once.
    let mut cells: Option<Cells<T, Y::Elem>> = None;
    let mut domains: Vec<LabelDomain> = Vec::new();
    let mut layouts = Layouts::default();
    for lane in lanes.iter().filter(|lane| lane.failed.is_none()) {
        if !domains.contains(&lane.options.labels) {
            domains.push(lane.options.labels);
        }
        match lane.average {
            Average::Macro | Average::Weighted => layouts.by_column = true,
            Average::Samples => layouts.by_row = true,
            Average::Micro => layouts.by_row |= !lane.pieces,
        }
    }
    for domain in domains {
        let wanted = if cells.is_some() {
            Layouts::default()
        } else {
            layouts
        };
        match read_cells(y_true, y_score, domain, wanted) {
            Ok(c) => {
                cells.get_or_insert(c);
            }
            Err(e) => fail(&mut lanes, |lane| lane.options.labels == domain, e),
        }
    }
    if let Some(cells) = cells {
        run(
            &mut lanes,
            &cells,
            (y_true, y_score),
            weights.as_deref(),
            (n, l),
        );
    }
    lanes
        .iter()
        .map(|lane| match lane.failed {
            Some(e) => Err(e),
            None => lane.means.value(lane.average),
        })
        .collect()
}

/// Records `error` for every running lane that `which` selects.
fn fail<M>(lanes: &mut [Lane<'_, M>], which: impl Fn(&Lane<'_, M>) -> bool, error: Error) {
    for lane in lanes.iter_mut().filter(|l| l.failed.is_none() && which(l)) {
        lane.failed = Some(error);
    }
}

/// Values of vectors for lanes: `(lane, value)`, in the order they are added.
type Values = Vec<(usize, Option<f64>)>;

/// One vector's values, `(lane, value)`, for the running lanes whose averaging is in
/// `averages` (and that do not read the pooled ranking in pieces), appended to `out`: the vector
/// is sorted once per tie grouping and ranked once per policy. Reads the lanes only, so that
/// vectors can be valued in parallel and their values added in order ([`add_values`]).
fn vector_values<M: VectorMetric, T: Score>(
    lanes: &[Lane<'_, M>],
    averages: &[Average],
    v: &Vector<'_, T>,
    seed: usize,
    ranker: &mut Ranker,
    out: &mut Values,
) {
    let serves = |lane: &Lane<'_, M>| {
        lane.failed.is_none() && !lane.pieces && averages.contains(&lane.average)
    };
    let mut plans: Vec<Ranking> = Vec::new();
    for lane in lanes.iter().filter(|lane| serves(lane)) {
        if !plans.contains(&lane.options.ranking) {
            plans.push(lane.options.ranking);
        }
    }
    let (mut sorted, mut counted) = (None, None);
    let relevant = v.labels.iter().filter(|&&y| y != 0.0).count();
    let n = v.scores.len().min(v.labels.len());
    for ranking in plans {
        // A vector with few relevant items is ranked by counting when every metric of this
        // ranking reads only the blocks holding them; one the kernel would sort shares the
        // sort of the other policies.
        let relevant_only = crate::kernel::counts(ranking, n, relevant, Reach::All)
            && lanes
                .iter()
                .filter(|lane| serves(lane) && lane.options.ranking == ranking)
                .all(|lane| lane.metric.reads_only_relevant_blocks(!v.weights.is_unit()));
        let row = if relevant_only {
            // The kernel's keys now hold this vector's relevant items only, if any; counted
            // once, they are placed again under the next policy.
            let again = counted == Some(ranking.grouping);
            (sorted, counted) = (None, Some(ranking.grouping));
            match again {
                true => ranker.rank_gathered_again(v.scores, v.labels, ranking, seed, Reach::All),
                false => ranker.rank_relevant(v.scores, v.labels, ranking, seed),
            }
        } else {
            counted = None;
            if sorted != Some(ranking.grouping) {
                ranker.sort(v.scores, ranking.grouping);
                sorted = Some(ranking.grouping);
                ranker.assign(v.labels, ranking.ties, seed)
            } else {
                ranker.reassign(v.labels, ranking.ties, seed)
            }
        };
        for (k, lane) in lanes.iter().enumerate() {
            if serves(lane) && lane.options.ranking == ranking {
                out.push((k, lane.metric.vector_value(v, &row)));
            }
        }
    }
}

/// Adds one vector's `values` (from [`vector_values`]) to their lanes' means, with the weight
/// each lane's averaging gives the vector; a lane that fails stops there.
fn add_values<M>(
    lanes: &mut [Lane<'_, M>],
    values: &[(usize, Option<f64>)],
    weight_of: impl Fn(Average) -> f64,
) {
    for &(k, value) in values {
        let Some(lane) = lanes.get_mut(k).filter(|lane| lane.failed.is_none()) else {
            continue;
        };
        if let Err(e) = lane.means.add(value, weight_of(lane.average)) {
            lane.failed = Some(e);
        }
    }
}

/// Fails the micro lanes when the pool is too large for the kernel's u32 positions.
fn check_pool_size<M>(lanes: &mut [Lane<'_, M>], n: usize, l: usize) {
    let cell_count = n.saturating_mul(l);
    if wants(lanes, Average::Micro) && cell_count > MAX_ITEMS {
        let error = Error::TooManyItems {
            found: cell_count,
            max: MAX_ITEMS,
        };
        fail(lanes, |lane| lane.average == Average::Micro, error);
    }
}

/// The pooled cells as one vector (micro lanes that do not read pieces).
fn pooled_values<M: VectorMetric, T: Score, L>(
    lanes: &[Lane<'_, M>],
    cells: &Cells<T, L>,
    weights: Option<&[f64]>,
    l: usize,
    mut ranker: Ranker,
) -> Values {
    let mut values = Vec::new();
    if let Some((scores, labels)) = &cells.by_row {
        let v = Vector {
            scores,
            labels,
            weights: weights.map_or(Weights::Unit, |w| Weights::PerRow(w, l)),
        };
        vector_values(lanes, &[Average::Micro], &v, 0, &mut ranker, &mut values);
    }
    values
}

/// Column j's values (macro and weighted averages) and its positive weight (the weighted
/// average's weight of the column). `labels` is scratch for the column's label values.
#[allow(clippy::too_many_arguments)] // the column, its data and the scratch of one task
fn column_values<M: VectorMetric, T: Score, L: Label>(
    lanes: &[Lane<'_, M>],
    (scores, labels): (&[T], &[L]),
    weights: Option<&[f64]>,
    n: usize,
    j: usize,
    ranker: &mut Ranker,
    col_labels: &mut Vec<f64>,
    out: &mut Values,
) -> f64 {
    let weights_of_rows = weights.map_or(Weights::Unit, Weights::Each);
    col_labels.clear();
    col_labels.extend(labels[j * n..][..n].iter().map(|y| y.value()));
    let v = Vector {
        scores: &scores[j * n..][..n],
        labels: col_labels,
        weights: weights_of_rows,
    };
    let averages = [Average::Macro, Average::Weighted];
    vector_values(lanes, &averages, &v, j, ranker, out);
    (0..n).map(|i| weights_of_rows.of(i) * col_labels[i]).sum()
}

/// The weight of a column's value under `average`.
fn column_weight(positive_weight: f64) -> impl Fn(Average) -> f64 {
    move |a| match a {
        Average::Weighted => positive_weight,
        _ => 1.0,
    }
}

/// Row i's values (the `samples` average).
fn sample_values<M: VectorMetric, T: Score>(
    lanes: &[Lane<'_, M>],
    (scores, labels): (&[T], &[f64]),
    l: usize,
    i: usize,
    ranker: &mut Ranker,
    out: &mut Values,
) {
    let v = Vector {
        scores: &scores[i * l..][..l],
        labels: &labels[i * l..][..l],
        weights: Weights::Unit,
    };
    vector_values(lanes, &[Average::Samples], &v, i, ranker, out);
}

/// Whether a running lane averages by `a`.
fn wants<M>(lanes: &[Lane<'_, M>], a: Average) -> bool {
    lanes
        .iter()
        .any(|lane| lane.failed.is_none() && lane.average == a)
}

/// Runs every lane over the vectors its averaging asks for: each vector sorted once per
/// grouping, ranked once per policy; then the pooled ranking in pieces.
fn vectors<M, T, Y, S>(
    lanes: &mut [Lane<'_, M>],
    cells: &Cells<T, Y::Elem>,
    (y_true, y_score): (&Y, &S),
    weights: Option<&[f64]>,
    (n, l): (usize, usize),
) where
    M: VectorMetric,
    T: Score,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + ?Sized,
{
    check_pool_size(lanes, n, l);
    let values = pooled_values(lanes, cells, weights, l, Ranker::new());
    add_values(lanes, &values, |_| 1.0);
    let (mut ranker, mut col_labels, mut values) = (Ranker::new(), Vec::new(), Vec::new());
    // Macro and weighted averages read the same columns: one copy and sort serve both.
    if let Some((scores, labels)) = &cells.by_column {
        for j in 0..l {
            values.clear();
            let column = (&scores[..], &labels[..]);
            let positive_weight = column_values(
                lanes,
                column,
                weights,
                n,
                j,
                &mut ranker,
                &mut col_labels,
                &mut values,
            );
            add_values(lanes, &values, column_weight(positive_weight));
        }
    }
    if let Some((scores, labels)) = cells.by_row.as_ref() {
        if wants(lanes, Average::Samples) {
            for i in 0..n {
                values.clear();
                sample_values(lanes, (scores, labels), l, i, &mut ranker, &mut values);
                let weight = weights.map_or(1.0, |w| w[i]);
                add_values(lanes, &values, |_| weight);
            }
        }
    }
    if lanes
        .iter()
        .any(|lane| lane.pieces && lane.failed.is_none())
    {
        let sums = micro_in_pieces(lanes, y_true, y_score, weights);
        finish_pieces(lanes, sums);
    }
}

/// [`vectors`] on the threads of the current rayon pool: the pooled vector, the pieces and the
/// columns are valued at once, then the rows in windows; every value is added in the order
/// [`vectors`] adds it, so each result is bitwise the same.
#[cfg(feature = "rayon")]
fn vectors_parallel<M, T, Y, S>(
    lanes: &mut [Lane<'_, M>],
    cells: &Cells<T, Y::Elem>,
    (y_true, y_score): (&Y, &S),
    weights: Option<&[f64]>,
    (n, l): (usize, usize),
) where
    M: VectorMetric + Sync,
    T: Score,
    Y: Matrix + Sync + ?Sized,
    Y::Elem: Label + Sync,
    S: Matrix<Elem = T> + Sync + ?Sized,
{
    use rayon::prelude::*;
    check_pool_size(lanes, n, l);
    let shared: &[Lane<'_, M>] = lanes;
    let pieces = shared
        .iter()
        .any(|lane| lane.pieces && lane.failed.is_none());
    let ((pooled, sums), columns) = rayon::join(
        || {
            rayon::join(
                || {
                    pooled_values(
                        shared,
                        cells,
                        weights,
                        l,
                        Ranker::new().with_parallel_sort(),
                    )
                },
                || pieces.then(|| micro_in_pieces(shared, y_true, y_score, weights)),
            )
        },
        || match &cells.by_column {
            Some((scores, labels)) => (0..l)
                .into_par_iter()
                .map_init(
                    || (Ranker::new(), Vec::new()),
                    |(ranker, col_labels), j| {
                        let mut values = Vec::new();
                        let column = (&scores[..], &labels[..]);
                        let weight = column_values(
                            shared,
                            column,
                            weights,
                            n,
                            j,
                            ranker,
                            col_labels,
                            &mut values,
                        );
                        (weight, values)
                    },
                )
                .collect(),
            None => Vec::new(),
        },
    );
    add_values(lanes, &pooled, |_| 1.0);
    for (positive_weight, values) in &columns {
        add_values(lanes, values, column_weight(*positive_weight));
    }
    if let Some((scores, labels)) = cells.by_row.as_ref() {
        if wants(lanes, Average::Samples) {
            for window in (0..n).step_by(crate::parallel::WINDOW_ROWS) {
                let rows = window..n.min(window + crate::parallel::WINDOW_ROWS);
                let shared: &[Lane<'_, M>] = lanes;
                // Per chunk: its rows' values end to end, and where each row's end.
                let chunks = crate::parallel::in_chunks(rows, Ranker::new, |ranker, rows| {
                    let (mut ends, mut values) = (Vec::new(), Vec::new());
                    for i in rows {
                        sample_values(shared, (scores, labels), l, i, ranker, &mut values);
                        ends.push(values.len());
                    }
                    (ends, values)
                });
                let mut i = window;
                for (ends, values) in &chunks {
                    let mut start = 0;
                    for &end in ends {
                        let weight = weights.map_or(1.0, |w| w[i]);
                        add_values(lanes, &values[start..end], |_| weight);
                        (start, i) = (end, i + 1);
                    }
                }
            }
        }
    }
    if let Some(sums) = sums {
        finish_pieces(lanes, sums);
    }
}

/// Which copies of the cells the averages read.
#[derive(Debug, Clone, Copy, Default)]
struct Layouts {
    by_column: bool,
    by_row: bool,
}

/// The cells, copied in the layouts asked for: `by_column` holds column j's scores and labels
/// (as given: one byte each for `u8` labels) at `j·n..(j+1)·n`, `by_row` row i's scores and
/// label values at `i·L..(i+1)·L`.
struct Cells<T, L> {
    by_column: Option<(Vec<T>, Vec<L>)>,
    by_row: Option<(Vec<T>, Vec<f64>)>,
}

/// Rows transposed at a time into the column copy: each column then receives a run of
/// consecutive cells rather than one cell per row.
const TRANSPOSE_ROWS: usize = 32;

/// Reads both matrices, validating each row as the row metrics do, into the `layouts` asked
/// for.
fn read_cells<T, Y, S>(
    y_true: &Y,
    y_score: &S,
    domain: LabelDomain,
    layouts: Layouts,
) -> Result<Cells<T, Y::Elem>, Error>
where
    T: Score,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + ?Sized,
{
    let (n, l) = (y_true.nrows(), y_true.ncols());
    let mut by_row = layouts
        .by_row
        .then(|| (Vec::with_capacity(n * l), vec![0.0; n * l]));
    let (mut truth, mut reader) = (RowReader::new(y_true), RowReader::new(y_score));
    // Any label fills the column copy before the rows overwrite it.
    let filler = (n > 0).then(|| truth.row(0).first().copied()).flatten();
    let mut by_column = layouts.by_column.then(|| {
        let labels = filler.map_or_else(Vec::new, |y| vec![y; n * l]);
        (vec![T::zero(); n * l], labels)
    });
    // The rows not yet transposed: TRANSPOSE_ROWS of them at most.
    let (mut pending_scores, mut pending_labels) = (Vec::new(), Vec::new());
    let mut gains = vec![0.0; l];
    for i in 0..n {
        let s = reader.row(i);
        check_scores(s, i)?;
        let y = truth.row(i);
        read_labels(y, domain, i, &mut gains)?;
        if let Some((scores, labels)) = &mut by_row {
            scores.extend_from_slice(s);
            labels[i * l..(i + 1) * l].copy_from_slice(&gains);
        }
        let Some((scores, labels)) = &mut by_column else {
            continue;
        };
        pending_scores.extend_from_slice(s);
        pending_labels.extend_from_slice(y);
        if (i + 1) % TRANSPOSE_ROWS == 0 || i + 1 == n {
            let first = i + 1 - pending_scores.len() / l.max(1);
            transpose_into(scores, &pending_scores, first, n, l);
            transpose_into(labels, &pending_labels, first, n, l);
            pending_scores.clear();
            pending_labels.clear();
        }
    }
    Ok(Cells { by_column, by_row })
}

/// Writes `rows` (row-major, L per row, the rows from `first` on) into the column-major
/// `columns` of n rows.
fn transpose_into<X: Copy>(columns: &mut [X], rows: &[X], first: usize, n: usize, l: usize) {
    for (j, column) in columns.chunks_mut(n.max(1)).enumerate().take(l) {
        let cells = rows.iter().skip(j).step_by(l.max(1));
        for (cell, &x) in column[first..].iter_mut().zip(cells) {
            *cell = x;
        }
    }
}

/// The most cells one piece of a pooled ranking holds, unless one range of leading key bits
/// holds more: small enough that a piece's sort and ranking stay in cache.
const PIECE_CELLS: usize = 1 << 17;

/// Ranks the pooled cells of every piece-reading micro lane a piece at a time, best first.
/// The cells are bucketed by the leading bits of their descending keys (one pass to count, one
/// to place score, label and row, about 13 bytes a cell instead of the ~80 a whole ranking
/// takes); a piece is a run of whole buckets, so a tie group is never split, and a bucket holds
/// its cells in pooled (row-major) order, so that ties inside a piece rank as in the whole pool.
/// Each piece is sorted once and ranked once per policy.
fn micro_in_pieces<M, T, Y, S>(
    lanes: &[Lane<'_, M>],
    y_true: &Y,
    y_score: &S,
    weights: Option<&[f64]>,
) -> Vec<AucSums>
where
    M: VectorMetric,
    T: Score,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + ?Sized,
{
    let n = y_score.nrows();
    let key = |s: &T| !s.order_key();
    let each_row = |f: &mut dyn FnMut(usize, &[T])| {
        let mut reader = RowReader::new(y_score);
        (0..n).for_each(|i| f(i, reader.row(i)));
    };
    // Buckets: the leading 16 bits below the prefix every key shares.
    let (mut low, mut high) = (u64::MAX, 0);
    each_row(&mut |_, row| {
        for k in row.iter().map(key) {
            (low, high) = (low.min(k), high.max(k));
        }
    });
    let shift = (u64::BITS - (low ^ high).leading_zeros()).saturating_sub(16);
    let bucket = |s: &T| (key(s) >> shift) as usize & 0xFFFF;
    let mut ends = vec![0usize; (1 << 16) + 1];
    each_row(&mut |_, row| row.iter().for_each(|s| ends[bucket(s) + 1] += 1));
    let mut pieces: Vec<core::ops::Range<usize>> = Vec::new();
    let (mut total, mut start) = (0, 0);
    // Counts to offsets (`ends[b]`: where bucket b starts), cutting pieces between buckets.
    for end in ends.iter_mut() {
        let count = *end;
        if total > start && total + count - start > PIECE_CELLS {
            pieces.push(start..total);
            start = total;
        }
        total += count;
        *end = total;
    }
    pieces.push(start..total);
    // Place every cell in its bucket, in pooled order.
    let first_label = match total {
        0 => None,
        _ => RowReader::new(y_true).row(0).first().copied(),
    };
    let pooled = AucSums::for_items(n.saturating_mul(y_score.ncols()), weights.is_none());
    let mut sums = vec![pooled; lanes.len()];
    let Some(zero) = first_label else {
        // No cells: the pool is one empty piece.
        return sums;
    };
    let (mut scores, mut labels) = (vec![T::zero(); total], vec![zero; total]);
    let mut rows = vec![0u32; if weights.is_some() { total } else { 0 }];
    let mut next = ends;
    let mut truth = RowReader::new(y_true);
    each_row(&mut |i, row| {
        for (s, &y) in row.iter().zip(truth.row(i)) {
            // A valid matrix reads the same cells in every pass, so every slot exists; `get`
            // keeps a matrix that does not from panicking.
            let at = &mut next[bucket(s)];
            if let (Some(score), Some(label)) = (scores.get_mut(*at), labels.get_mut(*at)) {
                (*score, *label) = (*s, y);
            }
            if let Some(r) = rows.get_mut(*at) {
                *r = i as u32;
            }
            *at += 1;
        }
    });
    let mut plans: Vec<Ranking> = Vec::new();
    for lane in lanes
        .iter()
        .filter(|lane| lane.pieces && lane.failed.is_none())
    {
        if !plans.contains(&lane.options.ranking) {
            plans.push(lane.options.ranking);
        }
    }
    let mut ranker = Ranker::new();
    let (mut gains, mut cell_weights) = (Vec::new(), Vec::new());
    for piece in pieces {
        gains.clear();
        gains.extend(labels[piece.clone()].iter().map(|y| y.value()));
        if let Some(w) = weights {
            cell_weights.clear();
            let piece_rows = rows.get(piece.clone()).unwrap_or(&[]);
            cell_weights.extend(piece_rows.iter().map(|&i| w[i as usize]));
        }
        let v = Vector {
            scores: &scores[piece],
            labels: &gains,
            weights: weights.map_or(Weights::Unit, |_| Weights::Each(&cell_weights)),
        };
        // Every piece lane groups exactly: one sort serves all.
        ranker.sort(v.scores, TieGrouping::Exact);
        for (p, &ranking) in plans.iter().enumerate() {
            let row = match p {
                0 => ranker.assign(&gains, ranking.ties, 0),
                _ => ranker.reassign(&gains, ranking.ties, 0),
            };
            for (lane, sums) in lanes.iter().zip(sums.iter_mut()) {
                if lane.pieces && lane.failed.is_none() && lane.options.ranking == ranking {
                    lane.metric.add_piece(sums, &v, &row);
                }
            }
        }
    }
    sums
}

/// Adds the value of each piece-reading lane's pooled ranking (`sums`, one per lane, from
/// [`micro_in_pieces`]) to its mean.
fn finish_pieces<M: VectorMetric>(lanes: &mut [Lane<'_, M>], sums: Vec<AucSums>) {
    for (lane, sums) in lanes.iter_mut().zip(&sums) {
        if !lane.pieces || lane.failed.is_some() {
            continue;
        }
        if let Err(e) = lane.means.add(lane.metric.pieces_value(sums), 1.0) {
            lane.failed = Some(e);
        }
    }
}

/// Combines per-vector values by the options' undefined rule and mean.
struct Means {
    options: LabelwiseOptions,
    weighted: WeightedMean,
    plain: f64,
    product: f64,
    count: usize,
    defined: usize,
    total_weight: Sum,
}

impl Means {
    fn new(options: LabelwiseOptions) -> Self {
        Means {
            options,
            weighted: WeightedMean::default(),
            plain: 0.0,
            product: 1.0,
            count: 0,
            defined: 0,
            total_weight: Sum::default(),
        }
    }

    fn add(&mut self, value: Option<f64>, weight: f64) -> Result<(), Error> {
        self.total_weight.add(weight);
        let value = match (value, self.options.undefined) {
            (Some(v), _) => {
                self.defined += 1;
                v
            }
            (None, Undefined::Nan) => f64::NAN,
            (None, Undefined::Value(v)) => v,
            (None, Undefined::Skip) => return Ok(()),
            (None, Undefined::Reject) => return Err(Error::SingleClass),
        };
        // scikit-learn forces the values of zero-weight vectors to 0, so NaN there vanishes.
        if weight == 0.0 {
            return Ok(());
        }
        self.weighted.add(value, weight);
        self.plain += value;
        self.product *= value;
        self.count += 1;
        Ok(())
    }

    fn value(&self, average: Average) -> Result<f64, Error> {
        let o = self.options;
        if average == Average::Weighted && self.total_weight.value().abs() <= 1e-8 {
            return Ok(0.0);
        }
        if (o.nan_if_none_defined && self.defined == 0) || self.count == 0 {
            return Ok(f64::NAN);
        }
        Ok(match o.mean {
            Mean::Arithmetic => self.weighted.value().ok_or(Error::ZeroTotalWeight)?,
            Mean::Sequential => self.plain / self.count as f64,
            Mean::Geometric => self.product.powf(1.0 / self.count as f64),
        })
    }
}

/// The option builders every label-wise metric shares. Each metric type has a field
/// `options: LabelwiseOptions`.
macro_rules! labelwise_builders {
    ($metric:ident) => {
        $crate::labelwise::labelwise_builders!($metric, "Average::Macro, TiePolicy::Max");
    };
    ($metric:ident, $args:literal) => {
        impl $metric {
            #[doc = concat!("The same metric with another tie policy.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").with_ties(TiePolicy::First);\nassert_eq!(m.options().ranking.ties, TiePolicy::First);\n```")]
            pub const fn with_ties(mut self, ties: $crate::TiePolicy) -> Self {
                self.options.ranking.ties = ties;
                self
            }

            #[doc = concat!("The same metric with another tie grouping.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TieGrouping, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").with_grouping(TieGrouping::WEKA);\nassert_eq!(m.options().ranking.grouping, TieGrouping::WEKA);\n```")]
            pub const fn with_grouping(mut self, grouping: $crate::TieGrouping) -> Self {
                self.options.ranking.grouping = grouping;
                self
            }

            #[doc = concat!("The same metric with another averaging.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").averaged(Average::Micro);\nassert_eq!(m.options().average, Average::Micro);\n```")]
            pub const fn averaged(mut self, average: $crate::Average) -> Self {
                self.options.average = average;
                self
            }

            #[doc = concat!("The same metric with another rule for undefined vectors.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy, Undefined};\nlet m = ", stringify!($metric),
                "::new(", $args, ").on_undefined(Undefined::Skip);\nassert_eq!(m.options().undefined, Undefined::Skip);\n```")]
            pub const fn on_undefined(mut self, rule: $crate::Undefined) -> Self {
                self.options.undefined = rule;
                self
            }

            #[doc = concat!("The same metric with another mean.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, Mean, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").with_mean(Mean::Geometric);\nassert_eq!(m.options().mean, Mean::Geometric);\n```")]
            pub const fn with_mean(mut self, mean: $crate::Mean) -> Self {
                self.options.mean = mean;
                self
            }

            #[doc = concat!("The same metric accepting only labels of `domain` (default: 0 or 1).\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, LabelDomain, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").with_label_domain(LabelDomain::NonZero);\nassert_eq!(m.options().labels, LabelDomain::NonZero);\n```")]
            pub const fn with_label_domain(mut self, domain: $crate::LabelDomain) -> Self {
                self.options.labels = domain;
                self
            }

            #[doc = concat!("The same metric, NaN when no vector is defined (mldr).\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").nan_if_none_defined(true);\nassert!(m.options().nan_if_none_defined);\n```")]
            pub const fn nan_if_none_defined(mut self, yes: bool) -> Self {
                self.options.nan_if_none_defined = yes;
                self
            }

            #[doc = concat!("The same metric, treating a one-column input as one binary problem (scikit-learn).\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet m = ", stringify!($metric),
                "::new(", $args, ").one_column_binary(true);\nassert!(m.options().one_column_binary);\n```")]
            pub const fn one_column_binary(mut self, yes: bool) -> Self {
                self.options.one_column_binary = yes;
                self
            }

            #[doc = concat!("The metric's options.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nassert_eq!(", stringify!($metric),
                "::new(", $args, ").options().average, Average::Macro);\n```")]
            pub const fn options(&self) -> $crate::LabelwiseOptions {
                self.options
            }

            #[doc = concat!("An empty accumulator: evaluate in batches and merge shards.\n\n```\nuse rankmetrics::{",
                stringify!($metric), ", Average, TiePolicy};\nlet mut acc = ", stringify!($metric),
                "::new(", $args, ").accumulator();\nacc.update(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None).unwrap();\nassert_eq!(acc.rows(), 2);\n```")]
            pub fn accumulator(&self) -> $crate::LabelwiseAccumulator<Self> {
                $crate::LabelwiseAccumulator::new(*self, self.options.labels)
            }
        }

        impl<T: $crate::Score> $crate::RankingMetric<T> for $metric {
            fn evaluate<Y, S>(
                &self,
                y_true: &Y,
                y_score: &S,
                sample_weight: Option<&[T]>,
            ) -> Result<f64, $crate::Error>
            where
                Y: $crate::Matrix + ?Sized,
                Y::Elem: $crate::Label,
                S: $crate::Matrix<Elem = T> + ?Sized,
            {
                $crate::labelwise::evaluate(self, y_true, y_score, sample_weight)
            }
        }
    };
}
pub(crate) use labelwise_builders;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RankingMetric, RocAuc, RowMajor};

    /// The pooled AUC ranked whole, as the kernel ranks any vector.
    fn whole_pool_auc(
        metric: &RocAuc,
        y: &[f64],
        s: &[f64],
        w: Option<&[f64]>,
        l: usize,
    ) -> Option<f64> {
        let v = Vector {
            scores: s,
            labels: y,
            weights: w.map_or(Weights::Unit, |w| Weights::PerRow(w, l)),
        };
        let mut ranker = Ranker::new();
        let row = ranker.rank(s, y, metric.options().ranking, 0);
        metric.vector_value(&v, &row)
    }

    #[test]
    fn average_precision_by_counting_equals_the_full_ranking_bitwise() {
        use crate::kernel::{set_kernel_path, KernelPath};
        use crate::LabelAveragePrecision;
        // Columns of 300 samples, few relevant (graded, negative) and many ties.
        let (n, l) = (300, 40);
        let y: Vec<f64> = (0..n * l)
            .map(|k| match (k * 7919) % 97 {
                0 => 1.0,
                1 => 2.0,
                2 => -1.0,
                _ => 0.0,
            })
            .collect();
        let s: Vec<f64> = (0..n * l).map(|k| ((k * 31) % 17) as f64 / 16.0).collect();
        let (yy, ss) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        for ties in [
            TiePolicy::Max,
            TiePolicy::Min,
            TiePolicy::Average,
            TiePolicy::First,
            TiePolicy::Last,
            TiePolicy::Optimistic,
            TiePolicy::Pessimistic,
            TiePolicy::Expected,
        ] {
            let ap = LabelAveragePrecision::new(Average::Macro, ties)
                .with_label_domain(LabelDomain::NonZero);
            let value = |path| {
                set_kernel_path(path);
                let v = ap.evaluate(&yy, &ss, None).unwrap();
                set_kernel_path(KernelPath::Auto);
                v
            };
            let (full, counted) = (value(KernelPath::Full), value(KernelPath::Counting));
            assert_eq!(full.to_bits(), counted.to_bits(), "{ties:?}");
        }
    }

    #[test]
    fn micro_auc_in_pieces_equals_the_whole_pool_bitwise() {
        // Several pieces (more cells than PIECE_CELLS), heavy ties (one tie group is larger
        // than a piece), graded and negative labels, and weights.
        let (n, l) = (700, 500);
        assert!(n * l > 2 * PIECE_CELLS);
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let y: Vec<f64> = (0..n * l)
            .map(|_| match next() % 10 {
                0 => 1.0,
                1 => 2.0,
                2 => -1.0,
                _ => 0.0,
            })
            .collect();
        let s: Vec<f64> = (0..n * l)
            .map(|k| match k % 3 {
                0 => 0.25,
                1 => (next() % 1000) as f64 / 1000.0,
                _ => (next() >> 11) as f64 / (1u64 << 53) as f64,
            })
            .collect();
        let w: Vec<f64> = (0..n).map(|_| (next() % 7) as f64 / 3.0).collect();
        let (yy, ss) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        for ties in [
            TiePolicy::Average,
            TiePolicy::Max,
            TiePolicy::Min,
            TiePolicy::First,
            TiePolicy::Last,
            TiePolicy::Optimistic,
            TiePolicy::Pessimistic,
            TiePolicy::Expected,
        ] {
            let metric = RocAuc::new(Average::Micro, ties).with_label_domain(LabelDomain::NonZero);
            assert!(metric.reads_pieces());
            for weights in [None, Some(&w[..])] {
                let pieces = metric.evaluate(&yy, &ss, weights).unwrap();
                let whole = whole_pool_auc(&metric, &y, &s, weights, l).unwrap();
                assert_eq!(pieces.to_bits(), whole.to_bits(), "{ties:?} {weights:?}");
            }
        }
    }
}
