//! `rankmetrics example`: the built-in example data printed, so that what `eval` and `compare`
//! report on it can be re-run elsewhere (scikit-learn, R, any toolkit).

use std::fmt::Write as _;

use crate::args::{ExampleArgs, ExampleFormat, ExampleMatrix};
use crate::input::{EXAMPLE_Y_SCORE, EXAMPLE_Y_TRUE};

/// What the comment above the Python and R forms says.
const ABOUT: &str = "The rankmetrics built-in example: 8 samples x 5 labels; the scores are \
                     a k-NN classifier's (k = 5), multiples of 0.2 that tie often.";

/// The text `example` prints.
///
/// # Errors
/// CSV and TSV hold one matrix: a message when none is named.
pub fn text(args: &ExampleArgs) -> Result<String, String> {
    let delimited = |separator: &str| match args.matrix {
        Some(ExampleMatrix::YTrue) => Ok(delimited(EXAMPLE_Y_TRUE, separator)),
        Some(ExampleMatrix::YScore) => Ok(delimited(EXAMPLE_Y_SCORE, separator)),
        None => Err(format!(
            "a {} file holds one matrix: name it, y-true or y-score (rankmetrics example y-true \
             > y_true.csv), or print both with --format python or --format r",
            if separator == "," { "CSV" } else { "TSV" }
        )),
    };
    match args.format {
        ExampleFormat::Csv => delimited(","),
        ExampleFormat::Tsv => delimited("\t"),
        ExampleFormat::Python => Ok(python(args.matrix)),
        ExampleFormat::R => Ok(r(args.matrix)),
    }
}

/// The numbers of a built-in matrix, row by row, as written in the source (so `0.2` stays
/// `0.2`, which every reader parses to the same float64).
fn rows(matrix: &'static str) -> Vec<Vec<&'static str>> {
    matrix
        .lines()
        .map(|line| line.split_whitespace().collect())
        .collect()
}

/// A header line naming the labels (`label0`, `label1`, ...) and the rows. The header keeps
/// readers that take a first line as column names by default (pandas' `read_csv`, R's
/// `read.csv`) from taking the first sample as one; `eval` skips it.
fn delimited(matrix: &'static str, separator: &str) -> String {
    let rows = rows(matrix);
    let width = rows.first().map_or(0, Vec::len);
    let header: Vec<String> = (0..width).map(|j| format!("label{j}")).collect();
    let mut out = header.join(separator) + "\n";
    for row in rows {
        out.push_str(&row.join(separator));
        out.push('\n');
    }
    out
}

/// The matrices `which` names, or both, with their variable names.
fn chosen(which: Option<ExampleMatrix>) -> Vec<(&'static str, &'static str)> {
    let both = [("y_true", EXAMPLE_Y_TRUE), ("y_score", EXAMPLE_Y_SCORE)];
    both.into_iter()
        .filter(|(name, _)| match which {
            Some(ExampleMatrix::YTrue) => *name == "y_true",
            Some(ExampleMatrix::YScore) => *name == "y_score",
            None => true,
        })
        .collect()
}

/// NumPy arrays, as scikit-learn's metrics take them.
fn python(which: Option<ExampleMatrix>) -> String {
    let mut out = format!("# {ABOUT}\nimport numpy as np\n");
    for (name, matrix) in chosen(which) {
        let _ = writeln!(out, "\n{name} = np.array([");
        for row in rows(matrix) {
            let _ = writeln!(out, "    [{}],", row.join(", "));
        }
        out.push_str("])\n");
    }
    out
}

/// R matrices, a row per sample, as mldr's and R's functions take them.
fn r(which: Option<ExampleMatrix>) -> String {
    let mut out = format!("# {ABOUT}\n");
    for (name, matrix) in chosen(which) {
        let rows = rows(matrix);
        let _ = writeln!(out, "\n{name} <- matrix(c(");
        let last = rows.len().saturating_sub(1);
        for (i, row) in rows.iter().enumerate() {
            let end = if i == last { "" } else { "," };
            let _ = writeln!(out, "  {}{end}", row.join(", "));
        }
        let _ = writeln!(out, "), nrow = {}, byrow = TRUE)", rows.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_holds_every_number() {
        let numbers = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| !l.starts_with('#') && !l.starts_with("label"))
                .flat_map(|l| l.split([',', '\t', ' ', '[', ']', '(', ')']))
                .filter(|f| f.parse::<f64>().is_ok())
                .map(String::from)
                .collect()
        };
        let source: Vec<String> = [EXAMPLE_Y_TRUE, EXAMPLE_Y_SCORE]
            .iter()
            .flat_map(|m| m.split_whitespace().map(String::from))
            .collect();
        // `nrow = 8` adds an 8 after each R matrix.
        let mut r_numbers = numbers(&r(None));
        assert_eq!(r_numbers.remove(40), "8");
        assert_eq!(r_numbers.pop().as_deref(), Some("8"));
        assert_eq!(r_numbers, source);
        assert_eq!(numbers(&python(None)), source);
        let csv = delimited(EXAMPLE_Y_TRUE, ",") + &delimited(EXAMPLE_Y_SCORE, ",");
        assert_eq!(numbers(&csv), source);
    }
}
