//! Extreme multilabel scale: 2,000 samples × 200,000 labels, dense `f32` scores (1.6 GB) and
//! sparse labels (about 5 relevant per row), P@5 and nDCG@5 on one thread.
//!
//! Scores are uniform in [0, 1) with the relevant labels raised by 0.5 half of the time, from a
//! fixed xorshift stream. Each evaluation is one full pass over the 400 million scores.
//!
//! `cargo bench --bench xmc` (about a minute, most of it generating the input).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use rankmetrics::{NdcgAtK, PrecisionAtK, RankingMetric, RowMajor, SparseLabels, TiePolicy};

const ROWS: usize = 2_000;
const LABELS: usize = 200_000;
const RELEVANT: usize = 5;

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

fn generate() -> (Vec<f32>, SparseLabels) {
    let mut rng = Rng(0x000C_5EED_0000_0001);
    let mut scores: Vec<f32> = (0..ROWS * LABELS).map(|_| rng.unit()).collect();
    let (mut indptr, mut indices) = (vec![0], Vec::with_capacity(ROWS * RELEVANT));
    for i in 0..ROWS {
        let mut row: Vec<u32> = (0..RELEVANT)
            .map(|_| (rng.next() % LABELS as u64) as u32)
            .collect();
        row.sort_unstable();
        row.dedup();
        for &j in &row {
            if rng.next() % 2 == 0 {
                scores[i * LABELS + j as usize] += 0.5;
            }
        }
        indices.extend(row);
        indptr.push(indices.len());
    }
    let labels = SparseLabels::new(LABELS, indptr, indices, None).expect("valid CSR");
    (scores, labels)
}

fn xmc(c: &mut Criterion) {
    let (scores, labels) = generate();
    let s = RowMajor::new(&scores, ROWS, LABELS).expect("shape");
    let mut group = c.benchmark_group("xmc_2000x200000");
    group.throughput(Throughput::Elements((ROWS * LABELS) as u64));
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for ties in [TiePolicy::Average, TiePolicy::First] {
        let p = PrecisionAtK::new(ties, 5).expect("k");
        group.bench_function(format!("precision_at_5/{}", ties.name()), |b| {
            b.iter(|| p.evaluate(black_box(&labels), black_box(&s), None).unwrap())
        });
        let n = NdcgAtK::new(ties, 5).expect("k");
        group.bench_function(format!("ndcg_at_5/{}", ties.name()), |b| {
            b.iter(|| n.evaluate(black_box(&labels), black_box(&s), None).unwrap())
        });
    }
    group.bench_function("read_scores", |b| {
        b.iter(|| {
            black_box(&scores)
                .iter()
                .map(|&x| f64::from(x))
                .sum::<f64>()
        })
    });
    group.finish();
}

criterion_group!(benches, xmc);
criterion_main!(benches);
