//! Label-wise metrics valued from runs ([`LabelRuns`]): each label's distinct scores with the
//! number of relevant and irrelevant samples holding them. Runs merge exactly (the counts are
//! integers, so any order of merges gives the same runs) and take O(labels × distinct scores)
//! memory where rows take O(rows × labels).
//!
//! The value is the one the rows give, bitwise, for every metric and policy that reads a
//! ranking's blocks and nothing else: no sample weights (weighted sums run over the samples
//! in row order), no policy that orders a tie by the samples' positions (first, last, random),
//! no per-sample average, no metric that reads the scores themselves (pROC's automatic
//! direction), no tolerance that groups no tie (`Within` of 0 or less, or NaN). [`refusal`]
//! says which; the kernel ranks the runs into the very blocks it gives the samples
//! ([`Ranker::rank_runs`]).
//!
//! Here: the runs and how they merge and are valued; `accumulator.rs`: the streaming
//! [`LabelRunsAccumulator`](crate::LabelRunsAccumulator) that keeps them.

pub(in crate::labelwise) mod accumulator;

use std::borrow::Cow;

use super::columns::column_weight;
use super::drivers::new_lanes;
use super::lanes::{
    add_values, fail, push_values, results, wants, Values, VectorLane, VectorRankings,
};
use super::micro::{check_pool_size, MAX_ITEMS};
use super::vector::{Vector, Weights};
use super::vector_metric::VectorMetric;
use super::Average;
use crate::error::{Error, RunsLimit};
#[cfg(feature = "serde")]
use crate::kernel::check_ranked;
use crate::kernel::{merge_runs_into, pooled_runs, Ranker, ScoreRun};
use crate::ties::{TieGrouping, TiePolicy};
#[cfg(feature = "serde")]
use crate::validate::check_label_count;

/// Each label's runs, best first.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct LabelRuns {
    columns: Vec<Vec<ScoreRun>>,
}

impl LabelRuns {
    /// Runs for `labels` labels, none seen.
    pub(crate) fn new(labels: usize) -> Self {
        LabelRuns {
            columns: vec![Vec::new(); labels],
        }
    }

    /// The number of labels.
    pub(crate) fn labels(&self) -> usize {
        self.columns.len()
    }

    /// The runs held, over every label: the state's size.
    pub(crate) fn run_count(&self) -> usize {
        self.columns.iter().map(Vec::len).sum()
    }

    /// Checks runs read back: a label count as inputs have, and each label's runs best first
    /// (distinct, finite scores, none -0.0: runs hold 0.0 for it, and a merged run keeps the
    /// left one's sign), none empty, holding `rows` items.
    #[cfg(feature = "serde")]
    pub(crate) fn check(&self, rows: u64) -> Result<(), Error> {
        use crate::error::StateFault;
        use crate::state_format::{invalid, refused};
        const FIELD: &str = "runs.columns";
        check_label_count(self.columns.len(), 1).map_err(|e| refused(FIELD, None, e))?;
        for (j, column) in self.columns.iter().enumerate() {
            check_ranked(column).map_err(|fault| invalid(FIELD, Some(j), fault))?;
            let items = column
                .iter()
                .try_fold(0u64, |t, r| t.checked_add(r.items()));
            if items != Some(rows) {
                let found = items.unwrap_or(u64::MAX);
                return Err(invalid(
                    FIELD,
                    Some(j),
                    StateFault::Length {
                        expected: rows,
                        found,
                    },
                ));
            }
        }
        Ok(())
    }

    /// Label j's runs: its samples' scores and labels (0 or 1), ranked into runs by `ranker`.
    pub(crate) fn set_column(
        &mut self, j: usize, scores: &[f64], labels: &[f64], ranker: &mut Ranker,
    ) {
        if let Some(column) = self.columns.get_mut(j) {
            *column = ranker.runs(scores, labels);
        }
    }

    /// Adds every run of `other` (same label count: the caller checks), each label's runs
    /// merged into `scratch`, whose buffer is then swapped with the label's old one.
    pub(crate) fn merge(&mut self, other: &LabelRuns, scratch: &mut Vec<ScoreRun>) {
        for (ours, theirs) in self.columns.iter_mut().zip(&other.columns) {
            merge_runs_into(ours, theirs, scratch);
            core::mem::swap(ours, scratch);
        }
    }
}

/// Runs added batch by batch: a stack of [`LabelRuns`], the oldest and largest at the bottom,
/// the top level merged into the one below while it holds at least half as many runs. Merging
/// every batch into the whole state would walk all of it per batch, quadratic in the rows
/// where scores rarely repeat; with levels each level holds less than half the runs of the one below, so there are
/// O(log runs) levels, each run is merged O(log batches) times, and the levels hold less than
/// twice the runs of the bottom one. Where scores repeat (few runs a label), batches soon
/// merge into the bottom level. The runs the levels hold together, with equal scores added
/// ([`column`](Self::column)), do not depend on how they are split into levels: that is the
/// state, which equality, the run count and the serialised form read.
#[derive(Debug, Clone)]
pub(crate) struct RunLevels {
    /// Bottom first; never empty.
    levels: Vec<LabelRuns>,
    /// The buffer merges write into ([`LabelRuns::merge`]); empty between merges.
    scratch: Vec<ScoreRun>,
}

impl RunLevels {
    /// The levels of `runs` alone.
    pub(crate) fn new(runs: LabelRuns) -> Self {
        RunLevels {
            levels: vec![runs],
            scratch: Vec::new(),
        }
    }

    /// The number of labels.
    pub(crate) fn labels(&self) -> usize {
        self.levels.first().map_or(0, LabelRuns::labels)
    }

    /// Adds `runs` (same label count: the caller checks) as the top level, then merges the top
    /// level into the one below while it holds at least half as many runs.
    pub(crate) fn push(&mut self, runs: LabelRuns) {
        self.levels.push(runs);
        while let [.., below, top] = self.levels.as_mut_slice() {
            if 2 * top.run_count() < below.run_count() {
                break;
            }
            below.merge(top, &mut self.scratch);
            self.levels.pop();
        }
        self.scratch.clear();
    }

    /// Adds every run of `other` (same label count: the caller checks), level by level.
    pub(crate) fn push_all(&mut self, other: &RunLevels) {
        for level in &other.levels {
            self.push(level.clone());
        }
    }

    /// Label j's runs, its levels merged (the smallest first).
    pub(crate) fn column(&self, j: usize) -> Cow<'_, [ScoreRun]> {
        let mut columns = self
            .levels
            .iter()
            .rev()
            .filter_map(|level| level.columns.get(j));
        let Some(top) = columns.next() else {
            return Cow::Borrowed(&[]);
        };
        let (mut merged, mut spare) = (Cow::Borrowed(top.as_slice()), Vec::new());
        for below in columns {
            merge_runs_into(below, &merged, &mut spare);
            let previous = core::mem::replace(&mut merged, Cow::Owned(core::mem::take(&mut spare)));
            if let Cow::Owned(buffer) = previous {
                spare = buffer;
            }
        }
        merged
    }

    /// The runs over every label: the state's size, counted a label at a time.
    pub(crate) fn run_count(&self) -> usize {
        self.label_run_counts().into_iter().sum()
    }

    /// Each label's runs, its levels merged.
    pub(crate) fn label_run_counts(&self) -> Vec<usize> {
        match self.levels.as_slice() {
            [only] => only.columns.iter().map(Vec::len).collect(),
            _ => (0..self.labels()).map(|j| self.column(j).len()).collect(),
        }
    }

    /// Whether both hold the same runs, compared a label at a time.
    pub(crate) fn same_runs(&self, other: &RunLevels) -> bool {
        self.labels() == other.labels()
            && (0..self.labels()).all(|j| self.column(j) == other.column(j))
    }

    /// Each metric's value over the runs of `rows` samples, as the samples' own evaluation
    /// gives it, or the error it gives; [`Error::NotExactInRuns`] for a metric the runs
    /// cannot value exactly. The levels are merged one label at a time, not as a copy of the
    /// whole state.
    pub(crate) fn evaluate<M: VectorMetric>(
        &self, metrics: &[M], rows: usize,
    ) -> Vec<Result<f64, Error>> {
        let l = self.labels();
        let mut lanes = new_lanes(metrics, l, false);
        for lane in lanes.iter_mut().filter(|lane| lane.failed.is_none()) {
            lane.failed = refusal(lane).map(Error::NotExactInRuns);
        }
        if rows == 0 || l == 0 {
            fail(&mut lanes, |_| true, Error::NoSamples);
        }
        let mut ranker = Ranker::new();
        let mut values = Vec::new();
        // The kernel numbers a vector's items with u32, as the samples' evaluation checks.
        check_pool_size(&mut lanes, rows, l);
        // Optimistic and pessimistic rank each item as a block of its own, numbered with u32:
        // a column of more rows than that is refused before a block is made (a state merged
        // from shards, or read back, can hold any count).
        if rows > MAX_ITEMS {
            let error = Error::TooManyItems {
                found: rows,
                max: MAX_ITEMS,
            };
            let per_item = |lane: &VectorLane<'_, M>| lane.options.ranking.ties.sharing().is_none();
            fail(&mut lanes, per_item, error);
        }
        if wants(&lanes, Average::Micro) {
            // Equal scores of several levels pool into one run, as they merge.
            let pooled = pooled_runs(self.levels.iter().flat_map(|level| &level.columns));
            runs_values(&lanes, &[Average::Micro], &pooled, &mut ranker, &mut values);
            add_values(&mut lanes, &values, |_| 1.0);
        }
        if wants(&lanes, Average::Macro) || wants(&lanes, Average::Weighted) {
            for j in 0..l {
                let column = self.column(j);
                let column: &[ScoreRun] = &column;
                values.clear();
                let averages = [Average::Macro, Average::Weighted];
                runs_values(&lanes, &averages, column, &mut ranker, &mut values);
                // The weighted average's weight: the relevant count, an exact integer sum.
                let relevant: u64 = column.iter().map(|r| r.relevant).sum();
                add_values(&mut lanes, &values, column_weight(relevant as f64));
            }
        }
        results(&lanes)
    }
}

/// The form [`LabelRuns`] is serialised in (`{"columns": [[run, ...], ...]}`), written a label
/// at a time from the levels merged: the same bytes whatever the levels.
#[cfg(feature = "serde")]
impl serde::Serialize for RunLevels {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        /// Every label's merged runs, as a sequence.
        struct Columns<'a>(&'a RunLevels);
        impl serde::Serialize for Columns<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_seq((0..self.0.labels()).map(|j| self.0.column(j)))
            }
        }
        let mut state = serializer.serialize_struct("LabelRuns", 1)?;
        state.serialize_field("columns", &Columns(self))?;
        state.end()
    }
}

/// Whether runs can give `metric`'s value exactly ([`Error::NotExactInRuns`] if not).
pub(crate) fn check_runs<M: VectorMetric>(metric: &M) -> Result<(), Error> {
    runs_limit(metric).map_or(Ok(()), |limit| Err(Error::NotExactInRuns(limit)))
}

/// Why runs cannot give `metric`'s value exactly (unweighted), if they cannot.
pub(crate) fn runs_limit<M: VectorMetric>(metric: &M) -> Option<RunsLimit> {
    // Two labels: a one-column input's binary reading does not decide.
    let lanes = new_lanes(core::slice::from_ref(metric), 2, false);
    lanes.first().and_then(refusal)
}

/// Why `lane`'s metric cannot be valued from runs, if it cannot (the state takes no sample
/// weights at all: the accumulator refuses them).
fn refusal<M: VectorMetric>(lane: &VectorLane<'_, M>) -> Option<RunsLimit> {
    let ties = lane.options.ranking.ties;
    if matches!(
        ties,
        TiePolicy::First | TiePolicy::Last | TiePolicy::Random(_)
    ) {
        return Some(RunsLimit::OrderPolicy(ties));
    }
    // Tied samples are less than eps apart only for eps > 0: otherwise each is a group of
    // its own, in row order, where a run would group them.
    if let TieGrouping::Within(eps) = lane.options.ranking.grouping {
        if eps.partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater) {
            return Some(RunsLimit::UngroupedTies);
        }
    }
    if lane.average == Average::Samples {
        return Some(RunsLimit::SamplesAverage);
    }
    if lane.metric.reads_scores() {
        return Some(RunsLimit::ReadsScores);
    }
    None
}

/// One vector's values, `(lane, value)`, for the running lanes whose averaging is in
/// `averages`: the runs ranked once per policy ([`vector_values`](super::lanes::vector_values)
/// for runs).
fn runs_values<M: VectorMetric>(
    lanes: &[VectorLane<'_, M>], averages: &[Average], runs: &[ScoreRun], ranker: &mut Ranker,
    out: &mut Values,
) {
    let plan = VectorRankings::new(lanes, |lane| averages.contains(&lane.average));
    // The metrics read the blocks only: no scores, labels or weights of items.
    let v: Vector<'_, f64> = Vector {
        scores: &[],
        labels: &[],
        weights: Weights::Unit,
    };
    for (ranking, asking) in plan.running(lanes) {
        // `refusal` has failed the lanes of the policies the runs cannot rank.
        let Some(row) = ranker.rank_runs(runs, ranking) else {
            continue;
        };
        push_values(lanes, asking, &v, &row, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One label's runs of `scores`, every item relevant.
    fn batch(scores: &[f64]) -> LabelRuns {
        let mut runs = LabelRuns::new(1);
        let labels = vec![1.0; scores.len()];
        runs.set_column(0, scores, &labels, &mut Ranker::new());
        runs
    }

    #[test]
    fn levels_stay_few_and_hold_less_than_twice_the_bottom_level() {
        // Distinct scores, in batches that shrink and then stay small: levels that did not
        // merge would pile up one a batch.
        let mut next = 0.0;
        let mut distinct = |n: usize| -> Vec<f64> {
            (0..n)
                .map(|_| {
                    next += 1.0;
                    next
                })
                .collect()
        };
        let mut levels = RunLevels::new(batch(&distinct(1000)));
        for n in (0..10).map(|k| 500 >> k).chain([3; 300]) {
            levels.push(batch(&distinct(n.max(1))));
            let held: usize = levels.levels.iter().map(LabelRuns::run_count).sum();
            let bottom = levels.levels[0].run_count();
            assert!(
                held < 2 * bottom,
                "{held} runs held over a bottom of {bottom}"
            );
            let most = 1 + bottom.ilog2() as usize;
            assert!(
                levels.levels.len() <= most,
                "{} levels",
                levels.levels.len()
            );
            // Distinct scores: the merged runs are the runs held.
            assert_eq!(levels.run_count(), held);
            assert!(levels.column(0).windows(2).all(|w| w[0].score > w[1].score));
        }
        // Repeated scores: every batch merges into the bottom level.
        let mut same = RunLevels::new(batch(&[0.1, 0.2, 0.3]));
        for _ in 0..50 {
            same.push(batch(&[0.3, 0.2, 0.1]));
            assert_eq!(same.levels.len(), 1);
        }
        assert_eq!(same.run_count(), 3);
        assert_eq!(same.column(0)[0].relevant, 51);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn levels_serialise_as_their_runs_merged() {
        // Scores 0..100 and 50..150 in two labels' batches: levels with equal scores to add.
        let mut levels = RunLevels::new(batch(&(0..1000).map(f64::from).collect::<Vec<_>>()));
        levels.push(batch(&(500..700).map(f64::from).collect::<Vec<_>>()));
        levels.push(batch(&(650..690).map(f64::from).collect::<Vec<_>>()));
        assert_eq!(levels.levels.len(), 3);
        let merged = LabelRuns {
            columns: vec![levels.column(0).into_owned()],
        };
        assert_eq!(merged.run_count(), 1000);
        assert_eq!(
            serde_json::to_string(&levels).unwrap(),
            serde_json::to_string(&merged).unwrap()
        );
        assert_eq!(
            postcard::to_stdvec(&levels).unwrap(),
            postcard::to_stdvec(&merged).unwrap()
        );
    }
}
