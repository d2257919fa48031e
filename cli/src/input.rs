//! Reading the data files: delimited text (CSV, TSV, whitespace), NumPy `.npy`, sparse label
//! lists (`.labels`), each optionally gzip-compressed (`.gz`).

use std::fmt;
use std::io::{BufRead, BufReader, Read};
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

/// Rows per chunk when streaming: about 640 kB of numbers for 20 labels.
pub const CHUNK_ROWS: usize = 4096;

impl Inputs {
    /// Reads the files whole, or takes the built-in example when both data files are `None`.
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
        let mut scores = RowStream::scores(y_true, y_score, options, progress)?;
        scores.start_stage(progress);
        let y_score = scores.read_all()?;
        let mut labels = scores.labels_for(y_true, options, progress)?;
        labels.start_stage(progress);
        let y_true = labels.read_all()?;
        if labels.rows() != scores.rows() {
            return Err(row_count_mismatch(&labels, &scores));
        }
        let weights = match sample_weight {
            Some(w) => {
                let mut w = RowStream::open(w, Role::Weights, options, None, progress)?;
                w.start_stage(progress);
                Some(w.read_all()?.data)
            }
            None => None,
        };
        Ok(Inputs {
            y_true,
            y_score,
            weights,
        })
    }
}

/// The error for label and score files of different lengths (both read to their end).
pub fn row_count_mismatch(labels: &RowStream<'_>, scores: &RowStream<'_>) -> InputError {
    InputError::new(
        &labels.source,
        format!(
            "{} samples, but {} has {} (one sample per line)",
            labels.rows, scores.source, scores.rows
        ),
    )
}

/// What a file holds, which decides the shapes and formats it may have.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Role {
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

/// A failed read: of the gzip decoder for a `.gz` file, of the file otherwise.
fn read_error(source: &str, gz: bool, e: std::io::Error) -> InputError {
    let what = if gz {
        "not valid gzip data"
    } else {
        "cannot read"
    };
    InputError::new(source, format!("{what}: {e}"))
}

/// A file's bytes as they are read, counted on the progress bar (compressed bytes for `.gz`).
struct Counted<'a, R> {
    inner: R,
    progress: &'a Progress,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.advance(n as u64);
        Ok(n)
    }
}

/// A data file read a chunk of rows at a time, in constant memory (except Fortran-order
/// `.npy`, whose rows are not contiguous: it is read whole).
pub struct RowStream<'a> {
    /// The name in error messages.
    source: String,
    /// The file's size on disk, for the progress bar.
    size: u64,
    /// Decoded reads fail as "not valid gzip data", plain ones as "cannot read".
    gz: bool,
    kind: Kind<'a>,
    /// Rows read so far.
    rows: usize,
    /// Numbers per row, once a row has been read.
    cols: usize,
}

enum Kind<'a> {
    Text(TextRows<'a>),
    Labels(LabelRows<'a>),
    Npy(NpyRows<'a>),
    /// Rows already in memory, from `next` on.
    Whole {
        table: Table,
        next: usize,
    },
}

impl<'a> RowStream<'a> {
    /// The scores file, or the built-in example's scores when neither file is given.
    ///
    /// # Errors
    /// As [`open`](Self::open); only one of the two data files given.
    pub fn scores(
        y_true: Option<&Path>,
        y_score: Option<&Path>,
        options: ReadOptions,
        progress: &'a Progress,
    ) -> Result<RowStream<'a>, InputError> {
        match (y_true, y_score) {
            (Some(_), Some(s)) => RowStream::open(s, Role::Scores, options, None, progress),
            (None, None) => Ok(RowStream::builtin("built-in y_score", EXAMPLE_Y_SCORE)),
            (Some(given), None) | (None, Some(given)) => Err(InputError::new(
                &given.display().to_string(),
                "--y-true and --y-score must be given together",
            )),
        }
    }

    /// The labels that go with these scores (`self`), whose first rows have been read when a
    /// `.labels` file takes its width from them.
    ///
    /// # Errors
    /// As [`open`](Self::open).
    pub fn labels_for(
        &self,
        y_true: Option<&Path>,
        options: ReadOptions,
        progress: &'a Progress,
    ) -> Result<RowStream<'a>, InputError> {
        match y_true {
            Some(t) => RowStream::open(t, Role::Labels, options, Some(self.cols), progress),
            None => Ok(RowStream::builtin("built-in y_true", EXAMPLE_Y_TRUE)),
        }
    }

    /// Opens `path` as `role`; `n_labels` is the scores' width, for a `.labels` file.
    ///
    /// # Errors
    /// The file cannot be opened, its format cannot hold `role`, or (`.npy`) its header is
    /// unusable.
    pub fn open(
        path: &Path,
        role: Role,
        options: ReadOptions,
        n_labels: Option<usize>,
        progress: &'a Progress,
    ) -> Result<RowStream<'a>, InputError> {
        let source = path.display().to_string();
        let (detected, gz) = detect(path);
        let format = options.format.or(detected);
        let cannot_read = |e: std::io::Error| InputError::new(&source, format!("cannot read: {e}"));
        let file = std::fs::File::open(path).map_err(cannot_read)?;
        let size = file.metadata().map_or(0, |m| m.len());
        let counted = Counted {
            inner: file,
            progress,
        };
        let reader: Box<dyn BufRead + 'a> = if gz {
            Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(
                BufReader::new(counted),
            )))
        } else {
            Box::new(BufReader::new(counted))
        };
        let mut stream = RowStream {
            source,
            size,
            gz,
            kind: Kind::Whole {
                table: Table {
                    data: Vec::new(),
                    rows: 0,
                    cols: 0,
                },
                next: 0,
            },
            rows: 0,
            cols: 0,
        };
        stream.kind = match format {
            Some(InputFormat::Npy) => stream.npy(reader, role)?,
            Some(InputFormat::Labels) => {
                if role != Role::Labels {
                    return Err(InputError::new(
                        &stream.source,
                        "a .labels file lists relevant labels, so it can only be --y-true; give \
                         scores and weights as csv, tsv, txt or npy",
                    ));
                }
                Kind::Labels(LabelRows {
                    lines: Lines::new(reader),
                    n_labels: options.n_labels.or(n_labels).unwrap_or(0),
                })
            }
            text_format => {
                let separator = match text_format {
                    Some(InputFormat::Csv) => Separator::Comma,
                    Some(InputFormat::Tsv) => Separator::Tab,
                    Some(InputFormat::Txt) => Separator::Whitespace,
                    _ => Separator::Detect,
                };
                let header = if options.header {
                    HeaderRule::Forced
                } else {
                    HeaderRule::Detect {
                        note: !options.quiet,
                    }
                };
                let width = (role == Role::Weights).then_some(1);
                Kind::Text(TextRows::new(reader, separator, width, header))
            }
        };
        Ok(stream)
    }

    /// The `.npy` reader: rows as they come in C order, the whole array in Fortran order.
    fn npy(&self, mut reader: Box<dyn BufRead + 'a>, role: Role) -> Result<Kind<'a>, InputError> {
        let header = npy::read_header(&mut reader)
            .map_err(|e| self.io_error(e))?
            .map_err(|m| InputError::new(&self.source, m))?;
        if role == Role::Weights && header.rows > 0 && header.cols > 1 {
            return Err(InputError::new(
                &self.source,
                format!(
                    "expected one weight per sample, found an array of {} columns",
                    header.cols
                ),
            ));
        }
        let mut rows = NpyRows {
            reader,
            header,
            next: 0,
            bytes: Vec::new(),
        };
        if !rows.header.fortran {
            return Ok(Kind::Npy(rows));
        }
        let mut data = Vec::new();
        let found = rows
            .reader
            .read_to_end(&mut data)
            .map_err(|e| self.io_error(e))?;
        if found != rows.header.data_len {
            return Err(InputError::new(
                &self.source,
                rows.header.wrong_data_len(found),
            ));
        }
        let header = &rows.header;
        Ok(Kind::Whole {
            table: Table {
                data: npy::values(header, &data),
                rows: header.rows,
                cols: header.cols,
            },
            next: 0,
        })
    }

    /// One of the built-in example's matrices.
    fn builtin(source: &str, text: &'static str) -> RowStream<'static> {
        RowStream {
            source: source.to_string(),
            size: text.len() as u64,
            gz: false,
            kind: Kind::Text(TextRows::new(
                Box::new(text.as_bytes()),
                Separator::Whitespace,
                None,
                HeaderRule::None,
            )),
            rows: 0,
            cols: 0,
        }
    }

    /// Starts the progress bar's stage for reading this file.
    pub fn start_stage(&self, progress: &Progress) {
        let name = Path::new(&self.source)
            .file_name()
            .map_or(self.source.clone(), |n| n.to_string_lossy().into_owned());
        progress.bytes(format!("reading {name}"), self.size);
    }

    /// The file's size on disk.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// A read error of this file.
    fn io_error(&self, e: std::io::Error) -> InputError {
        read_error(&self.source, self.gz, e)
    }

    /// Appends up to `max` rows to `out` (row-major) and returns how many; fewer than `max`
    /// only at the end of the file.
    ///
    /// # Errors
    /// The file cannot be read, or a line cannot be parsed (named by line and field).
    pub fn read_rows(&mut self, max: usize, out: &mut Vec<f64>) -> Result<usize, InputError> {
        let start = out.len();
        let read = match &mut self.kind {
            Kind::Text(t) => t.read_rows(&self.source, self.gz, max, out),
            Kind::Labels(l) => l.read_rows(&self.source, self.gz, max, out),
            Kind::Npy(n) => n.read_rows(&self.source, self.gz, max, out),
            Kind::Whole { table, next } => {
                let n = max.min(table.rows - *next);
                let cols = table.cols;
                out.extend_from_slice(&table.data[*next * cols..(*next + n) * cols]);
                *next += n;
                Ok(n)
            }
        }?;
        if let Some(cols) = (out.len() - start).checked_div(read) {
            self.cols = cols;
        }
        self.rows += read;
        Ok(read)
    }

    /// Reads the rest of the file, discarding it, and returns the number of rows in all.
    ///
    /// # Errors
    /// As [`read_rows`](Self::read_rows).
    pub fn count_rest(&mut self) -> Result<usize, InputError> {
        let mut scratch = Vec::new();
        while {
            scratch.clear();
            self.read_rows(CHUNK_ROWS, &mut scratch)? == CHUNK_ROWS
        } {}
        Ok(self.rows)
    }

    /// Reads every remaining row.
    ///
    /// # Errors
    /// As [`read_rows`](Self::read_rows).
    pub fn read_all(&mut self) -> Result<Table, InputError> {
        let mut data = Vec::new();
        let rows = self.read_rows(usize::MAX, &mut data)?;
        Ok(Table {
            data,
            rows,
            cols: if rows == 0 { 0 } else { self.cols },
        })
    }

    /// Rows read so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Numbers per row; 0 before the first row.
    pub fn cols(&self) -> usize {
        self.cols
    }
}

/// The lines of a file, numbered from 1, as UTF-8 text without their line ends (and the
/// first without a byte-order mark).
struct Lines<'a> {
    reader: Box<dyn BufRead + 'a>,
    buf: Vec<u8>,
    /// The number of the last line read.
    number: usize,
}

impl<'a> Lines<'a> {
    fn new(reader: Box<dyn BufRead + 'a>) -> Self {
        Lines {
            reader,
            buf: Vec::new(),
            number: 0,
        }
    }

    /// The next line and its number; `None` at the end.
    fn next(&mut self, source: &str, gz: bool) -> Result<Option<(usize, &str)>, InputError> {
        self.buf.clear();
        let read = self.reader.read_until(b'\n', &mut self.buf);
        if read.map_err(|e| read_error(source, gz, e))? == 0 {
            return Ok(None);
        }
        self.number += 1;
        let line = self.buf.strip_suffix(b"\n").unwrap_or(&self.buf);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line = std::str::from_utf8(line).map_err(|_| {
            InputError::new(source, format!("line {}: not UTF-8 text", self.number))
        })?;
        let line = if self.number == 1 {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        } else {
            line
        };
        Ok(Some((self.number, line)))
    }
}

/// What to do with the first line of a text file.
#[derive(Debug, Clone, Copy, PartialEq)]
enum HeaderRule {
    /// It is data (the built-in example).
    None,
    /// Skip it if none of its fields is a number; `note` says so on stderr.
    Detect { note: bool },
    /// Skip it (`--header`).
    Forced,
}

/// Delimited text, parsed line by line. Blank lines may only trail the data: one inside it
/// would silently shift every later sample.
struct TextRows<'a> {
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
    fn new(
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

    fn read_rows(
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

/// Sparse label lists: line i holds the 0-based indices of sample i's relevant labels,
/// separated by spaces or commas; an empty line is a sample without relevant labels.
struct LabelRows<'a> {
    lines: Lines<'a>,
    n_labels: usize,
}

impl LabelRows<'_> {
    fn read_rows(
        &mut self,
        source: &str,
        gz: bool,
        max: usize,
        out: &mut Vec<f64>,
    ) -> Result<usize, InputError> {
        let n_labels = self.n_labels;
        let mut read = 0;
        while read < max {
            let Some((line_no, line)) = self.lines.next(source, gz)? else {
                break;
            };
            let start = out.len();
            out.resize(start + n_labels, 0.0);
            let indices = line
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|f| !f.is_empty());
            for (j, field) in indices.enumerate() {
                let place = Some((line_no, j + 1));
                let index = field.parse::<usize>().map_err(|_| InputError {
                    source: source.to_string(),
                    place,
                    message: format!("expected a label index (0, 1, 2, ...), found {field:?}"),
                })?;
                match out.get_mut(start + index).filter(|_| index < n_labels) {
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
            read += 1;
        }
        Ok(read)
    }
}

/// A C-order `.npy` array, read a block of rows at a time.
struct NpyRows<'a> {
    reader: Box<dyn BufRead + 'a>,
    header: npy::Header,
    /// The next row to read.
    next: usize,
    bytes: Vec<u8>,
}

impl NpyRows<'_> {
    fn read_rows(
        &mut self,
        source: &str,
        gz: bool,
        max: usize,
        out: &mut Vec<f64>,
    ) -> Result<usize, InputError> {
        let done = self.next * self.header.row_len();
        let n = max.min(self.header.rows - self.next);
        let want = n * self.header.row_len();
        self.bytes.clear();
        let got = (&mut self.reader)
            .take(want as u64)
            .read_to_end(&mut self.bytes)
            .map_err(|e| read_error(source, gz, e))?;
        if got < want {
            return Err(InputError::new(
                source,
                self.header.wrong_data_len(done + got),
            ));
        }
        if self.next + n == self.header.rows {
            // The data must end with the last row.
            let extra = std::io::copy(&mut self.reader, &mut std::io::sink())
                .map_err(|e| read_error(source, gz, e))?;
            if extra > 0 {
                let found = self.header.data_len.saturating_add(extra as usize);
                return Err(InputError::new(source, self.header.wrong_data_len(found)));
            }
        }
        self.header.decode_into(&self.bytes, out);
        self.next += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn label_lists_become_indicator_rows() {
        let read = |text: &str, n_labels| {
            let mut rows = LabelRows {
                lines: Lines::new(Box::new(text.as_bytes())),
                n_labels,
            };
            let mut data = Vec::new();
            rows.read_rows("y.labels", false, usize::MAX, &mut data)
                .map(|n| (n, data))
        };
        let (rows, data) = read("0 2\n\n1,3\n", 4).unwrap();
        assert_eq!(rows, 3);
        assert_eq!(
            data,
            [1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0]
        );
        let e = |text| read(text, 3).unwrap_err().to_string();
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
    fn npy_rows_stream_and_check_the_data_length() {
        let f8: Vec<u8> = (0..12).flat_map(|x| f64::from(x).to_le_bytes()).collect();
        let read = |bytes: Vec<u8>, chunk| {
            let mut reader: Box<dyn BufRead> = Box::new(std::io::Cursor::new(bytes));
            let header = npy::read_header(&mut reader).unwrap().unwrap();
            let mut rows = NpyRows {
                reader,
                header,
                next: 0,
                bytes: Vec::new(),
            };
            let mut data = Vec::new();
            while rows.read_rows("s.npy", false, chunk, &mut data)? == chunk {}
            Ok::<_, InputError>(data)
        };
        let whole: Vec<f64> = (0..12).map(f64::from).collect();
        assert_eq!(
            read(npy::encode("<f8", false, &[4, 3], &f8), 3).unwrap(),
            whole
        );
        let long = npy::encode("<f8", false, &[3, 3], &f8);
        assert_eq!(
            read(long, 2).unwrap_err().to_string(),
            "s.npy: expected 72 bytes of data for shape [3, 3] of '<f8', found 96"
        );
        let short = npy::encode("<f8", false, &[5, 3], &f8);
        assert_eq!(
            read(short, 2).unwrap_err().to_string(),
            "s.npy: expected 120 bytes of data for shape [5, 3] of '<f8', found 96"
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
