//! The pooled cells bucketed by the leading bits of their keys and cut into pieces (runs of
//! whole buckets), for a micro ranking read a piece at a time: the passes over the input that
//! count and place the cells, and the bucketed pool they fill.

use crate::error::{Error, Input};
use crate::matrix::{LabelMatrix, RowReader, ScoreMatrix};
use crate::memory;
use crate::score::{Label, Score};
use crate::validate::check_scores;

use core::ops::Range;

/// What [`each_row`] does with each row of scores (its index, its scores).
type RowVisitor<'a, T> = dyn FnMut(usize, &[T]) -> Result<(), Error> + 'a;

/// The most cells one piece of a pooled ranking holds, unless one range of leading key bits
/// holds more: small enough that a piece's sort and ranking stay in cache.
pub(in crate::labelwise) const PIECE_CELLS: usize = 1 << 17;

/// Unit tests cut smaller pieces (0: [`PIECE_CELLS`]), so that a small pool has many; set
/// through [`TestPieceCells`].
#[cfg(test)]
static TEST_PIECE_CELLS: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

/// A unit test's hold on the piece size: tests run on several threads at once, and one that
/// reset the size under another would leave it testing pieces of the usual size. One test
/// holds it at a time; the size goes back to the usual when the hold is dropped.
#[cfg(test)]
pub(in crate::labelwise) struct TestPieceCells(
    #[allow(dead_code)] std::sync::MutexGuard<'static, ()>,
);

#[cfg(test)]
impl TestPieceCells {
    /// Waits for the other tests' holds to be dropped.
    pub(in crate::labelwise) fn hold() -> Self {
        static HELD: std::sync::Mutex<()> = std::sync::Mutex::new(());
        // A test that failed while holding it leaves the lock poisoned, not the size wrong.
        TestPieceCells(
            HELD.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    /// Cuts pieces of at most `cells` cells (0: [`PIECE_CELLS`]).
    pub(in crate::labelwise) fn set(&self, cells: usize) {
        TEST_PIECE_CELLS.store(cells, core::sync::atomic::Ordering::Relaxed);
    }

    /// Cuts windows of at most `cells` cells (0: as
    /// [`window_cells`](crate::labelwise::micro::windows::window_cells) says otherwise).
    pub(in crate::labelwise) fn set_window(&self, cells: usize) {
        use core::sync::atomic::Ordering;
        crate::labelwise::micro::windows::TEST_WINDOW_CELLS.store(cells, Ordering::Relaxed);
    }
}

#[cfg(test)]
impl Drop for TestPieceCells {
    fn drop(&mut self) {
        self.set(0);
        self.set_window(0);
    }
}

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
pub(in crate::labelwise) const BUCKETS: usize = 1 << 16;

/// The groups of adjacent buckets [`Pool::place`] scatters the cells to first: few enough
/// that the lines being written stay in the second-level cache, many enough that most groups
/// fit in a piece and need no second pass (docs/performance.md, "Measured choices").
const GROUPS: usize = 1 << 10;

/// Buckets per group.
const BUCKETS_PER_GROUP: usize = BUCKETS / GROUPS;

/// The most buckets holding cells for which [`Pool::place`] scatters straight to them: their
/// lines being written (two or three a bucket) stay in the second-level cache.
const FEW_BUCKETS: usize = 1 << 12;

/// How many of the buckets whose offsets are `starts` (each bucket's start, then where the
/// last ends) hold cells.
fn occupied(starts: &[usize]) -> usize {
    starts.windows(2).filter(|w| w[1] > w[0]).count()
}

/// A cell's descending-order key: the best score has the smallest.
#[inline]
fn key<T: Score>(s: &T) -> u64 {
    !s.order_key()
}

/// Calls `f` with each of `rows` of the scores (its index, its scores), in order.
pub(in crate::labelwise) fn each_row<T: Score, S: ScoreMatrix<T> + ?Sized>(
    y_score: &S, rows: Range<usize>, f: &mut RowVisitor<'_, T>,
) -> Result<(), Error> {
    let mut reader = RowReader::new(y_score, Input::Scores);
    rows.into_iter().try_for_each(|i| f(i, reader.row(i)?))
}

/// The smallest and largest key of `rows`' cells ((`u64::MAX`, 0) for none).
pub(in crate::labelwise) fn key_range<T: Score, S: ScoreMatrix<T> + ?Sized>(
    y_score: &S, rows: Range<usize>,
) -> Result<(u64, u64), Error> {
    let mut range = (u64::MAX, 0);
    each_row(y_score, rows, &mut |_, row| {
        range = row_key_range(row, range);
        Ok(())
    })?;
    Ok(range)
}

crate::wide::wide! {
    /// `range` widened by the keys of `row`'s scores.
    fn row_key_range<T: Score>(row: &[T], range: (u64, u64)) -> (u64, u64) = row_key_range_body;
}

/// [`row_key_range`]'s loop: branch-free, so it vectorises (unsigned 64-bit minima and maxima
/// take one instruction a vector with AVX-512).
#[inline(always)]
fn row_key_range_body<T: Score>(row: &[T], (low, high): (u64, u64)) -> (u64, u64) {
    row.iter()
        .map(key)
        .fold((low, high), |(low, high), k| (low.min(k), high.max(k)))
}

/// Which bucket a cell falls in: the leading 16 bits of its key below the prefix every key
/// shares.
#[derive(Debug, Clone, Copy)]
pub(in crate::labelwise) struct Bucketing {
    shift: u32,
}

impl Bucketing {
    /// The bucketing of keys from `low` to `high`.
    pub(in crate::labelwise) fn new((low, high): (u64, u64)) -> Self {
        let shift = (u64::BITS - (low ^ high).leading_zeros()).saturating_sub(16);
        Bucketing { shift }
    }

    #[inline]
    pub(in crate::labelwise) fn of<T: Score>(self, s: &T) -> usize {
        (key(s) >> self.shift) as usize & (BUCKETS - 1)
    }

    /// Counts the cells of `rows` by bucket into `counts[b + 1]` (`BUCKETS + 1` counts).
    pub(in crate::labelwise) fn count<T: Score, S: ScoreMatrix<T> + ?Sized>(
        self, y_score: &S, rows: Range<usize>, counts: &mut [usize],
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
pub(in crate::labelwise) struct Piece {
    pub(in crate::labelwise) cells: Range<usize>,
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))] // used on rayon's threads only
    pub(in crate::labelwise) buckets: Range<usize>,
}

/// Which groups of buckets are larger than a piece (and so may hold a piece boundary): their
/// cells must be put in bucket order ([`Pool::place`]'s second pass). A group inside one
/// piece is ranked as its cells arrive, in pooled order: only the order of equal keys matters
/// to a piece's ranking.
#[derive(Debug, Clone)]
pub(in crate::labelwise) struct SplitGroups(Vec<bool>);

impl SplitGroups {
    /// Whether group g's cells must be put in bucket order (a group it does not know: yes).
    fn needs_bucket_order(&self, g: usize) -> bool {
        self.0.get(g).copied().unwrap_or(true)
    }
}

/// Turns the bucket counts (`ends[b + 1]`: bucket b's cells) into offsets (`ends[b]`: where
/// bucket b starts) and cuts the pieces: between groups of buckets, and between the buckets
/// of a group larger than a piece; the number of cells, and the groups so cut.
pub(in crate::labelwise) fn cut_pieces(ends: &mut [usize]) -> (Vec<Piece>, usize, SplitGroups) {
    let most = piece_cells();
    let count = |b: usize| ends.get(b + 1).copied().unwrap_or(0);
    let group_cells: Vec<usize> = (0..GROUPS)
        .map(|g| {
            (g * BUCKETS_PER_GROUP..(g + 1) * BUCKETS_PER_GROUP)
                .map(count)
                .sum()
        })
        .collect();
    let split: Vec<bool> = group_cells.iter().map(|&cells| cells > most).collect();
    let mut pieces = Vec::new();
    let (mut total, mut start, mut first) = (0, 0, 0);
    for b in 0..BUCKETS {
        let g = b / BUCKETS_PER_GROUP;
        // The cells that join the piece unless it ends before bucket b: the whole group at
        // its first bucket when the group stays whole, none inside it (no boundary there).
        let joining = match (split[g], b % BUCKETS_PER_GROUP == 0) {
            (true, _) => Some(count(b)),
            (false, true) => Some(group_cells[g]),
            (false, false) => None,
        };
        if joining.is_some_and(|cells| total > start && total + cells - start > most) {
            pieces.push(Piece {
                cells: start..total,
                buckets: first..b,
            });
            (start, first) = (total, b);
        }
        total += count(b);
    }
    pieces.push(Piece {
        cells: start..total,
        buckets: first..BUCKETS,
    });
    to_offsets(ends);
    (pieces, total, SplitGroups(split))
}

/// Bucket counts (`counts[b + 1]`: bucket b's cells) to offsets (`counts[b]`: where bucket b
/// starts); the number of cells.
pub(in crate::labelwise) fn to_offsets(counts: &mut [usize]) -> usize {
    let mut total = 0;
    for c in counts.iter_mut() {
        total += *c;
        *c = total;
    }
    total
}

/// The value the pool's label vectors start from (any label of the input), none when there
/// are no cells.
pub(in crate::labelwise) fn any_label<Y: LabelMatrix + ?Sized>(
    y_true: &Y, total: usize,
) -> Result<Option<Y::Elem>, Error> {
    Ok(match total {
        0 => None,
        _ => RowReader::new(y_true, Input::Labels)
            .row(0)?
            .first()
            .copied(),
    })
}

/// Pooled cells bucketed: score, label and (for weights) row of each, bucket by bucket (group
/// by group where a group lies inside one piece), in pooled order inside a bucket (a group).
pub(in crate::labelwise) struct Pool<T, L> {
    scores: Vec<T>,
    labels: Vec<L>,
    rows: Vec<u32>,
}

/// Cells of a pool: where [`Pool::place`] puts them ([`Slots`]), or a piece's part to rank
/// ([`Segment`]).
pub(in crate::labelwise) struct CellSlices<S, L, R> {
    pub(in crate::labelwise) scores: S,
    pub(in crate::labelwise) labels: L,
    pub(in crate::labelwise) rows: R,
}

/// Cells of a pool to rank.
pub(in crate::labelwise) type Segment<'a, T, L> = CellSlices<&'a [T], &'a [L], &'a [u32]>;

/// Room in a pool for cells.
pub(in crate::labelwise) type Slots<'a, T, L> = CellSlices<&'a mut [T], &'a mut [L], &'a mut [u32]>;

impl<T: Score, L: Label> Pool<T, L> {
    /// Room for `total` cells (their rows too when `weighted`), labels set to `zero`.
    pub(in crate::labelwise) fn new(zero: L, total: usize, weighted: bool) -> Result<Self, Error> {
        Ok(Pool {
            scores: memory::filled(T::zero(), total)?,
            labels: memory::filled(zero, total)?,
            rows: memory::filled(0u32, if weighted { total } else { 0 })?,
        })
    }

    /// The cells `cells`.
    pub(in crate::labelwise) fn segment(&self, cells: Range<usize>) -> Segment<'_, T, L> {
        CellSlices {
            scores: &self.scores[cells.clone()],
            labels: &self.labels[cells.clone()],
            rows: self.rows.get(cells).unwrap_or(&[]),
        }
    }

    /// The slots of the pool's first `cells` cells (a window's).
    pub(in crate::labelwise) fn slots(&mut self, cells: usize) -> Slots<'_, T, L> {
        let room = cells.min(self.scores.len());
        CellSlices {
            scores: &mut self.scores[..room],
            labels: &mut self.labels[..room],
            rows: match self.rows.get_mut(..room) {
                Some(rows) => rows,
                None => &mut [],
            },
        }
    }

    /// Places every cell of `rows` whose bucket is one of `buckets` (a window's) in `slots`, in
    /// pooled order: `next[b]` is where in `slots` bucket b's next cell goes. Scattering each
    /// cell straight to its bucket would write to up to 2^16 places at once, far more cache
    /// lines than the caches hold (half the time of a micro AUC): unless few buckets hold
    /// cells, the cells are first scattered to [`GROUPS`] groups of adjacent buckets, then the
    /// cells of each group that `split` says a piece boundary falls in to their buckets. Both
    /// passes keep the cells' order, so a bucket's cells end in pooled order, as one scatter
    /// leaves them, and a group left whole holds its cells in pooled order.
    pub(in crate::labelwise) fn place<Y, S>(
        (y_true, y_score): (&Y, &S), rows: Range<usize>, bucketing: Bucketing,
        buckets: Range<usize>, next: &mut [usize], split: &SplitGroups, mut slots: Slots<'_, T, L>,
    ) -> Result<(), Error>
    where
        Y: LabelMatrix<Elem = L> + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        let readers = (
            RowReader::new(y_true, Input::Labels),
            RowReader::new(y_score, Input::Scores),
        );
        // Few buckets hold cells (heavy ties): one scatter straight to them stays in cache.
        // Otherwise the first pass scatters to groups of buckets: where each group starts is
        // its first bucket's start (and the last offset, where the last group ends).
        let per_target = match occupied(next) <= FEW_BUCKETS {
            true => 1,
            false => BUCKETS_PER_GROUP,
        };
        let starts: Vec<usize> = next.iter().step_by(per_target).copied().collect();
        let mut targets = Targets {
            next: starts.clone(),
            per_target,
        };
        match buckets.start == 0 && buckets.end >= BUCKETS {
            true => targets
                .scatter::<false, _, _, _, _>(readers, rows, bucketing, buckets, &mut slots)?,
            false => targets
                .scatter::<true, _, _, _, _>(readers, rows, bucketing, buckets, &mut slots)?,
        }
        if per_target == 1 {
            return Ok(());
        }
        // Each group's cells, copied aside, then scattered to its buckets.
        let mut aside = Pool {
            scores: Vec::new(),
            labels: Vec::new(),
            rows: Vec::new(),
        };
        for (g, group) in starts.windows(2).enumerate() {
            let buckets = next
                .get(g * per_target..=(g + 1) * per_target)
                .unwrap_or(&[]);
            // A group inside one piece keeps its cells as they came; one with a single
            // bucket holding cells has them in that bucket already.
            if !split.needs_bucket_order(g) || occupied(buckets) <= 1 {
                continue;
            }
            aside.copy_from(&slots, group[0]..group[1]);
            for (k, (s, &y)) in aside.scores.iter().zip(&aside.labels).enumerate() {
                // A valid matrix reads the same cells in every pass, so every bucket is in
                // the group; `get` keeps a matrix that does not from panicking.
                if let Some(at) = next.get_mut(bucketing.of(s)) {
                    slots.put(*at, *s, y, aside.rows.get(k).copied().unwrap_or(0));
                    *at += 1;
                }
            }
        }
        Ok(())
    }

    /// Replaces these cells with a copy of `slots`' cells `cells`.
    fn copy_from(&mut self, slots: &Slots<'_, T, L>, cells: Range<usize>) {
        copy_cells(&mut self.scores, slots.scores, cells.clone());
        copy_cells(&mut self.labels, slots.labels, cells.clone());
        copy_cells(&mut self.rows, slots.rows, cells);
    }
}

/// Where [`Pool::place`]'s first pass puts the next cell of each target (a bucket, or a group
/// of `per_target` adjacent buckets).
struct Targets {
    next: Vec<usize>,
    per_target: usize,
}

impl Targets {
    /// Scatters the cells of `rows` whose bucket is one of `buckets` to their targets in
    /// `slots`, in pooled order. Unless `WINDOWED` (some buckets are outside `buckets`), every
    /// cell is placed without the test.
    #[inline(always)]
    fn scatter<const WINDOWED: bool, T, L, Y, S>(
        &mut self, (mut truth, mut scores): (RowReader<'_, Y>, RowReader<'_, S>),
        rows: Range<usize>, bucketing: Bucketing, buckets: Range<usize>,
        slots: &mut Slots<'_, T, L>,
    ) -> Result<(), Error>
    where
        T: Score,
        L: Label,
        Y: LabelMatrix<Elem = L> + ?Sized,
        S: ScoreMatrix<T> + ?Sized,
    {
        let (first, width) = (buckets.start, buckets.len());
        for i in rows {
            let row = scores.row(i)?;
            let mut finite = true;
            for (s, &y) in row.iter().zip(truth.row(i)?) {
                finite &= s.is_finite();
                let b = bucketing.of(s);
                // A branch, not a write aside: it wins even where a third of the cells are
                // inside (docs/performance.md, "Measured choices").
                if WINDOWED && b.wrapping_sub(first) >= width {
                    continue;
                }
                // `BUCKETS / per_target + 1` offsets: every target has one.
                let at = &mut self.next[b / self.per_target];
                slots.put(*at, *s, y, i as u32);
                *at += 1;
            }
            // Validated before, but read again: a matrix that hands a NaN now would give the
            // kernel blocks with more relevant items than places (a debug-build overflow).
            // Checked along the scatter (a pass of its own costs more), the error found after.
            if !finite {
                check_scores(row, i)?;
            }
        }
        Ok(())
    }
}

/// Replaces `to` with a copy of `from[cells]` (nothing where `from` is shorter: a pool's rows
/// are empty when unweighted).
fn copy_cells<X: Copy>(to: &mut Vec<X>, from: &[X], cells: Range<usize>) {
    to.clear();
    to.extend_from_slice(from.get(cells).unwrap_or(&[]));
}

impl<T: Copy, L: Copy> Slots<'_, T, L> {
    /// Puts a cell (its score, label and row) in slot `at`. A valid matrix reads the same
    /// cells in every pass, so every slot exists; `get` keeps a matrix that does not from
    /// panicking.
    #[inline]
    fn put(&mut self, at: usize, score: T, label: L, row: u32) {
        let (s, y) = (self.scores.get_mut(at), self.labels.get_mut(at));
        if let (Some(s), Some(y)) = (s, y) {
            (*s, *y) = (score, label);
        }
        if let Some(r) = self.rows.get_mut(at) {
            *r = row;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labelwise::pairs::tests::draws;

    /// Each window placed on its own holds its pieces' cells as the whole pool does, bucket by
    /// bucket in pooled order (the order a piece's ranking reads), with the scatter to groups
    /// of buckets and the second pass over split groups: windows are cut inside split groups.
    #[test]
    fn a_window_places_its_pieces_as_the_whole_pool_does() {
        use crate::labelwise::micro::windows::cut_windows;
        use crate::matrix::RowMajor;
        let hold = TestPieceCells::hold();
        hold.set(256);
        let mut draw = draws(0x3_1D0E);
        let (mut grouped, mut cut_in_split) = (0, 0);
        for case in 0..24 {
            let (n, l) = (300 + draw(300) as usize, 20 + draw(40) as usize);
            // Scores spread over [0.5, 1) (thousands of buckets: scattered to groups first),
            // some tied, or on a few values (scattered straight to their buckets).
            let s: Vec<f64> = (0..n * l)
                .map(|_| match (case % 3, draw(8)) {
                    (2, _) => draw(50) as f64 / 50.0,
                    (_, 0) => [0.625, 0.75, 0.875][draw(3) as usize],
                    _ => 0.5 + draw(1 << 30) as f64 / (1u64 << 31) as f64,
                })
                .collect();
            let y: Vec<u8> = (0..n * l).map(|_| u8::from(draw(4) == 0)).collect();
            let (yy, ss) = (
                RowMajor::new(&y, n, l).unwrap(),
                RowMajor::new(&s, n, l).unwrap(),
            );
            let bucketing = Bucketing::new(key_range(&ss, 0..n).unwrap());
            let mut ends = vec![0usize; BUCKETS + 1];
            bucketing.count(&ss, 0..n, &mut ends).unwrap();
            let (pieces, total, split) = cut_pieces(&mut ends);
            let mut whole = Pool::new(0u8, total, true).unwrap();
            let mut next = ends.clone();
            let all = 0..BUCKETS;
            Pool::place(
                (&yy, &ss),
                0..n,
                bucketing,
                all,
                &mut next,
                &split,
                whole.slots(total),
            )
            .unwrap();
            // The cells of a segment, each with its bucket, in bucket order (stable: pooled
            // order inside a bucket).
            let by_bucket = |segment: Segment<'_, f64, u8>| {
                let mut cells: Vec<(usize, u64, u8, u32)> = (0..segment.scores.len())
                    .map(|k| {
                        let s = segment.scores[k];
                        (
                            bucketing.of(&s),
                            s.to_bits(),
                            segment.labels[k],
                            segment.rows[k],
                        )
                    })
                    .collect();
                cells.sort_by_key(|c| c.0);
                cells
            };
            for most in [300, 6000, 12_000] {
                let windows = cut_windows(&pieces, most);
                let room = windows.iter().map(|w| w.cells.len()).max().unwrap_or(0);
                let mut pool = Pool::new(0u8, room, true).unwrap();
                for w in &windows {
                    let mut next = w.starts(&ends);
                    // Scattered to groups of buckets first, one of them split and cut by the
                    // window's start: the second pass places it inside the window.
                    let by_groups = occupied(&next) > FEW_BUCKETS;
                    grouped += usize::from(by_groups);
                    let g = w.buckets.start / BUCKETS_PER_GROUP;
                    let inside = w.buckets.start % BUCKETS_PER_GROUP != 0;
                    cut_in_split += usize::from(by_groups && inside && split.needs_bucket_order(g));
                    let buckets = w.buckets.clone();
                    let slots = pool.slots(w.cells.len());
                    Pool::place(
                        (&yy, &ss),
                        0..n,
                        bucketing,
                        buckets,
                        &mut next,
                        &split,
                        slots,
                    )
                    .unwrap();
                    for piece in &pieces[w.pieces.clone()] {
                        assert_eq!(
                            by_bucket(pool.segment(w.cells_of(piece))),
                            by_bucket(whole.segment(piece.cells.clone())),
                            "case {case} limit {most} piece {:?}",
                            piece.buckets
                        );
                    }
                }
            }
        }
        assert!(grouped > 20 && cut_in_split > 3, "{grouped} {cut_in_split}");
    }

    /// The pieces cover the buckets in order and their cells are the buckets' offsets; a piece
    /// ends between groups, or inside a group only where that group holds more cells than a
    /// piece (and is marked split); a piece holds more cells than that only as one bucket.
    #[test]
    fn pieces_end_between_groups_unless_a_group_is_larger_than_a_piece() {
        let hold = TestPieceCells::hold();
        let mut draw = draws(0x9_1ECE);
        for case in 0..300 {
            let most = [7, 100, 1000][case % 3];
            hold.set(most);
            let mut counts = vec![0usize; BUCKETS + 1];
            let bucket = |draw: &mut dyn FnMut(u64) -> u64| 1 + draw(BUCKETS as u64) as usize;
            match case % 5 {
                0 => {} // no cells
                1 => counts[bucket(&mut draw)] = 3 * most,
                2 => (0..200)
                    .for_each(|_| counts[bucket(&mut draw)] += draw(most as u64 / 4 + 1) as usize),
                3 => {
                    // Dense groups of about 64 cells: split by pieces of 7, whole in larger.
                    for _ in 0..20 {
                        let g = draw(GROUPS as u64) as usize;
                        for b in g * BUCKETS_PER_GROUP..(g + 1) * BUCKETS_PER_GROUP {
                            counts[b + 1] = draw(3) as usize;
                        }
                    }
                }
                _ => {
                    // Groups of exactly a piece's cells, and one cell more.
                    for extra in [0, 1] {
                        let g = draw(GROUPS as u64) as usize;
                        counts[g * BUCKETS_PER_GROUP + 1] = most - 1;
                        counts[g * BUCKETS_PER_GROUP + 2] += 1 + extra;
                    }
                }
            }
            let group_cells: Vec<usize> = (0..GROUPS)
                .map(|g| {
                    counts[g * BUCKETS_PER_GROUP + 1..=(g + 1) * BUCKETS_PER_GROUP]
                        .iter()
                        .sum()
                })
                .collect();
            let mut ends = counts.clone();
            let (pieces, total, split) = cut_pieces(&mut ends);
            assert_eq!(total, counts.iter().sum::<usize>(), "case {case}");
            let offsets: Vec<usize> = counts
                .iter()
                .scan(0, |sum, &c| {
                    *sum += c;
                    Some(*sum)
                })
                .collect();
            assert_eq!(ends, offsets, "case {case}");
            for (g, &cells) in group_cells.iter().enumerate() {
                assert_eq!(
                    split.needs_bucket_order(g),
                    cells > most,
                    "case {case} group {g}"
                );
            }
            assert_eq!(pieces.first().map(|p| p.buckets.start), Some(0));
            assert_eq!(pieces.last().map(|p| p.buckets.end), Some(BUCKETS));
            for (k, piece) in pieces.iter().enumerate() {
                let (b0, b1) = (piece.buckets.start, piece.buckets.end);
                assert_eq!(piece.cells, ends[b0]..ends[b1], "case {case} piece {k}");
                // Only the last piece may be empty (the buckets after a piece's last cell).
                assert!(
                    !piece.cells.is_empty() || k + 1 == pieces.len(),
                    "case {case} piece {k}"
                );
                if k > 0 {
                    assert_eq!(pieces[k - 1].buckets.end, b0);
                    let g = b0 / BUCKETS_PER_GROUP;
                    // Not cut early: what joins at b0 would have made the piece before too big.
                    let joining = match group_cells[g] > most {
                        true => counts[b0 + 1],
                        false => group_cells[g],
                    };
                    assert!(
                        pieces[k - 1].cells.len() + joining > most,
                        "case {case} piece {k}"
                    );
                    assert!(
                        b0 % BUCKETS_PER_GROUP == 0 || group_cells[g] > most,
                        "case {case} piece {k}"
                    );
                }
                if piece.cells.len() > most {
                    assert_eq!(occupied(&ends[b0..=b1]), 1, "case {case} piece {k}");
                }
            }
        }
    }
}
