//! Reading the data files: delimited text (CSV, TSV, whitespace), NumPy `.npy`, sparse label
//! lists (`.labels`), each optionally gzip-compressed (`.gz`).

use std::fmt;
use std::io::Read as _;
use std::path::Path;

use clap::ValueEnum;

use crate::npy;
use crate::progress::Progress;

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

impl InputError {
    fn new(source: &str, message: impl Into<String>) -> InputError {
        InputError {
            source: source.to_string(),
            place: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.place {
            Some((line, column)) => write!(f, "{}:{line}:{column}: {}", self.source, self.message),
            None => write!(f, "{}: {}", self.source, self.message),
        }
    }
}

/// A data file's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// Comma-separated numbers, one sample per line
    Csv,
    /// Tab-separated numbers
    Tsv,
    /// Numbers separated by spaces or tabs
    Txt,
    /// A NumPy array file (f32, f64, bool, u8, i32, i64; C or Fortran order)
    Npy,
    /// True labels only: per line the 0-based indices of the relevant labels, separated by
    /// spaces or commas; an empty line for none
    Labels,
}

/// How fields of a text line are separated.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Separator {
    /// Commas when the first non-blank line has one, else whitespace.
    Detect,
    Comma,
    Tab,
    Whitespace,
}

/// How to read the files, from the command line.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// The format of every data file, instead of the one its extension names.
    pub format: Option<InputFormat>,
    /// The first line of each text file is a header (otherwise a first line without any
    /// number is taken as one).
    pub header: bool,
    /// The number of labels of a `.labels` file (default: the scores' number of columns).
    pub n_labels: Option<usize>,
    /// No notes on stderr.
    pub quiet: bool,
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

/// What the stderr note says about the built-in example.
pub const EXAMPLE_NOTE: &str = "using the built-in example data (8 samples x 5 labels, k-NN \
     scores); pass your own with --y-true FILE --y-score FILE";

impl Inputs {
    /// Reads the files, or takes the built-in example when both data files are `None`.
    ///
    /// # Errors
    /// A file that cannot be read or parsed, or whose number of samples differs from the
    /// scores'.
    pub fn read(
        y_true: Option<&Path>,
        y_score: Option<&Path>,
        sample_weight: Option<&Path>,
        options: ReadOptions,
        progress: &Progress,
    ) -> Result<Inputs, InputError> {
        let (y_true, y_score) = match (y_true, y_score) {
            (Some(t), Some(s)) => {
                let scores = read_file(s, Role::Scores, options, None, progress)?;
                let labels = read_file(t, Role::Labels, options, Some(scores.cols), progress)?;
                if labels.rows != scores.rows {
                    return Err(InputError::new(
                        &t.display().to_string(),
                        format!(
                            "{} samples, but {} has {} (one sample per line)",
                            labels.rows,
                            s.display(),
                            scores.rows
                        ),
                    ));
                }
                (labels, scores)
            }
            (None, None) => (
                parse_text(
                    "built-in y_true",
                    EXAMPLE_Y_TRUE,
                    Separator::Whitespace,
                    None,
                    1,
                    progress,
                )?,
                parse_text(
                    "built-in y_score",
                    EXAMPLE_Y_SCORE,
                    Separator::Whitespace,
                    None,
                    1,
                    progress,
                )?,
            ),
            (Some(given), None) | (None, Some(given)) => {
                return Err(InputError::new(
                    &given.display().to_string(),
                    "--y-true and --y-score must be given together",
                ))
            }
        };
        let weights = sample_weight
            .map(|w| read_file(w, Role::Weights, options, None, progress).map(|t| t.data))
            .transpose()?;
        Ok(Inputs {
            y_true,
            y_score,
            weights,
        })
    }
}

/// What a file holds, which decides the shapes and formats it may have.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Role {
    Labels,
    Scores,
    Weights,
}

/// The format named by `path`'s extension (after an optional `.gz`) and whether it is
/// gzip-compressed. Unknown extensions read as delimited text.
fn detect(path: &Path) -> (Option<InputFormat>, bool) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let (name, gz) = match name.strip_suffix(".gz") {
        Some(inner) => (inner.to_string(), true),
        None => (name, false),
    };
    let format = match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("tsv" | "tab") => Some(InputFormat::Tsv),
        Some("npy") => Some(InputFormat::Npy),
        Some("labels") => Some(InputFormat::Labels),
        // CSV and plain text: the separator is detected from the first line.
        _ => None,
    };
    (format, gz)
}

/// Reads one file as `role`; `n_labels` is the scores' width, for a `.labels` file.
fn read_file(
    path: &Path,
    role: Role,
    options: ReadOptions,
    n_labels: Option<usize>,
    progress: &Progress,
) -> Result<Table, InputError> {
    let source = path.display().to_string();
    let (detected, gz) = detect(path);
    let format = options.format.or(detected);
    let raw =
        std::fs::read(path).map_err(|e| InputError::new(&source, format!("cannot read: {e}")))?;
    let bytes = if gz {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(raw.as_slice())
            .read_to_end(&mut out)
            .map_err(|e| InputError::new(&source, format!("not valid gzip data: {e}")))?;
        out
    } else {
        raw
    };
    let name = path
        .file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy();
    progress.bytes(format!("reading {name}"), bytes.len() as u64);
    let table = match format {
        Some(InputFormat::Npy) => {
            let a = npy::parse(&bytes).map_err(|m| InputError::new(&source, m))?;
            Table {
                data: a.data,
                rows: a.rows,
                cols: if a.rows == 0 { 0 } else { a.cols },
            }
        }
        Some(InputFormat::Labels) => {
            if role != Role::Labels {
                return Err(InputError::new(
                    &source,
                    "a .labels file lists relevant labels, so it can only be --y-true; give \
                     scores and weights as csv, tsv, txt or npy",
                ));
            }
            let n = options.n_labels.or(n_labels).unwrap_or(0);
            let text = utf8(&source, bytes)?;
            parse_label_lists(&source, &text, n, progress)?
        }
        text_format => {
            let separator = match text_format {
                Some(InputFormat::Csv) => Separator::Comma,
                Some(InputFormat::Tsv) => Separator::Tab,
                Some(InputFormat::Txt) => Separator::Whitespace,
                _ => Separator::Detect,
            };
            let text = utf8(&source, bytes)?;
            let width = (role == Role::Weights).then_some(1);
            let (text, skipped) = strip_header(&text, separator, options.header);
            if skipped && !options.header && !options.quiet {
                eprintln!("rankmetrics: {source}: line 1 is a header, skipped");
            }
            let first_line = if skipped { 2 } else { 1 };
            parse_text(&source, text, separator, width, first_line, progress)?
        }
    };
    if role == Role::Weights && table.cols > 1 {
        return Err(InputError::new(
            &source,
            format!(
                "expected one weight per sample, found an array of {} columns",
                table.cols
            ),
        ));
    }
    Ok(table)
}

/// The file's text, or an error naming the line where it stops being UTF-8.
fn utf8(source: &str, bytes: Vec<u8>) -> Result<String, InputError> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
        InputError::new(source, format!("line {line}: not UTF-8 text"))
    })
}

/// Splits a line into fields.
fn fields(line: &str, separator: Separator) -> Vec<&str> {
    match separator {
        Separator::Comma => line.split(',').map(str::trim).collect(),
        Separator::Tab => line.split('\t').map(str::trim).collect(),
        Separator::Whitespace | Separator::Detect => line.split_whitespace().collect(),
    }
}

/// The text without its header line, and whether it had one: the first line when `forced`,
/// else a first line in which no field is a number (a line of column names).
fn strip_header(text: &str, separator: Separator, forced: bool) -> (&str, bool) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let separator = match separator {
        Separator::Detect if first.contains(',') => Separator::Comma,
        s => s,
    };
    let names = !first.trim().is_empty()
        && fields(first, separator)
            .iter()
            .all(|f| f.parse::<f64>().is_err());
    if forced || names {
        (rest, true)
    } else {
        (text, false)
    }
}

/// Parses `text` (named `source` in errors; its first line is line `first_line` of the file).
/// Blank lines may only trail the data: one inside it would silently shift every later sample.
/// `width` fixes the number of fields per line.
fn parse_text(
    source: &str,
    text: &str,
    separator: Separator,
    width: Option<usize>,
    first_line: usize,
    progress: &Progress,
) -> Result<Table, InputError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let data_lines = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |last| last + 1);
    let separator = match separator {
        Separator::Detect => {
            let comma = lines
                .iter()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| l.contains(','));
            if comma {
                Separator::Comma
            } else {
                Separator::Whitespace
            }
        }
        s => s,
    };
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
        let line_no = i + first_line;
        progress.advance(line.len() as u64 + 1);
        if line.trim().is_empty() {
            return Err(error(
                line_no,
                1,
                "blank line among the samples (only trailing blank lines are allowed)".into(),
            ));
        }
        let fields = fields(line, separator);
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

/// Parses sparse label lists: line i holds the 0-based indices of sample i's relevant labels,
/// separated by spaces or commas; an empty line is a sample without relevant labels.
fn parse_label_lists(
    source: &str,
    text: &str,
    n_labels: usize,
    progress: &Progress,
) -> Result<Table, InputError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut table = Table {
        data: Vec::new(),
        rows: 0,
        cols: n_labels,
    };
    for (i, line) in text.lines().enumerate() {
        let start = table.data.len();
        table.data.resize(start + n_labels, 0.0);
        let indices = line
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|f| !f.is_empty());
        for (j, field) in indices.enumerate() {
            let place = Some((i + 1, j + 1));
            let index = field.parse::<usize>().map_err(|_| InputError {
                source: source.to_string(),
                place,
                message: format!("expected a label index (0, 1, 2, ...), found {field:?}"),
            })?;
            match table
                .data
                .get_mut(start + index)
                .filter(|_| index < n_labels)
            {
                Some(cell) => *cell = 1.0,
                None => {
                    return Err(InputError {
                        source: source.to_string(),
                        place,
                        message: format!(
                            "expected a label index below {n_labels} (the number of labels; \
                             set it with --n-labels), found {index}"
                        ),
                    })
                }
            }
        }
        table.rows += 1;
        progress.advance(line.len() as u64 + 1);
    }
    if table.rows == 0 {
        table.cols = 0;
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_table(source: &str, text: &str, width: Option<usize>) -> Result<Table, InputError> {
        parse_text(
            source,
            text,
            Separator::Detect,
            width,
            1,
            &Progress::new(true),
        )
    }

    #[test]
    fn commas_and_whitespace_read_alike() {
        let a = parse_table("a", "1,2.5, -3\r\n4 ,5,6\n\n \n", None).unwrap();
        let b = parse_table("b", "1\t2.5  -3\n4 5 6", None).unwrap();
        assert_eq!(a, b);
        assert_eq!((a.rows, a.cols), (2, 3));
        assert_eq!(a.data, [1.0, 2.5, -3.0, 4.0, 5.0, 6.0]);
        let hidden = Progress::new(true);
        let tsv = parse_text(
            "t",
            "1\t2.5\t -3\n4\t5\t6\n",
            Separator::Tab,
            None,
            1,
            &hidden,
        );
        let tsv = tsv.unwrap();
        assert_eq!(tsv, a);
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

    #[test]
    fn a_first_line_without_numbers_is_a_header() {
        let text = "a,b,c\n1,2,3\n";
        assert_eq!(
            strip_header(text, Separator::Detect, false),
            ("1,2,3\n", true)
        );
        // One number makes it data (and its other fields errors).
        let text = "1,b,c\n1,2,3\n";
        assert_eq!(strip_header(text, Separator::Detect, false), (text, false));
        assert_eq!(
            strip_header("x y\n1 2", Separator::Whitespace, true),
            ("1 2", true)
        );
        assert_eq!(strip_header("", Separator::Detect, false), ("", false));
    }

    #[test]
    fn label_lists_become_indicator_rows() {
        let hidden = Progress::new(true);
        let t = parse_label_lists("l", "0 2\n\n1,3\n", 4, &hidden).unwrap();
        assert_eq!((t.rows, t.cols), (3, 4));
        assert_eq!(
            t.data,
            [1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0]
        );
        let e = |text| {
            parse_label_lists("y.labels", text, 3, &hidden)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e("0\n1 3\n"),
            "y.labels:2:2: expected a label index below 3 (the number of labels; set it with \
             --n-labels), found 3"
        );
        assert_eq!(
            e("0 -1\n"),
            "y.labels:1:2: expected a label index (0, 1, 2, ...), found \"-1\""
        );
    }

    #[test]
    fn extensions_name_formats() {
        let d = |p: &str| detect(Path::new(p));
        assert_eq!(d("a/s.csv"), (None, false));
        assert_eq!(d("s.TSV.gz"), (Some(InputFormat::Tsv), true));
        assert_eq!(d("s.npy"), (Some(InputFormat::Npy), false));
        assert_eq!(d("y.labels.gz"), (Some(InputFormat::Labels), true));
        assert_eq!(d("noext"), (None, false));
    }
}
