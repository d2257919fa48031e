//! Accumulator state through serde (feature `serde`): every float is stored as its bits, so
//! state round-trips bit-exactly through JSON (whatever serde_json's float handling) and a
//! binary format; shards sent through serde merge in any order to the one-shot value.
#![cfg(feature = "serde")]

mod common;
#[path = "common/shards.rs"]
mod shards;

use std::fmt::Debug;

use common::Rng;
use rankmetrics::registry::{Convention, Preset, PresetAccumulator};
use rankmetrics::{
    mulan, Average, AveragePrecision, Coverage, Dcg, Error, ErrorSetSize, Incompatibility,
    InterpolatedAveragePrecision, IsError, LabelAveragePrecision, Ndcg, NdcgAtK, OneError,
    PrecisionAtK, PsNdcgAtK, PsPrecisionAtK, RankingLoss, RankingMetric, RecallAtK, RocAuc,
    RowAccumulator, RowMetric, RowRule, Summation, TieGrouping, TiePolicy, Undefined,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use shards::{check_shards, Accumulator, Data};

/// The JSON numbers of `v` that are floats (none, when every f64 is stored as its bits).
fn floats(v: &Value) -> Vec<String> {
    match v {
        Value::Number(n) if n.is_f64() => vec![n.to_string()],
        Value::Array(items) => items.iter().flat_map(floats).collect(),
        Value::Object(map) => map.values().flat_map(floats).collect(),
        _ => vec![],
    }
}

/// `acc` through JSON and through postcard: no float in the JSON, the same state and value
/// bits back from both. Returns the state read back from JSON.
fn round_trip<A: Accumulator + Serialize + DeserializeOwned>(acc: &A) -> A {
    let value = serde_json::to_value(acc).unwrap();
    assert_eq!(floats(&value), Vec::<String>::new(), "floats in {value}");
    assert_eq!(value["version"], 6, "{value}");
    let json: A = serde_json::from_str(&serde_json::to_string(acc).unwrap()).unwrap();
    let binary: A = postcard::from_bytes(&postcard::to_stdvec(acc).unwrap()).unwrap();
    for back in [&json, &binary] {
        assert_eq!(back, acc);
        assert!(shards::identical(&back.read(), &acc.read()));
    }
    json
}

/// Shards of random data, each sent through serde, merged in every order (tests/common/shards.rs).
fn check_through_serde<A: Accumulator + Serialize + DeserializeOwned>(
    what: &str, make: impl Fn(usize) -> A, one_shot: impl Fn(&Data) -> Result<f64, Error>,
    rng: &mut Rng, rounds: usize,
) {
    for _ in 0..rounds {
        let d = Data::random(rng);
        let splits = d.splits(rng);
        let one = one_shot(&d);
        check_shards(what, &make, &one, &d, &splits, rng, round_trip);
    }
}

fn row_metric<M>(metric: M, rng: &mut Rng)
where
    M: RowMetric + RankingMetric<f64> + Clone + PartialEq + Debug + Serialize + DeserializeOwned,
{
    let what = format!("{metric:?}");
    let one_shot = |d: &Data| {
        let (y, s, w) = d.rows(0..d.n);
        metric.evaluate(&y, &s, w)
    };
    let make = |r| RowAccumulator::starting_at(metric.clone(), r);
    check_through_serde(&what, make, one_shot, rng, 6);
}

#[test]
fn row_metrics_under_every_tie_policy() {
    let mut rng = Rng::seeded(0x5EED_5E7D_0000_0001);
    let policies = TiePolicy::R_METHODS
        .into_iter()
        .chain(TiePolicy::ANALYSIS)
        .chain([TiePolicy::Random(7)]);
    for t in policies {
        row_metric(Coverage::new(t), &mut rng);
        row_metric(AveragePrecision::new(t), &mut rng);
        row_metric(RankingLoss::new(t), &mut rng);
        row_metric(OneError::new(t), &mut rng);
        row_metric(IsError::new(t), &mut rng);
        row_metric(ErrorSetSize::new(t), &mut rng);
        row_metric(Dcg::new(t).with_log_base(10.0).unwrap(), &mut rng);
        row_metric(Ndcg::new(t), &mut rng);
        row_metric(PrecisionAtK::new(t, 2).unwrap(), &mut rng);
        row_metric(RecallAtK::new(t, 3).unwrap(), &mut rng);
        row_metric(NdcgAtK::new(t, 2).unwrap(), &mut rng);
        let inverse = vec![1.5, 0.1, 2.0 / 3.0, 7.25, 1.0, 3.0, 0.3];
        row_metric(
            PsPrecisionAtK::new(t, 2, inverse.clone()).unwrap(),
            &mut rng,
        );
        row_metric(PsNdcgAtK::new(t, 3, inverse).unwrap(), &mut rng);
    }
    // Options that hold floats, and MULAN's left-to-right sum.
    let ap = AveragePrecision::new(TiePolicy::Average);
    row_metric(ap.on_no_relevant(RowRule::Value(0.1 + 0.2)), &mut rng);
    row_metric(ap.with_grouping(TieGrouping::Within(0.45)), &mut rng);
    row_metric(ap.with_summation(Summation::Sequential), &mut rng);
    row_metric(mulan::AveragePrecision, &mut rng);
    row_metric(
        rankmetrics::sklearn::LABEL_RANKING_AVERAGE_PRECISION_SCORE,
        &mut rng,
    );
}

#[test]
fn labelwise_metrics_weighted_and_unweighted() {
    let mut rng = Rng::seeded(0x5EED_5E7D_0000_0002);
    for average in [
        Average::Macro,
        Average::Micro,
        Average::Weighted,
        Average::Samples,
    ] {
        for t in [TiePolicy::Average, TiePolicy::First, TiePolicy::Random(3)] {
            let auc = RocAuc::new(average, t).on_undefined(Undefined::Value(0.1 + 0.2));
            let ap = LabelAveragePrecision::new(average, t);
            let map = InterpolatedAveragePrecision::new(average, t, 11);
            let what = format!("{average:?} {t:?}");
            let one = |d: &Data| {
                let (y, s, w) = d.rows(0..d.n);
                auc.evaluate(&y, &s, w)
            };
            check_through_serde(&what, |r| auc.accumulator_starting_at(r), one, &mut rng, 4);
            let one = |d: &Data| {
                let (y, s, w) = d.rows(0..d.n);
                ap.evaluate(&y, &s, w)
            };
            check_through_serde(&what, |r| ap.accumulator_starting_at(r), one, &mut rng, 4);
            let one = |d: &Data| {
                let (y, s, w) = d.rows(0..d.n);
                map.evaluate(&y, &s, w)
            };
            check_through_serde(&what, |r| map.accumulator_starting_at(r), one, &mut rng, 4);
        }
    }
}

#[test]
fn label_runs_states_round_trip_and_merge_exactly() {
    let mut rng = Rng::seeded(0x5EED_5E7D_0000_0009);
    for average in [Average::Macro, Average::Micro, Average::Weighted] {
        for t in [
            TiePolicy::Average,
            TiePolicy::Expected,
            TiePolicy::Pessimistic,
        ] {
            let auc = RocAuc::new(average, t).on_undefined(Undefined::Value(0.1 + 0.2));
            let ap = LabelAveragePrecision::new(average, t).with_grouping(TieGrouping::WEKA);
            for _ in 0..6 {
                let mut d = Data::random(&mut rng);
                d.w = None; // runs keep no weights
                let splits = d.splits(&mut rng);
                let (y, s, _) = d.rows(0..d.n);
                let what = format!("runs {average:?} {t:?}");
                let one = auc.evaluate(&y, &s, None);
                let make = |r| auc.runs_accumulator_starting_at(r).unwrap();
                check_shards(&what, make, &one, &d, &splits, &mut rng, round_trip);
                let one = ap.evaluate(&y, &s, None);
                let make = |r| ap.runs_accumulator_starting_at(r).unwrap();
                check_shards(&what, make, &one, &d, &splits, &mut rng, round_trip);
            }
        }
    }
}

#[test]
fn inconsistent_runs_are_refused_when_read() {
    let auc = RocAuc::new(Average::Macro, TiePolicy::Max);
    let mut acc = auc.runs_accumulator().unwrap();
    acc.update(
        &[[1, 0], [0, 1], [0, 0]],
        &[[0.2, 0.9], [0.1, 0.9], [0.1, 0.3]],
        None,
    )
    .unwrap();
    let value = serde_json::to_value(&acc).unwrap();
    let read =
        |v: &Value| serde_json::from_value::<rankmetrics::LabelRunsAccumulator<RocAuc>>(v.clone());
    assert_eq!(read(&value).unwrap(), acc);
    // Label 0 holds 0.2 (relevant) then 0.1 (two irrelevant): [bits, relevant, irrelevant].
    let runs = &value["runs"]["columns"][0];
    assert_eq!(
        runs[0],
        serde_json::json!([0.2f64.to_bits(), 1, 0]),
        "{value}"
    );
    let tampered = |f: &dyn Fn(&mut Value)| {
        let mut v = value.clone();
        f(&mut v["runs"]["columns"][0]);
        v
    };
    let swapped = tampered(&|c| c.as_array_mut().unwrap().swap(0, 1));
    let emptied = tampered(&|c| c[0] = serde_json::json!([0.2f64.to_bits(), 0, 0]));
    let recounted = tampered(&|c| c[0] = serde_json::json!([0.2f64.to_bits(), 2, 0]));
    let infinite = tampered(&|c| c[0] = serde_json::json!([f64::INFINITY.to_bits(), 1, 0]));
    // Runs of a label count with no row seen: an empty accumulator has no label count yet.
    let mut no_rows = serde_json::to_value(auc.runs_accumulator().unwrap()).unwrap();
    assert_eq!(no_rows["runs"], Value::Null, "{no_rows}");
    no_rows["runs"] = serde_json::json!({"columns": [[], []]});
    for bad in [swapped, emptied, recounted, infinite, no_rows] {
        assert!(read(&bad).is_err(), "{bad}");
    }
}

#[test]
fn a_run_of_negative_zero_is_refused_when_read() {
    // Runs hold 0.0 for -0.0 (they tie); a state read back holding -0.0 made the bits of
    // merged states depend on the merge order (a merged run keeps the score of the left).
    let auc = RocAuc::new(Average::Macro, TiePolicy::Max);
    let shard = |first: usize| {
        let mut acc = auc.runs_accumulator_starting_at(first).unwrap();
        acc.update(&[[1], [0]], &[[0.0], [0.5]], None).unwrap();
        acc
    };
    let value = serde_json::to_value(shard(0)).unwrap();
    assert_eq!(
        value["runs"]["columns"][0][1],
        serde_json::json!([0, 1, 0]),
        "{value}"
    );
    let mut negative = value.clone();
    negative["runs"]["columns"][0][1] = serde_json::json!([(-0.0f64).to_bits(), 1, 0]);
    let read = serde_json::from_value::<rankmetrics::LabelRunsAccumulator<RocAuc>>(negative);
    assert!(read.is_err(), "{read:?}");
    // The state as written merges to the same bits in either order.
    let (mut ab, b) = (shard(0), shard(2));
    ab.merge(&b).unwrap();
    let mut ba = b.clone();
    ba.merge(&shard(0)).unwrap();
    assert_eq!(
        serde_json::to_string(&ab).unwrap(),
        serde_json::to_string(&ba).unwrap()
    );
}

#[test]
fn runs_of_more_items_than_the_kernel_numbers_are_refused_not_ranked_item_by_item() {
    // A state of 2^32 + 2 rows of one label holding two scores, read back: optimistic and
    // pessimistic rank each item as a block of its own (positions numbered with u32, as the
    // kernel numbers them), so the value is refused as the rows' evaluation refuses a vector
    // of more than u32::MAX items, before anything is allocated per item.
    let auc = RocAuc::new(Average::Macro, TiePolicy::Optimistic);
    let mut acc = auc.runs_accumulator().unwrap();
    acc.update(&[[1], [0]], &[[0.5], [0.25]], None).unwrap();
    let mut value = serde_json::to_value(&acc).unwrap();
    let n: u64 = (1 << 32) + 2;
    let rows = serde_json::to_string(&value["rows"]).unwrap();
    let grown = rows.replace('2', &n.to_string());
    assert_ne!(rows, grown, "{rows}");
    value["rows"] = serde_json::from_str(&grown).unwrap();
    value["runs"]["columns"][0][0][1] = serde_json::json!(n - 1);
    let big: rankmetrics::LabelRunsAccumulator<RocAuc> = serde_json::from_value(value).unwrap();
    assert_eq!(big.row_count() as u64, n);
    for ties in [TiePolicy::Optimistic, TiePolicy::Pessimistic] {
        let json = serde_json::to_value(&big).unwrap().to_string();
        let other = if ties == TiePolicy::Optimistic {
            "Optimistic"
        } else {
            "Pessimistic"
        };
        let state: rankmetrics::LabelRunsAccumulator<RocAuc> =
            serde_json::from_str(&json.replace("Optimistic", other)).unwrap();
        assert!(
            matches!(state.value(), Err(Error::TooManyItems { .. })),
            "{ties:?}"
        );
    }
    // A policy sharing a tie's rank makes a block per run: the state serves its value.
    let json = serde_json::to_value(&big).unwrap().to_string();
    let max: rankmetrics::LabelRunsAccumulator<RocAuc> =
        serde_json::from_str(&json.replace("Optimistic", "Max")).unwrap();
    assert_eq!(max.value(), Ok(1.0));
}

#[test]
fn every_preset_of_every_convention() {
    let mut rng = Rng::seeded(0x5EED_5E7D_0000_0003);
    for convention in Convention::ALL {
        for &name in convention
            .entries()
            .iter()
            .filter(|e| !e.needs_params())
            .map(|e| &e.name)
        {
            for ties in [None, Some(TiePolicy::Random(11))] {
                let preset = Preset::lookup(convention, name, Preset::NO_PARAMS, ties).unwrap();
                let what = format!("{convention} {name} {ties:?}");
                let one = |d: &Data| {
                    let (y, s, w) = d.rows(0..d.n);
                    preset.evaluate(&y, &s, w)
                };
                let make = |r| preset.accumulator_starting_at(r);
                check_through_serde(&what, make, one, &mut rng, 6);
            }
        }
    }
}

/// The reviewer's cases: MULAN's MeanAveragePrecision shards merged in reverse order, and
/// weighted label-wise AUC shards through plain JSON, both bitwise the one-shot value.
#[test]
fn mulan_reverse_merges_and_weighted_auc_through_json_are_exact() {
    let (n, l) = (30, 4);
    let y: Vec<f64> = (0..n * l)
        .map(|i| ((i * 7 + i / 5) % 3 == 0) as u8 as f64)
        .collect();
    let s: Vec<f64> = (0..n * l).map(|i| ((i * 13) % 10) as f64 / 9.0).collect();
    let w: Vec<f64> = (0..n).map(|i| 0.1 * (i % 7) as f64 + 1.0 / 3.0).collect();
    let rows = |r: std::ops::Range<usize>| {
        let cells = r.start * l..r.end * l;
        (
            rankmetrics::RowMajor::new(&y[cells.clone()], r.len(), l).unwrap(),
            rankmetrics::RowMajor::new(&s[cells], r.len(), l).unwrap(),
            r,
        )
    };
    let map = Preset::lookup(
        Convention::Mulan,
        "MeanAveragePrecision",
        Preset::NO_PARAMS,
        None,
    )
    .unwrap();
    let auc = RocAuc::new(Average::Macro, TiePolicy::Average);
    let (ya, sa, _) = rows(0..n);
    let (map_one, auc_one) = (
        map.evaluate(&ya, &sa, None::<&[f64]>).unwrap(),
        auc.evaluate(&ya, &sa, Some(&w)).unwrap(),
    );
    let cuts = [0..7, 7..19, 19..30];
    let mut map_shards: Vec<PresetAccumulator> = Vec::new();
    let mut auc_shards = Vec::new();
    for r in cuts {
        let (yr, sr, r) = rows(r);
        let mut a = map.accumulator_starting_at(r.start);
        a.update(&yr, &sr, None::<&[f64]>).unwrap();
        map_shards.push(serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap());
        let mut b = auc.accumulator_starting_at(r.start);
        b.update(&yr, &sr, Some(&w[r])).unwrap();
        auc_shards.push(
            serde_json::from_str::<rankmetrics::LabelwiseAccumulator<RocAuc>>(
                &serde_json::to_string(&b).unwrap(),
            )
            .unwrap(),
        );
    }
    let mut m = map_shards[2].clone();
    m.merge(&map_shards[1]).unwrap();
    m.merge(&map_shards[0]).unwrap();
    assert_eq!(m.value().unwrap().to_bits(), map_one.to_bits());
    let mut a = auc_shards[2].clone();
    a.merge(&auc_shards[0]).unwrap();
    a.merge(&auc_shards[1]).unwrap();
    assert_eq!(a.value().unwrap().to_bits(), auc_one.to_bits());
}

/// Sums of products of values and subnormal weights hold limbs below 2^-1074 (negative
/// `first_limb`), next to weights near f64::MAX: they round-trip and merge exactly.
#[test]
fn sums_at_extreme_weights_round_trip_and_merge_exactly() {
    let (y, s) = (
        [[1, 0, 1], [0, 1, 1], [1, 1, 0]],
        [[0.9, 0.5, 0.5], [0.5, 0.7, 0.2], [0.1, 0.5, 0.3]],
    );
    for w in [[5e-324, 1e-300, 5e-324], [0.0, f64::MAX, 1.7e308]] {
        let metric = AveragePrecision::new(TiePolicy::Max);
        let one = metric.evaluate(&y, &s, Some(&w)).unwrap();
        let mut a = metric.accumulator();
        a.update(&y[..1], &s[..1], Some(&w[..1])).unwrap();
        let mut b = metric.accumulator_starting_at(1);
        b.update(&y[1..], &s[1..], Some(&w[1..])).unwrap();
        let (a, mut b) = (round_trip(&a), round_trip(&b));
        if w[0] == 5e-324 {
            let json = serde_json::to_value(&a).unwrap();
            let first = &json["state"]["sums"]["Exact"]["weighted"]["first_limb"];
            assert!(first.as_i64().unwrap() < 0, "{json}");
        }
        b.merge(&a).unwrap();
        assert_eq!(round_trip(&b).value().unwrap().to_bits(), one.to_bits());
    }
}

#[test]
fn another_format_version_is_an_error_naming_it() {
    let mut acc = Coverage::new(TiePolicy::Max).accumulator();
    acc.update(&[[1, 0]], &[[0.2, 0.9]], None).unwrap();
    let mut value = serde_json::to_value(&acc).unwrap();
    value["version"] = 7.into();
    let err = serde_json::from_value::<RowAccumulator<Coverage>>(value).unwrap_err();
    assert!(err.to_string().contains("version 7"), "{err}");
    let preset = Preset::lookup(Convention::Mulan, "MacroAUC", Preset::NO_PARAMS, None).unwrap();
    let mut value = serde_json::to_value(preset.accumulator()).unwrap();
    // Version 1 wrote the exact sums' first limb unsigned and the row-wise sums of products at
    // f64 range only.
    value["version"] = 1.into();
    let err = serde_json::from_value::<PresetAccumulator>(value).unwrap_err();
    assert!(err.to_string().contains("version 1"), "{err}");
}

#[test]
fn inconsistent_row_ranges_are_refused_when_read() {
    let mut acc = Coverage::new(TiePolicy::Max).accumulator_starting_at(4);
    acc.update(&[[1, 0], [0, 1]], &[[0.2, 0.9], [0.1, 0.3]], None)
        .unwrap();
    let mut value = serde_json::to_value(&acc).unwrap();
    assert_eq!(
        value["state"]["rows"]["seen"],
        serde_json::json!([{"start": 4, "end": 6}])
    );
    value["state"]["rows"]["next"] = 5.into();
    assert!(serde_json::from_value::<RowAccumulator<Coverage>>(value).is_err());
}

/// scikit-learn's label-type check across shards: a third distinct label value is the error
/// one-shot evaluation reports (its first cell in row order), whatever the merge order, and the
/// refused merge changes nothing.
#[test]
fn label_type_check_merges_in_any_order() {
    let name = "label_ranking_average_precision_score";
    let lrap = Preset::lookup(Convention::Sklearn, name, Preset::NO_PARAMS, None).unwrap();
    let y = [[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [0.0, 2.0]];
    let s = [[0.2, 0.9], [0.1, 0.3], [0.5, 0.5], [0.4, 0.6]];
    let one_shot = lrap.evaluate(&y, &s, None::<&[f64]>).unwrap_err();
    assert!(matches!(
        one_shot,
        Error::InvalidLabel {
            row: 2,
            column: 0,
            ..
        }
    ));
    let shard = |r: std::ops::Range<usize>| {
        let mut a = lrap.accumulator_starting_at(r.start);
        a.update(&y[r.clone()], &s[r], None::<&[f64]>).unwrap();
        round_trip(&a)
    };
    let (a, b, c) = (shard(0..1), shard(1..2), shard(2..4));
    for [first, second, third] in [[&a, &b, &c], [&c, &b, &a], [&b, &c, &a], [&c, &a, &b]] {
        let mut acc = first.clone();
        let mut errors = vec![];
        for next in [second, third] {
            let before = acc.clone();
            if let Err(e) = acc.merge(next) {
                assert_eq!(acc, before);
                errors.push(e);
            }
        }
        // Every merge that meets the third value fails, with one-shot's error.
        assert!(
            !errors.is_empty() && errors.iter().all(|e| *e == one_shot),
            "{errors:?}"
        );
    }
    let mut ab = a.clone();
    ab.merge(&b).unwrap();
    assert_eq!(
        ab.merge(&a),
        Err(Error::Incompatible(Incompatibility::Overlap {
            start: 0,
            end: 1
        }))
    );
}

/// `$metric`'s runs state of `$y`, `$s` fed in random batches (and as two shards merged)
/// against one batch and the one-shot value: the same value bits, state, run count and
/// serialised form. (A macro: the accumulator's methods are bound by a crate-private trait.)
macro_rules! check_levels {
    ($what:expr, $metric:expr, $y:expr, $s:expr, $rng:expr) => {{
        let (what, metric, y, s, rng) = ($what, $metric, $y, $s, $rng);
        let one = metric.evaluate(y, s, None).unwrap();
        let mut whole = metric.runs_accumulator().unwrap();
        whole.update(y, s, None).unwrap();
        let mut batched = metric.runs_accumulator().unwrap();
        let mut start = 0;
        while start < y.len() {
            let end = (start + 1 + rng.below(40)).min(y.len());
            batched
                .update(&y[start..end], &s[start..end], None)
                .unwrap();
            start = end;
        }
        let half = y.len() / 2;
        let mut first = metric.runs_accumulator().unwrap();
        let mut second = metric.runs_accumulator_starting_at(half).unwrap();
        for (acc, rows) in [(&mut first, 0..half), (&mut second, half..y.len())] {
            for chunk in rows.clone().step_by(25) {
                let end = (chunk + 25).min(rows.end);
                acc.update(&y[chunk..end], &s[chunk..end], None).unwrap();
            }
        }
        second.merge(&first).unwrap();
        for (how, acc) in [("batched", &batched), ("merged", &second)] {
            assert_eq!(
                acc.value().unwrap().to_bits(),
                one.to_bits(),
                "{what} {how}"
            );
            assert_eq!(acc, &whole, "{what} {how}");
            assert_eq!(acc.run_count(), whole.run_count(), "{what} {how}");
            let per_label = acc.label_run_counts();
            assert_eq!(per_label, whole.label_run_counts(), "{what} {how}");
            assert_eq!(per_label.iter().sum::<usize>(), whole.run_count());
            let json = serde_json::to_value(acc).unwrap();
            assert_eq!(json, serde_json::to_value(&whole).unwrap(), "{what} {how}");
            let back = read_as(&whole, json);
            assert_eq!(
                back.value().unwrap().to_bits(),
                one.to_bits(),
                "{what} {how}"
            );
        }
    }};
}

/// `json` read back as the type of `_like`.
fn read_as<T: DeserializeOwned>(_like: &T, json: Value) -> T {
    serde_json::from_value(json).unwrap()
}

/// Batches of mostly distinct scores leave a runs state in several levels (merged lazily):
/// its value, equality, serialised form and run count are those of the same rows in one batch,
/// with equal scores met in different batches counted as one run.
#[test]
fn runs_kept_in_levels_are_the_runs_of_one_batch() {
    let mut rng = Rng::seeded(0x5EED_1E7E_0001);
    let n = 700;
    let y: Vec<[f64; 3]> = (0..n)
        .map(|_| [0; 3].map(|_: i32| f64::from(u8::from(rng.below(3) == 0))))
        .collect();
    // Every eighth score from five values, the rest distinct.
    let s: Vec<[f64; 3]> = (0..n)
        .map(|_| {
            [0; 3].map(|_: i32| match rng.below(8) {
                0 => [0.1, 0.3, 0.5, 0.7, 0.9][rng.below(5)],
                _ => rng.below(1 << 40) as f64 / (1u64 << 40) as f64,
            })
        })
        .collect();
    for average in [Average::Macro, Average::Micro, Average::Weighted] {
        for ties in [TiePolicy::Average, TiePolicy::Pessimistic] {
            let what = format!("{average:?} {ties:?}");
            let auc = RocAuc::new(average, ties);
            check_levels!(format!("AUC {what}"), &auc, &y, &s, &mut rng);
            let ap = LabelAveragePrecision::new(average, ties);
            check_levels!(format!("AP {what}"), &ap, &y, &s, &mut rng);
        }
    }
}
