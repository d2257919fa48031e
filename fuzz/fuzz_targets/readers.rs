//! Fuzzes the command's file readers (see harness/readers.rs). The reader modules are the
//! command's own source files, compiled in here.
#![no_main]

#[path = "../../cli/src/input/mod.rs"]
#[allow(dead_code)]
mod input;
#[path = "../../cli/src/npy.rs"]
#[allow(dead_code)]
mod npy;
#[path = "../../cli/src/progress.rs"]
#[allow(dead_code)]
mod progress;

#[path = "../harness/readers.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::check(data));
