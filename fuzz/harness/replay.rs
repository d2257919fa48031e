//! The corpus replay shared by tests/fuzz_corpus.rs (the library target) and
//! cli/tests/fuzz_corpus.rs (the command's `readers` target): every committed input of
//! fuzz/corpus/<target>/ through the harness function the libFuzzer target calls.

use std::path::Path;

/// Every file of `corpus_dir`/`target`, sorted by name; the corpus must not be empty.
fn corpus(corpus_dir: &Path, target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir.join(target);
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

/// Runs `check` on every file of `corpus_dir`/`target`, naming the file that fails.
pub fn replay(corpus_dir: &Path, target: &str, check: fn(&[u8])) {
    for (name, bytes) in corpus(corpus_dir, target) {
        let outcome = std::panic::catch_unwind(|| check(&bytes));
        assert!(outcome.is_ok(), "{name} fails the {target} harness");
    }
}
