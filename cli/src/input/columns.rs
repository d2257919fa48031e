//! The column names of the label and score files: compared when both files have a header
//! line, so that columns in another order never give a value silently, or matched by name
//! (`--align-columns`).

use super::{InputError, RowStream};

/// Checks that the header lines of `labels` and `scores` name the same columns in the same
/// order, when both files have one. With `align`, the scores' columns are put in the labels'
/// order instead: `read` (the score rows read so far) now, and every row read later.
///
/// # Errors
/// The names differ (the message names the first difference), or with `align`: a file
/// without a header line, or names that do not match one to one.
pub fn match_columns(
    labels: &mut RowStream<'_>, scores: &mut RowStream<'_>, align: bool, read: &mut [f64],
) -> Result<(), InputError> {
    let label_names = labels.column_names()?;
    let score_names = scores.column_names()?;
    let (l, s) = match (label_names, score_names) {
        (Some(l), Some(s)) => (l, s),
        (l, _) if align => {
            let without = if l.is_none() { &*labels } else { &*scores };
            return Err(InputError::new(
                &without.source,
                "no header line: --align-columns matches the scores' columns to the labels' by \
                 the names in both files' header lines",
            ));
        }
        _ => return Ok(()),
    };
    if l == s {
        return Ok(());
    }
    let error = |message: String| Err(InputError::new(&labels.source, message));
    if l.len() != s.len() {
        return error(format!(
            "the header names {} columns, but {}'s names {}",
            l.len(),
            scores.source,
            s.len()
        ));
    }
    if !align {
        let j = l.iter().zip(&s).position(|(a, b)| a != b).unwrap_or(0);
        let (mut sorted_l, mut sorted_s) = (l.clone(), s.clone());
        sorted_l.sort();
        sorted_s.sort();
        let hint = if sorted_l == sorted_s {
            "the same names in another order: --align-columns puts the scores' columns in the \
             labels' order"
        } else {
            "the files name different columns"
        };
        return error(format!(
            "data column {} is named {:?} in the header, but {:?} in {}'s; {hint}",
            j + 1,
            l[j],
            s[j],
            scores.source
        ));
    }
    let mut order = Vec::with_capacity(l.len());
    for name in &l {
        let mut matches = s.iter().enumerate().filter(|(_, n)| *n == name);
        match (matches.next(), matches.next()) {
            (Some((k, _)), None) if l.iter().filter(|n| *n == name).count() == 1 => order.push(k),
            (None, _) => {
                return error(format!(
                    "no column of {} is named {name:?}, so the columns cannot be aligned by name",
                    scores.source
                ))
            }
            _ => {
                return error(format!(
                    "more than one column is named {name:?} (here or in {}), so the columns \
                     cannot be aligned by name",
                    scores.source
                ))
            }
        }
    }
    if scores.cols() != 0 && scores.cols() != s.len() {
        return Err(InputError::new(
            &scores.source,
            format!(
                "the header names {} columns, but the rows hold {} numbers",
                s.len(),
                scores.cols()
            ),
        ));
    }
    let mut row = vec![0.0; order.len()];
    for chunk in read.chunks_exact_mut(order.len()) {
        permute(chunk, &order, &mut row);
    }
    scores.order = Some(order);
    Ok(())
}

/// Puts `values[order[j]]` at `j`, through `scratch` (as long as `values`).
pub(super) fn permute(values: &mut [f64], order: &[usize], scratch: &mut [f64]) {
    for (to, &from) in scratch.iter_mut().zip(order) {
        *to = values[from];
    }
    values.copy_from_slice(scratch);
}
