//! The row pass on the threads of the current rayon pool (feature `rayon`): [`in_chunks`] and
//! [`in_chunks_in_order`] hand chunks of [`CHUNK_ROWS`] rows to the pool, a window of
//! [`WINDOW_ROWS`] rows at a time, and [`for_each_row`] runs the row pass on them. The public
//! `parallel` module, the many-metric driver and the label-wise drivers are built on these.

use rayon::prelude::*;

use core::ops::Range;

use crate::error::Error;
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::row::metric::RowMetric;
use crate::row::pass::{check_inputs, RowScratch};
use crate::score::Score;
use crate::validate::IndicatorValues;

/// Rows per task: enough work per task to hide scheduling.
pub const CHUNK_ROWS: usize = 2048;

/// Rows ranked before their values are summed: bounds the values held at once (16 bytes a row).
pub const WINDOW_ROWS: usize = 64 * CHUNK_ROWS;

/// The row pass's `for_each_row` with the rows ranked in parallel: checks the inputs, then hands each
/// row's value to `sink` in row order, a window at a time; on the first bad row (in row order)
/// returns its error after the values of the rows before it.
pub(crate) fn for_each_row<M, T, Y, S>(
    metric: &M, y_true: &Y, y_score: &S, first_row: usize, indicator: &mut IndicatorValues,
    mut sink: impl FnMut(usize, Option<f64>),
) -> Result<(), Error>
where
    M: RowMetric + Sync,
    T: Score,
    Y: LabelMatrix + Sync + ?Sized,
    S: ScoreMatrix<T> + Sync + ?Sized,
{
    let checked = check_inputs(metric, y_true, y_score, first_row, indicator)?;
    let n = checked.rows;
    for start in (0..n).step_by(WINDOW_ROWS) {
        let window = start..(start + WINDOW_ROWS).min(n);
        let mut i = start;
        let rank = |scratch: &mut RowScratch, rows| {
            let mut values = Vec::with_capacity(CHUNK_ROWS);
            let outcome = scratch.each_row(metric, y_true, y_score, &checked, rows, |_, v| {
                values.push(v)
            });
            (values, outcome)
        };
        in_chunks_in_order(window, RowScratch::default, rank, |(values, outcome)| {
            for v in values {
                sink(i, v);
                i += 1;
            }
            outcome
        })?;
    }
    Ok(())
}

/// Runs `work` on every chunk of `rows` on the pool, with a scratch (from `scratch`) per
/// chunk, and hands the results to `consume` on the calling thread in chunk order, each as
/// soon as it and every chunk before it are done: the calling thread adds up one chunk while
/// the pool ranks the next, instead of adding them all after the last. Stops consuming at the
/// first error, which it returns once every chunk has run.
pub(crate) fn in_chunks_in_order<S: Send, R: Send, E>(
    rows: Range<usize>, scratch: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, Range<usize>) -> R + Sync, mut consume: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E> {
    let (start, end) = (rows.start, rows.end);
    let count = (end - start).div_ceil(CHUNK_ROWS);
    // Scratches are handed from chunk to chunk (at most one per thread is made), so that their
    // buffers are grown once.
    let spare = std::sync::Mutex::new(Vec::new());
    let (spare, work) = (&spare, &work);
    let scratch = &scratch;
    rayon::in_place_scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::channel();
        for c in 0..count {
            let sender = sender.clone();
            scope.spawn(move |_| {
                let first = start + c * CHUNK_ROWS;
                let taken = spare.lock().ok().and_then(|mut spare| spare.pop());
                let mut own = taken.unwrap_or_else(scratch);
                let result = work(&mut own, first..(first + CHUNK_ROWS).min(end));
                if let Ok(mut spare) = spare.lock() {
                    spare.push(own);
                }
                // Fails only once the consumer has stopped at an error: nothing to hand over.
                let _ = sender.send((c, result));
            });
        }
        // Only the tasks hold senders now: if one panics, `recv` fails instead of waiting
        // forever, and the scope passes the panic on.
        drop(sender);
        let mut done: Vec<Option<R>> = (0..count).map(|_| None).collect();
        for next in 0..count {
            while done[next].is_none() {
                let received = match receiver.try_recv() {
                    Ok(message) => message,
                    // Run a pending chunk here if there is one; else every chunk still missing
                    // is running on another thread (or this thread is not the pool's), so wait.
                    Err(_) => match rayon::yield_now() {
                        Some(rayon::Yield::Executed) => continue,
                        _ => match receiver.recv() {
                            Ok(message) => message,
                            Err(_) => return Ok(()),
                        },
                    },
                };
                done[received.0] = Some(received.1);
            }
            if let Some(result) = done[next].take() {
                consume(result)?;
            }
        }
        Ok(())
    })
}

/// Runs `work` on every chunk of `rows` in parallel, with a scratch (from `scratch`) per task,
/// and returns the results in chunk order.
pub(crate) fn in_chunks<S, R: Send>(
    rows: Range<usize>, scratch: impl Fn() -> S + Sync + Send,
    work: impl Fn(&mut S, Range<usize>) -> R + Sync,
) -> Vec<R> {
    let (start, end) = (rows.start, rows.end);
    (0..(end - start).div_ceil(CHUNK_ROWS))
        .into_par_iter()
        .map_init(scratch, |scratch, c| {
            let first = start + c * CHUNK_ROWS;
            work(scratch, first..(first + CHUNK_ROWS).min(end))
        })
        .collect()
}
