//! The row pass: the checks made once per input ([`check_inputs`]), then per row one read
//! that converts and checks its labels and scores ([`read_row`]), the ranking as far as the
//! metric's formula reads ([`RowReach`]) and the row's value under the degenerate-row rules
//! ([`row_outcome`]).

use std::ops::Range;

use crate::error::{Degeneracy, Error, Input, LabelDomain};
use crate::kernel::{RankedRow, Ranker, Ranking, Reach};
use crate::matrix::{LabelMatrix, Matrix, RowReader, ScoreMatrix};
use crate::row::metric::{RowMetric, RowOptions, RowRule};
use crate::score::{Label, Score};
use crate::validate::{
    check_indicator_rows, check_scores, check_shapes, is_binary_label, is_hit_label,
    is_non_negative_label, read_labels, IndicatorValues,
};

/// Checks shapes, then ranks each row and hands its index in the batch and its value (or `None`
/// if skipped) to `sink`. Each row's scores and labels are validated before the row is ranked,
/// so the first bad row in row order is the one reported. Rows are numbered from `first_row`
/// (in errors and for [`TiePolicy::Random`](crate::TiePolicy::Random)'s streams), so a batch of a longer stream behaves as
/// in the one-shot evaluation; `indicator` carries scikit-learn's label-type check across
/// batches.
pub(crate) fn for_each_row<M, T, Y, S>(
    metric: &M, y_true: &Y, y_score: &S, first_row: usize, indicator: &mut IndicatorValues,
    sink: impl FnMut(usize, Option<f64>),
) -> Result<(), Error>
where
    M: RowMetric,
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
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
    /// The number of the first row, in errors and for [`TiePolicy::Random`](crate::TiePolicy::Random)'s streams.
    first_row: usize,
}

/// The checks made once per input before rows are read: shapes and, for indicator labels,
/// the label matrix up to the row where both label values are known (with the values `seen`
/// in earlier batches); the row pass checks the rest against them.
pub(crate) fn check_inputs<M: RowMetric, Y: LabelMatrix + ?Sized, S: Matrix + ?Sized>(
    metric: &M, y_true: &Y, y_score: &S, first_row: usize, seen: &mut IndicatorValues,
) -> Result<CheckedInputs, Error> {
    metric.check()?;
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
        &mut self, metric: &M, y_true: &Y, y_score: &S, checked: &CheckedInputs,
        rows: Range<usize>, mut sink: impl FnMut(usize, Option<f64>),
    ) -> Result<(), Error>
    where
        M: RowMetric,
        T: Score,
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        let options = metric.options();
        let (l, domain, ranking) = (y_true.ncols(), options.labels, options.ranking);
        let (reach, label_weights) = (RowReach::of(metric), metric.gain_weights());
        let mut truth = RowReader::new(y_true, Input::Labels);
        let mut scores = RowReader::new(y_score, Input::Scores);
        self.gains.resize(l, 0.0);
        let (ranker, gains) = (&mut self.ranker, &mut self.gains);
        let first_row = checked.first_row;
        for i in rows {
            let global = first_row + i;
            let (s, labels) = (scores.row(i)?, truth.row(i)?);
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
            // Only the counting reaches read the relevant columns; from the labels, narrower,
            // where they are the gains.
            match (reach, label_weights) {
                (RowReach::Gathered(_), Some(_)) => ranker.gather(gains.as_slice()),
                (RowReach::Gathered(_), None) => ranker.gather(labels),
                _ => {}
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
/// driver of rows (`RowScratch::each_row`, `shared_pass::evaluate_rows`) ranks through this, so a
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
        self, ranker: &'a mut Ranker, scores: &[T], gains: &'a [f64], ranking: Ranking, row: usize,
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
    fn first_error<Y: LabelMatrix + ?Sized>(&self, y_true: &Y, from: usize) -> Result<(), Error> {
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
    labels: &[L], scores: &[T], domain: LabelDomain, indicator: Option<[f64; 2]>, gains: &mut [f64],
) -> bool {
    match (indicator, domain) {
        (Some([a, b]), _) => read_checked(labels, scores, gains, |v| (v == a) | (v == b)),
        (None, LabelDomain::Binary) => read_checked(labels, scores, gains, is_binary_label),
        (None, LabelDomain::NonNegative) => {
            read_checked(labels, scores, gains, is_non_negative_label)
        }
        (None, LabelDomain::Hits) => read_checked(labels, scores, gains, is_hit_label),
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
    labels: &[L], scores: &[T], gains: &mut [f64], accepts: impl Fn(f64) -> bool,
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
    metric: &M, options: &RowOptions, row: &RankedRow<'_>, l: usize, global: usize,
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
