//! The lines of a text file, numbered, as UTF-8 text.

use std::io::BufRead;

use super::gz::read_error;
use super::InputError;

/// The lines of a file, numbered from 1, as UTF-8 text without their line ends (and the
/// first without a byte-order mark).
pub(super) struct Lines<'a> {
    reader: Box<dyn BufRead + 'a>,
    buf: Vec<u8>,
    /// The number of the last line read.
    number: usize,
}

impl<'a> Lines<'a> {
    pub(super) fn new(reader: Box<dyn BufRead + 'a>) -> Self {
        Lines {
            reader,
            buf: Vec::new(),
            number: 0,
        }
    }

    /// The next line and its number; `None` at the end.
    pub(super) fn next(
        &mut self, source: &str, gz: bool,
    ) -> Result<Option<(usize, &str)>, InputError> {
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
