//! The pooled vector (the micro average): all n·L cells, each with its row's weight, ranked
//! whole from the row copy, or a piece at a time from the input for a metric that reads pieces.

use super::cells::Cells;
use super::lanes::{fail, vector_values, wants, Lane, Values};
use super::pairs::AucSums;
use super::vector::{Vector, VectorMetric, Weights};
use super::Average;
use crate::error::{Error, Input};
use crate::kernel::{Ranker, Ranking, Reach};
use crate::matrix::{LabelMatrix, RowReader, ScoreMatrix};
use crate::score::{Label, Score};
use crate::ties::TieGrouping;

/// What [`micro_in_pieces`] does with each row of scores (its index, its scores).
type RowVisitor<'a, T> = dyn FnMut(usize, &[T]) -> Result<(), Error> + 'a;

/// The most items one ranked vector may hold (the kernel numbers them with `u32`).
pub(super) const MAX_ITEMS: usize = u32::MAX as usize;

/// Fails the micro lanes when the pool is too large for the kernel's u32 positions.
pub(super) fn check_pool_size<M>(lanes: &mut [Lane<'_, M>], n: usize, l: usize) {
    let cell_count = n.saturating_mul(l);
    if wants(lanes, Average::Micro) && cell_count > MAX_ITEMS {
        let error = Error::TooManyItems {
            found: cell_count,
            max: MAX_ITEMS,
        };
        fail(lanes, |lane| lane.average == Average::Micro, error);
    }
}

/// The pooled cells as one vector (micro lanes that do not read pieces).
pub(super) fn pooled_values<M: VectorMetric, T: Score, L>(
    lanes: &[Lane<'_, M>],
    cells: &Cells<T, L>,
    weights: Option<&[f64]>,
    l: usize,
    mut ranker: Ranker,
) -> Values {
    let mut values = Vec::new();
    if let Some((scores, labels)) = &cells.by_row {
        let v = Vector {
            scores,
            labels,
            weights: weights.map_or(Weights::Unit, |w| Weights::PerRow(w, l)),
        };
        vector_values(lanes, &[Average::Micro], &v, 0, &mut ranker, &mut values);
    }
    values
}

/// The most cells one piece of a pooled ranking holds, unless one range of leading key bits
/// holds more: small enough that a piece's sort and ranking stay in cache.
const PIECE_CELLS: usize = 1 << 17;

/// Ranks the pooled cells of every piece-reading micro lane a piece at a time, best first.
/// The cells are bucketed by the leading bits of their descending keys (one pass to count, one
/// to place score, label and row, about 13 bytes a cell instead of the ~80 a whole ranking
/// takes); a piece is a run of whole buckets, so a tie group is never split, and a bucket holds
/// its cells in pooled (row-major) order, so that ties inside a piece rank as in the whole pool.
/// Each piece is sorted (or, for metrics that read only its relevant blocks, counted) once
/// and ranked once per policy.
pub(super) fn micro_in_pieces<M, T, Y, S>(
    lanes: &[Lane<'_, M>],
    y_true: &Y,
    y_score: &S,
    weights: Option<&[f64]>,
) -> Result<Vec<AucSums>, Error>
where
    M: VectorMetric,
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    let n = y_score.nrows();
    let key = |s: &T| !s.order_key();
    let each_row = |f: &mut RowVisitor<'_, T>| {
        let mut reader = RowReader::new(y_score, Input::Scores);
        (0..n).try_for_each(|i| f(i, reader.row(i)?))
    };
    // Buckets: the leading 16 bits below the prefix every key shares.
    let (mut low, mut high) = (u64::MAX, 0);
    each_row(&mut |_, row| {
        for k in row.iter().map(key) {
            (low, high) = (low.min(k), high.max(k));
        }
        Ok(())
    })?;
    let shift = (u64::BITS - (low ^ high).leading_zeros()).saturating_sub(16);
    let bucket = |s: &T| (key(s) >> shift) as usize & 0xFFFF;
    let mut ends = vec![0usize; (1 << 16) + 1];
    each_row(&mut |_, row| {
        row.iter().for_each(|s| ends[bucket(s) + 1] += 1);
        Ok(())
    })?;
    let mut pieces: Vec<core::ops::Range<usize>> = Vec::new();
    let (mut total, mut start) = (0, 0);
    // Counts to offsets (`ends[b]`: where bucket b starts), cutting pieces between buckets.
    for end in ends.iter_mut() {
        let count = *end;
        if total > start && total + count - start > PIECE_CELLS {
            pieces.push(start..total);
            start = total;
        }
        total += count;
        *end = total;
    }
    pieces.push(start..total);
    // Place every cell in its bucket, in pooled order.
    let first_label = match total {
        0 => None,
        _ => RowReader::new(y_true, Input::Labels)
            .row(0)?
            .first()
            .copied(),
    };
    let pooled = AucSums::for_items(n.saturating_mul(y_score.ncols()), weights.is_none());
    let mut sums = vec![pooled; lanes.len()];
    let Some(zero) = first_label else {
        // No cells: the pool is one empty piece.
        return Ok(sums);
    };
    let (mut scores, mut labels) = (vec![T::zero(); total], vec![zero; total]);
    let mut rows = vec![0u32; if weights.is_some() { total } else { 0 }];
    let mut next = ends;
    let mut truth = RowReader::new(y_true, Input::Labels);
    each_row(&mut |i, row| {
        for (s, &y) in row.iter().zip(truth.row(i)?) {
            // A valid matrix reads the same cells in every pass, so every slot exists; `get`
            // keeps a matrix that does not from panicking.
            let at = &mut next[bucket(s)];
            if let (Some(score), Some(label)) = (scores.get_mut(*at), labels.get_mut(*at)) {
                (*score, *label) = (*s, y);
            }
            if let Some(r) = rows.get_mut(*at) {
                *r = i as u32;
            }
            *at += 1;
        }
        Ok(())
    })?;
    let mut plans: Vec<Ranking> = Vec::new();
    for lane in lanes
        .iter()
        .filter(|lane| lane.pieces && lane.failed.is_none())
    {
        if !plans.contains(&lane.options.ranking) {
            plans.push(lane.options.ranking);
        }
    }
    // Lanes that read only the relevant blocks have each piece counted, not sorted.
    let relevant_only = lanes
        .iter()
        .filter(|lane| lane.pieces && lane.failed.is_none())
        .all(|lane| {
            let items = n.saturating_mul(y_score.ncols());
            lane.metric
                .reads_only_relevant_blocks(weights.is_some(), items)
        });
    let mut ranker = Ranker::new();
    let (mut gains, mut cell_weights) = (Vec::new(), Vec::new());
    for piece in pieces {
        gains.clear();
        gains.extend(labels[piece.clone()].iter().map(|y| y.value()));
        if let Some(w) = weights {
            cell_weights.clear();
            let piece_rows = rows.get(piece.clone()).unwrap_or(&[]);
            cell_weights.extend(piece_rows.iter().map(|&i| w[i as usize]));
        }
        let v = Vector {
            scores: &scores[piece],
            labels: &gains,
            weights: weights.map_or(Weights::Unit, |_| Weights::Each(&cell_weights)),
        };
        // Every piece lane groups exactly: one sort (or count) serves all.
        if relevant_only {
            ranker.gather(&gains);
        } else {
            ranker.sort(v.scores, TieGrouping::Exact);
        }
        for (p, &ranking) in plans.iter().enumerate() {
            let row = match (relevant_only, p) {
                (true, 0) => ranker.rank_gathered(v.scores, &gains, ranking, 0, Reach::All),
                (true, _) => ranker.rank_gathered_again(v.scores, &gains, ranking, 0, Reach::All),
                (false, 0) => ranker.assign(&gains, ranking.ties, 0),
                (false, _) => ranker.reassign(&gains, ranking.ties, 0),
            };
            for (lane, sums) in lanes.iter().zip(sums.iter_mut()) {
                if lane.pieces && lane.failed.is_none() && lane.options.ranking == ranking {
                    lane.metric.add_piece(sums, &v, &row);
                }
            }
        }
    }
    Ok(sums)
}

/// Adds the value of each piece-reading lane's pooled ranking (`sums`, one per lane, from
/// [`micro_in_pieces`]) to its mean; `sums`' error fails them.
pub(super) fn finish_pieces<M: VectorMetric>(
    lanes: &mut [Lane<'_, M>],
    sums: Result<Vec<AucSums>, Error>,
) {
    let sums = match sums {
        Ok(sums) => sums,
        Err(e) => return fail(lanes, |lane| lane.pieces, e),
    };
    for (lane, sums) in lanes.iter_mut().zip(&sums) {
        if !lane.pieces || lane.failed.is_some() {
            continue;
        }
        if let Err(e) = lane.means.add(lane.metric.pieces_value(sums), 1.0) {
            lane.failed = Some(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::LabelDomain;
    use crate::matrix::RowMajor;
    use crate::metric::RankingMetric;
    use crate::metrics::roc_auc::RocAuc;
    use crate::ties::TiePolicy;

    /// The pooled AUC ranked whole, as the kernel ranks any vector.
    fn whole_pool_auc(
        metric: &RocAuc,
        y: &[f64],
        s: &[f64],
        w: Option<&[f64]>,
        l: usize,
    ) -> Option<f64> {
        let v = Vector {
            scores: s,
            labels: y,
            weights: w.map_or(Weights::Unit, |w| Weights::PerRow(w, l)),
        };
        let mut ranker = Ranker::new();
        let row = ranker.rank(s, y, metric.options().ranking, 0);
        metric.vector_value(&v, &row)
    }

    #[test]
    fn micro_auc_in_pieces_equals_the_whole_pool_bitwise() {
        // Several pieces (more cells than PIECE_CELLS), heavy ties (one tie group is larger
        // than a piece), graded and negative labels, and weights.
        let (n, l) = (700, 500);
        assert!(n * l > 2 * PIECE_CELLS);
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let y: Vec<f64> = (0..n * l)
            .map(|_| match next() % 10 {
                0 => 1.0,
                1 => 2.0,
                2 => -1.0,
                _ => 0.0,
            })
            .collect();
        let s: Vec<f64> = (0..n * l)
            .map(|k| match k % 3 {
                0 => 0.25,
                1 => (next() % 1000) as f64 / 1000.0,
                _ => (next() >> 11) as f64 / (1u64 << 53) as f64,
            })
            .collect();
        let w: Vec<f64> = (0..n).map(|_| (next() % 7) as f64 / 3.0).collect();
        let (yy, ss) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        for ties in [
            TiePolicy::Average,
            TiePolicy::Max,
            TiePolicy::Min,
            TiePolicy::First,
            TiePolicy::Last,
            TiePolicy::Optimistic,
            TiePolicy::Pessimistic,
            TiePolicy::Expected,
        ] {
            let metric = RocAuc::new(Average::Micro, ties).with_label_domain(LabelDomain::NonZero);
            assert!(metric.reads_pieces());
            for weights in [None, Some(&w[..])] {
                let pieces = metric.evaluate(&yy, &ss, weights).unwrap();
                let whole = whole_pool_auc(&metric, &y, &s, weights, l).unwrap();
                assert_eq!(pieces.to_bits(), whole.to_bits(), "{ties:?} {weights:?}");
            }
        }
    }
}
