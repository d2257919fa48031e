//! Label-wise, pooled and per-sample averages of binary ranking metrics (AUC, average
//! precision): the one ranking kernel run over each column, over all cells, or over each row.
//!
//! The inputs are copied once into an n × L row-major buffer (scores and labels), because a
//! [`Matrix`] hands out rows only and a column metric needs every row before it can rank a
//! column; each column is then gathered into an n-long scratch vector and ranked.

use crate::matrix::RowReader;
use crate::metric::{check_scores, check_shapes, check_weights, read_labels};
use crate::sum::{Sum, WeightedMean};
use crate::{Error, Label, LabelDomain, Matrix, RankedRow, Ranker, Ranking, Score, TiePolicy};

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
            Lane {
                metric,
                options: o,
                average: match o.average {
                    _ if l_in == 1 && o.one_column_binary => Average::Macro,
                    a => a,
                },
                means: Means::new(o),
                failed,
            }
        })
        .collect();
    let checked = check_shapes(y_true, y_score, 1).and_then(|(n, l)| {
        let weights: Option<Vec<f64>> = sample_weight
            .map(|w| check_weights(w, n).map(|w| w.iter().map(|x| x.as_f64()).collect()))
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
    // The cells, read once; each label domain validates them once.
    let mut cells: Option<(Vec<T>, Vec<f64>)> = None;
    let mut domains: Vec<LabelDomain> = Vec::new();
    for lane in lanes.iter().filter(|lane| lane.failed.is_none()) {
        if !domains.contains(&lane.options.labels) {
            domains.push(lane.options.labels);
        }
    }
    for domain in domains {
        match read_cells(y_true, y_score, domain) {
            Ok(c) => {
                cells.get_or_insert(c);
            }
            Err(e) => fail(&mut lanes, |lane| lane.options.labels == domain, e),
        }
    }
    if let Some((scores, labels)) = cells {
        vectors(&mut lanes, &scores, &labels, weights.as_deref(), n, l);
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

/// Runs every lane over the vectors its averaging asks for: each vector sorted once per
/// grouping, ranked once per policy.
fn vectors<M: VectorMetric, T: Score>(
    lanes: &mut [Lane<'_, M>],
    scores: &[T],
    labels: &[f64],
    weights: Option<&[f64]>,
    n: usize,
    l: usize,
) {
    let mut ranker = Ranker::new();
    // Ranks `v` once per grouping and once per policy for every lane whose averaging is in
    // `averages`; each lane adds its value with the weight its averaging gives the vector.
    let mut score_one = |lanes: &mut [Lane<'_, M>],
                         averages: &[Average],
                         v: &Vector<'_, T>,
                         seed: usize,
                         weight_of: &dyn Fn(Average) -> f64| {
        let serves = |lane: &Lane<'_, M>| lane.failed.is_none() && averages.contains(&lane.average);
        let mut plans: Vec<Ranking> = Vec::new();
        for lane in lanes.iter().filter(|lane| serves(lane)) {
            if !plans.contains(&lane.options.ranking) {
                plans.push(lane.options.ranking);
            }
        }
        let mut sorted = None;
        for ranking in plans {
            if sorted != Some(ranking.grouping) {
                ranker.sort(v.scores, ranking.grouping);
                sorted = Some(ranking.grouping);
            }
            let row = ranker.assign(v.labels, ranking.ties, seed);
            for lane in lanes.iter_mut() {
                if !serves(lane) || lane.options.ranking != ranking {
                    continue;
                }
                let value = lane.metric.vector_value(v, &row);
                if let Err(e) = lane.means.add(value, weight_of(lane.average)) {
                    lane.failed = Some(e);
                }
            }
        }
    };
    let wants = |lanes: &[Lane<'_, M>], a: Average| {
        lanes
            .iter()
            .any(|lane| lane.failed.is_none() && lane.average == a)
    };
    if wants(lanes, Average::Micro) && scores.len() > MAX_ITEMS {
        let error = Error::TooManyItems {
            found: scores.len(),
            max: MAX_ITEMS,
        };
        fail(lanes, |lane| lane.average == Average::Micro, error);
    }
    if wants(lanes, Average::Micro) {
        let v = Vector {
            scores,
            labels,
            weights: weights.map_or(Weights::Unit, |w| Weights::PerRow(w, l)),
        };
        score_one(lanes, &[Average::Micro], &v, 0, &|_| 1.0);
    }
    // Macro and weighted averages read the same columns: one extraction and sort serve both.
    if wants(lanes, Average::Macro) || wants(lanes, Average::Weighted) {
        let weights_of_rows = weights.map_or(Weights::Unit, Weights::Each);
        let (mut col_scores, mut col_labels) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for j in 0..l {
            col_scores.clear();
            col_labels.clear();
            col_scores.extend(scores.iter().skip(j).step_by(l).copied());
            col_labels.extend(labels.iter().skip(j).step_by(l).copied());
            let v = Vector {
                scores: &col_scores,
                labels: &col_labels,
                weights: weights_of_rows,
            };
            let positive_weight: f64 = (0..n).map(|i| weights_of_rows.of(i) * col_labels[i]).sum();
            let weight_of = |a: Average| match a {
                Average::Weighted => positive_weight,
                _ => 1.0,
            };
            score_one(
                lanes,
                &[Average::Macro, Average::Weighted],
                &v,
                j,
                &weight_of,
            );
        }
    }
    if wants(lanes, Average::Samples) {
        for (i, (s, y)) in scores.chunks(l).zip(labels.chunks(l)).enumerate() {
            let v = Vector {
                scores: s,
                labels: y,
                weights: Weights::Unit,
            };
            let weight = weights.map_or(1.0, |w| w[i]);
            score_one(lanes, &[Average::Samples], &v, i, &|_| weight);
        }
    }
}

/// Reads both matrices into row-major buffers, validating each row as the row metrics do.
fn read_cells<T, Y, S>(
    y_true: &Y,
    y_score: &S,
    domain: LabelDomain,
) -> Result<(Vec<T>, Vec<f64>), Error>
where
    T: Score,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + ?Sized,
{
    let (n, l) = (y_true.nrows(), y_true.ncols());
    let mut scores = Vec::with_capacity(n * l);
    let mut labels = vec![0.0; n * l];
    let (mut truth, mut reader) = (RowReader::new(y_true), RowReader::new(y_score));
    for (i, gains) in labels.chunks_mut(l).enumerate() {
        let s = reader.row(i);
        check_scores(s, i)?;
        scores.extend_from_slice(s);
        read_labels(truth.row(i), domain, i, gains)?;
    }
    Ok((scores, labels))
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
