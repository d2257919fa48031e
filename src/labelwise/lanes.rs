//! One metric's progress through the vectors (a [`VectorLane`]), and one vector ranked for every lane
//! that reads it: sorted once per tie grouping, ranked once per policy.

use super::means::Means;
use super::vector::Vector;
use super::vector_metric::VectorMetric;
use super::{Average, LabelwiseOptions};
use crate::error::Error;
use crate::kernel::{RankedRow, Ranker, Ranking, Reach};
use crate::score::Score;

/// One metric's progress through [`evaluate_many`](super::evaluate_many).
pub(super) struct VectorLane<'m, M> {
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
    lanes: &mut [VectorLane<'_, M>], which: impl Fn(&VectorLane<'_, M>) -> bool, error: Error,
) {
    for lane in lanes.iter_mut().filter(|l| l.failed.is_none() && which(l)) {
        lane.failed = Some(error.clone());
    }
}

/// Whether a running lane averages by `a`.
pub(super) fn wants<M>(lanes: &[VectorLane<'_, M>], a: Average) -> bool {
    lanes
        .iter()
        .any(|lane| lane.failed.is_none() && lane.average == a)
}

/// Each lane's result: its error, or its values combined.
pub(super) fn results<M>(lanes: &[VectorLane<'_, M>]) -> Vec<Result<f64, Error>> {
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

/// The rankings a selection of lanes asks for, each once, in lane order, with the lanes that
/// ask for it: worked out once for the vectors of a pass, not for each (a row's vector is
/// valued in about a microsecond, and `compare` runs some ninety lanes). Whether a lane still
/// runs is asked as each vector is valued ([`running`](Self::running)).
pub(super) struct VectorRankings {
    rankings: Vec<(Ranking, Vec<usize>)>,
}

impl VectorRankings {
    /// The plan of the lanes that `selects` picks, rankings in the order of their first lane
    /// (failed or not: the values do not depend on the order the rankings are made in).
    pub(super) fn new<M>(
        lanes: &[VectorLane<'_, M>], selects: impl Fn(&VectorLane<'_, M>) -> bool,
    ) -> Self {
        let mut rankings: Vec<(Ranking, Vec<usize>)> = Vec::new();
        for (k, lane) in lanes.iter().enumerate().filter(|(_, lane)| selects(lane)) {
            let ranking = lane.options.ranking;
            match rankings.iter_mut().find(|(r, _)| *r == ranking) {
                Some((_, asking)) => asking.push(k),
                None => rankings.push((ranking, vec![k])),
            }
        }
        VectorRankings { rankings }
    }

    /// The plan of the lanes whose averaging is in `averages` and that do not read the pooled
    /// ranking in pieces.
    pub(super) fn of_vectors<M>(lanes: &[VectorLane<'_, M>], averages: &[Average]) -> Self {
        Self::new(lanes, |lane| {
            !lane.pieces && averages.contains(&lane.average)
        })
    }

    /// Each ranking that a lane still running asks for, with those lanes, in order.
    pub(super) fn running<'a, M>(
        &'a self, lanes: &'a [VectorLane<'_, M>],
    ) -> impl Iterator<Item = (Ranking, impl Iterator<Item = usize> + Clone + 'a)> + 'a {
        self.rankings.iter().filter_map(move |(ranking, asking)| {
            let running = asking
                .iter()
                .copied()
                .filter(move |&k| lanes.get(k).is_some_and(|lane| lane.failed.is_none()));
            running
                .clone()
                .next()
                .is_some()
                .then_some((*ranking, running))
        })
    }
}

/// One vector's values, `(lane, value)`, for the running lanes of `plan`, appended to `out`:
/// the vector is sorted once per tie grouping and ranked once per policy. Reads the lanes
/// only, so that vectors can be valued in parallel and their values added in order
/// ([`add_values`]).
pub(super) fn vector_values<M: VectorMetric, T: Score>(
    lanes: &[VectorLane<'_, M>], plan: &VectorRankings, v: &Vector<'_, T>, seed: usize,
    ranker: &mut Ranker, out: &mut Values,
) {
    let (mut sorted, mut counted) = (None, None);
    let relevant = v.labels.iter().filter(|&&y| y != 0.0).count();
    let n = v.scores.len().min(v.labels.len());
    // A vector with few relevant items is ranked by counting when every metric of a ranking
    // reads only the blocks holding them; one the kernel would sort shares the sort of the
    // other policies.
    let weighted = !v.weights.is_unit();
    let counts = |ranking: Ranking, asking| {
        crate::kernel::counts(ranking, n, relevant, Reach::All)
            && reads_only_relevant_blocks(lanes, asking, weighted, n)
    };
    // A long vector's one-pass count costs about as much as its sort: where another ranking
    // of the vector sorts it anyway, every ranking shares that sort.
    let sorts_anyway = plan
        .running(lanes)
        .any(|(ranking, asking)| !counts(ranking, asking))
        && crate::kernel::counts_in_one_pass(n, relevant, Reach::All);
    for (ranking, asking) in plan.running(lanes) {
        let relevant_only = counts(ranking, asking.clone()) && !sorts_anyway;
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
        push_values(lanes, asking, v, &row, out);
    }
}

/// Whether every lane of `asking` reads only the blocks holding relevant items of a vector of
/// `n` items (`weighted`: with weights).
fn reads_only_relevant_blocks<M: VectorMetric>(
    lanes: &[VectorLane<'_, M>], mut asking: impl Iterator<Item = usize>, weighted: bool, n: usize,
) -> bool {
    asking.all(|k| lanes[k].metric.reads_only_relevant_blocks(weighted, n))
}

/// The values of `v`, ranked as `row`, for the lanes `asking` (which ask for that ranking),
/// appended to `out` as `(lane, value)`.
pub(super) fn push_values<M: VectorMetric, T: Score>(
    lanes: &[VectorLane<'_, M>], asking: impl Iterator<Item = usize>, v: &Vector<'_, T>,
    row: &RankedRow<'_>, out: &mut Values,
) {
    for k in asking {
        out.push((k, lanes[k].metric.vector_value(v, row)));
    }
}

/// Adds one vector's `values` (from [`vector_values`]) to their lanes' means, with the weight
/// each lane's averaging gives the vector; a lane that fails stops there.
pub(super) fn add_values<M>(
    lanes: &mut [VectorLane<'_, M>], values: &[(usize, Option<f64>)],
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
