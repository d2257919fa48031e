//! Which rows of the whole data a streaming state has seen ([`Rows`]): global row numbers, as
//! sorted, disjoint ranges, and the number the next batch starts at. Merges use them to refuse
//! overlaps and to place rows in row order.

use core::ops::Range;

use crate::error::{Error, Incompatibility};

/// The rows a state has seen and the number of the next batch's first row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "wire::Rows")
)]
pub(crate) struct Rows {
    /// Sorted, non-empty, neither overlapping nor touching (touching ranges are joined).
    seen: Vec<Range<usize>>,
    /// The next batch's first row: at or after the end of every range.
    next: usize,
}

impl Rows {
    /// No rows seen; the first batch starts at row `first`.
    pub(crate) fn starting_at(first: usize) -> Self {
        Rows {
            seen: Vec::new(),
            next: first,
        }
    }

    /// The next batch's first row.
    pub(crate) fn next(&self) -> usize {
        self.next
    }

    /// The ranges seen, sorted.
    pub(crate) fn ranges(&self) -> &[Range<usize>] {
        &self.seen
    }

    /// The global numbers of the rows seen, in row order.
    #[cfg(feature = "serde")]
    pub(crate) fn numbers(&self) -> impl Iterator<Item = usize> + '_ {
        self.seen.iter().flat_map(Range::clone)
    }

    /// The number of rows seen.
    pub(crate) fn count(&self) -> usize {
        // Saturating: deserialised ranges may be anything that passed the checks.
        self.seen
            .iter()
            .fold(0, |n: usize, r| n.saturating_add(r.len()))
    }

    /// Checks that a batch of `n` rows at [`next`](Self::next) can be numbered: its last row
    /// must be at most `usize::MAX - 1`, so that the range ending after it exists.
    ///
    /// # Errors
    /// [`Error::RowNumberOverflow`].
    pub(crate) fn check_batch(&self, n: usize) -> Result<(), Error> {
        match self.next.checked_add(n) {
            Some(_) => Ok(()),
            None => Err(Error::RowNumberOverflow {
                first_row: self.next,
                rows: n,
            }),
        }
    }

    /// Records a batch of `n` rows at [`next`](Self::next), which then moves past them
    /// (callers check the numbering first with [`check_batch`](Self::check_batch)).
    pub(crate) fn take_batch(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        let end = self.next.saturating_add(n);
        match self.seen.last_mut() {
            Some(last) if last.end == self.next => last.end = end,
            _ => self.seen.push(self.next..end),
        }
        self.next = end;
    }

    /// The first rows both have seen, if any.
    pub(crate) fn overlap(&self, other: &Rows) -> Option<Range<usize>> {
        let (mut a, mut b) = (self.seen.iter().peekable(), other.seen.iter().peekable());
        while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
            let (start, end) = (x.start.max(y.start), x.end.min(y.end));
            if start < end {
                return Some(start..end);
            }
            if x.end <= y.end {
                a.next();
            } else {
                b.next();
            }
        }
        None
    }

    /// Both sets of rows, or the error for the first rows both have seen.
    pub(crate) fn union(&self, other: &Rows) -> Result<Rows, Error> {
        if let Some(both) = self.overlap(other) {
            return Err(Error::Incompatible(Incompatibility::Overlap {
                start: both.start,
                end: both.end,
            }));
        }
        let mut all: Vec<Range<usize>> = self.seen.iter().chain(&other.seen).cloned().collect();
        all.sort_by_key(|r| r.start);
        let mut seen: Vec<Range<usize>> = Vec::with_capacity(all.len());
        for r in all {
            match seen.last_mut() {
                Some(last) if last.end == r.start => last.end = r.end,
                _ => seen.push(r),
            }
        }
        Ok(Rows {
            seen,
            next: self.next.max(other.next),
        })
    }

    /// The global number of the row at `position` among the rows seen, in row order.
    pub(crate) fn global(&self, position: usize) -> usize {
        let mut before: usize = 0;
        for r in &self.seen {
            if position - before < r.len() {
                return r.start + (position - before);
            }
            before = before.saturating_add(r.len());
            if before > position {
                break;
            }
        }
        position
    }
}

#[cfg(feature = "serde")]
mod wire {
    //! The serialised form, checked when read: the ranges must be sorted, non-empty, apart,
    //! and end at or before `next`.
    use core::ops::Range;

    use crate::error::{Error, StateFault};
    use crate::state_format::invalid;

    #[derive(serde::Serialize, serde::Deserialize)]
    pub(super) struct Rows {
        seen: Vec<Range<usize>>,
        next: usize,
    }

    impl TryFrom<Rows> for super::Rows {
        type Error = Error;

        fn try_from(wire: Rows) -> Result<Self, Self::Error> {
            let mut end = None;
            for (i, r) in wire.seen.iter().enumerate() {
                if r.start >= r.end {
                    let expected = "a range of at least one row";
                    return Err(invalid(
                        "rows.seen",
                        Some(i),
                        StateFault::Value { expected },
                    ));
                }
                // Touching ranges are joined: a range starts after the gap that follows the last.
                if end.is_some_and(|end| r.start <= end) {
                    return Err(invalid("rows.seen", Some(i), StateFault::Order));
                }
                end = Some(r.end);
            }
            if end.is_some_and(|end| end > wire.next) {
                let expected = "at or after the end of every range seen";
                return Err(invalid("rows.next", None, StateFault::Value { expected }));
            }
            Ok(super::Rows {
                seen: wire.seen,
                next: wire.next,
            })
        }
    }
}

#[cfg(test)]
// Arrays of one range are the row ranges expected, not a mistaken `vec![0; 5]`.
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;

    fn rows(first: usize, batches: &[usize]) -> Rows {
        let mut r = Rows::starting_at(first);
        batches.iter().for_each(|&n| r.take_batch(n));
        r
    }

    #[test]
    fn batches_join_and_unions_sort() {
        let a = rows(0, &[3, 0, 2]);
        assert_eq!(a.ranges(), [0..5]);
        let b = rows(8, &[2]);
        let ab = a.union(&b).unwrap();
        assert_eq!(ab, b.union(&a).unwrap());
        assert_eq!(
            (ab.ranges(), ab.next(), ab.count()),
            (&[0..5, 8..10][..], 10, 7)
        );
        let gap = rows(5, &[3]);
        assert_eq!(ab.union(&gap).unwrap().ranges(), [0..10]);
        assert_eq!(ab.global(6), 9);
    }

    #[test]
    fn overlaps_are_refused_with_the_rows_in_both() {
        let (a, b) = (rows(0, &[10]), rows(4, &[2]));
        let expected = Incompatibility::Overlap { start: 4, end: 6 };
        assert_eq!(a.union(&b), Err(Error::Incompatible(expected)));
        assert_eq!(b.union(&a), Err(Error::Incompatible(expected)));
        assert!(a.union(&a.clone()).is_err());
        assert_eq!(a.union(&Rows::default()).unwrap(), a);
    }
}
