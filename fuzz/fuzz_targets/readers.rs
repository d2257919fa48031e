//! Fuzzes the command's file readers (see harness/readers.rs), imported from the command's
//! library target.
#![no_main]

#[path = "../harness/readers.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::check(data));
