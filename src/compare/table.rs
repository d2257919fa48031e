//! The comparison as people read it, in every front door: one line per metric with its value
//! under each tie policy and toolkit, the interval, the expected value and the spread; the
//! legend and the numbered notes under it.

use std::fmt::{self, Write as _};

use super::notes::{Flag, Notes};
use super::{torchmetrics_dtype, Cell, Column, Row};
use crate::text::{aligned, note_lines, note_number, plain_number};
use crate::ties::TiePolicy;

/// Decimals of the values as printed.
const DECIMALS: usize = 4;

/// The comparison's table: the cells as printed (4 decimals, `*` outside the interval, `—`
/// where the toolkit lacks the metric, `(n)` after a value with a numbered note), and the
/// legend with the notes.
///
/// # Example
/// ```
/// use rankmetrics::compare::{compare, Notes, Table};
/// let (y, s) = ([[0.0, 1.0, 0.0]], [[0.5, 0.5, 0.1]]);
/// let rows = compare(&y, &s, None, Default::default());
/// let table = Table::new(&rows, &Notes::new(&rows, &y, &s, None));
/// assert_eq!(table.cells[0][0], "metric");
/// let coverage = &table.cells[2];
/// assert_eq!(coverage[0], "coverage (ranks from 1)");
/// assert!(table.to_string().contains("interval: [low, high]"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The header, then one line per metric: its name, a cell per column of
    /// [`Column::all`] (the interval's two ends as one `[low, high]` cell), the spread.
    pub cells: Vec<Vec<String>>,
    /// The lines under the table: the legend, then the numbered notes.
    pub legend: String,
}

impl Table {
    /// The table of `rows`, with the footnotes `notes` (read off the same inputs).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{compare, Notes, Table};
    /// let rows = compare(&[[1, 0]], &[[0.9, 0.1]], None, Default::default());
    /// let table = Table::new(&rows, &Notes::none(&rows));
    /// assert_eq!(table.cells.len(), rows.len() + 1);
    /// ```
    pub fn new(rows: &[Row], notes: &Notes) -> Table {
        let (cells, numbered) = shown(rows, notes);
        Table {
            cells,
            legend: legend(&numbered, torchmetrics_dtype(rows).as_deref()),
        }
    }

    /// Which columns align right: every one but the metric's name.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::compare::{compare, Notes, Table};
    /// let rows = compare(&[[1, 0]], &[[0.9, 0.1]], None, Default::default());
    /// let right = Table::new(&rows, &Notes::none(&rows)).right();
    /// assert!(!right[0] && right[1..].iter().all(|&r| r));
    /// ```
    pub fn right(&self) -> Vec<bool> {
        (0..self.cells.first().map_or(0, Vec::len))
            .map(|i| i > 0)
            .collect()
    }
}

/// The aligned columns, a blank line, the legend and the notes.
impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}\n{}",
            aligned(&self.cells, &self.right()),
            self.legend
        )
    }
}

/// `shown` followed by the number of the note `text` in `notes`; `shown` alone without one.
fn mark(notes: &mut Vec<String>, shown: String, text: Option<String>) -> String {
    match text {
        Some(text) => format!("{shown} ({})", note_number(notes, &text)),
        None => shown,
    }
}

/// The comparison's cells: concept, each column's value (the analysis as one interval
/// column and the expectation), then spread; and the numbered notes.
fn shown(rows: &[Row], remarks: &Notes) -> (Vec<Vec<String>>, Vec<String>) {
    use TiePolicy::{Optimistic, Pessimistic};
    let columns = Column::all();
    let mut header = vec!["metric".to_string()];
    for c in &columns {
        match c {
            Column::Analysis(Pessimistic) => header.push("interval".into()),
            Column::Analysis(Optimistic) => {}
            c => header.push(c.name().into()),
        }
    }
    header.push("spread".into());
    let mut out = vec![header];
    let mut notes = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let mut line = vec![row.concept.name.to_string()];
        let undefined = || remarks.undefined(r).map(str::to_string);
        for (c, (cell, &column)) in row.cells.iter().zip(&columns).enumerate() {
            let text = match (column, cell) {
                (Column::Analysis(Optimistic), _) => continue,
                (Column::Analysis(Pessimistic), _) => match row.interval() {
                    Some((lo, hi)) if lo.is_nan() || hi.is_nan() => mark(
                        &mut notes,
                        format!("[{}, {}]", fixed(lo), fixed(hi)),
                        undefined(),
                    ),
                    Some((lo, hi)) => mark(
                        &mut notes,
                        format!("[{}, {}]", fixed(lo), fixed(hi)),
                        row.tie_analysis
                            .ends_unproven
                            .map(|why| format!("interval ends not proven: {why}")),
                    ),
                    None => "n/a".into(),
                },
                (_, None) => "—".into(),
                (_, Some(cell)) => match &cell.result {
                    Ok(v) if v.is_nan() => mark(&mut notes, fixed(*v), undefined()),
                    Ok(v) if row.outside(column) => mark(
                        &mut notes,
                        format!("{}*", fixed(*v)),
                        flag_note(row, cell, *v, remarks.flag(r, c)),
                    ),
                    Ok(v) => fixed(*v),
                    // The analysis has no closed form for some metrics: not the data's fault.
                    Err(_) if !column.is_convention() => mark(
                        &mut notes,
                        "n/a".into(),
                        row.tie_analysis
                            .expected_missing
                            .map(|why| format!("no expected value: {why}")),
                    ),
                    Err(e) => mark(
                        &mut notes,
                        "error".into(),
                        Some(format!(
                            "{} {}: {e}",
                            cell.preset.convention(),
                            cell.preset.name()
                        )),
                    ),
                },
            };
            line.push(text);
        }
        line.push(row.spread().map_or("—".into(), fixed));
        out.push(line);
    }
    (out, notes)
}

/// The note of a flagged value `v` that prints as an end of the interval: both with enough
/// decimals to tell them apart, and why the value lies outside.
fn flag_note(row: &Row, cell: &Cell, v: f64, flag: Option<Flag>) -> Option<String> {
    let (lo, hi) = row.interval()?;
    let end = if v < lo { lo } else { hi };
    if fixed(v) != fixed(end) {
        return None;
    }
    // The first precision that separates them, and one digit more.
    let d = (DECIMALS + 1..=17)
        .find(|&d| format!("{v:.d$}") != format!("{end:.d$}"))
        .map_or(17, |d| (d + 1).min(17));
    let who = match cell.column {
        Column::Toolkit(c) => format!("{c} {}", cell.preset.name()),
        column => column.name().to_string(),
    };
    let why = match flag? {
        Flag::Shared(t) => format!(
            "under {t}, tied items share the {} rank of their group, which no ordering of \
             the ties gives",
            match t {
                TiePolicy::Min => "best",
                TiePolicy::Max => "worst",
                _ => "average",
            }
        ),
        Flag::Merged {
            rule,
            interval: (a, b),
        } => format!(
            "{}, which the interval does not do; with those ties it is [{a:.d$}, {b:.d$}]",
            rule.describe()
        ),
        Flag::Definition => format!(
            "more than ties: {} has rules of its own for this metric (docs/conventions.md)",
            cell.preset.convention()
        ),
    };
    Some(format!(
        "{}, {who}: {v:.d$} vs interval end {end:.d$}: {why}",
        row.concept.name
    ))
}

/// The legend printed under the table; `torch_dtype` is torchmetrics' preds dtype.
fn legend(notes: &[String], torch_dtype: Option<&str>) -> String {
    let mut text = String::from(
        "max .. last: rankmetrics' metric under that tie policy (AUC and label-AP rows: the \
         scikit-learn or MULAN metric with its tie rule replaced).\n\
         sklearn .. mulan: each toolkit's own metric, names and rules; — where it has none.\n",
    );
    if let Some(dtype) = torch_dtype {
        let whence = match dtype {
            "float32" => "as the scores are float32",
            _ => {
                "as the scores are not float32; float32 scores (a float32 array or .npy file) \
                 would give float32 preds"
            }
        };
        let _ = writeln!(
            text,
            "torchmetrics: on {dtype} preds, {whence} (torch computes in the preds' dtype)."
        );
    }
    text.push_str(
        "interval: [low, high], the smallest and largest value over every ordering of the ties \
         (where lower is better, as for coverage and ranking loss, the pessimistic end is the \
         high one); expected: their exact mean; n/a: no closed form.\n\
         spread: largest minus smallest value across the policies and toolkits.\n\
         *: outside the interval, so that convention differs by more than how it breaks ties.\n",
    );
    if !notes.is_empty() {
        text.push_str(
            "(n): note n below: an error, why a cell has no value, why a flagged value that \
             prints as an end of the interval lies outside it (rows and labels count from 0), or \
             why an interval's ends are not proven or an expected value has no closed form.\n",
        );
    }
    text + &note_lines(notes)
}

/// Four decimals, for people; non-finite values in their shortest form ("nan", "inf").
///
/// # Example
/// ```
/// use rankmetrics::compare::fixed;
/// assert_eq!((fixed(0.5), fixed(f64::NAN)), ("0.5000".to_string(), "nan".to_string()));
/// ```
pub fn fixed(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.DECIMALS$}")
    } else {
        plain_number(x)
    }
}
