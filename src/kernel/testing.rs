//! Helpers the kernel's unit tests share.

use super::{RankedRow, Ranker, Ranking};
use crate::ties::{TieGrouping, TiePolicy};

pub(super) fn order(scores: &[f64], ties: TiePolicy, grouping: TieGrouping) -> Vec<u32> {
    let gains = vec![0.0; scores.len()];
    let ranking = Ranking::new(ties).with_grouping(grouping);
    Ranker::new()
        .rank(scores, &gains, ranking, 0)
        .order()
        .to_vec()
}

/// Everything a metric reads of a ranked row, bit for bit.
pub(super) fn snapshot(row: &RankedRow<'_>) -> String {
    let blocks: Vec<_> = row
        .blocks()
        .iter()
        .map(|b| (b.start, b.len, b.relevant, b.gain.to_bits()))
        .collect();
    format!(
        "{blocks:?} {:?} {} {} {:?} {}",
        row.order(),
        row.n_labels(),
        row.n_relevant(),
        row.sharing(),
        row.covered()
    )
}
