//! The `rankmetrics` command's parts, as a library: its file readers ([`input`], [`npy`]),
//! its outputs ([`output`]) and the commands they serve. The `rankmetrics` binary
//! (main.rs) wires them to the command line; the fuzz targets, the command's tests and its
//! benches import them from here. For computing metrics from Rust, use the `rankmetrics`
//! crate itself: this library's items follow the command and change with it.
//!
//! ```
//! use rankmetrics_cli::npy;
//!
//! // A 2 × 1 float64 array, as NumPy writes it, read back.
//! let header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 1), }";
//! let padded = format!("{header:<117}\n");
//! let mut file = b"\x93NUMPY\x01\x00".to_vec();
//! file.extend_from_slice(&(padded.len() as u16).to_le_bytes());
//! file.extend_from_slice(padded.as_bytes());
//! for v in [0.5f64, 1.5] {
//!     file.extend_from_slice(&v.to_le_bytes());
//! }
//! let array = npy::parse(&file).unwrap();
//! assert_eq!((array.rows, array.cols, array.data), (2, 1, vec![0.5, 1.5]));
//! ```
#![forbid(unsafe_code)]

pub mod args;
pub mod compare;
pub mod example;
pub mod identify;
pub mod input;
pub mod npy;
pub mod output;
pub mod progress;
pub mod provenance;
mod runs_check;
mod sha256;
pub mod stream;
pub mod tie_note;
