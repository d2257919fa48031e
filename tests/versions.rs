//! One version for the whole project: the workspace's (`[workspace.package] version` in
//! Cargo.toml, which every package and, through maturin, the Python distribution inherit) is
//! the one written in the files that cannot inherit it. The installed front doors
//! (`rankmetrics --version`, `rankmetrics.__version__`, R's `packageVersion`) are compared by
//! scripts/check-release.

use std::fs;
use std::path::Path;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The value of the first line of `text` that starts with `key`, without quotes.
fn field<'a>(text: &'a str, key: &str, path: &str) -> &'a str {
    text.lines()
        .find_map(|line| line.strip_prefix(key))
        .unwrap_or_else(|| panic!("{path}: no line starting with {key:?}"))
        .trim()
        .trim_matches('"')
}

#[test]
fn r_description_has_the_workspace_version() {
    let text = read("r/DESCRIPTION");
    assert_eq!(field(&text, "Version:", "r/DESCRIPTION"), VERSION);
}

#[test]
fn citation_has_the_workspace_version() {
    let text = read("CITATION.cff");
    assert_eq!(field(&text, "version:", "CITATION.cff"), VERSION);
}

#[test]
fn packages_inherit_the_workspace_version() {
    for path in [
        "cli/Cargo.toml",
        "python/Cargo.toml",
        "r/src/rust/Cargo.toml",
    ] {
        let text = read(path);
        assert!(
            text.lines()
                .any(|line| line.trim() == "version.workspace = true"),
            "{path}: the package's version must be `version.workspace = true`"
        );
    }
    let pyproject = read("python/pyproject.toml");
    assert!(
        pyproject.contains(r#"dynamic = ["version"]"#),
        "python/pyproject.toml: the version must be dynamic (maturin reads Cargo.toml's)"
    );
}

#[test]
fn the_command_depends_on_this_version_of_the_library() {
    // crates.io needs a version beside the path; it must name the library being released.
    let text = read("cli/Cargo.toml");
    let dependency = text
        .lines()
        .find(|line| line.starts_with("rankmetrics = {"))
        .expect("cli/Cargo.toml: a rankmetrics dependency");
    assert!(
        dependency.contains(&format!(r#"version = "{VERSION}""#)),
        "cli/Cargo.toml: {dependency:?} must ask for version {VERSION}"
    );
}
