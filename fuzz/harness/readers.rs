//! The readers fuzz harness: bytes -> the `.npy` parser directly, or up to three files (labels,
//! scores, weights) named with the extensions the command dispatches on (gzip included) ->
//! the command's decision on line 1, then `Inputs::read` with fuzzed read options. Shared by the libFuzzer target `readers` and by
//! tests/fuzz_corpus.rs (corpus replay on every `cargo test`).
//!
//! What it checks: no panic; an error formats; every table read has rows × cols numbers, and
//! weights come back exactly when a weight file was given.

use std::path::PathBuf;

use rankmetrics_cli::input::{decide_first_lines, FirstLines, InputFormat, Inputs, ReadOptions};
use rankmetrics_cli::npy;
use rankmetrics_cli::progress::Progress;

/// File names the command treats differently (by extension), and plain ones.
const NAMES: [&str; 10] = [
    "y.csv",
    "y.txt",
    "y.tsv",
    "y",
    "y.npy",
    "y.labels",
    "y.csv.gz",
    "y.npy.gz",
    "y.labels.gz",
    "y.TSV.GZ",
];

const FORMATS: [Option<InputFormat>; 7] = [
    None,
    None,
    Some(InputFormat::Csv),
    Some(InputFormat::Tsv),
    Some(InputFormat::Txt),
    Some(InputFormat::Npy),
    Some(InputFormat::Labels),
];

/// A per-process scratch directory for the files of one input.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rankmetrics-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

/// Runs one fuzz input.
pub fn check(data: &[u8]) {
    let (head, body) = data.split_at(data.len().min(6));
    let byte = |i: usize| head.get(i).copied().unwrap_or(0);
    if byte(0) & 3 == 0 {
        // The .npy parser alone: no file system, so most executions go here.
        if let Ok(a) = npy::parse(body) {
            assert_eq!(a.data.len(), a.rows * a.cols, "{a:?}");
        }
        return;
    }
    // Where the body splits into the three files' contents.
    let cut1 = body.len() * usize::from(byte(1)) / 255;
    let cut2 = cut1 + (body.len() - cut1) * usize::from(byte(2)) / 255;
    let parts = [&body[..cut1], &body[cut1..cut2], &body[cut2..]];
    let dir = scratch();
    let mut paths = Vec::new();
    for (k, part) in parts.iter().enumerate() {
        let name = NAMES[usize::from(byte(3 + k)) % NAMES.len()];
        let path = dir.join(format!("{k}-{name}"));
        std::fs::write(&path, part).expect("scratch file");
        paths.push(path);
    }
    let flags = byte(0);
    let with_weights = flags & 0x80 != 0;
    let mut options = ReadOptions {
        format: FORMATS[usize::from(flags >> 2) % FORMATS.len()],
        header: flags & 0x40 != 0,
        // The two header options conflict on the command line: never both.
        no_header: flags & 0x40 == 0 && byte(5) & 0x80 != 0,
        n_labels: (flags & 0x20 != 0).then_some(usize::from(byte(5) % 8)),
        quiet: true,
        align_columns: flags & 0x10 != 0,
        first_lines: FirstLines::default(),
    };
    let weights = with_weights.then_some(paths[2].as_path());
    // As the command does: line 1 decided from the files before they are read.
    let result = decide_first_lines(Some(&paths[0]), Some(&paths[1]), weights, options).and_then(
        |first_lines| {
            options.first_lines = first_lines;
            Inputs::read(
                Some(&paths[0]),
                Some(&paths[1]),
                weights,
                options,
                &Progress::new(true),
            )
        },
    );
    match result {
        Ok(inputs) => {
            for t in [&inputs.y_true, &inputs.y_score] {
                assert_eq!(t.data.len(), t.rows * t.cols, "{t:?}");
            }
            assert_eq!(inputs.weights.is_some(), with_weights);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}
