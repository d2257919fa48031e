//! The `readers` fuzz target's smoke run (the library target replays in the library's
//! tests/fuzz_corpus.rs): replays the committed corpus (fuzz/corpus/<target>/) through
//! the same harness functions the libFuzzer targets call (fuzz/harness/*.rs), so every
//! `cargo test` checks that no input the fuzzers kept panics or breaks a checked property.
//! Long fuzzing runs: docs/fuzzing.md.

#[path = "../../fuzz/harness/readers.rs"]
mod readers;

#[path = "../../fuzz/harness/replay.rs"]
mod replay;

use std::path::Path;

#[test]
fn readers_corpus_replays_cleanly() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    replay::replay(&corpus, "readers", readers::check);
}
