//! The binary metric that label-wise averaging runs on each vector ([`VectorMetric`]): apart
//! from the vector itself (`vector.rs`), so that the piece sums it starts (`micro/fold.rs`)
//! may read vectors without an import circle.

use super::medians::ClassMedians;
use super::micro::fold::PieceSums;
use super::vector::Vector;
use super::LabelwiseOptions;
use crate::error::Error;
use crate::kernel::RankedRow;
use crate::score::Score;

/// A binary metric that label-wise averaging runs on each vector.
pub(crate) trait VectorMetric {
    fn options(&self) -> LabelwiseOptions;
    /// Why `Optimistic` and `Pessimistic` are not proven to be the best and worst values over
    /// every ordering of a vector's ties (`items_weighted`: its items carry sample weights), if
    /// they are not.
    fn ends_unproven(&self, _items_weighted: bool) -> Option<&'static str> {
        None
    }
    /// Why `Expected` has no closed form for a vector's value (`items_weighted`: its items
    /// carry sample weights), if it has none; [`check`](Self::check) refuses `Expected` then.
    fn expected_missing(&self, _items_weighted: bool) -> Option<&'static str> {
        None
    }
    /// Checks the metric's own parameters; `weighted`: the vectors carry sample weights.
    fn check(&self, _weighted: bool) -> Result<(), Error> {
        Ok(())
    }
    /// The metric on one ranked vector, or `None` where it is undefined.
    fn vector_value<T: Score>(&self, v: &Vector<'_, T>, row: &RankedRow<'_>) -> Option<f64>;
    /// Whether the metric reads only the blocks holding a relevant item (as
    /// [`RankedRow::relevant_blocks`] gives them, whichever kernel path ranked the vector) of a
    /// vector of `items` items; `weighted`: the items carry weights.
    fn reads_only_relevant_blocks(&self, _weighted: bool, _items: usize) -> bool {
        false
    }
    /// Whether the metric reads the items' scores, not only the ranking's blocks (a vector
    /// kept as runs has no items to read).
    fn reads_scores(&self) -> bool {
        false
    }
    /// Whether the metric can read a ranking in consecutive pieces, through the sums
    /// [`piece_sums`](Self::piece_sums) starts and [`pieces_value`](Self::pieces_value) reads,
    /// with the same value as [`vector_value`](Self::vector_value) gives on the whole;
    /// `weighted`: the items carry weights.
    fn reads_pieces(&self, _weighted: bool) -> bool {
        false
    }
    /// The sums a ranking of `items` items read in pieces starts from (nothing added yet);
    /// each piece's part is added to them ([`PieceSums::part`], [`PieceSums::add_part`]):
    /// AUC's pair sums, or, for a metric that reads only the relevant blocks, its fold of them
    /// ([`PieceSums::Folded`]). Called only when [`reads_pieces`](Self::reads_pieces) says so.
    fn piece_sums(&self, items: usize, weighted: bool) -> PieceSums;
    /// The value of a ranking added piece by piece, or `None` where it is undefined;
    /// `medians`: its class medians, given when [`reads_scores`](Self::reads_scores) says the
    /// metric reads scores. By default, the value of the fold of the relevant blocks that
    /// [`piece_sums`](Self::piece_sums) started.
    fn pieces_value(&self, sums: &PieceSums, _medians: Option<ClassMedians>) -> Option<f64> {
        sums.folded_value()
    }
}
