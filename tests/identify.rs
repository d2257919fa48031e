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
