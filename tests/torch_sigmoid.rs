//! torch's CPU sigmoid depends on where a logit sits: its vector kernel computes whole blocks
//! of a dense tensor (32 `float32` on AVX-512, 16 on AVX2) with another `exp` than the
//! elements left over. The expected values are torchmetrics 1.9.0's on torch 2.15.0, run with
//! `ATEN_CPU_CAPABILITY` set to `avx512`, `avx2` and `default` (the one-element formula).

use rankmetrics::registry::{Convention, Preset};
use rankmetrics::RowMajor;
use rstest::rstest;

/// Two logits one `float32` step apart: the vector kernel gives both the same sigmoid; the
/// one-element formula keeps them apart.
const A: f32 = -1.040_839_2;
const B: f32 = -1.040_839_1;

/// torchmetrics' (coverage, LRAP) on `rows` × `labels` logits of -5, with `A` and `B` (or `B`
/// and `A`, `swapped`) at `first` and `second`, the second relevant (and, with 2 rows, label 3
/// of row 1).
fn coverage_and_lrap(
    kernel: &str, rows: usize, labels: usize, (first, second): (usize, usize), swapped: bool,
) -> (f64, f64) {
    let mut preds = vec![-5.0f32; rows * labels];
    let mut target = vec![0u8; rows * labels];
    (preds[first], preds[second]) = if swapped { (B, A) } else { (A, B) };
    target[second] = 1;
    if rows > 1 {
        target[labels + 3] = 1;
    }
    let (y, s) = (
        RowMajor::new(&target, rows, labels).unwrap(),
        RowMajor::new(&preds, rows, labels).unwrap(),
    );
    let params = [("sigmoid", kernel)];
    let value = |metric| {
        Preset::lookup(Convention::Torchmetrics, metric, &params, None)
            .unwrap()
            .evaluate(&y, &s, None)
            .unwrap()
    };
    (
        value("multilabel_coverage_error"),
        value("multilabel_ranking_average_precision"),
    )
}

#[rstest]
// 32 logits: one AVX-512 block, two AVX2 blocks; the one-element formula ties them only swapped.
#[case("avx512", 2, 16, (0, 1), false, (9.0, 0.28125))]
#[case("avx512", 2, 16, (0, 1), true, (9.0, 0.28125))]
#[case("avx2", 2, 16, (0, 1), false, (9.0, 0.28125))]
#[case("scalar", 2, 16, (0, 1), false, (8.5, 0.53125))]
#[case("scalar", 2, 16, (0, 1), true, (9.0, 0.28125))]
// 24 logits: no AVX-512 block, one AVX2 block.
#[case("avx512", 1, 24, (0, 1), false, (1.0, 1.0))]
#[case("avx512", 1, 24, (0, 1), true, (2.0, 0.5))]
#[case("avx2", 1, 24, (0, 1), false, (2.0, 0.5))]
#[case("avx2", 1, 24, (0, 1), true, (2.0, 0.5))]
#[case("scalar", 1, 24, (0, 1), false, (1.0, 1.0))]
// 40 logits: the first 32 in blocks under both, the last 8 left over.
#[case("avx512", 1, 40, (0, 1), false, (2.0, 0.5))]
#[case("avx2", 1, 40, (0, 1), true, (2.0, 0.5))]
#[case("scalar", 1, 40, (0, 1), false, (1.0, 1.0))]
#[case("avx512", 1, 40, (32, 33), false, (1.0, 1.0))]
#[case("avx512", 1, 40, (32, 33), true, (2.0, 0.5))]
#[case("avx2", 1, 40, (32, 33), false, (1.0, 1.0))]
fn the_sigmoid_of_a_logit_depends_on_its_place_as_in_torch(
    #[case] kernel: &str, #[case] rows: usize, #[case] labels: usize,
    #[case] places: (usize, usize), #[case] swapped: bool, #[case] torchmetrics: (f64, f64),
) {
    let got = coverage_and_lrap(kernel, rows, labels, places, swapped);
    assert_eq!(got, torchmetrics);
}

/// torch's vector sigmoid runs over the tensor's memory: in a 2 × 24 `float32` tensor on
/// AVX-512, `A` and `B` at row 1, labels 10 and 11, are elements 34 and 35 in C order (left
/// over: apart), 21 and 23 in Fortran order (in the first block: tied); a strided view takes
/// the one-element formula everywhere. torchmetrics' coverage and `float32` LRAP on torch
/// 2.15.0 (`p.t().contiguous().t()` for Fortran order, `big[:, ::2]` for the strided view).
#[rstest]
#[case("c", 12.5, 0.520_833_313_465_118_4)]
#[case("f", 13.0, 0.270_833_343_267_440_8)]
#[case("strided", 12.5, 0.520_833_313_465_118_4)]
fn the_vector_sigmoid_runs_in_the_tensors_memory_order(
    #[case] order: &str, #[case] coverage: f64, #[case] lrap: f64,
) {
    let (rows, labels) = (2, 24);
    let mut preds = vec![-5.0f32; rows * labels];
    let mut target = vec![0u8; rows * labels];
    (preds[labels + 10], preds[labels + 11]) = (A, B);
    (target[labels + 11], target[3]) = (1, 1);
    let (y, s) = (
        RowMajor::new(&target, rows, labels).unwrap(),
        RowMajor::new(&preds, rows, labels).unwrap(),
    );
    let value = |metric, float32: bool| {
        let mut params = vec![("sigmoid", "avx512")];
        if float32 {
            params.push(("arithmetic", "float32"));
        }
        // A module's batch in that order, whatever the preset's.
        let mut acc = Preset::lookup(Convention::Torchmetrics, metric, &params, None)
            .unwrap()
            .accumulator()
            .deciding_sigmoid_per_batch(true);
        params.push(("memory_order", order));
        let preset = Preset::lookup(Convention::Torchmetrics, metric, &params, None).unwrap();
        let one_call = preset.evaluate(&y, &s, None).unwrap();
        let order = order.parse().unwrap();
        acc.update_in_memory_order(order, &y, &s, None).unwrap();
        assert_eq!(acc.value().unwrap(), one_call);
        one_call
    };
    assert_eq!(value("multilabel_coverage_error", false), coverage);
    assert_eq!(value("multilabel_ranking_average_precision", true), lrap);
}

/// A view whose rows are apart (`x[:, :40]` of a 3 × 64 `float32` tensor): torch's vector
/// blocks start again at each row, so `A` and `B` at row 2, labels 20 and 21, are in the
/// row's first block (tied), where the dense C order would leave them over (elements 100 and
/// 101 of 120). torchmetrics' coverage on torch 2.15.0, AVX-512: 14.0.
#[test]
fn the_vector_blocks_restart_at_each_row_of_a_view_with_gaps() {
    let (rows, labels) = (3, 40);
    let mut preds = vec![-5.0f32; rows * labels];
    let mut target = vec![0u8; rows * labels];
    (preds[2 * labels + 20], preds[2 * labels + 21]) = (A, B);
    (target[2 * labels + 21], target[3]) = (1, 1);
    let (y, s) = (
        RowMajor::new(&target, rows, labels).unwrap(),
        RowMajor::new(&preds, rows, labels).unwrap(),
    );
    let coverage = |order| {
        let params = [("sigmoid", "avx512"), ("memory_order", order)];
        let p = Preset::lookup(
            Convention::Torchmetrics,
            "multilabel_coverage_error",
            &params,
            None,
        );
        p.unwrap().evaluate(&y, &s, None).unwrap()
    };
    assert_eq!(coverage("rows"), 14.0);
    assert!(coverage("c") < 14.0);
    assert_eq!(coverage("columns"), coverage("strided"));
}

/// A tensor of 32,768 scores or more is split among torch's threads, each chunk with its own
/// elements left over: with 2 threads, 100,001 `float32` scores give chunks of 50,001, whose
/// last 17 take the one-element formula (measured on torch 2.15.0 with AVX-512).
#[test]
fn each_of_torchs_threads_leaves_its_own_elements_over() {
    let n = 100_001;
    let mut preds = vec![-5.0f32; n];
    let mut target = vec![0u8; n];
    // The tied pair at 49,990 (left over in chunk 0 with 2 threads; in a block with 1).
    (preds[49_990], preds[49_991]) = (A, B);
    target[49_991] = 1;
    let (y, s) = (
        RowMajor::new(&target, 1, n).unwrap(),
        RowMajor::new(&preds, 1, n).unwrap(),
    );
    let coverage = |threads: &str| {
        let params = [("sigmoid", "avx512"), ("torch_threads", threads)];
        Preset::lookup(
            Convention::Torchmetrics,
            "multilabel_coverage_error",
            &params,
            None,
        )
        .unwrap()
        .evaluate(&y, &s, None)
        .unwrap()
    };
    assert_eq!((coverage("1"), coverage("2")), (2.0, 1.0));
}

/// The parameters' values are checked, and their effect reaches every door of a preset:
/// `evaluate`, the accumulator that keeps rows, the one that keeps runs, and their states read
/// back.
#[test]
fn the_kernel_reaches_accumulators_and_their_states() {
    for bad in [
        [("sigmoid", "avx1024")],
        [("torch_threads", "0")],
        [("torch_threads", "two")],
    ] {
        let lookup = Preset::lookup(Convention::Torchmetrics, "multilabel_auroc", &bad, None);
        assert!(lookup.is_err(), "{bad:?}");
    }
    let bad = [("arithmetic", "float16")];
    let lrap = "multilabel_ranking_average_precision";
    assert!(Preset::lookup(Convention::Torchmetrics, lrap, &bad, None).is_err());

    // The 2 x 16 example above as AUROC: the tie under avx512 changes label 1's AUC.
    let mut preds = vec![-5.0f32; 32];
    let mut target = vec![0u8; 32];
    (preds[0], preds[1]) = (A, B);
    (target[1], target[16 + 3], target[16], target[17]) = (1, 1, 1, 1);
    let (y, s) = (
        RowMajor::new(&target, 2, 16).unwrap(),
        RowMajor::new(&preds, 2, 16).unwrap(),
    );
    let preset = |kernel| {
        let params = [("sigmoid", kernel), ("average", "micro")];
        Preset::lookup(Convention::Torchmetrics, "multilabel_auroc", &params, None).unwrap()
    };
    let (vector, scalar) = (preset("avx512"), preset("scalar"));
    assert!(vector.depends_on_batching() && !scalar.depends_on_batching());
    let one_shot = vector.evaluate(&y, &s, None).unwrap();
    assert_ne!(one_shot, scalar.evaluate(&y, &s, None).unwrap());
    let mut rows = vector.accumulator();
    let mut runs = vector.runs_accumulator_starting_at(0).unwrap();
    rows.update(&y, &s, None).unwrap();
    runs.update(&y, &s, None).unwrap();
    assert!(runs.run_count().is_some());
    for acc in [rows, runs] {
        assert_eq!(acc.value().unwrap().to_bits(), one_shot.to_bits());
        #[cfg(feature = "serde")]
        {
            let text = serde_json::to_string(&acc).unwrap();
            let back: rankmetrics::registry::PresetAccumulator =
                serde_json::from_str(&text).unwrap();
            assert_eq!(back.value().unwrap().to_bits(), one_shot.to_bits());
        }
        // A shard computed under another kernel does not merge.
        let mut other = scalar.accumulator_starting_at(2);
        other.update(&y, &s, None).unwrap();
        let mut merged = acc.clone();
        assert!(merged.merge(&other).is_err());
    }
}
