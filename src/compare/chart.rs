//! The comparison as a picture, one panel per metric: a numeric axis with ticks, a row per tie
//! policy and toolkit with a mark at its value, the interval over tie orders shaded and
//! labelled with its ends, the expected value as a line, values outside the interval in red.
//! [`Chart`] holds the geometry (what the tests check, and what the Python and R plots
//! draw with their own graphics); [`Chart::svg`] renders it, as the command's `--plot`,
//! Python's `_repr_svg_` and R's `rm_svg` do.

use std::fmt::Write as _;

use super::{fixed, Column, Row};

/// Panels side by side.
const PANEL_COLUMNS: usize = 3;
const PANEL_WIDTH: f64 = 520.0;
const PANEL_HEIGHT: f64 = 260.0;
/// The chart's title and legend above the panels.
const TITLE_HEIGHT: f64 = 70.0;
/// Inside a panel: the caption above the plot, the row names left of it, the axis below it.
const CAPTION: f64 = 40.0;
const NAMES: f64 = 100.0;
const AXIS: f64 = 34.0;
const RIGHT: f64 = 16.0;

const BAND: &str = "#adccEB";
const EXPECTED: &str = "#1f5aa0";
const MARK: &str = "#282828";
const OUTSIDE: &str = "#cd2828";

/// One metric's values, what a panel shows.
///
/// # Example
/// ```
/// use rankmetrics::compare::{compare, Series};
/// let rows = compare(&[[1, 0]], &[[0.5, 0.5]], None, Default::default());
/// let loss = Series::of(&rows[3]);
/// assert_eq!(loss.metric, "ranking loss");
/// assert_eq!(loss.interval, Some((0.0, 1.0)));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The metric's name.
    pub metric: String,
    /// Per tie policy and toolkit, in [`Column::all`]'s order: its value (`None`: none, or
    /// not finite) and whether it lies outside the interval.
    pub marks: Vec<(Column, Option<f64>, bool)>,
    /// The interval [low, high] over tie orders, if both ends are finite.
    pub interval: Option<(f64, f64)>,
    /// The exact expected value over tie orders, if finite.
    pub expected: Option<f64>,
}

impl Series {
    /// The series of one comparison row.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{compare, Series};
    /// let rows = compare(&[[1, 0]], &[[0.9, 0.1]], None, Default::default());
    /// assert_eq!(Series::of(&rows[0]).marks.len(), 9);
    /// ```
    pub fn of(row: &Row) -> Series {
        let marks = Column::all()
            .into_iter()
            .filter(|c| c.is_convention())
            .map(|c| {
                let value = row.value(c).filter(|v| v.is_finite());
                (c, value, value.is_some() && row.outside(c))
            })
            .collect();
        Series {
            metric: row.concept.name.to_string(),
            marks,
            interval: row
                .interval()
                .filter(|(lo, hi)| lo.is_finite() && hi.is_finite()),
            expected: row.expected().filter(|e| e.is_finite()),
        }
    }
}

impl Series {
    /// A series from column names (as [`Column::name`] gives them), for front doors that
    /// hold a comparison's values rather than its rows; non-finite values count as none.
    ///
    /// # Errors
    /// The name that is not a tie policy's or a toolkit's column.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::Series;
    /// let s = Series::named("coverage", &[("max", Some(2.0), true), ("sklearn", None, false)],
    ///                       Some((1.0, 1.5)), Some(1.25)).unwrap();
    /// assert_eq!(s.marks.len(), 2);
    /// assert!(Series::named("x", &[("low", Some(1.0), false)], None, None).is_err());
    /// ```
    pub fn named(
        metric: &str, marks: &[(&str, Option<f64>, bool)], interval: Option<(f64, f64)>,
        expected: Option<f64>,
    ) -> Result<Series, String> {
        let marks = marks
            .iter()
            .map(|&(name, value, outside)| match Column::parse(name) {
                Some(c) if c.is_convention() => {
                    let value = value.filter(|v| v.is_finite());
                    Ok((c, value, outside && value.is_some()))
                }
                _ => Err(format!(
                    "no tie policy or toolkit column {name:?} in the comparison"
                )),
            })
            .collect::<Result<_, _>>()?;
        Ok(Series {
            metric: metric.to_string(),
            marks,
            interval: interval.filter(|(lo, hi)| lo.is_finite() && hi.is_finite()),
            expected: expected.filter(|e| e.is_finite()),
        })
    }
}

/// A tick of a panel's axis.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// Its value.
    pub value: f64,
    /// Its horizontal position.
    pub x: f64,
    /// Its label.
    pub label: String,
}

/// A value's mark in its row.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// The tie policy or toolkit.
    pub column: Column,
    /// Its row's vertical position.
    pub y: f64,
    /// The value and its horizontal position; `None` where it has none.
    pub at: Option<(f64, f64)>,
    /// Whether the value lies outside the interval (drawn red).
    pub outside: bool,
}

/// The interval's shaded band.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// The low end.
    pub low: f64,
    /// The high end.
    pub high: f64,
    /// The low end's horizontal position.
    pub x_low: f64,
    /// The high end's horizontal position.
    pub x_high: f64,
    /// The low end as the table prints it.
    pub label_low: String,
    /// The high end as the table prints it.
    pub label_high: String,
}

/// One metric's panel, in the chart's pixels (y grows downwards).
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// The metric's name, the panel's caption.
    pub metric: String,
    /// The plot area: left, top, right, bottom.
    pub area: (f64, f64, f64, f64),
    /// The axis' range of values, left to right.
    pub range: (f64, f64),
    /// The axis' ticks, left to right.
    pub ticks: Vec<Tick>,
    /// The interval, if it has finite ends.
    pub band: Option<Band>,
    /// The expected value and its horizontal position.
    pub expected: Option<(f64, f64)>,
    /// A mark per tie policy and toolkit, top to bottom.
    pub marks: Vec<Mark>,
    /// The height of the rule between the tie policies and the toolkits.
    pub rule: Option<f64>,
}

impl Panel {
    /// The horizontal position of `v`.
    fn x(&self, v: f64) -> f64 {
        let (left, _, right, _) = self.area;
        let (lo, hi) = self.range;
        left + (v - lo) / (hi - lo) * (right - left)
    }
}

/// The whole picture.
///
/// # Example
/// ```
/// use rankmetrics::compare::{compare, Chart, Series};
/// let rows = compare(&[[0, 1, 0]], &[[0.5, 0.5, 0.1]], None, Default::default());
/// let series: Vec<Series> = rows.iter().map(Series::of).collect();
/// let chart = Chart::new(&series);
/// let coverage = &chart.panels[1];
/// let band = coverage.band.as_ref().unwrap();
/// assert_eq!((band.label_low.as_str(), band.label_high.as_str()), ("1.0000", "2.0000"));
/// assert!(chart.svg().starts_with("<svg"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Width and height in pixels.
    pub size: (f64, f64),
    /// A panel per series, left to right, then top to bottom.
    pub panels: Vec<Panel>,
}

impl Chart {
    /// Lays out a panel per series.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{compare, Chart, Series};
    /// let rows = compare(&[[1, 0]], &[[0.9, 0.1]], None, Default::default());
    /// let chart = Chart::new(&rows.iter().map(Series::of).collect::<Vec<_>>());
    /// assert_eq!(chart.panels.len(), rows.len());
    /// ```
    pub fn new(series: &[Series]) -> Chart {
        let panel_rows = series.len().div_ceil(PANEL_COLUMNS).max(1);
        let panels = series
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let left = (i % PANEL_COLUMNS) as f64 * PANEL_WIDTH;
                let top = TITLE_HEIGHT + (i / PANEL_COLUMNS) as f64 * PANEL_HEIGHT;
                panel(s, left, top)
            })
            .collect();
        Chart {
            size: (
                PANEL_WIDTH * PANEL_COLUMNS as f64,
                TITLE_HEIGHT + PANEL_HEIGHT * panel_rows as f64,
            ),
            panels,
        }
    }

    /// The picture as SVG text.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{compare, Chart, Series};
    /// let rows = compare(&[[1, 0]], &[[0.9, 0.1]], None, Default::default());
    /// let svg = Chart::new(&rows.iter().map(Series::of).collect::<Vec<_>>()).svg();
    /// assert!(svg.contains("ranking loss") && svg.ends_with("</svg>\n"));
    /// ```
    pub fn svg(&self) -> String {
        let (w, h) = self.size;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">"
        );
        let _ = writeln!(out, "<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>");
        text(
            &mut out,
            (16.0, 30.0),
            22.0,
            "start",
            "Each metric under each tie policy and toolkit convention",
        );
        let _ = writeln!(
            out,
            "<rect x=\"16\" y=\"44\" width=\"30\" height=\"14\" fill=\"{BAND}\"/>"
        );
        text(
            &mut out,
            (52.0, 56.0),
            14.0,
            "start",
            "interval [low, high] over tie orders",
        );
        line(&mut out, (330.0, 42.0), (330.0, 60.0), EXPECTED, 2.0);
        text(
            &mut out,
            (338.0, 56.0),
            14.0,
            "start",
            "expected value (mean over all tie orders)",
        );
        let _ = writeln!(
            out,
            "<circle cx=\"640\" cy=\"51\" r=\"5\" fill=\"{MARK}\"/>"
        );
        text(
            &mut out,
            (650.0, 56.0),
            14.0,
            "start",
            "value under that convention;",
        );
        let _ = writeln!(
            out,
            "<circle cx=\"872\" cy=\"51\" r=\"5\" fill=\"{OUTSIDE}\"/>"
        );
        text(
            &mut out,
            (882.0, 56.0),
            14.0,
            "start",
            "outside the interval",
        );
        for p in &self.panels {
            draw(&mut out, p);
        }
        out.push_str("</svg>\n");
        out
    }
}

/// The SVG of the comparison `rows`: [`Chart::svg`] of their [`Series`].
///
/// # Example
/// ```
/// use rankmetrics::compare::{compare, svg};
/// let rows = compare(&[[1, 0]], &[[0.5, 0.5]], None, Default::default());
/// assert!(svg(&rows).contains("<circle"));
/// ```
pub fn svg(rows: &[Row]) -> String {
    Chart::new(&rows.iter().map(Series::of).collect::<Vec<_>>()).svg()
}

/// The panel of `s` whose top-left corner is (`left`, `top`).
fn panel(s: &Series, left: f64, top: f64) -> Panel {
    let area = (
        left + NAMES,
        top + CAPTION,
        left + PANEL_WIDTH - RIGHT,
        top + PANEL_HEIGHT - AXIS,
    );
    let mut bounds: Vec<f64> = s.marks.iter().filter_map(|m| m.1).collect();
    bounds.extend(s.interval.iter().flat_map(|&(lo, hi)| [lo, hi]));
    bounds.extend(s.expected);
    let lo = bounds.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = bounds.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    // Values that differ by less than the table's 4 decimals show (rounding noise across
    // conventions, an interval of one value) are drawn as one: the axis spans at least
    // 1e-3 of their size, or 0.1 around a single value.
    let least = 1e-3 * lo.abs().max(hi.abs()).max(1.0);
    let pad = if hi - lo >= least {
        0.08 * (hi - lo)
    } else {
        0.05 * lo.abs().max(hi.abs()).max(1.0)
    };
    let mut p = Panel {
        metric: s.metric.clone(),
        area,
        range: (lo - pad, hi + pad),
        ticks: Vec::new(),
        band: None,
        expected: None,
        marks: Vec::new(),
        rule: None,
    };
    p.ticks = ticks(p.range)
        .into_iter()
        .map(|(value, label)| Tick {
            value,
            x: p.x(value),
            label,
        })
        .collect();
    p.band = s.interval.map(|(low, high)| Band {
        low,
        high,
        x_low: p.x(low),
        x_high: p.x(high),
        label_low: fixed(low),
        label_high: fixed(high),
    });
    p.expected = s.expected.map(|e| (e, p.x(e)));
    // Rows evenly spaced, the first on top, half a row's margin above and below.
    let n = s.marks.len().max(1) as f64;
    let step = (area.3 - area.1) / n;
    let row_y = |i: usize| area.1 + step * (i as f64 + 0.5);
    p.marks = s
        .marks
        .iter()
        .enumerate()
        .map(|(i, &(column, value, outside))| Mark {
            column,
            y: row_y(i),
            at: value.map(|v| (v, p.x(v))),
            outside,
        })
        .collect();
    p.rule = s
        .marks
        .iter()
        .position(|m| matches!(m.0, Column::Toolkit(_)))
        .filter(|&i| i > 0)
        .map(|i| row_y(i) - step / 2.0);
    p
}

/// Four to ten ticks at round values (1, 2 or 5 times a power of ten) inside `(lo, hi)`: the
/// largest such step that gives four; each labelled with as many decimals as the step needs,
/// and its value the label's.
fn ticks((lo, hi): (f64, f64)) -> Vec<(f64, String)> {
    let width = hi - lo;
    if !(width.is_finite() && width > 0.0) {
        return Vec::new();
    }
    let mut power = 10f64.powf(width.log10().floor());
    for _ in 0..4 {
        for m in [5.0, 2.0, 1.0] {
            let step = m * power;
            let (first, last) = ((lo / step).ceil(), (hi / step).floor());
            if last - first + 1.0 >= 4.0 {
                let decimals = (-step.log10().floor()).max(0.0) as usize;
                return (first as i64..=last as i64)
                    .map(|k| {
                        let label = format!("{:.decimals$}", k as f64 * step);
                        // "-0.00" for a tick at zero: the label without its sign.
                        let label = match label.strip_prefix('-') {
                            Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => {
                                rest.to_string()
                            }
                            _ => label,
                        };
                        (label.parse().unwrap_or(k as f64 * step), label)
                    })
                    .collect();
            }
        }
        power /= 10.0;
    }
    Vec::new()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn text(out: &mut String, (x, y): (f64, f64), size: f64, anchor: &str, s: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size}\" text-anchor=\"{anchor}\">{}</text>",
        escape(s)
    );
}

fn line(out: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), color: &str, width: f64) {
    let _ = writeln!(
        out,
        "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"{color}\" \
         stroke-width=\"{width}\"/>"
    );
}

/// One panel's elements.
fn draw(out: &mut String, p: &Panel) {
    let (left, top, right, bottom) = p.area;
    text(
        out,
        ((left + right) / 2.0, top - 24.0),
        16.0,
        "middle",
        &p.metric,
    );
    if let Some(b) = &p.band {
        // At least a pixel wide: an interval of one value is still seen.
        let width = (b.x_high - b.x_low).max(1.0);
        let _ = writeln!(
            out,
            "<rect x=\"{:.1}\" y=\"{top:.1}\" width=\"{width:.1}\" height=\"{:.1}\" \
             fill=\"{BAND}\" fill-opacity=\"0.8\"/>",
            b.x_low,
            bottom - top
        );
        // The ends' labels above the band: left-aligned at high, right-aligned at low.
        if b.label_low == b.label_high {
            text(out, (b.x_low, top - 6.0), 11.0, "middle", &b.label_low);
        } else {
            text(out, (b.x_low, top - 6.0), 11.0, "end", &b.label_low);
            text(out, (b.x_high, top - 6.0), 11.0, "start", &b.label_high);
        }
    }
    if let Some((_, x)) = p.expected {
        line(out, (x, top), (x, bottom), EXPECTED, 2.0);
    }
    // The axis and its ticks.
    line(out, (left, bottom), (right, bottom), MARK, 1.0);
    line(out, (left, top), (left, bottom), MARK, 1.0);
    for t in &p.ticks {
        line(out, (t.x, bottom), (t.x, bottom + 5.0), MARK, 1.0);
        text(out, (t.x, bottom + 18.0), 11.0, "middle", &t.label);
    }
    if let Some(y) = p.rule {
        let _ = writeln!(
            out,
            "<line x1=\"{left:.1}\" y1=\"{y:.1}\" x2=\"{right:.1}\" y2=\"{y:.1}\" \
             stroke=\"{MARK}\" stroke-opacity=\"0.25\"/>"
        );
    }
    for m in &p.marks {
        text(out, (left - 6.0, m.y + 4.0), 12.0, "end", m.column.name());
        match m.at {
            Some((v, x)) => {
                let color = if m.outside { OUTSIDE } else { MARK };
                let _ = writeln!(
                    out,
                    "<circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"4.5\" fill=\"{color}\"><title>{}: \
                     {}</title></circle>",
                    m.y,
                    m.column.name(),
                    fixed(v)
                );
            }
            None => text(out, (left + 6.0, m.y + 4.0), 11.0, "start", "no value"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::compare;
    use crate::registry::Convention;
    use crate::ties::TiePolicy;

    fn chart_of(y: &[[f64; 4]], s: &[[f64; 4]]) -> Chart {
        let rows = compare(y, s, None, Default::default());
        Chart::new(&rows.iter().map(Series::of).collect::<Vec<_>>())
    }

    #[test]
    fn positions_follow_the_values_and_labels_the_interval() {
        let y = [
            [1.0, 0.0, 1.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0, 0.0],
        ];
        let s = [
            [0.5, 0.5, 0.2, 0.2],
            [0.3, 0.3, 0.3, 0.9],
            [0.1, 0.7, 0.7, 0.7],
        ];
        let chart = chart_of(&y, &s);
        for p in &chart.panels {
            let (left, top, right, bottom) = p.area;
            // Every placed value: x ordered as the values, inside the plot area.
            let placed: Vec<(f64, f64)> = p.marks.iter().filter_map(|m| m.at).collect();
            for &(v, x) in &placed {
                assert!((left..=right).contains(&x), "{}: {v} at {x}", p.metric);
                for &(w, xw) in &placed {
                    assert_eq!(v < w, x < xw, "{}: {v} at {x}, {w} at {xw}", p.metric);
                }
            }
            // Ticks ordered, inside, labels their values.
            for pair in p.ticks.windows(2) {
                assert!(pair[0].value < pair[1].value && pair[0].x < pair[1].x);
            }
            for t in &p.ticks {
                assert!((left..=right + 1e-9).contains(&t.x));
                assert!((t.label.parse::<f64>().unwrap() - t.value).abs() < 1e-9);
            }
            assert!(p.ticks.len() >= 3, "{}: {:?}", p.metric, p.ticks);
            // Rows top to bottom, each its own height: equal values never overlap.
            for pair in p.marks.windows(2) {
                assert!(pair[0].y < pair[1].y);
            }
            assert!(p.marks.iter().all(|m| (top..=bottom).contains(&m.y)));
            if let Some(b) = &p.band {
                assert_eq!(b.label_low, fixed(b.low));
                assert_eq!(b.label_high, fixed(b.high));
                assert!(b.x_low <= b.x_high);
                // Red exactly where the value lies outside the interval.
                for m in &p.marks {
                    if let Some((v, x)) = m.at {
                        let inside = b.x_low - 1e-9 <= x && x <= b.x_high + 1e-9;
                        assert_eq!(!inside, m.outside, "{} {:?}: {v}", p.metric, m.column);
                    }
                }
            }
            if let (Some((e, x)), Some(b)) = (p.expected, &p.band) {
                assert!(b.low <= e && e <= b.high && b.x_low <= x && x <= b.x_high);
            }
        }
    }

    #[test]
    fn the_svg_draws_the_layout() {
        let y = [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0]];
        let s = [[0.5, 0.5, 0.2, 0.2], [0.3, 0.3, 0.3, 0.9]];
        let chart = chart_of(&y, &s);
        let svg = chart.svg();
        let circles = chart
            .panels
            .iter()
            .flat_map(|p| &p.marks)
            .filter(|m| m.at.is_some())
            .count();
        // Every placed value is one circle, plus the legend's two.
        assert_eq!(svg.matches("<circle").count(), circles + 2);
        let loss = chart
            .panels
            .iter()
            .find(|p| p.metric == "ranking loss")
            .unwrap();
        let b = loss.band.as_ref().unwrap();
        assert!(svg.contains(&format!(">{}</text>", b.label_low)));
        assert!(svg.contains(&format!(">{}</text>", b.label_high)));
        let mldr = loss
            .marks
            .iter()
            .find(|m| m.column == Column::Toolkit(Convention::Mldr))
            .unwrap();
        assert!(mldr.at.is_some());
        let first = loss
            .marks
            .iter()
            .find(|m| m.column == Column::Policy(TiePolicy::First))
            .unwrap();
        assert!(first.y < mldr.y, "tie policies above the toolkits");
        assert!(loss.rule.is_some_and(|r| first.y < r && r < mldr.y));
    }

    #[test]
    fn rounding_noise_is_not_spread_across_the_panel() {
        let noise = 0.25 + 2.0 * f64::EPSILON;
        let marks: Vec<(&str, Option<f64>, bool)> = vec![
            ("max", Some(0.25), false),
            ("min", Some(noise), false),
            ("sklearn", Some(0.25), false),
        ];
        let s = Series::named("x", &marks, Some((0.25, noise)), Some(0.25)).unwrap();
        let p = &Chart::new(&[s]).panels[0];
        let (lo, hi) = p.range;
        assert!(hi - lo > 0.05, "{:?}", p.range);
        let labels: Vec<&str> = p.ticks.iter().map(|t| t.label.as_str()).collect();
        assert!((4..=10).contains(&labels.len()), "{labels:?}");
        assert!(labels.windows(2).all(|w| w[0] != w[1]), "{labels:?}");
        assert!(labels.iter().all(|l| l.len() <= 6), "{labels:?}");
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            ticks((0.0, 1.0)),
            ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]
                .iter()
                .map(|l| (l.parse().unwrap(), l.to_string()))
                .collect::<Vec<_>>()
        );
        let t = ticks((0.17, 0.28));
        assert_eq!(t.first().map(|t| t.1.as_str()), Some("0.18"));
        assert_eq!(t.last().map(|t| t.1.as_str()), Some("0.28"));
        assert!(ticks((1.0, 1.0)).is_empty());
        let around_zero = ticks((-0.05, 0.05));
        assert!(around_zero.iter().any(|t| t.1 == "0.00"), "{around_zero:?}");
        // Narrow and wide ranges alike get 4 to 10 ticks.
        for (lo, hi) in [(0.6, 0.66), (0.0, 1e-9), (-3.0, 150.0), (0.999, 1.001)] {
            let n = ticks((lo, hi)).len();
            assert!((4..=10).contains(&n), "{lo}..{hi}: {n}");
        }
    }
}
