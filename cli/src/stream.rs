//! `eval` in bounded memory: the files are read a chunk of rows at a time, and each chunk goes
//! to every preset's accumulator. Row-wise presets keep sums and counts, so memory does not
//! grow with the number of samples; label-wise ones (AUC, label average precision) keep each
//! label's distinct scores with their counts where that gives the exact value. Where it does
//! not (weights, ties ordered by position, per-sample averages, pROC's direction) every chunk
//! is kept instead, once, and every preset evaluated on them at the end. Runs of scores that
//! rarely repeat (`RunsCheck`) leave the stream, and those presets are evaluated on the data
//! read whole;
//! the label-wise presets of data that fits in one chunk are evaluated on it at once, as one
//! shot. The rows of a chunk are ranked on the threads of the global rayon pool (`--threads`),
//! and summed in row order: the same bits for any count.

use std::path::Path;

use rankmetrics::registry::{evaluate_all_parallel, Convention, Preset, PresetAccumulator};
use rankmetrics::torchmetrics::{Logits, PredsDtype};
use rankmetrics::{Error, RowMajor};

use crate::args::DataArgs;
use crate::input::{self, InputError, Inputs, Role, RowStream, CHUNK_ROWS};
use crate::progress::Progress;
use crate::provenance::Shapes;
use crate::runs_check::RunsCheck;

/// Each preset's value over the data `data` names (or the built-in example), and the shapes
/// of the inputs.
///
/// The accumulators give bitwise the one-shot values, as the chunks arrive in row order; the
/// chunks kept where a label-wise preset cannot keep runs, and the label-wise presets of data
/// that fits in one chunk, are evaluated as one shot. A preset whose accumulator reports an
/// error is evaluated again on the whole data, read whole, so that its error is exactly the
/// one-shot evaluation's (which checks, for one, every weight before any row); so is every
/// preset when the weight file's length differs from the data's, and every label-wise preset
/// whose scores rarely repeat (`RunsCheck`).
///
/// # Errors
/// A file that cannot be read or parsed, or label and score files of different lengths.
pub fn evaluate(
    presets: &[Preset], data: &DataArgs, progress: &Progress,
) -> Result<(Vec<Result<f64, Error>>, Shapes), String> {
    let (streamed, shapes) = stream(presets, data, progress).map_err(|e| e.to_string())?;
    if let (true, Some(shapes)) = (streamed.iter().all(Option::is_some), shapes) {
        return Ok((streamed.into_iter().flatten().collect(), shapes));
    }
    let inputs = Inputs::read(
        data.y_true.as_deref(),
        data.y_score.as_deref(),
        data.sample_weight.as_deref(),
        data.read_options(),
        progress,
    )
    .map_err(|e| e.to_string())?;
    let (t, s) = (&inputs.y_true, &inputs.y_score);
    let y_true = RowMajor::new(&t.data, t.rows, t.cols).map_err(|e| e.to_string())?;
    let y_score = RowMajor::new(&s.data, s.rows, s.cols).map_err(|e| e.to_string())?;
    progress.spinner(format!("computing {} metrics", presets.len()));
    let mut results = streamed;
    let weights = inputs.weights.as_deref();
    evaluate_together(presets, &mut results, |_| true, &y_true, &y_score, weights);
    // Every slot holds a result now.
    Ok((
        results.into_iter().flatten().collect(),
        Shapes::from(&inputs),
    ))
}

/// Fills each empty slot of `results` whose preset is `wanted` with that preset's one-shot
/// result on the rows given. The presets are evaluated together (`evaluate_all_parallel`,
/// bitwise each preset's own result): label-wise ones share each column's ranking and run on
/// the pool.
fn evaluate_together(
    presets: &[Preset], results: &mut [Option<Result<f64, Error>>],
    wanted: impl Fn(&Preset) -> bool, y_true: &RowMajor<'_, f64>, y_score: &RowMajor<'_, f64>,
    weights: Option<&[f64]>,
) {
    let (slots, chosen): (Vec<_>, Vec<Preset>) = (results.iter_mut().zip(presets))
        .filter(|(slot, preset)| slot.is_none() && wanted(preset))
        .map(|(slot, preset)| (slot, preset.clone()))
        .unzip();
    let values = evaluate_all_parallel(&chosen, y_true, y_score, weights);
    for (slot, value) in slots.into_iter().zip(values) {
        *slot = Some(value);
    }
}

/// Each preset's result from the stream: `None` where it must be evaluated on the data read
/// whole.
type Streamed = Vec<Option<Result<f64, Error>>>;

/// The streamed value of each preset, or its one-shot result on the chunks kept or on data of
/// one chunk (label-wise presets), and the inputs' shapes when every file was read to its end.
fn stream(
    presets: &[Preset], data: &DataArgs, progress: &Progress,
) -> Result<(Streamed, Option<Shapes>), InputError> {
    // Label-wise presets keep each label's runs where that is exact; one that cannot (sample
    // weights, a tie policy that orders ties by position, the samples average, pROC's
    // direction) would keep every row in its accumulator, a copy of the data each. Then the
    // chunks are kept instead (`whole`), read as the stream reads them (the same file errors,
    // in the same order), and every preset is evaluated on them together at the end.
    // A preset whose value depends on the batches (torch's vector sigmoid kernels) reads the
    // data whole too, as one batch, which is torchmetrics' functional call.
    let accumulator = |p: &Preset| match (&data.sample_weight, p.is_row_wise()) {
        _ if p.depends_on_batching() => None,
        (None, _) => p.runs_accumulator_starting_at(0).ok(),
        (Some(_), true) => Some(p.accumulator()),
        (Some(_), false) => None,
    };
    let mut accumulators: Vec<Option<PresetAccumulator>> =
        presets.iter().map(accumulator).collect();
    let whole = accumulators.iter().any(Option::is_none);
    if whole {
        accumulators.fill(None);
    }
    let options = data.read_options();
    let (t, s) = (data.y_true.as_deref(), data.y_score.as_deref());
    let test = logit_test(presets);
    let logit_chunk = if presets
        .iter()
        .any(|p| p.convention() == Convention::Torchmetrics)
    {
        let scores = RowStream::scores(t, s, options, progress)?;
        scores.start_stage(progress);
        last_logit_chunk(scores, test)?
    } else {
        None
    };
    let mut scores = RowStream::scores(t, s, options, progress)?;
    let mut score_rows = Vec::new();
    // The first chunk fixes the number of labels a `.labels` file has.
    let (mut rows, mut ended) = read_chunk(&mut scores, &mut score_rows, logit_chunk, test)?;
    let mut labels = scores.labels_for(t, options, progress)?;
    input::match_columns(
        &mut labels,
        &mut scores,
        options.align_columns,
        &mut score_rows,
    )?;
    let mut weights = data
        .sample_weight
        .as_deref()
        .map(|w: &Path| RowStream::open(w, Role::Weights, options, None, progress))
        .transpose()?;
    let total = scores.size() + labels.size() + weights.as_ref().map_or(0, RowStream::size);
    progress.bytes(format!("evaluating {} metrics", presets.len()), total);
    // Data that fits in the first chunk is in memory already: label-wise presets are evaluated
    // there at once, as one shot, rather than ranked into runs (which, for a wide input's few
    // rows, take more memory than its cells and add their merge). Row-wise presets keep their
    // sums either way.
    let one_chunk = !whole && ended && rows > 0;
    let one_shot = |p: &Preset| one_chunk && !p.is_row_wise();
    for (slot, _) in accumulators
        .iter_mut()
        .zip(presets)
        .filter(|(_, p)| one_shot(p))
    {
        *slot = None;
    }
    let mut values: Streamed = vec![None; presets.len()];
    let (mut label_rows, mut weight_rows) = (Vec::new(), Vec::new());
    let (mut seen, mut runs_check) = (0, RunsCheck::default());
    loop {
        // Kept whole, the rows of every chunk stay (the scores' too: `read_chunk` appends).
        if !whole {
            label_rows.clear();
            weight_rows.clear();
        }
        if labels.read_rows(rows, &mut label_rows)? < rows {
            scores.count_rest()?;
            return Err(input::row_count_mismatch(&labels, &scores));
        }
        if let Some(w) = &mut weights {
            if w.read_rows(rows, &mut weight_rows)? < rows {
                return Ok((vec![None; presets.len()], None)); // as one shot: a weight-length error
            }
        }
        seen += rows;
        if !whole {
            let weights = weights.as_ref().map(|_| &weight_rows[..]);
            let y_true = RowMajor::new(&label_rows, rows, labels.cols());
            let y_score = RowMajor::new(&score_rows, rows, scores.cols());
            if let (true, Ok(t), Ok(s)) = (one_chunk, &y_true, &y_score) {
                evaluate_together(presets, &mut values, one_shot, t, s, weights);
            }
            for slot in &mut accumulators {
                let fed = match (slot.as_mut(), &y_true, &y_score) {
                    (Some(acc), Ok(t), Ok(s)) => acc.update_parallel(t, s, weights).is_ok(),
                    _ => false,
                };
                if !fed {
                    *slot = None;
                }
            }
            score_rows.clear();
        }
        if ended {
            break;
        }
        (rows, ended) = read_chunk(&mut scores, &mut score_rows, logit_chunk, test)?;
        // Runs that the next chunk completes are kept: reading the data again gains nothing.
        if !whole && !ended && runs_check.after_chunk(&mut accumulators, seen) {
            // Every preset left the stream: the data read whole values them all.
            return Ok((vec![None; presets.len()], None));
        }
    }
    if labels.read_rows(1, &mut label_rows)? > 0 {
        labels.count_rest()?;
        return Err(input::row_count_mismatch(&labels, &scores));
    }
    if let Some(w) = &mut weights {
        if w.read_rows(1, &mut weight_rows)? > 0 {
            return Ok((vec![None; presets.len()], None));
        }
    }
    let shapes = Shapes {
        y_true: (labels.rows(), labels.cols()),
        y_score: (scores.rows(), scores.cols()),
        weights: weights.as_ref().map(RowStream::rows),
    };
    if whole {
        let y_true = RowMajor::new(&label_rows, seen, labels.cols());
        let y_score = RowMajor::new(&score_rows, seen, scores.cols());
        let weights = weights.as_ref().map(|_| &weight_rows[..]);
        // No rows, or matrices refused: left empty, for the whole read to say why.
        if let (true, Ok(t), Ok(s)) = (seen > 0, y_true, y_score) {
            evaluate_together(presets, &mut values, |_| true, &t, &s, weights);
        }
    }
    // The streamed values; a slot left empty (an accumulator's error, matrices refused) is
    // evaluated on the data read whole.
    for (slot, acc) in values.iter_mut().zip(&accumulators) {
        if let Some(acc) = acc {
            *slot = acc.value().ok().map(Ok);
        }
    }
    Ok((values, Some(shapes)))
}

/// How torchmetrics tests a batch for logits: in the preds' dtype (`Float64`: the scores as
/// read; any other: the scores cast to it, `1 + 1e-12` being 1.0 in float32).
type LogitTest = PredsDtype;

/// The test of the presets' torchmetrics metrics. One run gives them one dtype (the scores
/// file's, or `--param dtype`), which they echo.
fn logit_test(presets: &[Preset]) -> LogitTest {
    presets
        .iter()
        .filter(|p| p.convention() == Convention::Torchmetrics)
        .flat_map(|p| p.params())
        .find_map(|(k, v)| {
            (*k == "dtype")
                .then(|| v.to_string().parse().ok())
                .flatten()
        })
        .unwrap_or(PredsDtype::Float64)
}

/// Whether torchmetrics would apply its sigmoid to these rows (some score outside [0, 1]);
/// also for rows it rejects, which the accumulators report anyway.
fn logits(rows: &[f64], n: usize, cols: usize, test: LogitTest) -> bool {
    RowMajor::new(rows, n, cols)
        .and_then(|s| Logits::with_dtype(&s, test).map(|l| l.applies_sigmoid()))
        .unwrap_or(true)
}

/// The first row of the last chunk of `CHUNK_ROWS` rows that holds a logit, if any does.
fn last_logit_chunk(
    mut scores: RowStream<'_>, test: LogitTest,
) -> Result<Option<usize>, InputError> {
    let (mut rows, mut last) = (Vec::new(), None);
    loop {
        rows.clear();
        let first = scores.rows();
        let n = scores.read_rows(CHUNK_ROWS, &mut rows)?;
        if n > 0 && logits(&rows, n, scores.cols(), test) {
            last = Some(first);
        }
        if n < CHUNK_ROWS {
            return Ok(last);
        }
    }
}

/// Appends the next chunk of scores to `chunk`; returns its rows and whether the file ended.
///
/// torchmetrics applies its sigmoid when any score of the whole input lies outside [0, 1],
/// but an accumulator decides per batch. So when the file holds such a score (`logit_chunk`
/// is the last chunk that does), a chunk ends only where it holds one and the rows after it
/// do too: every batch then decides as the whole file would.
fn read_chunk(
    scores: &mut RowStream<'_>, chunk: &mut Vec<f64>, logit_chunk: Option<usize>, test: LogitTest,
) -> Result<(usize, bool), InputError> {
    let first = scores.rows();
    let mut has_logit = false;
    loop {
        let start = chunk.len();
        let n = scores.read_rows(CHUNK_ROWS, chunk)?;
        let ended = n < CHUNK_ROWS;
        // Without torchmetrics' metrics (`logit_chunk` is `None`) no chunk is tested.
        let cut = match logit_chunk {
            None => true,
            Some(last) => {
                has_logit = has_logit || (n > 0 && logits(&chunk[start..], n, scores.cols(), test));
                has_logit && scores.rows() <= last
            }
        };
        if ended || cut {
            return Ok((scores.rows() - first, ended));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runs_check::{RUNS_CHECK_ROWS, RUNS_FIRST_MARK};
    use rankmetrics::TiePolicy;
    use std::path::PathBuf;

    /// `rows` CSV lines of `cols` values from `value(i, j)`, written to a file of this test's
    /// own directory.
    fn csv(
        dir: &Path, name: &str, (rows, cols): (usize, usize), value: impl Fn(usize, usize) -> f64,
    ) -> PathBuf {
        let text: String = (0..rows)
            .map(|i| {
                let line: Vec<String> = (0..cols).map(|j| format!("{:?}", value(i, j))).collect();
                line.join(",") + "\n"
            })
            .collect();
        let path = dir.join(name);
        std::fs::write(&path, text).expect("a writable temporary directory");
        path
    }

    /// `eval`'s data arguments for label file `t` and score file `s`, without a header.
    fn args(t: &Path, s: &Path) -> DataArgs {
        DataArgs {
            y_true: Some(t.to_path_buf()),
            y_score: Some(s.to_path_buf()),
            sample_weight: None,
            format_in: None,
            header: false,
            no_header: true,
            align_columns: false,
            n_labels: None,
            quiet: true,
            threads: None,
            first_lines: input::FirstLines::default(),
        }
    }

    #[test]
    fn runs_of_scores_that_rarely_repeat_leave_the_stream() {
        let dir = std::env::temp_dir().join(format!("rankmetrics-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a writable temporary directory");
        let rows = 30_000;
        let t = csv(&dir, "t.csv", (rows, 2), |i, j| {
            f64::from(u8::from((i + j) % 3 == 0))
        });
        let distinct = csv(&dir, "distinct.csv", (rows, 2), |i, j| {
            (2 * i + j) as f64 / 1e6
        });
        let tied = csv(&dir, "tied.csv", (rows, 2), |i, j| {
            ((i * 7 + j) % 11) as f64 / 10.0
        });
        let short = csv(&dir, "short.csv", (RUNS_CHECK_ROWS - 1, 2), |i, j| {
            (2 * i + j) as f64 / 1e6
        });
        let short_t = csv(&dir, "short_t.csv", (RUNS_CHECK_ROWS - 1, 2), |i, _| {
            (i % 2) as f64
        });
        let presets = ["roc_auc_score", "coverage_error"]
            .map(|m| Preset::lookup(Convention::Sklearn, m, Preset::NO_PARAMS, None).unwrap());
        let streamed = |t: &Path, s: &Path| {
            let (values, _) = stream(&presets, &args(t, s), &Progress::new(true)).unwrap();
            values.iter().map(Option::is_some).collect::<Vec<bool>>()
        };
        // The AUC's runs of distinct scores leave; the coverage's sums stay.
        assert_eq!(streamed(&t, &distinct), [false, true]);
        assert_eq!(streamed(&t, &tied), [true, true]);
        // A label whose scores repeat (a constant column) among labels whose scores rarely
        // repeat: three of four leave, two of four stay.
        let t4 = csv(&dir, "t4.csv", (rows, 4), |i, j| {
            f64::from(u8::from((i + j) % 3 == 0))
        });
        let constant = |name, columns: usize| {
            csv(&dir, name, (rows, 4), move |i, j| match j < columns {
                true => (4 * i + j) as f64 / 1e6,
                false => 0.5,
            })
        };
        assert_eq!(streamed(&t4, &constant("three.csv", 3)), [false, true]);
        assert_eq!(streamed(&t4, &constant("two.csv", 2)), [true, true]);
        // Fewer rows than the check: the runs stay.
        assert_eq!(streamed(&short_t, &short), [true, true]);
        // The new runs between the marks decide, not the runs so far: tied scores that turn
        // distinct leave, distinct scores that turn tied stay.
        let turning = |name, distinct_first: bool| {
            csv(&dir, name, (rows, 2), move |i, j| {
                match (i < RUNS_FIRST_MARK) == distinct_first {
                    true => (2 * i + j) as f64 / 1e6,
                    false => ((i * 7 + j) % 11) as f64 / 10.0,
                }
            })
        };
        assert_eq!(
            streamed(&t, &turning("tied_first.csv", false)),
            [false, true]
        );
        assert_eq!(
            streamed(&t, &turning("distinct_first.csv", true)),
            [true, true]
        );
        // Data that ends within the chunk after the check (a short read) keeps its runs,
        // complete by then.
        let (exact, exact_t) = (
            csv(
                &dir,
                "exact.csv",
                (RUNS_CHECK_ROWS + CHUNK_ROWS - 1, 2),
                |i, j| (2 * i + j) as f64 / 1e6,
            ),
            csv(
                &dir,
                "exact_t.csv",
                (RUNS_CHECK_ROWS + CHUNK_ROWS - 1, 2),
                |i, _| (i % 2) as f64,
            ),
        );
        assert_eq!(streamed(&exact_t, &exact), [true, true]);
        // Every preset left: the stream stops there, without the shapes of a whole read.
        let auc = &presets[..1];
        let (values, shapes) = stream(auc, &args(&t, &distinct), &Progress::new(true)).unwrap();
        assert!(values == [None] && shapes.is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// What `stream` gives `presets` on `rows` × 3 labels and scores from `label` and `score`
    /// (and weights 0, 1, 2, ... where `weighted`), and what each preset's own one-shot
    /// evaluation gives, as text (an error may hold a NaN).
    fn streamed_and_one_shot(
        presets: &[Preset], rows: usize, label: fn(usize, usize) -> f64,
        score: fn(usize, usize) -> f64, weighted: bool,
    ) -> (Vec<Option<String>>, Vec<String>) {
        // A directory of each call's own: tests run in parallel.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "rankmetrics-one-shot-{}-{call}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("a writable temporary directory");
        let weight = |i: usize, _: usize| (i % 3) as f64;
        let mut data = args(
            &csv(&dir, "t.csv", (rows, 3), label),
            &csv(&dir, "s.csv", (rows, 3), score),
        );
        data.sample_weight = weighted.then(|| csv(&dir, "w.csv", (rows, 1), weight));
        let (values, shapes) = stream(presets, &data, &Progress::new(true)).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let streamed = values.iter().map(|v| v.as_ref().map(|r| format!("{r:?}")));
        let cells = |f: fn(usize, usize) -> f64| (0..rows * 3).map(|k| f(k / 3, k % 3)).collect();
        let (y, sc): (Vec<f64>, Vec<f64>) = (cells(label), cells(score));
        let w: Vec<f64> = (0..rows).map(|i| weight(i, 0)).collect();
        let (y, sc) = (
            RowMajor::new(&y, rows, 3).unwrap(),
            RowMajor::new(&sc, rows, 3).unwrap(),
        );
        let w = weighted.then_some(&w[..]);
        let one_shot = presets
            .iter()
            .map(|p| format!("{:?}", p.evaluate(&y, &sc, w)));
        // Every file read to its end: the shapes are known, whatever the path.
        assert_eq!(shapes.map(|s| s.y_true), Some((rows, 3)));
        (streamed.collect(), one_shot.collect())
    }

    fn label(i: usize, j: usize) -> f64 {
        f64::from(u8::from((i + j) % 3 == 0))
    }

    fn score(i: usize, j: usize) -> f64 {
        ((i * 7 + j) % 11) as f64 / 10.0
    }

    /// [`score`] with a NaN, which every preset refuses.
    fn score_with_nan(i: usize, j: usize) -> f64 {
        match (i, j) {
            (1, 2) => f64::NAN,
            _ => score(i, j),
        }
    }

    fn sklearn(metric: &str, params: &[(&str, &str)], ties: Option<TiePolicy>) -> Preset {
        Preset::lookup(Convention::Sklearn, metric, params, ties).unwrap()
    }

    #[test]
    fn a_label_wise_preset_that_cannot_keep_runs_keeps_the_rows_for_every_preset() {
        let rows = CHUNK_ROWS + 1;
        let coverage = sklearn("coverage_error", &[], None);
        let mldr_auc = Preset::lookup(Convention::Mldr, "macro_auc", Preset::NO_PARAMS, None);
        let without_runs = [
            mldr_auc.unwrap(), // pROC's direction
            sklearn("roc_auc_score", &[], Some(TiePolicy::First)),
            sklearn("average_precision_score", &[("average", "samples")], None),
        ];
        for preset in without_runs {
            let presets = [preset, coverage.clone()];
            // Every preset is evaluated on the rows kept, as one shot: its error too.
            for score in [score, score_with_nan] {
                let (streamed, one_shot) =
                    streamed_and_one_shot(&presets, rows, label, score, false);
                let one_shot: Vec<_> = one_shot.into_iter().map(Some).collect();
                assert_eq!(streamed, one_shot, "{presets:?}");
            }
        }
        // Runs: the accumulators' errors are found again on the data read whole.
        let auc = sklearn("roc_auc_score", &[], None);
        let presets = [auc.clone(), coverage.clone()];
        let (streamed, _) = streamed_and_one_shot(&presets, rows, label, score_with_nan, false);
        assert_eq!(streamed, [None, None]);
        // Weights: label-wise presets keep no runs; row-wise presets alone still stream.
        let (streamed, one_shot) =
            streamed_and_one_shot(&presets, rows, label, score_with_nan, true);
        assert_eq!(streamed, one_shot.into_iter().map(Some).collect::<Vec<_>>());
        let (streamed, _) = streamed_and_one_shot(&presets[1..], rows, label, score_with_nan, true);
        assert_eq!(streamed, [None]);
    }

    #[test]
    fn label_wise_presets_of_one_chunk_data_are_evaluated_as_one_shot() {
        let presets = [
            sklearn("roc_auc_score", &[], None),
            sklearn("average_precision_score", &[], None),
            sklearn("coverage_error", &[], None),
        ];
        for rows in [CHUNK_ROWS - 1, CHUNK_ROWS + 1] {
            // Values: each preset's own, in its place, either way.
            let (streamed, one_shot) = streamed_and_one_shot(&presets, rows, label, score, false);
            assert_eq!(streamed, one_shot.into_iter().map(Some).collect::<Vec<_>>());
            let (streamed, one_shot) =
                streamed_and_one_shot(&presets, rows, label, score_with_nan, false);
            if rows < CHUNK_ROWS {
                // Within one chunk the label-wise presets' results are the one-shot ones,
                // their errors too; the row-wise preset's error is found on the whole read.
                let label_wise: Vec<_> = one_shot[..2].iter().cloned().map(Some).collect();
                assert_eq!(streamed[..2], label_wise);
                assert_eq!(streamed[2], None);
            } else {
                // Across chunks every error is found again on the data read whole.
                assert_eq!(streamed, [None, None, None]);
            }
        }
    }
}
