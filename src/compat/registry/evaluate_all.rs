//! Many presets on the same data: the row-wise ones in one pass over the rows per view of
//! the scores, the label-wise ones with each label's vector sorted once per view, the rest
//! one by one.

use super::plan::{AnyLabelwise, Plan, ScoreView};
use super::Preset;
use crate::compat::torchmetrics::{through_preds_view, Float32Scores, PredsView};
use crate::error::Error;
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::row::metric::RowMetric;
use crate::score::Score;

/// The row-wise presets' values (`None` for the others), grouped by how they see the scores:
/// one call of `$evaluate_rows` (sequential or parallel) a group.
macro_rules! row_presets {
    ($evaluate_rows:path, $presets:expr, $y_true:expr, $y_score:expr, $weights:expr) => {{
        let (presets, y_true, y_score, sample_weight) = ($presets, $y_true, $y_score, $weights);
        let mut results: Vec<Option<Result<f64, Error>>> = vec![None; presets.len()];
        // Row-wise presets, grouped by how they see the scores: one pass over the rows a group.
        let mut retrieval: Vec<ScoreView> = Vec::new();
        for p in presets {
            if let Plan::Retrieval { view, .. } = &p.plan {
                if !retrieval.contains(&ScoreView::Retrieval(*view)) {
                    retrieval.push(ScoreView::Retrieval(*view));
                }
            }
        }
        // Each torchmetrics view (dtype, sort, sigmoid kernel, memory order) the presets use.
        let mut logits: Vec<ScoreView> = Vec::new();
        for p in presets {
            if let Plan::Row { logits: Some(view), .. } = &p.plan {
                if !logits.contains(&ScoreView::Logits(*view)) {
                    logits.push(ScoreView::Logits(*view));
                }
            }
        }
        let views = [ScoreView::AsIs, ScoreView::Float32]
            .into_iter()
            .chain(logits)
            .chain(retrieval);
        for view in views {
            let (indices, metrics): (Vec<usize>, Vec<&(dyn RowMetric + Sync)>) = presets
                .iter()
                .enumerate()
                .filter_map(|(k, p)| match (&p.plan, view) {
                    (Plan::Row { metric, logits }, _)
                        if logits.map_or(ScoreView::AsIs, ScoreView::Logits) == view
                            // The shared pass does not scale gains: propensity-scored
                            // metrics are evaluated on their own.
                            && metric.gain_weights().is_none() =>
                    {
                        Some((k, metric as &(dyn RowMetric + Sync)))
                    }
                    (Plan::Float32Row { metric }, ScoreView::Float32)
                        if metric.gain_weights().is_none() =>
                    {
                        Some((k, metric as &(dyn RowMetric + Sync)))
                    }
                    (Plan::Retrieval { metric, view: own }, ScoreView::Retrieval(shared))
                        if *own == shared =>
                    {
                        Some((k, metric as &(dyn RowMetric + Sync)))
                    }
                    _ => None,
                })
                .unzip();
            if indices.is_empty() {
                continue;
            }
            let values = match view {
                ScoreView::AsIs => $evaluate_rows(&metrics, y_true, y_score, sample_weight),
                ScoreView::Float32 => $evaluate_rows(
                    &metrics,
                    y_true,
                    &Float32Scores::new(y_score),
                    sample_weight,
                ),
                ScoreView::Retrieval(view) => view
                    .apply(y_true, y_score, |y, s| {
                        Ok($evaluate_rows(&metrics, y, s, sample_weight))
                    })
                    .unwrap_or_else(|e| vec![Err(e); metrics.len()]),
                ScoreView::Logits(view) => {
                    match crate::validate::check_shapes(y_true, y_score, 1)
                        .and_then(|_| view.logits(y_score))
                    {
                        Ok(logits) => through_preds_view!(view, &logits, |scores| {
                            $evaluate_rows(&metrics, y_true, scores, sample_weight)
                        }),
                        Err(e) => vec![Err(e); metrics.len()],
                    }
                }
            };
            for (k, v) in indices.into_iter().zip(values) {
                results[k] = Some(v);
            }
        }
        results
    }};
}

/// torchmetrics' label-wise presets (AUROC, AP) into `$results`: per view of the preds (dtype,
/// sigmoid kernel, memory order), the logits decided once and each label's vector sorted once
/// for all the view's metrics, by one call of `$evaluate_many` (sequential or parallel).
macro_rules! labelwise_logits {
    ($evaluate_many:path, $presets:expr, $results:expr, $y_true:expr, $y_score:expr, $weights:expr) => {{
        let (presets, results, y_true, y_score, sample_weight) =
            ($presets, $results, $y_true, $y_score, $weights);
        let mut views: Vec<PredsView> = Vec::new();
        for p in presets {
            if let Plan::Labelwise(_, Some(view)) = &p.plan {
                if !views.contains(view) {
                    views.push(*view);
                }
            }
        }
        for view in views {
            let (indices, metrics): (Vec<usize>, Vec<AnyLabelwise>) = presets
                .iter()
                .enumerate()
                .filter_map(|(k, p)| match p.plan {
                    Plan::Labelwise(m, Some(v)) if v == view => Some((k, m)),
                    _ => None,
                })
                .unzip();
            // As `Preset::evaluate`: torchmetrics' num_labels > 1, then the logits.
            let values = match crate::validate::check_shapes(y_true, y_score, 2)
                .and_then(|_| view.logits(y_score))
            {
                Ok(logits) => $evaluate_many(&metrics, y_true, &logits, sample_weight),
                Err(e) => vec![Err(e); metrics.len()],
            };
            for (k, v) in indices.into_iter().zip(values) {
                results[k] = Some(v);
            }
        }
    }};
}

/// Evaluates several presets on the same data; the results are in the order of `presets`.
///
/// This is the entry point for reports that show many metrics and conventions at once
/// (`rankmetrics compare`): the row-wise presets go through one pass over the rows, each row
/// read and validated once, sorted once per tie grouping and ranked once per tie policy, for
/// every metric ("sort once, score many"); each value equals, bitwise, the preset's own
/// [`Preset::evaluate`].
///
/// # Example
/// ```
/// use rankmetrics::registry::{evaluate_all, Convention, Preset};
/// let presets: Vec<Preset> = Convention::Mldr
///     .metric_names()
///     .iter()
///     .map(|m| Preset::lookup(Convention::Mldr, m, Preset::NO_PARAMS, None).unwrap())
///     .collect();
/// let values = evaluate_all(&presets, &[[0, 1, 0]], &[[0.5, 0.5, 0.1]], None::<&[f64]>);
/// assert_eq!(values[0], Ok(1.0)); // average_precision under ties_method = "last"
/// ```
pub fn evaluate_all<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    presets: &[Preset], y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
) -> Vec<Result<f64, Error>> {
    let mut results = row_presets!(
        crate::shared_pass::evaluate_rows,
        presets,
        y_true,
        y_score,
        sample_weight
    );
    labelwise_presets(presets, &mut results, |metrics| {
        crate::labelwise::evaluate_many(metrics, y_true, y_score, sample_weight)
    });
    labelwise_logits!(
        crate::labelwise::evaluate_many,
        presets,
        &mut results,
        y_true,
        y_score,
        sample_weight
    );
    finish(presets, results, y_true, y_score, sample_weight)
}

/// [`evaluate_all`] on the threads of the current rayon pool (feature `rayon`): the label-wise
/// presets and each group of row-wise presets that share a ranking run in parallel. Every value
/// is bitwise what [`evaluate_all`] (and the preset's own [`Preset::evaluate`]) gives.
///
/// # Example
/// ```
/// use rankmetrics::registry::{evaluate_all, evaluate_all_parallel, Convention, Preset};
/// let presets: Vec<Preset> = Convention::Sklearn
///     .metric_names()
///     .iter()
///     .map(|m| Preset::lookup(Convention::Sklearn, m, Preset::NO_PARAMS, None).unwrap())
///     .collect();
/// let (y, s) = ([[0, 1, 0], [1, 0, 1]], [[0.5, 0.5, 0.1], [0.2, 0.7, 0.9]]);
/// assert_eq!(evaluate_all_parallel(&presets, &y, &s, None::<&[f64]>),
///            evaluate_all(&presets, &y, &s, None::<&[f64]>));
/// ```
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub fn evaluate_all_parallel<T, Y, S>(
    presets: &[Preset], y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
) -> Vec<Result<f64, Error>>
where
    T: Score,
    Y: LabelMatrix + Sync + ?Sized,
    S: ScoreMatrix<T> + Sync + ?Sized,
{
    let (mut results, labelwise) = rayon::join(
        || {
            row_presets!(
                crate::shared_pass::evaluate_rows_parallel,
                presets,
                y_true,
                y_score,
                sample_weight
            )
        },
        || {
            let mut results = vec![None; presets.len()];
            labelwise_presets(presets, &mut results, |metrics| {
                crate::labelwise::evaluate_many_parallel(metrics, y_true, y_score, sample_weight)
            });
            labelwise_logits!(
                crate::labelwise::evaluate_many_parallel,
                presets,
                &mut results,
                y_true,
                y_score,
                sample_weight
            );
            results
        },
    );
    for (slot, value) in results.iter_mut().zip(labelwise) {
        if value.is_some() {
            *slot = value;
        }
    }
    finish(presets, results, y_true, y_score, sample_weight)
}

/// The label-wise presets' values into `results`, from `evaluate` (sequential or parallel)
/// over their metrics: the cells read once, each vector sorted once for all of them.
fn labelwise_presets(
    presets: &[Preset], results: &mut [Option<Result<f64, Error>>],
    evaluate: impl FnOnce(&[AnyLabelwise]) -> Vec<Result<f64, Error>>,
) {
    let (indices, metrics): (Vec<usize>, Vec<AnyLabelwise>) = presets
        .iter()
        .enumerate()
        .filter_map(|(k, p)| match p.plan {
            // On logits, each on its own (through its sigmoid view).
            Plan::Labelwise(m, None) => Some((k, m)),
            _ => None,
        })
        .unzip();
    if !indices.is_empty() {
        for (k, v) in indices.into_iter().zip(evaluate(&metrics)) {
            results[k] = Some(v);
        }
    }
}

/// Every preset's result: the computed ones, and the others (which no shared pass serves)
/// evaluated on their own.
fn finish<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    presets: &[Preset], results: Vec<Option<Result<f64, Error>>>, y_true: &Y, y_score: &S,
    sample_weight: Option<&[f64]>,
) -> Vec<Result<f64, Error>> {
    presets
        .iter()
        .zip(results)
        .map(|(p, r)| r.unwrap_or_else(|| p.evaluate(y_true, y_score, sample_weight)))
        .collect()
}
