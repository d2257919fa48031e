//! Delimited text: numbers separated by commas, tabs or whitespace, one sample per line, with
//! an optional header line. Fields may be quoted (R quotes its header and row names), and the
//! first column is skipped when it is a row index: pandas' `to_csv` and R's `write.csv` write
//! one by default, under an empty header name.

use std::borrow::Cow;
use std::io::BufRead;

use super::fields::{counts_columns, fields, first_line_separator, Separator};
use super::first_line::{not_written_alike, CountingLine};
use super::lines::Lines;
use super::InputError;

/// What to do with the first line of a text file; `note` says on stderr what was skipped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum HeaderRule {
    /// It is data (the built-in example).
    None,
    /// Skip it if none of its fields is a number, or if its first field is empty (pandas'
    /// header over its index column: `,0,1,2`); refuse one that counts the columns
    /// (`0,1,2`), which reads as either, unless the evidence decided it first
    /// (`super::first_line`).
    Detect { note: bool },
    /// Skip it (`--header`).
    Forced { note: bool },
}

/// The first column of a file whose header leaves it unnamed: a row index, skipped while it
/// counts the rows from `base`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Index {
    /// The header names it: the column is data.
    None,
    /// Unnamed; no data line read yet.
    Expected,
    /// Counting from 0 (pandas' index) or 1 (R's row names).
    Counting { base: u64 },
}

/// Delimited text, parsed line by line. Blank lines may only trail the data: one inside it
/// would silently shift every later sample.
pub(super) struct TextRows<'a> {
    lines: Lines<'a>,
    /// The first line, read ahead by [`names`](Self::names) when it is data.
    pending: Option<(usize, String)>,
    /// Whether the first line has been read.
    started: bool,
    parser: Parser,
}

/// Turns data lines into numbers.
struct Parser {
    separator: Separator,
    /// Fields per line, the index column aside: fixed (weights), or set by the first data line.
    width: Option<usize>,
    /// The line that set the width, for the ragged-line message.
    width_line: Option<usize>,
    header: HeaderRule,
    /// The header's column names, the index column's aside.
    names: Option<Vec<String>>,
    index: Index,
    /// Data lines read.
    rows: u64,
    /// The first blank line after the last data line.
    blank: Option<usize>,
}

impl<'a> TextRows<'a> {
    pub(super) fn new(
        reader: Box<dyn BufRead + 'a>, separator: Separator, width: Option<usize>,
        header: HeaderRule,
    ) -> Self {
        TextRows {
            lines: Lines::new(reader),
            pending: None,
            started: false,
            parser: Parser {
                separator,
                width,
                width_line: None,
                header,
                names: None,
                index: Index::None,
                rows: 0,
                blank: None,
            },
        }
    }

    /// The header's column names (without an index column's), reading the first line if
    /// nothing has been read yet; `None` without a header line.
    ///
    /// # Errors
    /// The first line cannot be read.
    pub(super) fn names(
        &mut self, source: &str, gz: bool,
    ) -> Result<Option<&[String]>, InputError> {
        if !self.started {
            self.started = true;
            if let Some((line_no, line)) = self.lines.next(source, gz)? {
                if !self.parser.header(source, line)? {
                    self.pending = Some((line_no, line.to_string()));
                }
            }
        }
        Ok(self.parser.names.as_deref())
    }

    /// Reads the file through when its first line counts the columns (`0,1,...,n-1`), which
    /// reads both as pandas' column names and as a sample, to weigh what the other lines say
    /// of it; `None` for a file whose first line is settled by itself.
    ///
    /// # Errors
    /// A line cannot be read.
    pub(super) fn weigh_first_line(
        &mut self, source: &str, gz: bool,
    ) -> Result<Option<CountingLine>, InputError> {
        let Some((_, first)) = self.lines.next(source, gz)? else {
            return Ok(None);
        };
        let separator = first_line_separator(self.parser.separator, first);
        let names = fields(first, separator);
        if !counts_columns(&names) {
            return Ok(None);
        }
        let width = names.len();
        let mut counting = CountingLine {
            text: first.trim().to_string(),
            width,
            samples: 1,
            not_a_sample: None,
        };
        let quoted = first.contains('"');
        while let Some((line_no, line)) = self.lines.next(source, gz)? {
            if line.trim().is_empty() {
                continue;
            }
            counting.samples += 1;
            if counting.not_a_sample.is_none() {
                let first_data_line = counting.samples == 2;
                counting.not_a_sample =
                    not_written_alike(line_no, line, separator, width, quoted, first_data_line);
                if counting.not_a_sample.is_some() {
                    // Settled: a header, whatever the row counts.
                    return Ok(Some(counting));
                }
            }
        }
        Ok(Some(counting))
    }

    pub(super) fn read_rows(
        &mut self, source: &str, gz: bool, max: usize, out: &mut Vec<f64>,
    ) -> Result<usize, InputError> {
        self.names(source, gz)?;
        let mut read = 0;
        if max > 0 {
            if let Some((line_no, line)) = self.pending.take() {
                read += usize::from(self.parser.line(source, line_no, &line, out)?);
            }
        }
        while read < max {
            let Some((line_no, line)) = self.lines.next(source, gz)? else {
                break;
            };
            read += usize::from(self.parser.line(source, line_no, line, out)?);
        }
        Ok(read)
    }
}

impl Parser {
    /// Takes the first line as the header if it is one (saying so on stderr if asked), and
    /// returns whether it was.
    ///
    /// # Errors
    /// Under [`HeaderRule::Detect`], a line that counts the columns (`0,1,2`): it reads as
    /// pandas' column names and as a sample alike, and only the evidence weighed before the
    /// files are read (`super::first_line`) may choose.
    fn header(&mut self, source: &str, first: &str) -> Result<bool, InputError> {
        let fields = fields(first, first_line_separator(self.separator, first));
        match self.header {
            HeaderRule::None => return Ok(false),
            HeaderRule::Forced { .. } => {}
            HeaderRule::Detect { note } => {
                if counts_columns(&fields) {
                    return Err(InputError {
                        source: source.to_string(),
                        place: Some((1, 1)),
                        message: format!(
                            "line 1 ({}) reads both as pandas' column names and as a sample; \
                             --header reads it as a header, --no-header as a sample",
                            first.trim()
                        ),
                    });
                }
                if !is_header(first, &fields) {
                    return Ok(false);
                }
                if note {
                    eprintln!("rankmetrics: {source}: line 1 is a header, skipped");
                }
            }
        }
        let mut names: Vec<String> = fields.into_iter().map(Cow::into_owned).collect();
        if names.len() >= 2 && names[0].is_empty() {
            names.remove(0);
            self.index = Index::Expected;
        }
        self.names = Some(names);
        Ok(true)
    }

    /// Parses a line that is not the header into `out`; returns whether it was a sample (not
    /// a blank line).
    fn line(
        &mut self, source: &str, line_no: usize, line: &str, out: &mut Vec<f64>,
    ) -> Result<bool, InputError> {
        let error = |column: usize, message: String| InputError {
            source: source.to_string(),
            place: Some((line_no, column)),
            message,
        };
        if line.trim().is_empty() {
            self.blank.get_or_insert(line_no);
            return Ok(false);
        }
        if let Some(blank) = self.blank {
            return Err(InputError {
                place: Some((blank, 1)),
                ..error(
                    1,
                    "blank line among the samples (only trailing blank lines are allowed)".into(),
                )
            });
        }
        if self.separator == Separator::Detect {
            self.separator = if line.contains(',') {
                Separator::Comma
            } else {
                Separator::Whitespace
            };
        }
        let mut fields = fields(line, self.separator);
        // A header one name short of the first data line leaves the first column unnamed: a
        // row index (R's write.table, pandas' to_csv with sep=' ', whose empty first name a
        // whitespace split drops). Any other difference in width is an error, never a
        // silent shift of the columns.
        if let (Some(names), Index::None, None) = (&self.names, self.index, self.width) {
            if fields.len() == names.len() + 1 {
                self.index = Index::Expected;
            } else if fields.len() != names.len() {
                return Err(error(
                    1,
                    format!(
                        "the header names {} columns but this line holds {} values",
                        names.len(),
                        fields.len()
                    ),
                ));
            }
        }
        // The field number of the first value, 1-based, for messages.
        let mut first = 1;
        if self.index != Index::None && !fields.is_empty() {
            self.row_index(source, &fields[0])
                .map_err(|m| error(1, m))?;
            fields.remove(0);
            first = 2;
        }
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
            return Err(error(expected.min(fields.len()) + first, message));
        }
        for (j, field) in fields.iter().enumerate() {
            let x = field
                .parse::<f64>()
                .map_err(|_| error(j + first, format!("expected a number, found {field:?}")))?;
            out.push(x);
        }
        self.rows += 1;
        Ok(true)
    }

    /// Checks the first field of a data line in a file whose header leaves the first column
    /// unnamed: it must count the rows, from 0 (pandas' index) or 1 (R's row names), for the
    /// column to be skipped as an index. Otherwise it holds names that are no samples' data,
    /// and the message says how to save the file without them.
    fn row_index(&mut self, source: &str, field: &str) -> Result<(), String> {
        let value = field.parse::<u64>().ok();
        let base = match (self.index, value) {
            (Index::Counting { base }, _) => base,
            (_, Some(first @ (0 | 1))) => {
                if matches!(
                    self.header,
                    HeaderRule::Detect { note: true } | HeaderRule::Forced { note: true }
                ) {
                    let (what, fix) = index_kind(first);
                    eprintln!(
                        "rankmetrics: {source}: column 1 has no name in the header and counts \
                         the rows from {first} ({what}): skipped as a row index; {fix} leaves \
                         it out"
                    );
                }
                self.index = Index::Counting { base: first };
                first
            }
            _ => 0,
        };
        let expected = self.rows + base;
        if value == Some(expected) {
            return Ok(());
        }
        Err(match self.index {
            Index::Counting { base } => {
                let (what, fix) = index_kind(base);
                format!(
                    "column 1 has no name in the header and counted the rows ({what}), but \
                     holds {field:?} here where {expected} would follow, so it cannot be \
                     skipped safely as a row index; save the file without it: {fix}"
                )
            }
            _ => format!(
                "column 1 has no name in the header, so it holds row names (pandas' to_csv and \
                 R's write.csv write them by default), but they do not count the rows from 0 \
                 or 1 (found {field:?}), so they cannot be skipped safely; save the file \
                 without them: df.to_csv(path, index=False) in pandas, write.csv(m, path, \
                 row.names = FALSE) in R"
            ),
        })
    }
}

/// What a row index counting from `base` is, and the save option that leaves it out.
fn index_kind(base: u64) -> (&'static str, &'static str) {
    if base == 0 {
        (
            "pandas' default index 0, 1, 2, ...",
            "df.to_csv(path, index=False)",
        )
    } else {
        (
            "R's default row names \"1\", \"2\", ...",
            "write.csv(m, path, row.names = FALSE)",
        )
    }
}

/// Whether a file's first line, split into `fields`, is a header that no sample could be: it
/// has fields and none of them is a number (a line of column names), or its first field is
/// empty (the unnamed index column over pandas' default column names: `,0,1,2`).
fn is_header<S: AsRef<str>>(first: &str, fields: &[S]) -> bool {
    (!first.trim().is_empty() && fields.iter().all(|f| f.as_ref().parse::<f64>().is_err()))
        || (fields.len() >= 2 && fields[0].as_ref().is_empty())
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
            order: None,
            float32: false,
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
    fn quoted_fields_are_unquoted() {
        let f = |line, sep| -> Vec<String> {
            fields(line, sep).into_iter().map(Cow::into_owned).collect()
        };
        assert_eq!(
            f("\"\",\"V1\",\"a,b\"", Separator::Comma),
            ["", "V1", "a,b"]
        );
        assert_eq!(
            f("\"1\", 0.5 ,\"say \"\"x\"\"\"", Separator::Comma),
            ["1", "0.5", "say \"x\""]
        );
        assert_eq!(
            f("\"1\"  0 \"a b\"", Separator::Whitespace),
            ["1", "0", "a b"]
        );
        assert_eq!(f("\"1\"\t\t2", Separator::Tab), ["1", "", "2"]);
        let t = parse_table("\"1\",\"0.5\"\n2,3\n", None).unwrap();
        assert_eq!(t.data, [1.0, 0.5, 2.0, 3.0]);
    }

    #[test]
    fn a_first_line_without_numbers_is_a_header() {
        let header = |line: &str, separator| {
            is_header(line, &fields(line, first_line_separator(separator, line)))
        };
        assert!(header("a,b,c", Separator::Detect));
        // One number makes it data (and its other fields errors).
        assert!(!header("1,b,c", Separator::Detect));
        assert!(!header("", Separator::Detect));
        // pandas' header over its index and default column names; R's quoted one.
        assert!(header(",0,1,2", Separator::Detect));
        assert!(header("\"\",\"V1\"", Separator::Detect));
        // Column names 0, 1, ..., n-1 read as a sample too: not a header by themselves.
        for data in [
            "0,1,2",
            "0 1 2 3",
            "\"0\",\"1\"",
            "0",
            "1,0,1",
            "0.0,1.0,2.0",
        ] {
            assert!(!header(data, Separator::Detect), "{data}");
        }
    }

    #[test]
    fn only_exact_column_counts_are_weighed() {
        let counts = |line: &str| {
            counts_columns(&fields(line, first_line_separator(Separator::Detect, line)))
        };
        for line in ["0,1", "0,1,2", "0 1 2 3", "\"0\",\"1\"", " 0 , 1 "] {
            assert!(counts(line), "{line}");
        }
        for line in [
            "0",
            "1,0,1",
            "0,1,3",
            "0,2,1",
            "0.0,1.0,2.0",
            "0,1,2,3,5",
            "1,2,3",
            ",0,1",
        ] {
            assert!(!counts(line), "{line}");
        }
    }

    /// What the rest of a file says of its line 1, `0,1,2`.
    fn weighed(text: &str) -> Option<CountingLine> {
        let mut rows = TextRows::new(
            Box::new(text.as_bytes()),
            Separator::Detect,
            None,
            HeaderRule::Detect { note: false },
        );
        rows.weigh_first_line("f.csv", false).unwrap()
    }

    #[test]
    fn lines_written_otherwise_show_a_header() {
        let why = |text: &str| weighed(text).and_then(|c| c.not_a_sample);
        // Whole numbers with a decimal point or an exponent, as pandas' floats and numpy's
        // default %.18e write them.
        assert!(why("0,1,2\n0.5,0.25,1.0\n")
            .unwrap()
            .starts_with("line 2 writes the whole number 1 as \"1.0\" (field 3)"));
        assert!(why("0,1,2\n1,1,1\n0.000e+00,1,1\n").is_some());
        // A row index under the header; quoted names over unquoted numbers.
        assert!(why("0,1,2\n0,1,0,1\n").unwrap().contains("a row index"));
        assert!(why("\"0\",\"1\",\"2\"\n1,0,1\n")
            .unwrap()
            .contains("quotes"));
        // What %d, %g and %.17g write alike: nothing tells.
        for text in [
            "0,1,2\n1,0,1\n",
            "0,1,2\n0.5,0.25,3\n",
            "0,1,2\n0.10000000000000001,1,2\n",
            // A whole number beyond what line 1 writes, as %g writes it.
            "0,1,2\n1e+06,1.5e+20,0.5\n",
            "\"0\",\"1\",\"2\"\n\"1\",\"0\",\"1\"\n",
        ] {
            let counted = weighed(text).unwrap();
            assert_eq!((counted.not_a_sample, counted.samples), (None, 2), "{text}");
        }
        assert_eq!(weighed("0,1,2\n1,1,1\n2,2,2\n\n").unwrap().samples, 3);
        assert_eq!(weighed("0,1,3\n1,1,1\n"), None);
        assert_eq!(weighed(""), None);
    }

    #[test]
    fn an_undecided_column_count_is_refused_not_guessed() {
        let mut rows = TextRows::new(
            Box::new(&b"0,1\n1,0\n"[..]),
            Separator::Detect,
            None,
            HeaderRule::Detect { note: false },
        );
        let e = rows
            .read_rows("f.csv", false, 10, &mut Vec::new())
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.csv:1:1: line 1 (0,1) reads both as pandas' column names and as a sample; \
             --header reads it as a header, --no-header as a sample"
        );
    }
}
