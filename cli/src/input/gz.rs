//! A data file's bytes: gzip-decoded for a `.gz` file, counted on the progress bar as they
//! are read, and the read errors that say which of the two failed.

use std::io::{BufRead, BufReader, Read};

use super::InputError;
use crate::progress::Progress;

/// `file` as buffered bytes: decoded when `gz`; the bytes read from disk (compressed for
/// `.gz`) advance `progress`.
pub(super) fn reader<'a>(
    file: std::fs::File, gz: bool, progress: &'a Progress,
) -> Box<dyn BufRead + 'a> {
    let counted = Counted {
        inner: file,
        progress,
    };
    if gz {
        Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(
            BufReader::new(counted),
        )))
    } else {
        Box::new(BufReader::new(counted))
    }
}

/// A failed read: of the gzip decoder for a `.gz` file, of the file otherwise.
pub(super) fn read_error(source: &str, gz: bool, e: std::io::Error) -> InputError {
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
