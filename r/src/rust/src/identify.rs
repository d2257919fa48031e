//! The crate's search for the convention of a reported value (`rankmetrics::identify`, what
//! `rankmetrics identify` and Python's `rankmetrics.identify` run), one R list per value.

use extendr_api::prelude::*;
use rankmetrics::identify::{identify, Family, Identification, Match, Reported};
use rankmetrics::{LabelMatrix, ScoreMatrix};

use crate::errors::Failure;

/// The matches as equally long columns: `convention`, `metric`, `params` (`key=value`
/// words), `ties` (NA for a toolkit's own rule), `value`, `low`, `high`, `expected`,
/// `reference` and `note` (NA where none applies).
fn matches_columns(matches: &[Match]) -> Result<Robj, Failure> {
    let text = |f: &dyn Fn(&Match) -> Option<String>| -> Robj {
        matches
            .iter()
            .map(f)
            .collect::<Vec<Option<String>>>()
            .into()
    };
    let number = |f: &dyn Fn(&Match) -> Option<f64>| -> Robj {
        matches.iter().map(f).collect::<Vec<Option<f64>>>().into()
    };
    let range = |m: &Match| m.range.clone();
    let names = [
        "convention",
        "metric",
        "params",
        "ties",
        "value",
        "low",
        "high",
        "expected",
        "reference",
        "note",
    ];
    let values = vec![
        text(&|m| Some(m.candidate.preset.convention().name().to_string())),
        text(&|m| Some(m.candidate.preset.name().to_string())),
        text(&|m| Some(m.params_text().join(" "))),
        text(&|m| m.candidate.ties.map(|t| t.name().to_string())),
        number(&|m| Some(m.value)),
        number(&|m| range(m)?.interval.map(|i| i.0)),
        number(&|m| range(m)?.interval.map(|i| i.1)),
        number(&|m| range(m)?.expected),
        text(&|m| range(m).map(|r| r.reference)),
        text(&|m| range(m)?.tie_analysis.note()),
    ];
    List::from_names_and_values(names, values)
        .map(Robj::from)
        .map_err(|e| Failure::new("internal", format!("internal error in rankmetrics: {e}")))
}

fn identification(id: &Identification) -> Result<Robj, Failure> {
    let interval: Robj = match id.interval {
        Some((lo, hi)) => vec![lo, hi].into(),
        None => ().into(),
    };
    Ok(list!(
        reported = id.reported.value,
        tolerance = id.reported.tolerance,
        metric = id.family.map(|f| f.name),
        candidates = id.candidates as f64,
        matches = matches_columns(&id.matches)?,
        closest = matches_columns(&id.closest)?,
        interval = interval,
        expected = id.expected,
        reference = id.reference.clone(),
        table = id.table()
    )
    .into())
}

/// Each of `values` searched on the data: a list of identifications; `metric` "" searches
/// every family, `tolerance` NaN keeps each value's printed precision.
pub fn search<Y, S>(
    y: &Y, s: &S, w: Option<&[f64]>, values: &[String], metric: &str, tolerance: f64,
) -> Result<Robj, Failure>
where
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<f64> + ?Sized,
{
    let reported = values
        .iter()
        .map(|text| {
            // NA (NaN here) for no tolerance: the printed digits'.
            let tolerance = Some(tolerance).filter(|t| !t.is_nan());
            Reported::parse_with(text, tolerance)
                .map_err(|e| Failure::new("parameter", e.to_string()))
        })
        .collect::<Result<Vec<Reported>, Failure>>()?;
    let family = match metric {
        "" => None,
        name => Some(Family::find(name)?),
    };
    let found = identify(y, s, w, &reported, family)?;
    let list: Vec<Robj> = found.iter().map(identification).collect::<Result<_, _>>()?;
    Ok(List::from_values(list).into())
}
