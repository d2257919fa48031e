//! `rankmetrics`: multilabel ranking metrics from the command line. `rankmetrics eval --help`
//! describes the command.
#![forbid(unsafe_code)]

mod args;
mod input;
mod output;

use std::io::Write as _;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser as _;
use rankmetrics::RowMajor;

use args::{Cli, Command, EvalArgs, Format};
use input::Inputs;
use output::Outcome;

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
    let Command::Eval(args) = cli.command;
    match eval(&args) {
        Ok(status) => status,
        Err(message) => {
            eprintln!("rankmetrics: error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Parses the request, reads the inputs, evaluates every preset and prints the results.
/// Status 0 when every metric has a value, 1 when some gave an error; `Err` means status 2.
fn eval(args: &EvalArgs) -> Result<ExitCode, String> {
    let presets = args::presets(args)?;
    let builtin = args.y_true.is_none() && args.y_score.is_none();
    let inputs = Inputs::read(
        args.y_true.as_deref(),
        args.y_score.as_deref(),
        args.sample_weight.as_deref(),
    )
    .map_err(|e| e.to_string())?;
    if builtin {
        eprintln!(
            "rankmetrics: using the built-in example data (8 samples x 5 labels, k-NN scores); \
             pass your own with --y-true FILE --y-score FILE"
        );
    }
    let (t, s) = (&inputs.y_true, &inputs.y_score);
    let y_true = RowMajor::new(&t.data, t.rows, t.cols).map_err(|e| e.to_string())?;
    let y_score = RowMajor::new(&s.data, s.rows, s.cols).map_err(|e| e.to_string())?;
    let outcomes: Vec<Outcome<'_>> = presets
        .iter()
        .map(|preset| Outcome {
            preset,
            weighted: inputs.weights.is_some(),
            result: preset.evaluate(&y_true, &y_score, inputs.weights.as_deref()),
        })
        .collect();
    let text = match args.format {
        Format::Json => output::json(&outcomes),
        Format::Table => output::table(&outcomes),
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    let all_values = outcomes.iter().all(|o| o.result.is_ok());
    Ok(ExitCode::from(if all_values { 0 } else { 1 }))
}
