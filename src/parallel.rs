//! Row-parallel evaluation of row-wise metrics (feature `rayon`), bitwise identical for any
//! number of threads.
//!
//! Rows are cut into chunks of a fixed size ([`CHUNK_ROWS`]), whatever the thread count; each
//! chunk is evaluated with its own compensated partial mean, and the partial means are merged
//! in chunk order. The chunking, not the scheduling, fixes every rounding, so 1, 2 or 16
//! threads give the same bits. The result may differ from the sequential
//! [`RankingMetric::evaluate`](crate::RankingMetric::evaluate) in the last bits (the partial
//! sums are grouped differently; both are compensated). Metrics with
//! [`Summation::Sequential`](crate::Summation) (MULAN's plain left-to-right sum, which the
//! presets reproduce bit for bit) run on one thread, so they keep their bits. Threads are those
//! of the current rayon pool (`ThreadPool::install` chooses them).

use rayon::prelude::*;

use crate::metric::{check_inputs, check_weights, mean_value, RowScratch};
use crate::sum::{Summation, WeightedMean};
use crate::{Error, Label, Matrix, RankingMetric, RowMetric, Score};

/// Rows per chunk: enough work per task to hide scheduling, few enough partial sums to keep.
pub const CHUNK_ROWS: usize = 2048;

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
    metric: &M,
    y_true: &Y,
    y_score: &S,
    sample_weight: Option<&[T]>,
) -> Result<f64, Error>
where
    M: RowMetric + Sync,
    T: Score,
    Y: Matrix + Sync + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + Sync + ?Sized,
{
    let options = metric.options();
    if options.summation == Summation::Sequential {
        return RankingMetric::evaluate(metric, y_true, y_score, sample_weight);
    }
    let weights = sample_weight
        .map(|w| check_weights(w, y_true.nrows()))
        .transpose()?;
    let checked = check_inputs(metric, y_true, y_score, 0, &mut Default::default())?;
    let partials = in_chunks(checked.rows, |scratch, rows| {
        let mut mean = WeightedMean::new(options.summation);
        scratch.each_row(metric, y_true, y_score, &checked, rows, |i, v| {
            if let Some(v) = v {
                mean.add(v, weights.map_or(1.0, |w| w[i].as_f64()));
            }
        })?;
        Ok(mean)
    })?;
    let mut mean = WeightedMean::new(options.summation);
    for part in &partials {
        mean.merge(part);
    }
    mean_value(&mean, options.zero_weight)
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
    metric: &M,
    y_true: &Y,
    y_score: &S,
) -> Result<Vec<Option<f64>>, Error>
where
    M: RowMetric + Sync,
    T: Score,
    Y: Matrix + Sync + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + Sync + ?Sized,
{
    let checked = check_inputs(metric, y_true, y_score, 0, &mut Default::default())?;
    let chunks = in_chunks(checked.rows, |scratch, rows| {
        let mut values = Vec::with_capacity(rows.len());
        scratch.each_row(metric, y_true, y_score, &checked, rows, |_, v| {
            values.push(v)
        })?;
        Ok(values)
    })?;
    Ok(chunks.concat())
}

/// Runs `work` on every chunk of `0..n` in parallel, with a scratch per task, and returns the
/// results in chunk order, or the error of the first failing chunk.
fn in_chunks<R: Send>(
    n: usize,
    work: impl Fn(&mut RowScratch, std::ops::Range<usize>) -> Result<R, Error> + Sync,
) -> Result<Vec<R>, Error> {
    let results: Vec<Result<R, Error>> = (0..n.div_ceil(CHUNK_ROWS))
        .into_par_iter()
        .map_init(RowScratch::default, |scratch, c| {
            work(scratch, c * CHUNK_ROWS..((c + 1) * CHUNK_ROWS).min(n))
        })
        .collect();
    // Not rayon's collect into Result, which may return any chunk's error.
    results.into_iter().collect()
}
