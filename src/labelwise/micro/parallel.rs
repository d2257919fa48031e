//! [`micro_in_pieces`] on the threads of rayon's current thread pool (feature `rayon`), bitwise the
//! same for any number of threads: the passes over the cells and the ranking of the pieces
//! are shared out, and each piece's sums are added in piece order on the calling thread.

use rayon::prelude::*;

use core::ops::Range;

use crate::error::Error;
use crate::labelwise::cells::{changed_shape, count_relevant};
use crate::labelwise::lanes::VectorLane;
use crate::labelwise::medians::{class_in, PieceClasses};
use crate::labelwise::micro::buckets::{
    any_label, cut_pieces, key_range, to_offsets, Bucketing, Piece, Pool, Segment, BUCKETS,
};
use crate::labelwise::micro::fold::PiecePart;
use crate::labelwise::micro::windows::{cut_windows, window_cells, HeldWindow, Window};
use crate::labelwise::micro::{
    first_sums, micro_in_pieces, reads_piece, reads_relevant, PieceRanker, PieceRankings, Placing,
    PooledSums,
};
use crate::labelwise::vector_metric::VectorMetric;
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::score::{Label, Score};

/// Ranges of rows per thread for the passes over the cells; each holds one count per bucket
/// and a pool of its own, so that every piece is gathered from that many segments: one (more
/// segments cost more to gather than they save).
const ROW_RANGES_PER_THREAD: usize = 1;

/// Pieces ranked at once per thread: enough to even out pieces of unequal size, few enough
/// that the parts held stay small (a piece's part is at most 16 bytes a cell, weighted).
const PIECES_PER_THREAD: usize = 4;

/// [`micro_in_pieces`] with the work shared out over the pool's threads (the sequential one
/// on a pool of one):
/// * per range of rows: the keys' range, then the bucket counts, then the range's cells
///   placed by bucket (by group where a group lies inside one piece) in a pool of its own
///   (the ranges' pools together hold each cell once, as the sequential pool does);
/// * a window of pieces at a time, each piece on one thread: its cells gathered from the
///   ranges' pools in row order, ranked, and its part of each lane's sums worked out apart
///   ([`PieceSums::part`](crate::labelwise::micro::fold::PieceSums::part)); the parts are added on the
///   calling thread in piece order, with the operations of the sequential sums, hence the
///   same bits.
///
/// A piece gathered from the ranges holds its cells in another order than the sequential
/// pool, but its equal keys (one bucket) in the same, pooled order: it ranks the same.
pub(in crate::labelwise) fn micro_in_pieces_parallel<M, T, Y, S>(
    lanes: &[VectorLane<'_, M>], y_true: &Y, y_score: &S, weights: Option<&[f64]>,
    (n, l): (usize, usize),
) -> Result<PooledSums, Error>
where
    M: VectorMetric + Sync,
    T: Score,
    Y: LabelMatrix + Sync + ?Sized,
    S: ScoreMatrix<T> + Sync + ?Sized,
{
    let threads = rayon::current_num_threads();
    if threads <= 1 {
        return micro_in_pieces(lanes, y_true, y_score, weights, (n, l));
    }
    // The weights were checked against the validated rows: a shape changed since is refused.
    if let Some(changed) = changed_shape(y_true, y_score, (n, l)) {
        return Err(changed);
    }
    let items = n.saturating_mul(l);
    let row_ranges = split(0..n, ROW_RANGES_PER_THREAD * threads);
    // Results per range of rows, in row order: the first error is that of the first bad row.
    let key_ranges: Vec<_> = row_ranges
        .par_iter()
        .map(|rows| key_range(y_score, rows.clone()))
        .collect();
    let (mut low, mut high) = (u64::MAX, 0);
    for range in key_ranges {
        let (l, h) = range?;
        (low, high) = (low.min(l), high.max(h));
    }
    let bucketing = Bucketing::new((low, high));
    let counts: Vec<_> = row_ranges
        .par_iter()
        .map(|rows| {
            let mut counts = vec![0usize; BUCKETS + 1];
            bucketing.count(y_score, rows.clone(), &mut counts)?;
            Ok::<_, Error>(counts)
        })
        .collect();
    let counts = counts.into_iter().collect::<Result<Vec<_>, _>>()?;
    let mut ends = vec![0usize; BUCKETS + 1];
    for part in &counts {
        for (end, count) in ends.iter_mut().zip(part) {
            *end += count;
        }
    }
    let (pieces, total, split_groups) = cut_pieces(&mut ends);
    let mut sums = first_sums(lanes, items, weights.is_some());
    let Some(zero) = any_label(y_true, total)? else {
        return Ok(PooledSums::without_cells(sums));
    };
    if reads_relevant(lanes, &sums) {
        let counts: Vec<_> = row_ranges
            .par_iter()
            .map(|rows| count_relevant(y_true, rows.clone()))
            .collect();
        let relevant = counts.into_iter().sum::<Result<usize, _>>()?;
        sums.iter_mut().for_each(|s| s.set_relevant(relevant));
    }
    let plans = PieceRankings::new(lanes, items, weights.is_some());
    // The sums that work out each piece's part (parts read no relevant total).
    let first = first_sums(lanes, items, weights.is_some());
    // Where each bucket starts in each range's pool of every bucket.
    let range_starts: Vec<Vec<usize>> = counts
        .into_iter()
        .map(|mut starts| {
            to_offsets(&mut starts);
            starts
        })
        .collect();
    let windows = cut_windows(&pieces, window_cells(total));
    // Each range's pool: room for its share of the largest window.
    let mut pools: Vec<Pool<T, Y::Elem>> = range_starts
        .iter()
        .map(|starts| {
            let room = windows
                .iter()
                .map(|w| w.cells_in(starts))
                .max()
                .unwrap_or(0);
            Pool::new(zero, room, weights.is_some())
        })
        .collect::<Result<_, _>>()?;
    // Each range's cells of a window placed in its pool (errors in row order); where each
    // bucket starts in each.
    let place = |window: &Window, pools: &mut [Pool<T, Y::Elem>]| {
        let placed: Vec<_> = row_ranges
            .par_iter()
            .zip(&range_starts)
            .zip(pools.par_iter_mut())
            .map(|((rows, starts), pool)| {
                let placing = Placing {
                    matrices: (y_true, y_score),
                    rows: rows.clone(),
                    bucketing,
                    starts,
                    split_groups: &split_groups,
                };
                placing.place(window, pool)
            })
            .collect();
        placed.into_iter().collect::<Result<Vec<_>, _>>()
    };
    let mut classes = PieceClasses::default();
    let mut window_starts: Vec<Vec<usize>> = Vec::new();
    for window in &windows {
        window_starts = place(window, &mut pools)?;
        let cells = piece_cells(&pieces, &pools, &window_starts);
        let indices: Vec<usize> = window.pieces.clone().collect();
        for chunk in indices.chunks(PIECES_PER_THREAD * threads) {
            // Each piece's class counts and parts: (lane, part), in the order the sequential
            // pass adds them.
            let parts: Vec<(PieceClasses, Vec<(usize, PiecePart)>)> = chunk
                .par_iter()
                .map_init(PieceRanker::default, |ranker, &p| {
                    let mut parts = Vec::new();
                    let mut piece_classes = PieceClasses::default();
                    ranker.rank(
                        &cells(p),
                        weights,
                        &plans,
                        &mut piece_classes,
                        |ranking, v, row| {
                            for (k, lane) in lanes.iter().enumerate() {
                                if reads_piece(lane, ranking) {
                                    parts.push((k, first[k].part(v, row)));
                                }
                            }
                        },
                    );
                    (piece_classes, parts)
                })
                .collect();
            for (piece_classes, parts) in &parts {
                classes.extend(piece_classes);
                for (k, part) in parts {
                    sums[*k].add_part(part);
                }
            }
        }
    }
    let medians = match plans.medians {
        false => None,
        true => {
            // A piece of another window than the last is placed again (a pass).
            let mut held = HeldWindow::last(&windows);
            let class_of = |p: usize, relevant: bool| {
                let place_again = |w: &Window| {
                    window_starts = place(w, &mut pools)?;
                    Ok::<_, Error>(())
                };
                held.holding(p, place_again)?;
                let segments = piece_cells(&pieces, &pools, &window_starts)(p);
                Ok(class_in(&segments, relevant))
            };
            Some(classes.medians(class_of)?)
        }
    };
    Ok(PooledSums { sums, medians })
}

/// A piece's cells in the window placed in `pools` (where each bucket starts in each: `starts`):
/// its buckets in each range's pool, the ranges in row order.
fn piece_cells<'a, T: Score, L: Label>(
    pieces: &'a [Piece], pools: &'a [Pool<T, L>], starts: &'a [Vec<usize>],
) -> impl Fn(usize) -> Vec<Segment<'a, T, L>> + Sync + 'a {
    move |p| {
        let Some(piece) = pieces.get(p) else {
            return Vec::new();
        };
        let (b0, b1) = (piece.buckets.start, piece.buckets.end);
        let at = |s: &[usize], b: usize| s.get(b).copied().unwrap_or(0);
        let ranges = pools.iter().zip(starts);
        ranges
            .map(|(pool, s)| pool.segment(at(s, b0)..at(s, b1)))
            .collect()
    }
}

/// `range` cut into at most `parts` ranges of (nearly) equal length, in order.
fn split(range: Range<usize>, parts: usize) -> Vec<Range<usize>> {
    let (len, parts) = (range.len(), parts.max(1));
    (0..parts)
        .map(|p| range.start + len * p / parts..range.start + len * (p + 1) / parts)
        .filter(|r| !r.is_empty())
        .collect()
}
