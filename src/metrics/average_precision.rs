//! Label ranking average precision.

use crate::kernel::RankedRow;
use crate::metrics::row_option_builders;
use crate::row::metric::{RowMetric, RowOptions, RowRule};
use crate::sum::torch_sum_f32;
use crate::ties::{RankSharing, TiePolicy};

/// Label ranking average precision (LRAP; "average precision" in mldr and MULAN): for each
/// relevant label, the share of relevant labels among those ranked at or above it.
///
/// Per row, with `rank` the 1-based rank under the tie policy and `Y` the relevant labels:
///
/// ```text
/// AP = (1/|Y|) Σ_{λ∈Y} |{μ ∈ Y : rank(μ) ≤ rank(λ)}| / rank(λ)
/// ```
///
/// Under `Max` this is scikit-learn's `label_ranking_average_precision_score`; under `Min` or
/// `Average` it can exceed 1 when relevant labels tie (as in mldr). Rows without a relevant
/// label score 1 and count (scikit-learn, mldr; MULAN skips them: [`RowRule::Skip`]); rows
/// whose labels are all relevant go through the formula.
///
/// # Example
/// ```
/// use rankmetrics::{AveragePrecision, RankingMetric, TiePolicy};
/// let y_true = [[1, 0, 0], [0, 0, 1]];
/// let y_score = [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]];
/// let v = AveragePrecision::new(TiePolicy::Max).evaluate(&y_true, &y_score, None).unwrap();
/// assert!((v - 0.41666666666666663).abs() < 1e-16);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias(
    "lrap",
    "LRAP",
    "label_ranking_average_precision_score",
    "average_precision"
))]
pub struct AveragePrecision {
    options: RowOptions,
    /// Add a row's precisions in column order instead of rank order (MULAN).
    #[cfg_attr(feature = "serde", serde(default))]
    column_order: bool,
    /// Compute a row's value in torchmetrics' `float32` arithmetic.
    #[cfg_attr(feature = "serde", serde(default))]
    float32: bool,
}

impl AveragePrecision {
    /// Average precision with the given tie policy.
    pub const fn new(ties: TiePolicy) -> Self {
        AveragePrecision {
            options: RowOptions::new(ties, RowRule::Value(1.0), RowRule::Formula),
            column_order: false,
            float32: false,
        }
    }

    /// The same metric computing each row's value as torchmetrics does in `float32`
    /// (`true`): each relevant label's quotient in `float32`, in column order, summed as
    /// torch's `float32` `mean()` sums (8-lane partial sums), divided by the count in
    /// `float32`. Rows that take a [`RowRule::Value`] keep it. Under
    /// [`TiePolicy::Expected`] the value is an expectation and this has no effect. With
    /// [`Summation::Float32`](crate::Summation::Float32) the mean over rows is torchmetrics'
    /// too.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{AveragePrecision, RankingMetric, TiePolicy};
    /// let ap = AveragePrecision::new(TiePolicy::Max).in_float32(true);
    /// assert!(ap.computes_in_float32());
    /// // 1/3 in float32.
    /// assert_eq!(ap.evaluate(&[[0, 0, 1]], &[[0.9, 0.5, 0.1]], None).unwrap(), 0.3333333432674408);
    /// ```
    pub const fn in_float32(mut self, float32: bool) -> Self {
        self.float32 = float32;
        self
    }

    /// Whether a row's value is computed in `float32` ([`in_float32`](Self::in_float32)).
    ///
    /// ```
    /// use rankmetrics::{AveragePrecision, TiePolicy};
    /// assert!(!AveragePrecision::new(TiePolicy::Max).computes_in_float32());
    /// ```
    pub const fn computes_in_float32(&self) -> bool {
        self.float32
    }

    /// The same metric adding each row's precisions in column order (`true`, as MULAN's
    /// `AveragePrecision` does) rather than in rank order (`false`, the default, as
    /// scikit-learn, torchmetrics and mldr do). The terms are the same; floating-point
    /// addition is not associative, so the order decides the last bit or two. Rows are ranked
    /// as in rank order (counted where they can be: the counted blocks list their relevant
    /// columns). Under [`TiePolicy::Expected`] the value is an expectation and this has no
    /// effect.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{AveragePrecision, RankingMetric, TiePolicy};
    /// let (y, s) = ([[0, 0, 1, 1, 1]], [[0.4, 0.5, 0.1, 0.2, 0.3]]);
    /// let ap = AveragePrecision::new(TiePolicy::Last);
    /// assert_eq!(ap.evaluate(&y, &s, None).unwrap(), 0.4777777777777777);
    /// let by_column = ap.summed_in_column_order(true);
    /// assert!(by_column.sums_in_column_order());
    /// assert_eq!(by_column.evaluate(&y, &s, None).unwrap(), 0.4777777777777778);
    /// ```
    pub const fn summed_in_column_order(mut self, column_order: bool) -> Self {
        self.column_order = column_order;
        self
    }

    /// Whether a row's precisions are added in column order
    /// ([`summed_in_column_order`](Self::summed_in_column_order)).
    ///
    /// ```
    /// use rankmetrics::{AveragePrecision, TiePolicy};
    /// assert!(!AveragePrecision::new(TiePolicy::Max).sums_in_column_order());
    /// ```
    pub const fn sums_in_column_order(&self) -> bool {
        self.column_order
    }
}

row_option_builders!(AveragePrecision);

impl RowMetric for AveragePrecision {
    fn options(&self) -> RowOptions {
        self.options
    }

    fn reads_only_relevant_blocks(&self) -> bool {
        // Column order reads each relevant label's column too: from the full ranking's order,
        // or from the counted blocks' columns.
        true
    }

    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        let expected = row.sharing() == Some(RankSharing::Expected);
        match (self.float32 && !expected, self.column_order && !expected) {
            (true, _) => float32_average_precision(row),
            (false, true) => column_order_average_precision(row),
            (false, false) => ranked_average_precision(row),
        }
    }
}

/// The average precision of one ranked row (in full, or counted) with its terms added in column
/// order, as MULAN's `AveragePrecision` loops over the relevant labels by index. Each term is
/// the same quotient as in [`ranked_average_precision`]; only the order of the additions
/// differs.
fn column_order_average_precision(row: &RankedRow<'_>) -> f64 {
    let Some(terms) = terms_in_column_order(row) else {
        return ranked_average_precision(row);
    };
    let sum = terms
        .iter()
        .fold(0.0, |sum, &(above, rank)| sum + above as f64 / rank);
    sum / row.n_relevant() as f64
}

/// The average precision of one ranked row as torchmetrics computes it in `float32`: each
/// relevant label's quotient in `float32`, in column order (torch's masked gather), their
/// `mean()` as torch's `float32` sum gives it, divided by the count in `float32`.
fn float32_average_precision(row: &RankedRow<'_>) -> f64 {
    let n = row.n_relevant();
    let Some(terms) = terms_in_column_order(row) else {
        return f64::from(ranked_average_precision(row) as f32);
    };
    let quotients: Vec<f32> = terms
        .iter()
        .map(|&(above, rank)| above as f32 / rank as f32)
        .collect();
    f64::from(torch_sum_f32(&quotients) / n as f32)
}

/// Each relevant label's (relevant labels at or above it, rank), in column order; `None` where
/// the row has neither an order nor counted columns to read the columns from.
fn terms_in_column_order(row: &RankedRow<'_>) -> Option<Vec<(usize, f64)>> {
    let gains = row.gains();
    let is_relevant = |j: &&u32| gains.get(**j as usize).is_some_and(|&g| g != 0.0);
    let mut terms: Vec<(u32, usize, f64)> = Vec::with_capacity(row.n_relevant());
    let mut relevant_so_far = 0;
    // A counted row lists its blocks' relevant columns; a full one has them in its order.
    let mut counted_columns = row.relevant_columns().map(|c| c.iter());
    for b in row.relevant_blocks() {
        relevant_so_far += b.relevant;
        let term = |&j: &u32| (j, relevant_so_far, row.rank(b));
        match counted_columns.as_mut() {
            Some(columns) => terms.extend(columns.by_ref().take(b.relevant).map(term)),
            None => {
                let members = row.order().get(b.start..b.start + b.len).unwrap_or(&[]);
                terms.extend(members.iter().filter(is_relevant).map(term));
            }
        }
    }
    if terms.len() != row.n_relevant() {
        return None;
    }
    terms.sort_unstable_by_key(|&(column, ..)| column);
    Some(
        terms
            .into_iter()
            .map(|(_, above, rank)| (above, rank))
            .collect(),
    )
}

/// The average precision of one ranked row (or column), by the formula above.
pub(crate) fn ranked_average_precision(row: &RankedRow<'_>) -> f64 {
    let mut precisions = RankedPrecisions::default();
    precisions.add(row);
    precisions.value(row.n_relevant())
}

/// The sum of the formula's precisions (under `Expected`, of their exact means) over the
/// relevant blocks of a ranking in rank order. A ranking added in consecutive parts, each with
/// its blocks placed in the whole ranking, sums the same terms in the same order as the whole:
/// the same bits.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct RankedPrecisions {
    /// The relevant labels of the blocks added so far.
    relevant: usize,
    /// Their precisions summed.
    sum: f64,
}

impl RankedPrecisions {
    /// Adds the relevant blocks of `row`, which follow those added so far.
    #[inline]
    pub(crate) fn add(&mut self, row: &RankedRow<'_>) {
        match row.sharing() == Some(RankSharing::Expected) {
            true => self.add_expected(row),
            false => self.add_ranked(row),
        }
    }

    /// The average precision of a ranking of `relevant` relevant labels, all added.
    #[inline]
    pub(crate) fn value(&self, relevant: usize) -> f64 {
        self.sum / relevant as f64
    }

    #[inline]
    fn add_ranked(&mut self, row: &RankedRow<'_>) {
        let (mut relevant_so_far, mut sum) = (self.relevant, self.sum);
        for b in row.relevant_blocks() {
            relevant_so_far += b.relevant;
            let precision = relevant_so_far as f64 / row.rank(b);
            // One term per relevant label, added one by one as every toolkit does, so that
            // the rounding matches theirs.
            for _ in 0..b.relevant {
                sum += precision;
            }
        }
        (self.relevant, self.sum) = (relevant_so_far, sum);
    }

    /// The exact mean of average precision over every ordering of the tie groups (McSherry &
    /// Najork 2008). A relevant label of a group with `r` relevant among `m` members, `o`
    /// labels and `above` relevant labels ahead of the group, sits at each position `y` of the
    /// group with probability 1/m; given `y`, the other relevant members ahead of it number
    /// `y(r−1)/(m−1)` on average (hypergeometric), and precision is linear in that number, so
    /// `E[precision] = (1/m) Σ_y (above + 1 + y(r−1)/(m−1)) / (o + 1 + y)`. O(m) per group.
    #[inline]
    fn add_expected(&mut self, row: &RankedRow<'_>) {
        let (mut above, mut sum) = (self.relevant, self.sum);
        for b in row.relevant_blocks() {
            let (r, m) = (b.relevant as f64, b.len as f64);
            let share = if b.len > 1 {
                (r - 1.0) / (m - 1.0)
            } else {
                0.0
            };
            let mut mean_precision = 0.0;
            for y in 0..b.len {
                let y = y as f64;
                mean_precision += (above as f64 + 1.0 + y * share) / (b.start as f64 + 1.0 + y);
            }
            sum += r * mean_precision / m;
            above += b.relevant;
        }
        (self.relevant, self.sum) = (above, sum);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::RankingMetric;
    use rstest::rstest;

    // scikit-learn: all-tied [[1,1,0]] gives 2/3, [[1,1,1,0]] gives 3/4.
    #[test]
    fn sklearn_only_ties() {
        let ap = AveragePrecision::new(TiePolicy::Max);
        let v = ap.evaluate(&[[1, 1, 0]], &[[0.5, 0.5, 0.5]], None).unwrap();
        assert!((v - 2.0 / 3.0).abs() < 1e-15);
        let v = ap.evaluate(&[[1, 1, 1, 0]], &[[0.5; 4]], None).unwrap();
        assert_eq!(v, 0.75);
    }

    // mldr probes: all-tied-all-relevant gives 1, 1, 1.5, 3 (last, first, average, min).
    #[rstest]
    #[case(TiePolicy::Last, 1.0)]
    #[case(TiePolicy::First, 1.0)]
    #[case(TiePolicy::Average, 1.5)]
    #[case(TiePolicy::Min, 3.0)]
    fn mldr_all_tied_all_relevant(#[case] t: TiePolicy, #[case] expected: f64) {
        let v = AveragePrecision::new(t)
            .evaluate(&[[1, 1, 1]], &[[0.3; 3]], None)
            .unwrap();
        assert_eq!(v, expected);
    }

    /// MULAN adds a row's precisions by column, the rank order gives the other last bit.
    #[test]
    fn column_order_changes_only_the_order_of_the_additions() {
        let (y, s) = ([[0, 0, 1, 1, 1]], [[0.4, 0.5, 0.1, 0.2, 0.3]]);
        let ap = AveragePrecision::new(TiePolicy::Last);
        // Ranks of columns 2, 3, 4: 5, 4, 3; precisions 3/5, 2/4, 1/3.
        let by_rank: f64 = 1.0 / 3.0 + 2.0 / 4.0 + 3.0 / 5.0;
        let by_column: f64 = 3.0 / 5.0 + 2.0 / 4.0 + 1.0 / 3.0;
        assert_eq!(ap.evaluate(&y, &s, None).unwrap(), by_rank / 3.0);
        let ap = ap.summed_in_column_order(true);
        assert_eq!(ap.evaluate(&y, &s, None).unwrap(), by_column / 3.0);
        // Shared ranks: each relevant label's term is its block's precision.
        for ties in [TiePolicy::Max, TiePolicy::Min, TiePolicy::Average] {
            let (y, s) = ([[1, 0, 1, 1]], [[0.5, 0.5, 0.9, 0.1]]);
            let a = AveragePrecision::new(ties).evaluate(&y, &s, None).unwrap();
            let b = AveragePrecision::new(ties)
                .summed_in_column_order(true)
                .evaluate(&y, &s, None)
                .unwrap();
            assert!((a - b).abs() <= 4.0 * f64::EPSILON, "{ties:?}");
        }
    }

    // mldr probe tie2-first-rel [1,0]; [.5,.5]: last 0.5, first 1, average 2/3, min 1.
    #[rstest]
    #[case(TiePolicy::Last, 0.5)]
    #[case(TiePolicy::First, 1.0)]
    #[case(TiePolicy::Average, 2.0 / 3.0)]
    #[case(TiePolicy::Min, 1.0)]
    fn mldr_tie2_first_relevant(#[case] t: TiePolicy, #[case] expected: f64) {
        let v = AveragePrecision::new(t)
            .evaluate(&[[1, 0]], &[[0.5, 0.5]], None)
            .unwrap();
        assert_eq!(v, expected);
    }
}
