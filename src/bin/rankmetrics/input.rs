//! Reading number files: one sample per line, numbers separated by commas or whitespace.

use std::fmt;
use std::path::Path;

/// A matrix read from a file, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The numbers, row after row.
    pub data: Vec<f64>,
    /// Samples (non-blank lines).
    pub rows: usize,
    /// Numbers per line; 0 when there are no rows.
    pub cols: usize,
}

/// A file that could not be read or parsed; `line` and `column` (field index) are 1-based.
#[derive(Debug, Clone, PartialEq)]
pub struct InputError {
    source: String,
    place: Option<(usize, usize)>,
    message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.place {
            Some((line, column)) => write!(f, "{}:{line}:{column}: {}", self.source, self.message),
            None => write!(f, "{}: {}", self.source, self.message),
        }
    }
}

/// The data a run evaluates.
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// True labels.
    pub y_true: Table,
    /// Scores.
    pub y_score: Table,
    /// Sample weights, when a weight file was given.
    pub weights: Option<Vec<f64>>,
}

/// True labels of the built-in example: 8 samples, 5 labels; sample 5 has no relevant label.
const EXAMPLE_Y_TRUE: &str = "\
1 0 0 1 0
0 1 0 0 0
1 1 0 0 1
0 0 1 0 0
0 0 0 0 0
1 0 1 0 0
0 1 0 1 1
0 0 1 1 0
";

/// Scores of the built-in example, as a k-NN classifier with k = 5 gives them (the share of
/// the 5 neighbours having the label), so they are multiples of 0.2 and tie often.
const EXAMPLE_Y_SCORE: &str = "\
0.8 0.2 0.0 0.8 0.2
0.4 0.4 0.2 0.0 0.6
0.6 0.6 0.0 0.2 0.6
0.2 0.0 0.4 0.4 0.0
0.2 0.2 0.0 0.4 0.0
1.0 0.0 0.6 0.2 0.0
0.0 0.6 0.2 0.6 0.4
0.2 0.0 0.8 0.2 0.2
";

impl Inputs {
    /// Reads the files, or takes the built-in example when both data files are `None`.
    pub fn read(
        y_true: Option<&Path>,
        y_score: Option<&Path>,
        sample_weight: Option<&Path>,
    ) -> Result<Inputs, InputError> {
        let (y_true, y_score) = match (y_true, y_score) {
            (Some(t), Some(s)) => (read_matrix(t)?, read_matrix(s)?),
            (None, None) => (
                parse_table("built-in y_true", EXAMPLE_Y_TRUE, None)?,
                parse_table("built-in y_score", EXAMPLE_Y_SCORE, None)?,
            ),
            (Some(given), None) | (None, Some(given)) => {
                return Err(InputError {
                    source: given.display().to_string(),
                    place: None,
                    message: "--y-true and --y-score must be given together".into(),
                })
            }
        };
        let weights = sample_weight.map(read_weights).transpose()?;
        Ok(Inputs {
            y_true,
            y_score,
            weights,
        })
    }
}

/// Reads a matrix file: every non-blank line a sample, every line the same number of fields.
fn read_matrix(path: &Path) -> Result<Table, InputError> {
    let source = path.display().to_string();
    parse_table(&source, &read_text(path)?, None)
}

/// Reads a weight file: one number per line.
fn read_weights(path: &Path) -> Result<Vec<f64>, InputError> {
    let source = path.display().to_string();
    Ok(parse_table(&source, &read_text(path)?, Some(1))?.data)
}

/// The file's text, or an error naming the line where it stops being UTF-8.
fn read_text(path: &Path) -> Result<String, InputError> {
    let source = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| InputError {
        source: source.clone(),
        place: None,
        message: format!("cannot read: {e}"),
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
        InputError {
            source,
            place: None,
            message: format!("line {line}: not UTF-8 text"),
        }
    })
}

/// Parses `text` (named `source` in errors). Fields are separated by commas when the first
/// non-blank line has one, else by whitespace. Blank lines may only trail the data: one inside
/// it would silently shift every later sample. `width` fixes the number of fields per line.
fn parse_table(source: &str, text: &str, width: Option<usize>) -> Result<Table, InputError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let data_lines = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |last| last + 1);
    let comma = lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.contains(','));
    let error = |line: usize, column: usize, message: String| InputError {
        source: source.to_string(),
        place: Some((line, column)),
        message,
    };
    let mut table = Table {
        data: Vec::new(),
        rows: 0,
        cols: width.unwrap_or(0),
    };
    // The line that fixed the width, for the ragged-line message.
    let mut width_line = None;
    for (i, line) in lines.iter().take(data_lines).enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            return Err(error(
                line_no,
                1,
                "blank line among the samples (only trailing blank lines are allowed)".into(),
            ));
        }
        let fields: Vec<&str> = if comma {
            line.split(',').map(str::trim).collect()
        } else {
            line.split_whitespace().collect()
        };
        let expected = match (table.rows, width) {
            (_, Some(w)) => w,
            (0, None) => {
                table.cols = fields.len();
                width_line = Some(line_no);
                fields.len()
            }
            _ => table.cols,
        };
        if fields.len() != expected {
            let message = match width_line {
                Some(first) => format!(
                    "expected {expected} numbers as on line {first}, found {}",
                    fields.len()
                ),
                None => format!(
                    "expected {expected} number per line, found {}",
                    fields.len()
                ),
            };
            return Err(error(line_no, expected.min(fields.len()) + 1, message));
        }
        for (j, field) in fields.iter().enumerate() {
            let x = field.parse::<f64>().map_err(|_| {
                error(
                    line_no,
                    j + 1,
                    format!("expected a number, found {field:?}"),
                )
            })?;
            table.data.push(x);
        }
        table.rows += 1;
    }
    if table.rows == 0 {
        table.cols = 0;
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commas_and_whitespace_read_alike() {
        let a = parse_table("a", "1,2.5, -3\r\n4 ,5,6\n\n \n", None).unwrap();
        let b = parse_table("b", "1\t2.5  -3\n4 5 6", None).unwrap();
        assert_eq!(a, b);
        assert_eq!((a.rows, a.cols), (2, 3));
        assert_eq!(a.data, [1.0, 2.5, -3.0, 4.0, 5.0, 6.0]);
    }

    #[test]
    fn non_finite_spellings_reach_the_library() {
        let t = parse_table("s", "nan inf -inf NaN Infinity", None).unwrap();
        assert!(t.data[0].is_nan() && t.data[3].is_nan());
        assert_eq!(t.data[1..3], [f64::INFINITY, f64::NEG_INFINITY]);
        assert_eq!(t.data[4], f64::INFINITY);
    }

    #[test]
    fn errors_name_line_and_field() {
        let e = |text, width| parse_table("f.csv", text, width).unwrap_err().to_string();
        assert_eq!(
            e("1,2\n3,n/a\n", None),
            "f.csv:2:2: expected a number, found \"n/a\""
        );
        assert_eq!(
            e("1,2\n3,4,5\n", None),
            "f.csv:2:3: expected 2 numbers as on line 1, found 3"
        );
        assert_eq!(
            e("1 2 3\n4\n", None),
            "f.csv:2:2: expected 3 numbers as on line 1, found 1"
        );
        assert_eq!(
            e("1,2\n\n3,4\n", None),
            "f.csv:2:1: blank line among the samples (only trailing blank lines are allowed)"
        );
        assert_eq!(
            e("1\n2 3\n", Some(1)),
            "f.csv:2:2: expected 1 number per line, found 2"
        );
        assert_eq!(
            e("1,,2\n", None),
            "f.csv:1:2: expected a number, found \"\""
        );
    }

    #[test]
    fn blank_files_have_no_rows() {
        for text in ["", "\n\n", " \r\n\t\n", "\u{feff}"] {
            let t = parse_table("e", text, None).unwrap();
            assert_eq!((t.rows, t.cols, t.data.len()), (0, 0, 0));
        }
    }
}
