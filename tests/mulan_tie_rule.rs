//! docs/conventions.md states MULAN's tie rule in one table, a row per measure: each row's
//! policy is the preset's, and every MULAN measure has exactly one row.

use rankmetrics::registry::{Convention, Preset};

const PAGE: &str = include_str!("../docs/conventions.md");

/// The table's rows: (measure, policy), from the table under the section's heading.
fn rows() -> Vec<(String, String)> {
    let section = PAGE
        .split("### MULAN's tie rule, measure by measure")
        .nth(1)
        .expect("the section");
    section
        .lines()
        .skip_while(|l| !l.starts_with("| MULAN measure"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(|c| c.trim().trim_matches('`')).collect();
            (cells[1].to_string(), cells[2].to_string())
        })
        .collect()
}

#[test]
fn the_table_gives_every_measure_its_presets_policy() {
    let rows = rows();
    let names = Convention::Mulan.metric_names();
    assert_eq!(
        rows.len(),
        names.len(),
        "one row per MULAN measure: {rows:?}"
    );
    for name in names {
        let preset = Preset::lookup(Convention::Mulan, name, Preset::NO_PARAMS, None).unwrap();
        let row = rows.iter().find(|(m, _)| m == name);
        let (_, policy) = row.unwrap_or_else(|| panic!("{name} has no row"));
        assert_eq!(
            policy.to_lowercase(),
            preset.ties().name(),
            "{name}: the table says {policy}"
        );
    }
}
