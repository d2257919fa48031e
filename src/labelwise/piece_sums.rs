//! What a metric reading a pooled ranking piece by piece keeps of the pieces added so far
//! ([`PieceSums`]: AUC's pair sums, or the relevant blocks average precision reads), and what
//! one piece adds ([`PiecePart`]), worked out apart from the pieces before it.

use super::pairs::{AucPart, AucSums};
use super::vector::{Vector, VectorMetric, Weights};
use crate::kernel::{Block, RankedRow};
use crate::ties::RankSharing;

/// What a metric reading a pooled ranking in pieces keeps of the pieces added so far.
#[derive(Debug, Clone)]
pub(crate) enum PieceSums {
    /// AUC's pair sums: a few numbers (weighted: a few per block), however many pieces.
    Pairs(AucSums),
    /// Every relevant block so far, placed in the whole ranking.
    Blocks(RelevantBlocks),
}

/// What one piece adds to [`PieceSums`] of its kind.
#[derive(Debug, Clone)]
pub(crate) enum PiecePart {
    Pairs(AucPart),
    /// The piece's relevant blocks, placed as if nothing came before it.
    Blocks(RelevantBlocks),
}

impl PieceSums {
    /// What `row` (the next piece, `v` its items) adds to these sums, worked out apart from the
    /// pieces before it (on another thread, say): [`add_part`](Self::add_part) adds it after
    /// them, in piece order.
    pub(crate) fn part<T>(&self, v: &Vector<'_, T>, row: &RankedRow<'_>) -> PiecePart {
        match self {
            PieceSums::Pairs(sums) => PiecePart::Pairs(sums.part(v, row)),
            PieceSums::Blocks(_) => PiecePart::Blocks(RelevantBlocks::of(row)),
        }
    }

    /// Adds a part from [`part`](Self::part) of sums of this kind, after every piece before.
    pub(crate) fn add_part(&mut self, part: &PiecePart) {
        match (self, part) {
            (PieceSums::Pairs(sums), PiecePart::Pairs(part)) => sums.add_part(part),
            (PieceSums::Blocks(blocks), PiecePart::Blocks(part)) => blocks.append(part),
            // `part` makes a part of the sums' own kind, and the sums keep their kind.
            _ => debug_assert!(false, "a piece's part added to sums of another kind"),
        }
    }

    /// For a metric whose sums are [`RelevantBlocks`] (an unweighted metric that reads only
    /// the relevant blocks): its value on the whole ranking, as counting would rank the vector
    /// at once. `None` for sums of another kind.
    pub(crate) fn relevant_blocks_value<M: VectorMetric + ?Sized>(
        &self,
        metric: &M,
    ) -> Option<f64> {
        let PieceSums::Blocks(blocks) = self else {
            return None;
        };
        // Unweighted, such a metric reads no item: the blocks are the whole vector's.
        let v = Vector::<f64> {
            scores: &[],
            labels: &[],
            weights: Weights::Unit,
        };
        metric.vector_value(&v, &blocks.row())
    }
}

/// The relevant blocks of a ranking, in rank order, with its numbers of items and of relevant
/// ones: a long pooled vector's blocks gathered piece by piece read as the vector ranked whole
/// ([`row`](Self::row)). A piece is a run of whole tie groups, ranked as the pool ranks it, so
/// its blocks are the pool's, shifted by the items before it.
#[derive(Debug, Clone, Default)]
pub(crate) struct RelevantBlocks {
    blocks: Vec<Block>,
    items: usize,
    relevant: usize,
    sharing: Option<RankSharing>,
}

impl RelevantBlocks {
    /// The relevant blocks of `row`.
    fn of(row: &RankedRow<'_>) -> Self {
        RelevantBlocks {
            blocks: row.relevant_blocks().copied().collect(),
            items: row.n_labels(),
            relevant: row.n_relevant(),
            sharing: row.sharing(),
        }
    }

    /// Appends the blocks of the ranking `next`, which follows every item so far.
    fn append(&mut self, next: &RelevantBlocks) {
        let before = self.items;
        let placed = next.blocks.iter().map(|b| Block {
            start: before + b.start,
            ..*b
        });
        self.blocks.extend(placed);
        self.items += next.items;
        self.relevant += next.relevant;
        // Every piece is ranked under the one policy, so with one sharing.
        self.sharing = next.sharing;
    }

    /// The blocks as one ranking, as counting ranks a whole vector (its relevant blocks only).
    pub(crate) fn row(&self) -> RankedRow<'_> {
        RankedRow::of_relevant_blocks(&self.blocks, self.items, self.relevant, self.sharing)
    }
}
