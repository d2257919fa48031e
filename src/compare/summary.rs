//! A row's summary from its values: the interval over tie orders, the expectation, the spread
//! of the conventions and those outside the interval.

use super::{outside, Column};
use crate::compat::registry::TieAnalysis;
use crate::ties::TiePolicy;

/// What a row's values say about its conventions: the interval over tie orders, the exact
/// expectation, the spread of the conventions and those outside the interval. Computed from
/// `(column, value)` pairs, so that a grid whose cells were evaluated elsewhere (on many
/// workers) is summarised as [`compare`](super::compare)'s own.
///
/// # Example
/// ```
/// use rankmetrics::compare::{Column, Summary};
/// use rankmetrics::TiePolicy;
/// let values = [
///     (Column::Policy(TiePolicy::Max), 0.9),
///     (Column::Policy(TiePolicy::Min), 0.5),
///     (Column::Analysis(TiePolicy::Pessimistic), 0.6),
///     (Column::Analysis(TiePolicy::Optimistic), 0.8),
/// ];
/// let s = Summary::of(&values);
/// assert_eq!(s.interval, Some((0.6, 0.8)));
/// assert_eq!(s.spread, Some(0.9 - 0.5));
/// assert_eq!(s.outside, [Column::Policy(TiePolicy::Max), Column::Policy(TiePolicy::Min)]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The interval [pessimistic, optimistic], lower bound first.
    pub interval: Option<(f64, f64)>,
    /// The exact expectation over every ordering of the ties.
    pub expected: Option<f64>,
    /// Largest minus smallest finite value across the policies and toolkits; `None` with
    /// fewer than two.
    pub spread: Option<f64>,
    /// The conventions whose values lie outside the interval (beyond rounding), in order.
    pub outside: Vec<Column>,
}

impl Summary {
    /// The summary of a row's `(column, value)` pairs (a column's first pair counts).
    pub fn of(values: &[(Column, f64)]) -> Summary {
        let value = |column| values.iter().find(|(c, _)| *c == column).map(|&(_, v)| v);
        let interval = value(Column::Analysis(TiePolicy::Pessimistic))
            .zip(value(Column::Analysis(TiePolicy::Optimistic)))
            .map(|(p, o)| (p.min(o), p.max(o)));
        let conventions: Vec<(Column, f64)> = values
            .iter()
            .copied()
            .filter(|&(c, v)| c.is_convention() && v.is_finite())
            .collect();
        let finite = conventions.iter().map(|&(_, v)| v);
        let spread = match (finite.clone().reduce(f64::max), finite.reduce(f64::min)) {
            (Some(max), Some(min)) if conventions.len() >= 2 => Some(max - min),
            _ => None,
        };
        let outside = match interval {
            Some(i) => conventions
                .iter()
                .filter(|&&(_, v)| outside(v, i))
                .map(|&(c, _)| c)
                .collect(),
            None => Vec::new(),
        };
        Summary {
            interval,
            expected: value(Column::Analysis(TiePolicy::Expected)),
            spread,
            outside,
        }
    }

    /// The summary as `tie` allows it: no convention is said to lie outside an interval whose
    /// ends are not proven ([`TieAnalysis::ends_unproven`]), which may be narrower than the
    /// true one.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{Column, Summary};
    /// use rankmetrics::registry::TieAnalysis;
    /// use rankmetrics::TiePolicy;
    /// let values = [
    ///     (Column::Policy(TiePolicy::Max), 0.9),
    ///     (Column::Analysis(TiePolicy::Pessimistic), 0.6),
    ///     (Column::Analysis(TiePolicy::Optimistic), 0.8),
    /// ];
    /// let unproven = TieAnalysis { ends_unproven: Some("weights"), expected_missing: None };
    /// assert!(Summary::of(&values).within(&unproven).outside.is_empty());
    /// ```
    pub fn within(mut self, tie: &TieAnalysis) -> Summary {
        if tie.ends_unproven.is_some() {
            self.outside.clear();
        }
        self
    }
}
