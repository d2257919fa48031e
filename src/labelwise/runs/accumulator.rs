//! Streaming evaluation of label-wise and pooled metrics in O(labels × distinct scores) memory:
//! [`LabelRunsAccumulator`] keeps, for each label, its distinct scores with how many relevant
//! and irrelevant samples hold each.

use core::ops::Range;

use crate::error::{Error, Input, LabelDomain, RunsLimit};
use crate::kernel::Ranker;
use crate::labelwise::runs::{check_runs, LabelRuns, RunLevels};
use crate::labelwise::VectorMetric;
use crate::matrix::{LabelMatrix, RowReader, ScoreMatrix};
use crate::memory;
use crate::row::rows::Rows;
use crate::score::Score;
use crate::state_format::StateVersion;
use crate::validate::{check_shapes, read_checked_row};

/// A label-wise or pooled metric (ROC AUC, label average precision) evaluated in batches,
/// keeping each label's runs: its distinct scores, each with the number of relevant and
/// irrelevant samples that hold it.
///
/// Where scores repeat (rounded probabilities, a floor score for the labels outside a top k)
/// the state is far smaller than the rows [`LabelwiseAccumulator`](crate::LabelwiseAccumulator)
/// keeps: 24 bytes per distinct (label, score) pair instead of 16 per cell. Runs hold counts,
/// so merges are exact in any order or grouping, and [`value`](Self::value) is bitwise the
/// one-shot evaluation of the same rows.
///
/// That needs a metric that reads the ranking's tie groups and nothing else of the samples.
/// Refused with [`Error::NotExactInRuns`]: the tie policies first, last and random (they order a
/// tie by the samples' positions), the `samples` average, pROC's automatic direction (it reads
/// the class medians' scores), a [`TieGrouping::Within`](crate::TieGrouping::Within) tolerance
/// of 0 or less or NaN (it groups no tie: tied samples stay apart in row order), and sample
/// weights. Labels must be 0 or 1. Every accumulator
/// knows which rows it has seen, as a [`LabelwiseAccumulator`](crate::LabelwiseAccumulator)
/// does, and a merge of accumulators that have seen a common row is refused.
///
/// # Example
/// ```
/// use rankmetrics::{Average, RankingMetric, RocAuc, TiePolicy};
/// let auc = RocAuc::new(Average::Macro, TiePolicy::Average);
/// let (y, s) = ([[1, 0], [0, 1], [1, 1], [0, 0]], [[0.9, 0.5], [0.5, 0.5], [0.9, 0.1], [0.1, 0.5]]);
/// let mut first = auc.runs_accumulator().unwrap();
/// first.update(&y[..2], &s[..2], None).unwrap();
/// let mut second = auc.runs_accumulator_starting_at(2).unwrap();
/// second.update(&y[2..], &s[2..], None).unwrap();
/// second.merge(&first).unwrap();
/// assert_eq!(second.value().unwrap(), auc.evaluate(&y, &s, None).unwrap());
/// assert_eq!(second.run_count(), 5); // label 0: 0.9, 0.5, 0.1; label 1: 0.5, 0.1
/// ```
///
/// A state read back is checked whole ([`Error::InvalidState`] if it breaks a rule): a metric
/// whose value the runs give exactly, its label domain, and each label's runs best first, of
/// finite, distinct scores (0.0, not -0.0), none empty, holding one item per row seen.
#[derive(Debug, Clone)]
pub struct LabelRunsAccumulator<M> {
    /// The serialised form's format version (first, so that it is read first).
    version: StateVersion,
    metric: M,
    domain: LabelDomain,
    /// The global numbers of the rows seen.
    rows: Rows,
    /// The runs, in levels merged lazily; `None` before the first row (the label count is
    /// not known).
    runs: Option<RunLevels>,
}

/// Equal when they hold the same runs, however they are split into levels.
impl<M: PartialEq> PartialEq for LabelRunsAccumulator<M> {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
            && self.metric == other.metric
            && self.domain == other.domain
            && self.rows == other.rows
            && match (&self.runs, &other.runs) {
                (Some(ours), Some(theirs)) => ours.same_runs(theirs),
                (ours, theirs) => ours.is_none() && theirs.is_none(),
            }
    }
}

/// The runs merged, one list a label (the run-levels form): the form does not depend on the
/// levels.
#[cfg(feature = "serde")]
impl<M: serde::Serialize> serde::Serialize for LabelRunsAccumulator<M> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut state = serializer.serialize_struct("LabelRunsAccumulator", 5)?;
        state.serialize_field("version", &self.version)?;
        state.serialize_field("metric", &self.metric)?;
        state.serialize_field("domain", &self.domain)?;
        state.serialize_field("rows", &self.rows)?;
        state.serialize_field("runs", &self.runs)?;
        state.end()
    }
}

// The bound is the crate's own: only its label-wise metrics make these accumulators
// (`runs_accumulator`), and callers use them through those concrete types.
#[allow(private_bounds)]
impl<M: VectorMetric> LabelRunsAccumulator<M> {
    /// An empty accumulator for `metric`, whose labels must lie in `domain`, numbering its
    /// first batch's rows from `first_row`.
    ///
    /// # Errors
    /// [`Error::NotExactInRuns`] for a metric whose value the runs cannot give exactly.
    pub(crate) fn new(metric: M, domain: LabelDomain, first_row: usize) -> Result<Self, Error> {
        check_runs(&metric)?;
        Ok(LabelRunsAccumulator {
            version: StateVersion,
            metric,
            domain,
            rows: Rows::starting_at(first_row),
            runs: None,
        })
    }

    /// Validates a batch of rows and adds their runs (an empty batch is a no-op). On error
    /// nothing is added.
    ///
    /// # Errors
    /// [`Error::NotExactInRuns`] for sample weights; non-finite scores, labels outside the
    /// metric's domain or other than 0 and 1 (rows numbered across batches), and
    /// [`Error::Incompatible`] when the label count differs from earlier batches.
    pub fn update<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
        &mut self, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
    ) -> Result<(), Error> {
        if sample_weight.is_some() {
            return Err(Error::NotExactInRuns(RunsLimit::SampleWeights));
        }
        let (n, l) = match check_shapes(y_true, y_score, 1) {
            Err(Error::NoSamples) => return Ok(()),
            other => other?,
        };
        self.agree_on_labels(l)?;
        self.rows.check_batch(n)?;
        let first = self.rows.next();
        // Validated whole before anything is added, column by column.
        let columns = || {
            (0..l)
                .map(|_| memory::with_room(n))
                .collect::<Result<Vec<_>, _>>()
        };
        let (mut scores, mut truth) = (columns()?, columns()?);
        let mut labels = RowReader::new(y_true, Input::Labels);
        let mut reader = RowReader::new(y_score, Input::Scores);
        let mut gains = vec![0.0; l];
        for i in 0..n {
            let readers = (&mut labels, &mut reader);
            let (s, _) = read_checked_row(readers, self.domain, (i, first + i), &mut gains)?;
            if let Some(column) = gains.iter().position(|&g| g != 0.0 && g != 1.0) {
                return Err(Error::InvalidLabel {
                    row: first + i,
                    column,
                    value: gains[column],
                    expected: LabelDomain::Binary,
                });
            }
            for (j, (&g, x)) in gains.iter().zip(s).enumerate() {
                scores[j].push(x.as_f64());
                truth[j].push(g);
            }
        }
        let mut batch = LabelRuns::new(l);
        let mut ranker = Ranker::new();
        for (j, (s, y)) in scores.iter().zip(&truth).enumerate() {
            batch.set_column(j, s, y, &mut ranker);
        }
        match &mut self.runs {
            Some(runs) => runs.push(batch),
            None => self.runs = Some(RunLevels::new(batch)),
        }
        self.rows.take_batch(n);
        Ok(())
    }

    /// Adds the runs of another accumulator of the same metric: merges in any order or
    /// grouping give the same runs.
    ///
    /// # Errors
    /// [`Error::Incompatible`] with [`Incompatibility::Overlap`](crate::Incompatibility::Overlap)
    /// when both have seen a row, or when the metrics or label counts differ. On error nothing
    /// is merged.
    pub fn merge(&mut self, other: &Self) -> Result<(), Error>
    where
        M: PartialEq,
    {
        if self.metric != other.metric || self.domain != other.domain {
            return Err(Error::Incompatible(crate::Incompatibility::Metric));
        }
        if let Some(theirs) = &other.runs {
            self.agree_on_labels(theirs.labels())?;
        }
        let rows = self.rows.union(&other.rows)?;
        match (&mut self.runs, &other.runs) {
            (Some(ours), Some(theirs)) => ours.push_all(theirs),
            (ours @ None, theirs) => ours.clone_from(theirs),
            (Some(_), None) => {}
        }
        self.rows = rows;
        Ok(())
    }

    /// Refuses `found` labels where the runs hold another number (none before the first row).
    fn agree_on_labels(&self, found: usize) -> Result<(), Error> {
        match self.runs.as_ref().map(RunLevels::labels) {
            Some(expected) if expected != found => {
                Err(Error::Incompatible(crate::Incompatibility::Labels {
                    expected,
                    found,
                }))
            }
            _ => Ok(()),
        }
    }

    /// The metric over every row seen, bitwise as its one-shot evaluation of those rows.
    ///
    /// # Errors
    /// [`Error::NoSamples`] before any row; otherwise as the metric's one-shot evaluation.
    pub fn value(&self) -> Result<f64, Error> {
        let runs = self.runs.as_ref().ok_or(Error::NoSamples)?;
        let values = runs.evaluate(core::slice::from_ref(&self.metric), self.rows.count());
        values.into_iter().next().unwrap_or(Err(Error::NoSamples))
    }

    /// The rows seen, as global row numbers: sorted, disjoint ranges (touching ranges joined).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Average, RocAuc, TiePolicy};
    /// let auc = RocAuc::new(Average::Micro, TiePolicy::Max);
    /// let mut acc = auc.runs_accumulator_starting_at(5).unwrap();
    /// acc.update(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None).unwrap();
    /// assert_eq!(acc.rows(), [5..7]);
    /// assert_eq!(acc.row_count(), 2);
    /// ```
    pub fn rows(&self) -> &[Range<usize>] {
        self.rows.ranges()
    }

    /// The number of rows seen.
    pub fn row_count(&self) -> usize {
        self.rows.count()
    }

    /// The runs over every label (distinct label–score pairs): the state holds 24 bytes for
    /// each. Batches not yet merged into the rest hold fewer runs than that again.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Average, LabelAveragePrecision, TiePolicy};
    /// let ap = LabelAveragePrecision::new(Average::Macro, TiePolicy::Max);
    /// let mut acc = ap.runs_accumulator().unwrap();
    /// acc.update(&[[1, 0], [0, 1], [1, 0]], &[[0.5, 0.0], [0.5, 0.0], [0.5, 0.9]], None).unwrap();
    /// assert_eq!(acc.run_count(), 3); // label 0: 0.5; label 1: 0.9, 0.0
    /// ```
    pub fn run_count(&self) -> usize {
        self.runs.as_ref().map_or(0, RunLevels::run_count)
    }

    /// Each label's runs (its distinct scores), in label order; empty before the first row.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Average, LabelAveragePrecision, TiePolicy};
    /// let ap = LabelAveragePrecision::new(Average::Macro, TiePolicy::Max);
    /// let mut acc = ap.runs_accumulator().unwrap();
    /// assert!(acc.label_run_counts().is_empty());
    /// acc.update(&[[1, 0], [0, 1], [1, 0]], &[[0.5, 0.0], [0.5, 0.0], [0.5, 0.9]], None).unwrap();
    /// assert_eq!(acc.label_run_counts(), [1, 2]); // label 0: 0.5; label 1: 0.9, 0.0
    /// ```
    pub fn label_run_counts(&self) -> Vec<usize> {
        self.runs
            .as_ref()
            .map_or_else(Vec::new, RunLevels::label_run_counts)
    }

    /// The metric being accumulated.
    pub fn metric(&self) -> &M {
        &self.metric
    }
}

#[cfg(feature = "serde")]
mod wire {
    //! The serialised form, checked when read ([`Error::InvalidState`]).
    use super::VectorMetric;
    use super::{check_runs, Error, LabelDomain, LabelRuns, Rows, RunLevels, StateVersion};
    use crate::error::StateFault;
    use crate::state_format::{check_domain, checked, invalid, refused};

    #[derive(serde::Deserialize)]
    struct LabelRunsAccumulator<M> {
        version: StateVersion,
        metric: M,
        domain: LabelDomain,
        rows: Rows,
        runs: Option<LabelRuns>,
    }

    // The bound is the crate's own: only its label-wise metrics make these accumulators.
    #[allow(private_bounds)]
    impl<'de, M> serde::Deserialize<'de> for super::LabelRunsAccumulator<M>
    where
        M: serde::Deserialize<'de> + VectorMetric,
    {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            checked::<D, _>(LabelRunsAccumulator::deserialize(d)?.check())
        }
    }

    impl<M: VectorMetric> LabelRunsAccumulator<M> {
        fn check(self) -> Result<super::LabelRunsAccumulator<M>, Error> {
            check_runs(&self.metric).map_err(|e| refused("metric", None, e))?;
            check_domain(self.domain, self.metric.options().labels)?;
            let rows = self.rows.count() as u64;
            match &self.runs {
                // Runs are made by the first row: none before it, whatever the label count.
                Some(runs) if rows > 0 => runs.check(rows)?,
                None if rows == 0 => {}
                _ => {
                    let expected = "runs once rows were seen, none before";
                    return Err(invalid("runs", None, StateFault::Value { expected }));
                }
            }
            Ok(super::LabelRunsAccumulator {
                version: self.version,
                metric: self.metric,
                domain: self.domain,
                rows: self.rows,
                runs: self.runs.map(RunLevels::new),
            })
        }
    }
}
