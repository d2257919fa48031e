//! The tie-analysis policies against `Max` on 100,000 × 100 scores (the target: Expected costs
//! at most 1.3× Max for the same metric). Shape B: continuous scores; shape C: the same rounded
//! to steps of 0.1, so every row is full of ties and the closed forms do real work.
//!
//! `cargo bench --bench tie_analysis`; ids read `metric_100k/shape/policy`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use rankmetrics::{AveragePrecision, Coverage, IsError, RankingLoss, RankingMetric, TiePolicy};

mod common;

use common::{Input, LABELS};

const ROWS: usize = 100_000;

fn bench_metric<M: RankingMetric<f64>>(
    c: &mut Criterion, name: &str, metric: impl Fn(TiePolicy) -> M, shapes: &[(&str, &Input)],
) {
    let mut group = c.benchmark_group(format!("{name}_100k"));
    group.throughput(Throughput::Elements((ROWS * LABELS) as u64));
    group.sampling_mode(SamplingMode::Flat);
    for &(shape, input) in shapes {
        let (y, s) = (input.labels(), input.scores());
        for ties in [TiePolicy::Max, TiePolicy::Expected, TiePolicy::Optimistic] {
            let m = metric(ties);
            group.bench_function(format!("{shape}/{}", ties.name()), |b| {
                b.iter(|| m.evaluate(black_box(&y), black_box(&s), None).unwrap())
            });
        }
    }
    group.finish();
}

fn tie_analysis(c: &mut Criterion) {
    let b = Input::generate(ROWS, 0x000B_5EED, None);
    let tied = Input::generate(ROWS, 0x000C_5EED, Some(0.1));
    let shapes = [("B", &b), ("C", &tied)];
    bench_metric(c, "lrap", AveragePrecision::new, &shapes);
    bench_metric(c, "coverage", Coverage::new, &shapes);
    bench_metric(c, "ranking_loss", RankingLoss::new, &shapes);
    bench_metric(c, "is_error", IsError::new, &shapes);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    targets = tie_analysis
}
criterion_main!(benches);
