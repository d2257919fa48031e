//! R's `median` of one class of a vector's items (pROC's automatic direction compares the
//! classes' medians), and of one class of a pooled ranking read in pieces, where only the piece
//! holding a middle item is looked into.

use super::micro::buckets::Segment;
use crate::error::Error;
use crate::kernel::RankedRow;
use crate::score::{Label, Score};

/// R's `median` of `count` values, `nth(k)` giving the k-th (from 0) in any fixed order: the
/// middle one, or the mean of the two middle ones ([`median_of_middles`]); NaN when `count` is
/// 0.
pub(crate) fn median_of(count: usize, mut nth: impl FnMut(usize) -> f64) -> f64 {
    if count == 0 {
        return f64::NAN;
    }
    let even = count % 2 == 0;
    let lower = nth((count - 1) / 2);
    median_of_middles(lower, even.then(|| nth(count / 2)), even)
}

/// R's `median` from the middle value (the lower of the two for an even count) and, for an
/// even count, the upper one (NaN where it is missing).
pub(crate) fn median_of_middles(lower: f64, upper: Option<f64>, even: bool) -> f64 {
    match even {
        // R returns the middle element itself: no arithmetic, so a subnormal stays as it is.
        false => lower,
        true => mean_of_two(lower, upper.unwrap_or(f64::NAN)),
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

    /// The pool's class medians; `class_of(p, relevant)` hands the scores of piece p's relevant
    /// (or irrelevant) cells, in any order ([`class_in`] of its cells), or the error met
    /// reading them again.
    pub(super) fn medians<T: Score>(
        &self, mut class_of: impl FnMut(usize, bool) -> Result<Vec<T>, Error>,
    ) -> Result<ClassMedians, Error> {
        Ok(ClassMedians {
            cases: self.class_median(true, &mut class_of)?,
            controls: self.class_median(false, &mut class_of)?,
        })
    }

    /// The median score of the relevant (or irrelevant) cells. Pieces are runs of whole
    /// buckets of keys, best first, so a class's k-th best cell is the (k − those before)-th
    /// best of its class in the piece where the count passes k: selected there, among a copy
    /// of that piece's class (O(piece)), with the next one for an even count (in the same
    /// piece, or the best of the next piece holding the class).
    fn class_median<T: Score>(
        &self, relevant: bool, class_of: &mut impl FnMut(usize, bool) -> Result<Vec<T>, Error>,
    ) -> Result<f64, Error> {
        let of_class = |&(r, i): &(usize, usize)| if relevant { r } else { i };
        let count: usize = self.counts.iter().map(of_class).sum();
        if count == 0 {
            return Ok(f64::NAN);
        }
        let (k, even) = ((count - 1) / 2, count % 2 == 0);
        let mut before = 0;
        for (p, here) in self.counts.iter().map(of_class).enumerate() {
            if k < before + here {
                let Some((lower, next)) = kth_best(&mut class_of(p, relevant)?, k - before, even)
                else {
                    return Ok(f64::NAN);
                };
                // The upper middle cell (even counts): the next in this piece, or the best of
                // the next piece holding the class.
                let upper = match (even, next) {
                    (false, _) => None,
                    (true, Some(next)) => Some(next.as_f64()),
                    (true, None) => {
                        let holding =
                            (p + 1..self.counts.len()).find(|&q| of_class(&self.counts[q]) > 0);
                        match holding {
                            Some(q) => kth_best(&mut class_of(q, relevant)?, 0, false)
                                .map(|(best, _)| best.as_f64()),
                            None => None,
                        }
                    }
                };
                return Ok(median_of_middles(lower.as_f64(), upper, even));
            }
            before += here;
        }
        Ok(f64::NAN)
    }
}

/// The scores of the relevant (or irrelevant) cells of `segments`.
pub(super) fn class_in<T: Score, L: Label>(
    segments: &[Segment<'_, T, L>], relevant: bool,
) -> Vec<T> {
    let mut class: Vec<T> = Vec::new();
    for segment in segments {
        let cells = segment.scores.iter().zip(segment.labels);
        let in_class = cells.filter(|&(_, y)| (y.value() != 0.0) == relevant);
        class.extend(in_class.map(|(&s, _)| s));
    }
    class
}

/// The k-th best of `class` (from 0, best first as the ranking orders them) and, `with_next`,
/// the best of those after it (none when it is the last); none when `class` holds no k-th. R's
/// median reads the middle one, or the middle two. O(n): a selection, then one scan.
pub(crate) fn kth_best<T: Score>(
    class: &mut [T], k: usize, with_next: bool,
) -> Option<(T, Option<T>)> {
    if k >= class.len() {
        return None;
    }
    let best_first = |s: &T| !s.order_key();
    let (_, &mut kth, after) = class.select_nth_unstable_by_key(k, best_first);
    let next = with_next.then(|| after.iter().copied().min_by_key(best_first));
    Some((kth, next.flatten()))
}
