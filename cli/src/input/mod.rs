//! Reading the data files: delimited text (CSV, TSV, whitespace), NumPy `.npy`, sparse label
//! lists (`.labels`), each optionally gzip-compressed (`.gz`).
//!
//! The files:
//! * `mod.rs`: what a run reads ([`Inputs`], [`ReadOptions`], [`InputFormat`], [`Table`]), its
//!   errors ([`InputError`]), and [`RowStream`], which opens a file as the format its
//!   extension names and hands out its rows a chunk at a time.
//! * `gz.rs`: a file's bytes, gzip-decoded for `.gz` and counted on the progress bar.
//! * `lines.rs`: the numbered UTF-8 lines of a text file.
//! * `fields.rs`: a text line's fields (separators, quotes), and the line `0,1,...,n-1`.
//! * `first_line.rs`: that line as line 1, decided from the files' evidence, or refused.
//! * `text.rs`: delimited numbers (CSV, TSV, whitespace, quoted or not), with header
//!   detection and the row index pandas and R write as a first column.
//! * `columns.rs`: the label and score files' column names, compared or matched.
//! * `labels.rs`: sparse label lists (`.labels`), as indicator rows.
//! * `npy_rows.rs`: the rows of a `.npy` array (its header and values: `crate::npy`).

mod columns;
mod fields;
mod first_line;
mod gz;
mod labels;
mod lines;
mod npy_rows;
mod text;

use std::fmt;
use std::path::Path;

use clap::ValueEnum;

pub use self::columns::match_columns;
use self::fields::Separator;
pub use self::first_line::{decide as decide_first_lines, FirstLine, FirstLines};
use self::labels::LabelRows;
use self::lines::Lines;
use self::npy_rows::NpyRows;
use self::text::{HeaderRule, TextRows};
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

/// How to read the files, from the command line.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// The format of every data file, instead of the one its extension names.
    pub format: Option<InputFormat>,
    /// The first line of each text file is a header (otherwise a first line without any
    /// number is one, and one that counts the columns from 0 as `first_lines` says).
    pub header: bool,
    /// The first line of each text file is a sample, even when it looks like a header.
    pub no_header: bool,
    /// The number of labels of a `.labels` file (default: the scores' number of columns).
    pub n_labels: Option<usize>,
    /// No notes on stderr.
    pub quiet: bool,
    /// Put the scores' columns in the labels' order, by the names in the header lines.
    pub align_columns: bool,
    /// How line 1 of the label and score files is read where it counts the columns
    /// (`0,1,...,n-1`), as [`decide_first_lines`] found from the evidence.
    pub first_lines: FirstLines,
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
    /// The scores file holds float32 values ([`RowStream::float32`]).
    pub scores_float32: bool,
}

/// True labels of the built-in example: 8 samples, 5 labels; sample 5 has no relevant label.
pub const EXAMPLE_Y_TRUE: &str = "\
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
pub const EXAMPLE_Y_SCORE: &str = "\
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
        y_true: Option<&Path>, y_score: Option<&Path>, sample_weight: Option<&Path>,
        options: ReadOptions, progress: &Progress,
    ) -> Result<Inputs, InputError> {
        let mut scores = RowStream::scores(y_true, y_score, options, progress)?;
        scores.start_stage(progress);
        let mut y_score = scores.read_all()?;
        let mut labels = scores.labels_for(y_true, options, progress)?;
        match_columns(
            &mut labels,
            &mut scores,
            options.align_columns,
            &mut y_score.data,
        )?;
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
            scores_float32: scores.float32(),
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
    /// Where each column of a row read comes from (`--align-columns`).
    order: Option<Vec<usize>>,
    /// A `.npy` file of float32 values (text has no dtype: its numbers are read as f64).
    float32: bool,
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
        y_true: Option<&Path>, y_score: Option<&Path>, options: ReadOptions, progress: &'a Progress,
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
        &self, y_true: Option<&Path>, options: ReadOptions, progress: &'a Progress,
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
        path: &Path, role: Role, options: ReadOptions, n_labels: Option<usize>,
        progress: &'a Progress,
    ) -> Result<RowStream<'a>, InputError> {
        let source = path.display().to_string();
        let (detected, gz) = detect(path);
        let format = options.format.or(detected);
        let cannot_read = |e: std::io::Error| InputError::new(&source, format!("cannot read: {e}"));
        let file = std::fs::File::open(path).map_err(cannot_read)?;
        let size = file.metadata().map_or(0, |m| m.len());
        let reader = gz::reader(file, gz, progress);
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
            order: None,
            float32: false,
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
                let note = !options.quiet;
                let header = match options.first_lines.of(role) {
                    _ if options.header => HeaderRule::Forced { note },
                    _ if options.no_header => HeaderRule::None,
                    FirstLine::Header => HeaderRule::Forced { note },
                    FirstLine::Sample => HeaderRule::None,
                    FirstLine::Undecided => HeaderRule::Detect { note },
                };
                let width = (role == Role::Weights).then_some(1);
                Kind::Text(TextRows::new(reader, separator, width, header))
            }
        };
        Ok(stream)
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
            order: None,
            float32: false,
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
        gz::read_error(&self.source, self.gz, e)
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
        if let Some(order) = self.order.as_deref().filter(|o| o.len() == self.cols) {
            let mut scratch = vec![0.0; order.len()];
            for row in out[start..].chunks_exact_mut(order.len()) {
                columns::permute(row, order, &mut scratch);
            }
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

    /// The names of the header line (an index column's aside), reading it if nothing has been
    /// read yet; `None` for a file without one.
    ///
    /// # Errors
    /// The first line cannot be read.
    pub fn column_names(&mut self) -> Result<Option<Vec<String>>, InputError> {
        match &mut self.kind {
            Kind::Text(t) => Ok(t.names(&self.source, self.gz)?.map(<[String]>::to_vec)),
            _ => Ok(None),
        }
    }

    /// Reads a text file through when its line 1 counts the columns (`0,1,...,n-1`), to weigh
    /// the evidence on it; `None` for other files and lines.
    ///
    /// # Errors
    /// A line cannot be read.
    fn weigh_first_line(&mut self) -> Result<Option<first_line::CountingLine>, InputError> {
        match &mut self.kind {
            Kind::Text(t) => t.weigh_first_line(&self.source, self.gz),
            _ => Ok(None),
        }
    }

    /// Whether the file holds float32 values (a `.npy` file of dtype `<f4` or `>f4`); text
    /// files have no dtype.
    pub fn float32(&self) -> bool {
        self.float32
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

#[cfg(test)]
mod tests {
    use super::*;

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
