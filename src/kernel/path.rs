//! Which path ranks a row: counting its relevant labels or sorting it, by the row's
//! relevant count; and the switch tests use to force either.

use std::sync::atomic::{AtomicU8, Ordering as AtomicOrdering};

#[cfg(doc)]
use super::Ranker;
use super::{Ranking, Reach};
use crate::ties::{TieGrouping, TiePolicy};

/// Whether [`Ranker::rank_gathered`] ranks a row of `n` labels, `relevant` of them relevant,
/// by counting under exact tie grouping (else it sorts the row, as [`Ranker::rank`] does); a
/// tolerance grouping is never counted here ([`may_count`] says where the kernel looks).
pub(crate) fn counts(ranking: Ranking, n: usize, relevant: usize, reach: Reach) -> bool {
    let countable =
        ranking.grouping == TieGrouping::Exact && !matches!(ranking.ties, TiePolicy::Random(_));
    let path = forced_path();
    let most = match (path, reach) {
        (FORCE_FULL, _) => 0,
        // One relevant tie group is counted, however many relevant labels there are.
        (FORCE_COUNTING, _) | (_, Reach::End(_)) => n,
        // A long vector is counted in one pass, however many relevant labels it has.
        (_, Reach::All) if n >= ONE_PASS_FROM || forced_one_pass() => n,
        _ => counting_limit(n),
    };
    countable && relevant <= most
}

/// Whether [`Ranker::rank_gathered`] may count a row of `n` labels, `relevant` of them relevant:
/// as [`counts`] says under exact grouping. Under a tolerance grouping (`Within(eps)`, eps > 0)
/// it may where it would count the row under exact grouping one group at a time (not in one
/// pass), and then counts it only if no other score lies within eps of a relevant score it
/// counts (each group's pass over the row also looks for one); else it sorts.
pub(crate) fn may_count(ranking: Ranking, n: usize, relevant: usize, reach: Reach) -> bool {
    match ranking.grouping {
        TieGrouping::Exact => counts(ranking, n, relevant, reach),
        // A tolerance of 0 or below (or NaN) leaves equal scores apart: no exact group.
        TieGrouping::Within(eps) => {
            eps > 0.0
                && !counts_in_one_pass(n, relevant, reach)
                && counts(
                    ranking.with_grouping(TieGrouping::Exact),
                    n,
                    relevant,
                    reach,
                )
        }
    }
}

/// Whether [`Ranker::rank_gathered`], counting, counts the relevant groups in one pass over the
/// row (`Ranker::count_groups_in_one_pass`) rather than one pass per group: for every relevant
/// block of a row with more relevant labels than [`counting_limit`].
pub(crate) fn counts_in_one_pass(n: usize, relevant: usize, reach: Reach) -> bool {
    reach == Reach::All && (relevant > counting_limit(n) || forced_one_pass())
}

/// The shortest row whose relevant blocks are counted in one pass however many relevant labels
/// it has (a column of a label-wise metric): the pass locates each score among the relevant
/// groups' scores, which costs less than sorting the row (docs/performance.md).
const ONE_PASS_FROM: usize = 1024;

#[cfg(test)]
thread_local! {
    static FORCE_ONE_PASS: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Makes this thread's counting path count in one pass, also short rows with few relevant
/// labels (unit tests of that pass).
#[cfg(test)]
pub(super) fn force_one_pass(on: bool) {
    FORCE_ONE_PASS.with(|f| f.set(on));
}

#[cfg(test)]
fn forced_one_pass() -> bool {
    FORCE_ONE_PASS.with(|f| f.get())
}

#[cfg(not(test))]
#[inline(always)]
fn forced_one_pass() -> bool {
    false
}

/// The most relevant labels a row of `n` labels may have for [`Ranker::rank_relevant`] to
/// count rather than sort: counting costs about r·n comparisons, the sort about n·log2(n)
/// steps that each cost several comparisons (the crossover measured on rows of 100 labels).
fn counting_limit(n: usize) -> usize {
    let log2 = (usize::BITS - n.leading_zeros()) as usize;
    COUNTING_PER_LOG2 * log2
}

/// See [`counting_limit`].
const COUNTING_PER_LOG2: usize = 3;

/// Which path [`Ranker::rank_relevant`] takes: a switch for tests that compare the two.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KernelPath {
    /// By the row's relevant count (the default).
    Auto,
    /// Always sort.
    Full,
    /// Count whenever the policy and grouping allow it.
    Counting,
}

const FORCE_FULL: u8 = 1;
const FORCE_COUNTING: u8 = 2;
static KERNEL_PATH: AtomicU8 = AtomicU8::new(0);

/// Forces a path of [`Ranker::rank_relevant`] for the whole process (tests only: both paths
/// must give bitwise the same values; the crate's own unit tests force it per thread).
#[doc(hidden)]
pub fn set_kernel_path(path: KernelPath) {
    let code = match path {
        KernelPath::Auto => 0,
        KernelPath::Full => FORCE_FULL,
        KernelPath::Counting => FORCE_COUNTING,
    };
    #[cfg(test)]
    PATH_HERE.with(|p| p.set(code));
    KERNEL_PATH.store(code, AtomicOrdering::Relaxed);
}

// Unit tests run in parallel threads of one process: each forces the path on its own thread,
// so that one test's setting never leaks into another's evaluation.
#[cfg(test)]
thread_local! {
    static PATH_HERE: core::cell::Cell<u8> = const { core::cell::Cell::new(0) };
}

/// The path forced (0 for none): this thread's in unit tests, the process's otherwise.
#[cfg(test)]
fn forced_path() -> u8 {
    PATH_HERE.with(|p| p.get())
}

#[cfg(not(test))]
#[inline(always)]
fn forced_path() -> u8 {
    KERNEL_PATH.load(AtomicOrdering::Relaxed)
}
