//! Windows of a pooled ranking: runs of whole pieces whose cells the pool holds at once, each
//! placed in a pass over the input, so that the pool holds at most a limit of cells (or one
//! piece larger than it: [`set_micro_pool_cells`]); and the limit.

use crate::labelwise::micro::buckets::Piece;

use core::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};

/// The most cells a window holds by default, unless a share of the pool is more
/// ([`POOL_SHARES`]): 2^25 cells, 300–440 MB at 9–13 bytes a cell. A pool of up to that many
/// cells is placed in one pass; each further window costs one more pass over the input
/// (docs/performance.md, "Measured choices").
pub(in crate::labelwise) const WINDOW_CELLS: usize = 1 << 25;

/// By default a window may hold a 1 / `POOL_SHARES` share of the pool: since two neighbouring
/// windows hold more than the limit together ([`cut_windows`]), at most 2 · 4 + 1 = 9 windows,
/// each a pass over the whole input.
const POOL_SHARES: usize = 4;

/// The most cells a window holds, set by [`set_micro_pool_cells`] (0: the default).
static POOL_CELLS: AtomicUsize = AtomicUsize::new(0);

/// Unit tests cut smaller windows (0: as [`window_cells`] says otherwise); set through
/// [`TestPieceCells::set_window`](crate::labelwise::micro::buckets::TestPieceCells::set_window).
#[cfg(test)]
pub(in crate::labelwise) static TEST_WINDOW_CELLS: AtomicUsize = AtomicUsize::new(0);

/// Sets the most cells the micro averages hold at once when they rank the pooled cells in
/// pieces (micro ROC AUC, unweighted micro average precision and interpolated average
/// precision, under exact ties and any policy but `Random`); `None` restores the default: 2^25
/// cells, or a quarter of the pool where that is more (0 is taken as 1).
///
/// The cells are copied into a pool of about 9–13 bytes a cell, sorted into pieces by score (up
/// to 2^17 cells each, more only where one 2^16th of the scores' key range holds more). A pool
/// of more cells than the limit is placed one window of whole pieces at a time, each window in
/// a pass over the whole input: the copy holds at most the larger of the limit and the largest
/// piece, at the cost of one more pass over the input per window (average precision reads the
/// labels once more first, to count the relevant cells). Values are the same bits
/// whatever the limit. pROC's automatic direction (mldr's micro AUC) reads the class medians
/// after the last piece: the windows holding them are placed again, up to four more passes.
/// On rayon's threads each range of rows places its cells of a window in a pool of its own, sized
/// for its largest share of a window: together up to the number of ranges times the limit
/// (when the ranges' scores differ, rows sorted by score), about the limit when they are alike.
/// The setting holds for the whole process and every thread.
///
/// # Example
/// ```
/// use rankmetrics::{set_micro_pool_cells, sklearn, Average};
/// let y = [[1, 0], [0, 1], [1, 0]];
/// let s = [[0.9, 0.4], [0.3, 0.8], [0.6, 0.5]];
/// let auc = sklearn::roc_auc_score(&y, &s, Average::Micro, None)?;
/// // At most two cells in the pool at once: several passes, the same value.
/// set_micro_pool_cells(Some(2));
/// assert_eq!(sklearn::roc_auc_score(&y, &s, Average::Micro, None)?, auc);
/// set_micro_pool_cells(None);
/// # Ok::<(), rankmetrics::Error>(())
/// ```
pub fn set_micro_pool_cells(most: Option<usize>) {
    POOL_CELLS.store(most.map_or(0, |m| m.max(1)), AtomicOrdering::Relaxed);
}

/// The most cells one window of pieces holds, for a pool of `cells` cells.
pub(in crate::labelwise) fn window_cells(cells: usize) -> usize {
    #[cfg(test)]
    match TEST_WINDOW_CELLS.load(AtomicOrdering::Relaxed) {
        0 => {}
        most => return most,
    }
    match POOL_CELLS.load(AtomicOrdering::Relaxed) {
        0 => WINDOW_CELLS.max(cells.div_ceil(POOL_SHARES)),
        most => most,
    }
}

/// A run of consecutive pieces whose cells are placed in the pool together, then ranked: the
/// pool holds one window's cells at a time, each window placed in a pass over the input.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::labelwise) struct Window {
    pub(in crate::labelwise) pieces: Range<usize>,
    pub(in crate::labelwise) cells: Range<usize>,
    pub(in crate::labelwise) buckets: Range<usize>,
}

impl Window {
    /// Where each bucket's cells start in this window's pool, from where they start in a pool
    /// of every bucket (`starts`: [`cut_pieces`](crate::labelwise::micro::buckets::cut_pieces)'s offsets, or a range of rows' own): buckets
    /// before the window start at 0, those after it where the window's cells end.
    pub(in crate::labelwise) fn starts(&self, starts: &[usize]) -> Vec<usize> {
        let (first, end) = self.bounds(starts);
        starts
            .iter()
            .map(|&s| s.clamp(first, end) - first)
            .collect()
    }

    /// How many of the cells placed by `starts` (as [`starts`](Self::starts) takes them) lie in
    /// this window: the room its pool needs.
    pub(in crate::labelwise) fn cells_in(&self, starts: &[usize]) -> usize {
        let (first, end) = self.bounds(starts);
        end - first
    }

    /// Where this window's cells start and end in a pool of every bucket placed by `starts`.
    fn bounds(&self, starts: &[usize]) -> (usize, usize) {
        let at = |b: usize| starts.get(b).copied().unwrap_or(0);
        (at(self.buckets.start), at(self.buckets.end))
    }

    /// Piece `piece`'s cells in this window's pool.
    pub(in crate::labelwise) fn cells_of(&self, piece: &Piece) -> Range<usize> {
        let first = self.cells.start;
        piece.cells.start.saturating_sub(first)..piece.cells.end.saturating_sub(first)
    }
}

/// The window a pool holds after its pieces are ranked (the last), for a reader of pieces after
/// that (the class medians): a piece of another window is placed again first.
pub(in crate::labelwise) struct HeldWindow<'w> {
    windows: &'w [Window],
    held: Option<usize>,
}

impl<'w> HeldWindow<'w> {
    /// The pool holds the last of `windows`.
    pub(in crate::labelwise) fn last(windows: &'w [Window]) -> Self {
        HeldWindow {
            windows,
            held: windows.len().checked_sub(1),
        }
    }

    /// The window holding piece `p` (none for a piece of no window), once `place` has placed it
    /// unless the pool holds it already.
    pub(in crate::labelwise) fn holding<E>(
        &mut self, p: usize, place: impl FnOnce(&Window) -> Result<(), E>,
    ) -> Result<Option<&'w Window>, E> {
        let Some(w) = self.windows.iter().position(|w| w.pieces.contains(&p)) else {
            return Ok(None);
        };
        if self.held != Some(w) {
            // Nothing is held while a window is being placed: a failed placing leaves none.
            self.held = None;
            place(&self.windows[w])?;
            self.held = Some(w);
        }
        Ok(self.windows.get(w))
    }
}

/// The pieces cut into windows of at most `most` cells each (a piece larger than that is a
/// window alone, with the empty pieces after it), in order: each window's pieces, cells and
/// buckets. Two neighbouring windows together hold more than `most` cells, so a pool of `total`
/// cells is cut into at most 2·total / `most` + 1 windows.
pub(in crate::labelwise) fn cut_windows(pieces: &[Piece], most: usize) -> Vec<Window> {
    let mut windows: Vec<Window> = Vec::new();
    for (p, piece) in pieces.iter().enumerate() {
        match windows.last_mut() {
            // An empty piece (the buckets after the last cell) joins the window before it: a
            // window of its own would be a pass that places nothing.
            Some(w) if piece.cells.end - w.cells.start <= most || piece.cells.is_empty() => {
                w.pieces.end = p + 1;
                w.cells.end = piece.cells.end;
                w.buckets.end = piece.buckets.end;
            }
            _ => windows.push(Window {
                pieces: p..p + 1,
                cells: piece.cells.clone(),
                buckets: piece.buckets.clone(),
            }),
        }
    }
    windows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labelwise::micro::buckets::{cut_pieces, TestPieceCells, BUCKETS};
    use crate::labelwise::pairs::tests::draws;

    /// The default: 2^25 cells, or a quarter of the pool where that is more; a limit set holds
    /// whatever the pool (0 taken as 1), and `None` restores the default.
    #[test]
    fn the_limit_is_the_default_unless_set() {
        // Held so that no other unit test places a pool meanwhile (they hold it too).
        let _hold = TestPieceCells::hold();
        for (cells, most) in [
            (0, WINDOW_CELLS),
            (10, WINDOW_CELLS),
            (4 * WINDOW_CELLS, WINDOW_CELLS),
            (4 * WINDOW_CELLS + 1, WINDOW_CELLS + 1),
            (1 << 32, 1 << 30),
        ] {
            assert_eq!(window_cells(cells), most, "{cells}");
        }
        for (set, most) in [(Some(0), 1), (Some(7), 7), (None, WINDOW_CELLS)] {
            set_micro_pool_cells(set);
            assert_eq!(window_cells(1 << 32).min(WINDOW_CELLS), most, "{set:?}");
            assert_eq!(window_cells(10), most, "{set:?}");
        }
    }

    /// Windows cover the pieces in order, each of at most `most` cells unless it holds one
    /// piece with cells, none empty (unless the pool is), and no two neighbours fit in one; a
    /// window's starts put its pieces' cells where [`Window::cells_of`] reads them.
    #[test]
    fn windows_hold_whole_pieces_up_to_the_limit() {
        let mut draw = draws(0x3_71D0);
        for case in 0..300 {
            let (mut counts, mut ends) = (vec![0usize; BUCKETS + 1], vec![0usize; BUCKETS + 1]);
            for _ in 0..[0, 1, 20, 500][case % 4] {
                counts[1 + draw(BUCKETS as u64) as usize] += 1 + draw(300) as usize;
            }
            ends.copy_from_slice(&counts);
            let (pieces, total, _) = cut_pieces(&mut ends);
            let most = 1 + draw([10, 1000, 100_000][case % 3]) as usize;
            let windows = cut_windows(&pieces, most);
            let covered: Vec<usize> = windows.iter().flat_map(|w| w.pieces.clone()).collect();
            assert_eq!(
                covered,
                (0..pieces.len()).collect::<Vec<_>>(),
                "case {case}"
            );
            for (k, w) in windows.iter().enumerate() {
                let (first, last) = (&pieces[w.pieces.start], &pieces[w.pieces.end - 1]);
                assert_eq!(w.cells, first.cells.start..last.cells.end, "case {case}");
                assert_eq!(w.buckets, first.buckets.start..last.buckets.end);
                let holding = pieces[w.pieces.clone()]
                    .iter()
                    .filter(|p| !p.cells.is_empty());
                assert!(
                    w.cells.len() <= most || holding.count() == 1,
                    "case {case} {k}"
                );
                assert!(
                    !w.cells.is_empty() || total == 0,
                    "case {case} window {k} empty"
                );
                assert!(
                    2 * total + most >= most * windows.len(),
                    "case {case}: too many"
                );
                if let Some(next) = windows.get(k + 1) {
                    let joined = pieces[next.pieces.start].cells.end - w.cells.start;
                    assert!(joined > most, "case {case} window {k}: the next piece fits");
                }
                let starts = w.starts(&ends);
                assert_eq!(starts.last().copied(), Some(w.cells.len()), "case {case}");
                assert_eq!(w.cells_in(&ends), w.cells.len(), "case {case}");
                for piece in &pieces[w.pieces.clone()] {
                    let (b0, b1) = (piece.buckets.start, piece.buckets.end);
                    assert_eq!(starts[b0]..starts[b1], w.cells_of(piece), "case {case}");
                    assert_eq!(w.cells_of(piece).len(), piece.cells.len());
                }
                // Buckets outside the window hold none of its cells.
                assert!(starts[..=w.buckets.start].iter().all(|&s| s == 0));
                assert!(starts[w.buckets.end..].iter().all(|&s| s == w.cells.len()));
            }
            assert_eq!(windows.last().map_or(0, |w| w.cells.end), total);
        }
    }
}
