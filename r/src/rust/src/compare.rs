//! The crate's comparison grid (`rankmetrics::compare`, the grid of `rankmetrics compare` and
//! of Python's `rankmetrics.compare`) as named columns for an R data.frame: one row per
//! metric concept.

use extendr_api::prelude::*;
use rankmetrics::compare::{compare, Chart, Column, Notes, Options, Panel, Row, Series, Table};
use rankmetrics::registry::Convention;
use rankmetrics::{Error, LabelMatrix, ScoreMatrix};

use crate::errors::Failure;

/// Every concept under every column, as a list of equally long columns: `metric`, `over`,
/// one per column of the grid (`max` ... `optimistic`), `low`, `high`, `spread`, `outside`
/// (the conventions outside the interval, comma-separated), `ends_proven` and
/// `expected_exact` (what the tie analysis guarantees), `note` (why not, "" where both hold)
/// and `error` (the cells' errors, `column: message`, joined by "; ").
pub fn grid<Y, S>(y: &Y, s: &S, w: Option<&[f64]>) -> Result<Robj, Failure>
where
    Y: LabelMatrix + ?Sized,
    S: ScoreMatrix<f64> + ?Sized,
{
    let rows = compare(y, s, w, Options::default());
    let columns = Column::all();
    let mut names: Vec<String> = vec!["metric".into(), "over".into()];
    let mut values: Vec<Robj> = vec![
        rows.iter()
            .map(|r| r.concept.name)
            .collect::<Vec<_>>()
            .into(),
        rows.iter()
            .map(|r| r.concept.over.name())
            .collect::<Vec<_>>()
            .into(),
    ];
    for &c in &columns {
        names.push(c.name().into());
        values.push(rows.iter().map(|r| r.value(c)).collect::<Vec<_>>().into());
    }
    let interval: Vec<Option<(f64, f64)>> = rows.iter().map(Row::interval).collect();
    names.extend(
        [
            "low",
            "high",
            "spread",
            "outside",
            "ends_proven",
            "expected_exact",
            "note",
            "error",
        ]
        .map(String::from),
    );
    values.push(
        interval
            .iter()
            .map(|i| i.map(|i| i.0))
            .collect::<Vec<_>>()
            .into(),
    );
    values.push(
        interval
            .iter()
            .map(|i| i.map(|i| i.1))
            .collect::<Vec<_>>()
            .into(),
    );
    values.push(rows.iter().map(Row::spread).collect::<Vec<_>>().into());
    let outside: Vec<String> = rows
        .iter()
        .map(|r| {
            let names: Vec<&str> = r.outside_interval().iter().map(|c| c.name()).collect();
            names.join(", ")
        })
        .collect();
    values.push(outside.into());
    let tie: Vec<_> = rows.iter().map(|r| r.tie_analysis).collect();
    values.push(
        tie.iter()
            .map(|t| t.ends_unproven.is_none())
            .collect::<Vec<_>>()
            .into(),
    );
    values.push(
        tie.iter()
            .map(|t| t.expected_missing.is_none())
            .collect::<Vec<_>>()
            .into(),
    );
    values.push(
        tie.iter()
            .map(|t| t.note().unwrap_or_default())
            .collect::<Vec<_>>()
            .into(),
    );
    let errors: Vec<String> = rows
        .iter()
        .map(|r| {
            let mut e: Vec<String> = r
                .cells
                .iter()
                .flatten()
                .filter_map(|c| {
                    c.result
                        .as_ref()
                        .err()
                        .map(|e| format!("{}: {e}", c.column.name()))
                })
                .collect();
            if let Some(m) = &r.mapping_error {
                e.push(m.to_string());
            }
            e.join("; ")
        })
        .collect();
    values.push(errors.into());
    // The command's table with its notes, and the releases each convention reproduces, as
    // attributes of the columns.
    let table = Table::new(&rows, &Notes::of(&rows, y, s, w)).to_string();
    let reproduces: Vec<(&str, &str)> = Convention::ALL
        .into_iter()
        .filter_map(|c| Some((c.name(), c.reproduces()?)))
        .collect();
    let internal = |e: extendr_api::Error| {
        Failure::new("internal", format!("internal error in rankmetrics: {e}"))
    };
    // Equally many names and columns: a failure here is a bug, reported as one.
    let mut list = List::from_names_and_values(names, values)
        .map(Robj::from)
        .map_err(internal)?;
    let (keys, releases): (Vec<&str>, Vec<&str>) = reproduces.into_iter().unzip();
    let mut releases = Robj::from(releases);
    releases.set_attrib("names", keys).map_err(internal)?;
    list.set_attrib("table", table).map_err(internal)?;
    let chart = Chart::new(&rows.iter().map(Series::of).collect::<Vec<_>>());
    let panels: Vec<Robj> = chart.panels.iter().map(panel_list).collect();
    let chart_list = list!(svg = chart.svg(), panels = List::from_values(panels));
    list.set_attrib("chart", chart_list).map_err(internal)?;
    list.set_attrib("reproduces", releases).map_err(internal)?;
    Ok(list)
}

/// The input errors every cell of the grid would report (the shapes, the weights), raised once
/// for the whole call; the errors of some conventions only (labels outside a toolkit's domain)
/// stay in their cells.
pub fn check_common(
    labels: (usize, usize), scores: (usize, usize), w: Option<&[f64]>,
) -> Result<(), Failure> {
    let error = if labels != scores {
        Some(Error::ShapeMismatch {
            expected: labels,
            found: scores,
        })
    } else if labels.0 == 0 {
        Some(Error::NoSamples)
    } else if labels.1 == 0 {
        Some(Error::NoLabels)
    } else if let Some(w) = w.filter(|w| w.len() != labels.0) {
        Some(Error::WeightLength {
            expected: labels.0,
            found: w.len(),
        })
    } else {
        w.and_then(|w| {
            let row = w.iter().position(|v| !(v.is_finite() && *v >= 0.0))?;
            Some(Error::InvalidWeight { row, value: w[row] })
        })
    };
    error.map_or(Ok(()), |e| Err(e.into()))
}

/// One panel of the picture in values, for R's `plot`: `metric`, `range`, `tick_values`,
/// `tick_labels`, `band` (low, high; `NULL` without an interval) and `band_labels`,
/// `expected` (`NA` without one), `mark_columns`, `mark_values` (`NA` where none),
/// `mark_outside`, top to bottom, and `rule` (the first toolkit's row, 1-based; 0 for none).
fn panel_list(p: &Panel) -> Robj {
    let band = p.band.as_ref();
    let rule = p
        .marks
        .iter()
        .position(|m| matches!(m.column, Column::Toolkit(_)))
        .filter(|_| p.rule.is_some())
        .map_or(0, |i| i as i32 + 1);
    list!(
        metric = p.metric.as_str(),
        range = vec![p.range.0, p.range.1],
        tick_values = p.ticks.iter().map(|t| t.value).collect::<Vec<_>>(),
        tick_labels = p.ticks.iter().map(|t| t.label.as_str()).collect::<Vec<_>>(),
        band = band.map_or(Robj::from(()), |b| Robj::from(vec![b.low, b.high])),
        band_labels = band.map_or(Robj::from(()), |b| {
            Robj::from(vec![b.label_low.as_str(), b.label_high.as_str()])
        }),
        expected = p.expected.map(|e| e.0),
        mark_columns = p.marks.iter().map(|m| m.column.name()).collect::<Vec<_>>(),
        mark_values = p
            .marks
            .iter()
            .map(|m| m.at.map(|a| a.0))
            .collect::<Vec<_>>(),
        mark_outside = p.marks.iter().map(|m| m.outside).collect::<Vec<_>>(),
        rule = rule
    )
    .into()
}
