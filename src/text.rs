//! Plain-text tables, as every front door prints them: columns aligned under a header,
//! numbers in their shortest round-trip form, numbered notes under the table.

use core::fmt::Write as _;

/// Rows as columns two spaces apart; columns flagged in `right` are right-aligned; the last
/// column is not padded, and no line ends in spaces.
///
/// # Example
/// ```
/// use rankmetrics::text::aligned;
/// let rows = [vec!["metric".to_string(), "value".into()], vec!["lrap".into(), "0.5".into()]];
/// assert_eq!(aligned(&rows, &[false, true]), "metric  value\nlrap      0.5\n");
/// ```
pub fn aligned(rows: &[Vec<String>], right: &[bool]) -> String {
    let mut widths: Vec<usize> = Vec::new();
    for row in rows {
        widths.resize(widths.len().max(row.len()), 0);
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, cell)| {
                // Width counts chars, as `chars().count()` above.
                let w = widths[i];
                if right.get(i).copied().unwrap_or(false) {
                    format!("{cell:>w$}")
                } else {
                    format!("{cell:<w$}")
                }
            })
            .collect();
        let line = cells.join("  ");
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The shortest decimal that reads back as `x`; exponent form for very large or small
/// magnitudes; `nan`, `inf` and `-inf` spelled as the JSON outputs spell them.
///
/// # Example
/// ```
/// use rankmetrics::text::plain_number;
/// assert_eq!(plain_number(2.0), "2");
/// assert_eq!(plain_number(1e300), "1e300");
/// assert_eq!(plain_number(f64::NEG_INFINITY), "-inf");
/// ```
pub fn plain_number(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else if x != 0.0 && !(1e-5..1e16).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// The numbered notes under a table, one line each: `(1) ...`.
///
/// # Example
/// ```
/// use rankmetrics::text::note_lines;
/// assert_eq!(note_lines(&["a".into(), "b".into()]), "(1) a\n(2) b\n");
/// ```
pub fn note_lines(notes: &[String]) -> String {
    let mut text = String::new();
    for (i, n) in notes.iter().enumerate() {
        let _ = writeln!(text, "({}) {n}", i + 1);
    }
    text
}

/// The number of the note `text` in `notes` (1-based), added at the end if new.
///
/// # Example
/// ```
/// use rankmetrics::text::note_number;
/// let mut notes = vec!["a".to_string()];
/// assert_eq!((note_number(&mut notes, "b"), note_number(&mut notes, "a")), (2, 1));
/// ```
pub fn note_number(notes: &mut Vec<String>, text: &str) -> usize {
    match notes.iter().position(|n| n == text) {
        Some(i) => i + 1,
        None => {
            notes.push(text.to_string());
            notes.len()
        }
    }
}
