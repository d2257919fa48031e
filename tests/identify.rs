//! `identify` finds the convention of every golden record: each record's toolkit value,
//! rounded to 4 decimals, searched over every family on the record's case, lists that
//! toolkit's metric with the record's parameters among its matches.

use rankmetrics::identify::{identify, Reported};
use rankmetrics::RowMajor;

#[path = "common/golden.rs"]
mod golden;
#[path = "common/identify_golden.rs"]
mod identify_golden;
use identify_golden::{check_every_record, rounded, Found};

#[test]
fn identify_finds_the_convention_of_every_golden_record() {
    let tally = check_every_record(|case, weighted, values| {
        let y = RowMajor::new(&case.y_true, case.n, case.l).expect("labels");
        let s = RowMajor::new(&case.y_score, case.n, case.l).expect("scores");
        let weights = if weighted {
            case.weights.as_deref()
        } else {
            None
        };
        let reported: Vec<Reported> = values
            .iter()
            .map(|&v| Reported::parse(&rounded(v)).expect("a value"))
            .collect();
        let found = identify(&y, &s, weights, &reported, None).expect("an identification");
        found
            .iter()
            .map(|id| {
                id.matches
                    .iter()
                    .map(|m| Found {
                        convention: m.candidate.preset.convention().name().to_string(),
                        metric: m.candidate.preset.name().to_string(),
                        params: m
                            .candidate
                            .params
                            .iter()
                            .map(|(k, v)| (k.to_string(), v.clone()))
                            .collect(),
                    })
                    .collect()
            })
            .collect()
    });
    // Every file had records to find.
    assert!(tally.values().all(|c| c[0] > 0) && tally.len() == 7);
}

/// With `--metric`, every family shows the interval and expected value of its quantity (its
/// first member with default parameters), whether or not a match shares it.
#[test]
fn every_family_searched_shows_its_interval() {
    use rankmetrics::identify::FAMILIES;
    use rankmetrics::registry::Convention;
    let y = [
        [1.0, 0.0, 1.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0, 1.0],
    ];
    let s = [
        [0.5, 0.5, 0.2, 0.2],
        [0.3, 0.3, 0.3, 0.9],
        [0.1, 0.7, 0.7, 0.7],
    ];
    let reported = [Reported::parse("0.5").expect("a value")];
    for family in FAMILIES {
        let found = identify(&y, &s, None, &reported, Some(family)).expect("an identification");
        let id = &found[0];
        // torchmetrics' retrieval metrics rank nonpositive scores by a rule no tie order
        // gives: no rankmetrics quantity, no interval.
        let retrieval = family
            .members
            .iter()
            .all(|(c, m)| *c == Convention::Torchmetrics && m.starts_with("retrieval_"));
        if retrieval {
            assert_eq!(id.interval, None, "{}", family.name);
            continue;
        }
        let (lo, hi) = id
            .interval
            .unwrap_or_else(|| panic!("{}: no interval", family.name));
        assert!(lo <= hi, "{}: [{lo}, {hi}]", family.name);
        let reference = id.reference.as_deref().expect("a reference");
        assert!(!reference.is_empty(), "{}", family.name);
        if let Some(e) = id.expected {
            assert!(lo - 1e-12 <= e && e <= hi + 1e-12, "{}: {e}", family.name);
        }
    }
}
