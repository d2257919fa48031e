//! Many row-wise metrics over the same data in one pass: each row is read and validated once,
//! sorted once per tie grouping, ranked once per tie policy, and every metric's formula reads
//! that ranking ("sort once, score many"). Each metric's values are summed in row order, so the
//! results are bitwise those of evaluating the metrics one by one.

use crate::error::{Error, Input, LabelDomain};
use crate::kernel::{may_count, selects_top, Ranker, Ranking, Reach};
use crate::matrix::{LabelMatrix, RowReader, ScoreMatrix};
use crate::row::metric::{RowMetric, RowOptions};
#[cfg(feature = "rayon")]
use crate::row::parallel::{in_chunks, CHUNK_ROWS, WINDOW_ROWS};
use crate::row::pass::{row_outcome, RowReach};
use crate::row::state::mean_value;
use crate::score::{Label, Score};
use crate::sum::WeightedMean;
use crate::ties::{TieGrouping, TiePolicy};
use crate::validate::{
    check_indicator_if_asked, check_scores, check_shapes, check_weights, read_labels,
};

/// One metric's progress through the pass.
struct RowLane<'m> {
    metric: &'m (dyn RowMetric + Sync),
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
pub(crate) fn evaluate_rows<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    metrics: &[&(dyn RowMetric + Sync)], y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
) -> Vec<Result<f64, Error>> {
    evaluate_row_lanes(metrics, y_true, y_score, sample_weight, pass)
}

/// What a row loop reads: the lanes, the matrices, the checked weights, (n, L).
type Pass<'m, Y, S> = fn(&mut [RowLane<'m>], (&Y, &S), Option<&[f64]>, (usize, usize));

/// Makes the checks one-shot evaluation makes before the first row, lets `pass` run the rows,
/// and gives each lane's result.
fn evaluate_row_lanes<'m, T, Y, S>(
    metrics: &[&'m (dyn RowMetric + Sync)], y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    pass: Pass<'m, Y, S>,
) -> Vec<Result<f64, Error>>
where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    let mut lanes: Vec<RowLane<'_>> = metrics
        .iter()
        .map(|&metric| {
            let options = metric.options();
            RowLane {
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
        let checked = lane.metric.check();
        match checked.and_then(|_| check_shapes(y_true, y_score, lane.options.min_labels)) {
            Ok(s) => shape = Some(s),
            Err(e) => lane.failed = Some(e),
        }
    }
    let running = lanes.iter().filter(|l| l.failed.is_none());
    if let Err(e) = check_indicator_if_asked(y_true, running.map(|l| l.options.labels)) {
        fail(
            &mut lanes,
            |l| l.options.labels == LabelDomain::Indicator,
            e,
        );
    }
    if let Some((n, l)) = shape {
        pass(&mut lanes, (y_true, y_score), weights, (n, l));
    }
    lanes
        .iter()
        .map(|lane| match &lane.failed {
            Some(e) => Err(e.clone()),
            None => mean_value(&lane.mean, lane.options.zero_weight),
        })
        .collect()
}

/// [`evaluate_rows`] on the threads of the current rayon pool: the rows are ranked in chunks
/// (every metric of a chunk's row sharing one sort, as in [`evaluate_rows`]), a window at a
/// time, and each window's outcomes are added in row order, so every result is bitwise the
/// same.
#[cfg(feature = "rayon")]
pub(crate) fn evaluate_rows_parallel<T, Y, S>(
    metrics: &[&(dyn RowMetric + Sync)], y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
) -> Vec<Result<f64, Error>>
where
    T: Score,
    Y: LabelMatrix + Sync + ?Sized,
    S: ScoreMatrix<T> + Sync + ?Sized,
{
    evaluate_row_lanes(metrics, y_true, y_score, sample_weight, pass_parallel)
}

/// Records `error` for every lane still running that `which` selects.
fn fail(lanes: &mut [RowLane<'_>], which: impl Fn(&RowLane<'_>) -> bool, error: Error) {
    for lane in lanes.iter_mut().filter(|l| l.failed.is_none() && which(l)) {
        lane.failed = Some(error.clone());
    }
}

/// One ranking of a row and the lanes that read it: a tie grouping, a policy and a reach.
struct Task {
    grouping: TieGrouping,
    ties: TiePolicy,
    reach: RowReach,
    lanes: Vec<usize>,
}

/// How every row is ranked, worked out once: the tasks in order (under each grouping, the full
/// rankings first, sharing one sort of the row, then the other reaches, each under every
/// policy), the label domains to check.
struct RowRankings {
    tasks: Vec<Task>,
    domains: Vec<LabelDomain>,
}

impl RowRankings {
    fn new(lanes: &[RowLane<'_>]) -> Self {
        let mut groupings: Vec<(TieGrouping, Vec<TiePolicy>)> = Vec::new();
        for lane in lanes {
            let r = lane.options.ranking;
            match groupings.iter_mut().find(|(g, _)| *g == r.grouping) {
                Some((_, ties)) if ties.contains(&r.ties) => {}
                Some((_, ties)) => ties.push(r.ties),
                None => groupings.push((r.grouping, vec![r.ties])),
            }
        }
        // A lane that reads one end of the relevant labels, or those in the top k, reads them
        // as well in the ranking of all of them: where a lane of its ranking asks for that one,
        // it shares it (the row is counted once for both, not once per reach).
        let reach_of = |lane: &RowLane<'_>| match lane.reach {
            RowReach::Gathered(Reach::End(_) | Reach::Top(_))
                if lanes.iter().any(|other| {
                    other.options.ranking == lane.options.ranking
                        && other.reach == RowReach::Gathered(Reach::All)
                }) =>
            {
                RowReach::Gathered(Reach::All)
            }
            reach => reach,
        };
        let lane_reaches: Vec<RowReach> = lanes.iter().map(reach_of).collect();
        let mut reaches: Vec<RowReach> = Vec::new();
        for &reach in &lane_reaches {
            if reach != RowReach::Full && !reaches.contains(&reach) {
                reaches.push(reach);
            }
        }
        let mut tasks = Vec::new();
        for (grouping, policies) in groupings {
            let full = policies.iter().map(|&ties| (ties, RowReach::Full));
            // Reach by reach, so that the policies of one reach follow each other and share
            // what they can (a top-k selection); a lane's outcome does not depend on the order.
            let others = reaches
                .iter()
                .flat_map(|&reach| policies.iter().map(move |&ties| (ties, reach)));
            for (ties, reach) in full.chain(others) {
                let ranking = Ranking::new(ties).with_grouping(grouping);
                let served: Vec<usize> = (0..lanes.len())
                    .filter(|&k| lanes[k].options.ranking == ranking && lane_reaches[k] == reach)
                    .collect();
                if !served.is_empty() {
                    tasks.push(Task {
                        grouping,
                        ties,
                        reach,
                        lanes: served,
                    });
                }
            }
        }
        let mut domains: Vec<LabelDomain> = Vec::new();
        for lane in lanes {
            if !domains.contains(&lane.options.labels) {
                domains.push(lane.options.labels);
            }
        }
        RowRankings { tasks, domains }
    }
}

/// A row's outcome for one lane: its value, a skipped row, or an error (kept aside: rare, and
/// larger than a value), so that a window of outcomes stays small.
#[derive(Clone, Copy)]
enum Outcome {
    Value(u32, f64),
    Skip(u32),
    Failed(u32, u32),
}

/// A row's outcomes and the errors they refer to.
#[derive(Default)]
struct Outcomes {
    outcomes: Vec<Outcome>,
    errors: Vec<Error>,
}

impl Outcomes {
    #[cfg(feature = "rayon")]
    fn with_capacity(outcomes: usize) -> Self {
        Outcomes {
            outcomes: Vec::with_capacity(outcomes),
            errors: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.outcomes.clear();
        self.errors.clear();
    }

    fn push(&mut self, lane: usize, outcome: Result<Option<f64>, Error>) {
        // Lanes are metrics of one call: far fewer than u32::MAX.
        let lane = lane as u32;
        self.outcomes.push(match outcome {
            Ok(Some(v)) => Outcome::Value(lane, v),
            Ok(None) => Outcome::Skip(lane),
            Err(e) => {
                self.errors.push(e);
                Outcome::Failed(lane, (self.errors.len() - 1) as u32)
            }
        });
    }
}

/// The scratch of one thread's rows.
struct RowScratch {
    ranker: Ranker,
    gains: Vec<f64>,
    /// Lanes out of the running for the current row.
    out: Vec<bool>,
}

impl RowScratch {
    fn new(l: usize) -> Self {
        RowScratch {
            ranker: Ranker::new(),
            gains: vec![0.0; l],
            out: Vec::new(),
        }
    }
}

/// Row `i` of both inputs (scores first, as the row pass reads them).
fn read_row<'r, T, Y, S>(
    scores: &'r mut RowReader<'_, S>, truth: &'r mut RowReader<'_, Y>, i: usize,
) -> Result<(&'r [T], &'r [Y::Elem]), Error>
where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    Ok((scores.row(i)?, truth.row(i)?))
}

/// Row `i`'s outcomes, in the order one-shot evaluation meets them, for the lanes still
/// running (`lanes` is read only, so that rows can be ranked in parallel and their outcomes
/// added in order by [`add_outcomes`]).
fn row_outcomes<T: Score, L: Label>(
    lanes: &[RowLane<'_>], plan: &RowRankings, row: Result<(&[T], &[L]), Error>,
    (i, l): (usize, usize), scratch: &mut RowScratch, outcomes: &mut Outcomes,
) {
    let out = &mut scratch.out;
    out.clear();
    out.extend(lanes.iter().map(|lane| lane.failed.is_some()));
    if out.iter().all(|&o| o) {
        return;
    }
    let read = row.and_then(|(s, labels)| check_scores(s, i).map(|()| (s, labels)));
    let (s, labels) = match read {
        Ok(row) => row,
        Err(e) => {
            for k in (0..lanes.len()).filter(|&k| !out[k]) {
                outcomes.push(k, Err(e.clone()));
            }
            return;
        }
    };
    // The values read do not depend on the domain, only their check does: one successful
    // read fills `gains` for every lane (a failed one wrote the same values too).
    let mut read = false;
    for &domain in &plan.domains {
        match read_labels(labels, domain, i, &mut scratch.gains) {
            Ok(()) => read = true,
            Err(e) => {
                for (k, lane) in lanes.iter().enumerate() {
                    if !out[k] && lane.options.labels == domain {
                        out[k] = true;
                        outcomes.push(k, Err(e.clone()));
                    }
                }
            }
        }
    }
    if !read {
        return; // every lane has failed on this row
    }
    let (ranker, gains) = (&mut scratch.ranker, &scratch.gains);
    // The gains are the labels' values (no lane has label weights): gathered from the labels,
    // narrower.
    ranker.gather(labels);
    let n = s.len().min(gains.len());
    // Each lane gets its row as its one-shot evaluation ranks it (`RowReach`). `sorted` is
    // what the kernel holds: a sort of the whole row or of its top k, or the counted groups of
    // a reach, under a grouping; the policies of a (grouping, reach) after the first only
    // assign (place) them.
    let mut sorted = None;
    for task in &plan.tasks {
        if task.lanes.iter().all(|&k| out[k]) {
            continue;
        }
        let ranking = Ranking::new(task.ties).with_grouping(task.grouping);
        // Reaches the kernel would rank as another: a relevant-only reach it cannot count
        // (`Random`, many relevant labels) as the top or whole row, a top that is the whole row
        // as the whole row (`Ranker::rank_gathered`, `rank_top`), so that they share that sort;
        // under a tolerance grouping, a relevant-only reach of a row sorted already under it.
        let sorted_whole = sorted == Some((task.grouping, RowReach::Full));
        let relevant = ranker.gathered_len();
        let reach = match task.reach {
            RowReach::Gathered(r) if !counted_by_kernel(ranking, n, relevant, r, sorted_whole) => {
                match r {
                    Reach::Top(k) => RowReach::Top(k),
                    _ => RowReach::Full,
                }
            }
            reach => reach,
        };
        let reach = match reach {
            RowReach::Top(k) if !selects_top(n, k, task.grouping) => RowReach::Full,
            reach => reach,
        };
        let row = match reach {
            RowReach::Full if sorted == Some((task.grouping, reach)) => {
                ranker.reassign(gains, task.ties, i)
            }
            RowReach::Full => {
                ranker.sort(&s[..n], task.grouping);
                sorted = Some((task.grouping, reach));
                ranker.assign(gains, task.ties, i)
            }
            RowReach::Top(k) => {
                let again = sorted == Some((task.grouping, reach));
                if !again {
                    ranker.sort_top(s, gains.len(), k);
                    sorted = Some((task.grouping, reach));
                }
                ranker.assign_top(gains, task.ties, i, again)
            }
            RowReach::Gathered(r) if sorted == Some((task.grouping, reach)) => {
                ranker.rank_gathered_again(s, gains, ranking, i, r)
            }
            reach => {
                let row = reach.rank(ranker, s, gains, ranking, i);
                // A relevant-only reach the kernel found it could not count (a tolerance grouping
                // with a score near a relevant one) is a sort of the whole row (`Ranker::rank`):
                // the next policies place it again.
                let whole = matches!(reach, RowReach::Gathered(Reach::All | Reach::End(_)))
                    && !row.order().is_empty();
                sorted = Some((task.grouping, if whole { RowReach::Full } else { reach }));
                row
            }
        };
        for &k in task.lanes.iter().filter(|&&k| !out[k]) {
            let lane = &lanes[k];
            outcomes.push(k, row_outcome(lane.metric, &lane.options, &row, l, i));
        }
    }
}

/// Adds one row's outcomes (`outcomes`, whose errors are in `errors`), of weight `w`, to their
/// lanes; a lane stops at its first error.
fn add_outcomes(lanes: &mut [RowLane<'_>], outcomes: &[Outcome], errors: &[Error], w: f64) {
    for &outcome in outcomes {
        let (Outcome::Value(k, _) | Outcome::Skip(k) | Outcome::Failed(k, _)) = outcome;
        let Some(lane) = lanes
            .get_mut(k as usize)
            .filter(|lane| lane.failed.is_none())
        else {
            continue;
        };
        match outcome {
            Outcome::Value(_, v) => lane.mean.add(v, w),
            Outcome::Skip(_) => {}
            Outcome::Failed(_, e) => lane.failed = errors.get(e as usize).cloned(),
        }
    }
}

/// The row loop.
fn pass<T, Y, S>(
    lanes: &mut [RowLane<'_>], (y_true, y_score): (&Y, &S), weights: Option<&[f64]>,
    (n, l): (usize, usize),
) where
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    let plan = RowRankings::new(lanes);
    let mut truth = RowReader::new(y_true, Input::Labels);
    let mut scores = RowReader::new(y_score, Input::Scores);
    let mut scratch = RowScratch::new(l);
    let mut outcomes = Outcomes::default();
    for i in 0..n {
        outcomes.clear();
        let row = read_row(&mut scores, &mut truth, i);
        row_outcomes(lanes, &plan, row, (i, l), &mut scratch, &mut outcomes);
        let w = weights.map_or(1.0, |w| w[i]);
        add_outcomes(lanes, &outcomes.outcomes, &outcomes.errors, w);
        if lanes.iter().all(|lane| lane.failed.is_some()) {
            return;
        }
    }
}

/// [`pass`] on the threads of the current rayon pool: chunks of rows ranked in parallel, a
/// window at a time, the window's outcomes added in row order.
#[cfg(feature = "rayon")]
fn pass_parallel<T, Y, S>(
    lanes: &mut [RowLane<'_>], (y_true, y_score): (&Y, &S), weights: Option<&[f64]>,
    (n, l): (usize, usize),
) where
    T: Score,
    Y: LabelMatrix + Sync + ?Sized,
    S: ScoreMatrix<T> + Sync + ?Sized,
{
    let plan = RowRankings::new(lanes);
    let chunk = CHUNK_ROWS;
    // Outcomes held at once (16 bytes each): a window's rows times the lanes, at most about
    // WINDOW_ROWS of them unless that leaves fewer than 8 chunks to share.
    let window = (WINDOW_ROWS / lanes.len().max(1)).max(8 * chunk) / chunk * chunk;
    for first in (0..n).step_by(window) {
        if lanes.iter().all(|lane| lane.failed.is_some()) {
            return;
        }
        let rows = first..n.min(first + window);
        let shared: &[RowLane<'_>] = lanes;
        let scratch = || {
            let readers = (
                RowReader::new(y_true, Input::Labels),
                RowReader::new(y_score, Input::Scores),
            );
            (RowScratch::new(l), readers)
        };
        // Per chunk: its rows' outcomes end to end, and where each row's end.
        let chunks = in_chunks(rows, scratch, |(scratch, (truth, scores)), rows| {
            // At most one outcome per running lane and row: sized once, not grown (each
            // growth copied the outcomes so far into new memory).
            let running = shared.iter().filter(|lane| lane.failed.is_none()).count();
            let mut ends = Vec::with_capacity(rows.len());
            let mut outcomes = Outcomes::with_capacity(rows.len() * running);
            for i in rows {
                let row = read_row(scores, truth, i);
                row_outcomes(shared, &plan, row, (i, l), scratch, &mut outcomes);
                ends.push(outcomes.outcomes.len());
            }
            (ends, outcomes)
        });
        let mut i = first;
        for (ends, outcomes) in &chunks {
            let mut start = 0;
            for &end in ends {
                let w = weights.map_or(1.0, |w| w[i]);
                let row = &outcomes.outcomes[start..end];
                add_outcomes(lanes, row, &outcomes.errors, w);
                (start, i) = (end, i + 1);
            }
        }
    }
}

/// Whether the kernel's counting path ranks a relevant-only reach `r` of a row of `n` labels,
/// `relevant` of them relevant (`Ranker::rank_gathered`): where it may count the row
/// (`may_count`; under a tolerance grouping it looks at the row and sorts it if it cannot),
/// unless the row is `sorted_whole` under a tolerance grouping already: placing that sort
/// again costs less than looking.
fn counted_by_kernel(
    ranking: Ranking, n: usize, relevant: usize, r: Reach, sorted_whole: bool,
) -> bool {
    let sorted_near = sorted_whole && ranking.grouping != TieGrouping::Exact;
    !sorted_near && may_count(ranking, n, relevant, r)
}
