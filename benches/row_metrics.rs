//! Row-wise metrics on the shapes of benches/python/gen_data.py, with a one-read baseline to quote
//! ratios against.
//!
//! * A: 10,000 × 100, continuous scores, about 5 relevant labels per row.
//! * C: 10,000 × 100, heavy ties: the same scores rounded to steps of 0.1 (11 values).
//!
//! Scores are sigmoid(1.5·y + N(0, 1)) as in gen_data.py, drawn here from a fixed xorshift
//! stream so every run measures the same input. Ids read `metric/shape/policy[/f32]`;
//! `read_scores/A` sums every score once (the floor every metric must read through).
//! `baseline_loops/...` runs a few of them with the row pass's wide loops (AVX-512 or AVX2,
//! the widest the CPU has) turned off (`set_wide_loops(false)`; src/wide.rs), the measure of
//! what those loops give.
//!
//! `cargo bench --bench row_metrics` (about a minute); `-- --quick` for a fast look.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use rankmetrics::{
    AveragePrecision, Coverage, Ndcg, RankingLoss, RankingMetric, RowMajor, TiePolicy,
};

mod common;

use common::{Input, LABELS};

const ROWS: usize = 10_000;

fn bench_metric<M: RankingMetric<f64>>(
    c: &mut Criterion, metric_name: &str, metric: impl Fn(TiePolicy) -> M,
    shapes: &[(&str, &Input)],
) {
    let mut group = c.benchmark_group(metric_name);
    group.throughput(Throughput::Elements((ROWS * LABELS) as u64));
    // Tens of milliseconds per evaluation: equal iteration counts per sample fit the budget.
    group.sampling_mode(SamplingMode::Flat);
    for &(shape, input) in shapes {
        let (y, s) = (input.labels(), input.scores());
        for ties in [TiePolicy::Max, TiePolicy::Last] {
            let m = metric(ties);
            group.bench_function(format!("{shape}/{}", ties.name()), |b| {
                b.iter(|| m.evaluate(black_box(&y), black_box(&s), None).unwrap())
            });
        }
    }
    group.finish();
}

fn row_metrics(c: &mut Criterion) {
    let a = Input::generate(ROWS, 0x000A_5EED, None);
    let tied = Input::generate(ROWS, 0x000C_5EED, Some(0.1));
    let shapes = [("A", &a), ("C", &tied)];

    let mut group = c.benchmark_group("read_scores");
    group.throughput(Throughput::Elements((ROWS * LABELS) as u64));
    group.bench_function("A", |b| {
        b.iter(|| black_box(&a.y_score).iter().sum::<f64>())
    });
    group.finish();

    bench_metric(c, "lrap", AveragePrecision::new, &shapes);
    bench_metric(c, "coverage", Coverage::new, &shapes);
    bench_metric(c, "ranking_loss", RankingLoss::new, &shapes);
    bench_metric(c, "ndcg", Ndcg::new, &shapes);
    // A top-10 reading: counting stops at the first relevant group at position 10 or below.
    let at_10 = |t| Ndcg::new(t).with_k(Some(10)).expect("k > 0");
    bench_metric(c, "ndcg@10", at_10, &shapes);

    // The same input in f32: the keys and the counting comparisons are narrower.
    let scores_f32: Vec<f32> = a.y_score.iter().map(|&x| x as f32).collect();
    let s32 = RowMajor::new(&scores_f32, ROWS, LABELS).expect("ROWS × LABELS scores");
    let y = a.labels();
    let lrap = AveragePrecision::new(TiePolicy::Max);
    bench_f32(c, "lrap", &lrap, &y, &s32);
    bench_f32(c, "coverage", &Coverage::new(TiePolicy::Max), &y, &s32);

    // The same metrics with the baseline-CPU loops, against the widest ones above.
    rankmetrics::set_wide_loops(false);
    let continuous = [("A", &a)];
    bench_metric(c, "baseline_loops/lrap", AveragePrecision::new, &continuous);
    bench_metric(c, "baseline_loops/coverage", Coverage::new, &continuous);
    bench_metric(
        c,
        "baseline_loops/ranking_loss",
        RankingLoss::new,
        &continuous,
    );
    rankmetrics::set_wide_loops(true);
}

/// `metric` on shape A's f32 scores, as `metric_name/A/max/f32`.
fn bench_f32<M: RankingMetric<f32>>(
    c: &mut Criterion, metric_name: &str, metric: &M, y: &RowMajor<'_, u8>, s32: &RowMajor<'_, f32>,
) {
    let mut group = c.benchmark_group(metric_name);
    group.throughput(Throughput::Elements((ROWS * LABELS) as u64));
    group.sampling_mode(SamplingMode::Flat);
    group.bench_function("A/max/f32", |b| {
        b.iter(|| metric.evaluate(black_box(y), black_box(s32), None).unwrap())
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = row_metrics
}
criterion_main!(benches);
