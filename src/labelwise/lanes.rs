//! One metric's progress through the vectors (a [`Lane`]), and one vector ranked for every lane
//! that reads it: sorted once per tie grouping, ranked once per policy.

use super::means::Means;
use super::vector::{Vector, VectorMetric};
use super::{Average, LabelwiseOptions};
use crate::error::Error;
use crate::kernel::{RankedRow, Ranker, Ranking, Reach};
use crate::score::Score;

/// One metric's progress through [`evaluate_many`](super::evaluate_many).
pub(super) struct Lane<'m, M> {
    pub(super) metric: &'m M,
    pub(super) options: LabelwiseOptions,
    pub(super) average: Average,
    pub(super) means: Means,
    pub(super) failed: Option<Error>,
    /// The pooled ranking is read piece by piece.
    pub(super) pieces: bool,
}

/// Records `error` for every running lane that `which` selects.
pub(super) fn fail<M>(
    lanes: &mut [Lane<'_, M>],
    which: impl Fn(&Lane<'_, M>) -> bool,
    error: Error,
) {
    for lane in lanes.iter_mut().filter(|l| l.failed.is_none() && which(l)) {
        lane.failed = Some(error.clone());
    }
}

/// Whether a running lane averages by `a`.
pub(super) fn wants<M>(lanes: &[Lane<'_, M>], a: Average) -> bool {
    lanes
        .iter()
        .any(|lane| lane.failed.is_none() && lane.average == a)
}

/// Each lane's result: its error, or its values combined.
pub(super) fn results<M>(lanes: &[Lane<'_, M>]) -> Vec<Result<f64, Error>> {
    lanes
        .iter()
        .map(|lane| match &lane.failed {
            Some(e) => Err(e.clone()),
            None => lane.means.value(lane.average),
        })
        .collect()
}

/// Values of vectors for lanes: `(lane, value)`, in the order they are added.
pub(super) type Values = Vec<(usize, Option<f64>)>;

/// One vector's values, `(lane, value)`, for the running lanes whose averaging is in
/// `averages` (and that do not read the pooled ranking in pieces), appended to `out`: the vector
/// is sorted once per tie grouping and ranked once per policy. Reads the lanes only, so that
/// vectors can be valued in parallel and their values added in order ([`add_values`]).
pub(super) fn vector_values<M: VectorMetric, T: Score>(
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
    let plans = rankings(lanes, serves);
    let (mut sorted, mut counted) = (None, None);
    let relevant = v.labels.iter().filter(|&&y| y != 0.0).count();
    let n = v.scores.len().min(v.labels.len());
    // A vector with few relevant items is ranked by counting when every metric of a ranking
    // reads only the blocks holding them; one the kernel would sort shares the sort of the
    // other policies.
    let counts = |ranking: Ranking| {
        crate::kernel::counts(ranking, n, relevant, Reach::All)
            && lanes
                .iter()
                .filter(|lane| serves(lane) && lane.options.ranking == ranking)
                .all(|lane| {
                    lane.metric
                        .reads_only_relevant_blocks(!v.weights.is_unit(), n)
                })
    };
    // A long vector's one-pass count costs about as much as its sort: where another ranking
    // of the vector sorts it anyway, every ranking shares that sort.
    let sorts_anyway = plans.iter().any(|&ranking| !counts(ranking))
        && crate::kernel::counts_in_one_pass(n, relevant, Reach::All);
    for ranking in plans {
        let relevant_only = counts(ranking) && !sorts_anyway;
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
        push_values(lanes, serves, ranking, v, &row, out);
    }
}

/// The rankings (tie policy and grouping) the lanes that `serves` picks ask for, each once,
/// in lane order.
pub(super) fn rankings<M>(
    lanes: &[Lane<'_, M>],
    serves: impl Fn(&Lane<'_, M>) -> bool,
) -> Vec<Ranking> {
    let mut plans: Vec<Ranking> = Vec::new();
    for lane in lanes.iter().filter(|lane| serves(lane)) {
        if !plans.contains(&lane.options.ranking) {
            plans.push(lane.options.ranking);
        }
    }
    plans
}

/// The values of `v`, ranked as `row` under `ranking`, for the lanes that `serves` picks and
/// that ask for `ranking`, appended to `out` as `(lane, value)`.
pub(super) fn push_values<M: VectorMetric, T: Score>(
    lanes: &[Lane<'_, M>],
    serves: impl Fn(&Lane<'_, M>) -> bool,
    ranking: Ranking,
    v: &Vector<'_, T>,
    row: &RankedRow<'_>,
    out: &mut Values,
) {
    for (k, lane) in lanes.iter().enumerate() {
        if serves(lane) && lane.options.ranking == ranking {
            out.push((k, lane.metric.vector_value(v, row)));
        }
    }
}

/// Adds one vector's `values` (from [`vector_values`]) to their lanes' means, with the weight
/// each lane's averaging gives the vector; a lane that fails stops there.
pub(super) fn add_values<M>(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::LabelDomain;
    use crate::matrix::RowMajor;
    use crate::metric::RankingMetric;
    use crate::ties::TiePolicy;

    #[test]
    fn average_precisions_by_counting_equal_the_full_ranking_bitwise() {
        use crate::kernel::{set_kernel_path, KernelPath};
        use crate::metrics::label_average_precision::LabelAveragePrecision;
        use crate::metrics::InterpolatedAveragePrecision;
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
            // Interpolated AP has no `Expected`: an error on both paths.
            let iap = InterpolatedAveragePrecision::new(Average::Macro, ties, 11)
                .with_label_domain(LabelDomain::NonZero);
            let values = |path| {
                set_kernel_path(path);
                let bits = |v: Result<f64, Error>| v.map(f64::to_bits);
                let v = (
                    bits(ap.evaluate(&yy, &ss, None)),
                    bits(iap.evaluate(&yy, &ss, None)),
                );
                set_kernel_path(KernelPath::Auto);
                v
            };
            let (full, counted) = (values(KernelPath::Full), values(KernelPath::Counting));
            assert_eq!(full, counted, "{ties:?}");
            assert!(full.0.is_ok(), "{ties:?}");
            assert_eq!(full.1.is_ok(), ties != TiePolicy::Expected, "{ties:?}");
        }
    }
}
