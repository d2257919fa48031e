//! Fuzzes the library through the registry and the label-wise API (see harness/library.rs).
#![no_main]

#[path = "../harness/library.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::check(data));
