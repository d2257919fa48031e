//! The pooled vector (the micro average): all n·L cells, each with its row's weight, ranked
//! whole from the row copy, or a piece at a time from the input for a metric that reads pieces.
//!
//! * `buckets.rs`: the cells bucketed by the leading bits of their keys and cut into pieces.
//! * `windows.rs`: the runs of pieces held at once, and the limit on the cells held.
//! * `fold.rs`: what a metric keeps of the pieces added so far, and what one piece adds.
//! * `parallel.rs` (feature `rayon`): the pieces on rayon's threads.
//! * this file: the pooled vector read whole, and the serial driver of the pieces.

pub(in crate::labelwise) mod buckets;
pub(crate) mod fold;
#[cfg(feature = "rayon")]
pub(in crate::labelwise) mod parallel;
pub(in crate::labelwise) mod windows;

use self::buckets::{
    any_label, cut_pieces, key_range, Bucketing, Pool, Segment, SplitGroups, BUCKETS,
};
use self::fold::PieceSums;
use self::windows::{cut_windows, window_cells, HeldWindow, Window};
use super::cells::{changed_shape, count_relevant, Cells};
use super::lanes::{fail, vector_values, wants, Values, VectorLane, VectorRankings};
use super::medians::{class_in, ClassMedians, PieceClasses};
use super::vector::{Vector, Weights};
use super::vector_metric::VectorMetric;
use super::Average;
use crate::error::Error;
use crate::kernel::{RankedRow, Ranker, Ranking, Reach};
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::score::{Label, Score};
use crate::ties::TieGrouping;

use core::ops::Range;

/// The most items one ranked vector may hold (the kernel numbers them with `u32`).
pub(super) const MAX_ITEMS: usize = u32::MAX as usize;

/// Fails the micro lanes when the pool is too large for the kernel's u32 positions.
pub(super) fn check_pool_size<M>(lanes: &mut [VectorLane<'_, M>], n: usize, l: usize) {
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
    lanes: &[VectorLane<'_, M>], cells: &Cells<T, L>, weights: Option<&[f64]>, l: usize,
    mut ranker: Ranker,
) -> Values {
    let mut values = Vec::new();
    if let Some((scores, labels)) = &cells.by_row {
        let v = Vector {
            scores,
            labels,
            weights: weights.map_or(Weights::Unit, |w| Weights::PerRow(w, l)),
        };
        let plan = VectorRankings::of_vectors(lanes, &[Average::Micro]);
        vector_values(lanes, &plan, &v, 0, &mut ranker, &mut values);
    }
    values
}

/// The rankings the piece-reading lanes ask for, and how a piece is ranked for them.
pub(super) struct PieceRankings {
    rankings: Vec<Ranking>,
    /// Every lane reads only the relevant blocks: each piece is counted, not sorted.
    relevant_only: bool,
    /// A lane reads scores: the pool's class medians are wanted.
    pub(super) medians: bool,
}

impl PieceRankings {
    pub(super) fn new<M: VectorMetric>(
        lanes: &[VectorLane<'_, M>], items: usize, weighted: bool,
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
        PieceRankings {
            rankings,
            relevant_only,
            medians: running().any(|lane| lane.metric.reads_scores()),
        }
    }
}

/// Sums for each lane of a pool of `items` cells, before any piece.
pub(super) fn first_sums<M: VectorMetric>(
    lanes: &[VectorLane<'_, M>], items: usize, weighted: bool,
) -> Vec<PieceSums> {
    let sums = |lane: &VectorLane<'_, M>| match lane.pieces {
        true => lane.metric.piece_sums(items, weighted),
        // Never read: the lane's pool is ranked whole.
        false => PieceSums::Pairs(Default::default()),
    };
    lanes.iter().map(sums).collect()
}

/// What [`micro_in_pieces`] gives: each lane's sums, and the pool's class medians when a
/// lane reads scores.
pub(super) struct PooledSums {
    pub(super) sums: Vec<PieceSums>,
    pub(super) medians: Option<ClassMedians>,
}

impl PooledSums {
    /// The sums of a pool without cells: one empty piece, with no value to read the medians.
    fn without_cells(sums: Vec<PieceSums>) -> Self {
        PooledSums {
            sums,
            medians: None,
        }
    }
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
    /// count serves all), handing each ranking to `each` with its plan and vector; records
    /// the piece's classes in `classes`. Only the order of equal keys matters to the ranking:
    /// a piece in segments that each hold equal keys in pooled order (cells in buckets, or in
    /// a whole group of buckets, in pooled order), the segments in pooled order, ranks as the
    /// pool.
    pub(super) fn rank<L: Label>(
        &mut self, segments: &[Segment<'_, T, L>], weights: Option<&[f64]>, plans: &PieceRankings,
        classes: &mut PieceClasses, mut each: impl FnMut(Ranking, &Vector<'_, T>, &RankedRow<'_>),
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
            if p == 0 {
                classes.push(&row);
            }
            each(ranking, &v, &row);
        }
    }
}

/// Whether a running piece lane's sums read the pool's number of relevant cells (counted in a
/// pass of its own, [`count_relevant`]).
pub(super) fn reads_relevant<M>(lanes: &[VectorLane<'_, M>], sums: &[PieceSums]) -> bool {
    let running = |lane: &VectorLane<'_, M>| lane.pieces && lane.failed.is_none();
    lanes
        .iter()
        .zip(sums)
        .any(|(lane, sums)| running(lane) && sums.reads_relevant())
}

/// Whether `lane` reads the pieces under `ranking`.
#[inline]
pub(super) fn reads_piece<M>(lane: &VectorLane<'_, M>, ranking: Ranking) -> bool {
    lane.pieces && lane.failed.is_none() && lane.options.ranking == ranking
}

/// Ranks the pooled cells of every piece-reading micro lane a piece at a time, best first.
/// The cells are bucketed by the leading bits of their descending keys (one pass to count, one
/// to place score, label and row, about 13 bytes a cell instead of the ~80 a whole ranking
/// takes; a window of pieces a pass where the pool would hold more cells than the limit,
/// [`window_cells`]); a piece is a run of whole buckets (of whole groups of buckets where they
/// fit), so a tie group is never split, and equal keys keep their pooled (row-major) order in
/// it, so that ties inside a piece rank as in the whole pool. `(n, l)` is the validated shape.
/// Each piece is sorted (or, for metrics that read only its relevant blocks, counted) once
/// and ranked once per policy.
pub(super) fn micro_in_pieces<M, T, Y, S>(
    lanes: &[VectorLane<'_, M>], y_true: &Y, y_score: &S, weights: Option<&[f64]>,
    (n, l): (usize, usize),
) -> Result<PooledSums, Error>
where
    M: VectorMetric,
    T: Score,
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<T> + ?Sized,
{
    // The weights were checked against the validated rows: a shape changed since is refused.
    if let Some(changed) = changed_shape(y_true, y_score, (n, l)) {
        return Err(changed);
    }
    let items = n.saturating_mul(l);
    let bucketing = Bucketing::new(key_range(y_score, 0..n)?);
    let mut ends = vec![0usize; BUCKETS + 1];
    bucketing.count(y_score, 0..n, &mut ends)?;
    let (pieces, total, split_groups) = cut_pieces(&mut ends);
    let plans = PieceRankings::new(lanes, items, weights.is_some());
    let mut sums = first_sums(lanes, items, weights.is_some());
    let Some(zero) = any_label(y_true, total)? else {
        return Ok(PooledSums::without_cells(sums));
    };
    if reads_relevant(lanes, &sums) {
        let relevant = count_relevant(y_true, 0..n)?;
        sums.iter_mut().for_each(|s| s.set_relevant(relevant));
    }
    let windows = cut_windows(&pieces, window_cells(total));
    let room = windows.iter().map(|w| w.cells.len()).max().unwrap_or(0);
    let mut pool = Pool::new(zero, room, weights.is_some())?;
    let placing = Placing {
        matrices: (y_true, y_score),
        rows: 0..n,
        bucketing,
        starts: &ends,
        split_groups: &split_groups,
    };
    let mut ranker = PieceRanker::default();
    let mut classes = PieceClasses::default();
    for window in &windows {
        placing.place(window, &mut pool)?;
        for piece in &pieces[window.pieces.clone()] {
            let segment = pool.segment(window.cells_of(piece));
            ranker.rank(
                &[segment],
                weights,
                &plans,
                &mut classes,
                |ranking, v, row| {
                    for (lane, sums) in lanes.iter().zip(sums.iter_mut()) {
                        if reads_piece(lane, ranking) {
                            sums.add_part(&sums.part(v, row));
                        }
                    }
                },
            );
        }
    }
    let medians = match plans.medians {
        false => None,
        true => {
            // A piece of another window than the last is placed again (a pass).
            let mut held = HeldWindow::last(&windows);
            let class_of = |p: usize, relevant: bool| {
                let place = |w: &Window| placing.place(w, &mut pool).map(drop);
                let (Some(w), Some(piece)) = (held.holding(p, place)?, pieces.get(p)) else {
                    return Ok(Vec::new());
                };
                Ok(class_in(&[pool.segment(w.cells_of(piece))], relevant))
            };
            Some(classes.medians(class_of)?)
        }
    };
    Ok(PooledSums { sums, medians })
}

/// What places a window's cells in a pool: the input (the rows read), its bucketing, and where
/// each bucket starts in a pool of every bucket of those rows (with the groups of buckets that
/// pieces split).
pub(super) struct Placing<'a, Y: ?Sized, S: ?Sized> {
    pub(super) matrices: (&'a Y, &'a S),
    pub(super) rows: Range<usize>,
    pub(super) bucketing: Bucketing,
    pub(super) starts: &'a [usize],
    pub(super) split_groups: &'a SplitGroups,
}

impl<Y: LabelMatrix + ?Sized, S: ?Sized> Placing<'_, Y, S> {
    /// Places the cells of `rows` in `window` in `pool`, in a pass over those rows; where each
    /// bucket's cells start in the pool.
    pub(super) fn place<T: Score>(
        &self, window: &Window, pool: &mut Pool<T, Y::Elem>,
    ) -> Result<Vec<usize>, Error>
    where
        S: ScoreMatrix<T>,
    {
        let starts = window.starts(self.starts);
        let mut next = starts.clone();
        let cells = window.cells_in(self.starts);
        Pool::place(
            self.matrices,
            self.rows.clone(),
            self.bucketing,
            window.buckets.clone(),
            &mut next,
            self.split_groups,
            pool.slots(cells),
        )?;
        Ok(starts)
    }
}

/// Adds the value of each piece-reading lane's pooled ranking (its sums, from
/// [`micro_in_pieces`]) to its mean; `sums`' error fails them.
pub(super) fn finish_pieces<M: VectorMetric>(
    lanes: &mut [VectorLane<'_, M>], sums: Result<PooledSums, Error>,
) {
    let PooledSums { sums, medians } = match sums {
        Ok(sums) => sums,
        Err(e) => return fail(lanes, |lane| lane.pieces, e),
    };
    for (lane, sums) in lanes.iter_mut().zip(&sums) {
        if !lane.pieces || lane.failed.is_some() {
            continue;
        }
        if let Err(e) = lane.means.add(lane.metric.pieces_value(sums, medians), 1.0) {
            lane.failed = Some(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use self::buckets::{TestPieceCells, PIECE_CELLS};
    use super::*;
    use crate::error::LabelDomain;
    #[cfg(feature = "rayon")]
    use crate::labelwise::pairs::tests::on_threads;
    use crate::matrix::RowMajor;
    use crate::metric::RankingMetric;
    use crate::metrics::label_average_precision::LabelAveragePrecision;
    use crate::metrics::roc_auc::{Direction, RocAuc};
    use crate::metrics::InterpolatedAveragePrecision;
    use crate::ties::TiePolicy;

    const POLICIES: [TiePolicy; 8] = [
        TiePolicy::Average,
        TiePolicy::Max,
        TiePolicy::Min,
        TiePolicy::First,
        TiePolicy::Last,
        TiePolicy::Optimistic,
        TiePolicy::Pessimistic,
        TiePolicy::Expected,
    ];

    /// The metric on the pool ranked whole (sorted), as the kernel ranks any vector.
    fn whole_pool_value<M: VectorMetric>(
        metric: &M, y: &[f64], s: &[f64], w: Option<&[f64]>, l: usize,
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

    /// How the test pool's scores are drawn.
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Draw {
        /// Heavy ties (one tie group larger than a piece) among scores spread over many
        /// buckets (groups smaller than a piece of 2^10 cells: `LowCases` and `HighCases`
        /// crowd some groups past it, placed twice).
        Spread,
        /// As `Spread`, half the relevant cells scoring low (pROC's direction turns).
        LowCases,
        /// As `Spread`, half the relevant cells scoring high (pROC's direction keeps).
        HighCases,
        /// A thousand distinct scores: few buckets hold cells (placed in one pass).
        Few,
    }

    /// A pool of several pieces (more cells than PIECE_CELLS), with graded and negative
    /// labels and row weights.
    fn pool(draw: Draw) -> (Vec<f64>, Vec<f64>, Vec<f64>, usize, usize) {
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
            .map(|k| {
                // Spread: most scores in [0.5, 1), whose keys differ in their mantissas only,
                // so that thousands of buckets hold cells.
                let s = match (k % 3, draw) {
                    (0, _) => 0.25,
                    (_, Draw::Few) => (next() % 1000) as f64 / 1000.0,
                    (1, _) => 0.5 + (next() % 1000) as f64 / 2000.0,
                    _ => 0.5 + (next() >> 11) as f64 / (1u64 << 54) as f64,
                };
                match (draw, y[k] != 0.0 && k % 2 == 0) {
                    (Draw::LowCases, true) => s / 4.0,
                    (Draw::HighCases, true) => 0.5 + s / 2.0,
                    _ => s,
                }
            })
            .collect();
        let w: Vec<f64> = (0..n).map(|_| (next() % 7) as f64 / 3.0).collect();
        (y, s, w, n, l)
    }

    /// Every metric of `metrics` (each reading pieces) on the pool, one at a time and all at
    /// once, in pieces of the usual size and much smaller (a window of pieces on the threads
    /// holds several, and runs of whole buckets larger than a piece), sequentially and on
    /// pools of 1 to 3 threads: bitwise the value of the pool ranked whole.
    fn pieces_equal_the_whole_pool<M>(metrics: &[M], draw: Draw, weighted: bool)
    where
        M: VectorMetric + RankingMetric<f64> + Sync + core::fmt::Debug,
    {
        let (y, s, w, n, l) = pool(draw);
        let (yy, ss) = (
            RowMajor::new(&y, n, l).unwrap(),
            RowMajor::new(&s, n, l).unwrap(),
        );
        let weights = weighted.then_some(&w[..]);
        let cells = TestPieceCells::hold();
        let mut wholes = Vec::new();
        for metric in metrics {
            assert!(metric.reads_pieces(weighted));
            let pieces = metric.evaluate(&yy, &ss, weights).unwrap();
            let whole = whole_pool_value(metric, &y, &s, weights, l).unwrap();
            assert_eq!(pieces.to_bits(), whole.to_bits(), "{metric:?} {weighted}");
            wholes.push(whole.to_bits());
        }
        // Pieces of 2^10 cells split many groups (placed twice) and leave many whole; windows
        // of several pieces, and of one piece each (smaller than a piece). The windows' own test
        // (windows.rs) cuts them inside split groups.
        for (small, window) in [(0, 0), (1 << 10, 0), (1 << 10, 30_000), (0, 50_000)] {
            cells.set(small);
            cells.set_window(window);
            let bits = |values: Vec<Result<f64, Error>>| -> Vec<u64> {
                values.into_iter().map(|v| v.unwrap().to_bits()).collect()
            };
            let all = bits(crate::labelwise::evaluate_many(metrics, &yy, &ss, weights));
            assert_eq!(all, wholes, "{small} {window} {weighted}");
            #[cfg(feature = "rayon")]
            for threads in 1..=3 {
                let parallel = on_threads(threads, || {
                    crate::labelwise::evaluate_many_parallel(metrics, &yy, &ss, weights)
                });
                let context = format!("{small} {window} {threads} {weighted}");
                assert_eq!(bits(parallel), wholes, "{context}");
            }
        }
    }

    #[test]
    fn micro_auc_in_pieces_equals_the_whole_pool_bitwise() {
        for direction in [Direction::Fixed, Direction::Auto] {
            let metrics: Vec<RocAuc> = POLICIES
                .iter()
                .map(|&ties| {
                    RocAuc::new(Average::Micro, ties)
                        .with_label_domain(LabelDomain::NonZero)
                        .with_direction(direction)
                })
                .collect();
            for draw in [Draw::Spread, Draw::LowCases, Draw::HighCases, Draw::Few] {
                for weighted in [false, true] {
                    pieces_equal_the_whole_pool(&metrics, draw, weighted);
                }
            }
        }
    }

    #[test]
    fn pools_direction_turns_where_the_cases_score_low() {
        // The test above compares both directions on a pool where pROC's direction keeps and
        // one where it turns: both happen.
        let auto = RocAuc::new(Average::Micro, TiePolicy::Average)
            .with_label_domain(LabelDomain::NonZero)
            .with_direction(Direction::Auto);
        let fixed = auto.with_direction(Direction::Fixed);
        for (draw, turns) in [(Draw::HighCases, false), (Draw::LowCases, true)] {
            let (y, s, _, n, l) = pool(draw);
            let (yy, ss) = (
                RowMajor::new(&y, n, l).unwrap(),
                RowMajor::new(&s, n, l).unwrap(),
            );
            let (a, f) = (
                auto.evaluate(&yy, &ss, None).unwrap(),
                fixed.evaluate(&yy, &ss, None).unwrap(),
            );
            assert_eq!(a != f, turns, "{a} {f}");
        }
    }

    #[test]
    fn micro_average_precision_in_pieces_equals_the_whole_pool_bitwise() {
        let metrics: Vec<LabelAveragePrecision> = POLICIES
            .iter()
            .map(|&ties| {
                LabelAveragePrecision::new(Average::Micro, ties)
                    .with_label_domain(LabelDomain::NonZero)
            })
            .collect();
        assert!(
            !metrics[0].reads_pieces(true),
            "weighted AP reads every block"
        );
        for draw in [Draw::Spread, Draw::LowCases, Draw::Few] {
            pieces_equal_the_whole_pool(&metrics, draw, false);
        }
    }

    #[test]
    fn micro_interpolated_average_precision_in_pieces_equals_the_whole_pool_bitwise() {
        // Every policy but `Expected`, which interpolated AP refuses.
        let metrics: Vec<InterpolatedAveragePrecision> = POLICIES
            .iter()
            .filter(|&&ties| ties != TiePolicy::Expected)
            .map(|&ties| {
                InterpolatedAveragePrecision::new(Average::Micro, ties, 11)
                    .with_label_domain(LabelDomain::NonZero)
            })
            .collect();
        assert!(
            !metrics[0].reads_pieces(true),
            "weighted interpolated AP reads every block"
        );
        for draw in [Draw::Spread, Draw::LowCases, Draw::Few] {
            pieces_equal_the_whole_pool(&metrics, draw, false);
        }
    }

    /// R's `median` of a class's scores, sorted.
    fn sorted_median(y: &[f64], s: &[f64], relevant: bool) -> f64 {
        let mut class: Vec<f64> = (0..s.len())
            .filter(|&k| (y[k] != 0.0) == relevant)
            .map(|k| s[k])
            .collect();
        class.sort_by(|a, b| b.total_cmp(a));
        crate::labelwise::medians::median_of(class.len(), |k| class[k])
    }

    #[test]
    fn pool_medians_in_pieces_are_the_class_medians() {
        // Small pools cut into many pieces of a few cells: the middle items fall in any
        // piece, a class may be empty or of one item, and -0.0 sits beside 0.0 (equal values,
        // as pROC compares them).
        let mut draw = crate::labelwise::pairs::tests::draws(0x3ED1A5);
        let values = [0.0, -0.0, 0.5, -0.5, 5e-324, 1.0, 0.25];
        let auto = [RocAuc::new(Average::Micro, TiePolicy::Average)
            .with_label_domain(LabelDomain::NonZero)
            .with_direction(Direction::Auto)];
        let cells = TestPieceCells::hold();
        cells.set(7);
        for case in 0..300 {
            let (n, l) = (1 + draw(30) as usize, 1 + draw(9) as usize);
            let share = 1 + draw(9);
            let y: Vec<f64> = (0..n * l)
                .map(|_| f64::from(u8::from(draw(10) < share)))
                .collect();
            let s: Vec<f64> = (0..n * l)
                .map(|_| match draw(3) {
                    0 => values[draw(values.len() as u64) as usize],
                    _ => draw(1000) as f64 / 64.0,
                })
                .collect();
            let (yy, ss) = (
                RowMajor::new(&y, n, l).unwrap(),
                RowMajor::new(&s, n, l).unwrap(),
            );
            let lanes = crate::labelwise::drivers::new_lanes(&auto, l, false);
            let expected = (sorted_median(&y, &s, true), sorted_median(&y, &s, false));
            let same = |m: Option<ClassMedians>| {
                let m = m.expect("medians");
                let eq = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
                eq(m.cases, expected.0) && eq(m.controls, expected.1)
            };
            // One window, windows of one piece each, and of a few: the pieces holding the
            // middle items placed again where the pool holds another window.
            for window in [0, 1, 20] {
                cells.set_window(window);
                let medians = micro_in_pieces(&lanes, &yy, &ss, None, (n, l))
                    .unwrap()
                    .medians;
                assert!(same(medians), "{case} {window}: {medians:?} {expected:?}");
                #[cfg(feature = "rayon")]
                {
                    let parallel = on_threads(2, || {
                        use self::parallel::micro_in_pieces_parallel;
                        micro_in_pieces_parallel(&lanes, &yy, &ss, None, (n, l))
                    });
                    let medians = parallel.unwrap().medians;
                    assert!(same(medians), "{case} {window}: {medians:?} {expected:?}");
                }
            }
        }
    }
}
