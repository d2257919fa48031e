//! torchmetrics' binary retrieval metrics (`retrieval_precision`, `retrieval_recall`,
//! `retrieval_average_precision`, `retrieval_reciprocal_rank`) as it reads their inputs: the
//! documents ordered as torch's CPU `topk` or descending `argsort` orders them
//! ([`RetrievalScores`]), and relevant documents scored at most 0 never counted as retrieved
//! ([`RetrievalHits`]); the formulas are [`RetrievalAtK`](crate::RetrievalAtK)'s.

use core::ops::Range;

use super::cast_to_f32;
use super::torch_order::{torch_argsort_descending, torch_topk};
use crate::error::{Error, Input, LabelDomain};
use crate::matrix::{LabelMatrix, Matrix, RowReader, ScoreMatrix};
use crate::metrics::{RetrievalAtK, RetrievalMeasure};
use crate::score::{Label, Score};
use crate::sum::Summation;
use crate::ties::TiePolicy;
use crate::validate::{check_scores, check_shapes};

/// Which torch call orders a query's documents before the formula reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum TorchRanking {
    /// `preds.topk(min(k, n))` (precision, average precision, reciprocal rank).
    TopK,
    /// `torch.argsort(preds, descending=True)` (recall).
    ArgsortDescending,
}

/// How torchmetrics' retrieval metrics see a batch: scores cast to `float32`, ordered by
/// torch's call for the first `k` documents (`ranking`; `None`: by the tie policy instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct RetrievalView {
    pub(crate) ranking: Option<TorchRanking>,
    pub(crate) k: Option<usize>,
}

impl RetrievalView {
    /// `f` of the hit labels and the ordered scores of `y_true` and `y_score`, once the
    /// inputs are checked as torchmetrics checks them: same shapes, finite scores (a
    /// deliberate difference: torchmetrics has no check), targets 0 or 1.
    pub(crate) fn apply<T, Y, S, R>(
        self, y_true: &Y, y_score: &S,
        f: impl FnOnce(&RetrievalHits<'_, Y, S>, &RetrievalScores<'_, S>) -> Result<R, Error>,
    ) -> Result<R, Error>
    where
        T: Score,
        Y: LabelMatrix + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        check_inputs(y_true, y_score)?;
        let hits = RetrievalHits {
            labels: y_true,
            scores: y_score,
        };
        let scores = RetrievalScores {
            scores: y_score,
            view: self,
        };
        f(&hits, &scores)
    }
}

/// torchmetrics' `measure` at `top_k` with one query per row, as the registry's presets and
/// the named functions compute it: the documents ordered by torch's `topk` (recall: its
/// descending `argsort`), the mean over rows exact or (`torch_mean`) as torch's `float32`
/// `mean()` takes it.
///
/// # Errors
/// [`Error::InvalidK`] for `Some(0)`.
pub(crate) fn retrieval_preset(
    measure: RetrievalMeasure, top_k: Option<usize>, torch_mean: bool,
) -> Result<(RetrievalAtK, RetrievalView), Error> {
    let summation = match torch_mean {
        true => Summation::TorchMean,
        false => Summation::Exact,
    };
    let metric = RetrievalAtK::new(TiePolicy::First, measure, top_k)?.with_summation(summation);
    let ranking = match measure {
        RetrievalMeasure::Recall => TorchRanking::ArgsortDescending,
        _ => TorchRanking::TopK,
    };
    let view = RetrievalView {
        ranking: Some(ranking),
        k: top_k,
    };
    Ok((metric, view))
}

/// Same shapes, rows as the [`Matrix`] contract has them, finite scores, labels 0 or 1, in
/// row order.
fn check_inputs<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    y_true: &Y, y_score: &S,
) -> Result<(), Error> {
    let (n, _) = check_shapes(y_true, y_score, 1)?;
    let mut labels = RowReader::new(y_true, Input::Labels);
    let mut scores = RowReader::new(y_score, Input::Scores);
    for row in 0..n {
        let (y, s) = (labels.row(row)?, scores.row(row)?);
        check_scores(s, row)?;
        if let Some(column) = y.iter().position(|y| !matches!(y.value(), 0.0 | 1.0)) {
            return Err(Error::InvalidLabel {
                row,
                column,
                value: y[column].value(),
                expected: LabelDomain::Binary,
            });
        }
    }
    Ok(())
}

/// The hit labels of [`RetrievalAtK`](crate::RetrievalAtK): 1 where the label is 1 and the
/// score, cast to `float32`, is above 0; -1 where the label is 1 and the score is not; 0
/// elsewhere. Computed on the fly from the labels and scores it wraps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RetrievalHits<'a, Y: ?Sized, S: ?Sized> {
    labels: &'a Y,
    scores: &'a S,
}

impl<Y: LabelMatrix + ?Sized, S: Matrix<Elem: Score> + ?Sized> Matrix for RetrievalHits<'_, Y, S> {
    type Elem = f64;
    fn nrows(&self) -> usize {
        self.labels.nrows()
    }
    fn ncols(&self) -> usize {
        self.labels.ncols()
    }
    fn row(&self, _: usize) -> Option<&[f64]> {
        None
    }
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<f64>) {
        let (mut labels, mut scores) = (Vec::new(), Vec::new());
        self.labels.extend_rows(rows.clone(), &mut labels);
        self.scores.extend_rows(rows, &mut scores);
        out.extend(labels.iter().zip(&scores).map(|(y, s)| {
            match (y.value() != 0.0, cast_to_f32(s.as_f64()) > 0.0) {
                (false, _) => 0.0,
                (true, true) => 1.0,
                (true, false) => -1.0,
            }
        }));
    }
    fn check_shape(&self) -> Result<(), Error> {
        self.labels.check_shape()
    }
}

/// Scores cast to `float32` and, with a torch ranking, replaced row by row by their place in
/// it: the first `min(k, n)` documents of `topk` (or all of the descending `argsort`) get
/// `n − position`, every other document 0 (below them, tied). Computed on the fly; rows of
/// more than 2^24 documents lose this order in `f32` scores.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RetrievalScores<'a, S: ?Sized> {
    scores: &'a S,
    view: RetrievalView,
}

impl<T: Score, S: Matrix<Elem = T> + ?Sized> Matrix for RetrievalScores<'_, S> {
    computed_rows_of_scores!(T);
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        let start = out.len();
        self.scores.extend_rows(rows, out);
        let n = self.scores.ncols();
        let (mut values, mut order) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for row in out[start..].chunks_mut(n.max(1)) {
            values.clear();
            values.extend(row.iter().map(|s| cast_to_f32(s.as_f64())));
            match self.view.ranking {
                None => {
                    for (s, &v) in row.iter_mut().zip(&values) {
                        *s = T::from_f64(v);
                    }
                    continue;
                }
                Some(TorchRanking::TopK) => {
                    torch_topk(&values, self.view.k.unwrap_or(n), &mut order);
                }
                Some(TorchRanking::ArgsortDescending) => {
                    torch_argsort_descending(&values, &mut order);
                }
            }
            row.fill(T::from_f64(0.0));
            for (position, &j) in order.iter().enumerate() {
                row[j as usize] = T::from_f64((n - position) as f64);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_follow_the_float32_sign_of_the_score() {
        let (y, s) = ([[1, 1, 0, 1]], [[0.5, 1e-50, 0.9, -0.1]]);
        let hits = RetrievalHits {
            labels: &y,
            scores: &s,
        };
        let mut out = Vec::new();
        hits.extend_rows(0..1, &mut out);
        // 1e-50 is 0 in float32: never retrieved.
        assert_eq!(out, [1.0, -1.0, 0.0, -1.0]);
    }

    #[test]
    fn topk_places_the_first_k_and_ties_the_rest_below() {
        let s = [[0.5, 0.5, 0.9, 0.1, 0.5]];
        let view = |ranking, k| RetrievalScores {
            scores: &s,
            view: RetrievalView { ranking, k },
        };
        let mut out = Vec::new();
        view(Some(TorchRanking::TopK), Some(2)).extend_rows(0..1, &mut out);
        // torch.tensor([.5, .5, .9, .1, .5]).topk(2).indices = [2, 4]; argsort: [2, 0, 1, 4, 3].
        assert_eq!(out, [0.0, 0.0, 5.0, 0.0, 4.0]);
        out.clear();
        view(Some(TorchRanking::ArgsortDescending), None).extend_rows(0..1, &mut out);
        assert_eq!(out, [4.0, 3.0, 5.0, 1.0, 2.0]);
        out.clear();
        view(None, None).extend_rows(0..1, &mut out);
        assert_eq!(out, s[0].map(|x| f64::from(x as f32)));
    }

    #[test]
    fn inputs_are_checked_in_row_order() {
        let view = RetrievalView {
            ranking: None,
            k: None,
        };
        let run = |y: &[[f64; 2]], s: &[[f64; 2]]| view.apply(&y, &s, |_, _| Ok(()));
        let err = run(&[[1.0, 0.0], [2.0, 0.0]], &[[0.1, 0.2]; 2]).unwrap_err();
        assert!(
            matches!(
                err,
                Error::InvalidLabel {
                    row: 1,
                    column: 0,
                    ..
                }
            ),
            "{err}"
        );
        let err = run(&[[1.0, 0.0]; 2], &[[0.1, f64::NAN], [0.1, 0.2]]).unwrap_err();
        assert!(
            matches!(
                err,
                Error::NonFiniteScore {
                    row: 0,
                    column: 1,
                    ..
                }
            ),
            "{err}"
        );
        assert!(run(&[[1.0, 0.0]], &[[0.1, 0.2]; 2]).is_err());
    }
}
