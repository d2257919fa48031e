//! Altered states are refused when read (feature `serde`): for every kind of accumulator, a
//! field of its serialised form edited to break a rule that updates and merges keep (a count, a
//! row range, the order of runs, a non-finite value, a label count, a metric's parameter) is
//! refused by the deserialiser with [`Error::InvalidState`]'s message; and bytes flipped at every
//! position of its postcard form give either such a refusal (or serde's own) or a state whose
//! value, merges and serialisation work: never a state that loads and fails later.
#![cfg(feature = "serde")]

mod common;
#[path = "common/shards.rs"]
mod shards;

use rankmetrics::registry::{Convention, Preset, PresetAccumulator};
use rankmetrics::{
    mulan, Average, Coverage, Dcg, Error, Incompatibility, LabelAveragePrecision,
    LabelRunsAccumulator, LabelwiseAccumulator, Ndcg, PrecisionAtK, PsPrecisionAtK, RocAuc,
    RowAccumulator, RowMetric, TiePolicy,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use shards::{Accumulator, Data};

/// The start of every refusal's message ([`Error::InvalidState`]).
const REFUSED: &str = "state read back is invalid at ";

/// `value` read back as an `A`, or the deserialiser's message.
fn read<A: DeserializeOwned>(value: &Value) -> Result<A, String> {
    serde_json::from_value(value.clone()).map_err(|e| e.to_string())
}

/// An edit of a state's JSON: what it does, the field the refusal names, the edit.
type Edit<'a> = (&'a str, &'a str, &'a dyn Fn(&mut Value));

/// `acc`'s JSON edited by each of `edits` is refused as an invalid state, naming the edit's
/// field; `acc` itself reads back equal.
fn refused<A>(acc: &A, edits: &[Edit<'_>])
where
    A: Accumulator + Serialize + DeserializeOwned,
{
    let honest = serde_json::to_value(acc).unwrap();
    assert_eq!(read::<A>(&honest).as_ref(), Ok(acc), "{honest}");
    for (what, field, edit) in edits {
        let mut v = honest.clone();
        edit(&mut v);
        assert_ne!(v, honest, "{what}: the edit changed nothing");
        match read::<A>(&v) {
            Ok(state) => panic!("{what}: read back, value {:?}\n{v}", state.read()),
            Err(message) => assert!(
                message.starts_with(REFUSED) && message[REFUSED.len()..].starts_with(field),
                "{what}: {message}"
            ),
        }
    }
}

/// Errors that say a value inside the state is wrong: a state read back must have been refused
/// instead of giving one of these later. The others are values undefined on the rows held, and
/// errors of a metric's options that its constructor does not check and that its one-shot
/// evaluation gives as well (recall levels, a policy without a closed form).
fn found_late(error: &Error) -> bool {
    !matches!(
        error,
        Error::NoSamples
            | Error::ZeroTotalWeight
            | Error::SingleClass
            | Error::TooManyItems { .. }
            | Error::TooFewRecallLevels { .. }
            | Error::TooManyRecallLevels { .. }
            | Error::UnsupportedPolicy { .. }
            | Error::Incompatible(Incompatibility::Overlap { .. })
    )
}

/// Bytes of `acc`'s postcard form flipped at every position, with several masks: each altered
/// form is refused, or reads back as a state that works (value, merge with a copy and with
/// `other`, serialisation) without an error that only a check of the state should have given.
/// Returns how many were refused.
fn flipped<A>(what: &str, acc: &A, other: &A) -> usize
where
    A: Accumulator + Serialize + DeserializeOwned,
{
    let bytes = postcard::to_stdvec(acc).unwrap();
    let back: A = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(&back, acc, "{what}");
    let mut refusals = 0;
    for i in 0..bytes.len() {
        for mask in [0x01u8, 0x02, 0x04, 0x10, 0x40, 0x80, 0xff] {
            let mut altered = bytes.clone();
            altered[i] ^= mask;
            let Ok(state) = postcard::from_bytes::<A>(&altered) else {
                refusals += 1;
                continue;
            };
            let at = format!("{what}: byte {i} ^ {mask:#04x}: {state:?}");
            works(&at, &state, other);
        }
    }
    assert!(refusals > 0, "{what}: no flip refused");
    refusals
}

/// A state read back works: its value is not an error about its contents, its rows are the
/// ones it merges, and it serialises to itself.
fn works<A>(at: &str, state: &A, other: &A)
where
    A: Accumulator + Serialize + DeserializeOwned,
{
    match state.read() {
        Err(Error::NoSamples) => assert!(state.seen().is_empty(), "{at}: NoSamples"),
        Err(e) => assert!(!found_late(&e), "{at}: {e:?}"),
        Ok(_) => {}
    }
    let mut twice = state.clone();
    match twice.join(state) {
        Ok(()) => assert!(state.seen().is_empty(), "{at}: merged with itself"),
        Err(e) => assert!(
            matches!(e, Error::Incompatible(Incompatibility::Overlap { .. })),
            "{at}: {e:?}"
        ),
    }
    let mut both = state.clone();
    if both.join(other).is_ok() {
        if let Err(e) = both.read() {
            assert!(
                !found_late(&e) || e == Error::NoSamples,
                "{at}: merged: {e:?}"
            );
        }
    }
    let again: A = postcard::from_bytes(&postcard::to_stdvec(state).unwrap()).unwrap();
    assert_eq!(&again, state, "{at}");
}

/// Three rows of three labels with ties, and weights.
fn data(weighted: bool) -> Data {
    Data {
        n: 3,
        l: 3,
        y: vec![1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0],
        s: vec![0.5, 0.5, 0.1, 0.2, 0.9, 0.4, 0.3, 0.3, 0.7],
        w: weighted.then(|| vec![1.0, 0.5, 2.0]),
    }
}

/// `make(first_row)` fed the rows `data(weighted)` (from row 2) and, as the other shard to
/// merge with, rows 0..2 of the same data numbered from 0.
fn shards_of<A: Accumulator>(make: impl Fn(usize) -> A, weighted: bool) -> (A, A) {
    let d = data(weighted);
    let mut acc = make(2);
    acc.add(&d, 0..3).unwrap();
    let mut other = make(0);
    other.add(&d, 0..2).unwrap();
    (acc, other)
}

fn bits(x: f64) -> Value {
    json!(x.to_bits())
}

#[test]
fn labelwise_states_with_altered_cells_are_refused() {
    for weighted in [false, true] {
        let auc = RocAuc::new(Average::Macro, TiePolicy::Average);
        let (acc, other) = shards_of(|r| auc.accumulator_starting_at(r), weighted);
        let mut edits: Vec<Edit<'_>> = vec![
            ("a label of 2", "truth", &|v| v["truth"][4] = bits(2.0)),
            ("a NaN score", "scores", &|v| {
                v["scores"][1] = bits(f64::NAN)
            }),
            ("an infinite score", "scores", &|v| {
                v["scores"][8] = bits(f64::INFINITY)
            }),
            ("a cell short", "truth", &|v| {
                v["truth"].as_array_mut().unwrap().pop();
            }),
            ("a cell more", "scores", &|v| {
                v["scores"].as_array_mut().unwrap().push(bits(0.5));
            }),
            ("a label count", "truth", &|v| {
                v["shape"]["labels"] = json!(4)
            }),
            ("no label count", "shape", &|v| {
                v["shape"]["labels"] = Value::Null
            }),
            ("no labels", "shape.labels", &|v| {
                v["shape"]["labels"] = json!(0)
            }),
            ("a row range", "rows.seen", &|v| {
                v["rows"]["seen"][0]["end"] = json!(2)
            }),
            ("another domain", "domain", &|v| {
                v["domain"] = json!("NonZero")
            }),
        ];
        if weighted {
            edits.push(("a negative weight", "weights", &|v| {
                v["weights"][2] = bits(-1.0)
            }));
            edits.push(("a NaN weight", "weights", &|v| {
                v["weights"][0] = bits(f64::NAN)
            }));
            edits.push(("a weight short", "weights", &|v| {
                v["weights"].as_array_mut().unwrap().pop();
            }));
            edits.push(("weights, unweighted", "weights", &|v| {
                v["shape"]["weighted"] = json!(false)
            }));
        } else {
            edits.push(("no weights, weighted", "weights", &|v| {
                v["shape"]["weighted"] = json!(true)
            }));
        }
        refused(&acc, &edits);
        flipped(&format!("label-wise, weighted {weighted}"), &acc, &other);
        // The message names the entry and the row by its global number (rows 2..5).
        let mut v = serde_json::to_value(&acc).unwrap();
        v["truth"][4] = bits(2.0);
        let message = read::<LabelwiseAccumulator<RocAuc>>(&v).unwrap_err();
        let expected = "truth[4]: y_true at row 3, column 1 is 2; expected 0 or 1";
        assert_eq!(message, format!("{REFUSED}{expected}"));
    }
    // An empty state holds no cells and no label count.
    let ap = LabelAveragePrecision::new(Average::Micro, TiePolicy::Max);
    let empty = ap.accumulator_starting_at(5);
    refused(
        &empty,
        &[
            ("a label count", "shape", &|v| {
                v["shape"]["labels"] = json!(2)
            }),
            ("a cell", "truth", &|v| v["truth"] = json!([0])),
        ],
    );
    let _: LabelwiseAccumulator<LabelAveragePrecision> = empty;
}

#[test]
fn row_states_with_altered_sums_shapes_or_rows_are_refused() {
    for weighted in [false, true] {
        let (acc, other) = shards_of(
            |r| Coverage::new(TiePolicy::Max).accumulator_starting_at(r),
            weighted,
        );
        let mut edits: Vec<Edit<'_>> = vec![
            ("no labels", "shape.labels", &|v| {
                v["state"]["shape"]["labels"] = json!(0)
            }),
            ("no weighting", "shape", &|v| {
                v["state"]["shape"]["weighted"] = Value::Null
            }),
            ("a count beyond the rows", "sums.count", &|v| {
                v["state"]["sums"]["Exact"]["count"] = json!(4)
            }),
            ("an infinite weight sum", "sums.weight", &|v| {
                v["state"]["sums"]["Exact"]["weight"]["special"] = json!(1)
            }),
            ("a negative weight sum", "sums.weight", &|v| {
                v["state"]["sums"]["Exact"]["weight"] =
                    json!({"first_limb": 67, "limbs": [-1], "special": 0})
            }),
            ("another summation", "sums", &|v| {
                v["state"]["sums"] = json!({"Sequential": []})
            }),
            ("sums with no row counted", "sums", &|v| {
                v["state"]["sums"]["Exact"]["count"] = json!(0)
            }),
            ("a label value met", "indicator.first", &|v| {
                v["state"]["indicator"]["first"][0] =
                    json!({"value": 1.0f64.to_bits(), "row": 2, "column": 0})
            }),
            ("overlapping row ranges", "rows.seen", &|v| {
                v["state"]["rows"]["seen"] = json!([{"start": 0, "end": 3}, {"start": 2, "end": 5}])
            }),
            ("touching row ranges", "rows.seen", &|v| {
                v["state"]["rows"]["seen"] = json!([{"start": 2, "end": 3}, {"start": 3, "end": 5}])
            }),
            ("next before the rows' end", "rows.next", &|v| {
                v["state"]["rows"]["next"] = json!(4)
            }),
        ];
        if !weighted {
            edits.push(("a weight sum other than the count", "sums.weight", &|v| {
                v["state"]["sums"]["Exact"]["count"] = json!(2)
            }));
        }
        refused(&acc, &edits);
        flipped(&format!("row-wise, weighted {weighted}"), &acc, &other);
    }
}

#[test]
fn row_states_summed_in_row_order_with_altered_runs_are_refused() {
    for weighted in [false, true] {
        let (acc, other) = shards_of(
            |r| RowAccumulator::starting_at(mulan::Coverage, r),
            weighted,
        );
        let mut edits: Vec<Edit<'_>> = vec![
            ("a weight short", "sums.Sequential", &|v| {
                v["state"]["sums"]["Sequential"][0]["weights"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
            }),
            ("an empty run", "sums.Sequential", &|v| {
                let run = &mut v["state"]["sums"]["Sequential"][0];
                run["values"] = json!([]);
                run["weights"] = json!([]);
            }),
            ("a run past the rows", "sums.Sequential", &|v| {
                v["state"]["sums"]["Sequential"][0]["first"] = json!(3)
            }),
            ("runs out of order", "sums.Sequential", &|v| {
                let run = |first: usize| json!({"first": first, "values": [bits(1.0)], "weights": [bits(1.0)]});
                v["state"]["sums"]["Sequential"] = json!([run(4), run(2)]);
            }),
            ("another summation", "sums", &|v| {
                v["state"]["sums"] = json!({"Exact": {
                    "weighted": {"first_limb": 0, "limbs": [], "special": 0},
                    "weight": {"first_limb": 0, "limbs": [], "special": 0},
                    "count": 0}})
            }),
        ];
        if weighted {
            edits.push(("a NaN weight", "sums.Sequential", &|v| {
                v["state"]["sums"]["Sequential"][0]["weights"][1] = bits(f64::NAN)
            }));
            edits.push(("a negative weight", "sums.Sequential", &|v| {
                v["state"]["sums"]["Sequential"][0]["weights"][0] = bits(-0.5)
            }));
        } else {
            edits.push(("a weight of 2, unweighted", "sums.Sequential", &|v| {
                v["state"]["sums"]["Sequential"][0]["weights"][2] = bits(2.0)
            }));
        }
        refused(&acc, &edits);
        flipped(
            &format!("row-wise in row order, weighted {weighted}"),
            &acc,
            &other,
        );
    }
}

#[test]
fn metrics_with_parameters_their_constructors_refuse_are_refused() {
    let (p, other) = shards_of(
        |r| {
            PrecisionAtK::new(TiePolicy::Average, 2)
                .unwrap()
                .accumulator_starting_at(r)
        },
        false,
    );
    refused(&p, &[("k = 0", "k", &|v| v["metric"]["k"] = json!(0))]);
    flipped("P@k", &p, &other);
    let (d, other) = shards_of(
        |r| {
            Dcg::new(TiePolicy::Average)
                .with_k(Some(2))
                .unwrap()
                .accumulator_starting_at(r)
        },
        true,
    );
    refused(
        &d,
        &[
            ("k = 0", "k", &|v| v["metric"]["k"] = json!(0)),
            ("a log base of 1", "log_base", &|v| {
                v["metric"]["log_base"] = bits(1.0)
            }),
            ("a NaN log base", "log_base", &|v| {
                v["metric"]["log_base"] = bits(f64::NAN)
            }),
        ],
    );
    flipped("DCG", &d, &other);
    let (n, _) = shards_of(
        |r| Ndcg::new(TiePolicy::Max).accumulator_starting_at(r),
        false,
    );
    refused(&n, &[("k = 0", "k", &|v| v["metric"]["k"] = json!(0))]);
    let psp = PsPrecisionAtK::new(TiePolicy::Max, 2, vec![1.0, 2.5, 4.0]).unwrap();
    let (ps, other) = shards_of(|r| psp.accumulator_starting_at(r), true);
    refused(
        &ps,
        &[
            ("a negative propensity", "inverse_propensities", &|v| {
                v["metric"]["inverse_propensities"][1] = bits(-2.5)
            }),
            ("an infinite propensity", "inverse_propensities", &|v| {
                v["metric"]["inverse_propensities"][0] = bits(f64::INFINITY)
            }),
            ("a propensity short", "shape.labels", &|v| {
                v["metric"]["inverse_propensities"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
            }),
            ("too few labels", "shape.labels", &|v| {
                v["metric"]["options"]["min_labels"] = json!(4)
            }),
        ],
    );
    flipped("PSP@k", &ps, &other);
}

/// scikit-learn's label-type check (through a preset): the values met and their cells.
#[test]
fn preset_states_with_altered_label_values_or_views_are_refused() {
    let name = "label_ranking_average_precision_score";
    let lrap = Preset::lookup(Convention::Sklearn, name, Preset::NO_PARAMS, None).unwrap();
    let (acc, other) = shards_of(|r| lrap.accumulator_starting_at(r), true);
    let honest = serde_json::to_value(&acc).unwrap();
    let first = &honest["state"]["Row"]["acc"]["state"]["indicator"]["first"];
    assert_eq!(first[0]["row"], 2, "{honest}");
    assert_eq!(first[1]["row"], 2, "{honest}");
    let first = |v: &mut Value| -> Value {
        v["state"]["Row"]["acc"]["state"]["indicator"]["first"].clone()
    };
    let set = |v: &mut Value, f: Value| v["state"]["Row"]["acc"]["state"]["indicator"]["first"] = f;
    refused(
        &acc,
        &[
            ("a value of 0.5", "indicator.first", &|v| {
                let mut f = first(v);
                f[1]["value"] = bits(0.5);
                set(v, f);
            }),
            ("a value twice", "indicator.first", &|v| {
                let mut f = first(v);
                f[1]["value"] = f[0]["value"].clone();
                set(v, f);
            }),
            ("values out of order", "indicator.first", &|v| {
                let mut f = first(v);
                f.as_array_mut().unwrap().swap(0, 1);
                set(v, f);
            }),
            ("a cell before the rows", "indicator.first", &|v| {
                let mut f = first(v);
                f[0]["row"] = json!(1);
                set(v, f);
            }),
            ("a column past the labels", "indicator.first", &|v| {
                let mut f = first(v);
                f[1]["column"] = json!(3);
                set(v, f);
            }),
            ("no value met", "indicator.first", &|v| {
                set(v, json!([null, null]))
            }),
            ("a sigmoid decision without logits", "sigmoid", &|v| {
                v["state"]["Row"]["sigmoid"] = json!(true)
            }),
        ],
    );
    flipped("sklearn LRAP", &acc, &other);
    // torchmetrics' logit view: the decision is known once rows were seen.
    let names = Convention::Torchmetrics.metric_names();
    let name = names.iter().find(|n| !n.starts_with("retrieval")).unwrap();
    let tm = Preset::lookup(Convention::Torchmetrics, name, Preset::NO_PARAMS, None).unwrap();
    let (acc, other) = shards_of(|r| tm.accumulator_starting_at(r), false);
    assert_eq!(
        serde_json::to_value(&acc).unwrap()["state"]["Row"]["view"],
        json!({"Logits": {
            "dtype": "Float64",
            "argsort": false,
            "cpu": "Scalar",
            "threads": 1,
            "order": "RowMajor"
        }})
    );
    refused(
        &acc,
        &[("no sigmoid decision", "sigmoid", &|v| {
            v["state"]["Row"]["sigmoid"] = Value::Null
        })],
    );
    flipped(&format!("torchmetrics {name}"), &acc, &other);
    // Label-wise presets keep rows or runs: checked as their accumulators are.
    let auc = Preset::lookup(Convention::Mulan, "MacroAUC", Preset::NO_PARAMS, None).unwrap();
    let (rows, other) = shards_of(|r| auc.accumulator_starting_at(r), false);
    refused(
        &rows,
        &[("a label of 2", "truth", &|v| {
            v["state"]["Labelwise"]["truth"][0] = bits(2.0)
        })],
    );
    flipped("MULAN MacroAUC rows", &rows, &other);
    let (runs, other) = shards_of(|r| auc.runs_accumulator_starting_at(r).unwrap(), false);
    refused(
        &runs,
        &[("no labels", "runs.columns", &|v| {
            v["state"]["Runs"]["runs"]["columns"] = json!([])
        })],
    );
    flipped("MULAN MacroAUC runs", &runs, &other);
    let _: PresetAccumulator = runs;
}

#[test]
fn runs_states_with_altered_runs_or_metrics_are_refused() {
    let auc = RocAuc::new(Average::Macro, TiePolicy::Max);
    let (acc, other) = shards_of(|r| auc.runs_accumulator_starting_at(r).unwrap(), false);
    let column =
        |v: &mut Value| -> Vec<Value> { v["runs"]["columns"][0].as_array().unwrap().clone() };
    refused(
        &acc,
        &[
            ("a policy runs cannot value", "metric", &|v| {
                v["metric"]["options"]["ranking"]["ties"] = json!("First")
            }),
            ("another domain", "domain", &|v| {
                v["domain"] = json!("NonZero")
            }),
            ("no labels", "runs.columns", &|v| {
                v["runs"]["columns"] = json!([])
            }),
            ("runs swapped", "runs.columns", &|v| {
                let mut c = column(v);
                c.swap(0, 1);
                v["runs"]["columns"][0] = json!(c);
            }),
            ("an empty run", "runs.columns", &|v| {
                let mut c = column(v);
                c[0][1] = json!(0);
                c[0][2] = json!(0);
                v["runs"]["columns"][0] = json!(c);
            }),
            ("an item more", "runs.columns", &|v| {
                let mut c = column(v);
                c[0][1] = json!(c[0][1].as_u64().unwrap() + 1);
                v["runs"]["columns"][0] = json!(c);
            }),
            ("a NaN score", "runs.columns", &|v| {
                let mut c = column(v);
                c[0][0] = bits(f64::NAN);
                v["runs"]["columns"][0] = json!(c);
            }),
            ("runs before any row", "runs", &|v| {
                v["rows"] = json!({"seen": [], "next": 5})
            }),
        ],
    );
    flipped("runs", &acc, &other);
    let _: &LabelRunsAccumulator<RocAuc> = &acc;
}
