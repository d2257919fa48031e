//! torchmetrics' LRAP in its `float32` arithmetic (`arithmetic=float32`; the toolkit function
//! always): each row's mean by torch's `float32` sum, the rows added into a `float32` running
//! total. The expected values are torchmetrics 1.9.0's
//! on torch 2.15.0 (CPU), with float32 and float64 preds alike.

use rankmetrics::registry::{Convention, Preset};
use rankmetrics::torchmetrics::multilabel_ranking_average_precision;
use rankmetrics::RowMajor;

#[test]
fn ten_thousand_rows_drift_as_torchmetrics_running_total_does() {
    let n = 10_000;
    let scores: Vec<f64> = [0.9, 0.5, 0.1].repeat(n);
    let labels: Vec<u8> = [0, 0, 1].repeat(n);
    let (y, s) = (
        RowMajor::new(&labels, n, 3).unwrap(),
        RowMajor::new(&scores, n, 3).unwrap(),
    );
    let torchmetrics = 0.333_311_945_199_966_43; // the exact mean is 1/3
    assert_eq!(
        multilabel_ranking_average_precision(&s, &y).unwrap(),
        torchmetrics
    );
    let s32: Vec<f32> = scores.iter().map(|&x| x as f32).collect();
    let s32 = RowMajor::new(&s32, n, 3).unwrap();
    let float32 = [("arithmetic", "float32")];
    let preset = Preset::lookup(
        Convention::Torchmetrics,
        "multilabel_ranking_average_precision",
        &float32,
        None,
    )
    .unwrap();
    assert_eq!(preset.evaluate(&y, &s32, None).unwrap(), torchmetrics);
    // In shards merged in any order, the running total is still taken in row order.
    let half = n / 2 * 3;
    let (mut a, mut b) = (preset.accumulator(), preset.accumulator_starting_at(n / 2));
    b.update(
        &RowMajor::new(&labels[half..], n / 2, 3).unwrap(),
        &RowMajor::new(&scores[half..], n / 2, 3).unwrap(),
        None,
    )
    .unwrap();
    a.update(
        &RowMajor::new(&labels[..half], n / 2, 3).unwrap(),
        &RowMajor::new(&scores[..half], n / 2, 3).unwrap(),
        None,
    )
    .unwrap();
    b.merge(&a).unwrap();
    assert_eq!(b.value().unwrap(), torchmetrics);
}
