//! Which convention produced a reported value: every metric of every convention, under every
//! tie policy and the parameters researchers usually set, evaluated on the data at once
//! (one [`evaluate_all`] call, each row ranked once for every candidate), and those whose
//! value rounds to the reported one listed, each with the interval over tie orders and the
//! expected value of its quantity.
//!
//! # Example
//! ```
//! use rankmetrics::identify::{identify, Reported};
//! let (y, s) = ([[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.3, 0.3, 0.3]]);
//! // A paper reports a ranking loss of 0.625, to three digits.
//! let reported = [Reported::parse("0.625").unwrap()];
//! let found = identify(&y, &s, None, &reported, rankmetrics::identify::Family::parse("ranking_loss")).unwrap();
//! let names: Vec<String> = found[0].matches.iter().map(|m| m.label()).collect();
//! assert_eq!(names, ["rankmetrics ranking_loss ties=average", "rankmetrics ranking_loss ties=expected"]);
//! assert_eq!(found[0].interval, Some((0.25, 1.0)));
//! ```

mod families;
mod grid;
mod reported;
mod text;

pub use families::{Family, FAMILIES};
pub use grid::Candidate;
pub use reported::{ParseReportedError, Reported};
pub use text::{table, HEADER};

use crate::compat::registry::{evaluate_all, TieAnalysis};
use crate::error::Error;
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::score::Score;
use grid::Reference;

/// A metric whose value rounds to the reported one.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    /// The metric, its parameters and tie policy.
    pub candidate: Candidate,
    /// Its value on the data.
    pub value: f64,
    /// Where its quantity's values lie over every order of the tied scores, if a preset
    /// computes it under every order.
    pub range: Option<TieRange>,
}

impl Match {
    /// The match in one line: convention, metric, the parameters the search set and the tie
    /// policy (`ties=` only for rankmetrics' own metrics).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::identify::{identify, Reported};
    /// let found = identify(&[[1, 0]], &[[0.9, 0.1]], None, &[Reported::parse("1").unwrap()], None).unwrap();
    /// assert_eq!(found[0].matches[0].label(), "rankmetrics coverage one_based=true ties=max");
    /// ```
    pub fn label(&self) -> String {
        let c = &self.candidate;
        let mut words = vec![
            c.preset.convention().name().to_string(),
            c.preset.name().to_string(),
        ];
        words.extend(self.params_text());
        if let Some(t) = c.ties {
            words.push(format!("ties={}", t.name()));
        }
        words.join(" ")
    }

    /// The parameters the search set, as `key=value` words.
    pub fn params_text(&self) -> Vec<String> {
        let params = self.candidate.params.iter();
        params.map(|(k, v)| format!("{k}={v}")).collect()
    }
}

/// The interval over tie orders and the expected value of a quantity, from the rankmetrics
/// metric that computes it under every order.
#[derive(Debug, Clone, PartialEq)]
pub struct TieRange {
    /// The metric whose tie analysis this is, as `convention metric key=value...`.
    pub reference: String,
    /// The smallest and largest value over every order of the ties.
    pub interval: Option<(f64, f64)>,
    /// The exact mean over every order.
    pub expected: Option<f64>,
    /// What the interval and the expected value guarantee on this input.
    pub tie_analysis: TieAnalysis,
}

/// What [`identify`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Identification {
    /// The value searched for.
    pub reported: Reported,
    /// The family searched, if one was given.
    pub family: Option<&'static Family>,
    /// Every candidate whose value rounds to the reported one, in the order of
    /// [`FAMILIES`], each family's conventions, parameters and tie policies.
    pub matches: Vec<Match>,
    /// When nothing matches, the three candidates closest to the reported value (closest
    /// first); empty otherwise.
    pub closest: Vec<Match>,
    /// How many candidates were evaluated.
    pub candidates: usize,
    /// The interval of the quantity: the searched family's (with its default parameters)
    /// when one is given, else the one every match shares; `None` when the matches lie in
    /// several.
    pub interval: Option<(f64, f64)>,
    /// The expected value of that quantity.
    pub expected: Option<f64>,
    /// The metric whose tie analysis gives `interval` and `expected`.
    pub reference: Option<String>,
}

/// For each of `reported`, every candidate of `family` (every family when `None`) whose
/// value on the data rounds to it, with the interval and expected value of its quantity: one
/// [`Identification`] per reported value, in order, from one evaluation of the candidates
/// (the values of a paper's table row, searched at once).
///
/// # Errors
/// The input's error (shapes, values, weights) when no candidate could be evaluated.
///
/// # Example
/// ```
/// use rankmetrics::identify::{identify, Family, Reported};
/// let (y, s) = ([[1, 0, 1], [0, 1, 1]], [[0.9, 0.9, 0.2], [0.4, 0.3, 0.3]]);
/// // Rows 7/12 and 2/3 under scikit-learn's rule (tied labels all take the worst rank).
/// let found = identify(&y, &s, None, &[Reported::parse("0.625").unwrap()], Family::parse("lrap")).unwrap();
/// let labels: Vec<String> = found[0].matches.iter().map(|m| m.label()).collect();
/// assert!(labels.contains(&"sklearn label_ranking_average_precision_score".to_string()));
/// assert!(labels.contains(&"rankmetrics average_precision ties=max".to_string()));
/// ```
pub fn identify<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    y_true: &Y, y_score: &S, weights: Option<&[f64]>, reported: &[Reported],
    family: Option<&'static Family>,
) -> Result<Vec<Identification>, Error> {
    search(y_score, weights.is_some(), reported, family, |presets| {
        evaluate_all(presets, y_true, y_score, weights)
    })
}

/// [`identify`] on the threads of the current rayon pool (feature `rayon`); the matches are
/// [`identify`]'s.
///
/// # Errors
/// As [`identify`].
///
/// # Example
/// ```
/// use rankmetrics::identify::{identify, identify_parallel, Reported};
/// let (y, s, r) = ([[1, 0], [0, 1]], [[0.5, 0.5], [0.2, 0.9]], [Reported::parse("0.75").unwrap()]);
/// assert_eq!(identify(&y, &s, None, &r, None), identify_parallel(&y, &s, None, &r, None));
/// ```
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub fn identify_parallel<T, Y, S>(
    y_true: &Y, y_score: &S, weights: Option<&[f64]>, reported: &[Reported],
    family: Option<&'static Family>,
) -> Result<Vec<Identification>, Error>
where
    T: Score,
    Y: LabelMatrix + Sync + ?Sized,
    S: ScoreMatrix<T> + Sync + ?Sized,
{
    search(y_score, weights.is_some(), reported, family, |presets| {
        crate::compat::registry::evaluate_all_parallel(presets, y_true, y_score, weights)
    })
}

/// The search on `y_score`'s shape, every preset evaluated by `evaluate` in one call.
/// torchmetrics' sigmoid kernels are tried only where it applies its sigmoid to these scores
/// (some lies outside [0, 1]): only then do their last bits count.
fn search<T: Score, S: ScoreMatrix<T> + ?Sized>(
    y_score: &S, weighted: bool, reported: &[Reported], family: Option<&'static Family>,
    evaluate: impl FnOnce(&[crate::registry::Preset]) -> Vec<Result<f64, Error>>,
) -> Result<Vec<Identification>, Error> {
    let sigmoid = crate::torchmetrics::Logits::new(y_score).is_ok_and(|l| l.applies_sigmoid());
    let labels = y_score.ncols();
    let (candidates, reference_of, mut references) = grid::candidates(family, labels, sigmoid);
    // The searched family's quantity, with its default parameters: evaluated too where no
    // candidate's reference is it (the grid sets parameters such as `average` explicitly).
    let family_reference = family.and_then(|f| {
        let (convention, metric) = f.members[0];
        let default = families::reference(convention, metric, &[])
            .and_then(|(c, m, p)| Reference::new(c, m, p))?;
        Some(match references.iter().position(|x| *x == default) {
            Some(i) => i,
            None => {
                references.push(default);
                references.len() - 1
            }
        })
    });
    let mut presets: Vec<crate::registry::Preset> =
        candidates.iter().map(|c| c.preset.clone()).collect();
    presets.extend(references.iter().flat_map(|r| r.presets.iter().cloned()));
    let results = evaluate(&presets);
    let (own, analysis) = results.split_at(candidates.len());
    if let Some(Err(e)) = own.first().filter(|_| own.iter().all(Result::is_err)) {
        return Err(e.clone());
    }
    let ranges: Vec<TieRange> = references
        .iter()
        .zip(analysis.chunks(3))
        .map(|(r, values)| tie_range(r, values, weighted))
        .collect();
    let family_range = family_reference.map(|i| ranges[i].clone());
    let evaluated = || {
        candidates.iter().zip(own).zip(&reference_of).filter_map(
            |((candidate, value), reference)| {
                let value = *value.as_ref().ok().filter(|v| v.is_finite())?;
                Some((candidate, value, *reference))
            },
        )
    };
    let to_match = |(candidate, value, reference): (&Candidate, f64, Option<usize>)| Match {
        candidate: candidate.clone(),
        value,
        range: reference.map(|i| ranges[i].clone()),
    };
    let identification = |reported: Reported| {
        let matches: Vec<Match> = evaluated()
            .filter(|&(_, v, _)| reported.contains(v))
            .map(to_match)
            .collect();
        let mut closest = Vec::new();
        if matches.is_empty() {
            let mut all: Vec<_> = evaluated().collect();
            let distance = |v: f64| (v - reported.value).abs();
            all.sort_by(|a, b| distance(a.1).total_cmp(&distance(b.1)));
            closest = all.into_iter().take(3).map(to_match).collect();
        }
        // Without a family, the quantity every match shares, if they share one.
        let range = family_range.clone().or_else(|| {
            let mut shared = matches.iter().map(|m| m.range.as_ref());
            match shared.next() {
                Some(Some(first)) if shared.all(|r| r == Some(first)) => Some(first.clone()),
                _ => None,
            }
        });
        Identification {
            reported,
            family,
            matches,
            closest,
            candidates: candidates.len(),
            interval: range.as_ref().and_then(|r| r.interval),
            expected: range.as_ref().and_then(|r| r.expected),
            reference: range.map(|r| r.reference),
        }
    };
    Ok(reported.iter().map(|&r| identification(r)).collect())
}

/// A reference's range from its values under pessimistic, expected and optimistic ties.
fn tie_range(r: &Reference, values: &[Result<f64, Error>], weighted: bool) -> TieRange {
    let value = |i: usize| values.get(i).and_then(|v| v.as_ref().ok().copied());
    let interval = value(0).zip(value(2)).map(|(p, o)| (p.min(o), p.max(o)));
    let mut words = vec![r.convention.name().to_string(), r.metric.to_string()];
    words.extend(r.params.iter().map(|(k, v)| format!("{k}={v}")));
    TieRange {
        reference: words.join(" "),
        interval,
        expected: value(1),
        tie_analysis: r.presets[0].tie_analysis(weighted),
    }
}
