//! Shards evaluated by separate processes, then merged.
//!
//! The parent runs this program again once per shard (`--shard i`); each child evaluates its
//! slice of the rows through [`Preset::accumulator`] and prints the accumulators' state as
//! JSON. The parent reads the states back, merges them in row order and prints the merged
//! value next to the one-shot value on all the rows.
//!
//! ```text
//! cargo run --example shards --features serde
//! ```
//!
//! The presets use deterministic tie policies only. `TiePolicy::Random` draws each row's
//! order from the row's global index; a child's `PresetAccumulator` numbers its rows from 0,
//! so it would draw other orders than the one-shot evaluation (with row-wise metrics one
//! would create each shard with `RowAccumulator::starting_at(metric, first_row)`).

use std::ops::Range;
use std::process::{Command, Stdio};

use rankmetrics::registry::{Convention, Preset, PresetAccumulator};
use rankmetrics::RowMajor;

const SHARDS: usize = 4;
const ROWS: usize = 10_000;
const LABELS: usize = 12;

/// A row-wise preset (compensated sum), a label-wise one (keeps its rows) and MULAN's
/// average precision (MULAN's own sequential sum).
fn presets() -> Vec<Preset> {
    [
        (Convention::Sklearn, "label_ranking_average_precision_score"),
        (Convention::Sklearn, "roc_auc_score"),
        (Convention::Mulan, "AveragePrecision"),
    ]
    .iter()
    .map(|&(convention, name)| {
        Preset::lookup(convention, name, Preset::NO_PARAMS, None)
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
        let mut acc = preset.accumulator();
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
    // Merged in row order: label-wise and instance-order rules read it.
    let mut merged: Option<Vec<PresetAccumulator>> = None;
    for (i, child) in children.into_iter().enumerate() {
        let out = child.wait_with_output()?;
        if !out.status.success() {
            return Err(format!("shard {i} failed: {}", out.status).into());
        }
        let states: Vec<PresetAccumulator> = serde_json::from_slice(&out.stdout)?;
        println!(
            "shard {i}: rows {:?}, {} bytes of state",
            shard_rows(i),
            out.stdout.len()
        );
        match &mut merged {
            None => merged = Some(states),
            Some(accs) => {
                for (acc, next) in accs.iter_mut().zip(&states) {
                    acc.merge(next)?;
                }
            }
        }
    }
    let (y_true, y_score) = dataset();
    let y_true = RowMajor::new(&y_true, ROWS, LABELS)?;
    let y_score = RowMajor::new(&y_score, ROWS, LABELS)?;
    println!(
        "\n{:<10} {:<38} {:>20} {:>20} {:>9}",
        "convention", "metric", "merged", "one-shot", "|diff|"
    );
    for (preset, acc) in presets().iter().zip(merged.iter().flatten()) {
        let merged = acc.value()?;
        let one_shot = preset.evaluate(&y_true, &y_score, None::<&[f64]>)?;
        println!(
            "{:<10} {:<38} {merged:>20.17} {one_shot:>20.17} {:>9.1e}",
            preset.convention().name(),
            preset.name(),
            (merged - one_shot).abs()
        );
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag, i] if flag == "--shard" => child(i.parse()?),
        [] => parent(),
        _ => Err("usage: shards [--shard I]".into()),
    }
}
