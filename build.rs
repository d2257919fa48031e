//! Tells the crate whether this compiler builds its AVX-512 loops (src/wide.rs): their target
//! features are stable from Rust 1.89, and the crate's MSRV is older. Without them the crate
//! takes its AVX2 loops at most; results are the same bits either way.

use std::process::Command;

/// The first stable release whose `#[target_feature]` accepts the AVX-512 features.
const AVX512_STABLE_MINOR: u32 = 89;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(rankmetrics_avx512)");
    println!("cargo:rerun-if-changed=build.rs");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .unwrap_or_default();
    // "rustc 1.89.0 (…)", "rustc 1.90.0-nightly (…)": a nightly of the release that
    // stabilised them may predate the stabilisation, so nightlies need one release more.
    let release = version.split_whitespace().nth(1).unwrap_or("");
    let minor = release
        .split('.')
        .nth(1)
        .and_then(|m| m.parse::<u32>().ok());
    let needed = AVX512_STABLE_MINOR + u32::from(release.contains("nightly"));
    if release.starts_with("1.") && minor.is_some_and(|m| m >= needed) {
        println!("cargo:rustc-cfg=rankmetrics_avx512");
    }
}
