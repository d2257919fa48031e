//! What a metric reading a pooled ranking piece by piece keeps of the pieces added so far
//! ([`PieceSums`]: AUC's pair sums, or a fold of the relevant blocks average precision reads),
//! and what one piece adds ([`PiecePart`]), worked out apart from the pieces before it.

use core::fmt::Debug;

use crate::kernel::{Block, RankedRow};
use crate::labelwise::pairs::{AucPart, AucSums};
use crate::labelwise::vector::Vector;
use crate::ties::RankSharing;

/// What a metric reading a pooled ranking in pieces keeps of the pieces added so far.
#[derive(Debug)]
pub(crate) enum PieceSums {
    /// AUC's pair sums: a few numbers (weighted: a few per block), however many pieces.
    Pairs(AucSums),
    /// The metric folded over the relevant blocks so far, placed in the whole ranking.
    Folded(FoldedBlocks),
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
            PieceSums::Folded(_) => PiecePart::Blocks(RelevantBlocks::of(row)),
        }
    }

    /// Adds a part from [`part`](Self::part) of sums of this kind, after every piece before.
    pub(crate) fn add_part(&mut self, part: &PiecePart) {
        match (self, part) {
            (PieceSums::Pairs(sums), PiecePart::Pairs(part)) => sums.add_part(part),
            (PieceSums::Folded(folded), PiecePart::Blocks(part)) => folded.add(part),
            // `part` makes a part of the sums' own kind, and the sums keep their kind.
            _ => debug_assert!(false, "a piece's part added to sums of another kind"),
        }
    }

    /// Whether these sums read the whole ranking's number of relevant items, which
    /// [`set_relevant`](Self::set_relevant) gives them before the first part is added.
    pub(crate) fn reads_relevant(&self) -> bool {
        matches!(self, PieceSums::Folded(_))
    }

    /// Gives sums that [read it](Self::reads_relevant) the whole ranking's number of relevant
    /// items, before the first part is added.
    pub(crate) fn set_relevant(&mut self, relevant: usize) {
        if let PieceSums::Folded(folded) = self {
            folded.relevant = relevant;
        }
    }

    /// The value of the fold, for sums of that kind; `None` for sums of another kind, or where
    /// the value is undefined.
    pub(crate) fn folded_value(&self) -> Option<f64> {
        match self {
            PieceSums::Folded(folded) => folded.fold.value(),
            PieceSums::Pairs(_) => None,
        }
    }
}

/// A metric that reads only the relevant blocks of an unweighted ranking, folded over them in
/// rank order, so that a pooled ranking read piece by piece need not keep them (a relevant
/// pooled cell a block at worst). The fold gives the value that the metric's `vector_value`
/// gives on the whole ranking, to the bit.
pub(crate) trait BlocksFold: Debug + Send + Sync {
    /// Adds the relevant blocks of `row`: the next ones in rank order, placed in the whole
    /// ranking, whose numbers of items and of relevant items `row` gives (ranked with the
    /// sharing of every piece).
    fn add(&mut self, row: &RankedRow<'_>);
    /// The value of the whole ranking, once every piece is added; `None` where undefined.
    fn value(&self) -> Option<f64>;
}

/// A [`BlocksFold`] with where the next piece starts in the whole ranking.
#[derive(Debug)]
pub(crate) struct FoldedBlocks {
    fold: Box<dyn BlocksFold>,
    /// The whole ranking's items.
    items: usize,
    /// The whole ranking's relevant items ([`PieceSums::set_relevant`]).
    relevant: usize,
    /// The items of the pieces added so far.
    before: usize,
    /// The blocks of the piece being added, placed after those before it.
    placed: Vec<Block>,
}

impl FoldedBlocks {
    /// Sums of a ranking of `items` items that fold its relevant blocks with `fold`.
    pub(crate) fn new(items: usize, fold: Box<dyn BlocksFold>) -> Self {
        FoldedBlocks {
            fold,
            items,
            relevant: 0,
            before: 0,
            placed: Vec::new(),
        }
    }

    /// Folds the blocks of `piece`, which follows every piece so far.
    fn add(&mut self, piece: &RelevantBlocks) {
        let before = self.before;
        self.placed.clear();
        self.placed.extend(piece.blocks.iter().map(|b| Block {
            start: before + b.start,
            ..*b
        }));
        let row =
            RankedRow::of_relevant_blocks(&self.placed, self.items, self.relevant, piece.sharing);
        self.fold.add(&row);
        self.before += piece.items;
    }
}

/// The relevant blocks of a piece of a ranking, in rank order, with its number of items: a
/// piece is a run of whole tie groups, ranked as the pool ranks it, so its blocks are the
/// pool's, shifted by the items before it.
#[derive(Debug, Clone, Default)]
pub(crate) struct RelevantBlocks {
    blocks: Vec<Block>,
    items: usize,
    sharing: Option<RankSharing>,
}

impl RelevantBlocks {
    /// The relevant blocks of `row`.
    fn of(row: &RankedRow<'_>) -> Self {
        RelevantBlocks {
            blocks: row.relevant_blocks().copied().collect(),
            items: row.n_labels(),
            sharing: row.sharing(),
        }
    }
}
