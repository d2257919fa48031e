//! Many row-wise metrics over the same data in one pass: each row is read and validated once,
//! sorted once per tie grouping, ranked once per tie policy, and every metric's formula reads
//! that ranking ("sort once, score many"). Each metric's values are summed in row order, so the
//! results are bitwise those of evaluating the metrics one by one.

use crate::matrix::RowReader;
use crate::metric::{
    check_indicator, check_scores, check_shapes, check_weights, mean_value, read_labels,
    row_outcome, RowReach,
};
use crate::sum::WeightedMean;
use crate::{
    Error, Label, LabelDomain, Matrix, RankedRow, Ranker, Ranking, RowMetric, RowOptions, Score,
    TieGrouping, TiePolicy,
};

/// One metric's progress through the pass.
struct Lane<'m> {
    metric: &'m dyn RowMetric,
    options: RowOptions,
    mean: WeightedMean,
    /// The first error met, in row order: the lane stops there, as one-shot evaluation would.
    failed: Option<Error>,
    reach: RowReach,
}

/// Evaluates every metric of `metrics` on the same data; the results are in their order and
/// equal, bitwise, `metric.evaluate(y_true, y_score, sample_weight)` for each. The metrics
/// rank the labels' own gains ([`RowMetric::gain_weights`] is `None`, as for every registry
/// metric).
pub(crate) fn evaluate_rows<T, Y, S>(
    metrics: &[&(dyn RowMetric + Sync)],
    y_true: &Y,
    y_score: &S,
    sample_weight: Option<&[T]>,
) -> Vec<Result<f64, Error>>
where
    T: Score,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + ?Sized,
{
    let mut lanes: Vec<Lane<'_>> = metrics
        .iter()
        .map(|&metric| {
            let options = metric.options();
            Lane {
                metric,
                options,
                mean: WeightedMean::new(options.summation),
                failed: None,
                reach: {
                    // Internal contract: registry metrics never scale their gains.
                    debug_assert!(metric.gain_weights().is_none());
                    RowReach::of(metric)
                },
            }
        })
        .collect();
    // The checks one-shot evaluation makes before the first row, in its order.
    let weights = match sample_weight
        .map(|w| check_weights(w, y_true.nrows()))
        .transpose()
    {
        Ok(w) => w,
        Err(e) => return vec![Err(e); metrics.len()],
    };
    let mut shape = None;
    for lane in &mut lanes {
        match check_shapes(y_true, y_score, lane.options.min_labels) {
            Ok(s) => shape = Some(s),
            Err(e) => lane.failed = Some(e),
        }
    }
    if lanes
        .iter()
        .any(|l| l.failed.is_none() && l.options.labels == LabelDomain::Indicator)
    {
        if let Err(e) = check_indicator(y_true, 0, &mut Default::default()) {
            fail(
                &mut lanes,
                |l| l.options.labels == LabelDomain::Indicator,
                e,
            );
        }
    }
    if let Some((n, l)) = shape {
        pass(&mut lanes, y_true, y_score, weights, n, l);
    }
    lanes
        .iter()
        .map(|lane| match lane.failed {
            Some(e) => Err(e),
            None => mean_value(&lane.mean, lane.options.zero_weight),
        })
        .collect()
}

/// [`evaluate_rows`] with the metrics spread over the threads of the current rayon pool: the
/// metrics that share a ranking (tie grouping and policy) make one pass over the rows, and the
/// passes run in parallel. Each metric's rows are ranked and summed as in [`evaluate_rows`], so
/// every result is bitwise the same.
#[cfg(feature = "rayon")]
pub(crate) fn evaluate_rows_parallel<T, Y, S>(
    metrics: &[&(dyn RowMetric + Sync)],
    y_true: &Y,
    y_score: &S,
    sample_weight: Option<&[T]>,
) -> Vec<Result<f64, Error>>
where
    T: Score,
    Y: Matrix + Sync + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + Sync + ?Sized,
{
    use rayon::prelude::*;
    let mut rankings: Vec<Ranking> = Vec::new();
    for m in metrics {
        if !rankings.contains(&m.options().ranking) {
            rankings.push(m.options().ranking);
        }
    }
    // Per pass: the indices of its metrics, and their results.
    type Pass = (Vec<usize>, Vec<Result<f64, Error>>);
    let passes: Vec<Pass> = rankings
        .par_iter()
        .map(|&ranking| {
            let (indices, group): (Vec<usize>, Vec<&(dyn RowMetric + Sync)>) = metrics
                .iter()
                .enumerate()
                .filter(|(_, m)| m.options().ranking == ranking)
                .unzip();
            let values = evaluate_rows(&group, y_true, y_score, sample_weight);
            (indices, values)
        })
        .collect();
    // Every metric is in exactly one pass, so every slot is overwritten.
    let mut results = vec![Err(Error::NoSamples); metrics.len()];
    for (indices, values) in passes {
        for (k, v) in indices.into_iter().zip(values) {
            results[k] = v;
        }
    }
    results
}

/// Records `error` for every lane still running that `which` selects.
fn fail(lanes: &mut [Lane<'_>], which: impl Fn(&Lane<'_>) -> bool, error: Error) {
    for lane in lanes.iter_mut().filter(|l| l.failed.is_none() && which(l)) {
        lane.failed = Some(error);
    }
}

/// The row loop.
fn pass<T, Y, S>(
    lanes: &mut [Lane<'_>],
    y_true: &Y,
    y_score: &S,
    weights: Option<&[T]>,
    n: usize,
    l: usize,
) where
    T: Score,
    Y: Matrix + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + ?Sized,
{
    // The distinct groupings, and the distinct policies under each, the lanes ask for.
    let mut plans: Vec<(TieGrouping, Vec<TiePolicy>)> = Vec::new();
    for lane in lanes.iter() {
        let r = lane.options.ranking;
        match plans.iter_mut().find(|(g, _)| *g == r.grouping) {
            Some((_, ties)) if ties.contains(&r.ties) => {}
            Some((_, ties)) => ties.push(r.ties),
            None => plans.push((r.grouping, vec![r.ties])),
        }
    }
    // The reaches other than the full ranking: each is ranked once per policy.
    let mut reaches: Vec<RowReach> = Vec::new();
    for lane in lanes.iter() {
        if lane.reach != RowReach::Full && !reaches.contains(&lane.reach) {
            reaches.push(lane.reach);
        }
    }
    let mut domains: Vec<LabelDomain> = Vec::new();
    for lane in lanes.iter() {
        if !domains.contains(&lane.options.labels) {
            domains.push(lane.options.labels);
        }
    }
    let (mut truth, mut scores) = (RowReader::new(y_true), RowReader::new(y_score));
    let mut gains = vec![0.0; l];
    let mut ranker = Ranker::new();
    for i in 0..n {
        if lanes.iter().all(|l| l.failed.is_some()) {
            return;
        }
        let s = scores.row(i);
        if let Err(e) = check_scores(s, i) {
            fail(lanes, |_| true, e);
            return;
        }
        let labels = truth.row(i);
        // The values read do not depend on the domain, only their check does: one successful
        // read fills `gains` for every lane (a failed one wrote the same values, then stopped).
        let mut read = false;
        for &domain in &domains {
            match read_labels(labels, domain, i, &mut gains) {
                Ok(()) => read = true,
                Err(e) => fail(lanes, |l| l.options.labels == domain, e),
            }
        }
        if !read {
            continue; // every lane has failed on this row
        }
        let w = weights.map_or(1.0, |w| w[i].as_f64());
        ranker.gather(&gains);
        for (grouping, policies) in &plans {
            // Each lane gets its row as its one-shot evaluation ranks it (`RowReach`): lanes
            // reading every block share one sort of the row and one assignment per policy; the
            // others share one ranking per (policy, reach).
            let shares = |lane: &Lane<'_>, ties: TiePolicy, reach: RowReach| {
                lane.failed.is_none()
                    && lane.options.ranking == Ranking::new(ties).with_grouping(*grouping)
                    && lane.reach == reach
            };
            let mut sorted = false;
            for &ties in policies {
                if !lanes.iter().any(|lane| shares(lane, ties, RowReach::Full)) {
                    continue;
                }
                if !sorted {
                    ranker.sort(s, *grouping);
                    sorted = true;
                }
                let row = ranker.assign(&gains, ties, i);
                feed(
                    lanes,
                    |lane| shares(lane, ties, RowReach::Full),
                    &row,
                    l,
                    i,
                    w,
                );
            }
            for &ties in policies {
                let ranking = Ranking::new(ties).with_grouping(*grouping);
                for &reach in &reaches {
                    if lanes.iter().any(|lane| shares(lane, ties, reach)) {
                        let row = reach.rank(&mut ranker, s, &gains, ranking, i);
                        feed(lanes, |lane| shares(lane, ties, reach), &row, l, i, w);
                    }
                }
            }
        }
    }
}

/// Adds row `i`'s value, ranked as `row`, to every lane `which` selects.
fn feed(
    lanes: &mut [Lane<'_>],
    which: impl Fn(&Lane<'_>) -> bool,
    row: &RankedRow<'_>,
    l: usize,
    i: usize,
    w: f64,
) {
    for lane in lanes.iter_mut().filter(|lane| which(lane)) {
        match row_outcome(lane.metric, &lane.options, row, l, i) {
            Ok(Some(v)) => lane.mean.add(v, w),
            Ok(None) => {}
            Err(e) => lane.failed = Some(e),
        }
    }
}
