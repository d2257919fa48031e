//! The pooled vector (the micro average): all n·L cells, each with its row's weight, ranked
//! whole from the row copy, or a piece at a time from the input for a metric that reads pieces.

use super::cells::Cells;
use super::lanes::{fail, vector_values, wants, Lane, Values};
use super::pairs::AucSums;
use super::vector::{Vector, VectorMetric, Weights};
use super::Average;
use crate::error::{Error, Input};
use crate::kernel::{RankedRow, Ranker, Ranking, Reach};
use crate::matrix::{LabelMatrix, RowReader, ScoreMatrix};
use crate::score::{Label, Score};
use crate::ties::TieGrouping;

use core::ops::Range;

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
pub(super) const PIECE_CELLS: usize = 1 << 17;

/// Unit tests cut smaller pieces (0: [`PIECE_CELLS`]), so that a small pool has many.
#[cfg(test)]
static TEST_PIECE_CELLS: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

/// The most cells a piece holds (unless one bucket holds more).
fn piece_cells() -> usize {
    #[cfg(test)]
    match TEST_PIECE_CELLS.load(core::sync::atomic::Ordering::Relaxed) {
        0 => {}
        cells => return cells,
    }
    PIECE_CELLS
}

/// The buckets of the pooled cells: 2^16 ranges of leading key bits.
pub(super) const BUCKETS: usize = 1 << 16;

/// A cell's descending-order key: the best score has the smallest.
#[inline]
fn key<T: Score>(s: &T) -> u64 {
    !s.order_key()
}

/// Calls `f` with each of `rows` of the scores (its index, its scores), in order.
pub(super) fn each_row<T: Score, S: ScoreMatrix<T> + ?Sized>(
    y_score: &S,
    rows: Range<usize>,
    f: &mut RowVisitor<'_, T>,
) -> Result<(), Error> {
    let mut reader = RowReader::new(y_score, Input::Scores);
    rows.into_iter().try_for_each(|i| f(i, reader.row(i)?))
}

/// The smallest and largest key of `rows`' cells ((`u64::MAX`, 0) for none).
pub(super) fn key_range<T: Score, S: ScoreMatrix<T> + ?Sized>(
    y_score: &S,
    rows: Range<usize>,
) -> Result<(u64, u64), Error> {
    let (mut low, mut high) = (u64::MAX, 0);
    each_row(y_score, rows, &mut |_, row| {
        for k in row.iter().map(key) {
            (low, high) = (low.min(k), high.max(k));
        }
        Ok(())
    })?;
    Ok((low, high))
}

/// Which bucket a cell falls in: the leading 16 bits of its key below the prefix every key
/// shares.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bucketing {
    shift: u32,
}

impl Bucketing {
    /// The bucketing of keys from `low` to `high`.
    pub(super) fn new((low, high): (u64, u64)) -> Self {
        let shift = (u64::BITS - (low ^ high).leading_zeros()).saturating_sub(16);
        Bucketing { shift }
    }

    #[inline]
    pub(super) fn of<T: Score>(self, s: &T) -> usize {
        (key(s) >> self.shift) as usize & (BUCKETS - 1)
    }

    /// Counts the cells of `rows` by bucket into `counts[b + 1]` (`BUCKETS + 1` counts).
    pub(super) fn count<T: Score, S: ScoreMatrix<T> + ?Sized>(
        self,
        y_score: &S,
        rows: Range<usize>,
        counts: &mut [usize],
    ) -> Result<(), Error> {
        each_row(y_score, rows, &mut |_, row| {
            for s in row {
                if let Some(c) = counts.get_mut(self.of(s) + 1) {
                    *c += 1;
                }
            }
            Ok(())
        })
    }
}

/// One piece of the pooled ranking: a run of whole buckets, and where its cells are.
#[derive(Debug, Clone)]
pub(super) struct Piece {
    pub(super) cells: Range<usize>,
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))] // used on a rayon pool only
    pub(super) buckets: Range<usize>,
}

/// Turns the bucket counts (`ends[b + 1]`: bucket b's cells) into offsets (`ends[b]`: where
/// bucket b starts) and cuts the pieces between buckets; the number of cells.
pub(super) fn cut_pieces(ends: &mut [usize]) -> (Vec<Piece>, usize) {
    let mut pieces = Vec::new();
    let (mut total, mut start, mut first, most) = (0, 0, 0, piece_cells());
    // `total`: the cells of the buckets before `b - 1` (`ends[b]` counts bucket b - 1).
    for (b, end) in ends.iter_mut().enumerate() {
        let count = *end;
        if total > start && total + count - start > most {
            pieces.push(Piece {
                cells: start..total,
                buckets: first..b - 1,
            });
            (start, first) = (total, b - 1);
        }
        total += count;
        *end = total;
    }
    pieces.push(Piece {
        cells: start..total,
        buckets: first..BUCKETS,
    });
    (pieces, total)
}

/// The value the pool's label vectors start from (any label of the input), none when there
/// are no cells.
pub(super) fn any_label<Y: LabelMatrix + ?Sized>(
    y_true: &Y,
    total: usize,
) -> Result<Option<Y::Elem>, Error> {
    Ok(match total {
        0 => None,
        _ => RowReader::new(y_true, Input::Labels)
            .row(0)?
            .first()
            .copied(),
    })
}

/// Pooled cells bucketed: score, label and (for weights) row of each, bucket by bucket, in
/// pooled order inside a bucket.
pub(super) struct Pool<T, L> {
    scores: Vec<T>,
    labels: Vec<L>,
    rows: Vec<u32>,
}

/// Cells of a pool: where [`Pool::place`] puts them ([`Slots`]), or a piece's part to rank
/// ([`Segment`]).
pub(super) struct CellSlices<S, L, R> {
    pub(super) scores: S,
    pub(super) labels: L,
    pub(super) rows: R,
}

/// Cells of a pool to rank.
pub(super) type Segment<'a, T, L> = CellSlices<&'a [T], &'a [L], &'a [u32]>;

/// Room in a pool for cells.
pub(super) type Slots<'a, T, L> = CellSlices<&'a mut [T], &'a mut [L], &'a mut [u32]>;

impl<T: Score, L: Label> Pool<T, L> {
    /// Room for `total` cells (their rows too when `weighted`), labels set to `zero`.
    pub(super) fn new(zero: L, total: usize, weighted: bool) -> Self {
        Pool {
            scores: vec![T::zero(); total],
            labels: vec![zero; total],
            rows: vec![0u32; if weighted { total } else { 0 }],
        }
    }

    /// The cells `cells`.
    pub(super) fn segment(&self, cells: Range<usize>) -> Segment<'_, T, L> {
        CellSlices {
            scores: &self.scores[cells.clone()],
            labels: &self.labels[cells.clone()],
            rows: self.rows.get(cells).unwrap_or(&[]),
        }
    }

    /// The slots of the whole pool.
    pub(super) fn slots(&mut self) -> Slots<'_, T, L> {
        CellSlices {
            scores: &mut self.scores,
            labels: &mut self.labels,
            rows: &mut self.rows,
        }
    }

    /// Places every cell of `rows` in `slots`, in pooled order: `next[b]` is where in `slots`
    /// bucket b's next cell goes.
    #[inline]
    pub(super) fn place<Y, S>(
        (y_true, y_score): (&Y, &S),
        rows: Range<usize>,
        bucketing: Bucketing,
        next: &mut [usize],
        slots: Slots<'_, T, L>,
    ) -> Result<(), Error>
    where
        Y: LabelMatrix<Elem = L> + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        let (mut truth, mut scores) = (
            RowReader::new(y_true, Input::Labels),
            RowReader::new(y_score, Input::Scores),
        );
        let Slots {
            scores: score_slots,
            labels: label_slots,
            rows: row_slots,
        } = slots;
        for i in rows {
            for (s, &y) in scores.row(i)?.iter().zip(truth.row(i)?) {
                // `BUCKETS + 1` offsets: every bucket has one.
                let at = &mut next[bucketing.of(s)];
                // A valid matrix reads the same cells in every pass, so every slot exists;
                // `get` keeps a matrix that does not from panicking.
                let (score, label) = (score_slots.get_mut(*at), label_slots.get_mut(*at));
                if let (Some(score), Some(label)) = (score, label) {
                    (*score, *label) = (*s, y);
                }
                if let Some(r) = row_slots.get_mut(*at) {
                    *r = i as u32;
                }
                *at += 1;
            }
        }
        Ok(())
    }
}

/// The rankings the piece-reading lanes ask for, and how a piece is ranked for them.
pub(super) struct PiecePlans {
    rankings: Vec<Ranking>,
    /// Every lane reads only the relevant blocks: each piece is counted, not sorted.
    relevant_only: bool,
}

impl PiecePlans {
    pub(super) fn new<M: VectorMetric>(
        lanes: &[Lane<'_, M>],
        items: usize,
        weighted: bool,
    ) -> Self {
        let mut rankings: Vec<Ranking> = Vec::new();
        let running = || {
            lanes
                .iter()
                .filter(|lane| lane.pieces && lane.failed.is_none())
        };
        for lane in running() {
            if !rankings.contains(&lane.options.ranking) {
                rankings.push(lane.options.ranking);
            }
        }
        let relevant_only =
            running().all(|lane| lane.metric.reads_only_relevant_blocks(weighted, items));
        PiecePlans {
            rankings,
            relevant_only,
        }
    }
}

/// Sums for each lane of a pool of `items` cells, before any piece.
pub(super) fn first_sums<M>(lanes: &[Lane<'_, M>], items: usize, weighted: bool) -> Vec<AucSums> {
    vec![AucSums::for_items(items, !weighted); lanes.len()]
}

/// The scratch that ranks one piece at a time: the kernel's, and the piece's scores (when
/// gathered from several segments), gains and weights.
pub(super) struct PieceRanker<T> {
    ranker: Ranker,
    scores: Vec<T>,
    gains: Vec<f64>,
    cell_weights: Vec<f64>,
}

impl<T> Default for PieceRanker<T> {
    fn default() -> Self {
        PieceRanker {
            ranker: Ranker::new(),
            scores: Vec::new(),
            gains: Vec::new(),
            cell_weights: Vec::new(),
        }
    }
}

impl<T: Score> PieceRanker<T> {
    /// Ranks the piece made of `segments` (one after the other) once per plan (one sort or
    /// count serves all), handing each ranking to `each` with its plan and vector. Only the
    /// order of equal keys matters to the ranking: a piece in segments that each hold their
    /// buckets' cells in pooled order, the segments in pooled order, ranks as the pool.
    pub(super) fn rank<L: Label>(
        &mut self,
        segments: &[Segment<'_, T, L>],
        weights: Option<&[f64]>,
        plans: &PiecePlans,
        mut each: impl FnMut(Ranking, &Vector<'_, T>, &RankedRow<'_>),
    ) {
        let PieceRanker {
            ranker,
            scores,
            gains,
            cell_weights,
        } = self;
        gains.clear();
        cell_weights.clear();
        for segment in segments {
            gains.extend(segment.labels.iter().map(|y| y.value()));
            if let Some(w) = weights {
                cell_weights.extend(segment.rows.iter().map(|&i| w[i as usize]));
            }
        }
        let scores: &[T] = match segments {
            [one] => one.scores,
            _ => {
                scores.clear();
                segments
                    .iter()
                    .for_each(|s| scores.extend_from_slice(s.scores));
                scores
            }
        };
        let v = Vector {
            scores,
            labels: gains,
            weights: weights.map_or(Weights::Unit, |_| Weights::Each(cell_weights)),
        };
        // Every piece lane groups exactly: one sort (or count) serves all.
        let relevant_only = plans.relevant_only;
        if relevant_only {
            ranker.gather(gains);
        } else {
            ranker.sort(v.scores, TieGrouping::Exact);
        }
        for (p, &ranking) in plans.rankings.iter().enumerate() {
            let row = match (relevant_only, p) {
                (true, 0) => ranker.rank_gathered(v.scores, gains, ranking, 0, Reach::All),
                (true, _) => ranker.rank_gathered_again(v.scores, gains, ranking, 0, Reach::All),
                (false, 0) => ranker.assign(gains, ranking.ties, 0),
                (false, _) => ranker.reassign(gains, ranking.ties, 0),
            };
            each(ranking, &v, &row);
        }
    }
}

/// Whether `lane` reads the pieces under `ranking`.
#[inline]
pub(super) fn reads_piece<M>(lane: &Lane<'_, M>, ranking: Ranking) -> bool {
    lane.pieces && lane.failed.is_none() && lane.options.ranking == ranking
}

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
    let items = n.saturating_mul(y_score.ncols());
    let bucketing = Bucketing::new(key_range(y_score, 0..n)?);
    let mut ends = vec![0usize; BUCKETS + 1];
    bucketing.count(y_score, 0..n, &mut ends)?;
    let (pieces, total) = cut_pieces(&mut ends);
    let mut sums = first_sums(lanes, items, weights.is_some());
    let Some(zero) = any_label(y_true, total)? else {
        // No cells: the pool is one empty piece.
        return Ok(sums);
    };
    let mut pool = Pool::new(zero, total, weights.is_some());
    let matrices = (y_true, y_score);
    Pool::place(matrices, 0..n, bucketing, &mut ends, pool.slots())?;
    let plans = PiecePlans::new(lanes, items, weights.is_some());
    let mut ranker = PieceRanker::default();
    for piece in pieces {
        let segment = pool.segment(piece.cells);
        ranker.rank(&[segment], weights, &plans, |ranking, v, row| {
            for (lane, sums) in lanes.iter().zip(sums.iter_mut()) {
                if reads_piece(lane, ranking) {
                    sums.add_part(&lane.metric.piece_part(sums, v, row));
                }
            }
        });
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
        let policies = [
            TiePolicy::Average,
            TiePolicy::Max,
            TiePolicy::Min,
            TiePolicy::First,
            TiePolicy::Last,
            TiePolicy::Optimistic,
            TiePolicy::Pessimistic,
            TiePolicy::Expected,
        ];
        let metrics: Vec<RocAuc> = policies
            .iter()
            .map(|&ties| RocAuc::new(Average::Micro, ties).with_label_domain(LabelDomain::NonZero))
            .collect();
        for weights in [None, Some(&w[..])] {
            let mut wholes = Vec::new();
            for metric in &metrics {
                assert!(metric.reads_pieces());
                let ties = metric.options().ranking.ties;
                let pieces = metric.evaluate(&yy, &ss, weights).unwrap();
                let whole = whole_pool_auc(metric, &y, &s, weights, l).unwrap();
                assert_eq!(pieces.to_bits(), whole.to_bits(), "{ties:?} {weights:?}");
                wholes.push(whole.to_bits());
            }
            // Every policy at once: the lanes share the pieces (one sort or count, one
            // ranking per policy), cut to the usual size and much smaller (a window of
            // pieces on the threads holds several, and runs of whole buckets larger than a
            // piece), sequentially and on pools of 1 to 3 threads.
            for small in [0, 1 << 12] {
                TEST_PIECE_CELLS.store(small, core::sync::atomic::Ordering::Relaxed);
                let bits = |values: Vec<Result<f64, Error>>| -> Vec<u64> {
                    values.into_iter().map(|v| v.unwrap().to_bits()).collect()
                };
                let all = bits(super::super::evaluate_many(&metrics, &yy, &ss, weights));
                assert_eq!(all, wholes, "{small} {weights:?}");
                #[cfg(feature = "rayon")]
                for threads in 1..=3 {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap();
                    let parallel = pool.install(|| {
                        super::super::evaluate_many_parallel(&metrics, &yy, &ss, weights)
                    });
                    assert_eq!(bits(parallel), wholes, "{small} {threads} {weights:?}");
                }
            }
            TEST_PIECE_CELLS.store(0, core::sync::atomic::Ordering::Relaxed);
        }
    }
}
