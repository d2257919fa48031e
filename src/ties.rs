//! How tied scores are ranked: [`TiePolicy`] and [`TieGrouping`].

use crate::names::UnknownName;

/// How labels with equal scores are ranked. Ranks are 1-based, 1 = highest score; a tie group
/// occupies the ranks `o+1 ..= o+m`. Names follow R's `rank(ties.method = ...)`.
///
/// * Rank-sharing policies give every member of a group the same rank: [`Max`](Self::Max),
///   [`Min`](Self::Min), [`Average`](Self::Average).
/// * Ordering policies break the group into a strict order: [`First`](Self::First),
///   [`Last`](Self::Last), [`Random`](Self::Random).
///
/// For metrics that compare a relevant with an irrelevant label inside one group (ranking
/// loss, one-error, is-error), a rank-sharing policy decides the pair as each label sees
/// itself: `Max` places it below (the pair is mis-ordered, scikit-learn's rule), `Min` above (not
/// mis-ordered), `Average` counts the pair ½. docs/conventions.md has the table per metric.
///
/// # Example
/// ```
/// use rankmetrics::{Coverage, RankingMetric, TiePolicy};
/// // Labels 0 and 1 tie; label 0 is the relevant one.
/// let (y, s) = ([[1, 0, 0]], [[0.5, 0.5, 0.1]]);
/// let cov = |t| Coverage::new(t).evaluate(&y, &s, None).unwrap();
/// assert_eq!(cov(TiePolicy::Max), 1.0); // rank 2, minus one
/// assert_eq!(cov(TiePolicy::Min), 0.0); // rank 1
/// assert_eq!(cov(TiePolicy::Average), 0.5);
/// assert_eq!(cov(TiePolicy::First), 0.0); // lower column first
/// assert_eq!(cov(TiePolicy::Last), 1.0); // higher column first (MULAN, mldr's default)
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TiePolicy {
    /// Every member gets `o+m`, the worst rank of the group (scikit-learn's coverage, LRAP and
    /// ranking loss; R's `"max"`).
    Max,
    /// Every member gets `o+1`, the best rank of the group (R's `"min"`).
    Min,
    /// Every member gets the mean rank `o + (m+1)/2` (R's `"average"`).
    Average,
    /// Members ranked in column order: the lower column index ranks higher (R's `"first"`).
    First,
    /// Members ranked in reverse column order: the higher column index ranks higher (MULAN;
    /// R's `"last"`, mldr's default).
    Last,
    /// A uniformly random order inside each group, reproducible from the seed. Each row draws
    /// from its own stream (seed and row index), so the result does not depend on how rows are
    /// split into batches.
    Random(u64),
    /// The exact mean of the metric over every ordering of every tie group (each ordering
    /// equally likely, rows independent), in closed form: no sampling. docs/ties.md gives the
    /// formula per metric.
    Expected,
    /// Inside every group, relevant labels (higher gains) first: the best value any ordering of
    /// the ties can give (docs/ties.md has the proof, and the one exception).
    Optimistic,
    /// Inside every group, relevant labels (higher gains) last: the worst value any ordering of
    /// the ties can give.
    Pessimistic,
}

impl TiePolicy {
    /// The five deterministic policies of R's `ties.method`, in a fixed order.
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::TiePolicy::R_METHODS.len(), 5);
    /// ```
    pub const R_METHODS: [TiePolicy; 5] = [
        TiePolicy::Max,
        TiePolicy::Min,
        TiePolicy::Average,
        TiePolicy::First,
        TiePolicy::Last,
    ];

    /// The tie analysis: the worst value, the exact expectation and the best value over every
    /// ordering of the ties.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::TiePolicy;
    /// assert_eq!(TiePolicy::ANALYSIS, [TiePolicy::Pessimistic, TiePolicy::Expected, TiePolicy::Optimistic]);
    /// ```
    pub const ANALYSIS: [TiePolicy; 3] = [
        TiePolicy::Pessimistic,
        TiePolicy::Expected,
        TiePolicy::Optimistic,
    ];

    /// The policy's name: as R spells it (`"max"`, `"min"`, `"average"`, `"first"`, `"last"`,
    /// `"random"`), or `"expected"`, `"optimistic"`, `"pessimistic"`.
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::TiePolicy::Last.name(), "last");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            TiePolicy::Max => "max",
            TiePolicy::Min => "min",
            TiePolicy::Average => "average",
            TiePolicy::First => "first",
            TiePolicy::Last => "last",
            TiePolicy::Random(_) => "random",
            TiePolicy::Expected => "expected",
            TiePolicy::Optimistic => "optimistic",
            TiePolicy::Pessimistic => "pessimistic",
        }
    }

    /// The names [`parse`](Self::parse) reads, `random:SEED` standing for a seeded random
    /// policy.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::TiePolicy;
    /// assert!(TiePolicy::NAMES.iter().all(|n| TiePolicy::parse(&n.replace("SEED", "7")).is_some()));
    /// ```
    pub const NAMES: [&'static str; 10] = [
        "max",
        "min",
        "average",
        "first",
        "last",
        "random",
        "random:SEED",
        "expected",
        "optimistic",
        "pessimistic",
    ];

    /// Parses a policy name (see [`name`](Self::name)); `"random"` takes seed 0,
    /// `"random:SEED"` a given seed.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::TiePolicy;
    /// assert_eq!(TiePolicy::parse("first"), Some(TiePolicy::First));
    /// assert_eq!(TiePolicy::parse("random:7"), Some(TiePolicy::Random(7)));
    /// assert_eq!(TiePolicy::parse("dense"), None);
    /// ```
    pub fn parse(name: &str) -> Option<TiePolicy> {
        Some(match name {
            "max" => TiePolicy::Max,
            "min" => TiePolicy::Min,
            "average" => TiePolicy::Average,
            "first" => TiePolicy::First,
            "last" => TiePolicy::Last,
            "random" => TiePolicy::Random(0),
            "expected" => TiePolicy::Expected,
            "optimistic" => TiePolicy::Optimistic,
            "pessimistic" => TiePolicy::Pessimistic,
            _ => TiePolicy::Random(name.strip_prefix("random:")?.parse().ok()?),
        })
    }

    /// How a rank-sharing policy shares, or `None` for an ordering policy.
    pub(crate) fn sharing(self) -> Option<RankSharing> {
        match self {
            TiePolicy::Max => Some(RankSharing::Max),
            TiePolicy::Min => Some(RankSharing::Min),
            TiePolicy::Average => Some(RankSharing::Average),
            TiePolicy::Expected => Some(RankSharing::Expected),
            TiePolicy::First
            | TiePolicy::Last
            | TiePolicy::Random(_)
            | TiePolicy::Optimistic
            | TiePolicy::Pessimistic => None,
        }
    }
}

/// Prints the policy as [`TiePolicy::from_str`](core::str::FromStr::from_str) reads it: its
/// [`name`](TiePolicy::name), with the seed for [`TiePolicy::Random`] (`"random:7"`).
///
/// # Example
/// ```
/// use rankmetrics::TiePolicy;
/// assert_eq!(TiePolicy::Max.to_string(), "max");
/// assert_eq!(TiePolicy::Random(7).to_string(), "random:7");
/// ```
impl core::fmt::Display for TiePolicy {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            TiePolicy::Random(seed) => write!(f, "random:{seed}"),
            t => f.write_str(t.name()),
        }
    }
}

/// Reads a policy name as [`TiePolicy::parse`] does; every printed policy reads back. Any other
/// text is an [`UnknownName`] that lists the names.
///
/// # Example
/// ```
/// use rankmetrics::TiePolicy;
/// assert_eq!("random:7".parse::<TiePolicy>(), Ok(TiePolicy::Random(7)));
/// for t in [TiePolicy::Expected, TiePolicy::Random(u64::MAX)] {
///     assert_eq!(t.to_string().parse::<TiePolicy>(), Ok(t));
/// }
/// assert_eq!("dense".parse::<TiePolicy>().unwrap_err().to_string(),
///     "unknown tie policy \"dense\"; expected max, min, average, first, last, random, \
///      random:SEED, expected, optimistic or pessimistic");
/// ```
impl core::str::FromStr for TiePolicy {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TiePolicy::parse(s).ok_or_else(|| UnknownName::new("tie policy", s, &TiePolicy::NAMES))
    }
}

/// A tie policy name that [`TiePolicy::parse`] does not know: the [`UnknownName`] of every
/// setting, under the name it had before.
///
/// # Example
/// ```
/// let e: rankmetrics::ParseTiePolicyError = "dense".parse::<rankmetrics::TiePolicy>().unwrap_err();
/// assert_eq!(e.text(), "dense");
/// ```
pub type ParseTiePolicyError = UnknownName;

/// How a rank-sharing policy ranks a whole tie group; see [`TiePolicy`].
///
/// # Example
/// ```
/// use rankmetrics::RankSharing;
/// assert_eq!(RankSharing::Average.tied_pair_error(), 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RankSharing {
    /// The worst rank of the group; a tied relevant/irrelevant pair is mis-ordered.
    Max,
    /// The best rank of the group; a tied pair is not mis-ordered.
    Min,
    /// The mean rank of the group; a tied pair counts ½.
    Average,
    /// Not a shared rank but every ordering of the group at once ([`TiePolicy::Expected`]):
    /// metrics take the exact expectation over the orderings. A member's expected rank is the
    /// group's mean rank, and a tied pair is mis-ordered with probability ½.
    Expected,
}

impl RankSharing {
    /// How much a tied relevant/irrelevant pair counts as mis-ordered: 1, 0 or ½.
    pub fn tied_pair_error(self) -> f64 {
        match self {
            RankSharing::Max => 1.0,
            RankSharing::Min => 0.0,
            RankSharing::Average | RankSharing::Expected => 0.5,
        }
    }
}

/// Which scores form a tie group.
///
/// # Example
/// ```
/// use rankmetrics::{mulan, RankingMetric, TieGrouping};
/// // MULAN as shipped (Weka 3.7) ties 0.5000001 with 0.5; Weka 3.9 does not.
/// let (y, s) = ([[0, 1, 0]], [[0.5000001, 0.5, 0.1]]);
/// assert_eq!(mulan::RankingLoss.evaluate(&y, &s, None).unwrap(), 0.0);
/// let weka39 = mulan::RankingLoss.with_grouping(TieGrouping::Exact);
/// assert_eq!(weka39.evaluate(&y, &s, None).unwrap(), 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TieGrouping {
    /// Scores tie when they are equal (`==`; so `-0.0` ties with `0.0`).
    Exact,
    /// Weka's `Utils.stableSort` before August 2018 (what MULAN ships with): scores are walked
    /// in ascending order, and every score less than `eps` above the current group's first
    /// (smallest) score joins that group. The rule is not transitive: with `eps = 1e-6`,
    /// 0.5, 0.5000007 and 0.5000014 form {0.5, 0.5000007} and {0.5000014}.
    Within(#[cfg_attr(feature = "serde", serde(with = "crate::state_format::f64_bits"))] f64),
}

impl TieGrouping {
    /// Weka's tolerance, `Utils.SMALL = 1e-6`.
    pub const WEKA: TieGrouping = TieGrouping::Within(1e-6);
}

/// What the tie-analysis policies of a metric guarantee on a given input: each field is
/// `None` where the guarantee holds, or says why it does not.
///
/// Where `ends_unproven` is `None`, `Optimistic` and `Pessimistic` are the best and the worst
/// value over every ordering of the ties (the exchange argument of docs/ties.md, checked
/// against full enumeration). Where it says why, they are still values of orderings, so they
/// lie inside the interval, but they are not proven to be its ends. Where `expected_missing`
/// says why, `Expected` has no closed form and the preset refuses it
/// ([`Error::UnsupportedPolicy`](crate::Error::UnsupportedPolicy)); never an approximation.
///
/// # Example
/// ```
/// use rankmetrics::registry::{Convention, Preset};
/// let lookup = |c, m| Preset::lookup(c, m, Preset::NO_PARAMS, None).unwrap();
/// let lrap = lookup(Convention::Sklearn, "label_ranking_average_precision_score");
/// assert!(lrap.tie_analysis(true).is_exact());
/// let ap = lookup(Convention::Sklearn, "average_precision_score");
/// assert!(ap.tie_analysis(false).is_exact());
/// let weighted = ap.tie_analysis(true);
/// assert!(weighted.ends_unproven.is_some() && weighted.expected_missing.is_some());
/// let maip = lookup(Convention::Mulan, "MeanAverageInterpolatedPrecision").tie_analysis(false);
/// assert_eq!((maip.ends_unproven, maip.expected_missing.is_some()), (None, true));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TieAnalysis {
    /// Why `Optimistic` and `Pessimistic` are not proven to be the interval's ends.
    pub ends_unproven: Option<&'static str>,
    /// Why `Expected` has no closed form.
    pub expected_missing: Option<&'static str>,
}

impl TieAnalysis {
    /// Both guarantees: the interval's ends are proven and `Expected` is exact (every
    /// row-wise metric, with or without weights).
    pub const EXACT: TieAnalysis = TieAnalysis {
        ends_unproven: None,
        expected_missing: None,
    };

    /// Both guarantees hold: the interval's ends are proven and `Expected` is exact.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::TieAnalysis;
    /// let exact = TieAnalysis { ends_unproven: None, expected_missing: None };
    /// assert!(exact.is_exact());
    /// ```
    pub fn is_exact(&self) -> bool {
        self.ends_unproven.is_none() && self.expected_missing.is_none()
    }

    /// Why a value under `ties` is not a proven end of the interval over tie orders: `ties` is
    /// [`TiePolicy::Optimistic`] or [`TiePolicy::Pessimistic`] and the ends are not proven.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{TieAnalysis, TiePolicy};
    /// let t = TieAnalysis { ends_unproven: Some("weights"), expected_missing: None };
    /// assert_eq!(t.end_under(TiePolicy::Optimistic), Some("weights"));
    /// assert_eq!(t.end_under(TiePolicy::Max), None);
    /// ```
    pub fn end_under(&self, ties: TiePolicy) -> Option<&'static str> {
        match ties {
            TiePolicy::Optimistic | TiePolicy::Pessimistic => self.ends_unproven,
            _ => None,
        }
    }

    /// What the front doors print beside an interval or expected value that is not exact:
    /// both reasons in one text; `None` where both guarantees hold.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let p = Preset::lookup(Convention::Mulan, "MeanAverageInterpolatedPrecision", Preset::NO_PARAMS, None);
    /// let note = p.unwrap().tie_analysis(false).note().unwrap();
    /// assert!(note.starts_with("no expected value: the running maximum"));
    /// ```
    pub fn note(&self) -> Option<String> {
        let ends = self
            .ends_unproven
            .map(|why| format!("interval ends not proven: {why}"));
        let expected = self
            .expected_missing
            .map(|why| format!("no expected value: {why}"));
        match (ends, expected) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        }
    }
}
