//! The command line: arguments, help text, and the presets they ask for.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use rankmetrics::registry::{Convention, Preset};
use rankmetrics::TiePolicy;

use crate::input::{self, FirstLines, InputFormat, ReadOptions};

/// Multilabel ranking metrics with explicit tie policies, computed as scikit-learn,
/// torchmetrics, mldr and MULAN compute them.
#[derive(Debug, Parser)]
#[command(
    name = "rankmetrics",
    version,
    after_help = "Examples:
  rankmetrics compare                       # every convention side by side, built-in data
  rankmetrics compare --y-true labels.csv --y-score scores.npy --plot ties.svg
  rankmetrics eval --y-true labels.csv --y-score scores.csv --convention sklearn
  rankmetrics example --format python       # the built-in example, to re-run elsewhere

Run `rankmetrics eval --help` for the conventions, metrics and parameters, and
`rankmetrics compare --help` for the comparison."
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
    /// Every metric under every tie policy and every toolkit's convention, side by side.
    #[command(long_about = COMPARE_ABOUT, after_long_help = COMPARE_EXAMPLES)]
    Compare(CompareArgs),
    /// Which convention, metric, parameters and tie policy give a reported value.
    #[command(long_about = IDENTIFY_ABOUT, after_long_help = IDENTIFY_EXAMPLES)]
    Identify(IdentifyArgs),
    /// Print the built-in example data, to re-run what eval and compare report on it
    /// elsewhere (scikit-learn, R).
    #[command(long_about = EXAMPLE_ABOUT, after_long_help = EXAMPLE_EXAMPLES)]
    Example(ExampleArgs),
}

const EXAMPLE_ABOUT: &str = "\
Print the built-in example data that eval and compare use without --y-true and --y-score: 8 \
samples x 5 labels, with the scores a k-NN classifier (k = 5) gives, which tie often. Saved as \
files and passed back with --y-true and --y-score, they give exactly the values of the \
built-in run; printed as NumPy or R code, they re-run the same numbers in scikit-learn, \
torchmetrics or mldr.

CSV and TSV print one matrix, with a header line naming the labels (label0, label1, ...) that \
pandas' read_csv and R's read.csv take as column names and eval skips.";

const EXAMPLE_EXAMPLES: &str = "\
Examples:
  rankmetrics example y-true > y_true.csv
  rankmetrics example y-score > y_score.csv
  rankmetrics eval --y-true y_true.csv --y-score y_score.csv   # the built-in run's values
  rankmetrics example --format python     # y_true and y_score as NumPy arrays
  rankmetrics example --format r          # as R matrices";

const EVAL_ABOUT: &str = "\
Compute ranking metrics of scores against true labels, read from files.

Files hold one sample per line and one number per label, separated by commas or by whitespace \
(whichever the first line uses); a first line without numbers is a header. A first line \
0,1,...,n-1 may be pandas' column names for a DataFrame made from an array (saved with \
index=False) or a sample: it is read as the files show, with a note (a header when the other \
lines write whole numbers otherwise, as 1.0, or hold one more field; else whichever reading \
gives the label and score files as many samples), and the run is refused when both readings \
remain possible; --header and --no-header decide it. Fields may be quoted (\"1\"). A first column without a name in the header (pandas' to_csv and R's write.csv write the \
row index or row names so) is skipped, with a note, when it counts the rows from 0 or 1, and \
refused otherwise. When both files have a header, their names must agree in order, or be \
matched by name with --align-columns. Blank lines may only trail the data. An empty file has zero samples, which every metric reports as its error. Other \
formats: .tsv, .npy (NumPy arrays) and .labels (sparse label lists), each also gzipped (.gz); see \
--format-in. Without --y-true and --y-score, a built-in example (8 samples x 5 labels, k-NN \
scores with ties) is evaluated.

The files are read and evaluated a chunk of rows at a time: memory does not grow with the number \
of samples for row-wise metrics. Label-wise metrics (AUC, label average precision) keep each \
label's distinct scores with their counts where that gives the exact value; otherwise every row \
is kept and every metric of the run evaluated on them together; where the scores rarely repeat \
they are evaluated on the files read whole, as is --per-sample, and on data of one chunk (fewer \
than 4,096 rows) at once. Fortran-order .npy files are read whole (their \
rows are not contiguous).

JSON, CSV and Markdown name where the results came from: the rankmetrics version, the toolkit \
release the convention reproduces, and each input's path, shape and SHA-256 (CSV as extra \
columns). When a value under max, min or average lies outside the range of the values over \
every ordering of the ties (tied labels share one rank, which no ordering gives), a note on \
stderr says so; --quiet skips it and the computation of that range.

Exit status: 0 when every metric has a value; 1 when some metric reported an error (every \
result is still printed); 2 for unusable arguments, unreadable or unparsable files, files with \
different numbers of samples, and output files that cannot be written.";

const COMPARE_ABOUT: &str = "\
Every metric under every tie policy and every toolkit's convention, side by side: would your \
numbers change under MULAN's or scikit-learn's tie rule?

Rows are metric concepts (coverage, average precision, ranking loss, one-error, DCG, AUC, ...); \
columns are rankmetrics under the tie policies max, min, average, first and last, then each \
toolkit's own metric of that concept (\"-\" where a toolkit has none), then the tie analysis: \
the interval [low, high] of the values over every ordering of the ties (where lower is better, \
as for coverage and ranking loss, the pessimistic end is the high one) and its exact expectation, \
and the spread (largest minus smallest value across the policies and toolkits). A value \
outside the interval is marked with *: that convention differs by more than its tie rule. \
Numbered notes under the table (and the Markdown) say why a cell is nan, naming the first row \
or label that leaves it undefined, and why a flagged value that prints as an end of the \
interval lies outside it; JSON and CSV carry the values alone. All cells are computed in one \
pass over the data (one sort per row).

Exit status: 0 when every policy and toolkit cell has a value; 1 when some reported an error \
(the table is still printed; tie-analysis cells a metric has no closed form for do not count); \
2 as for eval.";

const COMPARE_EXAMPLES: &str = "\
Examples:
  rankmetrics compare
  rankmetrics compare --y-true labels.labels --y-score scores.npy
  rankmetrics compare --y-true labels.csv.gz --y-score scores.csv.gz --format markdown
  rankmetrics compare --y-true labels.csv --y-score scores.csv --plot ties.svg";

const IDENTIFY_ABOUT: &str = "\
Which convention, metric, parameters and tie policy give a reported value: a paper reports \
LRAP 0.8542 on data you have; which toolkit, under which tie rule, computed it?

Every metric of every convention is evaluated on the data (all in one pass, one sort per row): \
rankmetrics' own under every tie policy (max, min, average, first, last, pessimistic, expected, \
optimistic), each toolkit's under its own rules, with the parameters researchers usually set: \
k and torchmetrics' top_k from 1 to 20 and the label count (also 50 and 100 for precision), \
NDCG's ignore_ties, scikit-learn's and torchmetrics' average in each form, mldr's ties_method \
and undefined_value, MULAN's Weka version, torchmetrics' preds dtype, arithmetic and sigmoid \
kernel. The metrics that need propensities are not searched.

A metric matches when its value rounds to the reported one: within half a unit of the last \
printed digit (0.8542 means 0.85415 to 0.85425; 85.42% is read as 0.8542), or --tolerance. \
Each match is shown with the interval its quantity takes over every order of the tied scores, \
and the expected value over those orders: where the reported number sits. When nothing \
matches, the three closest candidates are shown instead.

Exit status: 0 when every reported value has a match; 1 when some has none; 2 as for eval.";

const IDENTIFY_EXAMPLES: &str = "\
Examples:
  rankmetrics identify --value 0.5125
  rankmetrics identify --y-true labels.csv --y-score scores.npy --value 0.8542 --metric lrap
  rankmetrics identify --y-true labels.csv --y-score scores.npy --value 0.8542 0.1203 2.75
  rankmetrics identify --y-true labels.csv --y-score scores.npy --value 85.4% --format json";

#[derive(Debug, Args)]
pub struct IdentifyArgs {
    #[command(flatten)]
    pub data: DataArgs,

    /// The reported value, as printed (0.8542, 85.42%); several values are searched at once
    #[arg(long = "value", value_name = "VALUE", required = true, num_args = 1.., allow_negative_numbers = true)]
    pub values: Vec<String>,

    /// Search one metric family (coverage, lrap, ranking_loss, one_error, is_error,
    /// error_set_size, dcg, ndcg, precision_at_k, recall_at_k, reciprocal_rank, roc_auc,
    /// label_average_precision, interpolated_average_precision) or a metric's own name
    /// [default: every family]
    #[arg(long, value_name = "NAME")]
    pub metric: Option<String>,

    /// How far from the reported value a match may lie [default: half a unit of its last
    /// printed digit]
    #[arg(long, value_name = "T")]
    pub tolerance: Option<f64>,

    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// The data files and how to read them (shared by every command).
#[derive(Debug, Args)]
pub struct DataArgs {
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

    /// The format of the data files [default: from each file's extension (.csv, .tsv, .npy,
    /// .labels, optionally .gz); other names are text with commas or whitespace]
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format_in: Option<InputFormat>,

    /// The first line of every text file is a header [default: a first line without any
    /// number is one; one that counts the columns, 0,1,...,n-1, as pandas names the columns of
    /// a DataFrame made from an array, is read as the files show, or refused where both
    /// readings remain possible]
    #[arg(long)]
    pub header: bool,

    /// The first line of every text file is a sample, even one that looks like a header
    #[arg(long, conflicts_with = "header")]
    pub no_header: bool,

    /// Put the scores' columns in the labels' order, matching the names of both files' header
    /// lines [default: the names must agree, in the same order]
    #[arg(long, requires = "y_true")]
    pub align_columns: bool,

    /// The number of labels of a .labels file [default: the scores' number of columns]
    #[arg(long, value_name = "N")]
    pub n_labels: Option<usize>,

    /// No progress bar and no notes on stderr (errors are still printed)
    #[arg(long, short)]
    pub quiet: bool,

    /// Threads that rank the rows of row-wise metrics [default: one per core]. Values are
    /// summed in row order, so every thread count gives the same bits
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,

    /// How line 1 of the label and score files is read where it counts the columns, decided
    /// from the files ([`DataArgs::decide_first_lines`]).
    #[arg(skip)]
    pub first_lines: FirstLines,
}

impl DataArgs {
    /// How to read the files.
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            format: self.format_in,
            header: self.header,
            no_header: self.no_header,
            n_labels: self.n_labels,
            quiet: self.quiet,
            align_columns: self.align_columns,
            first_lines: self.first_lines,
        }
    }

    /// Decides, from the files' evidence, how line 1 of the label and score files is read
    /// where it counts the columns (`0,1,...,n-1`): before any other read, so that every
    /// read of the run (streamed or whole) reads the same samples.
    ///
    /// # Errors
    /// As [`input::decide_first_lines`].
    pub fn decide_first_lines(&mut self) -> Result<(), String> {
        self.first_lines = input::decide_first_lines(
            self.y_true.as_deref(),
            self.y_score.as_deref(),
            self.sample_weight.as_deref(),
            self.read_options(),
        )
        .map_err(|e| e.to_string())?;
        Ok(())
    }

    /// Whether the built-in example is used.
    pub fn builtin(&self) -> bool {
        self.y_true.is_none() && self.y_score.is_none()
    }
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    #[command(flatten)]
    pub data: DataArgs,

    /// Whose metrics, names and rules to use
    #[arg(long, value_name = "NAME", default_value = "rankmetrics", value_parser = convention_parser())]
    pub convention: Convention,

    /// A metric of the convention, named as the toolkit names it; repeat for several
    /// [default: every metric of the convention; under rankmetrics, its row-wise ones]
    #[arg(long = "metric", value_name = "NAME")]
    pub metrics: Vec<String>,

    /// A parameter, named as the toolkit names it; applies to every requested metric that
    /// takes KEY
    #[arg(long = "param", value_name = "KEY=VALUE", value_parser = parse_param)]
    pub params: Vec<(String, String)>,

    /// Overrides the tie rule of every metric: max, min, average, first, last, random,
    /// random:SEED, or the tie analysis: expected, optimistic, pessimistic. Repeat it (or list
    /// policies separated by commas) to compute every metric under each; with --per-sample
    /// that writes a column per metric and policy, named METRIC:POLICY (the per-sample
    /// interval in one run: --ties pessimistic,expected,optimistic)
    #[arg(long, value_name = "POLICY", value_parser = parse_ties, value_delimiter = ',')]
    pub ties: Vec<TiePolicy>,

    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Also write each row-wise metric's value per sample to FILE (CSV, one line per sample),
    /// for paired significance tests
    #[arg(long, value_name = "FILE")]
    pub per_sample: Option<PathBuf>,
}

impl EvalArgs {
    /// The tie rules each metric is computed under, each once, in the order given: `[None]`
    /// (the convention's own) without `--ties`.
    pub fn tie_policies(&self) -> Vec<Option<TiePolicy>> {
        let mut policies: Vec<Option<TiePolicy>> = Vec::new();
        for &policy in &self.ties {
            if !policies.contains(&Some(policy)) {
                policies.push(Some(policy));
            }
        }
        if policies.is_empty() {
            policies.push(None);
        }
        policies
    }
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    #[command(flatten)]
    pub data: DataArgs,

    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Also draw the comparison as an SVG chart: per metric, each convention's value and the
    /// [low, high] interval over the orderings of the ties
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ExampleArgs {
    /// The matrix to print [default with --format python or r: both]
    #[arg(value_enum, value_name = "MATRIX")]
    pub matrix: Option<ExampleMatrix>,

    /// How to print it
    #[arg(long, value_enum, default_value_t = ExampleFormat::Csv)]
    pub format: ExampleFormat,
}

/// One matrix of the built-in example.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExampleMatrix {
    /// The true labels (0/1)
    YTrue,
    /// The scores
    YScore,
}

/// How `example` prints the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExampleFormat {
    /// Comma-separated, with a header line (one matrix)
    Csv,
    /// Tab-separated, with a header line (one matrix)
    Tsv,
    /// NumPy arrays named y_true and y_score
    Python,
    /// R matrices named y_true and y_score
    R,
}

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON document: {"results": [...]}
    Json,
    /// Aligned columns
    Table,
    /// Comma-separated values with a header line
    Csv,
    /// A Markdown table, to paste into a paper or an issue
    Markdown,
}

fn convention_parser() -> impl TypedValueParser<Value = Convention> {
    PossibleValuesParser::new(Convention::ALL.map(Convention::name))
        .try_map(|name| Convention::parse(&name).ok_or("unknown convention"))
}

fn parse_ties(s: &str) -> Result<TiePolicy, String> {
    s.parse()
        .map_err(|e: rankmetrics::UnknownName| e.to_string())
}

/// `KEY=VALUE`, or `KEY=@FILE`: the value is the file's numbers (separated by commas, spaces
/// or newlines), joined by commas, as a list parameter (`inv_propensities`) takes them.
fn parse_param(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((key, value)) if !key.is_empty() => match value.strip_prefix('@') {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {path}: {e}"))?;
                let items = text.split(|c: char| c == ',' || c.is_whitespace());
                let numbers: Vec<&str> = items.filter(|v| !v.is_empty()).collect();
                Ok((key.to_string(), numbers.join(",")))
            }
            None => Ok((key.to_string(), value.to_string())),
        },
        _ => Err("expected KEY=VALUE (or KEY=@FILE)".into()),
    }
}

/// The presets the arguments ask for, in order: each metric under each of
/// [`tie_policies`](EvalArgs::tie_policies). torchmetrics' preds dtype, without
/// `--param dtype`, is the scores file's: float32 when it holds float32 values
/// (`scores_float32`, a `.npy` file of `<f4`), float64 otherwise (text has no dtype); it is
/// always echoed, so the output says which.
///
/// # Errors
/// A message for an unknown metric, a parameter no requested metric takes, or a parameter
/// value a metric cannot take.
pub fn presets(args: &EvalArgs, scores_float32: bool) -> Result<Vec<Preset>, String> {
    let convention = args.convention;
    let names: Vec<&str> = if args.metrics.is_empty() {
        let entries = convention.entries().iter();
        entries
            .filter(|e| e.in_default_run)
            .map(|e| e.name)
            .collect()
    } else {
        args.metrics.iter().map(String::as_str).collect()
    };
    let policies = args.tie_policies();
    let presets = names
        .iter()
        .flat_map(|name| policies.iter().map(move |&ties| (name, ties)))
        .map(|(name, ties)| {
            // One --param may serve several --metric's: each preset gets the keys it takes;
            // a key no requested metric takes is reported below.
            let keys = Preset::param_keys(convention, name);
            let mut params: Vec<(&str, &str)> = Vec::new();
            if keys.contains(&"dtype") {
                params.push(("dtype", preds_dtype(scores_float32))); // a --param comes later
            }
            params.extend(
                args.params
                    .iter()
                    .filter(|(k, _)| keys.contains(&k.as_str()))
                    .map(|(k, v)| (k.as_str(), v.as_str())),
            );
            Preset::lookup(convention, name, &params, ties).map_err(|e| e.to_string())
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

/// torchmetrics' preds dtype for scores read from a file: float32 for float32 values (a
/// `.npy` file of `<f4`), float64 otherwise, as `torch.from_numpy` gives for float64 data.
pub fn preds_dtype(scores_float32: bool) -> &'static str {
    if scores_float32 {
        "float32"
    } else {
        "float64"
    }
}

/// The long help's list of conventions, their metrics and parameter defaults.
fn conventions_help() -> String {
    let mut help = String::from("Conventions and their metrics, with the parameters' defaults:\n");
    for convention in Convention::ALL {
        let _ = writeln!(help, "\n  {convention}: {}", describe(convention));
        let width = convention.metric_names().iter().map(|n| n.len()).max();
        for entry in convention.entries() {
            let name = entry.name;
            // A metric with a required parameter lists its keys: REQUIRED where no default.
            let defaults = match Preset::lookup(convention, name, Preset::NO_PARAMS, None) {
                Ok(p) => p
                    .params()
                    .iter()
                    .map(|(k, v)| format!(" {k}={v}"))
                    .collect(),
                // The tie policy first, as a preset echoes it.
                Err(_) => (entry.default_ties.iter())
                    .map(|t| format!(" ties={}", t.name()))
                    .chain(
                        (entry.params.iter())
                            .map(|p| format!(" {}={}", p.key, p.default.unwrap_or("REQUIRED"))),
                    )
                    .collect::<String>(),
            };
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
        Convention::Torchmetrics => {
            "torchmetrics 1.9 (functional.classification), in the preds' dtype: float32 for a \
             float32 .npy scores file, float64 otherwise (--param dtype=float32 for text files \
             of a float32 model's outputs)"
        }
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
  labels                     binary (0/1; anything else is an error) | nonzero (every non-zero
                             label is relevant): rankmetrics' metrics of relevance
  ties_method                average | first | last | max | min | random | random:SEED
  weka                       3.7 (ties within 1e-6, as MULAN ships) | 3.9 (exact ties)
  average                    macro | micro | weighted | samples: over what a label-wise metric
                             is computed and averaged (roc_auc, label_average_precision,
                             interpolated_average_precision; torchmetrics' multilabel_auroc and
                             multilabel_average_precision take macro, micro or weighted)
  undefined                  nan | skip | error | a number: what a label (or row) gives where
                             the metric is undefined (AUC: one class only; AP: no relevant
                             item)
  inv_propensities           one inverse propensity per label, comma-separated, or @FILE: a
                             file of them separated by commas, spaces or newlines
  dtype                      float32 | float64 | float16 | bfloat16: torchmetrics' preds dtype
                             (the scores are cast to it; its sigmoid and ties follow it)
                             [default: the scores file's: float32 for an <f4 .npy file,
                             float64 for text and other .npy files]
  sigmoid                    scalar | avx2 | avx512 | torch-cpu: which of torch's CPU kernels
                             computes torchmetrics' sigmoid on logits (its vector kernels give
                             most elements another exp; torch-cpu: this machine's)
                             [default: scalar, the one-element formula]
  memory_order               c | f | rows | columns | strided: how the preds tensor lay in
                             memory, the order in which torch's vector sigmoid meets its
                             elements (rows, columns: apart, each run on its own; strided:
                             one at a time) [default: c]
  torch_threads              a whole number from 1: the threads torch splits a tensor of
                             32,768 scores or more among [default: 1]
  arithmetic                 float64 | float32: torchmetrics' LRAP, NDCG and retrieval means
                             exact, or in its float32 arithmetic to the bit [default: float64]

Examples:
  rankmetrics eval
  rankmetrics eval --y-true labels.csv --y-score scores.csv
  rankmetrics eval --y-true labels.csv --y-score scores.csv --convention sklearn \\
      --metric coverage_error --sample-weight weights.txt --format json
  rankmetrics eval --y-true labels.csv --y-score scores.csv --convention mldr \\
      --metric coverage --param ties_method=first
  rankmetrics eval --metric roc_auc --param average=micro
  rankmetrics eval --metric psprecision_at_k --param k=3 --param inv_propensities=@props.txt";
