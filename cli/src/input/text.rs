//! Delimited text: numbers separated by commas, tabs or whitespace, one sample per line, with
//! an optional header line.

use std::io::BufRead;

use super::lines::Lines;
use super::InputError;

/// How fields of a text line are separated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Separator {
    /// Commas when the first non-blank line has one, else whitespace.
    Detect,
    Comma,
    Tab,
    Whitespace,
}

/// What to do with the first line of a text file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum HeaderRule {
    /// It is data (the built-in example).
    None,
    /// Skip it if none of its fields is a number; `note` says so on stderr.
    Detect { note: bool },
    /// Skip it (`--header`).
    Forced,
}

/// Delimited text, parsed line by line. Blank lines may only trail the data: one inside it
/// would silently shift every later sample.
pub(super) struct TextRows<'a> {
    lines: Lines<'a>,
    separator: Separator,
    /// Fields per line: fixed (weights), or set by the first data line.
    width: Option<usize>,
    /// The line that set the width, for the ragged-line message.
    width_line: Option<usize>,
    header: HeaderRule,
    /// The first blank line after the last data line.
    blank: Option<usize>,
}

impl<'a> TextRows<'a> {
    pub(super) fn new(
        reader: Box<dyn BufRead + 'a>,
        separator: Separator,
        width: Option<usize>,
        header: HeaderRule,
    ) -> Self {
        TextRows {
            lines: Lines::new(reader),
            separator,
            width,
            width_line: None,
            header,
            blank: None,
        }
    }

    pub(super) fn read_rows(
        &mut self,
        source: &str,
        gz: bool,
        max: usize,
        out: &mut Vec<f64>,
    ) -> Result<usize, InputError> {
        let error = |line: usize, column: usize, message: String| InputError {
            source: source.to_string(),
            place: Some((line, column)),
            message,
        };
        let mut read = 0;
        while read < max {
            let Some((line_no, line)) = self.lines.next(source, gz)? else {
                break;
            };
            if line_no == 1 && self.header != HeaderRule::None {
                let forced = self.header == HeaderRule::Forced;
                if is_header(line, self.separator, forced) {
                    if self.header == (HeaderRule::Detect { note: true }) {
                        eprintln!("rankmetrics: {source}: line 1 is a header, skipped");
                    }
                    continue;
                }
            }
            if line.trim().is_empty() {
                self.blank.get_or_insert(line_no);
                continue;
            }
            if let Some(blank) = self.blank {
                return Err(error(
                    blank,
                    1,
                    "blank line among the samples (only trailing blank lines are allowed)".into(),
                ));
            }
            if self.separator == Separator::Detect {
                self.separator = if line.contains(',') {
                    Separator::Comma
                } else {
                    Separator::Whitespace
                };
            }
            let fields = fields(line, self.separator);
            let expected = *self.width.get_or_insert_with(|| {
                self.width_line = Some(line_no);
                fields.len()
            });
            if fields.len() != expected {
                let message = match self.width_line {
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
                out.push(x);
            }
            read += 1;
        }
        Ok(read)
    }
}

/// Splits a line into fields.
fn fields(line: &str, separator: Separator) -> Vec<&str> {
    match separator {
        Separator::Comma => line.split(',').map(str::trim).collect(),
        Separator::Tab => line.split('\t').map(str::trim).collect(),
        Separator::Whitespace | Separator::Detect => line.split_whitespace().collect(),
    }
}

/// Whether a file's first line is a header: always when `forced`, else when it has fields
/// and none of them is a number (a line of column names).
fn is_header(first: &str, separator: Separator, forced: bool) -> bool {
    let separator = match separator {
        Separator::Detect if first.contains(',') => Separator::Comma,
        s => s,
    };
    forced
        || (!first.trim().is_empty()
            && fields(first, separator)
                .iter()
                .all(|f| f.parse::<f64>().is_err()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{Kind, RowStream, Table};

    /// A text stream over `text`, as the built-in example is read but with `header`.
    fn text_stream(text: &[u8], separator: Separator, width: Option<usize>) -> RowStream<'_> {
        RowStream {
            source: "f.csv".into(),
            size: 0,
            gz: false,
            kind: Kind::Text(TextRows::new(
                Box::new(text),
                separator,
                width,
                HeaderRule::None,
            )),
            rows: 0,
            cols: 0,
        }
    }

    fn parse_table(text: &str, width: Option<usize>) -> Result<Table, InputError> {
        text_stream(text.as_bytes(), Separator::Detect, width).read_all()
    }

    #[test]
    fn commas_and_whitespace_read_alike() {
        let a = parse_table("1,2.5, -3\r\n4 ,5,6\n\n \n", None).unwrap();
        let b = parse_table("1\t2.5  -3\n4 5 6", None).unwrap();
        assert_eq!(a, b);
        assert_eq!((a.rows, a.cols), (2, 3));
        assert_eq!(a.data, [1.0, 2.5, -3.0, 4.0, 5.0, 6.0]);
        let tsv = text_stream(b"1\t2.5\t -3\n4\t5\t6\n", Separator::Tab, None).read_all();
        assert_eq!(tsv.unwrap(), a);
    }

    #[test]
    fn chunks_read_the_same_rows_as_one_read() {
        let text: String = (0..10).map(|i| format!("{i},{}\n", i * 2)).collect();
        let whole = parse_table(&text, None).unwrap();
        let mut stream = text_stream(text.as_bytes(), Separator::Detect, None);
        let mut data = Vec::new();
        let sizes: Vec<usize> = (0..4)
            .map(|_| stream.read_rows(3, &mut data).unwrap())
            .collect();
        assert_eq!(sizes, [3, 3, 3, 1]);
        assert_eq!((data, stream.rows(), stream.cols()), (whole.data, 10, 2));
        assert_eq!(stream.read_rows(3, &mut Vec::new()).unwrap(), 0);
    }

    #[test]
    fn non_finite_spellings_reach_the_library() {
        let t = parse_table("nan inf -inf NaN Infinity", None).unwrap();
        assert!(t.data[0].is_nan() && t.data[3].is_nan());
        assert_eq!(t.data[1..3], [f64::INFINITY, f64::NEG_INFINITY]);
        assert_eq!(t.data[4], f64::INFINITY);
    }

    #[test]
    fn errors_name_line_and_field() {
        let e = |text, width| parse_table(text, width).unwrap_err().to_string();
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
        let not_utf8 = text_stream(b"1 2\n\xC3(\n", Separator::Detect, None).read_all();
        assert_eq!(
            not_utf8.unwrap_err().to_string(),
            "f.csv: line 2: not UTF-8 text"
        );
    }

    #[test]
    fn blank_files_have_no_rows() {
        for text in ["", "\n\n", " \r\n\t\n", "\u{feff}"] {
            let t = parse_table(text, None).unwrap();
            assert_eq!((t.rows, t.cols, t.data.len()), (0, 0, 0));
        }
    }

    #[test]
    fn a_first_line_without_numbers_is_a_header() {
        assert!(is_header("a,b,c", Separator::Detect, false));
        // One number makes it data (and its other fields errors).
        assert!(!is_header("1,b,c", Separator::Detect, false));
        assert!(is_header("1 2", Separator::Whitespace, true));
        assert!(!is_header("", Separator::Detect, false));
    }
}
