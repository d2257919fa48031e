//! The comparison's footnotes, as every front door prints them under the table: why a cell
//! has no value (the row or label that leaves it undefined, read off the inputs), and why a
//! flagged value lies outside the interval (the rule of its convention that puts it there).

use super::{outside, Cell, Column, Concept, Needs, Over, Row};
use crate::compat::registry::{evaluate_all, Preset};
use crate::compat::torchmetrics::{Float32Scores, Logits, PredsDtype};
use crate::error::Error;
use crate::matrix::{LabelMatrix, Matrix, RowMajor, ScoreMatrix};
use crate::score::{Label, Score};
use crate::ties::{TieGrouping, TiePolicy};

/// How the notes evaluate presets: on this thread, or on the current rayon pool.
#[derive(Debug, Clone, Copy)]
enum Threads {
    One,
    #[cfg(feature = "rayon")]
    Pool,
}

impl Threads {
    fn evaluate_all<Y, S>(
        self, presets: &[Preset], y_true: &Y, y_score: &S, weights: Option<&[f64]>,
    ) -> Vec<Result<f64, Error>>
    where
        Y: Matrix<Elem = f64> + Sync + ?Sized,
        S: Matrix<Elem = f64> + Sync + ?Sized,
    {
        match self {
            Threads::One => evaluate_all(presets, y_true, y_score, weights),
            #[cfg(feature = "rayon")]
            Threads::Pool => {
                crate::compat::registry::evaluate_all_parallel(presets, y_true, y_score, weights)
            }
        }
    }
}

/// What the footnotes say about each row and cell.
#[derive(Debug)]
pub struct Notes {
    /// Per row: why its NaN cells have no value (`None` when it has none).
    undefined: Vec<Option<String>>,
    /// Per row, per cell (in `Row::cells` order): why a value lies outside the interval.
    flags: Vec<Vec<Option<Flag>>>,
}

/// Why a value lies outside the interval [pessimistic, optimistic].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Flag {
    /// A rank-sharing tie policy: tied items share one rank, which no ordering of them gives.
    Shared(TiePolicy),
    /// The convention ties scores that differ, which the interval (equal scores tie) does
    /// not; `interval` is the interval with the convention's ties, and holds the value.
    Merged {
        /// The rule.
        rule: Merge,
        /// The interval [pessimistic, optimistic] with the rule's ties.
        interval: (f64, f64),
    },
    /// Neither: a rule of the convention beyond how it treats ties.
    Definition,
}

/// A rule by which a convention ties scores that are not equal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Merge {
    /// Scores closer than a tolerance tie (MULAN's Weka grouping).
    Grouping(TieGrouping),
    /// Scores are cast to float32 first (torchmetrics' retrieval metrics).
    Float32,
    /// Scores outside [0, 1] go through a sigmoid (torchmetrics' logits), which rounds large
    /// ones to the same value; in a narrower preds dtype than float64 the scores are cast to
    /// it and the sigmoid rounded to it, which also ties close logits.
    Sigmoid(PredsDtype),
}

/// An interval [pessimistic, optimistic], if both ends have a value.
type Interval = Option<(f64, f64)>;

/// The rules looked for, the coarser first: a half preds dtype ties every probe after it (its
/// cast ties the Weka probe's two scores), a Weka grouping the float32 probe, and the float32
/// sigmoid every probe after it.
const MERGES: [Merge; 6] = [
    Merge::Sigmoid(PredsDtype::BFloat16),
    Merge::Sigmoid(PredsDtype::Float16),
    Merge::Grouping(TieGrouping::WEKA),
    Merge::Sigmoid(PredsDtype::Float32),
    Merge::Float32,
    Merge::Sigmoid(PredsDtype::Float64),
];

impl Merge {
    /// Two scores that this rule ties and `==` does not.
    fn probe(self) -> Option<(f64, f64)> {
        match self {
            Merge::Grouping(TieGrouping::Within(eps)) => Some((0.5, 0.5 + eps / 2.0)),
            Merge::Grouping(_) => None,
            // A quarter of float32's spacing at 0.5: one float32, two f64.
            Merge::Float32 => Some((0.5, 0.5 + f64::from(f32::EPSILON) / 8.0)),
            // The bfloat16 sigmoids are one value (0.953125), the float16 ones two.
            Merge::Sigmoid(PredsDtype::BFloat16) => Some((3.0, 3.015625)),
            // Both saturate to 1.0 in float16, not in float32.
            Merge::Sigmoid(PredsDtype::Float16) => Some((9.0, 10.0)),
            // Both saturate to 1.0 in float32, not in f64.
            Merge::Sigmoid(PredsDtype::Float32) => Some((18.0, 20.0)),
            // Both saturate to 1.0 in f64.
            Merge::Sigmoid(_) => Some((40.0, 41.0)),
        }
    }

    /// Whether `preset` follows this rule: on the probe's scores, with every relevant item
    /// below every irrelevant one and then above, it gives what all-tied scores give.
    fn followed_by(self, preset: &Preset) -> bool {
        let Some((lo, hi)) = self.probe() else {
            return false;
        };
        let y_true = [[0.0, 1.0], [1.0, 0.0]];
        let value = |s: [[f64; 2]; 2]| preset.evaluate(&y_true, &s, None);
        let tied = value([[lo, lo], [lo, lo]]);
        let below = value([[hi, lo], [lo, hi]]);
        let above = value([[lo, hi], [hi, lo]]);
        matches!((tied, below, above), (Ok(t), Ok(b), Ok(a)) if t == b && t == a)
    }

    /// The interval [pessimistic, optimistic] of each concept with this rule's ties, all in
    /// one evaluation; `None` where the reference cannot take the rule or has no value.
    fn intervals<Y, S>(
        self, threads: Threads, concepts: &[&Concept], y_true: &Y, y_score: &S,
        weights: Option<&[f64]>,
    ) -> Vec<Interval>
    where
        Y: Matrix<Elem = f64> + Sync + ?Sized,
        S: Matrix<Elem = f64> + Sync + ?Sized,
    {
        let extra = match self {
            Merge::Grouping(TieGrouping::Within(eps)) => vec![("grouping", format!("{eps:e}"))],
            _ => Vec::new(),
        };
        let ends: Vec<Option<[Preset; 2]>> = concepts
            .iter()
            .map(|c| {
                let end = |t| c.reference_with(&extra, t);
                Some([end(TiePolicy::Pessimistic)?, end(TiePolicy::Optimistic)?])
            })
            .collect();
        let presets: Vec<Preset> = ends.iter().flatten().flatten().cloned().collect();
        let values = match self {
            Merge::Grouping(_) => threads.evaluate_all(&presets, y_true, y_score, weights),
            Merge::Float32 => {
                let view = Float32Scores::new(y_score);
                threads.evaluate_all(&presets, y_true, &view, weights)
            }
            Merge::Sigmoid(dtype) => match Logits::with_dtype(y_score, dtype) {
                Ok(view) => threads.evaluate_all(&presets, y_true, &view, weights),
                Err(_) => return vec![None; concepts.len()],
            },
        };
        let mut values = values.into_iter();
        ends.iter()
            .map(|e| {
                // Concepts without presets have no values in the list.
                e.as_ref()?;
                match (values.next()?, values.next()?) {
                    (Ok(p), Ok(o)) if p.is_finite() && o.is_finite() => Some((p.min(o), p.max(o))),
                    _ => None,
                }
            })
            .collect()
    }

    /// What the rule does, for a footnote.
    pub fn describe(self) -> String {
        match self {
            Merge::Grouping(g @ TieGrouping::Within(eps)) => {
                let whose = if g == TieGrouping::WEKA {
                    " (Weka's grouping)"
                } else {
                    ""
                };
                format!("scores less than {eps:e} apart tie{whose}")
            }
            Merge::Grouping(_) => "equal scores tie".into(),
            Merge::Float32 => {
                "scores are cast to float32, so scores that round to one float32 tie".into()
            }
            Merge::Sigmoid(PredsDtype::Float32) => "scores are float32 preds: outside [0, 1] \
                                                    they go through torch's float32 sigmoid, \
                                                    which rounds scores above about 16.6 to 1 \
                                                    and close scores to one value, so they tie"
                .into(),
            Merge::Sigmoid(dtype @ (PredsDtype::Float16 | PredsDtype::BFloat16)) => format!(
                "scores are {} preds: cast to it, and outside [0, 1] through torch's sigmoid \
                 rounded to it, close scores round to one value, so they tie",
                dtype.name()
            ),
            Merge::Sigmoid(_) => "scores outside [0, 1] go through a sigmoid, which rounds \
                                  large scores to one value, so they tie"
                .into(),
        }
    }
}

impl Notes {
    /// Reads what the footnotes need off the inputs that gave `rows` (of
    /// [`compare`](super::compare)): the rows and labels with a single class (only if some
    /// cell is NaN), and for each flagged toolkit cell the interval under the rule its
    /// convention ties scores by (evaluated on this thread).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{compare, Notes};
    /// let (y, s) = ([[1.0, 0.0], [0.0, 0.0]], [[0.5, 0.5], [0.2, 0.9]]);
    /// let rows = compare(&y, &s, None, Default::default());
    /// let notes = Notes::new(&rows, &y, &s, None);
    /// let auc = rows.iter().position(|r| r.concept.name == "AUC, per sample").unwrap();
    /// assert_eq!(
    ///     notes.undefined(auc),
    ///     Some("AUC, per sample: undefined, row 1 has no relevant label (1 of 2 rows has one class)")
    /// );
    /// ```
    pub fn new<Y, S>(rows: &[Row], y_true: &Y, y_score: &S, weights: Option<&[f64]>) -> Notes
    where
        Y: Matrix<Elem = f64> + Sync + ?Sized,
        S: Matrix<Elem = f64> + Sync + ?Sized,
    {
        Notes::read(Threads::One, rows, y_true, y_score, weights)
    }

    /// [`Notes::new`] with the presets evaluated on the current rayon pool (feature `rayon`).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{compare_parallel, Notes};
    /// let (y, s) = ([[1.0, 0.0], [0.0, 1.0]], [[0.5, 0.5], [0.2, 0.9]]);
    /// let rows = compare_parallel(&y, &s, None, Default::default());
    /// let notes = Notes::new_parallel(&rows, &y, &s, None);
    /// assert_eq!(notes.undefined(0), None);
    /// ```
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn new_parallel<Y, S>(
        rows: &[Row], y_true: &Y, y_score: &S, weights: Option<&[f64]>,
    ) -> Notes
    where
        Y: Matrix<Elem = f64> + Sync + ?Sized,
        S: Matrix<Elem = f64> + Sync + ?Sized,
    {
        Notes::read(Threads::Pool, rows, y_true, y_score, weights)
    }

    /// [`Notes::new`] on inputs of any label and score type: where the notes read the inputs
    /// ([`Notes::read_inputs`]), on row-major float64 copies of them, so that one compiled
    /// reading serves every type (the front doors that take many array types call this).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{compare, Notes};
    /// let (y, s) = ([[1u8, 0], [0, 0]], [[0.5f32, 0.5], [0.2, 0.9]]);
    /// let rows = compare(&y, &s, None, Default::default());
    /// let auc = rows.iter().position(|r| r.concept.name == "AUC, per sample").unwrap();
    /// assert!(Notes::of(&rows, &y, &s, None).undefined(auc).is_some());
    /// ```
    pub fn of<T, Y, S>(rows: &[Row], y_true: &Y, y_score: &S, weights: Option<&[f64]>) -> Notes
    where
        T: Score,
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        Notes::copied(Threads::One, rows, y_true, y_score, weights)
    }

    /// [`Notes::of`] with the presets evaluated on the current rayon pool (feature `rayon`).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{compare_parallel, Notes};
    /// let (y, s) = ([[1u8, 0]], [[0.5f32, 0.5]]);
    /// let rows = compare_parallel(&y, &s, None, Default::default());
    /// assert_eq!(Notes::of_parallel(&rows, &y, &s, None).undefined(0), None);
    /// ```
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn of_parallel<T, Y, S>(
        rows: &[Row], y_true: &Y, y_score: &S, weights: Option<&[f64]>,
    ) -> Notes
    where
        T: Score,
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        Notes::copied(Threads::Pool, rows, y_true, y_score, weights)
    }

    fn copied<T, Y, S>(
        threads: Threads, rows: &[Row], y_true: &Y, y_score: &S, weights: Option<&[f64]>,
    ) -> Notes
    where
        T: Score,
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        if !Notes::read_inputs(rows) {
            return Notes::none(rows);
        }
        let (n, l) = (y_true.nrows(), y_true.ncols());
        let mut labels = Vec::with_capacity(n * l);
        y_true.extend_rows(0..n, &mut labels);
        let labels: Vec<f64> = labels.into_iter().map(Label::value).collect();
        let mut scores = Vec::with_capacity(n * l);
        y_score.extend_rows(0..y_score.nrows(), &mut scores);
        let scores: Vec<f64> = scores.into_iter().map(Score::as_f64).collect();
        let (sn, sl) = (y_score.nrows(), y_score.ncols());
        match (RowMajor::new(&labels, n, l), RowMajor::new(&scores, sn, sl)) {
            (Ok(y), Ok(s)) => Notes::read(threads, rows, &y, &s, weights),
            // Inputs that break the matrix contract gave errors, not values: no note reads them.
            _ => Notes::none(rows),
        }
    }

    /// Whether the notes of `rows` read the inputs at all: some cell is NaN, or some
    /// toolkit's value lies outside its row's interval. Without either, [`Notes::none`] gives
    /// the same notes without the inputs.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{compare, Notes};
    /// let rows = compare(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None, Default::default());
    /// assert!(!Notes::read_inputs(&rows));
    /// ```
    pub fn read_inputs(rows: &[Row]) -> bool {
        rows.iter().any(|row| {
            row.cells.iter().flatten().any(|cell| match cell.result {
                Ok(v) => {
                    v.is_nan()
                        || (matches!(cell.column, Column::Toolkit(_)) && row.outside(cell.column))
                }
                Err(_) => false,
            })
        })
    }

    /// The notes of `rows` when [`Notes::read_inputs`] is false: a flagged value is one of
    /// a rank-sharing tie policy.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{compare, Notes};
    /// let rows = compare(&[[1, 0], [0, 1]], &[[0.9, 0.1], [0.2, 0.8]], None, Default::default());
    /// assert!(!Notes::read_inputs(&rows));
    /// assert_eq!(Notes::none(&rows).undefined(0), None);
    /// ```
    pub fn none(rows: &[Row]) -> Notes {
        // No cell needs the inputs: an empty matrix stands for them.
        let empty = RowMajor::new(&[], 0, 0).expect("an empty matrix");
        Notes::read(Threads::One, rows, &empty, &empty, None)
    }

    fn read<Y, S>(
        threads: Threads, rows: &[Row], y_true: &Y, y_score: &S, weights: Option<&[f64]>,
    ) -> Notes
    where
        Y: Matrix<Elem = f64> + Sync + ?Sized,
        S: Matrix<Elem = f64> + Sync + ?Sized,
    {
        let has_nan = |row: &Row| {
            row.cells
                .iter()
                .flatten()
                .any(|c| c.result.as_ref().is_ok_and(|v| v.is_nan()))
        };
        let census = rows
            .iter()
            .any(has_nan)
            .then(|| Census::new(y_true, weights));
        let undefined = rows
            .iter()
            .map(|row| {
                let census = census.as_ref().filter(|_| has_nan(row))?;
                let reason = census.reason(row.concept.over);
                Some(format!("{}: undefined, {reason}", row.concept.name))
            })
            .collect();
        // The rule each flagged toolkit cell's convention ties scores by.
        let flagged = |row: &Row, cell: &Cell| -> Option<f64> {
            let v = *cell.result.as_ref().ok()?;
            row.outside(cell.column).then_some(v)
        };
        let rules: Vec<Vec<Option<Merge>>> = rows
            .iter()
            .map(|row| {
                row.cells
                    .iter()
                    .map(|cell| {
                        let cell = cell.as_ref()?;
                        flagged(row, cell)?;
                        matches!(cell.column, Column::Toolkit(_))
                            .then(|| MERGES.into_iter().find(|m| m.followed_by(&cell.preset)))?
                    })
                    .collect()
            })
            .collect();
        // Per rule, the interval with its ties of each row that needs it: one evaluation each.
        let mut intervals: Vec<((usize, Merge), Interval)> = Vec::new();
        for rule in MERGES {
            let needed: Vec<usize> = (0..rows.len())
                .filter(|&r| rules[r].contains(&Some(rule)))
                .collect();
            if needed.is_empty() {
                continue;
            }
            let concepts: Vec<&Concept> = needed.iter().map(|&r| rows[r].concept).collect();
            let found = rule.intervals(threads, &concepts, y_true, y_score, weights);
            intervals.extend(needed.into_iter().map(|r| (r, rule)).zip(found));
        }
        let flags = rows
            .iter()
            .enumerate()
            .map(|(r, row)| {
                row.cells
                    .iter()
                    .zip(&rules[r])
                    .map(|(cell, rule)| {
                        let cell = cell.as_ref()?;
                        let v = flagged(row, cell)?;
                        Some(match (cell.column, rule) {
                            (
                                Column::Policy(
                                    t @ (TiePolicy::Max | TiePolicy::Min | TiePolicy::Average),
                                ),
                                _,
                            ) => Flag::Shared(t),
                            (Column::Toolkit(_), Some(rule)) => {
                                let interval = intervals
                                    .iter()
                                    .find(|(key, _)| *key == (r, *rule))
                                    .and_then(|(_, interval)| *interval);
                                match interval {
                                    Some(interval) if !outside(v, interval) => Flag::Merged {
                                        rule: *rule,
                                        interval,
                                    },
                                    _ => Flag::Definition,
                                }
                            }
                            _ => Flag::Definition,
                        })
                    })
                    .collect()
            })
            .collect();
        Notes { undefined, flags }
    }

    /// Why the NaN cells of row `r` have no value.
    pub fn undefined(&self, r: usize) -> Option<&str> {
        self.undefined.get(r)?.as_deref()
    }

    /// Why cell `c` of row `r` lies outside the interval, if it does.
    pub fn flag(&self, r: usize, c: usize) -> Option<Flag> {
        *self.flags.get(r)?.get(c)?
    }
}

/// The relevant labels of each row and each label (column), read once from `y_true`.
#[derive(Debug)]
struct Census<'w> {
    rows: Vec<usize>,
    columns: Vec<usize>,
    weights: Option<&'w [f64]>,
}

impl<'w> Census<'w> {
    fn new<Y: Matrix<Elem = f64> + ?Sized>(y_true: &Y, weights: Option<&'w [f64]>) -> Self {
        let mut columns = vec![0; y_true.ncols()];
        let mut row = Vec::with_capacity(y_true.ncols());
        let rows = (0..y_true.nrows())
            .map(|i| {
                row.clear();
                y_true.extend_rows(i..i + 1, &mut row);
                let mut relevant = 0;
                for (count, &y) in columns.iter_mut().zip(&row) {
                    if y != 0.0 {
                        *count += 1;
                        relevant += 1;
                    }
                }
                relevant
            })
            .collect();
        Census {
            rows,
            columns,
            weights,
        }
    }

    /// Why a mean over `over` has no value, in words.
    fn reason(&self, over: Over) -> String {
        let (n, l) = (self.rows.len(), self.columns.len());
        // A weight of zero leaves a row out of every mean; none left, no mean.
        if self.weights.is_some_and(|w| w.iter().all(|&w| w == 0.0)) {
            return "the sample weights sum to zero".into();
        }
        let one_class = |count: usize, of: usize| count == 0 || count == of;
        let found = match over {
            // Only rows without a relevant label are ever left out (MULAN's average precision).
            Over::Rows => self
                .rows
                .iter()
                .all(|&c| c == 0)
                .then(|| "every row is left out: none has a relevant label".into()),
            Over::Samples => {
                // Rows of weight zero are left out of the mean, undefined or not.
                let counted: Vec<usize> = (0..n)
                    .filter(|&i| self.weights.map_or(true, |w| w.get(i) != Some(&0.0)))
                    .collect();
                let bad: Vec<usize> = counted
                    .iter()
                    .copied()
                    .filter(|&i| one_class(self.rows[i], l))
                    .collect();
                let rows_of = match self.weights {
                    Some(_) => format!("{} rows of non-zero weight", counted.len()),
                    None => format!("{n} rows"),
                };
                let lacks = |i: usize| match self.rows[i] {
                    0 => "no relevant label",
                    _ => "only relevant labels",
                };
                first_of("row", &bad, lacks, &rows_of, "one class")
            }
            Over::Labels(needs) => {
                let undefined = |c: usize| match needs {
                    Needs::BothClasses => one_class(c, n),
                    Needs::Relevant => c == 0,
                };
                let bad: Vec<usize> = (0..l).filter(|&j| undefined(self.columns[j])).collect();
                let what = match needs {
                    Needs::BothClasses => "one class",
                    Needs::Relevant => "none",
                };
                let lacks = |j: usize| match self.columns[j] {
                    0 => "no relevant sample",
                    _ => "only relevant samples",
                };
                first_of("label", &bad, lacks, &format!("{l} labels"), what)
            }
            Over::Pool => {
                let relevant: usize = self.rows.iter().sum();
                if relevant == 0 {
                    Some("no label of any sample is relevant".into())
                } else if relevant == n * l {
                    Some("every label of every sample is relevant".into())
                } else {
                    None
                }
            }
        };
        found.unwrap_or_else(|| "no row or label found that explains it".into())
    }
}

/// "row 3 has no relevant label (2 of 8 rows have one class)": the first of the `bad`
/// vectors, what it `lacks`, and how many of the `total` lack `what`.
fn first_of(
    kind: &str, bad: &[usize], lacks: impl Fn(usize) -> &'static str, total: &str, what: &str,
) -> Option<String> {
    let &i = bad.first()?;
    let has = if bad.len() == 1 { "has" } else { "have" };
    Some(format!(
        "{kind} {i} has {} ({} of {total} {has} {what})",
        lacks(i),
        bad.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compat::registry::Convention;

    fn preset(convention: Convention, metric: &str, params: &[(&str, &str)]) -> Preset {
        let params: Vec<(String, String)> = params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Preset::lookup(convention, metric, &params, None).unwrap()
    }

    #[test]
    fn the_probes_find_each_conventions_own_ties() {
        let rules = |p: Preset| -> Vec<Merge> {
            MERGES.into_iter().filter(|m| m.followed_by(&p)).collect()
        };
        // Weka's 1e-6 also ties the float32 probe's scores: MERGES lists it first.
        let weka = Merge::Grouping(TieGrouping::WEKA);
        for metric in [
            "Coverage",
            "RankingLoss",
            "OneError",
            "IsError",
            "ErrorSetSize",
        ] {
            let mulan = preset(Convention::Mulan, metric, &[]);
            assert_eq!(rules(mulan), [weka, Merge::Float32], "{metric}");
            let weka39 = preset(Convention::Mulan, metric, &[("weka", "3.9")]);
            assert_eq!(rules(weka39), [], "{metric}");
        }
        let ndcg = preset(Convention::Torchmetrics, "retrieval_normalized_dcg", &[]);
        assert_eq!(rules(ndcg), [Merge::Float32]);
        let loss = preset(Convention::Torchmetrics, "multilabel_ranking_loss", &[]);
        let sigmoid = Merge::Sigmoid;
        assert_eq!(rules(loss), [sigmoid(PredsDtype::Float64)]);
        // float32 preds: torch's float32 sigmoid, the first rule found, ties every probe after.
        let dtype = [("dtype", "float32")];
        let loss = preset(Convention::Torchmetrics, "multilabel_ranking_loss", &dtype);
        let float32 = [
            sigmoid(PredsDtype::Float32),
            Merge::Float32,
            sigmoid(PredsDtype::Float64),
        ];
        assert_eq!(rules(loss), float32);
        // Half preds: their own rule first; the cast ties the Weka probe's scores too.
        let dtype = [("dtype", "float16")];
        let loss = preset(Convention::Torchmetrics, "multilabel_ranking_loss", &dtype);
        let float16 = [[sigmoid(PredsDtype::Float16), weka].as_slice(), &float32].concat();
        assert_eq!(rules(loss), float16);
        let dtype = [("dtype", "bfloat16")];
        let loss = preset(Convention::Torchmetrics, "multilabel_ranking_loss", &dtype);
        let bfloat16 = [[sigmoid(PredsDtype::BFloat16)].as_slice(), &float16].concat();
        assert_eq!(rules(loss), bfloat16);
        for metric in Convention::Sklearn.metric_names() {
            assert_eq!(
                rules(preset(Convention::Sklearn, metric, &[])),
                [],
                "{metric}"
            );
        }
        // pROC's direction reads both orders as 1: not a tie.
        assert_eq!(rules(preset(Convention::Mldr, "macro_auc", &[])), []);
    }

    #[test]
    fn the_census_names_the_first_row_or_label_without_a_value() {
        // Row 1 and label 2 have no relevant label (sample).
        let y = [[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 0.0]];
        let c = Census::new(&y, None);
        assert_eq!(
            c.reason(Over::Samples),
            "row 1 has no relevant label (1 of 3 rows has one class)"
        );
        assert_eq!(
            c.reason(Over::Labels(Needs::BothClasses)),
            "label 2 has no relevant sample (1 of 3 labels has one class)"
        );
        assert_eq!(
            c.reason(Over::Rows),
            "no row or label found that explains it"
        );
        assert_eq!(
            c.reason(Over::Pool),
            "no row or label found that explains it"
        );
        let c = Census::new(&[[1.0, 1.0, 0.0], [1.0, 0.0, 1.0]], None);
        assert_eq!(
            c.reason(Over::Labels(Needs::BothClasses)),
            "label 0 has only relevant samples (1 of 3 labels has one class)"
        );
        // Rows of weight zero are left out of the per-sample mean.
        let y = [[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]];
        assert_eq!(
            Census::new(&y, Some(&[1.0, 0.0, 1.0])).reason(Over::Samples),
            "row 2 has only relevant labels (1 of 2 rows of non-zero weight has one class)"
        );
        assert_eq!(
            Census::new(&y, Some(&[0.0; 3])).reason(Over::Labels(Needs::Relevant)),
            "the sample weights sum to zero"
        );
        let none = [[0.0, 0.0], [0.0, 0.0]];
        let c = Census::new(&none, None);
        assert_eq!(
            c.reason(Over::Rows),
            "every row is left out: none has a relevant label"
        );
        assert_eq!(c.reason(Over::Pool), "no label of any sample is relevant");
        assert_eq!(
            c.reason(Over::Labels(Needs::Relevant)),
            "label 0 has no relevant sample (2 of 2 labels have none)"
        );
        let all = Census::new(&[[1.0, 1.0]], None);
        assert_eq!(
            all.reason(Over::Pool),
            "every label of every sample is relevant"
        );
    }
}
