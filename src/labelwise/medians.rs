//! R's `median` of one class of a vector's items (pROC's automatic direction compares the
//! classes' medians), and of one class of a pooled ranking read in pieces, where only the piece
//! holding a middle item is looked into.

use super::pool::Segment;
use crate::kernel::RankedRow;
use crate::score::{Label, Score};

/// R's `median` of `count` values, `nth(k)` giving the k-th (from 0) in any fixed order: the
/// middle one, or the mean of the two middle ones ([`mean_of_two`]); NaN when `count` is 0.
pub(crate) fn median_of(count: usize, mut nth: impl FnMut(usize) -> f64) -> f64 {
    if count == 0 {
        return f64::NAN;
    }
    let lower = nth((count - 1) / 2);
    match count % 2 {
        // R returns the middle element itself: no arithmetic, so a subnormal stays as it is.
        1 => lower,
        _ => mean_of_two(lower, nth(count / 2)),
    }
}

/// R's `mean(c(a, b))`, the median of an even count: (a + b) / 2 rounded once.
///
/// R adds in extended precision and divides by 2 there, then rounds to a double; where no
/// double rounding intervenes that is the correctly rounded midpoint, computed here without
/// extended precision. If `a + b` is finite, either |a + b| ≥ 2⁻¹⁰²¹ and halving it is exact
/// (and commutes with rounding), or the sum is below the normal range, where every sum of two
/// doubles is exact and the halving rounds once. If `a + b` overflows, both halves are exact
/// and their sum rounds once. (`a * 0.5 + b * 0.5` is not this: 5e-324 × 0.5 rounds to 0.)
pub(crate) fn mean_of_two(a: f64, b: f64) -> f64 {
    let sum = a + b;
    if sum.is_finite() {
        sum * 0.5
    } else {
        a * 0.5 + b * 0.5
    }
}

/// The median scores of a pooled ranking's relevant items (the cases) and irrelevant ones
/// (the controls), each R's `median` (NaN for an empty class).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ClassMedians {
    pub(crate) cases: f64,
    pub(crate) controls: f64,
}

/// How many relevant and irrelevant items each piece of a pooled ranking holds, in piece
/// (rank) order: enough to tell which piece holds a class's k-th best item.
#[derive(Debug, Clone, Default)]
pub(super) struct PieceClasses {
    /// (relevant, irrelevant) per piece.
    counts: Vec<(usize, usize)>,
}

impl PieceClasses {
    /// Records the next piece, ranked as `row`.
    pub(super) fn push(&mut self, row: &RankedRow<'_>) {
        let relevant = row.n_relevant();
        self.counts
            .push((relevant, row.n_labels().saturating_sub(relevant)));
    }

    /// Records the pieces of `next` after these.
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))] // used on a rayon pool only
    pub(super) fn extend(&mut self, next: &PieceClasses) {
        self.counts.extend_from_slice(&next.counts);
    }

    /// The pool's class medians; `cells(p)` hands piece p's cells (in segments). Pieces are
    /// runs of whole buckets of keys, best first, so a class's k-th best item is the
    /// (k − those before)-th best of its class in the piece where the count passes k: selected
    /// there, among a copy of that piece's class (O(piece)).
    pub(super) fn medians<'a, T: Score, L: Label + 'a>(
        &self,
        cells: impl Fn(usize) -> Vec<Segment<'a, T, L>>,
    ) -> ClassMedians {
        let nth_best = |relevant: bool, k: usize| -> f64 {
            let mut before = 0;
            for (p, &(r, i)) in self.counts.iter().enumerate() {
                let here = if relevant { r } else { i };
                if k < before + here {
                    return nth_best_of_class(&cells(p), relevant, k - before);
                }
                before += here;
            }
            f64::NAN
        };
        let count = |relevant: bool| -> usize {
            let of_class = |&(r, i): &(usize, usize)| if relevant { r } else { i };
            self.counts.iter().map(of_class).sum()
        };
        ClassMedians {
            cases: median_of(count(true), |k| nth_best(true, k)),
            controls: median_of(count(false), |k| nth_best(false, k)),
        }
    }
}

/// The k-th best score (from 0, best first as the ranking orders them) among the relevant (or
/// irrelevant) cells of `segments`; NaN if there are not that many.
fn nth_best_of_class<T: Score, L: Label>(
    segments: &[Segment<'_, T, L>],
    relevant: bool,
    k: usize,
) -> f64 {
    let mut class: Vec<T> = Vec::new();
    for segment in segments {
        let cells = segment.scores.iter().zip(segment.labels);
        let in_class = cells.filter(|&(_, y)| (y.value() != 0.0) == relevant);
        class.extend(in_class.map(|(&s, _)| s));
    }
    if k >= class.len() {
        return f64::NAN;
    }
    let (_, &mut nth, _) = class.select_nth_unstable_by_key(k, |s| !s.order_key());
    nth.as_f64()
}
