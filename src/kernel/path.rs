//! Which path ranks a row: counting its relevant labels or sorting it, by the row's
//! relevant count; and the switch tests use to force either.

use std::sync::atomic::{AtomicU8, Ordering as AtomicOrdering};

#[cfg(doc)]
use super::Ranker;
use super::{Ranking, Reach};
use crate::ties::{TieGrouping, TiePolicy};

/// Whether [`Ranker::rank_gathered`] ranks a row of `n` labels, `relevant` of them relevant,
/// by counting (else it sorts the row, as [`Ranker::rank`] does).
pub(crate) fn counts(ranking: Ranking, n: usize, relevant: usize, reach: Reach) -> bool {
    let countable =
        ranking.grouping == TieGrouping::Exact && !matches!(ranking.ties, TiePolicy::Random(_));
    let most = match (KERNEL_PATH.load(AtomicOrdering::Relaxed), reach) {
        (FORCE_FULL, _) => 0,
        // One relevant tie group is counted, however many relevant labels there are.
        (FORCE_COUNTING, _) | (_, Reach::End(_)) => n,
        _ => counting_limit(n),
    };
    countable && relevant <= most
}

/// The most relevant labels a row of `n` labels may have for [`Ranker::rank_relevant`] to
/// count rather than sort: counting costs about r·n comparisons, the sort about n·log2(n)
/// steps that each cost several comparisons (measured crossover: docs/performance.md).
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
/// must give bitwise the same values).
#[doc(hidden)]
pub fn set_kernel_path(path: KernelPath) {
    let code = match path {
        KernelPath::Auto => 0,
        KernelPath::Full => FORCE_FULL,
        KernelPath::Counting => FORCE_COUNTING,
    };
    KERNEL_PATH.store(code, AtomicOrdering::Relaxed);
}
