//! CITATION.cff names the version being released: it must follow the package's.

#[test]
fn citation_names_the_package_version() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../CITATION.cff");
    let cff = std::fs::read_to_string(path).expect("CITATION.cff at the repository root");
    let version = cff
        .lines()
        .find_map(|l| l.strip_prefix("version: "))
        .map(|v| v.trim().trim_matches('"'));
    assert_eq!(version, Some(env!("CARGO_PKG_VERSION")));
    assert!(cff.contains("cff-version: 1.2.0"));
}
