//! Fuzzes the command's file readers (see harness/readers.rs). The reader modules are the
//! command's own source files, compiled in here.
#![no_main]

#[path = "../../src/bin/rankmetrics/input.rs"]
#[allow(dead_code)]
mod input;
#[path = "../../src/bin/rankmetrics/npy.rs"]
#[allow(dead_code)]
mod npy;
#[path = "../../src/bin/rankmetrics/progress.rs"]
#[allow(dead_code)]
mod progress;

#[path = "../harness/readers.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::check(data));
