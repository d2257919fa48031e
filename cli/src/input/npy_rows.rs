//! The rows of a `.npy` array: a block of rows at a time in C order, the whole array in
//! Fortran order (its rows are not contiguous). The header and the values' decoding are
//! `crate::npy`'s.

use std::io::{BufRead, Read};

use super::gz::read_error;
use super::{InputError, Kind, Role, RowStream, Table};
use crate::npy;

impl<'a> RowStream<'a> {
    /// The `.npy` reader: rows as they come in C order, the whole array in Fortran order.
    pub(super) fn npy(
        &mut self, mut reader: Box<dyn BufRead + 'a>, role: Role,
    ) -> Result<Kind<'a>, InputError> {
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
        self.float32 = header.float32();
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
}

/// A C-order `.npy` array, read a block of rows at a time.
pub(super) struct NpyRows<'a> {
    reader: Box<dyn BufRead + 'a>,
    header: npy::Header,
    /// The next row to read.
    next: usize,
    bytes: Vec<u8>,
}

impl NpyRows<'_> {
    pub(super) fn read_rows(
        &mut self, source: &str, gz: bool, max: usize, out: &mut Vec<f64>,
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
}
