//! Label-wise metrics (scikit-learn's `roc_auc_score` and `average_precision_score`) on a
//! tall shape, where each column is a long vector and the micro average pools every cell, with
//! a one-read baseline to quote ratios against.
//!
//! * T: 20,000 × 100, continuous scores, about 5 relevant labels per row (columns of 20,000:
//!   the radix-sorted lengths; the pool of 2,000,000 cells: ranked in pieces).
//! * C: the same rows with scores rounded to steps of 0.1 (heavy ties).
//! * L: T's scores as logits, ln(p / (1 − p)): scores of both signs, whose keys crowd into a
//!   few of the counting path's buckets (src/kernel/intervals.rs).
//!
//! Ids read `metric/shape`; `read_scores/T` sums every score once.
//!
//! `cargo bench --bench labelwise` (under a minute); `-- --quick` for a fast look.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use rankmetrics::{sklearn, Average, LabelAveragePrecision, RankingMetric, RocAuc};

mod common;

use common::{Input, LABELS};

const ROWS: usize = 20_000;

fn labelwise(c: &mut Criterion) {
    let tall = Input::generate(ROWS, 0x0007_5EED, None);
    let tied = Input::generate(ROWS, 0x000C_5EED, Some(0.1));
    let logits = Input {
        rows: ROWS,
        y_true: tall.y_true.clone(),
        y_score: tall.y_score.iter().map(|p| (p / (1.0 - p)).ln()).collect(),
    };

    let mut group = c.benchmark_group("read_scores");
    group.throughput(Throughput::Elements((ROWS * LABELS) as u64));
    group.bench_function("T", |b| {
        b.iter(|| black_box(&tall.y_score).iter().sum::<f64>())
    });
    group.finish();

    let auc_macro: RocAuc = sklearn::ROC_AUC_SCORE;
    let auc_micro = auc_macro.averaged(Average::Micro);
    let ap_macro: LabelAveragePrecision = sklearn::AVERAGE_PRECISION_SCORE;
    /// A metric as the bench calls it.
    type Evaluate<'m> = &'m dyn Fn(&Input) -> f64;
    let metrics: [(&str, Evaluate<'_>); 3] = [
        ("roc_auc_macro", &|i| {
            auc_macro.evaluate(&i.labels(), &i.scores(), None).unwrap()
        }),
        ("roc_auc_micro", &|i| {
            auc_micro.evaluate(&i.labels(), &i.scores(), None).unwrap()
        }),
        ("ap_macro", &|i| {
            ap_macro.evaluate(&i.labels(), &i.scores(), None).unwrap()
        }),
    ];
    for (name, metric) in metrics {
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements((ROWS * LABELS) as u64));
        // Tens of milliseconds per evaluation: equal iteration counts per sample fit the budget.
        group.sampling_mode(SamplingMode::Flat);
        for (shape, input) in [("T", &tall), ("C", &tied), ("L", &logits)] {
            group.bench_function(shape, |b| b.iter(|| metric(black_box(input))));
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = labelwise
}
criterion_main!(benches);
