//! `rankmetrics`: multilabel ranking metrics from the command line. `rankmetrics eval --help`
//! and `rankmetrics compare --help` describe the commands.
#![forbid(unsafe_code)]

use std::io::Write as _;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser as _;
use rankmetrics::registry::{Convention, Preset};
use rankmetrics::{Error, Matrix as _, RowMajor};

use rankmetrics_cli::args::{
    self, Cli, Command, CompareArgs, DataArgs, EvalArgs, Format, IdentifyArgs,
};
use rankmetrics_cli::input::{self, Inputs};
use rankmetrics_cli::output::{self, Outcome};
use rankmetrics_cli::progress::Progress;
use rankmetrics_cli::provenance::{Provenance, Shapes};
use rankmetrics_cli::{compare, example, identify, stream, tie_note};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version (status 0), and help for a missing subcommand (status 2), as clap
        // prints them; usage errors get our prefix and status 2.
        Err(e)
            if !e.use_stderr()
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            e.exit()
        }
        Err(e) => {
            eprint!("rankmetrics: {}", e.render());
            return ExitCode::from(2);
        }
    };
    let threads = match &cli.command {
        Command::Eval(args) => args.data.threads,
        Command::Compare(args) => args.data.threads,
        Command::Identify(args) => args.data.threads,
        Command::Example(_) => None,
    };
    if let Some(n) = threads {
        // Only fails when a pool exists already, which nothing here builds before.
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build_global()
        {
            eprintln!("rankmetrics: error: cannot start {n} threads: {e}");
            return ExitCode::from(2);
        }
    }
    let status = match cli.command {
        Command::Eval(mut args) => args.data.decide_first_lines().and_then(|()| eval(&args)),
        Command::Compare(mut args) => args.data.decide_first_lines().and_then(|()| compare(&args)),
        Command::Identify(mut args) => args
            .data
            .decide_first_lines()
            .and_then(|()| identify(&args)),
        Command::Example(args) => example::text(&args).map(|text| {
            print(&text);
            ExitCode::SUCCESS
        }),
    };
    match status {
        Ok(status) => status,
        Err(message) => {
            eprintln!("rankmetrics: error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Reads the inputs named by `data` (or the built-in example, saying so).
fn read_inputs(data: &DataArgs, progress: &Progress) -> Result<Inputs, String> {
    let inputs = Inputs::read(
        data.y_true.as_deref(),
        data.y_score.as_deref(),
        data.sample_weight.as_deref(),
        data.read_options(),
        progress,
    )
    .map_err(|e| {
        progress.finish();
        e.to_string()
    })?;
    if data.builtin() && !data.quiet {
        eprintln!("rankmetrics: {}", input::EXAMPLE_NOTE);
    }
    Ok(inputs)
}

/// The labels and scores read, as matrices.
fn matrices(inputs: &Inputs) -> Result<(RowMajor<'_, f64>, RowMajor<'_, f64>), String> {
    let (t, s) = (&inputs.y_true, &inputs.y_score);
    let y_true = RowMajor::new(&t.data, t.rows, t.cols).map_err(|e| e.to_string())?;
    let y_score = RowMajor::new(&s.data, s.rows, s.cols).map_err(|e| e.to_string())?;
    Ok((y_true, y_score))
}

/// Whether the scores file holds float32 values (a `.npy` file of `<f4`); reads its header only.
fn scores_float32(data: &DataArgs, progress: &Progress) -> Result<bool, String> {
    let (t, s) = (data.y_true.as_deref(), data.y_score.as_deref());
    input::RowStream::scores(t, s, data.read_options(), progress)
        .map(|scores| scores.float32())
        .map_err(|e| e.to_string())
}

/// The error for a format that names the inputs without their provenance (ruled out: only
/// the table skips hashing).
const UNHASHED: &str = "internal error: the inputs' provenance was not computed for this format";

/// Prints `text` on stdout; a closed pipe (`| head`) is not an error worth a panic.
fn print(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Parses the request, reads the inputs, evaluates every preset and prints the results.
/// Status 0 when every metric has a value, 1 when some gave an error; `Err` means status 2.
fn eval(args: &EvalArgs) -> Result<ExitCode, String> {
    let progress = Progress::new(args.data.quiet);
    // torchmetrics computes in the preds' dtype: the scores file's header says it (.npy).
    let scores_float32 = args.convention == Convention::Torchmetrics
        && scores_float32(&args.data, &progress).inspect_err(|_| progress.finish())?;
    let presets = args::presets(args, scores_float32)?;
    // The interval ends of values under max, min and average, for the note on stderr: not
    // computed when --quiet would drop the note.
    let ends = if args.data.quiet {
        Vec::new()
    } else {
        tie_note::ends(&presets, args.data.sample_weight.is_some())
    };
    let all: Vec<Preset> = presets
        .iter()
        .cloned()
        .chain(ends.iter().flat_map(|e| e.presets.clone()))
        .collect();
    let (mut results, shapes) = match &args.per_sample {
        // A column per preset and a line per sample: every row at once.
        Some(path) => eval_with_per_sample(&all, presets.len(), args, path, &progress)?,
        None => {
            let evaluated = stream::evaluate(&all, &args.data, &progress).inspect_err(|_| {
                progress.finish();
            })?;
            if args.data.builtin() && !args.data.quiet {
                eprintln!("rankmetrics: {}", input::EXAMPLE_NOTE);
            }
            evaluated
        }
    };
    let end_values = results.split_off(presets.len());
    // Hashing reads every input file again: only for the formats that name the inputs.
    let provenance = match args.format {
        Format::Table => None,
        _ => Some(Provenance::new(
            &args.data,
            shapes,
            presets.iter().map(Preset::convention),
        )?),
    };
    let outcomes: Vec<Outcome<'_>> = presets
        .iter()
        .zip(results)
        .map(|(preset, result)| Outcome {
            preset,
            weighted: args.data.sample_weight.is_some(),
            result,
        })
        .collect();
    progress.finish();
    if let Some(note) = tie_note::note(&presets, &results_of(&outcomes), &ends, &end_values) {
        eprintln!("rankmetrics: {note}");
    }
    print(&match (args.format, &provenance) {
        (Format::Table, _) => output::table(&outcomes),
        (Format::Json, Some(p)) => output::json(&outcomes, p),
        (Format::Csv, Some(p)) => output::csv(&outcomes, p),
        (Format::Markdown, Some(p)) => output::markdown(&outcomes, p),
        (_, None) => return Err(UNHASHED.to_string()),
    });
    let all_values = outcomes.iter().all(|o| o.result.is_ok());
    Ok(ExitCode::from(if all_values { 0 } else { 1 }))
}

/// The results of `outcomes`, in order.
fn results_of(outcomes: &[Outcome<'_>]) -> Vec<Result<f64, Error>> {
    outcomes.iter().map(|o| o.result.clone()).collect()
}

/// Evaluates every preset on the data read whole and writes the per-sample file of the first
/// `requested` (the others are the tie note's interval ends); if it cannot be written, nothing
/// is printed (status 2).
fn eval_with_per_sample(
    all: &[Preset], requested: usize, args: &EvalArgs, path: &std::path::Path, progress: &Progress,
) -> Result<(Vec<Result<f64, Error>>, Shapes), String> {
    let presets = &all[..requested.min(all.len())];
    let inputs = read_inputs(&args.data, progress)?;
    let (t, s) = (&inputs.y_true, &inputs.y_score);
    let y_true = RowMajor::new(&t.data, t.rows, t.cols).map_err(|e| e.to_string())?;
    let y_score = RowMajor::new(&s.data, s.rows, s.cols).map_err(|e| e.to_string())?;
    progress.spinner(format!("computing {} metrics", presets.len()));
    let results = all
        .iter()
        .map(|preset| preset.evaluate(&y_true, &y_score, inputs.weights.as_deref()))
        .collect();
    // With several tie policies a metric has a column under each: METRIC:POLICY.
    let policies = args.tie_policies();
    let columns: Vec<String> = presets
        .iter()
        .zip(policies.iter().cycle())
        .map(|(preset, policy)| match policy {
            Some(policy) if policies.len() > 1 => format!("{}:{policy}", preset.name()),
            _ => preset.name().to_string(),
        })
        .collect();
    let shapes = Shapes::from(&inputs);
    let provenance = Provenance::new(&args.data, shapes, presets.iter().map(Preset::convention))?;
    let (csv, skipped) = per_sample_csv(
        presets,
        &columns,
        (&y_true, &y_score),
        &inputs.weights,
        &provenance,
    );
    progress.finish();
    output::write_atomically(path, csv.as_bytes())?;
    if !args.data.quiet {
        for (name, e) in skipped {
            eprintln!("rankmetrics: {}: no column for {name}: {e}", path.display());
        }
    }
    Ok((results, shapes))
}

/// One CSV line per sample: its index, its weight if weights were given, each row-wise
/// preset's value (empty where the preset skips the row) under its name in `names`, and the
/// provenance columns, filled on the first line only (on every line they would outweigh the
/// values). Presets without per-sample values (label-wise ones, or an error) are returned
/// with the reason instead.
fn per_sample_csv<'n>(
    presets: &[Preset], names: &'n [String],
    (y_true, y_score): (&RowMajor<'_, f64>, &RowMajor<'_, f64>), weights: &Option<Vec<f64>>,
    provenance: &Provenance,
) -> (String, Vec<(&'n str, Error)>) {
    let mut columns: Vec<(&str, Vec<Option<f64>>)> = Vec::new();
    let mut skipped = Vec::new();
    for (preset, name) in presets.iter().zip(names) {
        match preset.per_sample(y_true, y_score) {
            Ok(values) => columns.push((name, values)),
            Err(e) => skipped.push((name.as_str(), e)),
        }
    }
    let mut header = vec!["sample"];
    if weights.is_some() {
        header.push("weight");
    }
    header.extend(columns.iter().map(|(name, _)| *name));
    header.extend(Provenance::CSV_COLUMNS);
    let convention = presets.first().map(Preset::convention);
    let mut csv = output::csv_line(&header);
    for i in 0..y_score.nrows().max(y_true.nrows()) {
        let mut fields = vec![i.to_string()];
        if let Some(w) = weights {
            fields.push(w.get(i).map_or(String::new(), |w| format!("{w:?}")));
        }
        for (_, values) in &columns {
            let v = values.get(i).copied().flatten();
            fields.push(v.map_or(String::new(), |v| format!("{v:?}")));
        }
        if i == 0 {
            fields.extend(provenance.csv_fields(convention));
        } else {
            fields.extend(Provenance::CSV_COLUMNS.map(|_| String::new()));
        }
        csv.push_str(&output::csv_line(&fields));
    }
    (csv, skipped)
}

/// Every metric concept under every policy and convention, in one pass; prints the table and
/// draws the chart. Status as documented in `compare --help`.
fn compare(args: &CompareArgs) -> Result<ExitCode, String> {
    let progress = Progress::new(args.data.quiet);
    let inputs = read_inputs(&args.data, &progress)?;
    let (y_true, y_score) = matrices(&inputs)?;
    let s = &inputs.y_score;
    progress.spinner(format!(
        "computing {} values on {} x {} (one sort per row)",
        compare::cell_count(),
        s.rows,
        s.cols
    ));
    let weights = inputs.weights.as_deref();
    // Hashing reads the input files again, on one core: beside the grid on the pool it
    // overlaps the grid instead of adding to it. The table names no inputs: no hashes.
    let (rows, provenance) = rayon::join(
        || compare::compare(&y_true, &y_score, weights, inputs.scores_float32),
        || match args.format {
            Format::Table => Ok(None),
            _ => Provenance::new(&args.data, Shapes::from(&inputs), compare::TOOLKITS).map(Some),
        },
    );
    let rows = rows?;
    progress.finish();
    if let Some(path) = &args.plot {
        let svg = rankmetrics::compare::svg(&rows);
        output::write_atomically(path, svg.as_bytes())?;
    }
    // The footnotes read the inputs again: only the formats for people print them.
    let notes = || {
        rankmetrics::compare::Notes::new_parallel(
            &rows,
            &y_true,
            &y_score,
            inputs.weights.as_deref(),
        )
    };
    print(&match (args.format, provenance?) {
        (Format::Table, _) => output::compare_table(&rows, &notes()),
        (Format::Json, Some(p)) => output::compare_json(&rows, inputs.weights.is_some(), &p),
        (Format::Csv, Some(p)) => output::compare_csv(&rows, &p),
        (Format::Markdown, Some(p)) => output::compare_markdown(&rows, &notes(), &p),
        (_, None) => return Err(UNHASHED.to_string()),
    });
    let all_values = rows
        .iter()
        .flat_map(|r| r.cells.iter().flatten())
        .all(|c| c.result.is_ok() || !c.column.is_convention());
    Ok(ExitCode::from(if all_values { 0 } else { 1 }))
}

/// Searches every convention for the reported values and prints the matches. Status 0 when
/// every value has a match, 1 when some has none; `Err` means status 2.
fn identify(args: &IdentifyArgs) -> Result<ExitCode, String> {
    let reported = identify::reported(&args.values, args.tolerance)?;
    let family = identify::family(args.metric.as_deref())?;
    let progress = Progress::new(args.data.quiet);
    let inputs = read_inputs(&args.data, &progress)?;
    let (y_true, y_score) = matrices(&inputs)?;
    let s = &inputs.y_score;
    progress.spinner(format!(
        "searching every convention on {} x {} (one sort per row)",
        s.rows, s.cols
    ));
    let weights = inputs.weights.as_deref();
    let found =
        rankmetrics::identify::identify_parallel(&y_true, &y_score, weights, &reported, family);
    progress.finish();
    let found = found.map_err(|e| e.to_string())?;
    let provenance = || {
        let conventions = identify::conventions(&found);
        Provenance::new(&args.data, Shapes::from(&inputs), conventions)
    };
    print(&match args.format {
        Format::Table => identify::table(&found),
        Format::Json => identify::json(&found, &provenance()?),
        Format::Csv => identify::csv(&found, &provenance()?),
        Format::Markdown => identify::markdown(&found, &provenance()?),
    });
    let all_found = found.iter().all(|id| !id.matches.is_empty());
    Ok(ExitCode::from(if all_found { 0 } else { 1 }))
}
