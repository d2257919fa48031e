//! `compare --plot`: the comparison as an SVG chart, one panel per metric. In each panel every
//! convention (tie policy or toolkit) is a row with a dot at its value; the tie interval
//! [low, high] over the orderings of the ties is a shaded bar across the rows and the expected value a line.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::compare::{Column, Row};

const PANEL_COLUMNS: usize = 3;
const PANEL_WIDTH: u32 = 520;
const PANEL_HEIGHT: u32 = 250;
const TITLE_HEIGHT: u32 = 70;

const BAND: RGBColor = RGBColor(173, 204, 235);
const EXPECTED: RGBColor = RGBColor(31, 90, 160);
const DOT: RGBColor = RGBColor(40, 40, 40);
const OUTSIDE: RGBColor = RGBColor(205, 40, 40);

/// The chart as SVG text: one circle per metric and convention with a value.
///
/// # Errors
/// A message if drawing fails.
pub fn svg(rows: &[Row]) -> Result<String, String> {
    let panel_rows = rows.len().div_ceil(PANEL_COLUMNS).max(1);
    let size = (
        PANEL_WIDTH * PANEL_COLUMNS as u32,
        TITLE_HEIGHT + PANEL_HEIGHT * panel_rows as u32,
    );
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        draw(&root, rows, panel_rows).map_err(|e| format!("cannot draw the chart: {e}"))?;
        root.present()
            .map_err(|e| format!("cannot draw the chart: {e}"))?;
    }
    Ok(text)
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn draw(root: &DrawingArea<SVGBackend<'_>, Shift>, rows: &[Row], panel_rows: usize) -> DrawResult {
    root.fill(&WHITE)?;
    let (title, body) = root.split_vertically(TITLE_HEIGHT);
    title.draw(&Text::new(
        "Each metric under each tie policy and toolkit convention",
        (16, 10),
        ("sans-serif", 22).into_font().color(&BLACK),
    ))?;
    let legend = ("sans-serif", 14).into_font();
    title.draw(&Rectangle::new([(16, 42), (46, 56)], BAND.filled()))?;
    title.draw(&Text::new(
        "tie interval [low, high] over tie orders",
        (52, 42),
        legend.color(&BLACK),
    ))?;
    title.draw(&PathElement::new(
        vec![(330, 40), (330, 58)],
        EXPECTED.stroke_width(2),
    ))?;
    title.draw(&Text::new(
        "expected (mean over all tie orders)",
        (338, 42),
        legend.color(&BLACK),
    ))?;
    title.draw(&Text::new(
        "dot: the value under that convention; red: outside the interval",
        (610, 42),
        legend.color(&BLACK),
    ))?;
    let panels = body.split_evenly((panel_rows, PANEL_COLUMNS));
    for (row, area) in rows.iter().zip(&panels) {
        panel(area, row)?;
    }
    Ok(())
}

/// One metric's panel.
fn panel(area: &DrawingArea<SVGBackend<'_>, Shift>, row: &Row) -> DrawResult {
    let columns: Vec<Column> = Column::all()
        .into_iter()
        .filter(|c| c.is_convention())
        .collect();
    let n = columns.len();
    let values: Vec<Option<f64>> = columns
        .iter()
        .map(|&c| row.value(c).filter(|v| v.is_finite()))
        .collect();
    let interval = row
        .interval()
        .filter(|(lo, hi)| lo.is_finite() && hi.is_finite());
    let expected = row.expected().filter(|e| e.is_finite());
    let mut bounds: Vec<f64> = values.iter().flatten().copied().collect();
    bounds.extend(interval.iter().flat_map(|&(lo, hi)| [lo, hi]));
    let lo = bounds.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = bounds.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let pad = if hi > lo {
        0.08 * (hi - lo)
    } else {
        0.05 * lo.abs().max(1.0)
    };
    // Row i of `columns` sits at y = n - 1 - i, so the first is on top.
    let y = |i: usize| (n - 1 - i) as f64;
    let mut chart = ChartBuilder::on(area)
        .margin(8)
        .caption(row.concept.name, ("sans-serif", 16))
        .x_label_area_size(22)
        .y_label_area_size(96)
        .build_cartesian_2d((lo - pad)..(hi + pad), -0.6..(n as f64 - 0.4))?;
    let names: Vec<&str> = columns.iter().map(|c| c.name()).collect();
    chart
        .configure_mesh()
        .y_labels(n)
        .y_label_formatter(&|v| {
            let k = v.round();
            if (v - k).abs() > 1e-6 || k < 0.0 || k >= n as f64 {
                return String::new();
            }
            names[n - 1 - k as usize].to_string()
        })
        .x_labels(5)
        .x_label_formatter(&|v| format!("{v:.3}"))
        .light_line_style(WHITE)
        .label_style(("sans-serif", 12))
        .draw()?;
    if let Some((lo, hi)) = interval {
        chart.draw_series(std::iter::once(Rectangle::new(
            [(lo, -0.5), (hi, n as f64 - 0.5)],
            BAND.mix(0.8).filled(),
        )))?;
    }
    if let Some(e) = expected {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(e, -0.5), (e, n as f64 - 0.5)],
            EXPECTED.stroke_width(2),
        )))?;
    }
    // Toolkits below a thin rule, under the tie policies.
    let policies = columns
        .iter()
        .filter(|c| matches!(c, Column::Policy(_)))
        .count();
    let rule_y = y(policies) + 0.5;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(lo - pad, rule_y), (hi + pad, rule_y)],
        BLACK.mix(0.25),
    )))?;
    chart.draw_series(
        columns
            .iter()
            .zip(&values)
            .enumerate()
            .filter_map(|(i, (&c, v))| v.map(|v| (i, c, v)))
            .map(|(i, c, v)| {
                let color = if row.outside(c) { OUTSIDE } else { DOT };
                Circle::new((v, y(i)), 5, color.filled())
            }),
    )?;
    Ok(())
}
