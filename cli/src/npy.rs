//! NumPy `.npy` files: the header (a Python dict literal) and the data of a 1- or 2-D array of
//! f32, f64, bool, u8, i32 or i64, little- or big-endian, C or Fortran order.

use std::io::Read;

/// An array read whole from an `.npy` file (by tests and the fuzz harness): values row-major, and its shape as `(rows, cols)`
/// (a 1-D array of n values is n rows of one column).
#[derive(Debug, Clone, PartialEq)]
pub struct NpyArray {
    pub data: Vec<f64>,
    pub rows: usize,
    pub cols: usize,
}

const MAGIC: &[u8] = b"\x93NUMPY";

/// The element type of the data, from the header's `descr`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Dtype {
    F32,
    F64,
    Bool,
    U8,
    I32,
    I64,
}

impl Dtype {
    fn size(self) -> usize {
        match self {
            Dtype::Bool | Dtype::U8 => 1,
            Dtype::F32 | Dtype::I32 => 4,
            Dtype::F64 | Dtype::I64 => 8,
        }
    }
}

/// What an `.npy` header says about the data that follows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The dtype as written, e.g. `'<f8'`.
    descr: String,
    dtype: Dtype,
    big_endian: bool,
    /// Column-major data: its rows are not contiguous, so it is read whole.
    pub fortran: bool,
    shape: Vec<usize>,
    /// Rows (a 1-D array of n values is n rows of one column).
    pub rows: usize,
    /// Values per row.
    pub cols: usize,
    /// Bytes of data the shape and dtype call for.
    pub data_len: usize,
}

/// Reads up to `n` bytes; fewer only at the end of the input.
fn read_up_to(r: &mut impl Read, n: usize, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    r.take(n as u64).read_to_end(buf)
}

/// Reads the header from `r`, leaving it at the first data byte. The outer error is the
/// reader's; the inner one says what is wrong with the header.
pub fn read_header(r: &mut impl Read) -> std::io::Result<Result<Header, String>> {
    let mut buf = Vec::new();
    if read_up_to(r, MAGIC.len() + 2, &mut buf)? < MAGIC.len() || !buf.starts_with(MAGIC) {
        return Ok(Err(
            "expected an .npy file (starting with \\x93NUMPY), found other bytes".into(),
        ));
    }
    let major = match buf.get(MAGIC.len()..) {
        Some([major, _minor]) => *major,
        _ => return Ok(Err("truncated .npy header".into())),
    };
    let len_bytes = match major {
        1 => 2,
        2 | 3 => 4,
        v => {
            return Ok(Err(format!(
                "expected .npy format version 1, 2 or 3, found {v}"
            )))
        }
    };
    buf.clear();
    if read_up_to(r, len_bytes, &mut buf)? < len_bytes {
        return Ok(Err("truncated .npy header".into()));
    }
    let header_len = match buf[..] {
        [a, b] => usize::from(u16::from_le_bytes([a, b])),
        [a, b, c, d] => match usize::try_from(u32::from_le_bytes([a, b, c, d])) {
            Ok(len) => len,
            Err(_) => return Ok(Err("header too long".into())),
        },
        _ => return Ok(Err("truncated .npy header".into())),
    };
    buf.clear();
    if read_up_to(r, header_len, &mut buf)? < header_len {
        return Ok(Err("truncated .npy header: the file ends inside it".into()));
    }
    Ok(std::str::from_utf8(&buf)
        .map_err(|_| "the .npy header is not text".to_string())
        .and_then(parse_header))
}

/// The header dict's descr, fortran_order and shape.
fn parse_header(header: &str) -> Result<Header, String> {
    let descr = dict_value(header, "descr")?;
    let fortran = match dict_value(header, "fortran_order")? {
        "True" => true,
        "False" => false,
        other => {
            return Err(format!(
                "expected fortran_order True or False, found {other}"
            ))
        }
    };
    let shape = parse_shape(dict_value(header, "shape")?)?;
    let (big_endian, dtype) = parse_descr(descr)?;
    let (rows, cols) = match shape[..] {
        [n] => (n, 1),
        [n, l] => (n, l),
        _ => {
            return Err(format!(
                "expected a 1- or 2-dimensional array, found shape {shape:?}"
            ))
        }
    };
    let data_len = rows
        .checked_mul(cols)
        .and_then(|count| count.checked_mul(dtype.size()))
        .ok_or("the array's shape is too large")?;
    Ok(Header {
        descr: descr.to_string(),
        dtype,
        big_endian,
        fortran,
        shape,
        rows,
        cols,
        data_len,
    })
}

impl Header {
    /// Whether the values are float32 (`<f4`, `>f4`): a float32 model's output, which
    /// torchmetrics computes on in float32.
    pub fn float32(&self) -> bool {
        self.dtype == Dtype::F32
    }

    /// Bytes per row.
    pub fn row_len(&self) -> usize {
        self.cols * self.dtype.size()
    }

    /// Appends the values of whole rows of data bytes to `out`, in file order.
    pub fn decode_into(&self, bytes: &[u8], out: &mut Vec<f64>) {
        // One loop per type and byte order, the branch taken once per call rather than per
        // value: the loops compile to vector code (reading 100,000 × 100 float64 took twice as
        // long with the branch inside).
        macro_rules! each {
            ($t:ty, $n:literal, $to_f64:expr) => {{
                let arrays = bytes.chunks_exact($n).map(|b| {
                    let mut a = [0u8; $n];
                    a.copy_from_slice(b);
                    a
                });
                match self.big_endian {
                    true => out.extend(arrays.map(|a| $to_f64(<$t>::from_be_bytes(a)))),
                    false => out.extend(arrays.map(|a| $to_f64(<$t>::from_le_bytes(a)))),
                }
            }};
        }
        match self.dtype {
            Dtype::Bool => out.extend(bytes.iter().map(|&b| f64::from(u8::from(b != 0)))),
            Dtype::U8 => out.extend(bytes.iter().map(|&b| f64::from(b))),
            Dtype::F32 => each!(f32, 4, f64::from),
            Dtype::F64 => each!(f64, 8, |x: f64| x),
            Dtype::I32 => each!(i32, 4, f64::from),
            // Labels and weights beyond 2^53 lose precision, as they would in NumPy's float64.
            Dtype::I64 => each!(i64, 8, |x: i64| x as f64),
        }
    }

    /// The error for a file holding `found` bytes of data instead of `data_len`.
    pub fn wrong_data_len(&self, found: usize) -> String {
        format!(
            "expected {} bytes of data for shape {:?} of {}, found {found}",
            self.data_len, self.shape, self.descr
        )
    }
}

/// Parses a whole `.npy` file. Errors say what was expected and what was found.
pub fn parse(bytes: &[u8]) -> Result<NpyArray, String> {
    let mut data = bytes;
    let header = read_header(&mut data).map_err(|e| e.to_string())??;
    if data.len() != header.data_len {
        return Err(header.wrong_data_len(data.len()));
    }
    Ok(NpyArray {
        data: values(&header, data),
        rows: header.rows,
        cols: header.cols,
    })
}

/// The values of all the data, row-major whatever the file's order.
pub fn values(header: &Header, data: &[u8]) -> Vec<f64> {
    let mut values = Vec::with_capacity(header.rows * header.cols);
    header.decode_into(data, &mut values);
    if !header.fortran {
        return values;
    }
    // Column-major: element (i, j) is at j * rows + i.
    let (rows, cols) = (header.rows, header.cols);
    (0..rows * cols)
        .map(|k| values[(k % cols) * rows + k / cols])
        .collect()
}

/// The text of `key`'s value in the header dict: a quoted string, a tuple or a bare word.
fn dict_value<'h>(header: &'h str, key: &str) -> Result<&'h str, String> {
    let quoted = [format!("'{key}'"), format!("\"{key}\"")];
    let start = quoted
        .iter()
        .find_map(|q| header.find(q.as_str()).map(|at| at + q.len()))
        .ok_or_else(|| format!("the .npy header has no {key:?}"))?;
    let after = header[start..].trim_start();
    let value = after
        .strip_prefix(':')
        .ok_or_else(|| format!("expected ':' after {key:?} in the .npy header"))?
        .trim_start();
    let end = match value.chars().next() {
        Some(q @ ('\'' | '"')) => value[1..].find(q).map(|e| e + 2),
        Some('(') => value.find(')').map(|e| e + 1),
        _ => value.find([',', '}']),
    }
    .ok_or_else(|| format!("unterminated value of {key:?} in the .npy header"))?;
    Ok(value[..end].trim())
}

fn parse_shape(text: &str) -> Result<Vec<usize>, String> {
    let inner = text
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .ok_or_else(|| format!("expected a shape tuple, found {text}"))?;
    inner
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            d.trim_end_matches('L')
                .parse::<usize>()
                .map_err(|_| format!("expected a dimension, found {d:?}"))
        })
        .collect()
}

/// `'<f8'` and the like: byte order, then kind and size.
fn parse_descr(quoted: &str) -> Result<(bool, Dtype), String> {
    let d = quoted.trim_matches(['\'', '"']);
    let unsupported =
        || format!("expected dtype f4, f8, b1, u1, i4 or i8 (any byte order), found {quoted}");
    let (big_endian, kind) = match d.split_at_checked(1) {
        Some(("<" | "|" | "=", k)) => (false, k),
        Some((">", k)) => (true, k),
        _ => (false, d),
    };
    let dtype = match kind {
        "f4" => Dtype::F32,
        "f8" => Dtype::F64,
        "b1" | "?" => Dtype::Bool,
        "u1" => Dtype::U8,
        "i4" => Dtype::I32,
        "i8" => Dtype::I64,
        _ => return Err(unsupported()),
    };
    Ok((big_endian, dtype))
}

/// The bytes of an `.npy` file (version 1, C order) holding `data` as `descr`; for tests.
#[cfg(test)]
pub fn encode(descr: &str, fortran: bool, shape: &[usize], data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let tuple = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let fortran = if fortran { "True" } else { "False" };
    let mut header =
        format!("{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': {tuple}, }}");
    while (MAGIC.len() + 4 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = MAGIC.to_vec();
    out.extend([1, 0]);
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(data);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes<const N: usize>(xs: impl IntoIterator<Item = [u8; N]>) -> Vec<u8> {
        xs.into_iter().flatten().collect()
    }

    #[test]
    fn every_dtype_and_order() {
        let f8 = bytes([1.5f64, 2.0, 3.0, 4.0, 5.0, 6.0].map(f64::to_le_bytes));
        let c = parse(&encode("<f8", false, &[2, 3], &f8)).unwrap();
        assert_eq!((c.rows, c.cols), (2, 3));
        assert_eq!(c.data, [1.5, 2.0, 3.0, 4.0, 5.0, 6.0]);
        // The same bytes in Fortran order are the columns [1.5, 2], [3, 4], [5, 6].
        let f = parse(&encode("<f8", true, &[2, 3], &f8)).unwrap();
        assert_eq!(f.data, [1.5, 3.0, 5.0, 2.0, 4.0, 6.0]);
        let f4 = bytes([0.25f32, -1.0].map(f32::to_be_bytes));
        assert_eq!(
            parse(&encode(">f4", false, &[2], &f4)).unwrap().data,
            [0.25, -1.0]
        );
        let i8 = bytes([-3i64, 7].map(i64::to_le_bytes));
        assert_eq!(
            parse(&encode("<i8", false, &[1, 2], &i8)).unwrap().data,
            [-3.0, 7.0]
        );
        let i4 = bytes([5i32, -2].map(i32::to_le_bytes));
        assert_eq!(
            parse(&encode("<i4", false, &[2, 1], &i4)).unwrap().data,
            [5.0, -2.0]
        );
        let b1 = parse(&encode("|b1", false, &[1, 3], &[1, 0, 1])).unwrap();
        assert_eq!(b1.data, [1.0, 0.0, 1.0]);
        let u1 = parse(&encode("|u1", false, &[3], &[0, 1, 255])).unwrap();
        assert_eq!((u1.rows, u1.cols, u1.data), (3, 1, vec![0.0, 1.0, 255.0]));
        // Every multi-byte type in both byte orders (each decoded by its own loop).
        macro_rules! both_orders {
            ($t:ty, $descr:literal, $values:expr, $expected:expr) => {{
                let values: [$t; 3] = $values;
                let le = bytes(values.map(<$t>::to_le_bytes));
                let be = bytes(values.map(<$t>::to_be_bytes));
                for (data, order) in [(le, '<'), (be, '>')] {
                    let descr = format!("{order}{}", $descr);
                    let got = parse(&encode(&descr, false, &[3], &data)).unwrap().data;
                    // Bits, so that -0.0 is not taken for 0.0.
                    let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&got), bits(&$expected), "{descr}");
                }
            }};
        }
        both_orders!(
            f64,
            "f8",
            [-0.0, 1e-310, f64::MAX],
            [-0.0, 1e-310, f64::MAX]
        );
        let f4s = [0.1f32, -3.5, f32::MIN_POSITIVE];
        both_orders!(f32, "f4", f4s, f4s.map(f64::from));
        both_orders!(
            i32,
            "i4",
            [i32::MIN, -1, 258],
            [-2_147_483_648.0, -1.0, 258.0]
        );
        let i8_as_f64 = [-(2f64.powi(63)), -258.0, 2f64.powi(53)];
        both_orders!(i64, "i8", [i64::MIN, -258, (1 << 53) + 1], i8_as_f64);
        // NumPy's bool is any nonzero byte.
        let b2 = parse(&encode("|b1", false, &[3], &[2, 0, 255])).unwrap();
        assert_eq!(b2.data, [1.0, 0.0, 1.0]);
        let empty = parse(&encode("<f8", false, &[0, 4], &[])).unwrap();
        assert_eq!((empty.rows, empty.cols), (0, 4));
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let e = |b: &[u8]| parse(b).unwrap_err();
        assert!(e(b"1,2,3\n").contains("expected an .npy file"));
        assert!(e(&encode("<c16", false, &[1], &[0; 16])).contains("found '<c16'"));
        assert!(e(&encode("<f8", false, &[2, 2], &[0; 24])).contains("expected 32 bytes"));
        assert!(e(&encode("<f8", false, &[1, 1, 1], &[0; 8])).contains("1- or 2-dimensional"));
        assert!(e(&encode("<f8", false, &[1], &[0; 8])[..20]).contains("truncated"));
    }
}
