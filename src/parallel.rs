//! Row-parallel evaluation of row-wise metrics (feature `rayon`), bitwise identical to the
//! sequential evaluation for any number of threads.
//!
//! Rows are ranked in parallel, in chunks of [`CHUNK_ROWS`] with a scratch per task, a window
//! of [`WINDOW_ROWS`] rows at a time; the row values are added to the mean in row order, on
//! the calling thread, exactly as [`RankingMetric::evaluate`] adds them, a chunk at a time as
//! soon as the chunks before it are in (while the pool ranks the next ones). Ranking is the
//! work; one addition per row is not. So every summation (MULAN's plain left-to-right sum
//! included) keeps its bits, 1, 2 or 16 threads give the sequential result, and memory stays
//! O(window + L per thread). Threads are those of the current rayon pool
//! (`ThreadPool::install` chooses them).

use crate::error::Error;
use crate::matrix::{LabelMatrix, ScoreMatrix};
#[cfg(doc)]
use crate::metric::RankingMetric;
use crate::row::metric::RowMetric;
use crate::row::parallel::for_each_row;
pub use crate::row::parallel::{CHUNK_ROWS, WINDOW_ROWS};
use crate::row::state::RowState;
use crate::score::Score;

/// [`RankingMetric::evaluate`] for a row-wise metric, with rows spread over the threads of the
/// current rayon pool.
///
/// # Errors
/// As [`RankingMetric::evaluate`]; the error of the first bad row in row order.
///
/// # Example
/// ```
/// use rankmetrics::{parallel, sklearn};
/// let (y, s) = ([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]]);
/// let lrap = sklearn::LABEL_RANKING_AVERAGE_PRECISION_SCORE;
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let v = pool.install(|| parallel::evaluate(&lrap, &y, &s, None)).unwrap();
/// assert!((v - 5.0 / 12.0).abs() < 1e-15);
/// ```
pub fn evaluate<M, T, Y, S>(
    metric: &M, y_true: &Y, y_score: &S, sample_weight: Option<&[f64]>,
) -> Result<f64, Error>
where
    M: RowMetric + Sync,
    T: Score,
    Y: LabelMatrix + Sync + ?Sized,
    S: ScoreMatrix<T> + Sync + ?Sized,
{
    // As the sequential evaluation: one batch of a fresh accumulator.
    let mut state = RowState::new(metric.options(), 0);
    state.update_parallel(metric, y_true, y_score, sample_weight)?;
    state.value(metric.options())
}

/// [`RowMetric::per_sample`] with rows spread over the threads of the current rayon pool (the
/// values are the same as the sequential ones, bit for bit).
///
/// # Errors
/// As [`RowMetric::per_sample`].
///
/// # Example
/// ```
/// use rankmetrics::{parallel, RankingLoss, TiePolicy};
/// let v = parallel::per_sample(&RankingLoss::new(TiePolicy::Max), &[[1, 0], [0, 1]], &[[0.5, 0.5], [0.1, 0.9]]);
/// assert_eq!(v.unwrap(), [Some(1.0), Some(0.0)]);
/// ```
pub fn per_sample<M, T, Y, S>(
    metric: &M, y_true: &Y, y_score: &S,
) -> Result<Vec<Option<f64>>, Error>
where
    M: RowMetric + Sync,
    T: Score,
    Y: LabelMatrix + Sync + ?Sized,
    S: ScoreMatrix<T> + Sync + ?Sized,
{
    // Grown as rows pass the checks: reserving `nrows` first would try to allocate for a
    // declared shape (e.g. 2^40 rows of 0 labels) that the checks then refuse.
    let mut values = Vec::new();
    let mut seen = Default::default();
    for_each_row(metric, y_true, y_score, 0, &mut seen, |_, v| values.push(v))?;
    Ok(values)
}
