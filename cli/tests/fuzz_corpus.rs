//! The `readers` fuzz target's smoke run (the library target replays in the library's
//! tests/fuzz_corpus.rs): replays the committed corpus (fuzz/corpus/<target>/) through
//! the same harness functions the libFuzzer targets call (fuzz/harness/*.rs), so every
//! `cargo test` checks that no input the fuzzers kept panics or breaks a checked property.
//! Long fuzzing runs: docs/fuzzing.md.

// The command's reader modules, compiled in as the `readers` fuzz target does.
#[path = "../src/input/mod.rs"]
#[allow(dead_code)]
mod input;
#[path = "../src/npy.rs"]
#[allow(dead_code)]
mod npy;
#[path = "../src/progress.rs"]
#[allow(dead_code)]
mod progress;
#[path = "../../fuzz/harness/readers.rs"]
mod readers;

use std::path::Path;

/// Every file of fuzz/corpus/`target`, sorted by name; the corpus must not be empty.
fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("directory entry").path();
            let bytes = std::fs::read(&path).expect("corpus file");
            (path.display().to_string(), bytes)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    files
}

/// Runs `check` on every corpus file, naming the file that fails.
fn replay(target: &str, check: fn(&[u8])) {
    for (name, bytes) in corpus(target) {
        let outcome = std::panic::catch_unwind(|| check(&bytes));
        assert!(outcome.is_ok(), "{name} fails the {target} harness");
    }
}

#[test]
fn readers_corpus_replays_cleanly() {
    replay("readers", readers::check);
}
