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

/// One ranking's pairs counted as if no block came before it; [`PairCounts::add`] shifts them
/// below the blocks added before, in integers, so that counting a ranking in parts is exact.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PiecePairs {
    /// Σ over relevant blocks of relevant × (irrelevant above in this ranking + inside).
    above_or_inside: u128,
    inside: u128,
    /// Σ over relevant blocks of relevant: what the irrelevant items before multiply.
    in_blocks: u128,
    relevant: u128,
    irrelevant: u128,
    tie_credit: f64,
}

impl PiecePairs {
    fn of(row: &RankedRow<'_>, tie_credit: f64) -> PiecePairs {
        let (mut above_or_inside, mut inside, mut in_blocks) = (0, 0, 0);
        let mut relevant_above = 0;
        for b in row.relevant_blocks() {
            let within = (b.len - b.relevant) as u128;
            let above = b.start.saturating_sub(relevant_above) as u128;
            above_or_inside += b.relevant as u128 * (above + within);
            inside += b.relevant as u128 * within;
            in_blocks += b.relevant as u128;
            relevant_above += b.relevant;
        }
        PiecePairs {
            above_or_inside,
            inside,
            in_blocks,
            relevant: row.n_relevant() as u128,
            irrelevant: row.n_labels().saturating_sub(row.n_relevant()) as u128,
            tie_credit,
        }
    }
}

impl PairCounts {
    /// Adds a ranking's pairs below every item counted before.
    fn add(&mut self, p: &PiecePairs) {
        self.tie_credit = p.tie_credit;
        self.above_or_inside += p.above_or_inside + self.irrelevant * p.in_blocks;
        self.inside += p.inside;
        self.relevant += p.relevant;
        self.irrelevant += p.irrelevant;
    }
}

/// What one ranking (a piece of a pooled one) adds to [`AucSums`], worked out apart from the
/// rankings before it ([`AucSums::part`]): counted pairs, or each block's class weights.
#[derive(Debug, Clone, Default)]
pub(crate) struct AucPart {
    relevant: usize,
    items: usize,
    tie_credit: f64,
    pairs: Option<PiecePairs>,
    /// (relevant, irrelevant) weight of each block in rank order, when the sums are summed.
    class_weights: Vec<(f64, f64)>,
}

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
            counts.add(&PiecePairs::of(row, tie_credit));
            return;
        }
        let weights = row.blocks().iter().map(|b| v.class_weights(row, b));
        self.add_weights(tie_credit, weights);
    }

    /// What [`add`](Self::add) adds for `row`, worked out apart from the blocks before it (on
    /// another thread, say), for sums of this one's kind (counted or summed):
    /// [`add_part`](Self::add_part) then adds it with the same bits as `add`.
    pub(crate) fn part<T>(&self, v: &Vector<'_, T>, row: &RankedRow<'_>) -> AucPart {
        let tie_credit = 1.0 - row.tied_pair_error();
        let (pairs, class_weights) = match self.counts {
            Some(_) => (Some(PiecePairs::of(row, tie_credit)), Vec::new()),
            None => {
                let weights = row.blocks().iter().map(|b| v.class_weights(row, b));
                (None, weights.collect())
            }
        };
        AucPart {
            relevant: row.n_relevant(),
            items: row.n_labels(),
            tie_credit,
            pairs,
            class_weights,
        }
    }

    /// Adds a part from [`part`](Self::part), which follows every block added before.
    pub(crate) fn add_part(&mut self, part: &AucPart) {
        self.relevant += part.relevant;
        self.items += part.items;
        match (self.counts.as_mut(), &part.pairs) {
            (Some(counts), Some(pairs)) => counts.add(pairs),
            (counts, _) => {
                debug_assert!(counts.is_none(), "a summed part added to counted sums");
                self.add_weights(part.tie_credit, part.class_weights.iter().copied());
            }
        }
    }

    /// Adds blocks given by their (relevant, irrelevant) weights, in rank order.
    #[inline]
    fn add_weights(&mut self, tie_credit: f64, weights: impl Iterator<Item = (f64, f64)>) {
        for (p, n) in weights {
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

    /// The AUC, `None` for a single-class vector (by count or by weight); `direction(pairs,
    /// credit)` gives the credit
    /// read in the metric's direction.
    pub(crate) fn value(&self, direction: impl FnOnce(f64, f64) -> f64) -> Option<f64> {
        if self.relevant == 0 || self.relevant == self.items {
            return None;
        }
        let (credit, relevant_weight, irrelevant_weight) = self.totals();
        // A class of weight 0 is a class removed: single-class too.
        if relevant_weight == 0.0 || irrelevant_weight == 0.0 {
            return None;
        }
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

    /// `f`'s result on a rayon pool of `threads` threads.
    #[cfg(feature = "rayon")]
    pub(crate) fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(f)
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
                // The same sums added from parts worked out apart, and weighted ones.
                let (mut counted_parts, mut summed_parts) = (counted, summed);
                let (mut weighted, mut weighted_parts) = (summed, summed);
                for (scores, labels) in &pieces {
                    let w: Vec<f64> = (0..scores.len()).map(|_| draw(5) as f64 / 3.0).collect();
                    let v = Vector {
                        scores,
                        labels,
                        weights: Weights::Unit,
                    };
                    let vw = Vector {
                        weights: Weights::Each(&w),
                        ..v
                    };
                    let mut ranker = Ranker::new();
                    let row = ranker.rank(scores, labels, ranking, case);
                    counted.add(&v, &row);
                    summed.add(&v, &row);
                    weighted.add(&vw, &row);
                    counted_parts.add_part(&counted_parts.part(&v, &row));
                    summed_parts.add_part(&summed_parts.part(&v, &row));
                    weighted_parts.add_part(&AucSums::default().part(&vw, &row));
                }
                let bits = |s: &AucSums| s.value(|pairs, credit| pairs - credit).map(f64::to_bits);
                assert_eq!(bits(&counted), bits(&summed), "{pieces:?} {ties:?}");
                assert_eq!(counted.totals().0.to_bits(), summed.totals().0.to_bits());
                for (whole, parts) in [
                    (counted, counted_parts),
                    (summed, summed_parts),
                    (weighted, weighted_parts),
                ] {
                    assert_eq!(bits(&whole), bits(&parts), "{pieces:?} {ties:?}");
                    let totals = |s: &AucSums| {
                        let (c, p, n) = s.totals();
                        (c.to_bits(), p.to_bits(), n.to_bits())
                    };
                    assert_eq!(totals(&whole), totals(&parts), "{pieces:?} {ties:?}");
                }
            }
        }
    }
}
