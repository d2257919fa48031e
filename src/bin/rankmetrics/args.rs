//! The command line: arguments, help text, and the presets they ask for.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use rankmetrics::registry::{Convention, Preset};
use rankmetrics::TiePolicy;

/// Multilabel ranking metrics with explicit tie policies, computed as scikit-learn,
/// torchmetrics, mldr and MULAN compute them.
#[derive(Debug, Parser)]
#[command(
    name = "rankmetrics",
    version,
    after_help = "Run `rankmetrics eval --help` for the conventions, metrics and parameters."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute ranking metrics of scores against true labels, read from files.
    #[command(long_about = EVAL_ABOUT, after_long_help = conventions_help())]
    Eval(EvalArgs),
}

const EVAL_ABOUT: &str = "\
Compute ranking metrics of scores against true labels, read from files.

Files hold one sample per line and one number per label, separated by commas or by whitespace \
(whichever the first line uses), without a header. Blank lines may only trail the data. An empty \
file has zero samples, which every metric reports as its error. Without --y-true and --y-score, \
a built-in example (8 samples x 5 labels, k-NN scores with ties) is evaluated.

Exit status: 0 when every metric has a value; 1 when some metric reported an error (every \
result is still printed); 2 for unusable arguments and unreadable or unparsable files.";

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// True labels: 0/1 per label, or the gains the convention accepts
    #[arg(long, value_name = "FILE", requires = "y_score")]
    pub y_true: Option<PathBuf>,

    /// Scores, one per label; higher ranks first
    #[arg(long, value_name = "FILE", requires = "y_true")]
    pub y_score: Option<PathBuf>,

    /// One weight per sample, one per line. Only scikit-learn and rankmetrics take weights;
    /// for the other toolkits the weighted mean of their per-sample values is reported
    #[arg(long, value_name = "FILE", requires_all = ["y_true", "y_score"])]
    pub sample_weight: Option<PathBuf>,

    /// Whose metrics, names and rules to use
    #[arg(long, value_name = "NAME", default_value = "rankmetrics", value_parser = convention_parser())]
    pub convention: Convention,

    /// A metric of the convention, named as the toolkit names it; repeat for several
    /// [default: every metric of the convention]
    #[arg(long = "metric", value_name = "NAME")]
    pub metrics: Vec<String>,

    /// A parameter, named as the toolkit names it; applies to every requested metric that
    /// takes KEY
    #[arg(long = "param", value_name = "KEY=VALUE", value_parser = parse_param)]
    pub params: Vec<(String, String)>,

    /// Overrides the tie rule of every metric: max, min, average, first, last, random or
    /// random:SEED
    #[arg(long, value_name = "POLICY", value_parser = parse_ties)]
    pub ties: Option<TiePolicy>,

    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON document: {"results": [...]}
    Json,
    /// Aligned columns
    Table,
}

fn convention_parser() -> impl TypedValueParser<Value = Convention> {
    PossibleValuesParser::new(Convention::ALL.map(Convention::name))
        .try_map(|name| Convention::parse(&name).ok_or("unknown convention"))
}

fn parse_ties(s: &str) -> Result<TiePolicy, String> {
    TiePolicy::parse(s)
        .ok_or_else(|| "expected max, min, average, first, last, random or random:SEED".into())
}

fn parse_param(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_string(), value.to_string())),
        _ => Err("expected KEY=VALUE".into()),
    }
}

/// The presets the arguments ask for, in order.
///
/// # Errors
/// A message for an unknown metric, a parameter no requested metric takes, or a parameter
/// value a metric cannot take.
pub fn presets(args: &EvalArgs) -> Result<Vec<Preset>, String> {
    let convention = args.convention;
    let names: Vec<&str> = if args.metrics.is_empty() {
        convention.metric_names().to_vec()
    } else {
        args.metrics.iter().map(String::as_str).collect()
    };
    let presets = names
        .iter()
        .map(|name| {
            Preset::lookup(convention, name, &args.params, args.ties).map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut taken: Vec<&str> = Vec::new();
    for name in &names {
        for key in Preset::param_keys(convention, name) {
            if !taken.contains(key) {
                taken.push(key);
            }
        }
    }
    if let Some((key, value)) = args
        .params
        .iter()
        .find(|(k, _)| !taken.contains(&k.as_str()))
    {
        let hint = match key.as_str() {
            "ties" => " (use --ties POLICY)".to_string(),
            "sample_weight" => " (use --sample-weight FILE)".to_string(),
            _ if taken.is_empty() => String::new(),
            _ => format!("; they take: {}", taken.join(", ")),
        };
        return Err(format!(
            "--param {key}={value}: no requested metric of {convention} takes {key:?}{hint}"
        ));
    }
    Ok(presets)
}

/// The long help's list of conventions, their metrics and parameter defaults.
fn conventions_help() -> String {
    let mut help = String::from("Conventions and their metrics, with the parameters' defaults:\n");
    for convention in Convention::ALL {
        let _ = writeln!(help, "\n  {convention}: {}", describe(convention));
        let width = convention.metric_names().iter().map(|n| n.len()).max();
        for name in convention.metric_names() {
            let defaults = Preset::lookup(convention, name, &[], None)
                .map(|p| {
                    p.params()
                        .iter()
                        .map(|(k, v)| format!(" {k}={v}"))
                        .collect::<String>()
                })
                .unwrap_or_default();
            let _ = writeln!(help, "    {name:<w$}{defaults}", w = width.unwrap_or(0));
        }
    }
    help.push_str(PARAMS_HELP);
    help
}

fn describe(convention: Convention) -> &'static str {
    match convention {
        Convention::Rankmetrics => {
            "this crate's own metrics, every rule a parameter (the default; --ties default max)"
        }
        Convention::Sklearn => "scikit-learn 1.9 (sklearn.metrics), weights allowed",
        Convention::Torchmetrics => "torchmetrics 1.9 (functional.classification), in f64",
        Convention::Mldr => "mldr 0.4.2 (R)",
        Convention::Mulan => "MULAN (mulan.evaluation.measure)",
        _ => "",
    }
}

const PARAMS_HELP: &str = "
Parameter values:
  one_based                  true | false: count ranks from 1 (coverage)
  grouping                   exact | weka | a tolerance such as 1e-6: scores closer than it tie
  no_relevant, all_relevant  formula | skip | reject | a number: how such rows count
  ties_method                average | first | last | max | min | random | random:SEED
  weka                       3.7 (ties within 1e-6, as MULAN ships) | 3.9 (exact ties)

Examples:
  rankmetrics eval
  rankmetrics eval --y-true labels.csv --y-score scores.csv
  rankmetrics eval --y-true labels.csv --y-score scores.csv --convention sklearn \\
      --metric coverage_error --sample-weight weights.txt --format json
  rankmetrics eval --y-true labels.csv --y-score scores.csv --convention mldr \\
      --metric coverage --param ties_method=first";
