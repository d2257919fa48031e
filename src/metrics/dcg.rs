//! Discounted cumulative gain.

use std::cell::RefCell;

use crate::error::{Error, LabelDomain};
use crate::kernel::{Block, RankedRow};
use crate::metrics::row_option_builders;
use crate::row::metric::{RowMetric, RowOptions, RowRule};
use crate::ties::{RankSharing, TiePolicy};
use crate::validate::check_log_base;

/// Discounted cumulative gain (DCG): the gains (label values, not 2^y − 1) of a row, each
/// discounted by the position the ranking puts it at.
///
/// Per row, with positions 1-based and `k` the truncation (no truncation by default):
///
/// ```text
/// d_r = 1 / (ln(r + 1) / ln(log_base))   for r ≤ k,   0 for r > k
/// DCG = Σ_labels gain(λ) · d_{position(λ)}
/// ```
///
/// `d_r` is computed exactly in that form, as scikit-learn does. A tie group occupying the
/// positions `o+1 ..= o+m` is placed by the tie policy:
///
/// * `Average`: each member gets the mean discount of the group, so the group contributes
///   `mean(gains) × (d_{o+1} + … + d_{o+m})` (McSherry & Najork's tie-averaged DCG, the mean
///   over every order of the ties; scikit-learn's default and torchmetrics'). A group that
///   straddles `k` gets only the discounts inside `k`.
/// * `First` / `Last` / `Random`: the members take the positions one by one in that order.
///   scikit-learn's `ignore_ties=True` (a stable argsort, reversed: among ties the higher column
///   comes first) is `Last`.
/// * `Max`: every member gets the discount of the worst position `o+m`; `Min`: of the best,
///   `o+1`. These are this crate's extensions (no toolkit uses them).
///
/// Gains may be any finite number, negative ones included (as in scikit-learn); a row without
/// a non-zero gain scores 0 by the formula.
///
/// # Example
/// ```
/// use rankmetrics::{Dcg, RankingMetric, TiePolicy};
/// // scikit-learn's docstring: the two top scores tie, so k = 1 gets their mean gain.
/// let (gains, scores) = ([[10, 0, 0, 1, 5]], [[1.0, 0.0, 0.0, 0.0, 1.0]]);
/// let dcg = Dcg::new(TiePolicy::Average).with_k(Some(1)).unwrap();
/// assert_eq!(dcg.evaluate(&gains, &scores, None).unwrap(), 7.5);
/// // Ties broken one way or the other bound the average.
/// assert_eq!(dcg.with_ties(TiePolicy::First).evaluate(&gains, &scores, None).unwrap(), 10.0);
/// assert_eq!(dcg.with_ties(TiePolicy::Last).evaluate(&gains, &scores, None).unwrap(), 5.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(alias("dcg_score", "dcg", "DCG"))]
pub struct Dcg {
    options: RowOptions,
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "super::checked::optional_top_k")
    )]
    k: Option<usize>,
    #[cfg_attr(
        feature = "serde",
        serde(
            serialize_with = "crate::state_format::f64_bits::serialize",
            deserialize_with = "super::checked::log_base"
        )
    )]
    log_base: f64,
}

impl Dcg {
    /// DCG with the given tie policy, no truncation, base 2, any finite gain.
    pub const fn new(ties: TiePolicy) -> Self {
        let mut options = RowOptions::new(ties, RowRule::Formula, RowRule::Formula);
        options.labels = LabelDomain::NonZero;
        Dcg {
            options,
            k: None,
            log_base: 2.0,
        }
    }

    /// The same metric counting only the top `k` positions (`None`: all).
    ///
    /// # Errors
    /// [`Error::InvalidK`] for `Some(0)`.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Dcg, Error, TiePolicy};
    /// assert_eq!(Dcg::new(TiePolicy::Average).with_k(Some(3)).unwrap().k(), Some(3));
    /// assert_eq!(Dcg::new(TiePolicy::Average).with_k(Some(0)), Err(Error::InvalidK { value: 0 }));
    /// ```
    pub const fn with_k(mut self, k: Option<usize>) -> Result<Self, Error> {
        // A const fn cannot drop an Error (Error::Lookup owns text): build it only to return it.
        match k {
            Some(0) => Err(Error::InvalidK { value: 0 }),
            k => {
                self.k = k;
                Ok(self)
            }
        }
    }

    /// The same metric with another logarithm base for the discount.
    ///
    /// # Errors
    /// [`Error::InvalidLogBase`] unless `log_base` is finite and greater than 1. (scikit-learn
    /// also takes bases in (0, 1], which make every discount 0 or negative.)
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Dcg, RankingMetric, TiePolicy};
    /// let dcg = Dcg::new(TiePolicy::Average).with_log_base(10.0).unwrap();
    /// // The gain at position 2 is discounted by log10(3).
    /// let v = dcg.evaluate(&[[0, 1]], &[[0.9, 0.1]], None).unwrap();
    /// assert!((v - 1.0 / 3f64.log10()).abs() < 1e-15);
    /// assert!(dcg.with_log_base(1.0).is_err());
    /// ```
    pub fn with_log_base(mut self, log_base: f64) -> Result<Self, Error> {
        self.log_base = check_log_base(log_base)?;
        Ok(self)
    }

    /// The truncation: only positions `1..=k` count (`None`: all).
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::Dcg::new(rankmetrics::TiePolicy::Average).k(), None);
    /// ```
    pub const fn k(&self) -> Option<usize> {
        self.k
    }

    /// The logarithm base of the discount.
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::Dcg::new(rankmetrics::TiePolicy::Average).log_base(), 2.0);
    /// ```
    pub const fn log_base(&self) -> f64 {
        self.log_base
    }
}

row_option_builders!(Dcg);

impl RowMetric for Dcg {
    fn options(&self) -> RowOptions {
        self.options
    }

    fn reads_only_relevant_blocks(&self) -> bool {
        true
    }

    fn top_k(&self) -> Option<usize> {
        self.k
    }

    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        discounted_gain(row, self.k, self.log_base)
    }
}

/// The DCG of a ranked row: each block's gain spread evenly over its members, each member
/// discounted as the tie policy places it (see [`Dcg`]).
pub(crate) fn discounted_gain(row: &RankedRow<'_>, k: Option<usize>, log_base: f64) -> f64 {
    discounted(row, k, log_base, |b| b.gain)
}

/// The DCG of a per-block weight: the gain for [`Dcg`], the number of relevant labels for
/// nDCG@k on binary relevance. Each block's weight is spread evenly over its members, each
/// member discounted as the tie policy places it; blocks from position `k + 1` on are not read.
pub(crate) fn discounted(
    row: &RankedRow<'_>, k: Option<usize>, log_base: f64, weight: impl Fn(&Block) -> f64,
) -> f64 {
    let k = k.unwrap_or(usize::MAX);
    let sum = |table: &mut Discounts| {
        let table = table.at(log_base);
        let mut discount = |r: usize| if r > k { 0.0 } else { table.get(r) };
        let mut dcg = 0.0;
        // Blocks without a relevant label have gain 0: they add nothing.
        for b in row.relevant_blocks() {
            let (first, last, len) = (b.start + 1, b.start + b.len, b.len as f64);
            if first > k {
                break; // every later position is discounted to 0
            }
            // The sum of the discounts the members get.
            let discounts: f64 = match row.sharing() {
                Some(RankSharing::Average | RankSharing::Expected) => {
                    (first..=last.min(k)).map(&mut discount).sum()
                }
                Some(RankSharing::Max) => len * discount(last),
                Some(RankSharing::Min) | None => len * discount(first),
            };
            // scikit-learn's form: mean gain of the group times its discount sum.
            dcg += weight(b) / len * discounts;
        }
        dcg
    };
    DISCOUNTS.with(|table| match table.try_borrow_mut() {
        Ok(mut table) => sum(&mut table),
        // Only reachable by re-entrance, which nothing here does; stay panic-free anyway.
        Err(_) => sum(&mut Discounts::default()),
    })
}

/// Σ discount(r) over `positions` at `log_base`, in order (the same bits as summing
/// [`discount`] afresh).
pub(crate) fn discount_sum(positions: std::ops::RangeInclusive<usize>, log_base: f64) -> f64 {
    let sum = |table: &mut Discounts| {
        let table = table.at(log_base);
        positions.clone().map(|r| table.get(r)).sum()
    };
    DISCOUNTS.with(|table| match table.try_borrow_mut() {
        Ok(mut table) => sum(&mut table),
        Err(_) => sum(&mut Discounts::default()),
    })
}

thread_local! {
    /// The discounts of the last log base used, kept across rows: a logarithm per position
    /// and row otherwise.
    static DISCOUNTS: RefCell<Discounts> = RefCell::new(Discounts::default());
}

/// [`discount`] of positions `0..table.len()` at one log base, computed once.
#[derive(Debug, Default)]
struct Discounts {
    log_base_bits: u64,
    ln_base: f64,
    table: Vec<f64>,
}

impl Discounts {
    /// Positions up to this are tabled; later ones are computed when asked for.
    const TABLED: usize = 1 << 12;

    /// The table for `log_base` (emptied when the base changes).
    fn at(&mut self, log_base: f64) -> &mut Self {
        if self.log_base_bits != log_base.to_bits() || self.table.is_empty() {
            self.log_base_bits = log_base.to_bits();
            self.ln_base = log_base.ln();
            self.table.clear();
        }
        self
    }

    /// [`discount`]`(r, ln base)`, the same bits as computed afresh.
    fn get(&mut self, r: usize) -> f64 {
        if r >= self.table.len() && r < Self::TABLED {
            let ln_base = self.ln_base;
            let from = self.table.len();
            self.table.extend((from..=r).map(|p| discount(p, ln_base)));
        }
        match self.table.get(r) {
            Some(&d) => d,
            None => discount(r, self.ln_base),
        }
    }
}

/// The discount of 1-based position `r`, `1 / log_base(r + 1)`, in scikit-learn's form
/// (`ln_base` is the natural logarithm of the base).
pub(crate) fn discount(r: usize, ln_base: f64) -> f64 {
    1.0 / ((r as f64 + 1.0).ln() / ln_base)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::RankingMetric;
    use rstest::rstest;

    const GAINS: [[i32; 5]; 1] = [[10, 0, 0, 1, 5]];

    // scikit-learn's dcg_score docstring.
    #[test]
    fn sklearn_docstring() {
        let dcg = Dcg::new(TiePolicy::Average);
        let v = dcg
            .evaluate(&GAINS, &[[0.1, 0.2, 0.3, 4.0, 70.0]], None)
            .unwrap();
        assert!((v - 9.499_457_825_916_874).abs() < 1e-12, "{v}");
        let v = dcg.evaluate(&GAINS, &[[1.0; 5]], None).unwrap();
        assert!((v - 9.435_069_180_414_054).abs() < 1e-12, "{v}");
    }

    // One group of five tied labels, gains summing to 16, k = 3: each policy's discounts.
    #[rstest]
    #[case(TiePolicy::Average, 16.0 / 5.0 * (1.0 + 1.0 / 3f64.log2() + 0.5))]
    #[case(TiePolicy::Min, 16.0)]
    #[case(TiePolicy::Max, 0.0)]
    #[case(TiePolicy::First, 10.0)]
    #[case(TiePolicy::Last, 5.0 + 1.0 / 3f64.log2())]
    fn policies_on_one_group_straddling_k(#[case] t: TiePolicy, #[case] expected: f64) {
        let dcg = Dcg::new(t).with_k(Some(3)).unwrap();
        let v = dcg.evaluate(&GAINS, &[[0.5; 5]], None).unwrap();
        assert!((v - expected).abs() < 1e-12, "{t:?}: {v} vs {expected}");
    }

    #[test]
    fn negative_gains_count() {
        let v = Dcg::new(TiePolicy::Average)
            .evaluate(&[[-1.0, 2.0]], &[[0.9, 0.1]], None)
            .unwrap();
        assert!((v - (-1.0 + 2.0 / 3f64.log2())).abs() < 1e-15);
    }
}
