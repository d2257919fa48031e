//! The pair sums ROC AUC reads: over every relevant/irrelevant pair of a ranking, the pair's
//! credit (1 above, the tie credit inside a tie group), read whole or piece by piece.

use super::vector::Vector;
use crate::kernel::RankedRow;

/// The Mann–Whitney sums of a ranking read block by block in rank order, in one piece or in
/// consecutive pieces (a long pooled vector is ranked a piece at a time).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct AucSums {
    /// Σ over relevant/irrelevant pairs of the pair's credit (weighted).
    credit: f64,
    relevant_weight: f64,
    irrelevant_weight: f64,
    relevant: usize,
    items: usize,
    /// Unweighted rankings of few enough items are counted exactly instead ([`PairCounts`]).
    counts: Option<PairCounts>,
}

/// The pairs of an unweighted ranking, counted in integers from its relevant blocks alone:
/// each relevant block's relevant items times the irrelevant items above it and inside it.
/// With at most 2^26 items every term and partial sum of the block-by-block float sums is an
/// integer or a half-integer below 2^51, hence exact: the counts give the same bits, without
/// visiting the irrelevant blocks.
#[derive(Debug, Clone, Copy, Default)]
struct PairCounts {
    /// Σ over relevant blocks of relevant × (irrelevant above + irrelevant inside).
    above_or_inside: u128,
    /// Σ over relevant blocks of relevant × irrelevant inside.
    inside: u128,
    relevant: u128,
    irrelevant: u128,
    /// 1 − the tied-pair error: 1, ½ or 0.
    tie_credit: f64,
}

/// The most items [`PairCounts`] counts exactly.
pub(crate) const MAX_COUNTED_ITEMS: usize = 1 << 26;

impl AucSums {
    /// Sums for a ranking of `items` items, counted exactly when `unweighted` and few enough.
    pub(crate) fn for_items(items: usize, unweighted: bool) -> AucSums {
        AucSums {
            counts: (unweighted && items <= MAX_COUNTED_ITEMS).then(PairCounts::default),
            ..AucSums::default()
        }
    }

    /// Adds the blocks of `row`, which follow every block added before. Sums made by
    /// [`for_items`](Self::for_items) to count exactly take unweighted vectors only: the
    /// choice is made once, there, so that no ranking is summed half one way, half the other.
    pub(crate) fn add<T>(&mut self, v: &Vector<'_, T>, row: &RankedRow<'_>) {
        let tie_credit = 1.0 - row.tied_pair_error();
        self.relevant += row.n_relevant();
        self.items += row.n_labels();
        if let Some(counts) = self.counts.as_mut() {
            debug_assert!(
                v.weights.is_unit(),
                "exact pair counts of a weighted vector"
            );
            counts.tie_credit = tie_credit;
            let mut relevant_above = 0;
            for b in row.relevant_blocks() {
                let inside = (b.len - b.relevant) as u128;
                let above = counts.irrelevant + b.start.saturating_sub(relevant_above) as u128;
                counts.above_or_inside += b.relevant as u128 * (above + inside);
                counts.inside += b.relevant as u128 * inside;
                relevant_above += b.relevant;
            }
            counts.relevant += row.n_relevant() as u128;
            counts.irrelevant += row.n_labels().saturating_sub(row.n_relevant()) as u128;
            return;
        }
        for b in row.blocks() {
            let (p, n) = v.class_weights(row, b);
            self.credit += n * self.relevant_weight + tie_credit * p * n;
            self.relevant_weight += p;
            self.irrelevant_weight += n;
        }
    }

    /// The (credit, relevant weight, irrelevant weight) of the ranking added.
    fn totals(&self) -> (f64, f64, f64) {
        match self.counts {
            Some(c) => {
                // Pairs with the irrelevant item below, then the tied pairs' credit.
                let below = c.relevant * c.irrelevant - c.above_or_inside;
                let credit = below as f64 + c.tie_credit * c.inside as f64;
                (credit, c.relevant as f64, c.irrelevant as f64)
            }
            None => (self.credit, self.relevant_weight, self.irrelevant_weight),
        }
    }

    /// The AUC, `None` for a single-class vector; `direction(pairs, credit)` gives the credit
    /// read in the metric's direction.
    pub(crate) fn value(&self, direction: impl FnOnce(f64, f64) -> f64) -> Option<f64> {
        if self.relevant == 0 || self.relevant == self.items {
            return None;
        }
        let (credit, relevant_weight, irrelevant_weight) = self.totals();
        let pairs = relevant_weight * irrelevant_weight;
        Some(direction(pairs, credit) / pairs)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::kernel::{Ranker, Ranking};
    use crate::labelwise::vector::Weights;
    use crate::ties::TiePolicy;

    /// Reproducible draws from `0..n` (a linear congruential generator).
    pub(crate) fn draws(mut state: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        }
    }

    #[test]
    fn exact_pair_counts_equal_the_block_by_block_sums() {
        let mut draw = draws(0xC0FFEE);
        for case in 0..300 {
            // Two pieces: every score of the first above every score of the second.
            let pieces: Vec<(Vec<f64>, Vec<f64>)> = (0..2)
                .map(|piece| {
                    let len = draw(15) as usize;
                    let scores = (0..len)
                        .map(|_| (draw(4) + 10 * (1 - piece)) as f64)
                        .collect();
                    let labels = (0..len).map(|_| draw(3) as f64).collect();
                    (scores, labels)
                })
                .collect();
            for ties in TiePolicy::R_METHODS.into_iter().chain(TiePolicy::ANALYSIS) {
                let ranking = Ranking::new(ties);
                let items = pieces.iter().map(|p| p.0.len()).sum();
                let (mut counted, mut summed) =
                    (AucSums::for_items(items, true), AucSums::default());
                for (scores, labels) in &pieces {
                    let v = Vector {
                        scores,
                        labels,
                        weights: Weights::Unit,
                    };
                    let mut ranker = Ranker::new();
                    let row = ranker.rank(scores, labels, ranking, case);
                    counted.add(&v, &row);
                    summed.add(&v, &row);
                }
                let bits = |s: &AucSums| s.value(|pairs, credit| pairs - credit).map(f64::to_bits);
                assert_eq!(bits(&counted), bits(&summed), "{pieces:?} {ties:?}");
                assert_eq!(counted.totals().0.to_bits(), summed.totals().0.to_bits());
            }
        }
    }
}
