//! Shards evaluated by separate processes, then merged.
//!
//! The parent runs this program again once per shard (`--shard i`); each child evaluates its
//! slice of the rows through [`Preset::accumulator_starting_at`] (so its rows carry their
//! global numbers) and prints the accumulators' state as JSON. The parent reads the states
//! back, merges them in reverse order and checks that the merged value is bit for bit the
//! one-shot value on all the rows.
//!
//! ```text
//! cargo run --example shards --features serde
//! ```
//!
//! The state stores every float as its bits, so the JSON round trip is exact with any
//! serde_json build (with or without its `float_roundtrip` feature).

use std::ops::Range;
use std::process::{Command, Stdio};

use rankmetrics::registry::{Convention, Preset, PresetAccumulator};
use rankmetrics::{RowMajor, TiePolicy};

const SHARDS: usize = 4;
const ROWS: usize = 10_000;
const LABELS: usize = 12;

/// A row-wise preset (exact sum), a label-wise one (keeps its rows), MULAN's average
/// precision (MULAN's own left-to-right sum, kept per row) and a row-wise preset with random
/// tie breaking (draws follow the global row numbers).
fn presets() -> Vec<Preset> {
    [
        (
            Convention::Sklearn,
            "label_ranking_average_precision_score",
            None,
        ),
        (Convention::Sklearn, "roc_auc_score", None),
        (Convention::Mulan, "AveragePrecision", None),
        (
            Convention::Rankmetrics,
            "ranking_loss",
            Some(TiePolicy::Random(7)),
        ),
    ]
    .iter()
    .map(|&(convention, name, ties)| {
        Preset::lookup(convention, name, Preset::NO_PARAMS, ties)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    })
    .collect()
}

/// The whole dataset, row-major: labels (about a quarter relevant) and k-NN-like scores in
/// steps of 0.1, so that ties are frequent. Every process generates the same rows.
fn dataset() -> (Vec<f64>, Vec<f64>) {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    // xorshift64*: small and deterministic.
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33
    };
    let (mut y_true, mut y_score) = (Vec::new(), Vec::new());
    for _ in 0..ROWS * LABELS {
        y_true.push(if next() % 4 == 0 { 1.0 } else { 0.0 });
        y_score.push((next() % 11) as f64 / 10.0);
    }
    (y_true, y_score)
}

/// The rows of shard `i`.
fn shard_rows(i: usize) -> Range<usize> {
    i * ROWS / SHARDS..(i + 1) * ROWS / SHARDS
}

/// A child: evaluates its shard and prints the accumulators as JSON.
fn child(shard: usize) -> Result<(), Box<dyn std::error::Error>> {
    let (y_true, y_score) = dataset();
    let rows = shard_rows(shard);
    let cells = rows.start * LABELS..rows.end * LABELS;
    let y_true = RowMajor::new(&y_true[cells.clone()], rows.len(), LABELS)?;
    let y_score = RowMajor::new(&y_score[cells], rows.len(), LABELS)?;
    let mut states = Vec::new();
    for preset in presets() {
        let mut acc = preset.accumulator_starting_at(rows.start);
        acc.update(&y_true, &y_score, None::<&[f64]>)?;
        states.push(acc);
    }
    println!("{}", serde_json::to_string(&states)?);
    Ok(())
}

/// The parent: one child process per shard, then the merge.
fn parent() -> Result<(), Box<dyn std::error::Error>> {
    let exe = std::env::current_exe()?;
    let children = (0..SHARDS)
        .map(|i| {
            Command::new(&exe)
                .args(["--shard", &i.to_string()])
                .stdout(Stdio::piped())
                .spawn()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut states = Vec::new();
    for (i, child) in children.into_iter().enumerate() {
        let out = child.wait_with_output()?;
        if !out.status.success() {
            return Err(format!("shard {i} failed: {}", out.status).into());
        }
        let shard: Vec<PresetAccumulator> = serde_json::from_slice(&out.stdout)?;
        println!(
            "shard {i}: rows {:?}, {} bytes of state",
            shard[0].rows(),
            out.stdout.len()
        );
        states.push(shard);
    }
    // Merged in reverse order: rows are placed by their numbers, so any order gives the
    // one-shot value.
    let mut merged = states.pop().ok_or("no shard")?;
    for shard in states.iter().rev() {
        for (acc, next) in merged.iter_mut().zip(shard) {
            acc.merge(next)?;
        }
    }
    let (y_true, y_score) = dataset();
    let y_true = RowMajor::new(&y_true, ROWS, LABELS)?;
    let y_score = RowMajor::new(&y_score, ROWS, LABELS)?;
    println!(
        "\n{:<12} {:<38} {:>20} {:>20}  bitwise",
        "convention", "metric", "merged", "one-shot"
    );
    let mut all_equal = true;
    for (preset, acc) in presets().iter().zip(&merged) {
        let merged = acc.value()?;
        let one_shot = preset.evaluate(&y_true, &y_score, None::<&[f64]>)?;
        let equal = merged.to_bits() == one_shot.to_bits();
        all_equal &= equal;
        println!(
            "{:<12} {:<38} {merged:>20.17} {one_shot:>20.17}  {}",
            preset.convention().name(),
            preset.name(),
            if equal { "yes" } else { "NO" }
        );
    }
    if all_equal {
        Ok(())
    } else {
        Err("a merged value differs from the one-shot value".into())
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag, i] if flag == "--shard" => child(i.parse()?),
        [] => parent(),
        _ => Err("usage: shards [--shard I]".into()),
    }
}
