//! Line 1 of a label or score file that counts the columns, `0,1,...,n-1`: the column names
//! pandas writes for a DataFrame made from an array (`df.to_csv(path, index=False)`), and as
//! well an ordinary sample (two labels `0,1`; integer scores). It is decided once, before any
//! file is read, from evidence alone: how the file's other lines are written
//! (`text::not_written_alike`), then the row counts of the files, which must agree. Where
//! both readings remain possible, the run is refused; a guess could drop or add a sample.

use std::path::Path;

use super::fields::{fields, Separator};
use super::{InputError, ReadOptions, Role, RowStream};
use crate::progress::Progress;

/// A first line that counts the columns (`0,1,...,n-1`), as pandas names the columns of a
/// DataFrame made from an array, and what the rest of its file says of it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct CountingLine {
    /// The line, trimmed.
    pub(super) text: String,
    /// Its fields.
    pub(super) width: usize,
    /// Non-blank lines, this one included (up to the first evidence, when there is some).
    pub(super) samples: usize,
    /// Why the line cannot be a sample written as the others were, if a line shows it.
    pub(super) not_a_sample: Option<String>,
}

/// Why `line` (number `line_no`) shows that a first line of `width` fields `0,1,...`
/// (`quoted` or not) was not written as a sample the way `line` was, if it does:
/// * the file's first data line holds `width + 1` fields: a row index under a header (as a
///   sample, line 1 would be one field short);
/// * line 1 quotes its fields and `line` does not (R and pandas quote column names, not
///   numbers);
/// * `line` writes in column `j` a whole number `v` with `|v| <= max(j, 1)` with a decimal
///   point or an exponent (`1.0`, `0.000000e+00`), where line 1 writes the whole number `j`
///   in that column without either: a number format that writes `j` plainly writes such a
///   `v` plainly too (`%d`, `%g`, `%.17g` alike), so the two lines were not written by one.
pub(super) fn not_written_alike(
    line_no: usize, line: &str, separator: Separator, width: usize, quoted: bool,
    first_data_line: bool,
) -> Option<String> {
    let fields = fields(line, separator);
    if first_data_line && fields.len() == width + 1 {
        return Some(format!(
            "line {line_no} holds {} fields, one more than line 1: a row index under a header \
             line",
            width + 1
        ));
    }
    if quoted && !line.contains('"') {
        return Some(format!(
            "line 1 quotes its fields and line {line_no} does not, as column names are quoted \
             and numbers not"
        ));
    }
    if fields.len() != width {
        return None;
    }
    fields.iter().enumerate().find_map(|(j, field)| {
        let spelled = field.contains(['.', 'e', 'E']);
        let v = field
            .parse::<f64>()
            .ok()
            .filter(|v| spelled && v.fract() == 0.0)?;
        (v.abs() <= j.max(1) as f64).then(|| {
            format!(
                "line {line_no} writes the whole number {v} as {field:?} (field {}), while line \
                 1 writes whole numbers without a decimal point or exponent: not one number \
                 format",
                j + 1
            )
        })
    })
}

/// How line 1 of a text file is read when neither `--header` nor `--no-header` is given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FirstLine {
    /// As the file shows by itself: a header when no sample could be one (no number, or an
    /// empty first field), a sample otherwise; refused when it counts the columns.
    #[default]
    Undecided,
    /// A header, as the evidence showed.
    Header,
    /// A sample, as the evidence showed.
    Sample,
}

/// How line 1 of the label and score files is read (weight files hold one number per line,
/// whose line 1 never counts columns).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FirstLines {
    pub labels: FirstLine,
    pub scores: FirstLine,
}

impl FirstLines {
    /// The rule of the file that holds `role`.
    pub fn of(self, role: Role) -> FirstLine {
        match role {
            Role::Labels => self.labels,
            Role::Scores => self.scores,
            Role::Weights => FirstLine::Undecided,
        }
    }
}

/// A file whose line 1 counts the columns and nothing in the file decides it.
struct Open {
    role: Role,
    source: String,
    line: CountingLine,
}

/// How line 1 of the label and score files is read, decided from the evidence when one
/// counts the columns (`0,1,...,n-1`), with a note on stderr unless `options.quiet`. The
/// files are read through only then.
///
/// # Errors
/// A file cannot be read; the files hold different numbers of samples however line 1 is read;
/// or both readings of line 1 remain possible (the message names the files, the line, both
/// flags and both row counts).
pub fn decide(
    y_true: Option<&Path>, y_score: Option<&Path>, sample_weight: Option<&Path>,
    options: ReadOptions,
) -> Result<FirstLines, InputError> {
    let mut decided = FirstLines::default();
    let (Some(t), Some(s)) = (y_true, y_score) else {
        return Ok(decided);
    };
    // A pipe cannot be read twice: its line 1, if it counts the columns, is refused as it is
    // read, naming both flags.
    let regular = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.is_file());
    let weights_regular = sample_weight.map_or(true, regular);
    if options.header || options.no_header || !(regular(t) && regular(s) && weights_regular) {
        return Ok(decided);
    }
    // Weighing reads the files once more: no progress bar of its own.
    let progress = Progress::new(true);
    let mut open = Vec::new();
    for (path, role) in [(t, Role::Labels), (s, Role::Scores)] {
        let mut stream = RowStream::open(path, role, options, None, &progress)?;
        let Some(line) = stream.weigh_first_line()? else {
            continue;
        };
        let file = Open {
            role,
            source: stream.source.clone(),
            line,
        };
        match &file.line.not_a_sample {
            Some(why) => {
                decided.set(role, FirstLine::Header);
                let reading = format!(
                    "read as a header and skipped, since {why}; --no-header reads it as a sample"
                );
                note(options, &file, &reading);
            }
            None => open.push(file),
        }
    }
    if open.is_empty() {
        return Ok(decided);
    }
    // The row counts decide the rest: each settled file's under the rules decided so far,
    // and the open ones' with line 1 as a sample (one fewer with it as a header).
    let mut counting = options;
    counting.first_lines = decided;
    counting.quiet = true;
    let count = |path: &Path, role: Role, n_labels: Option<usize>| {
        let mut stream = RowStream::open(path, role, counting, n_labels, &progress)?;
        stream.count_rest().map(|rows| (rows, stream.cols()))
    };
    let of = |role: Role| open.iter().find(|f| f.role == role);
    let scores = match of(Role::Scores) {
        Some(file) => (file.line.samples, file.line.width),
        None => count(s, Role::Scores, None)?,
    };
    let labels = match of(Role::Labels) {
        Some(file) => file.line.samples,
        // A `.labels` file has as many labels as the scores have columns.
        None => count(t, Role::Labels, Some(scores.1))?.0,
    };
    let weights = sample_weight
        .map(|w| count(w, Role::Weights, None).map(|(rows, _)| rows))
        .transpose()?;
    let readings = Reading::all(&open, labels, scores.0);
    let mut agreeing: Vec<&Reading> = readings.iter().filter(|r| r.agrees()).collect();
    // A weight file's length decides between readings it agrees with one of; a weight file
    // of another length is an error of the metrics, reported as such.
    let by_weights =
        agreeing.len() > 1 && agreeing.iter().any(|r| Some(r.samples.labels) == weights);
    if by_weights {
        agreeing.retain(|r| Some(r.samples.labels) == weights);
    }
    match agreeing[..] {
        [reading] => {
            for file in &open {
                let header = reading.header(file.role);
                decided.set(
                    file.role,
                    if header {
                        FirstLine::Header
                    } else {
                        FirstLine::Sample
                    },
                );
                let rows = reading.samples.labels;
                let why = if by_weights {
                    format!("the weight file has {rows} lines")
                } else {
                    format!("the files then agree ({} each)", samples(rows))
                };
                let reading = if header {
                    format!(
                        "read as a header and skipped, since {why}; --no-header reads it as a \
                         sample"
                    )
                } else {
                    format!("read as a sample, since {why}; --header skips it")
                };
                note(options, file, &reading);
            }
            Ok(decided)
        }
        [] => Err(never_agree(&open, labels, scores.0, t, s)),
        _ => Err(both_readings(&open, labels)),
    }
}

impl FirstLines {
    fn set(&mut self, role: Role, rule: FirstLine) {
        match role {
            Role::Labels => self.labels = rule,
            Role::Scores | Role::Weights => self.scores = rule,
        }
    }
}

/// One reading of the open files' line 1: whether each is a header, and the samples of the
/// label and score files then.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Reading {
    labels_header: bool,
    scores_header: bool,
    samples: Samples,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Samples {
    labels: usize,
    scores: usize,
}

impl Reading {
    /// Every reading of `open`'s line 1, for label and score files of `labels` and `scores`
    /// lines.
    fn all(open: &[Open], labels: usize, scores: usize) -> Vec<Reading> {
        let choices = |role: Role| -> &[bool] {
            if open.iter().any(|f| f.role == role) {
                &[true, false]
            } else {
                &[false]
            }
        };
        let mut all = Vec::new();
        for &labels_header in choices(Role::Labels) {
            for &scores_header in choices(Role::Scores) {
                all.push(Reading {
                    labels_header,
                    scores_header,
                    samples: Samples {
                        labels: labels - usize::from(labels_header),
                        scores: scores - usize::from(scores_header),
                    },
                });
            }
        }
        all
    }

    /// Whether the label and score files hold as many samples.
    fn agrees(&self) -> bool {
        self.samples.labels == self.samples.scores
    }

    /// Whether line 1 of the file of `role` is a header.
    fn header(&self, role: Role) -> bool {
        match role {
            Role::Labels => self.labels_header,
            Role::Scores | Role::Weights => self.scores_header,
        }
    }
}

/// `n` samples, in words.
fn samples(n: usize) -> String {
    format!("{n} sample{}", if n == 1 { "" } else { "s" })
}

/// The note on stderr of how line 1 of `file` is read.
fn note(options: ReadOptions, file: &Open, reading: &str) {
    if !options.quiet {
        eprintln!(
            "rankmetrics: {}: line 1 is {}, the column names pandas writes for a DataFrame made \
             from an array (df.to_csv(path, index=False)), or a sample: {reading}",
            file.source, file.line.text
        );
    }
}

/// The refusal where no reading of line 1 gives the files as many samples.
fn never_agree(open: &[Open], labels: usize, scores: usize, t: &Path, s: &Path) -> InputError {
    let counts = |role: Role, rows: usize| {
        if open.iter().any(|f| f.role == role) {
            format!("{} ({} if line 1 is a header)", samples(rows), rows - 1)
        } else {
            samples(rows)
        }
    };
    InputError::new(
        &t.display().to_string(),
        format!(
            "{}, but {} has {} (one sample per line)",
            counts(Role::Labels, labels),
            s.display(),
            counts(Role::Scores, scores)
        ),
    )
}

/// The refusal where both readings of line 1 remain possible: line 1 of both files counts
/// the columns, nothing else in them tells, and they have as many lines, `rows`.
fn both_readings(open: &[Open], rows: usize) -> InputError {
    let names: Vec<&str> = open.iter().map(|f| f.source.as_str()).collect();
    InputError::new(
        &names.join(" and "),
        format!(
            "line 1 ({}) may be the column names pandas writes for a DataFrame made from an \
             array (df.to_csv(path, index=False)) or the first sample, and nothing in the files \
             tells which: read as a header, each file holds {}; read as a sample, {rows}. Pass \
             --header to skip line 1 of every text file, or --no-header to read it as a sample",
            open[0].line.text,
            samples(rows - 1)
        ),
    )
}
