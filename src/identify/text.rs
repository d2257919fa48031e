//! An identification as text: the table every front door prints.

use super::{Identification, Match};
use crate::text::{aligned, note_lines, note_number, plain_number};

/// The header of [`Identification::rows`].
pub const HEADER: [&str; 7] = [
    "convention",
    "metric",
    "params",
    "ties",
    "value",
    "interval over tie orders",
    "expected",
];

impl Identification {
    /// A value as the table shows it: two more decimals than the reported value has; NaN and
    /// infinities as in JSON.
    fn shown(&self, x: f64) -> String {
        let decimals = self.reported.decimals() + 2;
        if x.is_finite() {
            format!("{x:.decimals$}")
        } else {
            plain_number(x)
        }
    }

    /// What was searched and how many candidates give it, in one line.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::identify::{identify, Family, Reported};
    /// let r = [Reported::parse("0.50").unwrap()];
    /// let found = identify(&[[1, 0]], &[[0.5, 0.5]], None, &r, Family::parse("ranking_loss")).unwrap();
    /// assert_eq!(found[0].heading(), "0.50 (±0.005), ranking_loss: 2 of 14 candidates give it");
    /// ```
    pub fn heading(&self) -> String {
        let what = self
            .family
            .map_or("every metric".to_string(), |f| f.name.to_string());
        let found = if self.matches.is_empty() {
            format!("no candidate of {} gives it", self.candidates)
        } else {
            let n = self.matches.len();
            format!(
                "{n} of {} candidates give{}",
                self.candidates,
                if n == 1 { "s it" } else { " it" }
            )
        };
        let decimals = self.reported.decimals();
        format!(
            "{:.decimals$} (±{}), {what}: {found}",
            self.reported.value,
            plain_number(self.reported.tolerance)
        )
    }

    /// The listed candidates (the matches, or the closest when none matches), one row each
    /// under [`HEADER`]: convention, metric, params, ties, value, interval over tie orders,
    /// expected value; an interval the tie analysis cannot guarantee carries the number of
    /// its note, and the notes follow.
    pub fn rows(&self) -> (Vec<Vec<String>>, Vec<String>) {
        let mut notes = Vec::new();
        let rows = self
            .listed()
            .iter()
            .map(|m| self.row(m, &mut notes))
            .collect();
        (rows, notes)
    }

    /// The matches, or the closest candidates when nothing matches.
    pub fn listed(&self) -> &[Match] {
        if self.matches.is_empty() {
            &self.closest
        } else {
            &self.matches
        }
    }

    fn row(&self, m: &Match, notes: &mut Vec<String>) -> Vec<String> {
        let c = &m.candidate;
        let range = m.range.as_ref();
        let mut interval = range
            .and_then(|r| r.interval)
            .map_or(String::new(), |(lo, hi)| {
                format!("[{}, {}]", self.shown(lo), self.shown(hi))
            });
        if let Some(note) = range.and_then(|r| r.tie_analysis.note()) {
            interval = format!("{interval} ({})", note_number(notes, &note));
        }
        vec![
            c.preset.convention().name().to_string(),
            c.preset.name().to_string(),
            m.params_text().join(" "),
            c.ties.map_or(String::new(), |t| t.name().to_string()),
            self.shown(m.value),
            interval,
            range
                .and_then(|r| r.expected)
                .map_or(String::new(), |e| self.shown(e)),
        ]
    }

    /// The interval and expected value of the quantity searched (or shared by every match),
    /// in one line; empty when none applies.
    pub fn summary(&self) -> String {
        match (&self.reference, self.interval) {
            (Some(reference), Some((lo, hi))) => {
                let expected = self
                    .expected
                    .map_or(String::new(), |e| format!(", expected {}", self.shown(e)));
                format!(
                    "over every order of the tied scores, {reference} lies in [{}, {}]{expected}\n",
                    self.shown(lo),
                    self.shown(hi)
                )
            }
            _ => String::new(),
        }
    }

    /// The heading, the listed candidates as aligned columns (preceded by "the closest:" when
    /// nothing matches), the summary and the notes: what `rankmetrics identify` prints.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::identify::{identify, Family, Reported};
    /// let r = [Reported::parse("0.50").unwrap()];
    /// let found = identify(&[[1, 0]], &[[0.5, 0.5]], None, &r, Family::parse("one_error")).unwrap();
    /// let table = found[0].table();
    /// assert!(table.lines().nth(2).unwrap().starts_with("rankmetrics  one_error"));
    /// ```
    pub fn table(&self) -> String {
        let mut out = self.heading() + "\n";
        if self.matches.is_empty() && !self.closest.is_empty() {
            out.push_str("the closest:\n");
        }
        let (rows, notes) = self.rows();
        let header = vec![HEADER.map(String::from).to_vec()];
        out.push_str(&aligned(&[header, rows].concat(), &[]));
        out.push_str(&self.summary());
        out.push_str(&note_lines(&notes));
        out
    }
}

/// Each identification's [`table`](Identification::table), a blank line apart.
///
/// # Example
/// ```
/// use rankmetrics::identify::{identify, table, Reported};
/// let r = [Reported::parse("1").unwrap(), Reported::parse("0").unwrap()];
/// let found = identify(&[[1, 0]], &[[0.9, 0.1]], None, &r, None).unwrap();
/// assert_eq!(table(&found), format!("{}\n{}", found[0].table(), found[1].table()));
/// ```
pub fn table(ids: &[Identification]) -> String {
    let tables: Vec<String> = ids.iter().map(Identification::table).collect();
    tables.join("\n")
}
