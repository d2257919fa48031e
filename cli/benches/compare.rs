//! `rankmetrics compare` against single `rankmetrics eval` metrics on 100,000 × 100 scores
//! (shape B of benches/python/gen_data.py).
//!
//! `compare/all_cells` runs the command's own grid (cli/src/compare.rs: every
//! metric under every tie policy and every toolkit's convention, with the tie analysis) on
//! every core, as the command does, and `compare/all_cells_one_thread` on one;
//! `eval/CONVENTION/METRIC` evaluates one metric as `eval --convention C --metric M` does
//! (default parameters; `roc_auc_score` also with `average=micro`, a column of compare), on
//! one thread.
//! Reading the files, the same for both, is left out.
//!
//! `cargo bench -p rankmetrics-cli --bench compare`; then compare `compare/all_cells` with the slowest `eval/*`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use rankmetrics::registry::{Convention, Preset};
use rankmetrics::RowMajor;

#[path = "../../benches/common/mod.rs"]
mod common;
use rankmetrics_cli::compare;

use common::{Input, LABELS};

const ROWS: usize = 100_000;

fn compare_vs_eval(c: &mut Criterion) {
    let input = Input::generate(ROWS, 0x000B_5EED, None);
    // The command reads every file as f64.
    let labels: Vec<f64> = input
        .labels()
        .as_slice()
        .iter()
        .map(|&y| f64::from(y))
        .collect();
    let y = RowMajor::new(&labels, ROWS, LABELS).expect("rows × LABELS labels");
    let s = input.scores();

    let mut group = c.benchmark_group("compare_vs_eval");
    group.sampling_mode(SamplingMode::Flat);
    // The command's default: every core (bitwise the same values as one thread).
    group.bench_function("compare/all_cells", |b| {
        b.iter(|| compare::compare(black_box(&y), black_box(&s), None, false).expect("valid grid"))
    });
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    group.bench_function("compare/all_cells_one_thread", |b| {
        b.iter(|| {
            one.install(|| compare::compare(black_box(&y), black_box(&s), None, false))
                .expect("valid grid")
        })
    });
    let micro = [("average".to_string(), "micro".to_string())];
    for convention in Convention::ALL {
        for &name in convention.metric_names() {
            let mut params: Vec<&[(String, String)]> = vec![&[]];
            if name == "roc_auc_score" {
                params.push(&micro);
            }
            for p in params {
                let preset = Preset::lookup(convention, name, p, None).expect("known metric");
                let id = match p {
                    [] => format!("eval/{convention}/{name}"),
                    _ => format!("eval/{convention}/{name}(average=micro)"),
                };
                group.bench_function(id, |b| {
                    b.iter(|| preset.evaluate(black_box(&y), black_box(&s), None))
                });
            }
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = compare_vs_eval
}
criterion_main!(benches);
